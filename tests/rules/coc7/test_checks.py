"""CoC 7th success levels under every ``.setcoc`` rule, with the rule book's numbers, and the
bonus/penalty dice checked exactly against enumeration."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from chronodice.dice import distribution
from chronodice.rules.coc7.checks import RULES, Difficulty, Level, improves, judge, required
from chronodice.services.coc7._common import roll_check, roll_d100

from .conftest import Scripted

C, X, H, S, F, U = Level.CRITICAL, Level.EXTREME, Level.HARD, Level.SUCCESS, Level.FAILURE, Level.FUMBLE

# (rule, roll, value, level)
TABLE: list[tuple[int, int, int, Level]] = [
    # rule 0, the rule book: value 50 → 10 extreme, 25 hard, 50 success; 100 fumble at ≥ 50
    (0, 1, 50, C),
    (0, 2, 50, X),
    (0, 10, 50, X),
    (0, 11, 50, H),
    (0, 25, 50, H),
    (0, 26, 50, S),
    (0, 50, 50, S),
    (0, 51, 50, F),
    (0, 96, 50, F),
    (0, 99, 50, F),
    (0, 100, 50, U),
    (0, 95, 49, F),
    (0, 96, 49, U),
    (0, 100, 49, U),
    (0, 9, 45, X),
    (0, 10, 45, H),
    (0, 22, 45, H),
    (0, 23, 45, S),
    (0, 1, 0, C),
    (0, 2, 0, F),
    (0, 5, 60, X),
    (0, 99, 99, S),
    (0, 100, 99, U),
    (0, 100, 120, U),
    # rule 1: 1–5 critical only at 50 or more
    (1, 1, 49, C),
    (1, 2, 49, X),
    (1, 5, 49, X),
    (1, 3, 40, X),
    (1, 3, 60, C),
    (1, 5, 50, C),
    (1, 6, 50, X),
    (1, 96, 49, U),
    (1, 99, 50, F),
    (1, 100, 50, U),
    # rule 2: 1–5 and a success / 96–100 and a failure
    (2, 5, 60, C),
    (2, 6, 60, X),
    (2, 3, 3, C),
    (2, 4, 3, F),
    (2, 5, 3, F),
    (2, 97, 99, S),
    (2, 100, 99, U),
    (2, 100, 100, S),
    (2, 96, 90, U),
    (2, 95, 90, F),
    # rule 3: 1–5 / 96–100 whatever the value
    (3, 5, 10, C),
    (3, 5, 3, C),
    (3, 6, 3, F),
    (3, 96, 99, U),
    (3, 95, 99, S),
    (3, 100, 100, U),
    # rule 4: 1–5 and ≤ value/10; below 50 fumble from 96 + value/10
    (4, 5, 50, C),
    (4, 6, 50, X),
    (4, 3, 30, C),
    (4, 4, 30, X),
    (4, 1, 9, X),
    (4, 99, 45, F),
    (4, 100, 45, U),
    (4, 98, 30, F),
    (4, 99, 30, U),
    (4, 96, 9, U),
    (4, 99, 50, F),
    (4, 100, 50, U),
    # rule 5: 1–2 and ≤ value/5; 99–100 at 50 or more
    (5, 2, 50, C),
    (5, 3, 50, X),
    (5, 98, 50, F),
    (5, 99, 50, U),
    (5, 96, 49, U),
    (5, 95, 49, F),
    (5, 1, 9, C),
    (5, 2, 9, H),
    (5, 1, 5, C),
    (5, 1, 4, H),
]


@pytest.mark.parametrize(
    ("rule", "roll", "value", "level"), TABLE, ids=[f"r{t[0]}-{t[1]}/{t[2]}" for t in TABLE]
)
def test_levels(rule: int, roll: int, value: int, level: Level) -> None:
    outcome = judge(roll, value, rule)
    assert outcome.level == level
    assert (outcome.roll, outcome.target, outcome.rule) == (roll, value, rule)


@pytest.mark.parametrize("rule", sorted(RULES))
def test_counts_over_all_rolls_at_50_and_40(rule: int) -> None:
    """How many of the 100 faces give each level at value 50 and 40 (exact, per rule)."""
    expected = {
        # rule: (value 50 counts, value 40 counts) as {level: faces}
        0: ({C: 1, X: 9, H: 15, S: 25, F: 49, U: 1}, {C: 1, X: 7, H: 12, S: 20, F: 55, U: 5}),
        1: ({C: 5, X: 5, H: 15, S: 25, F: 49, U: 1}, {C: 1, X: 7, H: 12, S: 20, F: 55, U: 5}),
        2: ({C: 5, X: 5, H: 15, S: 25, F: 45, U: 5}, {C: 5, X: 3, H: 12, S: 20, F: 55, U: 5}),
        3: ({C: 5, X: 5, H: 15, S: 25, F: 45, U: 5}, {C: 5, X: 3, H: 12, S: 20, F: 55, U: 5}),
        4: ({C: 5, X: 5, H: 15, S: 25, F: 49, U: 1}, {C: 4, X: 4, H: 12, S: 20, F: 59, U: 1}),
        5: ({C: 2, X: 8, H: 15, S: 25, F: 48, U: 2}, {C: 2, X: 6, H: 12, S: 20, F: 55, U: 5}),
    }[rule]
    for value, want in zip((50, 40), expected, strict=True):
        got = Counter(judge(roll, value, rule).level for roll in range(1, 101))
        assert dict(got) == {k: v for k, v in want.items() if v}, (rule, value)


def test_difficulty() -> None:
    assert (required(60), required(60, Difficulty.HARD), required(60, Difficulty.EXTREME)) == (60, 30, 12)
    hard = judge(30, 60, 0, Difficulty.HARD)
    assert hard.level == H and hard.passed and hard.label == "困难成功"
    short = judge(31, 60, 0, Difficulty.HARD)
    assert short.level == S and not short.passed and short.label == "失败（成功，未达困难）"
    assert judge(12, 60, 0, Difficulty.EXTREME).passed
    assert not judge(13, 60, 0, Difficulty.EXTREME).passed
    assert judge(1, 60, 0, Difficulty.EXTREME).level == C and judge(1, 60, 0, Difficulty.EXTREME).passed
    # the fumble range follows the value the roll had to beat: a hard check at 60 needs ≤ 30
    assert judge(96, 60, 0, Difficulty.HARD).level == U
    assert judge(96, 60, 0).level == F
    assert not judge(100, 60).passed and not judge(61, 60).passed and judge(60, 60).passed


def test_growth() -> None:
    assert [r for r in range(1, 101) if improves(r, 60)] == list(range(61, 101))
    assert [r for r in range(1, 101) if improves(r, 97)] == [96, 97, 98, 99, 100]
    assert [r for r in range(1, 101) if improves(r, 0)] == list(range(1, 101))


def test_roll_out_of_range() -> None:
    with pytest.raises(ValueError):
        judge(0, 50)
    with pytest.raises(ValueError):
        judge(101, 50)


# ----------------------------------------------------------------- bonus / penalty dice
def _enumerate(n: int, best: bool) -> dict[int, Fraction]:
    """Every units die × every set of n+1 tens dice, each equally likely."""
    counts: Counter[int] = Counter()
    for units in range(10):
        for tens in product(range(10), repeat=n + 1):
            values = [t * 10 + units or 100 for t in tens]
            counts[min(values) if best else max(values)] += 1
    total = 10 ** (n + 2)
    return {v: Fraction(c, total) for v, c in sorted(counts.items())}


@pytest.mark.parametrize(("n", "best"), [(1, True), (2, True), (3, True), (1, False), (2, False), (3, False)])
def test_bonus_penalty_distribution_is_exact(n: int, best: bool) -> None:
    want = _enumerate(n, best)
    assert distribution(f"{'b' if best else 'p'}{n}") == want
    assert sum(want.values()) == 1


@pytest.mark.parametrize(("n", "best"), [(1, True), (2, True), (1, False), (2, False)])
def test_check_roll_reads_every_face_combination(n: int, best: bool) -> None:
    """roll_d100 (what .rab/.rap use) on every scripted face combination: same value as enumerated."""
    counts: Counter[int] = Counter()
    for units in range(10):
        for tens in product(range(10), repeat=n + 1):
            d = roll_d100(Scripted([units + 1, *(t + 1 for t in tens)]), n if best else -n)
            values = [t * 10 + units or 100 for t in tens]
            assert d.value == (min(values) if best else max(values)), (units, tens, d)
            counts[d.value] += 1
    total = 10 ** (n + 2)
    assert {v: Fraction(c, total) for v, c in sorted(counts.items())} == _enumerate(n, best)


def test_bonus_success_odds_at_50() -> None:
    """P(success) at 50: one d100 1/2; with a bonus die 3/4; with a penalty die 1/4 (exact)."""
    dist = distribution("b1")
    p_success = sum(p for v, p in dist.items() if judge(v, 50).level.success)
    plain = sum(Fraction(1, 100) for v in range(1, 101) if judge(v, 50).level.success)
    assert plain == Fraction(1, 2)
    assert p_success == Fraction(3, 4)
    p_pen = sum(p for v, p in distribution("p1").items() if judge(v, 50).level.success)
    assert p_pen == Fraction(1, 4)


def test_roll_check_outcome_is_structured() -> None:
    outcome, d = roll_check(Scripted([47]), 50)
    assert (outcome.roll, outcome.target, outcome.level) == (47, 50, S)
    assert d.trace == "D100=47"
    outcome, d = roll_check(Scripted([8, 3, 10]), 50, bonus=1)
    # units 7, tens 2 and 9 → 27 or 97: the bonus die keeps 27
    assert outcome.roll == 27 and outcome.level == S
    assert d.trace.startswith("b1=") and d.trace.endswith("=27")
