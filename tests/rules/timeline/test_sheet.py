"""Derived values F1–F8 and level change F20 against rules/timeline.md §3.2 test vectors."""

from __future__ import annotations

import math

import pytest

from chronodice.rules.timeline.sheet import (
    Resources,
    Sheet,
    age_revisions,
    cash_of,
    change_level,
    derive,
    negotiation_bonus,
    recompute_resources,
    size_revision,
    weight_revision,
)


def test_standard_sheet_vector() -> None:
    """§3.2: level 10, ratio 500, no age/size → the rule book's sheet excerpts."""
    d = derive(Sheet.standard())
    assert (d.ability, d.physical, d.mental) == (1000.0, 500.0, 500.0)
    assert (d.physical_age_rev, d.mental_age_rev, d.size_rev) == (1.0, 1.0, 1.0)
    assert d.checks["constitution"] == 150.0 and d.hp_max == 150.0
    assert d.checks["strength"] == 175.0 and d.max_load == 175.0
    assert d.checks["dexterity"] == 175.0 and d.weight_rev == 1.0
    assert d.checks["will"] == 150.0 and d.mp_max == 150.0
    assert d.checks["education"] == 175.0 and d.checks["intelligence"] == 175.0
    for key in ("medicine", "engineering", "military", "literature", "arts"):
        assert d.checks[key] == 100.0
    assert d.negotiation_bonus == 75.0
    assert d.cash == 625.0


def test_human_aged_18_vector() -> None:
    """§3.2: same stats, adult 18, age 18, size 60/60."""
    d = derive(Sheet.standard(adult_age=18, age=18, standard_size=60, size=60))
    assert d.revised_physical == 519.46
    assert d.revised_mental == 400.0
    assert d.checks["constitution"] == 155.84 and d.hp_max == 156.0
    assert d.checks["strength"] == 181.81 and d.max_load == 181.81
    assert d.checks["will"] == 120.0 and d.mp_max == 120.0
    assert d.checks["education"] == d.checks["intelligence"] == 140.0
    assert d.checks["arts"] == 80.0
    assert d.negotiation_bonus == 75.0


def test_sample_character_momo() -> None:
    """§3.2: 沫沫 (L1, ratio 200, no age/size) matches the committed _adv.json."""
    sheet = Sheet.standard(
        name="沫沫",
        level=1,
        ratio=200,
        constitution=30,
        strength=35,
        will=40,
        intelligence=30,
        literature=20,
        arts=20,
    )
    d = derive(sheet)
    assert (d.physical, d.mental) == (80.0, 20.0)
    assert d.checks["constitution"] == 24.0
    assert d.max_load == 280.0
    assert d.checks["will"] == 8.0
    assert d.negotiation_bonus == 27.86


@pytest.mark.parametrize(
    ("wealth", "cash"), [(50, 625.0), (100, 10000.0), (0, 0.0), (-50, -625.0), (7, 0.24)]
)
def test_cash_f1(wealth: float, cash: float) -> None:
    assert cash_of(wealth) == cash


def test_age_revisions_f3() -> None:
    phys, ment = age_revisions(27, 18)
    assert phys == pytest.approx(1.12)  # the physical peak
    phys, ment = age_revisions(18, 18)
    assert (round(phys, 4), round(ment, 4)) == (1.0389, 0.8)
    phys, ment = age_revisions(40, 18)
    assert (round(phys, 4), round(ment, 4)) == (1.0437, 1.1468)
    assert age_revisions(30, 0) == (1.0, 1.0)


def test_age_floors() -> None:
    """Physical floor 0.01 (MayuriBot); mental floored too (our decision, §8 bug 3)."""
    phys, _ = age_revisions(1000, 18)
    assert math.cos(math.log(1000 / 27)) + 0.12 > 0 or phys == 0.01
    assert age_revisions(0.5, 18)[1] == 0.01
    assert min(age_revisions(a, 18)[0] for a in (0.01, 0.5, 2000, 5000, 100000)) > 0


def test_size_and_weight_revisions_f4_f5() -> None:
    assert size_revision(60, 60) == 1.0
    assert size_revision(60 * math.e, 60) == pytest.approx(2.0)
    assert size_revision(1, 60) == 0.01
    assert weight_revision(0, 175) == 1.0
    assert weight_revision(87.5, 175) == 0.75
    assert weight_revision(175, 175) == 0.01
    assert weight_revision(0, 0) == 1.0 and weight_revision(5, 0) == 0.01


def test_weight_lowers_dexterity_not_strength() -> None:
    d = derive(Sheet.standard(weight=87.5))
    assert d.checks["dexterity"] == 131.25  # 175 · 0.75
    assert d.checks["strength"] == 175.0 and d.max_load == 175.0
    assert derive(Sheet.standard(), extra_weight=87.5).checks["dexterity"] == 131.25


def test_size_affects_constitution_and_strength_only() -> None:
    d = derive(Sheet.standard(standard_size=60, size=60 * math.e))
    assert d.checks["constitution"] == 300.0 and d.checks["strength"] == 350.0
    assert d.checks["dexterity"] == 175.0
    assert d.hp_max == 300.0 and d.max_load == 350.0


def test_negotiation_bonus_f8_uses_unrevised_values() -> None:
    base = negotiation_bonus(Sheet.standard())
    assert negotiation_bonus(Sheet.standard(adult_age=18, age=60)) == base
    assert negotiation_bonus(Sheet.standard(appearance=100)) == round(75 * (1 + math.log(2)), 2)
    assert negotiation_bonus(Sheet.standard(ratio=800)) == round(75 * (1 + math.log10(4)), 2)


def test_hp_rounds_half_even() -> None:
    # 检定_体质 = 500·x% → 体质 30.5 % gives 152.5 → r0 half-even = 152
    assert derive(Sheet.standard(constitution=30.5)).hp_max == 152.0
    assert derive(Sheet.standard(constitution=30.7)).hp_max == 154.0


def test_level_change_f20_scales_checks_not_load_cash_bonus() -> None:
    old = derive(Sheet.standard())
    sheet, pct = change_level(Sheet.standard(), 5)
    new = derive(sheet)
    assert pct == 50.0
    for key, value in old.checks.items():
        assert new.checks[key] == pytest.approx(value * 1.5)
    assert new.hp_max == 225.0 and new.mp_max == 225.0
    assert (new.max_load, new.cash, new.negotiation_bonus) == (old.max_load, old.cash, old.negotiation_bonus)


def test_level_floor_and_percent() -> None:
    sheet, pct = change_level(Sheet.standard(level=3), -5)
    assert sheet.level == 1 and pct == -67.0  # r0(100/3) − 100
    assert change_level(Sheet.standard(), 0)[1] == 0.0


def test_recompute_resources_clamps_never_raises() -> None:
    hurt = Resources(hp=120.0, hp_full=150.0, mp=150.0, mp_full=150.0, cash=3.0, cash_origin=625.0)
    up = recompute_resources(hurt, derive(Sheet.standard(level=20)))
    assert (up.hp, up.hp_full, up.mp, up.mp_full) == (120.0, 300.0, 150.0, 300.0)
    down = recompute_resources(hurt, derive(Sheet.standard(level=5)))
    assert (down.hp, down.hp_full, down.mp) == (75.0, 75.0, 75.0)
    assert down.cash == 3.0 and down.cash_origin == 625.0
