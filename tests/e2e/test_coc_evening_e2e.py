"""A CoC evening over the real WebSocket against ``python bot.py`` (issue 30): cards pasted, ``.sn``
following a ``.sc``, ``.rav`` between two players, ``.team call``, ``.draw`` from a bundled deck,
and ``.ext off coc7`` silencing ``.ra`` until ``.ext on coc7`` — read as a KP and players would.
"""

from __future__ import annotations

import re

import pytest
from onebot_client import OneBotClient

pytestmark = pytest.mark.e2e

KP, ALA, BOB = 10009, 10001, 10002


async def test_a_coc_evening(onebot: OneBotClient) -> None:
    assert "CoC" in await onebot.group(".set coc7", user=KP, role="owner", expect=1)
    # cards pasted as players paste them
    ala = await onebot.group(
        ".st 力量60体质55体型65敏捷60意志55理智55侦查70斗殴50", user=ALA, card="艾拉", expect=1
    )
    assert "已录入" in ala and "侦查:70" in ala
    bob = await onebot.group(
        ".st 力量70体质60体型70敏捷50意志45理智45侦查40斗殴60", user=BOB, card="鲍勃", expect=1
    )
    assert "已录入" in bob

    # .sn: the group card is set now, and again when .sc changes 理智
    calls = await onebot.send(".sn", user=ALA, card="艾拉", expect=2)
    cards = [c for c in calls if c.action == "set_group_card"]
    assert len(cards) == 1 and cards[0].params["user_id"] == ALA
    assert cards[0].params["card"].startswith("艾拉 HP12/12 SAN55")
    calls = await onebot.send(".sc 1/1d6", user=ALA, card="艾拉", expect=2)
    sc = next(c.text for c in calls if c.to_group)
    m = re.search(r"理智 55→(\d+)", sc)
    assert m, sc
    [card] = [c for c in calls if c.action == "set_group_card"]
    assert f"SAN{m.group(1)}" in card.params["card"]

    # .rav between two players: each side's roll and a verdict
    rav = [{"type": "text", "data": {"text": ".rav 斗殴 "}}, {"type": "at", "data": {"qq": str(BOB)}}]
    text = await onebot.group(rav, user=ALA, card="艾拉", expect=1)
    assert "对抗检定" in text and "斗殴：D100=" in text and "结果：" in text, text

    # .team call: one message @-mentioning every member
    add = [
        {"type": "text", "data": {"text": ".team add "}},
        {"type": "at", "data": {"qq": str(ALA)}},
        {"type": "at", "data": {"qq": str(BOB)}},
    ]
    assert "已加入队伍" in await onebot.group(add, user=KP, role="owner", expect=1)
    calls = await onebot.send(".team call 集合了", user=KP, role="owner", expect=1)
    mentioned = {seg["data"]["qq"] for seg in calls[0].params["message"] if seg["type"] == "at"}
    assert {str(ALA), str(BOB)} <= {str(q) for q in mentioned}

    # .draw from a bundled deck
    text = await onebot.group(".draw 塔罗牌", user=BOB, card="鲍勃", expect=1)
    assert "从「塔罗牌」中抽出了" in text

    # .ext off coc7: .ra is silent, exactly as an unknown command; on again: answered
    assert "已关闭模块：coc7" in await onebot.group(".ext off coc7", user=KP, role="owner", expect=1)
    assert await onebot.send(".ra 侦查", user=ALA, expect=0) == []
    assert "已开启模块：coc7" in await onebot.group(".ext on coc7", user=KP, role="owner", expect=1)
    assert "侦查" in await onebot.group(".ra 侦查", user=ALA, card="艾拉", expect=1)
