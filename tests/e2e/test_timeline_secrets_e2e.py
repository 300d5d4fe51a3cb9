"""Issue 39 defect 6 over the real WebSocket against ``python bot.py``: the GM binds the private
chat (``.gm 私聊``), declares a hidden NPC's action there, and the group learns nothing of it —
no name, no number, no extra message — until it resolves; the GM runs the clock from private
chat and the public feed lands in the group.  Players type at human speed.
"""

from __future__ import annotations

import pytest
from onebot_client import OneBotClient

pytestmark = pytest.mark.e2e

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
G = 20040
GM = {"user": 99999, "group": G, "role": "owner", "card": "GM"}
GM_PRIVATE = {"user": 99999, "group": None, "card": "GM"}
ELLA = {"user": 10001, "group": G, "card": "小艾"}
TORIN = {"user": 10002, "group": G, "card": "老托"}
MIA = {"user": 10003, "group": G, "card": "米米"}
SECRETS = ("暗影刺客", "背刺", "80.0", "100001")


async def say(bot: OneBotClient, who: dict, text: str) -> str:
    """One message; the group's reply text once the bot has handled it."""
    return await bot.group(text, **who)


async def private(bot: OneBotClient, text: str) -> tuple[str, str]:
    """The GM's private message: (what reached the group, what reached the GM privately)."""
    calls = await bot.send(text, **GM_PRIVATE)
    return (
        "\n".join(c.text for c in calls if c.to_group),
        "\n".join(c.text for c in calls if c.is_private),
    )


async def test_a_hidden_npc_run_from_private_chat_leaves_no_trace(onebot: OneBotClient) -> None:
    bot = onebot
    for who, name in ((ELLA, "艾拉"), (TORIN, "托林"), (MIA, "米娅"), (GM, "萨满"), (GM, "暗影刺客")):
        assert "设置完成" in await say(bot, who, SHEET.format(name=name))
    assert "自动伤害：开" in await say(bot, GM, ".bat 自动伤害 开")
    assert "已绑定私聊操作" in await say(bot, GM, ".gm 私聊")
    start = len(bot.all_calls)

    assert "行动#1" in await say(bot, ELLA, ".bat 力量 100 >萨满 重拳")  # 0 → 11.43
    group, told = await private(bot, ".bat 暗 暗影刺客:敏捷 80 >米娅 背刺")  # secret, 0 → 9.14
    assert group == "" and "〔暗〕" in told and "暗影刺客" in told
    assert "行动#2" in await say(bot, TORIN, ".bat 智力 50")  # the public numbers do not skip
    assert "行动#3" in await say(bot, MIA, ".bat 敏捷 30")
    shown = await say(bot, MIA, ".bat")
    assert "行动3个" in shown
    group, told = await private(bot, ".bat")  # the GM's full view, privately
    assert group == "" and "暗影刺客" in told
    group, told = await private(bot, ".bat 萨满:智力 50 >托林 火球")  # a visible NPC: public
    assert "火球" in group and "[已发到群" in told
    group, _ = await private(bot, ".bat 开始")
    before = [c.text for c in bot.all_calls[start:] if c.to_group]
    assert not any(s in line for line in before for s in SECRETS), before

    group, _ = await private(bot, ".bat 推进 12")  # the hidden strike lands: the group sees it
    assert "✔#100001 暗影刺客 背刺 80.0" in group and "→米娅" in group
    assert "米娅" in group and "体力150.0→70.0" in group
