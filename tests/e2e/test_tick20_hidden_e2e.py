"""End to end (issue 39 defect 10): a hidden boss run from the GM's private chat, over
``python bot.py`` and a real WebSocket.

Two groups play the same two rounds — 小艾 (=17), 老托 (=13), a goblin (=9) — one of them with a
hidden boss the GM added privately (``.gm 私聊`` bound, then ``.ri 暗 +4 首领`` in private) and
whose turns he ends privately with ``.ed``.  Every group message is collected: the two groups read
the same messages, line for line, numbers aside (the bot's dice are not scripted here, so digits
are normalised); the boss's group never reads its name, ``???`` or a turn of its.  Then the boss
attacks and the group sees it by name.
"""

from __future__ import annotations

import re

import pytest
from onebot_client import OneBotClient

pytestmark = pytest.mark.e2e

GM = {"user": 99999, "role": "admin", "card": "主持人"}
XIAOAI = {"user": 10002, "card": "小艾"}
LAOTUO = {"user": 10003, "card": "老托"}
PLAYERS = {"小艾": XIAOAI, "老托": LAOTUO}


class Group:
    """One group's table: what it read, and who advanced last (C02's one-second window)."""

    def __init__(self, client: OneBotClient, group: int) -> None:
        self.c = client
        self.id = group
        self.seen: list[str] = []
        self.last = 0

    async def send(self, text: str, who: dict, *, private: bool = False) -> tuple[str, str]:
        calls = await self.c.send(text, group=None if private else self.id, **who)
        public = "\n".join(x.text for x in calls if x.to_group and x.params.get("group_id") == self.id)
        secret = "\n".join(x.text for x in calls if x.is_private)
        if public:
            self.seen.append(public)
        return public, secret

    async def advance(self, card: str) -> str:
        """Whoever's turn it is ends it: a player in the group, the GM the goblin's there and the
        hidden boss's in private (waiting out the second after another person's advance)."""
        name = re.findall(r"▶ (\S+) 的回合", card)[-1]
        who = PLAYERS.get(name, GM)
        if who is GM and self.last != GM["user"]:
            self.c.advance_clock(1.1)  # the bot's clock, not a wait
        self.last = who["user"]
        public, secret = await self.send(".ed", who, private=name == "首领")
        return public or secret


def normalised(lines: list[str]) -> list[str]:
    return [re.sub(r"[0-9]+", "#", line) for line in lines]


async def play(g: Group, *, boss: bool) -> str:
    for text, who in ((".init begin", GM), (".gm 私聊", GM), (".ri =17", XIAOAI), (".ri =13", LAOTUO)):
        await g.send(text, who)
    await g.send(".ri =9 哥布林", GM)
    if boss:
        public, secret = await g.send(".ri 暗 +4 首领", GM, private=True)
        assert public == "" and "首领：D20=" in secret, (public, secret)
    public, secret = await g.send(".init start", GM)
    card = public or secret
    for _ in range(20):
        if "第3轮开始" in card:
            return card
        card = await g.advance(card)
    raise AssertionError("round 3 never came")


async def test_a_hidden_boss_leaves_the_groups_transcript_as_it_was(onebot: OneBotClient) -> None:
    await onebot.send(".set tick20", group=20003, **GM)
    await onebot.send(".set tick20", group=20004, **GM)
    plain, hidden = Group(onebot, 20003), Group(onebot, 20004)
    await play(plain, boss=False)
    card = await play(hidden, boss=True)
    for line in hidden.seen:
        assert "首领" not in line and "???" not in line, line
    assert normalised(hidden.seen) == normalised(plain.seen)
    # its turn comes again; it attacks and is seen
    while "▶ 首领 的回合" not in card:
        card = await hidden.advance(card)
    public, _ = await hidden.send(".atk 首领:小艾 躯干 hit2 dp4", GM, private=True)
    assert public.startswith("首领 攻击 小艾（近战，躯干）\nATK：") and "伤害：Hit2 DP4" in public, public
    listing, _ = await hidden.send(".init", XIAOAI)
    assert "首领" in listing
