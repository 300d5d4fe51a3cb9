"""Splitting attack bonus successes over several attacks (the seed's 特殊 cases)."""

from __future__ import annotations

import pytest

from chronodice.core.errors import IllegalAction, InputSyntaxError
from chronodice.rules.pool10.allocation import Target, allocate, even_split, parse_targets


def test_area_attack_each_target_gets_everything() -> None:
    plan = allocate(3, parse_targets("甲 乙 丙"))
    assert [(a.target, a.bonus) for a in plan] == [("甲", 3), ("乙", 3), ("丙", 3)]


def test_one_target_several_attacks_splits_by_declaration() -> None:
    plan = allocate(4, parse_targets("巨魔×3=2/1/1"))
    assert [a.bonus for a in plan] == [2, 1, 1] and [a.hit for a in plan] == [1, 2, 3]


def test_mixed_targets() -> None:
    # single-hit targets keep the whole bonus, multi-hit targets split it over their attacks
    plan = allocate(5, parse_targets("甲 乙*2"))
    assert [(a.target, a.bonus) for a in plan] == [("甲", 5), ("乙", 3), ("乙", 2)]


def test_even_split_default() -> None:
    assert even_split(4, 3) == (2, 1, 1)
    assert even_split(0, 2) == (0, 0)
    assert [a.bonus for a in allocate(4, [Target("x", 3)])] == [2, 1, 1]


def test_split_cannot_exceed_total() -> None:
    with pytest.raises(IllegalAction):
        allocate(3, parse_targets("甲×2=2/2"))
    with pytest.raises(IllegalAction):
        allocate(3, parse_targets("甲×2=1/1/1"))


def test_multi_attack_must_allocate_all_the_bonus() -> None:
    # seed: 攻击方需宣言将本次攻击的全部攻击附加成功分配在每次攻击上
    with pytest.raises(IllegalAction, match="分配合计应为3"):
        allocate(3, parse_targets("甲×2=1/1"))
    assert [a.bonus for a in allocate(3, parse_targets("甲×2=2/1"))] == [2, 1]
    assert [a.bonus for a in allocate(0, parse_targets("甲×2=0/0"))] == [0, 0]


def test_parse_errors_and_limits() -> None:
    with pytest.raises(InputSyntaxError):
        parse_targets("")
    with pytest.raises(InputSyntaxError):
        parse_targets("甲×30")
    with pytest.raises(InputSyntaxError):
        parse_targets("甲×0")
    assert parse_targets("×3")[0].name == "目标1"
