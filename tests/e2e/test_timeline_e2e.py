"""A whole three-character TimeLine battle through the real bot process and a OneBot WebSocket.

Import with .TLsetup, target, checks, negotiation, a weapon with ammo and reload, defence, an NPC,
a late joiner, a cancelled action, a death, a SIGKILL in the middle of the battle, and .bat end.
"""

from __future__ import annotations

import re

from onebot_client import BotProcess, OneBotClient

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:,职业:,"
    "等级:{lv},物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
JIA, YI, BING, GM = 10001, 10002, 10003, 99999
REVOLVER = (
    ".setupWP 名称:左轮,类型:火力,增幅属性:,伤害:3,前摇:0.5,射程:50,载弹量:6,装填时间:4,负重:1,备注:六连发"
)


async def test_three_character_battle_survives_a_restart(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as c:
        # -- characters: three players' sheets and the GM's NPC, pasted as the Excel sheet emits them
        for user, name, lv in ((JIA, "甲", 10), (YI, "乙", 10), (BING, "丙", 10), (GM, "哥布林", 5)):
            text = await c.group(SHEET.format(name=name, lv=lv), user=user, expect=1)
            assert f"[{name}] 的TL属性设置完成√" in text
        # -- target value (GM only), a check, negotiation
        assert "只有" in await c.group(".tar 10 10", user=JIA, expect=1)
        assert "已设定目标数值为100√" in await c.group(".tar 10 10", user=GM, role="admin", expect=1)
        text = await c.group(".ex力量", user=JIA, expect=1)
        assert "甲进行[力量]检定\n目标100 比值175.0/500\n成功率：35%" in text
        assert "已设定交涉对象！" in await c.group(".neg 10 35", user=JIA, expect=1)
        assert "成功率：50%" in await c.group(".neg 100", user=JIA, expect=1)
        # -- 乙's revolver and armour
        assert "乙增加武器[左轮]√" in await c.group(REVOLVER, user=YI, expect=1)
        assert "🛡 -体力 [100d] 物理" in await c.group(".dr 护甲 -hp 100d 物理", user=YI, expect=1)
        # -- the battle: everyone declares at t 0
        text = await c.group(".bat 力量 175 重拳", user=JIA, expect=1)
        assert "行动#1 甲：0.0t → 20.0t" in text
        text = await c.group(".bat wp 3", user=YI, expect=1)
        assert "行动#2 乙：0.0t → 1.5t（前摇1.5t）影响 9.0 左轮[3/6]" in text  # issue 25: compact
        assert "1.5t (1.5t) : 9.0" in await c.group(".bat 全", user=YI, expect=1)
        text = await c.group(".bat 哥布林:力量 87.5", user=GM, role="admin", expect=1)
        assert "[哥布林]（NPC）在0.0t加入战斗" in text
        # everyone has declared: the GM starts the clock (the opening no longer ends by itself)
        assert "开始" in await c.group(".bat 开始", user=GM, role="admin", expect=1)
        await c.group(".bat wp 3", user=YI, expect=1)  # 1.5 → 3.0, magazine empty
        assert "没有足够的弹药× 当前弹药: 0/6" in await c.group(".bat wp 1", user=YI, expect=1)
        text = await c.group(".bat wp re", user=YI, expect=1)
        assert "整备中..." in text and "⏱ 战斗时间 7.0t" in text  # 乙 decides again at 7
        bot_process.kill()  # SIGKILL in the middle of the battle

    bot_process.start()
    async with OneBotClient(bot_process.url) as c:
        text = await c.group(".bat 全", user=JIA, expect=1)
        assert "⏱ 战斗时间 7.0t｜行动5个" in text
        assert "乙 : 18.0\n7.0t (4.0t) : 整备中..." in text
        assert "哥布林[NPC] : 87.5" in text
        # -- a late joiner starts at the battle clock, not at 0
        text = await c.group(".bat 敏捷 87.5", user=BING, expect=1)
        assert "[丙]在7.0t加入战斗" in text and "7.0t → 17.0t" in text
        # -- 甲 cancels the punch during its windup
        assert "[甲]取消行动#1于7.0t√" in await c.group(".bat 取消", user=JIA, expect=1)
        text = await c.group(".bat 敏捷 35", user=JIA, expect=1)
        assert "7.0t → 11.0t" in text
        # -- damage with defence: 100d at level 10 halves it
        text = await c.group(".crd hp -200 物理", user=YI, expect=1)
        assert "[体力]变更: [↓]-100.0\n150.0→50.0/150.0" in text and "已记入时间轴 @7.0t" in text
        # -- the NPC dies
        text = await c.group(".crd hp -100", user=GM, role="admin", expect=1)
        assert "哥布林的体力降至0，角色死亡" in text
        text = await c.group(".bat 全", user=JIA, expect=1)
        assert "☠死亡" in text and "▶ 下一个行动：" in text
        assert "已经死亡" in await c.group(".bat 哥布林:力量 10", user=GM, role="admin", expect=1)
        # -- the picture of the timeline
        calls = await c.send(".bat 图", user=JIA, expect=1)
        assert calls[0].has_image
        log = await c.group(".bat 记录 1", user=JIA, expect=1)
        assert re.search(r"#1 甲 0\.0→20\.0t .*取消@7\.0t", log), log
        # -- only the GM ends the battle; ammo goes back to the character
        assert "只有" in await c.group(".bat end", user=JIA, expect=1)
        assert "战斗结束，时间轴归位√" in await c.group(".bat end", user=GM, role="admin", expect=1)
        assert "当前载弹: 6" in await c.group(".wp show", user=YI, expect=1)
        assert "没有战斗数据×" in await c.group(".bat", user=JIA, expect=1)
