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


def _below(odds: object, k: int) -> Fraction:
    return sum((odds.pmf(j) for j in range(k)), Fraction(0))  # type: ignore[attr-defined]


def test_defended_attack_hits_exactly_when_natural_successes_exceed_the_defence() -> None:
    """Declared defence 2 against a pool of 5 (10-again): P(hit) = P(natural ≥ 3), exact."""
    from chronodice.rules.pool10.check import resolve_attack

    rng = random.Random(12)
    n = 20_000
    hits = sum(resolve_attack(roll_pool(5, rng), attack_bonus=2, defence=2).hit for _ in range(n))
    p = 1 - _below(pool_odds(5, exact=True), 3)
    sd = float(p * (1 - p) / n) ** 0.5
    assert abs(hits / n - float(p)) < 5 * sd


def test_bonus_gained_mid_action_mean_matches_the_exact_value() -> None:
    """Two attacks on one target, pool 3, split 1/1, 命中+2: the second attack gets 1 + 2 when
    the first hit, else 1; E[second] = E[nat] + P(nat>0)·(1 + 2·P(nat>0)), exact."""
    from chronodice.rules.pool10.allocation import Attack, resolve_action

    rng = random.Random(21)
    n = 20_000
    plan = [Attack("甲", 1, 1), Attack("甲", 2, 1)]
    values = []
    used = 0
    for _ in range(n):
        r = resolve_action(plan, [roll_pool(3, rng), roll_pool(3, rng)], [0, 0], gained=2)
        values.append(r.rows[1].result.successes)
        used += r.gain_used
    o = pool_odds(3, exact=True)
    p_hit = 1 - o.pmf(0)
    exact = o.mean + p_hit * (1 + 2 * p_hit)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    assert abs(mean - float(exact)) < 5 * (var / n) ** 0.5
    sd = float(p_hit * (1 - p_hit) / n) ** 0.5
    assert abs(used / n - float(p_hit)) < 5 * sd
