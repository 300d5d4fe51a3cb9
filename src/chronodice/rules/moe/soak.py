"""Random-play soak: seeded auto-playing games with invariants checked after every input.

Used by ``tests/rules/moe/test_soak.py`` (a small in-suite size) and ``benchmarks/bench_moe.py``
(the full 1,000-game run).  Invariants: every card is in exactly one zone; HP ≤ max HP;
0 ≤ faith ≤ max faith; every open request has a legal answer; the game ends; rebuilding from
the log (from the start and from the last turn snapshot) gives the same state digest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .auto import auto_answer
from .engine import Game
from .record import new_record, rebuild, replay_full, start, to_record

MAX_INPUTS = 20_000


@dataclass
class SoakResult:
    seed: int
    players: int
    inputs: int
    result: str
    winners: list[int]
    record: dict[str, Any]


def check_invariants(g: Game) -> None:
    g.state.check_conservation()
    for p in g.state.players:
        assert p.hp <= p.max_hp, (p.seat, p.hp, p.max_hp)
        assert 0 <= p.faith <= p.max_faith, (p.seat, p.faith)
    ask = g.pending
    if ask is not None:
        if ask.kind in ("choose_cards", "choose_blind", "choose_players"):
            assert ask.optional or len(ask.options) >= ask.lo, ask
        if ask.kind in ("choose_option", "order", "respond"):
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
    ai = random.Random(seed * 7919 + players)
    n = 0
    while g.pending is not None:
        ask = g.pending
        g.submit(ask.seat, auto_answer(g, ask, ai), source="auto")
        g.drain_events()
        n += 1
        if check:
            check_invariants(g)
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
