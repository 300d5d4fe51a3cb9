"""Exact odds of a 无限恐怖 pool, computed (with fractions), not simulated.

A pool is a sum of independent *chains*: one starting die plus the dice it adds.  With success
probability ``s = 3/10`` (8, 9, 10) and add probability ``e = (11 − again)/10`` (a die that adds
always succeeds, since again ≥ 8), a chain that adds ``k`` dice then stops gives ``k`` or
``k + 1`` successes, so

    P(chain = 0) = 1 − s,        P(chain = j) = eʲ(1 − s) + eʲ⁻¹(s − e)   (j ≥ 1)

and E[chain] = s / (1 − e): 1/3 for 10-again, so a 5-dice pool expects 5/3 successes.

The pool's distribution is the ``n``-fold convolution of the chain's.  Chains have unbounded
support, but P(total = j) only involves outcomes ≤ j, so the distribution truncated at any ``K``
is *exact* for every j ≤ K — enough for P(≥ DC) = 1 − Σ_{j<DC} P(j).  Convolution uses binary
powers (about 2·log₂ n truncated convolutions).  ``exact=True`` computes in
:class:`~fractions.Fraction` (tests, small pools); the default computes the same formulas in
floating point (error around 1e-15), fast enough for a chat reply up to ``MAX_ODDS_POOL`` dice.
The expectation is always an exact fraction.

A chance roll (pool ≤ 0): P(no success) = 9/10; on a 10 the added die is an ordinary
10-again die (see :mod:`~chronodice.rules.pool10.pool`), so P(j) = 1/10 · P(chain₁₀ = j − 1) for
j ≥ 1; P(大失败) = 1/10; E = 1/10 · (1 + 1/3) = 2/15.

>>> o = pool_odds(5)
>>> o.mean, o.mean_float
(Fraction(5, 3), 1.6666666666666667)
>>> pool_odds(5, exact=True).pmf(0) == Fraction(7, 10) ** 5
True
>>> c = pool_odds(0, exact=True)
>>> c.p_dramatic, c.at_least(1), c.mean
(Fraction(1, 10), Fraction(1, 10), Fraction(2, 15))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from chronodice.core.errors import LimitExceeded

from .pool import DEFAULT_AGAIN, SUCCESS_AT, check_again

MAX_ODDS_POOL = 300
"""Largest pool whose odds a command computes (a 300-dice 8-again pool takes well under 1 s)."""
MAX_ODDS_K = 400
Num = Union[Fraction, float]  # noqa: UP007 (runtime alias; py3.10 target)
S = Fraction(11 - SUCCESS_AT, 10)
"""Probability that one die succeeds (8, 9, 10)."""


def add_probability(again: int) -> Fraction:
    """Probability that one die adds another.

    >>> add_probability(10), add_probability(8), add_probability(11)
    (Fraction(1, 10), Fraction(3, 10), Fraction(0, 1))
    """
    return Fraction(11 - check_again(again), 10)


def chain_pmf(again: int, k: int) -> list[Fraction]:
    """P(chain successes = j) for j = 0..k (exact).

    >>> chain_pmf(10, 2)
    [Fraction(7, 10), Fraction(27, 100), Fraction(27, 1000)]
    """
    e = add_probability(again)
    out = [1 - S]
    for j in range(1, k + 1):
        out.append(e**j * (1 - S) + e ** (j - 1) * (S - e))
    return out


def _convolve(a: list[Num], b: list[Num], k: int) -> list[Num]:
    out: list[Num] = [a[0] * 0] * (k + 1)
    for i, x in enumerate(a):
        if not x:
            continue
        for j in range(min(len(b), k + 1 - i)):
            y = b[j]
            if y:
                out[i + j] += x * y
    return out


def _power(base: list[Num], n: int, k: int) -> list[Num]:
    one = base[0] * 0 + 1
    result: list[Num] = [one] + [one * 0] * k
    while n:
        if n & 1:
            result = _convolve(result, base, k)
        n >>= 1
        if n:
            base = _convolve(base, base, k)
    return result


@dataclass(frozen=True)
class PoolOdds:
    """The distribution of natural successes of a pool, truncated at ``k`` (exact up to k).

    Probabilities are :class:`Fraction` when computed with ``exact=True``, else floats.
    """

    size: int
    again: int
    chance: bool
    dist: tuple[Num, ...]
    mean: Fraction
    """Expected natural successes (exact, not truncated)."""

    @property
    def k(self) -> int:
        return len(self.dist) - 1

    @property
    def mean_float(self) -> float:
        return float(self.mean)

    def pmf(self, j: int) -> Num:
        """P(natural successes = j); exact for j ≤ k."""
        if j < 0:
            return self.dist[0] * 0
        if j > self.k:
            raise ValueError(f"distribution computed up to {self.k} only")
        return self.dist[j]

    def at_least(self, j: int) -> Num:
        """P(natural successes ≥ j); exact for j ≤ k + 1."""
        zero = self.dist[0] * 0
        if j <= 0:
            return zero + 1
        if j > self.k + 1:
            raise ValueError(f"distribution computed up to {self.k} only")
        # sum the shorter side: the tail when j is past the middle keeps float error small
        return max(zero, 1 - sum(self.dist[:j], zero))

    @property
    def p_dramatic(self) -> Fraction:
        """P(大失败): 1/10 for a chance roll, else 0."""
        return Fraction(1, 10) if self.chance else Fraction(0)

    def p_success(self, *, dc: int | None = None, bonus: int = 0, lost: int = 0) -> Num:
        """P(the check succeeds): effective successes > 0 and, with a DC, final successes ≥ DC.

        Bonus successes count only when natural − lost > 0 (and never on a chance roll).
        """
        if self.chance:
            bonus = 0
        need = lost + 1
        if dc is not None:
            need = max(need, dc + lost - bonus)
        return self.at_least(need)

    def expected_total(self, *, bonus: int = 0, lost: int = 0) -> Num:
        """E[final successes] = E[max(0, natural − lost)] + bonus · P(natural > lost)."""
        if self.chance:
            bonus = 0
        below = sum(((lost - j) * self.pmf(j) for j in range(lost)), self.dist[0] * 0)
        zero = self.dist[0] * 0
        return max(zero, self.mean - lost + below + bonus * self.at_least(lost + 1))


def pool_odds(
    size: int, again: int = DEFAULT_AGAIN, *, k: int | None = None, exact: bool = False
) -> PoolOdds:
    """Exact odds for a pool of ``size`` dice (chance roll if ``size`` ≤ 0), truncated at ``k``.

    Without ``k`` the distribution goes far enough for display: to the mean plus a margin.
    """
    check_again(again)
    if size > MAX_ODDS_POOL:
        raise LimitExceeded(f"骰池超过{MAX_ODDS_POOL}时不计算概率")
    chance = size <= 0
    if chance:
        again = DEFAULT_AGAIN
    n = 1 if chance else size
    e = add_probability(again)
    chain_mean = S / (1 - e)
    mean = Fraction(1, 10) * (1 + chain_mean) if chance else n * chain_mean
    if k is None:
        k = min(MAX_ODDS_K, int(mean) + 12 + int(6 * float(mean) ** 0.5))
    if not 0 <= k <= MAX_ODDS_K:
        raise LimitExceeded(f"概率最多计算到{MAX_ODDS_K}个成功")
    chain: list[Num] = list(chain_pmf(again, k))
    if not exact:
        chain = [float(p) for p in chain]
    if chance:
        dist = [chain[0] * 0 + Fraction(9, 10)] + [p * Fraction(1, 10) for p in chain[:k]]
        if not exact:
            dist = [float(p) for p in dist]
    else:
        dist = _power(chain, n, k)
    return PoolOdds(size=size, again=again, chance=chance, dist=tuple(dist), mean=mean)


__all__ = ["PoolOdds", "add_probability", "chain_pmf", "pool_odds"]
