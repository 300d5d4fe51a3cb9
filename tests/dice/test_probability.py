"""Exact probabilities: known values, brute force on small cases, agreement with the roller."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from chronodice.dice import DiceLimitError, DiceValueError, UnknownVariable, evaluate, parse
from chronodice.dice.probability import distribution, expected_value


def test_known_values() -> None:
    assert expected_value("4d6k3") == Fraction(15869, 1296)  # 4d6 drop lowest ≈ 12.24
    assert expected_value("2d20k1") == Fraction(553, 40)  # advantage: 13.825
    assert expected_value("2d20q1") == Fraction(287, 40)  # disadvantage: 7.175
    assert expected_value("1d20+5") == Fraction(31, 2)
    assert expected_value("d", default_faces=6) == Fraction(7, 2)
    assert expected_value("d%") == Fraction(101, 2)
    assert distribution("2d6")[7] == Fraction(1, 6)
    assert distribution("3d6")[3] == Fraction(1, 216)
    assert sum(distribution("3d6").values()) == 1


def test_attributes_and_arithmetic() -> None:
    attrs = {"敏捷": 3}
    assert expected_value("1d20+敏捷*2", variables=attrs) == Fraction(33, 2)
    assert distribution("-1d4") == {v: Fraction(1, 4) for v in (-4, -3, -2, -1)}
    # division rounds toward zero, as the roller
    assert distribution("1d4/2") == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    assert distribution("-1d2/2") == {-1: Fraction(1, 2), 0: Fraction(1, 2)}
    assert distribution("-1d3/2") == {-1: Fraction(2, 3), 0: Fraction(1, 3)}
    with pytest.raises(UnknownVariable):
        distribution("1d20+潜行", variables=attrs)


@pytest.mark.parametrize(
    ("expr", "faces"),
    [
        ("3d4k2", [4, 4, 4]),
        ("3d4q1", [4, 4, 4]),
        ("4d3dh1", [3, 3, 3, 3]),
        ("4d3dl2", [3, 3, 3, 3]),
        ("3d5", [5, 5, 5]),
        ("2d6-1d4", [6, 6, 4]),
        ("1d6*1d3/2", [6, 3]),
    ],
)
def test_matches_brute_force(expr: str, faces: list[int]) -> None:
    """Every face sequence, fed through the real evaluator, weighted equally."""
    tree = parse(expr)
    counts: dict[int, int] = {}
    total = 0
    for seq in product(*(range(1, f + 1) for f in faces)):
        value = evaluate(tree, _Sequence(seq)).value
        counts[value] = counts.get(value, 0) + 1
        total += 1
    assert distribution(tree) == {v: Fraction(c, total) for v, c in sorted(counts.items())}


class _Sequence(random.Random):
    def __init__(self, values: tuple[int, ...]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert 1 <= value <= b
        return value


def test_computed_count_is_a_mixture() -> None:
    # (1d2)d2: half the time 1d2, half the time 2d2
    assert distribution("(1d2)d2") == {
        1: Fraction(1, 4),
        2: Fraction(1, 4) + Fraction(1, 8),
        3: Fraction(2, 8),
        4: Fraction(1, 8),
    }


def test_pool_without_again_is_binomial() -> None:
    dist = distribution("2a11")
    assert dist == {0: Fraction(49, 100), 1: Fraction(42, 100), 2: Fraction(9, 100)}


@pytest.mark.parametrize("expr", ["3d6!", "5a10", "1d6/(1d2-1)"])
def test_unbounded_or_undefined_is_refused(expr: str) -> None:
    with pytest.raises(DiceValueError):
        distribution(expr)


@pytest.mark.parametrize("expr", ["1000d6", "100d100", "1d1000000", "20d20k3", "1d1000*1d1000"])
def test_too_expensive_is_refused_quickly(expr: str) -> None:
    with pytest.raises(DiceLimitError):
        distribution(expr)


def test_roller_agrees_with_the_exact_mean() -> None:
    """20 000 seeded rolls of 4d6k3: the sample mean is within 4 standard errors of the exact mean."""
    dist = distribution("4d6k3")
    mean = expected_value("4d6k3")
    var = sum(p * (v - mean) ** 2 for v, p in dist.items())
    rng = random.Random(2024)
    tree = parse("4d6k3")
    n = 20_000
    sample = sum(evaluate(tree, rng).value for _ in range(n)) / n
    assert abs(sample - float(mean)) < 4 * (float(var) / n) ** 0.5
