"""A TimeLine battle on the rule book's clock through the real bot process and a OneBot WebSocket.

Three players and two NPCs of the GM (one with a Latin name), 20 actions typed out of time order
(players typing ahead), an interrupt, a stun, a cancel of an older action, a death, a late
joiner, the timeline picture, ``.undo``, and a SIGKILL of the bot with the battle intact after
the restart.  Standard sheets: 力量/敏捷 175, 意志 150 at level 10; Goblin is level 5 (力量 87.5,
体力 75).  ``.bat 力量 Nt`` gives impact 175/10·N/2.
"""

from __future__ import annotations

from onebot_client import BotProcess, OneBotClient

SHEET = (
    ".TLsetup 姓名:{name},种族:,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:,职业:,"
    "等级:{lv},物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
JIA, YI, BING, GM = 10001, 10002, 10003, 99999
ADMIN = {"user": GM, "role": "admin"}


async def test_battle_on_the_rule_books_clock(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as c:

        async def say(text: str, user: int = JIA, **kw: object) -> str:
            return await c.group(text, user=user, expect=1, **kw)  # type: ignore[arg-type]

        async def gm(text: str) -> str:
            return await c.group(text, expect=1, **ADMIN)  # type: ignore[arg-type]

        for user, name, lv in (
            (JIA, "甲", 10),
            (YI, "乙", 10),
            (BING, "丙", 10),
            (GM, "Goblin", 5),
            (GM, "狼人", 10),
        ):
            assert f"[{name}] 的TL属性设置完成√" in await say(SHEET.format(name=name, lv=lv), user=user)
        # -- the opening: everybody's first action starts at 0, whatever the typing order
        text = await gm(".bat Goblin:力量 10t")  # #1 Goblin 0 → 10, 43.8
        assert "[Goblin]（NPC）在0.0t加入战斗" in text
        text = await say(".bat 力量 4t >Goblin 重拳")  # #2 甲 0 → 4, 35.0
        assert "行动#2 甲：0.0t → 4.0t（前摇4.0t）影响 35.0 →Goblin" in text
        await say(".bat 敏捷 6t", user=YI)  # #3 乙 0 → 6
        text = await gm(".bat 狼人:力量 8t")  # #4 狼人 0 → 8, 70.0
        assert "⏱ 战斗时间 0.0t｜行动4个" in text
        # -- the GM starts the battle (issue 25: a second declaration no longer does); #2 resolves at 4
        text = await gm(".bat 开始")
        assert "⏱ 战斗时间 4.0t" in text
        # issue 25 defect 4: Goblin's #1 is not declared as a defence, so 甲's 35.0 lands in full
        assert (
            "✔#2 甲 重拳 35.0 @4.0t →Goblin：Goblin#1（43.8）前摇中，非防御动作，全额命中35.0，"
            "记伤害：.crd Goblin:hp -35.0 #2"
        ) in text
        # -- 甲 types ahead; the battle is only where somebody has nothing declared
        text = await say(".bat 力量 2t")  # #5 甲 4 → 6
        assert "⏱ 战斗时间 6.0t" in text
        await say(".bat 力量 3t")  # #6 甲 6 → 9
        # #6 still winds up: 甲 decides again when it settles (issue 39 defect 7); the GM may queue
        assert "[甲]的行动#6还在前摇（9.0t结算）" in await say(".bat 力量 3t")
        text = await gm(".bat 甲:力量 3t")  # #7 甲 9 → 12
        assert "⏱ 战斗时间 6.0t" in text and "▶ 下一个行动：乙（6.0t）" in text
        # -- the interrupt: the GM cancels Goblin's windup (not the latest-typed action)
        text = await gm(".bat 取消 #1")
        assert "[Goblin]取消行动#1于6.0t√ 下一个行动从6.0t开始" in text
        await gm(".bat Goblin:力量 4t")  # #8 Goblin 6 → 10
        await say(".bat 敏捷 4t >狼人", user=YI)  # #9 乙 6 → 10, 35.0
        text = await gm(".bat 狼人:力量 6t")  # #10 狼人 8 → 14, 52.5: the clock reaches 10, #9 resolves
        assert (
            "✔#9 乙 敏捷 35.0 @10.0t →狼人：狼人#10（52.5）前摇中，非防御动作，全额命中35.0，"
            "记伤害：.crd 狼人:hp -35.0 #9"
        ) in text
        await say(".bat 敏捷 4t", user=YI)  # #11 乙 10 → 14
        text = await gm(".bat 乙:敏捷 4t")  # #12 乙 14 → 18 (queued by the GM: #11 winds up)
        assert "⏱ 战斗时间 10.0t" in text
        # -- the stun: 狼人 resists 35 with 意志 150 → 20·35/150 = 4.67t from 10t; #10 is paused
        text = await say(".bat 控制 #9 意志", user=YI)
        assert "狼人被行动#9控制：35.0 vs 意志 150.0 → 持续4.67t（10.0→14.67t）" in text
        assert "行动#10在前摇中被打断进度，推迟到18.67t结算" in text
        await gm(".bat Goblin:力量 2t")  # #13 Goblin 10 → 12; the clock is 12
        # -- 乙 cancels an older action (#11 in its windup, not the latest), #12 moves up
        text = await say(".bat 取消 #11", user=YI)
        assert "[乙]取消行动#11于12.0t√ 下一个行动从16.0t开始" in text
        # -- a death at the moment the hit resolved
        text = await gm(".crd Goblin:hp -80 #7")
        assert "Goblin的体力降至0，角色死亡" in text and "已记入时间轴 @12.0t" in text
        # -- a late joiner enters at the clock
        text = await say(".bat 力量 5t", user=BING)  # #14 丙 12 → 17
        assert "[丙]在12.0t加入战斗" in text and "12.0t → 17.0t" in text
        for name, form in (  # the GM queues for them (their own actions still wind up)
            ("甲", "力量 4t"),
            ("乙", "敏捷 3t"),
            ("甲", "力量 2t"),
            ("丙", "力量 2t"),
            ("乙", "敏捷 2t"),
        ):
            text = await gm(f".bat {name}:{form}")  # #15–#19
        assert "⏱ 战斗时间 18.0t｜行动19个" in text
        text = await gm(".bat 狼人:力量 2t")  # #20 狼人 18.67 → 20.67
        assert "行动#20 狼人：18.67t → 20.67t" in text
        assert "已经死亡" in await gm(".bat Goblin:力量 1t")
        # -- the picture, then .undo of the last action
        calls = await c.send(".bat 图", user=JIA, expect=1)
        assert calls[0].has_image
        assert "撤销" in await gm(".undo")
        assert "⏱ 战斗时间 18.0t｜行动19个" in await say(".bat")
        bot_process.kill()  # SIGKILL in the middle of the battle

    bot_process.start()
    async with OneBotClient(bot_process.url) as c:
        text = await c.group(".bat", user=JIA, expect=1)
        assert "⏱ 战斗时间 18.0t｜行动19个" in text and "☠死亡" in text
        log = "\n".join([await c.group(f".bat 记录 {k}", user=JIA, expect=1) for k in (1, 2, 3)])
        assert "取消@6.0t" in log and "💫 狼人 被行动#9控制至14.67t" in log
        text = await c.group(".bat 狼人:力量 2t", expect=1, **ADMIN)  # #20 again
        assert "行动#20 狼人：18.67t → 20.67t" in text
        assert "战斗结束，时间轴归位√" in await c.group(".bat end", expect=1, **ADMIN)
