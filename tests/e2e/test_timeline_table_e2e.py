"""Issue 25's table over the real WebSocket: the bot runs a TimeLine battle a GM reads on a phone.

A roster of three players (甲 乙 丙) and the GM's two NPCs (Goblin, level 5: 力量 87.5, 意志 75,
体力 75; 狼人, level 10), a first declaration aimed at somebody who has not declared, a parry
and a dodge, an action declared as nothing in particular that lands in full, a stun after a
``推进``, a death under automatic damage with the actions it voids, the picture, and ``.bat end``
with its summary — which a recording ``.log`` keeps.  Every reply of the battle is at most six
lines, ``.bat``, ``.bat 全`` and ``.bat 记录`` excepted (the long forms).

Level-10 sheets: 力量/敏捷 175, 意志 150, 体力 150; ``.bat 力量 Nt`` has impact 175·N/20.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from onebot_client import BotProcess, OneBotClient

pytestmark = pytest.mark.e2e

SHEET = (
    ".TLsetup 姓名:{name},种族:,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:,职业:,"
    "等级:{lv},物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
JIA, YI, BING, GM = 10001, 10002, 10003, 99999
ADMIN = {"user": GM, "role": "admin"}


async def test_a_gm_runs_the_table_from_roster_to_summary(bot_process: BotProcess, tmp_path: Path) -> None:
    async with OneBotClient(bot_process.url) as c:
        seen: list[tuple[str, str]] = []

        async def say(text: str, user: int = JIA, **kw: object) -> str:
            reply = await c.group(text, user=user, expect=1, **kw)  # type: ignore[arg-type]
            seen.append((text, reply))
            return reply

        async def gm(text: str) -> str:
            return await say(text, **ADMIN)  # type: ignore[arg-type]

        for user, name, lv in (
            (JIA, "甲", 10),
            (YI, "乙", 10),
            (BING, "丙", 10),
            (GM, "Goblin", 5),
            (GM, "狼人", 10),
        ):
            assert f"[{name}] 的TL属性设置完成√" in await c.group(
                SHEET.format(name=name, lv=lv),
                user=user,
                expect=1,
                **({"role": "admin"} if user == GM else {}),
            )
        assert "开始记录日志「遭遇战」" in await gm(".log new 遭遇战")
        # -- the GM names the roster; nobody has declared, everybody holds the clock at 0
        text = await gm(".bat 开始 甲 乙 丙 Goblin 狼人")
        assert (
            "战斗开始√ 参战：甲（0.0t加入）、乙（0.0t加入）、丙（0.0t加入）、Goblin（0.0t加入）、狼人（0.0t加入）"
            in text
        )
        # -- the first declaration aims at Goblin, who has not declared yet
        text = await say(".bat 力量 6t >Goblin 重拳")  # #1 甲 0→6, 52.5
        assert text.startswith("行动#1 甲：0.0t → 6.0t（前摇6.0t）影响 52.5 →Goblin 重拳〔伤害〕\n")
        await gm(".bat Goblin:力量 8t >甲 招架")  # #2 Goblin 0→8, 87.5·8/20 = 35.0: a parry against 甲
        await say(".bat 敏捷 6t 闪避", user=YI)  # #3 乙 0→6, 52.5: a dodge against anybody
        await gm(".bat 狼人:力量 4t >乙")  # #4 狼人 0→4, 35.0
        text = await say(".bat 力量 5t >狼人", user=BING)  # #5 丙 0→5, 43.8; the clock reaches 4t
        assert "✔#4 狼人 力量 35.0 @4.0t →乙：乙#3闪避52.5，52.5−35.0 → 完全挡下" in text
        assert text.endswith("⏱ 战斗时间 4.0t｜行动5个｜▶ 下一个行动：狼人（4.0t）")
        # -- 丙's #5 is no defence and 狼人's #6 is no defence: it lands in full, ready to record
        text = await gm(".bat 狼人:力量 10t >丙")  # #6 狼人 4→14, 87.5; the clock reaches 5t
        assert (
            "✔#5 丙 力量 43.8 @5.0t →狼人：狼人#6（87.5）前摇中，非防御动作，全额命中43.8，"
            "记伤害：.crd 狼人:hp -43.8 #5"
        ) in text
        assert "已记入时间轴 @5.0t" in await gm(".crd 狼人:hp -43.8 #5")
        # -- the parry: 甲's 52.5 against Goblin's 招架 35.0 at 6t → 17.5 gets through
        text = await say(".bat 力量 4t", user=BING)  # #7 丙 5→9; the clock reaches 6t
        assert (
            "✔#1 甲 重拳 52.5 @6.0t →Goblin：Goblin#2招架35.0，52.5−35.0 → 命中17.5，"
            "记伤害：.crd Goblin:hp -17.5 #1"
        ) in text
        assert "✔#3 乙 闪避 52.5 @6.0t（闪避）" in text
        assert "已记入时间轴 @6.0t" in await gm(".crd Goblin:hp -17.5 #1")  # 75 → 57.5
        # -- time passes to 8t, then the stun of #5: 狼人 resists 43.8 with 意志 150 → 5.84t from 5t
        calls = await c.send(".bat 推进 8", expect=1, **ADMIN)  # type: ignore[arg-type]
        text = calls[0].text.strip()
        assert text.startswith("战斗时间推进到8.0t，结算1个行动；甲、乙等待到8.0t\n")
        # 甲 and 乙 must declare now: a real @ each (issue 39 defect 7), once
        ats = [seg["data"]["qq"] for seg in calls[0].params["message"] if seg["type"] == "at"]
        assert sorted(ats) == sorted([str(JIA), str(YI)])
        assert "✔#2 Goblin 招架 35.0 @8.0t（招架，防备甲）" in text
        await say(".bat 力量 4t", user=YI)  # #8 乙 8→12
        text = await gm(".bat 控制 #5 意志")
        assert "💫 狼人被行动#5控制：43.8 vs 意志 150.0 → 持续5.84t（5.0→10.84t）" in text
        assert "狼人的行动#6在前摇中被打断进度，推迟到19.84t结算" in text
        # -- automatic damage: 甲's 70 kills Goblin (57.5 left) at 16t, voiding its #9
        assert "自动伤害：开√" in await gm(".bat 自动伤害 开")
        await gm(".bat Goblin:力量 10t")  # #9 Goblin 8→18
        await say(".bat 力量 8t >Goblin")  # #10 甲 8→16, 70.0
        text = await gm(".bat 推进 16")
        assert (
            "✔#10 甲 力量 70.0 @16.0t →Goblin：Goblin#9（43.8）前摇中，非防御动作，全额命中70.0，"
            "已扣除：体力57.5→0.0 ☠Goblin死亡，#9作废"
        ) in text
        assert "体力: 0.0/75.0" in await gm(".crd Goblin:")
        # -- the long forms, and the picture
        whole = await gm(".bat 全")
        assert "⏱ 战斗时间 16.0t" in whole and "Goblin[NPC] : " in whole and "☠死亡" in whole
        assert "@16.0t ☠ Goblin 死亡" in await gm(".bat 记录")  # the last page
        assert "@5.0t 💫 狼人 被行动#5控制至10.84t" in await gm(".bat 记录 1")
        calls = await c.send(".bat 图", user=GM, role="admin", expect=1)
        assert calls[0].has_image
        # -- the end, with the summary (Goblin took 17.5 + 57.5; 狼人 43.8)
        summary = await gm(".bat end")
        assert summary.startswith("战斗结束，时间轴归位√ 历时16.0t，完成行动")
        assert "Goblin[NPC]☠16.0t：行动1 造成0.0 承受75.0" in summary
        assert "丙：行动2 造成43.8 承受0.0" in summary and "甲：行动2 造成75.0 承受0.0" in summary
        for command, reply in seen:
            if command not in (".bat", ".bat 全") and not command.startswith(".bat 记录"):
                assert len(reply.splitlines()) <= 6, (command, reply)
        # -- the recording log keeps the summary
        calls = await c.send(".log end", user=GM, role="admin", expect=5)
        uploads = [x for x in calls if x.action == "upload_group_file"]
        txt = Path(uploads[0].params["file"]).read_text(encoding="utf-8")
        assert summary.splitlines()[0] in txt and "Goblin[NPC]☠16.0t：行动1 造成0.0 承受75.0" in txt
