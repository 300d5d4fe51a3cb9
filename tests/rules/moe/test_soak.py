"""Random-play soak on the demo pack, sized for CI.

``MOE_SOAK_GAMES`` sets the number of games (default 12, about ten seconds); the full 1,000-game
soak is ``benchmarks/bench_moe.py --soak 1000`` or ``MOE_SOAK_GAMES=1000 pytest tests/rules/moe/test_soak.py``.
"""

from __future__ import annotations

import os

import pytest
from moe_soak_harness import play_game

GAMES = int(os.environ.get("MOE_SOAK_GAMES", "12"))


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game_runs_to_a_result(seed: int) -> None:
    players = 2 + seed % 7  # 2..8
    res = play_game(seed, players, cut_every=37 if seed < 4 else 0)
    assert res.result in ("last_alive", "team", "faith", "round_cap", "draw_empty_deck", "all_dead")
    if res.result in ("last_alive", "faith"):
        assert len(res.winners) == 1
    if res.result == "team":
        assert res.winners and all(w % 2 == res.winners[0] % 2 for w in res.winners)
