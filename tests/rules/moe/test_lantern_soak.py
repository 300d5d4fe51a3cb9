"""灯火与群星 under random play, sized for CI: seeded 2–8-player games with card conservation and
invariants after every input and replay equality at the end (``scripts/moe_soak.py`` runs 1,000),
and the balance table over a small seeded sample (``scripts/moe_balance.py`` runs 2,000)."""

from __future__ import annotations

import os

import pytest
from moe_soak_harness import play_game

from chronodice.rules.moe.balance import play_stats, render, table
from chronodice.rules.moe.pack import load_pack

GAMES = int(os.environ.get("MOE_LANTERN_SOAK_GAMES", "30"))


@pytest.mark.parametrize("seed", range(GAMES))
def test_lantern_game_conserves_cards_and_replays(seed: int) -> None:
    players = 2 + seed % 7
    res = play_game(seed, players, pack="lantern", cut_every=37 if seed % 10 == 0 else 0)
    assert res.result in ("last_alive", "team", "faith", "round_cap", "draw_empty_deck", "all_dead")
    if res.result in ("last_alive", "faith"):
        assert len(res.winners) == 1
    if res.result == "team":
        assert res.winners and all(w % 2 == res.winners[0] % 2 for w in res.winners)


def test_balance_table_on_a_seeded_sample() -> None:
    stats = [play_stats(seed, 2 + seed % 7, "lantern") for seed in range(14)]
    assert [s.players for s in stats[:7]] == [2, 3, 4, 5, 6, 7, 8]
    assert stats[0] == play_stats(0, 2, "lantern")  # seeded: the same game again
    names = {k: c.name for k, c in load_pack("lantern").characters.items()}
    rows = table(stats, names)
    assert sum(r.games for r in rows) == sum(s.players for s in stats)
    assert sum(r.wins for r in rows) == sum(len(s.winners) for s in stats)
    # the deltas average to zero over appearances: expected = winners / players per game
    assert abs(sum(r.games * r.delta for r in rows)) < 1e-6
    text = render(rows)
    assert text.splitlines()[0].startswith("角色") and "最大偏差" in text.splitlines()[-1]
