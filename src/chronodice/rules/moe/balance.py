"""Balance by simulation: auto-played seeded games, win rates per character.

A character's *win rate* is the share of its games it won (a team win counts for every member);
its *expected* rate is the mean, over the same games, of winners ÷ players (what an average
character would get in those games: 1/n in a free-for-all, ½ in a team win, 0 in a draw).  The
*delta* is the difference in percentage points; the pack is balanced when every delta is within
the band (±10 points by default).  Draws (round cap, empty deck) count as losses for everyone.

``scripts/moe_balance.py`` prints the table for 2,000 games; the tests run a small seeded sample.

>>> s = play_stats(3, 2, "lantern")
>>> len(s.characters), s.result in ("last_alive", "faith", "round_cap", "draw_empty_deck", "all_dead")
(2, True)
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

from .auto import MAX_INPUTS, auto_answer
from .record import new_record, start


@dataclass(frozen=True)
class GameStats:
    seed: int
    players: int
    map: str
    characters: tuple[str, ...]
    winners: tuple[int, ...]
    result: str
    inputs: int


def play_stats(seed: int, players: int, pack: str) -> GameStats:
    """One seeded auto-played game (the soak's policy, no invariant checks)."""
    rec = new_record(pack, [str(10000 + i) for i in range(players)], seed=seed)
    rec, g, _ = start(rec)
    ai = random.Random(seed * 7919 + players)
    n = 0
    while g.pending is not None:
        ask = g.pending
        g.submit(ask.seat, auto_answer(g, ask, ai), source="auto")
        g.events.clear()
        n += 1
        if n >= MAX_INPUTS:
            raise RuntimeError(f"game {seed} ({players} players) does not end")
    st = g.state
    return GameStats(
        seed,
        players,
        st.map or "",
        tuple(p.character for p in st.players),
        tuple(st.winners or ()),
        st.result or "",
        n,
    )


@dataclass(frozen=True)
class Row:
    character: str
    name: str
    games: int
    wins: int
    expected: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def delta(self) -> float:
        """Win rate minus expected rate, in percentage points."""
        return 100.0 * (self.rate - self.expected)


def table(stats: list[GameStats], names: dict[str, str]) -> list[Row]:
    """One row per character that played, sorted by delta (best first)."""
    games: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    expected: dict[str, float] = defaultdict(float)
    for s in stats:
        share = len(s.winners) / s.players
        for seat, ch in enumerate(s.characters):
            games[ch] += 1
            wins[ch] += seat in s.winners
            expected[ch] += share
    rows = [Row(ch, names.get(ch, ch), games[ch], wins[ch], expected[ch] / games[ch]) for ch in games]
    return sorted(rows, key=lambda r: -r.delta)


def render(rows: list[Row], band: float = 10.0) -> str:
    lines = [
        f"{'角色':<12}{'key':<18}{'局数':>6}{'胜':>6}{'胜率%':>8}{'期望%':>8}{'差(百分点)':>12}",
    ]
    for r in rows:
        mark = "" if abs(r.delta) <= band else "  ← 超出"
        lines.append(
            f"{r.name:<12}{r.character:<18}{r.games:>6}{r.wins:>6}{100 * r.rate:>8.1f}"
            f"{100 * r.expected:>8.1f}{r.delta:>+12.1f}{mark}"
        )
    worst = max((abs(r.delta) for r in rows), default=0.0)
    lines.append(f"最大偏差 {worst:.1f} 个百分点（目标 ±{band:g}）")
    return "\n".join(lines)
