"""Random-play soak: seeded auto-playing games with invariants checked after every input.

A test harness (it was ``chronodice.rules.moe.soak``; the engine ships without it): used by
``tests/rules/moe/test_soak.py`` (a small in-suite size), the other 萌E rule tests,
``benchmarks/bench_moe.py`` and ``scripts/moe_soak.py`` (the full 1,000-game runs).  Invariants: every card is in exactly one zone; HP ≤ max HP;
0 ≤ faith ≤ max faith; every open request has a legal answer; the game ends; rebuilding from
the log (from the start and from the last turn snapshot) gives the same state digest; no public
field of an output event names a card that is hidden from some player at that moment
(:func:`audit_public_cards`: the group may learn that a 奥秘 was placed, never which).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from chronodice.rules.moe.auto import MAX_INPUTS, auto_answer
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.record import new_record, rebuild, replay_full, start, to_record
from chronodice.rules.moe.state import ALL


@dataclass
class SoakResult:
    seed: int
    players: int
    inputs: int
    result: str
    winners: list[int]
    record: dict[str, Any]


PUBLIC_CARD_FIELDS = ("cards", "card", "ca", "cb", "shown")
"""Event fields that carry card ids shown to everybody (a ``card`` may be an id, or a used card's
dict whose ``subcards`` are ids; a card *key* string names no physical card)."""


def public_card_ids(ev: dict[str, Any]) -> list[int]:
    """Ids of the physical cards an event shows to the group (its public fields only)."""
    out: list[int] = []
    for name in PUBLIC_CARD_FIELDS:
        v = ev.get(name)
        if isinstance(v, bool) or v is None:
            continue
        if isinstance(v, int):
            out.append(v)
        elif isinstance(v, dict):
            out.extend(int(c) for c in v.get("subcards", []))
        elif isinstance(v, list):
            out.extend(c for c in v if isinstance(c, int) and not isinstance(c, bool))
    return out


class HiddenCardLeak(AssertionError):
    """A public event named a card hidden from some player."""


class PublicAudit:
    """Watches what the group is shown, input by input.

    * At each event (``Game.on_emit``): every card it shows publicly is known to all right then.
    * After each input (:meth:`after_step`): no card named publicly during the input lies face
      down in a 奥秘 zone unless everybody already knew it before the input — so a 奥秘 cannot be
      named on its way into the 奥秘 zone (3.9) even if the knowledge model were wrong too.
    """

    def __init__(self, g: Game) -> None:
        self.named: set[int] = set()
        self.before: set[int] = self._public(g)
        g.on_emit = self.on_emit

    @staticmethod
    def _public(g: Game) -> set[int]:
        return {cid for cid, k in g.state.known.items() if ALL in k}

    def on_emit(self, g: Game, ev: dict[str, Any]) -> None:
        for cid in public_card_ids(ev):
            if ALL not in g.state.known.get(cid, ()):
                raise HiddenCardLeak(
                    f"event {ev['t']} shows card {cid} known only to {g.state.known.get(cid)}"
                )
            self.named.add(cid)

    def after_step(self, g: Game) -> None:
        for p in g.state.players:
            for cid in g.secrets(p.seat):
                if cid in self.named and cid not in self.before:
                    raise HiddenCardLeak(f"奥秘 {cid} of seat {p.seat} was named in public")
        self.named.clear()
        self.before = self._public(g)


def check_invariants(g: Game) -> None:
    g.state.check_conservation()
    for p in g.state.players:
        assert p.hp <= p.max_hp, (p.seat, p.hp, p.max_hp)
        assert 0 <= p.faith <= p.max_faith, (p.seat, p.faith)
    ask = g.pending
    if ask is not None:
        if ask.kind in ("choose_cards", "choose_blind", "choose_players"):
            assert ask.optional or len(ask.options) >= ask.lo, ask
        if ask.kind in ("choose_option", "order"):  # a response window may offer nothing
            assert ask.options, ask
        if ask.kind == "play":
            assert ask.options[-1]["a"] == "end"


def play_game(
    seed: int, players: int, *, pack: str = "demo", check: bool = True, cut_every: int = 0
) -> SoakResult:
    """Play one seeded game to its end with auto-play; ``cut_every`` > 0 also rebuilds from the
    log at every ``cut_every``-th input and compares digests and the pending request."""
    rec = new_record(pack, [str(10000 + i) for i in range(players)], seed=seed)
    rec, g, _ = start(rec)
    audit = PublicAudit(g) if check else None
    ai = random.Random(seed * 7919 + players)
    n = 0
    while g.pending is not None:
        ask = g.pending
        g.submit(ask.seat, auto_answer(g, ask, ai), source="auto")
        g.drain_events()
        n += 1
        if check:
            check_invariants(g)
        if audit is not None:
            audit.after_step(g)
        if cut_every and n % cut_every == 0:
            mid = to_record(g, rec)
            again = rebuild(mid)
            assert again.state.digest() == g.state.digest()
            assert (again.pending.to_dict() if again.pending else None) == (
                g.pending.to_dict() if g.pending else None
            )
        assert n < MAX_INPUTS, "game does not end"
    final = to_record(g, rec)
    if check:
        assert replay_full(final).state.digest() == g.state.digest()
        assert rebuild(final).state.digest() == g.state.digest()
    assert g.state.winners is not None
    return SoakResult(seed, players, n, g.state.result, list(g.state.winners), final)
