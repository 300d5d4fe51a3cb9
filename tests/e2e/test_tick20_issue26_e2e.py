"""End to end (issue 26, the last part): over ``python bot.py`` and a real WebSocket, a GM stores a
named attack on an NPC card and attacks with it in one command, adds an NPC with ``.init add``
from its card, writes notes (an NPC's only to him); a player spends her high-attribute gauge and
自我 for advantage, trauma makes her <发狂>, an attribute falls to 0, and at 速度 0 she makes a
【全力移动】 (seed 002)."""

from __future__ import annotations

import pytest
from onebot_client import OneBotClient

pytestmark = pytest.mark.e2e

GM = {"user": 10001, "role": "admin", "card": "主持人"}
AILIN = {"user": 10002, "card": "艾琳"}


async def send(c: OneBotClient, text: str, who: dict) -> tuple[str, str]:
    calls = await c.send(text, **who)
    public = "\n".join(x.text for x in calls if x.to_group)
    secret = "\n".join(x.text for x in calls if x.is_private)
    return public, secret


async def test_named_attacks_notes_and_the_last_002_rules(onebot: OneBotClient) -> None:
    group: list[str] = []

    async def say(text: str, who: dict) -> tuple[str, str]:
        public, secret = await send(onebot, text, who)
        group.append(public)
        return public, secret

    await say(".set tick20", GM)
    await say(".npc 哥布林 力量12 敏捷14 洞悉1 武器熟练1 LV4", GM)
    public, secret = await say(".npc 攻击 哥布林 短剑 hit2 dp3 切割", GM)
    assert (
        public.startswith("已记下 <哥布林> 的攻击「短剑」") and secret == "<哥布林> 短剑：近战 hit2 dp3 切割"
    )
    await say(".st 力量20 体质12 敏捷12 闪避1 智慧10 感悟12 自我3 狂气2 LV4", AILIN)

    await say(".init begin", GM)
    await say(".ri =15", AILIN)
    public, _ = await say(".init add 哥布林 -n 2", GM)
    assert [line.split(" ")[0] for line in public.splitlines()] == ["哥布林1", "哥布林2"]
    assert all("+4=" in line for line in public.splitlines())  # 洞悉1 → +2 PB, 敏捷14 → +2, LV4 → +0
    public, secret = await say(".init note 哥布林1 半血逃跑", GM)
    assert public == "已记下 哥布林1 的备注（GM可见）" and "半血逃跑" in secret
    await say(".init note 艾琳 准备截击", AILIN)
    await say(".init start", GM)

    public, _ = await say(".rc 运动 15 量谱", AILIN)
    assert "优势→" in public and public.endswith("高等属性：消耗1点力量量谱（1/2），获得优势"), public
    public, _ = await say(".rc 灵巧 15 自我", AILIN)
    assert "优势→" in public and public.endswith("消耗1点自我（剩2），获得优势"), public
    public, _ = await say(".人格 创伤3", AILIN)  # 狂气 2+3, 自我 2+2 (at most 2 a 片段)
    assert public == "艾琳：人性0 自我4/12 狂气5　高认知（本片段创伤已增加自我2/2）", public
    public, _ = await say(".人格 创伤3", AILIN)  # 狂气8 is 4 above 自我4
    assert "狂气8　<发狂>" in public and "直到狂气降至自我（4）或更低" in public, public
    await say(".init opt 艾琳 -速度 0", GM)
    public, _ = await say(".mov 全力", AILIN)
    assert public == "艾琳 全力移动1格（速度0；进入消耗1点Mov的区域）"
    await say(".ed", AILIN)

    public, _ = await say(".atk 哥布林1:艾琳 短剑 ap0", GM)  # whoever's turn it is: no AP (issue 39)
    assert public.startswith("哥布林1 攻击 艾琳（近战，躯干，短剑）\nATK："), public
    if "→ 命中" in public:
        assert "伤害：Hit2 DP3 对 DR0 切割" in public
    public, _ = await say(".属性 艾琳 力量-20", GM)
    assert public == "艾琳 的力量损失20，现为0\n艾琳 的力量降至0：陷入<昏迷>（属性回到1以上时醒来）"
    listing, _ = await say(".init", AILIN)
    assert "备注:准备截击" in listing and "<昏迷>" in listing
    assert not any("半血逃跑" in text for text in group)  # the NPC's note never reached the group
