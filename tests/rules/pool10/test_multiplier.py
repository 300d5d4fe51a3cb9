"""The seed's multiplier stacking, division and rounding rules, with its worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from chronodice.core.errors import InputSyntaxError
from chronodice.rules.pool10.multiplier import evaluate, merge_factors, parse_calculation


def calc(text: str) -> tuple[int, str]:
    r = evaluate(parse_calculation(text))
    return r.value, r.formula


@pytest.mark.parametrize("base", [10, 30, 47])
def test_seed_example_two_times_four_times_plus_fifty(base: int) -> None:
    # 血统2倍 + 能力4倍 + 鞋子+50 → 基础速度*(2+4-1)+50
    value, formula = calc(f"{base} ×2 ×4 +50")
    assert value == base * (2 + 4 - 1) + 50
    assert formula == f"{base}×(2+4-1)+50={value}"
    assert value != base * 8 + 50


@pytest.mark.parametrize("base", [10, 30])
def test_seed_example_base_first(base: int) -> None:
    # 基础移动速度增加10，然后陆行速度翻倍 → (基础速度+10)*2
    value, formula = calc(f"{base} 基础+10 ×2")
    assert value == (base + 10) * 2 and formula == f"({base}+10)×2={value}"


@pytest.mark.parametrize(("base", "expected"), [(10, 2), (12, 3), (30, 9), (2, -1)])
def test_seed_division_example(base: int, expected: int) -> None:
    # 血统魔力消耗减半 + 能力减半 + 武器-1 → 基础魔力/(2+2-1)-1, rounded down
    value, formula = calc(f"{base} /2 /2 -1")
    assert value == expected == base // 3 - 1
    assert formula == f"{base}/(2+2-1)-1={expected}"


def test_again_and_extra_add_whole() -> None:
    assert calc("30 ×2 再×2")[0] == 30 * 4
    assert calc("30 ×2 额外×3")[0] == 30 * 5
    assert calc("30 2倍 4倍")[0] == 30 * 5
    assert merge_factors([(Fraction(3), False)]) == 3


def test_order_does_not_matter_and_additions_come_last() -> None:
    assert calc("10 +5 ×2 ×3")[0] == 10 * 4 + 5
    assert calc("10 ×3 +5 ×2")[0] == 10 * 4 + 5


def test_rounding_down_before_additions() -> None:
    # 2/(2+2-1) = 0.67 → 0, then −1 = −1
    assert calc("2 /2 /2 -1")[0] == -1
    # 5/3 = 1.67 → 1 first; rounding only at the end would give floor(1.67 + 0.4) = 2
    assert calc("5 /3 +0.4")[0] == 1
    assert calc("5 /3 -0.5")[0] == 0  # 1 − 0.5 = 0.5 → 0


def test_rounding_down() -> None:
    assert calc("7 /2")[0] == 3
    assert calc("10 ×1.5 ×1.5")[0] == 20  # 10 × (1.5 + 1.5 − 1) = 20
    assert calc("5 ×1.5")[0] == 7


def test_real_world_values_use_plain_arithmetic() -> None:
    value, formula = calc("100 ×2 ×4 现实")
    assert value == 800 and formula == "100×2×4=800"


@pytest.mark.parametrize("bad", ["", "×2", "10 /0", "10 ×", "10 乱码", "10 " + "×2 " * 40])
def test_bad_input(bad: str) -> None:
    with pytest.raises(InputSyntaxError):
        evaluate(parse_calculation(bad))
