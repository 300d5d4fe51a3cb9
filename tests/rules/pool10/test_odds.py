"""Exact odds against hand computation, brute-force enumeration and a 10^6-roll simulation."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from chronodice.core.errors import InputSyntaxError, LimitExceeded
from chronodice.rules.pool10.odds import chain_pmf, pool_odds


def test_one_die_ten_again_by_hand() -> None:
    o = pool_odds(1, exact=True, k=3)
    # 0: 1–7; 1: 8, 9, or 10 then a non-success; 2: 10 then (8|9) or 10,10,fail …
    assert o.pmf(0) == Fraction(7, 10)
    assert o.pmf(1) == Fraction(2, 10) + Fraction(1, 10) * Fraction(7, 10)
    assert o.pmf(2) == Fraction(1, 10) * (Fraction(2, 10) + Fraction(1, 10) * Fraction(7, 10))
    assert o.mean == Fraction(1, 3)


@pytest.mark.parametrize("again", [8, 9, 10, 11])
def test_chain_pmf_sums_to_one_and_mean(again: int) -> None:
    pmf = chain_pmf(again, 60)
    e = Fraction(11 - again, 10)
    assert abs(float(sum(pmf)) - 1) < 1e-12
    assert abs(float(sum(j * p for j, p in enumerate(pmf))) - float(Fraction(3, 10) / (1 - e))) < 1e-12


def _enumerate_pool(n: int, again: int, depth: int) -> dict[int, Fraction]:
    """Brute force: every die sequence up to ``depth`` rounds (deeper rounds have tiny mass)."""
    out: dict[int, Fraction] = {}

    def rec(n_dice: int, successes: int, prob: Fraction, rounds_left: int) -> None:
        if n_dice == 0 or rounds_left == 0:
            if n_dice == 0:
                out[successes] = out.get(successes, Fraction(0)) + prob
            return
        for faces in itertools.product(range(1, 11), repeat=n_dice):
            s = sum(1 for f in faces if f >= 8)
            add = sum(1 for f in faces if f >= again)
            rec(add, successes + s, prob * Fraction(1, 10**n_dice), rounds_left - 1)

    rec(n, 0, Fraction(1), depth)
    return out


def test_two_dice_nine_again_matches_enumeration() -> None:
    brute = _enumerate_pool(2, 9, depth=4)
    o = pool_odds(2, 9, exact=True, k=3)
    # outcomes with ≤ 3 successes need at most 3 rounds after the first, so these are exact
    for j in range(3):
        assert o.pmf(j) == brute.get(j, Fraction(0)), j


def test_five_dice_expectation_is_five_thirds() -> None:
    assert pool_odds(5).mean == Fraction(5, 3)
    assert pool_odds(5, 9).mean == Fraction(5 * 3, 8)
    assert pool_odds(5, 8).mean == Fraction(5 * 3, 7)
    assert pool_odds(5, 11).mean == Fraction(3, 2)


def test_chance_die_odds() -> None:
    o = pool_odds(0, exact=True)
    assert o.chance and o.p_dramatic == Fraction(1, 10)
    assert o.at_least(1) == Fraction(1, 10)
    assert o.pmf(1) == Fraction(1, 10) * Fraction(7, 10)
    assert o.mean == Fraction(2, 15)
    assert pool_odds(-3, 8).again == 10  # a chance die is always 10-again
    assert o.p_success(dc=1, bonus=5) == Fraction(1, 10)  # no bonus on a chance die


def test_float_and_exact_agree() -> None:
    exact = pool_odds(12, 8, exact=True, k=15)
    fast = pool_odds(12, 8, k=15)
    assert max(abs(float(a) - b) for a, b in zip(exact.dist, fast.dist, strict=True)) < 1e-13


def test_p_success_with_bonus_and_lost() -> None:
    o = pool_odds(4, exact=True, k=10)
    # DC 3 with 2 bonus: any natural success suffices → P(≥1)
    assert o.p_success(dc=3, bonus=2) == o.at_least(1)
    # DC 3, no bonus → P(≥3); lose 1 → P(≥4)
    assert o.p_success(dc=3) == o.at_least(3)
    assert o.p_success(dc=3, lost=1) == o.at_least(4)
    # no DC, lost 2: needs 3 natural
    assert o.p_success(lost=2) == o.at_least(3)


def test_expected_total_with_bonus() -> None:
    o = pool_odds(3, exact=True, k=10)
    assert o.expected_total() == o.mean
    assert o.expected_total(bonus=2) == o.mean + 2 * o.at_least(1)
    # with 1 lost: E[max(0, X-1)] = E[X] - 1 + P(X=0)
    assert o.expected_total(lost=1) == o.mean - 1 + o.pmf(0)


def test_limits() -> None:
    with pytest.raises(LimitExceeded):
        pool_odds(10**9)
    with pytest.raises(InputSyntaxError):
        pool_odds(5, 7)
    with pytest.raises(ValueError):
        pool_odds(5, k=3).pmf(10)


def test_large_pool_is_fast_and_sums_near_one() -> None:
    o = pool_odds(300, 8)
    assert abs(sum(o.dist) - 1) < 1e-6


def _simulate(n: int, again: int, rolls: int, seed: int) -> list[int]:
    """An independent simulator: faces from ``random.choices`` in bulk, chains walked in order."""
    rng = random.Random(seed)
    counts: dict[int, int] = {}
    faces = iter(rng.choices(range(1, 11), k=rolls * n * 2))
    for _ in range(rolls):
        pending, s = n, 0
        while pending:
            pending -= 1
            f = next(faces, None)
            if f is None:
                faces = iter(rng.choices(range(1, 11), k=100_000))
                f = next(faces)
            if f >= 8:
                s += 1
            if f >= again:
                pending += 1
        counts[s] = counts.get(s, 0) + 1
    return [counts.get(j, 0) for j in range(max(counts) + 1)]


def test_exact_distribution_matches_a_million_simulated_rolls() -> None:
    rolls = 1_000_000
    counts = _simulate(2, 9, rolls, seed=20261122)
    o = pool_odds(2, 9, k=len(counts) + 2)
    for j, c in enumerate(counts[:6]):
        p = o.pmf(j)
        sd = (p * (1 - p) / rolls) ** 0.5
        assert abs(c / rolls - p) < 5 * sd + 1e-9, (j, c / rolls, p)
    mean = sum(j * c for j, c in enumerate(counts)) / rolls
    assert abs(mean - o.mean_float) < 0.005
