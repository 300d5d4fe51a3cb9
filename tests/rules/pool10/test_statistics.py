"""Statistical checks of the real roller (seeded, sized to run in about a second)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from chronodice.rules.pool10.odds import pool_odds
from chronodice.rules.pool10.pool import roll_pool


def test_twenty_thousand_pools_of_five_mean_within_one_percent() -> None:
    rng = random.Random(4)
    n = 20_000
    total = sum(roll_pool(5, rng).natural_successes for _ in range(n))
    exact = pool_odds(5).mean
    assert exact == Fraction(5, 3)
    assert abs(total / n - float(exact)) / float(exact) < 0.01


def test_chance_die_succeeds_one_time_in_ten_and_counts_explosions_exactly() -> None:
    rng = random.Random(99)
    n = 20_000
    succeeded = dramatic = 0
    for _ in range(n):
        r = roll_pool(0, rng)
        first = r.rounds[0][0]
        # the seed's counting: only a first 10 succeeds; it rolls again; added dice count as usual
        expected = (1 if first == 10 else 0) + sum(1 for rnd in r.rounds[1:] for f in rnd if f >= 8)
        assert r.natural_successes == expected
        assert (len(r.rounds) > 1) == (first == 10)
        for prev, nxt in itertools.pairwise(r.rounds):
            assert len(nxt) == sum(1 for f in prev if f == 10)
        assert r.dramatic_failure == (first == 1)
        succeeded += r.natural_successes >= 1
        dramatic += r.dramatic_failure
    # sd of a 10% rate over 20,000 rolls is 0.0021; allow 4 sd
    assert abs(succeeded / n - 0.1) < 0.0085
    assert abs(dramatic / n - 0.1) < 0.0085


def test_nine_again_distribution_matches_exact_odds() -> None:
    rng = random.Random(17)
    n = 20_000
    counts = [0] * 40
    for _ in range(n):
        counts[roll_pool(3, rng, again=9).natural_successes] += 1
    o = pool_odds(3, 9)
    for j in range(5):
        p = o.pmf(j)
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(counts[j] / n - p) < 4.5 * sd, j
