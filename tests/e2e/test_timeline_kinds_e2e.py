"""Issue 39 played over the real WebSocket against ``python bot.py``: with 自动伤害 on, every action
does what its kind says — a heal restores, a buff, a negotiation and a move change no health, a
stun declared with its resisting attribute lands by itself, an interrupt with nothing to
interrupt misses, a lost one nets larger − smaller, a won one stops the action it met, a shield
subtracts.  Players type at human speed; the GM's moves come at GM speed (several at once).
"""

from __future__ import annotations

import asyncio

import pytest
from onebot_client import OneBotClient

pytestmark = pytest.mark.e2e

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
G = 20039
GM = {"user": 99999, "group": G, "role": "owner", "card": "GM"}
ELLA = {"user": 10001, "group": G, "card": "小艾"}
TORIN = {"user": 10002, "group": G, "card": "老托"}
MIA = {"user": 10003, "group": G, "card": "米米"}


async def say(bot: OneBotClient, who: dict, text: str) -> str:
    """One message; the group's reply text once the bot has handled it."""
    return await bot.group(text, **who)


async def gm_burst(bot: OneBotClient, *texts: str) -> str:
    """The GM types several commands in a row (GM speed); every group reply, in order."""
    start = len(bot.all_calls)
    for text in texts:
        await bot.post(text, **GM)
        await asyncio.sleep(0.05)
    await bot.settled()
    return "\n".join(c.text for c in bot.all_calls[start:] if c.to_group)


async def test_every_kind_does_what_it_says(onebot: OneBotClient) -> None:
    bot = onebot
    for who, name in ((ELLA, "艾拉"), (TORIN, "托林"), (MIA, "米娅"), (GM, "萨满"), (GM, "暗影刺客")):
        assert "设置完成" in await say(bot, who, SHEET.format(name=name))
    assert "90.0" in await say(bot, TORIN, ".crd hp -60")
    assert "自动伤害：开" in await say(bot, GM, ".bat 自动伤害 开")

    # battle 1: a heal, a stun with its resisting attribute, a negotiation, a buff, a move
    assert "〔治疗〕" in await say(bot, MIA, ".bat 智力 50 >托林 治疗")  # #1 0 → 5.71
    assert "〔控制·抵抗意志〕" in await say(bot, GM, ".bat 萨满:智力 150 >艾拉 眩晕术 意志")  # #2 → 17.14
    assert "〔交涉〕" in await say(bot, GM, ".bat 暗影刺客:敏捷 20 >米娅 交涉")  # #3 → 2.29
    assert "〔增益〕" in await say(bot, ELLA, ".bat 敏捷 4t >米娅 给队友加buff")  # #4 → 4
    assert "〔移动〕" in await say(bot, TORIN, ".bat 敏捷 20 >暗影刺客 靠近")  # #5 → 2.29
    await say(bot, ELLA, ".bat 力量 350")  # #6 艾拉 4 → 44
    for who in (TORIN, MIA):
        await say(bot, who, ".bat 力量 400")
    text = await gm_burst(bot, ".bat 暗影刺客:力量 400", ".bat 萨满:力量 400", ".bat 开始")  # runs to 48t
    assert "→托林：治疗50.0，已恢复：体力90.0→140.0" in text
    assert "→米娅：交涉，不改变体力/意志，效果由GM裁定" in text
    assert "→米娅：增益，不改变体力/意志，效果由GM裁定" in text
    assert "→暗影刺客：移动，不改变体力/意志，效果由GM裁定" in text
    assert "→艾拉：控制（影响150.0）：艾拉以意志抵抗，被控制 17.14→37.14t" in text
    assert "死亡" not in text and "已扣除" not in text
    assert "战斗结束" in await say(bot, GM, ".bat end")

    # battle 2: a won interrupt and a lost one
    text = await gm_burst(
        bot,
        ".bat 自动伤害 开",  # a battle setting: each battle anew
        ".bat 萨满:智力 100 >米娅 火球",  # #1 萨满 0 → 11.43
        ".bat 萨满:智力 100 >米娅 大火球",  # #2 萨满 11.43 → 22.86
        ".bat 暗影刺客:智力 100 >托林 匕首",  # #3 暗影刺客 0 → 11.43
        ".bat 暗影刺客:力量 400",
    )
    assert "〔伤害〕" in text
    await say(bot, MIA, ".bat 智力 150 >萨满 打断 精神冲击")  # #5 米娅 0 → 17.14
    await say(bot, ELLA, ".bat 智力 60 >暗影刺客 打断")  # #6 艾拉 0 → 6.86
    await say(bot, TORIN, ".bat 力量 400")
    await say(bot, ELLA, ".bat 力量 400")
    text = await gm_burst(bot, ".bat 开始", ".bat 推进 18")
    assert "→暗影刺客：打断暗影刺客#3（100.0），100.0−60.0 → 打断未成功，#3照常进行，影响减为40.0" in text
    assert (
        "→托林：（被打断削弱60.0，余40.0）托林#7（400.0）前摇中，非防御动作，全额命中40.0，已扣除：体力140.0→100.0"
        in text
    )
    assert (
        "打断萨满#2（100.0），150.0−100.0 → 打断成功，#2已中止；余下精神伤害50.0，已扣除：意志150.0→100.0"
        in text
    )
    assert "已经取消" in await say(bot, GM, ".bat 取消 #2")
    assert "战斗结束" in await say(bot, GM, ".bat end")

    # battle 3: a shield in its windup subtracts; an interrupt with nothing to interrupt misses
    assert "自动伤害：开" in await say(bot, GM, ".bat 自动伤害 开")
    await say(bot, TORIN, ".bat 意志 25t 护盾")  # #1 托林 0 → 25, 187.5
    await say(bot, MIA, ".bat 智力 120 >暗影刺客 打断")  # #2 米娅 0 → 13.71
    await say(bot, ELLA, ".bat 力量 5t")  # #3 艾拉 0 → 5
    text = await gm_burst(
        bot,
        ".bat 萨满:智力 200 >托林 雷击",  # #4 萨满 0 → 22.86
        ".bat 暗影刺客:智力 200",  # #5 暗影刺客 0 → 22.86
        ".bat 开始",
        ".bat 取消 #5",  # the GM takes back 暗影刺客's only action at 5
        ".bat 推进 23",
    )
    assert "→暗影刺客：打断落空（暗影刺客此刻没有前摇中的行动），无影响" in text
    assert "→托林：托林#1护盾187.5，200.0−187.5 → 命中12.5，已扣除：体力100.0→87.5" in text
    summary = await say(bot, GM, ".bat end")
    assert "米娅：行动1 造成0.0" in summary
