"""Buffs (F17) and resource-change modifiers (F18–F19)."""

from __future__ import annotations

import pytest

from chronodice.core.errors import InputSyntaxError
from chronodice.rules.timeline.modifiers import (
    Buff,
    apply_buffs,
    buffs_for,
    make_buff,
    make_reduction,
    resource_change,
    sort_buffs,
)


def test_f17_example_from_section_4_4() -> None:
    rows = [
        make_buff("a", "力量", "20", "1", 10),
        make_buff("b", "力量", "10%", "2", 10),
        make_buff("c", "力量", "5%", "2", 10),
        make_buff("d", "力量", "5", "3", 10),
        make_buff("e", "力量", "10%", "4", 10),
    ]
    assert apply_buffs(181.81, rows, "strength") == 260.79


def test_final_time_rows_are_summed_like_mayuribot() -> None:
    rows = [make_buff("a", "力量", "10%", "4", 10), make_buff("b", "力量", "10%", "4", 10)]
    assert apply_buffs(100, rows, "strength") == 120.0  # a product would give 121


def test_default_types_and_d_values() -> None:
    assert make_buff("x", "敏捷", "10%", None, 10).type == "direct_time"
    assert make_buff("x", "敏捷", "10", None, 10).type == "direct_add"
    d = make_buff("x", "敏捷", "50d", None, 10)  # 50/(10·10)
    assert (d.value, d.type) == (0.5, "direct_time")
    assert make_buff("x", "敏捷", "1D", None, 3).value == 0.03  # r2(1/30)
    assert make_buff("x", "敏捷", "5", "最终乘算", 10).type == "final_time"


@pytest.mark.parametrize(
    ("rng", "value", "kind", "needle"),
    [
        ("魔力", "10", None, "不存在属性[魔力]"),
        ("力量", "x%", None, "数值错误"),
        ("力量", "d", None, "数值错误"),
        ("力量", "10", "5", "类型错误"),
    ],
)
def test_buff_errors(rng: str, value: str, kind: str | None, needle: str) -> None:
    with pytest.raises(InputSyntaxError) as err:
        make_buff("src", rng, value, kind, 10)
    assert needle in err.value.message


def test_groups_cover_the_right_attributes() -> None:
    rows = [
        make_buff("p", "物理", "10", None, 10),
        make_buff("m", "思维", "1", None, 10),
        make_buff("f", "领域", "100", None, 10),
        make_buff("all", "所有", "1000", None, 10),
    ]
    assert apply_buffs(0, rows, "dexterity") == 1010.0
    assert apply_buffs(0, rows, "will") == 1001.0
    assert apply_buffs(0, rows, "arts") == 1101.0
    assert [b.source for b in buffs_for(rows, "arts")] == ["m", "f", "all"]


def test_sort_order_range_type_desc_value_source_asc() -> None:
    rows = [
        Buff("b", "will", 2, "direct_add"),
        Buff("a", "will", 2, "direct_add"),
        Buff("z", "will", 1, "direct_add"),
        Buff("q", "will", 1, "final_add"),
        Buff("k", "arts", 9, "final_time"),
    ]
    assert [b.source for b in sort_buffs(rows)] == ["q", "z", "a", "b", "k"]


# ------------------------------------------------------------------ F18/F19
def test_section_4_5_example() -> None:
    armour = make_reduction("甲", "-hp", "100d", "物理")
    shield = make_reduction("盾", "-hp", "20%", None)
    change = resource_change(-200, "hp", 10, [armour, shield], "物理")
    assert (change.keep, change.multiplier, change.result) == (0.5, 0.8, -80.0)
    assert change.process == "[-200]*0.5*0.8+0"
    flat = make_reduction("x", "-hp", "10", None)
    assert resource_change(-200, "hp", 10, [armour, shield, flat], "物理").result == -70.0


def test_defence_only_shows_no_process() -> None:
    change = resource_change(-200, "hp", 10, [make_reduction("甲", "-hp", "100d", None)])
    assert change.result == -100.0 and change.process is None


def test_all_rows_apply_to_hp_and_mp() -> None:
    """§8 bug 7: ±all rows were stored but never applied."""
    row = make_reduction("结界", "-all", "50%", None)
    assert resource_change(-100, "hp", 10, [row]).result == -50.0
    assert resource_change(-100, "mp", 10, [row]).result == -50.0
    assert resource_change(100, "hp", 10, [row]).result == 100.0  # a gain is untouched


def test_defence_of_type_all_applies_to_every_damage_type() -> None:
    row = make_reduction("护甲", "hp", "100d", "所有")
    assert resource_change(-200, "hp", 10, [row], "火焰").result == -100.0
    assert resource_change(-200, "hp", 10, [row], None).result == -100.0
    typed = make_reduction("石肤", "hp", "100d", "物理")
    assert resource_change(-200, "hp", 10, [typed], "火焰").result == -200.0


def test_gain_modifiers() -> None:
    rows = [
        make_reduction("祝福", "+hp", "50%", None),
        make_reduction("圣物", "+hp", "100d", None),
        make_reduction("药", "+hp", "5", None),
    ]
    # r = D/(10L) = 1.0 → k = 0: a +hp defence row blocks healing entirely (MayuriBot's formula)
    assert resource_change(100, "hp", 10, rows).result == 5.0
    assert resource_change(100, "hp", 10, rows[:1] + rows[2:]).result == 155.0


def test_result_never_changes_sign() -> None:
    big = make_reduction("x", "-hp", "500", None)
    assert resource_change(-200, "hp", 10, [big]).result == 0.0
    curse = make_reduction("诅咒", "+hp", "-500", None)
    assert resource_change(100, "hp", 10, [curse]).result == 0.0


def test_reduction_errors_and_forms() -> None:
    with pytest.raises(InputSyntaxError):
        make_reduction("x", "+sp", "5", None)
    with pytest.raises(InputSyntaxError):
        make_reduction("x", "hp", "abc", None)
    assert make_reduction("x", "体力", "12.5%", None).value == 0.125
    assert make_reduction("x", "+意志", "3", None).range == "+mp"
