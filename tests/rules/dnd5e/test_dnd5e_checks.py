"""D&D 5e checks: modifiers from the card, advantage/disadvantage, DC."""

from __future__ import annotations

import pytest
from helpers import Scripted

from chronodice.core.errors import NotFound
from chronodice.rules.dnd5e import SKILLS, ability_modifier, ability_name, check_modifier, roll_check


def test_ability_modifiers_follow_the_table() -> None:
    table = {1: -5, 2: -4, 3: -4, 8: -1, 9: -1, 10: 0, 11: 0, 12: 1, 15: 2, 16: 3, 20: 5, 30: 10}
    assert {s: ability_modifier(s) for s in table} == table


def test_names_and_modifiers() -> None:
    assert [ability_name(n) for n in ("STR", "dex", "体质", "Int", "wis", "cha", "察觉")] == [
        "力量",
        "敏捷",
        "体质",
        "智力",
        "感知",
        "魅力",
        None,
    ]
    assert len(set(SKILLS) - {"特技", "驯养动物"}) == 18
    attrs = {"力量": 16, "DEX": 14, "感知": 9, "察觉": 4}
    assert check_modifier(attrs, "运动") == (3, "力量")
    assert check_modifier(attrs, "隐匿") == (2, "敏捷")
    assert check_modifier(attrs, "察觉") == (4, "察觉")  # the card's skill bonus wins
    assert check_modifier(attrs, "洞悉") == (-1, "感知")
    with pytest.raises(NotFound):
        check_modifier(attrs, "说服")  # no 魅力 on the card
    with pytest.raises(NotFound):
        check_modifier(attrs, "烹饪")


def test_roll_with_advantage_disadvantage_and_dc() -> None:
    c = roll_check(Scripted([12], faces=20), 3, dc=15)
    assert (c.dice, c.kept, c.total, c.success) == ((12,), 12, 15, True)
    c = roll_check(Scripted([5, 17], faces=20), 2, advantage=True, dc=20)
    assert (c.kept, c.total, c.success) == (17, 19, False)
    c = roll_check(Scripted([5, 17], faces=20), 2, disadvantage=True)
    assert (c.kept, c.total, c.success) == (5, 7, None)
    c = roll_check(Scripted([9], faces=20), 0, advantage=True, disadvantage=True)  # they cancel: one die
    assert c.dice == (9,)
