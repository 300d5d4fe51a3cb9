"""End to end: the 无限恐怖 pool through ``python bot.py`` over a real reverse WebSocket.

A player stores attributes and skill bonus successes, rolls a pool by names, runs an opposed
stealth-vs-perception exchange against another player (@-mentioned), and a defended attack.
Rolls come from the bot's seeded RNG, so the test checks each reply's arithmetic, not fixed faces.
"""

from __future__ import annotations

import itertools
import re

import pytest
from onebot_client import OneBotClient

pytestmark = pytest.mark.e2e

A, B = 10001, 10002
CIRCLED = {"⑧": 8, "⑨": 9, "⑩": 10}


def at(qq: int) -> dict:
    return {"type": "at", "data": {"qq": str(qq)}}


def text(t: str) -> dict:
    return {"type": "text", "data": {"text": t}}


def faces(line: str) -> list[list[int]]:
    """``[⑩,4,⑧]+[2]`` → ``[[10, 4, 8], [2]]``."""
    return [
        [CIRCLED.get(f, 0) or int(f) for f in group.split(",")] for group in re.findall(r"\[([^\]]*)\]", line)
    ]


def check_rounds(rounds: list[list[int]], size: int) -> int:
    """The rounds obey 10-again; returns the natural successes."""
    assert len(rounds[0]) == size
    for prev, nxt in itertools.pairwise(rounds):
        assert len(nxt) == sum(1 for f in prev if f == 10)
    assert not any(f == 10 for f in rounds[-1])
    return sum(1 for r in rounds for f in r if f >= 8)


async def test_pool_by_names_opposed_and_defended_attack(onebot: OneBotClient) -> None:
    # cards: attributes with .st, bonus successes with .ww 附加
    assert "敏捷:4" in await onebot.group(".st 敏捷4潜行3力量11格斗2", user=A, card="艾拉", expect=1)
    assert "感知:6" in await onebot.group(".st 感知6调查1", user=B, card="哨兵", expect=1)
    reply = await onebot.group(".ww 附加 潜行1 攻击1", user=A, card="艾拉", expect=1)
    assert "潜行1" in reply and "攻击附加1" in reply
    assert "防御附加2" in await onebot.group(".ww 附加 防御2", user=B, card="哨兵", expect=1)

    # a pool by names: the card values appear in the reply, the dice obey the rules
    reply = await onebot.group(".ww 敏捷+潜行 dc1", user=A, card="艾拉", expect=1)
    assert "艾拉 掷骰池：敏捷4+潜行3=7（10加骰）" in reply
    lines = reply.splitlines()
    assert lines[1] == "附加成功：潜行1"
    natural = check_rounds(faces(lines[2]), 7)
    if natural:
        assert f"自然成功{natural}+附加1={natural + 1}成功 ≥ DC1，成功" in lines[3]
    else:
        assert "附加成功1不生效" in lines[3] and "失败" in lines[3]

    # opposed: A's stealth successes become B's perception DC
    reply = await onebot.group(
        [text(".ww 敏捷+潜行 vs "), at(B), text(" 感知+调查")], user=A, card="艾拉", expect=1
    )
    lines = reply.splitlines()
    assert lines[0] == "对抗：艾拉（敏捷4+潜行3=7）对 哨兵（感知6+调查1=7）"
    a_nat = check_rounds(faces(lines[1]), 7)
    b_nat = check_rounds(faces(lines[2]), 7)
    a_total = a_nat + 1 if a_nat else 0  # 潜行 bonus 1
    b_total = b_nat + 1 if b_nat else 0  # 感知6 → bonus 1
    assert f"DC{a_total}" in lines[2]
    winner = "哨兵" if b_total > 0 and b_total >= a_total else "艾拉"
    assert lines[3].endswith(f"{winner} 胜出"), reply

    # defended attack: B declares 2 defence bonus successes, A attacks B
    assert "宣言防御附加成功2" in await onebot.group(".ww 防御 2", user=B, card="哨兵", expect=1)
    reply = await onebot.group([text(".ww 攻击 力量+格斗 "), at(B)], user=A, card="艾拉", expect=1)
    lines = reply.splitlines()
    assert lines[0] == "艾拉 攻击 <哨兵>：力量11+格斗2=13（10加骰）"
    assert lines[1] == "攻击附加成功：力量2+卡上攻击1=3"
    nat = check_rounds(faces(lines[2]), 13)
    assert f"自然成功{nat}，<哨兵>宣言防御附加成功2，抵消{min(2, nat)}" in lines[3]
    if nat > 2:
        assert f"命中！攻击成功数 {nat}-2+附加3={nat - 2 + 3}" in reply
    else:
        assert "未命中" in reply and "攻击附加成功与命中效果均不生效" in reply
    assert "<哨兵> 的2个防御附加成功已用掉" in reply

    # the spent defence is gone until B's next action, then comes back
    assert "只剩0" in await onebot.group(".ww 防御 1", user=B, card="哨兵", expect=1)
    assert "恢复2个防御附加成功" in await onebot.group(".ww 行动", user=B, card="哨兵", expect=1)

    # hidden pool: the group never sees the dice
    calls = await onebot.send(".wh 5", user=A, card="艾拉", expect=2)
    group = [c for c in calls if c.to_group]
    private = [c for c in calls if c.is_private]
    assert len(group) == 1 and "暗骰" in group[0].text and "成功" not in group[0].text
    assert len(private) == 1 and "成功" in private[0].text

    # hostile input gets a clear reply
    assert "1000" in await onebot.group(".ww 1000000000", user=A, expect=1)
    assert "加骰的最低值为8" in await onebot.group(".ww 5a1", user=A, expect=1)
