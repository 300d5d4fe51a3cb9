"""A DnD5e evening over the real WebSocket (issue 42): two player characters with proficient
skills and saves, a DM with two monsters — one hidden, run from the DM's private chat —
initiative, three rounds of attacks and saves, a character down making death saves, a short rest
and spell slots, all recorded by ``.log``; the SealDice export's DnD lines carry the dnd5e
``commandInfo`` story-painter renders, and nothing of the hidden monster reaches the group before
it strikes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from onebot_client import OneBotClient

pytestmark = pytest.mark.e2e

DM = {"user": 10001, "role": "owner", "card": "DM"}
ELA = {"user": 10002, "card": "艾拉"}
TOR = {"user": 10003, "card": "托林"}


class Table:
    """The group as its players see it: every group line, and the DM's private lines."""

    def __init__(self, client: OneBotClient) -> None:
        self.c = client
        self.group_lines: list[str] = []
        self.dm_lines: list[str] = []
        self.sent = 0

    async def say(self, text: str, who: dict[str, Any], expect: int = 1) -> str:
        self.sent += 1
        if self.sent % 6 == 0:  # a table's pace: the flood window (10 in 10 s) never fills
            self.c.advance_clock(10.6)
        calls = await self.c.send(text, expect=expect, **who)
        group = [x.text for x in calls if x.to_group]
        self.group_lines += group
        self.dm_lines += [x.text for x in calls if x.is_private]
        return "\n".join(group)

    async def dm_private(self, text: str, expect: int) -> list[str]:
        self.sent += 1
        calls = await self.c.send(text, group=None, expect=expect, user=DM["user"])
        self.group_lines += [x.text for x in calls if x.to_group]
        self.dm_lines += [x.text for x in calls if x.is_private]
        return [x.text for x in calls]


async def test_a_dnd5e_evening(onebot: OneBotClient) -> None:
    t = Table(onebot)
    assert "DnD5e" in await t.say(".set dnd5e", DM)
    await t.say(".gm 私聊", DM)
    assert "开始记录日志「洞窟」" in await t.say(".log new 洞窟", DM)
    await t.say(".pc new 艾拉", ELA)
    assert await t.say(".st str10 dex16 con12 wis14 lv3 hp30 ac15 隐匿** 敏捷豁免* &短弓=1d6+dex", ELA) == (
        "已录入 <艾拉>：力量:10 敏捷:16 体质:12 感知:14 等级:3 体力:30（上限30） 护甲:15 &短弓=1d6+dex 隐匿:专精 敏捷豁免:熟练"
    )
    await t.say(".st hp-26", ELA)  # hurt earlier today: 4 of 30
    await t.say(".pc new 托林", TOR)
    await t.say(".st str16 dex10 con14 lv3 hp28 ac18 运动* 体质豁免* &战锤=1d8+str", TOR)
    assert await t.say(".ss 1 2", TOR) == "<托林> 的法术位：1环2/2"
    # proficient skill and save checks name the card
    assert (await t.say(".rc 隐匿", ELA)).startswith("艾拉 的隐匿检定：D20=")
    assert "+7(敏捷+专精)" in t.group_lines[-1]
    assert (await t.say(".rs 体质 DC12", TOR)).startswith("托林 的体质豁免检定：D20=")
    assert "+4(体质+熟练)" in t.group_lines[-1]

    # the DM's monsters: a goblin from an NPC card, an ogre hidden from private chat
    assert "已录入NPC卡 <地精>" in await t.say(".npc 地精 敏捷14 hp7 ac13 &弯刀=1d6+dex", DM, expect=2)
    hidden = await t.dm_private(".ri 暗 +0 食人魔 hp40 ac11", expect=1)
    assert hidden[0].startswith("（暗中，群里看不到）食人魔 的先攻：")
    await t.say(".ri", ELA)
    await t.say(".ri", TOR)
    assert "地精 的先攻" in await t.say(".ri 地精", DM, expect=2)
    listed = await t.say(".init", ELA)
    assert "食人魔" not in listed and "地精" in listed and "<满血>" in listed

    # three rounds: attacks, saves, a character down
    for rnd in range(1, 4):
        await t.say(".init next", DM, expect=None)
        if rnd == 2:
            # the ogre leaves its hiding place and strikes 艾拉 (4 HP): she drops
            struck = await t.dm_private(".atk 食人魔:艾拉 +20 1d4+5", expect=2)
            assert any(line.startswith("食人魔 攻击 艾拉：") and "倒地昏迷" in line for line in struck)
            assert "轮到 食人魔" not in "\n".join(t.group_lines)  # its round-1 turn passed unseen
        await t.say(".atk 地精 +5 1d6+3", TOR, expect=None)
        await t.say(".atk 地精:托林 弯刀", DM, expect=None)
        await t.say(".rs 敏捷 DC13 火球", ELA)
        if rnd >= 2:
            await t.say(".ds", ELA)
        await t.say(".init next", DM, expect=None)
        await t.say(".init next", DM, expect=None)

    assert sum(line.startswith("<艾拉> 的死亡豁免：D20=") for line in t.group_lines) == 2
    assert "轮到 食人魔（先攻" in "\n".join(t.group_lines)  # in the open, it takes its turns
    before_strike = t.group_lines[
        : next(i for i, x in enumerate(t.group_lines) if x.startswith("食人魔 攻击"))
    ]
    assert not any("食人魔" in line or "体力40" in line for line in before_strike)
    assert "食人魔" in await t.say(".init", ELA)

    # after the fight: healing ends the death saves, a short rest, a spell slot
    await t.say(".init clr", DM)
    healed = await t.say(".st hp+5", ELA)
    rest = await t.say(".短休 1d8", TOR)
    slot = await t.say(".ss use 1", TOR)
    assert healed == "已录入 <艾拉>：体力+5→5，恢复意识"
    assert rest.startswith("<托林> 短休，花1颗生命骰：1D8=")
    assert slot == "<托林> 的法术位：1环1/2"

    stat = await t.say(".log stat", DM)
    # DnD checks, saves, attacks and death saves count as checks (the ogre's strike is the DM's)
    assert "艾拉：发言13条，检定6次（成功4，失败1，成功率80%）" in stat
    assert "托林：发言10条，检定4次（成功3，失败1，成功率75%）" in stat
    assert "DM：发言16条，检定4次（成功2，失败2，成功率50%）" in stat
    calls = await onebot.send(".log end", expect=5, **DM)
    files = {
        Path(x.params["name"]).name: Path(x.params["file"]) for x in calls if x.action == "upload_group_file"
    }
    items = json.loads(files["洞窟.json"].read_text(encoding="utf-8"))["items"]
    infos = [i["commandInfo"] for i in items if i["commandInfo"]]
    # every structured line is SealDice's dnd5e shape (story-painter renders it; another shape prints raw)
    assert infos and all(i["rule"] == "dnd5e" and i["cmd"] == "rc" for i in infos)
    reasons = {item["reason"] for i in infos for item in i["items"]}
    assert {"隐匿", "体质豁免", "攻击地精", "伤害", "死亡豁免"} <= reasons
    text = files["洞窟.txt"].read_text(encoding="utf-8")
    assert "暗中" not in text and "体力40" not in text
