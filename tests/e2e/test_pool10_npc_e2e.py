"""End to end (issue 12): a D10 scene over the real WebSocket — a GM's NPC 守卫 declares its
defence for two attacks, a player's multi-attack allocates all the bonus against it, the guard
strikes back as itself, and a 3# roll.  Rolls come from the bot's seeded RNG: each reply's
arithmetic is checked against its own dice."""

from __future__ import annotations

import re

import pytest
from onebot_client import OneBotClient
from test_pool10_e2e import at, check_rounds, faces, text

pytestmark = pytest.mark.e2e

A, B, GM = 10001, 10002, 10099


async def test_multi_attack_against_npc_defence(onebot: OneBotClient) -> None:
    async def gm(msg: object, expect: int = 1) -> str:
        return await onebot.group(msg, user=GM, card="主持人", role="owner", expect=expect)  # type: ignore[arg-type]

    await onebot.group(".st 力量11格斗2", user=A, card="艾拉", expect=1)
    await onebot.group(".st 敏捷3", user=B, card="哨兵", expect=1)
    await onebot.group(".ww 附加 防御2", user=B, card="哨兵", expect=1)

    # the GM declares the NPC's defence for the next two attacks
    assert await gm(".ww 防御 2/1 守卫") == "<守卫> 宣言防御附加成功2/1，依次用于接下来受到的2次攻击"
    # a refused split rolls nothing and spends nothing
    reply = await onebot.group(".ww 分配 力量+格斗 +2s 守卫×2=1/1", user=A, card="艾拉", expect=1)
    assert "「守卫」的分配合计2，少于攻击附加成功4" in reply
    assert "<守卫>（NPC）宣言2/1，已用0" in await onebot.group(".ww 防御", user=A, expect=1)

    reply = await onebot.group(".ww 分配 力量+格斗 +2s 守卫×2=3/1", user=A, card="艾拉", expect=1)
    lines = reply.splitlines()
    assert lines[0] == "艾拉 多次攻击：力量11+格斗2=13，攻击附加成功4"
    for line, share, defence in ((lines[1], 3, 2), (lines[2], 1, 1)):
        m = re.match(rf"守卫#\d（分配{share}，防御{defence}）：(\S+) (.*)$", line)
        assert m, reply
        nat = check_rounds(faces(m.group(1)), 13)
        if nat > defence:
            assert m.group(2) == f"自然{nat}-{defence}+附加{share}={nat - defence + share}，命中", reply
        else:
            assert "未命中" in m.group(2), reply
    assert "<守卫> 的2个防御附加成功已用掉" in reply and "<守卫> 的1个防御附加成功已用掉" in reply

    # the guard strikes back as itself: its action, so its spent defence comes back
    reply = await gm([text(".ww 攻击 守卫: 6 "), at(B)])
    assert reply.splitlines()[0] == "守卫 攻击 <哨兵>：6（10加骰）" and "主持人" not in reply
    assert "<守卫> 行动：恢复3个防御附加成功" in reply
    # a player may not speak as the NPC
    assert "只有" in await onebot.group(".ww 攻击 守卫: 6", user=A, card="艾拉", expect=1)

    # 3# repeats the pool
    reply = await onebot.group(".w 3#力量+格斗", user=A, card="艾拉", expect=1)
    lines = reply.splitlines()
    assert lines[0] == "艾拉 掷骰池×3：力量11+格斗2=13（10加骰）" and len(lines) == 5
    assert [line[:2] for line in lines[2:]] == ["#1", "#2", "#3"]
