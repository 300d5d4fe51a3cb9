"""Issue 11 §3: numbers that must match MayuriBot to the last digit.

Each formula is algebraically the same as a simpler one, but the floating-point operation order
decides which side of a .xx5 / .x5 tie the binary value lands on.  The tie cases below were found
by searching plausible inputs for ones where MayuriBot's form and the naive form round
differently; each test asserts MayuriBot's result.
"""

from __future__ import annotations

import pytest

from chronodice.rules.timeline.checks import impact_for
from chronodice.rules.timeline.rounding import r1, r2
from chronodice.rules.timeline.sheet import Sheet, derive, new_resources

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


# --- F2 physical / mental: physical = 100L − ratio·L/10, mental = 100L − physical ---------------

# (L, ratio, attribute, %, MayuriBot's check value); L·(100 − ratio/10) gives the other last digit.
# No age or size revision (adult age 0), nothing carried.
PHYS_MENT_TIES = [
    (15.5, 361, "literature", 10, 55.95),  # issue example: the other order → 55.96
    (1.5, 1, "constitution", 10, 14.98),  # 14.985 vs 14.98499…
    (1.5, 1, "literature", 10, 0.02),
    (1.5, 6, "constitution", 15, 22.36),
    (1.5, 9, "constitution", 10, 14.87),
    (1.5, 6, "will", 5, 0.05),
]


def _other_order(level: float, ratio: float, attribute: str, pct: float) -> float:
    physical = level * (100 - ratio / 10)
    base = physical if attribute == "constitution" else 100 * level - physical
    return r2(base * pct / 100)


@pytest.mark.parametrize(("level", "ratio", "attribute", "pct", "expected"), PHYS_MENT_TIES)
def test_physical_mental_use_mayuribot_order(
    level: float, ratio: float, attribute: str, pct: float, expected: float
) -> None:
    assert _other_order(level, ratio, attribute, pct) != expected
    d = derive(Sheet.standard(level=level, ratio=ratio, adult_age=0, **{attribute: pct}))
    assert d.checks[attribute] == expected


def test_physical_mental_issue_example() -> None:
    d = derive(Sheet.standard(level=15.5, ratio=361, adult_age=0, literature=10))
    assert (d.physical, d.mental, d.checks["literature"]) == (990.45, 559.55, 55.95)


def test_physical_mental_search_follows_mayuribot() -> None:
    """Search L 1.5 (ratio 1–120): wherever the two orders disagree, derive() follows MayuriBot's."""
    found = 0
    for ratio in range(1, 121):
        physical = 100 * 1.5 - ratio * 1.5 / 10
        mental = 100 * 1.5 - physical
        d = derive(Sheet.standard(level=1.5, ratio=ratio, adult_age=0, constitution=10, literature=10))
        assert d.checks["constitution"] == r2(physical * 10 / 100)
        assert d.checks["literature"] == r2(mental * 10 / 100)
        found += _other_order(1.5, ratio, "constitution", 10) != d.checks["constitution"]
        found += _other_order(1.5, ratio, "literature", 10) != d.checks["literature"]
    assert found > 0


# --- F1 / F7 resources: 现金 and 意志 maximum are r1 of the unrounded value (rounded once) --------

# (资产, MayuriBot's 现金); r1(r2(x)) gives the other last digit.  Found by searching 资产 1–200.
CASH_TIES = [(16, 6.6), (17, 8.4), (31, 92.4), (46, 447.7), (56, 983.4), (88, 5997.0), (-17, -8.4)]


@pytest.mark.parametrize(("wealth", "expected"), CASH_TIES)
def test_cash_rounded_once(wealth: int, expected: float) -> None:
    assert r1(r2(abs(wealth) ** 4 / 10**4)) != abs(expected)
    res = new_resources(derive(Sheet.standard(wealth=wealth)))
    assert res.cash == res.cash_origin == expected


def test_cash_derived_value_still_r2() -> None:
    assert derive(Sheet.standard(wealth=17)).cash == 8.35
    assert derive(Sheet.standard(wealth=56)).cash == 983.45


# (L, ratio, 意志 %, MayuriBot's 意志 maximum); no revisions.  检定_意志 lands on x.x5 ± 1 ulp.
MP_TIES = [(1, 33, 35, 1.2), (1, 67, 35, 2.3), (1, 73, 35, 2.6), (1, 107, 35, 3.7)]


@pytest.mark.parametrize(("level", "ratio", "will", "expected"), MP_TIES)
def test_mp_max_rounded_once(level: float, ratio: float, will: float, expected: float) -> None:
    d = derive(Sheet.standard(level=level, ratio=ratio, adult_age=0, will=will))
    assert r1(d.mp_max) != expected  # r1 of the stored r2 value double-rounds
    res = new_resources(d)
    assert res.mp == res.mp_full == expected


def test_resources_search_follows_single_rounding() -> None:
    found = 0
    for wealth in range(1, 201):
        exact = wealth**4 / 10**4
        assert new_resources(derive(Sheet.standard(wealth=wealth))).cash == r1(exact)
        found += r1(exact) != r1(r2(exact))
    assert found >= 10
