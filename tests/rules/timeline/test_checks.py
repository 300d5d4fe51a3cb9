"""F9–F16, F21 with the exact numbers of rules/timeline.md §7 (rule-book table) and §4.13."""

from __future__ import annotations

import math
import random

import pytest

from chronodice.core.errors import IllegalAction
from chronodice.rules.timeline.character import TLCharacter, import_sheet
from chronodice.rules.timeline.checks import (
    amplified,
    artillery,
    check_rate,
    cooperative_rate,
    impact_for,
    interaction,
    negotiation_rate,
    opposed_winner,
    ratio,
    roll_check,
    sheet_windup,
    target_value,
    windup,
)
from chronodice.rules.timeline.rounding import fmt, fmt_int
from chronodice.rules.timeline.sheet import Sheet


# ------------------------------------------------------------------ §7 rule-book table
def test_free_check_engineering_250() -> None:
    assert check_rate(250, target_value(10, 10)) == 50.0


def test_opposed_will_check() -> None:
    a, b = ratio(25, 50), ratio(35, 80)
    assert (a, b) == (0.5, 0.44)
    assert opposed_winner(a, b) == "b"


def test_cooperative_check() -> None:
    assert cooperative_rate([120, 80], 100) == 40.0


@pytest.mark.parametrize(("level", "difficulty", "value"), [(15, 17, 255), (20, 1, 20)])
def test_target_values(level: int, difficulty: int, value: int) -> None:
    assert target_value(level, difficulty) == value


@pytest.mark.parametrize(("rp", "rate"), [(100, 50.0), (0, 21.0)])
def test_negotiation_calculator(rp: float, rate: float) -> None:
    assert negotiation_rate(rp, 75, 10, 10, 35) == rate


def test_combat_calculator_strength_150_gives_26() -> None:
    assert windup(150, 115) == 26.09 and fmt_int(windup(150, 115)) == "26"
    assert windup(150, 114.27) == 26.25 and fmt_int(windup(150, 114.27)) == "26"
    # the range of A that the sheet shows as 26 t: (113.2, 117.6]
    assert fmt_int(windup(150, 117.6)) == "26" and fmt_int(windup(150, 117.7)) == "25"
    assert fmt_int(windup(150, 113.3)) == "26" and fmt_int(windup(150, 113.1)) == "27"


@pytest.mark.parametrize(
    ("impact", "low", "high", "shown"),
    [(50, 222.2, 285.7, "4"), (40, 228.6, 320, "3"), (50, 181.8, 222.2, "5")],
)
def test_timeline_table_windups(impact: float, low: float, high: float, shown: str) -> None:
    """韩左 力量 50 → 4, 飓风 智力 40 → 3, 夜莺 敏捷 50 → 5: consistent A ranges (§7)."""
    assert str(sheet_windup(impact, high)) == shown
    assert str(sheet_windup(impact, low + 0.05)) == shown
    assert str(sheet_windup(impact, low - 0.5)) != shown
    assert str(sheet_windup(impact, high + 0.5)) != shown


def test_balanced_character_needs_20t_to_kill_an_equal() -> None:
    hp = 150.0
    assert windup(hp, hp) == 20.0


def test_revolver_quick_start() -> None:
    impact, t = artillery(3, 0.5, 3)
    assert (impact, t) == (9.0, 1.5)


def test_scalpel_amplifier() -> None:
    assert amplified(100, 10) == 110.0


def test_interaction_shield() -> None:
    assert interaction(200, 150) == ("a", 50.0)
    assert interaction(200, 250) == ("b", 50.0)


def test_standard_sheet_figures() -> None:
    char = import_sheet(Sheet.standard())
    assert (char.resources.hp, char.resources.mp, char.resources.cash) == (150.0, 150.0, 625.0)
    assert char.derived().max_load == 175.0


# ------------------------------------------------------------------ §4.13 worked session
@pytest.fixture
def jia() -> TLCharacter:
    return import_sheet(Sheet.standard())


def test_pre_strength_150(jia: TLCharacter) -> None:
    a = jia.check("strength")
    assert fmt(a) == "175.0"
    assert fmt(windup(150, a)) == "17.14"


def test_pre_strength_10t(jia: TLCharacter) -> None:
    assert impact_for(10, jia.check("strength")) == 87.5


def test_ex_strength_against_100(jia: TLCharacter) -> None:
    rate = check_rate(jia.check("strength"), target_value(10, 10))
    assert rate == 35.0
    rng = random.Random(5)
    result = roll_check(rate, rng)
    assert result.roll == random.Random(5).randint(1, 100)
    assert result.ratio == round(result.roll / 35, 2)
    assert result.success == (result.roll <= 35)


def test_negotiation_session(jia: TLCharacter) -> None:
    bonus = jia.derived().negotiation_bonus
    assert negotiation_rate(100, bonus, jia.level, 10, 35) == 50.0
    assert negotiation_rate(0, bonus, jia.level, 10, 35) == 21.0
    assert negotiation_rate(100, bonus, 20, 10, 35) == 85.0


# ------------------------------------------------------------------ edges
def test_rates_are_not_capped_and_zero_never_succeeds() -> None:
    assert check_rate(10000, 10) == 20000.0
    assert ratio(1, 0) == math.inf
    assert opposed_winner(math.inf, 3.0) == "b"


def test_success_is_roll_at_most_rate() -> None:
    class Fixed(random.Random):
        def randint(self, a: int, b: int) -> int:
            return 35

    assert roll_check(35.0, Fixed()).success
    assert not roll_check(34.0, Fixed()).success


def test_invalid_inputs() -> None:
    with pytest.raises(IllegalAction):
        check_rate(100, 0)
    with pytest.raises(IllegalAction):
        negotiation_rate(100, 75, 10, 0, 35)
    with pytest.raises(IllegalAction):
        negotiation_rate(100, 75, 10, 10, -1)
    with pytest.raises(IllegalAction):
        windup(100, 0)
    with pytest.raises(IllegalAction):
        windup(-5, 100)
    with pytest.raises(IllegalAction):
        impact_for(-1, 100)


def test_windup_and_impact_are_inverse() -> None:
    for a in (17.3, 100.0, 175.0, 519.46):
        for i in (1.0, 43.75, 150.0, 999.0):
            assert impact_for(windup(i, a), a) == pytest.approx(i, abs=a / 20 * 0.006)


def test_rolls_are_uniform_1_to_100() -> None:
    rng = random.Random(1)
    seen = {roll_check(50, rng).roll for _ in range(3000)}
    assert seen == set(range(1, 101))
