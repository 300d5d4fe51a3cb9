"""End to end: a CoC 7th scene through ``python bot.py`` over a real reverse WebSocket.

A coc7 group: the GM sets the mode, a player pastes a card, plays checks (plain, hard, bonus and
penalty dice), a sanity check that updates the card, and a hidden check whose result must never
reach the group.  A tick20 group beside it keeps ``.rc`` as the D20 check and leaves ``.ra`` to
other bots.  Rolls come from the bot's seeded RNG: each reply's arithmetic is checked with the
engine, not fixed faces.
"""

from __future__ import annotations

import re

import pytest
from onebot_client import OneBotClient

from chronodice.rules.coc7.checks import Difficulty, judge

pytestmark = pytest.mark.e2e

GM = {"user": 10001, "role": "admin", "card": "守秘人"}
PL = {"user": 10002, "card": "艾琳"}
COC_GROUP, TICK_GROUP = 20002, 30003


def level_of(line: str, pattern: str) -> tuple[int, int, str]:
    m = re.search(pattern, line)
    assert m, line
    return int(m.group("roll")), int(m.group("value")), m.group("level")


async def test_coc_scene_and_a_tick20_group(onebot: OneBotClient) -> None:
    assert "CoC7" in await onebot.group(".set coc7", group=COC_GROUP, **GM, expect=1)
    reply = await onebot.group(".st 力量60敏捷50 san60 hp12 侦察70 聆听50", group=COC_GROUP, **PL, expect=1)
    assert reply == "已录入 <艾琳>：力量:60 敏捷:50 理智:60 体力:12 侦查:70 聆听:50"

    # a plain check and a hard one, judged with the rule book
    reply = await onebot.group(".ra 侦查", group=COC_GROUP, **PL, expect=1)
    roll, value, level = level_of(
        reply, r"艾琳 的侦查检定：D100=(?P<roll>\d+)/(?P<value>\d+) (?P<level>\S+)$"
    )
    assert value == 70 and level == judge(roll, 70).label
    reply = await onebot.group(".rc 困难侦查", group=COC_GROUP, **PL, expect=1)  # .rc = .ra in coc7
    roll, value, level = level_of(reply, r"困难侦查检定：D100=(?P<roll>\d+)/(?P<value>\d+) (?P<level>.+)$")
    assert level == judge(roll, 70, 0, Difficulty.HARD).label

    # bonus dice keep the lowest tens, penalty dice the highest (units shared)
    for cmd, pick in ((".rab2 侦查", min), (".rap 聆听", max)):
        reply = await onebot.group(cmd, group=COC_GROUP, **PL, expect=1)
        m = re.search(r"[bp]\d=\[个位(\d);十位([^\]]+)\]=(\d+)/(\d+) (\S+)$", reply)
        assert m, reply
        units = int(m.group(1))
        tens = [int(t.strip("()")) for t in m.group(2).split(",")]
        values = [t * 10 + units or 100 for t in tens]
        assert int(m.group(3)) == pick(values), reply
        assert m.group(5).startswith(judge(int(m.group(3)), int(m.group(4))).label[:2])

    # .sc takes the loss off the card
    reply = await onebot.group(".sc 1/1d6", group=COC_GROUP, **PL, expect=1)
    m = re.search(r"D100=(\d+)/60 (\S+)\n理智损失 (.+?)，理智 60→(\d+)", reply)
    assert m, reply
    new_san = int(m.group(4))
    loss = 60 - new_san
    if judge(int(m.group(1)), 60).level.success:
        assert loss == 1
    else:
        assert 1 <= loss <= 6
    assert f"理智:{new_san}" in await onebot.group(".st show san", group=COC_GROUP, **PL, expect=1)

    # a hidden check: the group hears only that it happened; the result goes privately
    calls = await onebot.send(".rah 聆听", group=COC_GROUP, **PL, expect=2)
    public = [c.text for c in calls if c.to_group]
    private = [c.text for c in calls if c.is_private]
    assert public == ["艾琳 进行了一次暗中检定"]
    assert len(private) == 1 and re.search(r"聆听检定：D100=\d+/50 \S+", private[0]), private
    hidden_line = private[0].splitlines()[-1]

    # the tick20 group: .rc is the D20 check, CoC commands are left to other bots
    assert "D20刻度" in await onebot.group(".set tick20", group=TICK_GROUP, **GM, expect=1)
    reply = await onebot.group(".rc 运动 15", group=TICK_GROUP, user=10003, card="路人", expect=1)
    assert "运动检定：D20=" in reply and "检定：" in reply
    assert await onebot.send(".ra 侦查", group=TICK_GROUP, user=10003, expect=0) == []
    assert await onebot.send(".sc 1/1d6", group=TICK_GROUP, user=10003, expect=0) == []

    # nothing the group ever saw contains the hidden result
    group_texts = [c.text for c in onebot.all_calls if c.to_group]
    assert group_texts and not any(hidden_line in t or hidden_line.split("：")[-1] in t for t in group_texts)
