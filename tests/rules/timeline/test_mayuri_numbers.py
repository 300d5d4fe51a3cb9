"""Issue 11 §3: numbers that must match MayuriBot to the last digit.

Each formula is algebraically the same as a simpler one, but the floating-point operation order
decides which side of a .xx5 / .x5 tie the binary value lands on.  The tie cases below were found
by searching plausible inputs for ones where MayuriBot's form and the naive form round
differently; each test asserts MayuriBot's result.
"""

from __future__ import annotations

import pytest

from chronodice.rules.timeline.checks import impact_for
from chronodice.rules.timeline.rounding import r2

# --- F14 impact from windup: r2((A / 10) * (T / 2)), not r2(A * T / 20) -------------------------

# (A, T, MayuriBot's impact); A·T/20 gives the other last digit for each of these.
IMPACT_TIES = [
    (225.78, 15, 169.34),  # issue example: A·T/20 → 169.33
    (100.02, 15, 75.01),  # 75.015 vs 75.01499…
    (100.1, 3, 15.02),  # 15.01499… vs 15.015
    (100.14, 5, 25.03),
    (100.22, 15, 75.17),
    (100.3, 7, 35.1),
    (100.5, 3, 15.08),
]


@pytest.mark.parametrize(("a", "t", "expected"), IMPACT_TIES)
def test_impact_from_time_uses_mayuribot_order(a: float, t: float, expected: float) -> None:
    assert r2(a * t / 20) != expected  # the naive order really rounds the other way
    assert impact_for(t, a) == expected


def test_impact_search_finds_ties_and_follows_mayuribot() -> None:
    """A small search over 2-decimal attributes and odd windups: every disagreement follows (A/10)·(T/2)."""
    found = 0
    for a100 in range(22000, 23000):
        a = a100 / 100
        for t in (3, 5, 15, 7.5):
            naive, mayuri = r2(a * t / 20), r2((a / 10) * (t / 2))
            assert impact_for(t, a) == mayuri
            found += naive != mayuri
    assert found > 0
