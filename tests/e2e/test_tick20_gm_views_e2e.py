"""End to end (issue 12): a D20 tick combat with a hidden NPC over the real WebSocket.  Every
message the bot sends to the group is collected; the hidden NPC's name, HP and wounds never
appear in one, while the GM gets them by private message where he works (``.hp``, ``.wound``,
``.init 全``)."""

from __future__ import annotations

import pytest
from onebot_client import OneBotClient
from test_tick20_e2e import AILIN, BRUNO, GM, pace

pytestmark = pytest.mark.e2e


async def test_hidden_npc_numbers_never_reach_the_group(onebot: OneBotClient) -> None:
    group: list[str] = []
    private: list[str] = []

    async def send(text: str, who: dict) -> None:
        await pace(who["user"], onebot)
        calls = await onebot.send(text, **who)
        group.extend(c.text for c in calls if c.to_group)
        private.extend(c.text for c in calls if c.is_private)

    for text, who in [
        (".init begin", GM),
        (".ri =17", AILIN),
        (".ri =12", BRUNO),
        (".ri =8 哥布林", GM),
        (".init add 刺客 -p 15 -隐藏", GM),
        (".init", AILIN),
        (".init start", GM),
        (".hp 刺客 hg 13", GM),
        (".hp 刺客 -9", GM),
        (".hp 哥布林 hg 10", GM),
        (".hp 哥布林 -7", GM),
        (".wound 刺客 躯干 hit3 dp2", GM),
        (".ed", AILIN),
        (".init", BRUNO),
        (".init 全", GM),
        (".init status 哥布林", GM),
        (".ed", GM),
        (".init log", AILIN),
    ]:
        await send(text, who)
    assert group, "the group heard nothing"
    for line in group:
        for secret in ("刺客", "56/65", "65", "重伤", "43/50"):
            assert secret not in line, (secret, line)
    joined = "\n".join(private)
    assert "刺客：HP56/65（-9）" in joined and "哥布林：HP43/50（-7）" in joined
    assert "刺客 躯干 新增重伤×2" in joined
    assert "15  刺客" in joined  # .init 全: the GM's whole list
    assert any(line.startswith("哥布林：HP▮") for line in group)  # players see the goblin's bar
