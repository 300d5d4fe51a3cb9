"""Issue 27: the group learns nothing from whether, when or for whom the game waits.

Every card of the default pack is played by seat 0 at each legal target (at full health and at
1 HP, so 濒死 opens its 救援 window), then seat 1 takes a turn, in three deals that differ only in
hidden cards: the others hold 防御/反制/恢复 or nothing of use, and their face-down 奥秘 are
permuted.  Everyone else always declines.  The group transcript (each command's public text,
as the service sends it, in order) and the sequence of seats waited for must be identical.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from chronodice.render import moe as R
from chronodice.rules.moe.auto import default_answer
from chronodice.rules.moe.base import Ask
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.pack import load_pack
from chronodice.rules.moe.testing import scenario

NAMES = ["P1", "P2", "P3", "P4"]
HANDS = {  # the first card is the same (a 拼点 shows the first card of a player who declines)
    "responses": [
        ["attack", "defend", "counter"],
        ["attack", "recover", "defend"],
        ["attack", "defend", "recover"],
    ],
    "nothing": [["attack"] * 3] * 3,
    "nothing_other_secrets": [["attack"] * 3] * 3,
}
SECRETS = {
    "responses": ["mirror", "thorn", "prophecy"],
    "nothing": ["thorn", "prophecy", "mirror"],
    "nothing_other_secrets": ["prophecy", "mirror", "thorn"],
}
CHARACTERS = [
    ["alice", "red_hood", "snow_white", "cinderella"],
    ["big_wolf", "sleeping_beauty", "pinocchio", "peter_pan"],
]
REVEALED = re.compile(r"[♠♥♣♦](?:10|[2-9AJQK])【[^】]+】")
"""A card face: masked in lines where a rule shows a hidden card (a blind discard, 拼点)."""


def deal(variant: str, chars: list[str], card: str) -> tuple[Game, int]:
    g = scenario(chars, pack="demo")
    (cid,) = g.give_cards(0, [card])
    g.p(0).hp -= 1  # injured: 恢复 and 治愈之光 can be used
    g.equip_cards(3, ["holy_armour"])  # public: 放逐 has a target
    for seat in (1, 2, 3):  # the same first card in every deal, then the rest
        g.give_cards(seat, HANDS[variant][seat - 1][:1])
    for seat in (1, 2, 3):
        g.give_cards(seat, HANDS[variant][seat - 1][1:])
        g.set_secret(seat, [SECRETS[variant][seat - 1]])
    deck = g.zone("deck")  # the same draws in every deal: the last eight 防御 on top
    top = [c for c in deck if g.card(c).key == "defend"][-8:]
    deck[:] = top + [c for c in deck if c not in top]
    return g, cid


def policy(cid: int, target: int | None) -> Any:
    played: list[bool] = []

    def answer(g: Game, ask: Ask) -> Any:
        if ask.kind == "play":
            if ask.seat == 0 and not played:
                played.append(True)
                assert any(o["a"] == "card" and o["card"] == cid for o in ask.options)
                return {"a": "card", "card": cid, "as": None, "targets": [] if target is None else [target]}
            return {"a": "end"}
        return default_answer(ask)  # decline what may be declined, the first of what may not

    return answer


def transcript(g: Game, answer: Any) -> tuple[list[str], list[tuple[str, tuple[int, ...]]]]:
    """Group messages as the service sends them, and (kind, seats waited for) per request."""
    msgs: list[str] = []
    waits: list[tuple[str, tuple[int, ...]]] = []

    def say(lines: list[str]) -> None:
        lines = [REVEALED.sub("■", x) if ("弃置了" in x or "拼点" in x) else x for x in lines]
        if lines:
            msgs.append(R.fit_lines(lines))

    def run(gen: Any) -> None:
        g.run(gen)
        pub, _ = R.render_events(g, g.drain_events(), NAMES)
        if g.pending is not None:
            pub.append(R.public_prompt(g, g.pending, NAMES))
        say(pub)
        for _ in range(500):
            ask = g.pending
            if ask is None:
                return
            if not ask.answers:
                waits.append((ask.kind, tuple(ask.waiting)))
            g.submit(ask.seat, answer(g, ask.for_seat(ask.seat)))
            pub, _ = R.render_events(g, g.drain_events(), NAMES)
            if g.pending is not None and g.pending is not ask:
                pub.append(R.public_prompt(g, g.pending, NAMES))
            say(pub)
        raise AssertionError("does not end")

    run(g.turn(0, False))
    g.state.cursor = 1
    run(g.turn(1, False))
    return msgs, waits


def cases() -> list[tuple[str, int, int, bool]]:
    pack = load_pack("demo")
    out = []
    for key, cd in pack.cards.items():
        if not cd.use_in_play:
            continue
        for ci in range(len(CHARACTERS)):
            g, _ = deal("nothing", CHARACTERS[ci], key)
            g.give_cards(0, ["attack", "attack"])  # as after the draw phase (决斗 needs two)
            mode, targets = g.card_targets(0, key)
            for t in targets if mode == "one" else [-1]:
                out.append((key, ci, t, False))
                if t > 0:
                    out.append((key, ci, t, True))
    return out


CASES = cases()


def test_every_card_of_the_default_pack_is_exercised() -> None:
    played = {c[0] for c in CASES}
    pack = load_pack("demo")
    assert played == {k for k, cd in pack.cards.items() if cd.use_in_play} and len(played) == 28
    assert len(CASES) == 128


@pytest.mark.parametrize(("card", "ci", "target", "low"), CASES)
def test_group_transcript_is_the_same_whoever_holds_what(card: str, ci: int, target: int, low: bool) -> None:
    seen: dict[str, tuple[list[str], list[tuple[str, tuple[int, ...]]]]] = {}
    for variant in HANDS:
        g, cid = deal(variant, CHARACTERS[ci], card)
        if low:
            g.p(target).hp = 1
        seen[variant] = transcript(g, policy(cid, None if target < 0 else target))
    first = seen["responses"]
    assert any(first[1]), first
    for variant, got in seen.items():
        assert got[0] == first[0], (variant, got[0], first[0])
        assert got[1] == first[1], (variant, got[1], first[1])


def test_windows_ask_everyone_who_could_answer() -> None:
    """An attack asks its target, a 火球术 asks everyone but its user at once, 濒死 asks all."""
    g, cid = deal("nothing", CHARACTERS[1], "fireball")
    g.p(2).hp = 1
    msgs, waits = transcript(g, policy(cid, 2))
    assert ("respond", (1, 2, 3)) in waits  # 反制: everyone but the user, in one window
    assert ("respond", (2,)) in waits  # 抵消: the target
    assert ("respond", (0, 1, 2, 3)) in waits  # 救援: everyone alive
    assert any("阵亡" in m for m in msgs)
