"""Bonus successes, lost successes, DC, opposed rolls and attacks against declared defence."""

from __future__ import annotations

import json

import pytest

from chronodice.core.errors import InputSyntaxError
from chronodice.rules.pool10.check import (
    CheckResult,
    TieRule,
    attribute_bonus,
    opposed,
    resolve,
    resolve_attack,
)
from chronodice.rules.pool10.pool import PoolRoll, roll_pool


def pool(*faces: int, extra: tuple[int, ...] = ()) -> PoolRoll:
    rounds = (tuple(faces), extra) if extra else (tuple(faces),)
    return PoolRoll(size=len(faces), again=10, rounds=rounds)


@pytest.mark.parametrize(
    ("value", "bonus"),
    [(0, 0), (1, 0), (5, 0), (6, 1), (10, 1), (11, 2), (15, 2), (16, 3), (20, 3), (21, 4), (26, 5)],
)
def test_attribute_bonus_table(value: int, bonus: int) -> None:
    # seed: 属性达到6会获得1个附加成功，每提升5再加一个（即属性11有2个附加成功）
    assert attribute_bonus(value) == bonus


def test_bonus_added_when_natural_successes_positive() -> None:
    r = resolve(pool(8, 1, 2), bonus=2)
    assert (r.natural, r.bonus_applied, r.total, r.success) == (1, 2, 3, True)


def test_bonus_never_rescues_a_failed_roll() -> None:
    # seed: 如果你投掷得到的成功数为0或者更低，那么无论你有多少附加成功，这一次行动都要算作失败
    r = resolve(pool(1, 2, 7), bonus=5)
    assert (r.natural, r.bonus_applied, r.total, r.success) == (0, 0, 0, False)
    assert r.bonus_blocked


def test_seed_example_lose_one_success_then_no_bonus() -> None:
    # seed: 成功数为1，但是由于某些原因，你失去1点成功 → 成功数变为0，此时你无法获得附加成功
    r = resolve(pool(9, 3), bonus=3, lost=1)
    assert (r.natural, r.effective, r.bonus_applied, r.total, r.success) == (1, 0, 0, 0, False)


def test_lost_successes_below_zero_show_as_zero() -> None:
    r = resolve(pool(9, 3), lost=4)
    assert r.effective == -3 and r.total == 0


def test_chance_die_gets_no_bonus(scripted) -> None:
    r = resolve(roll_pool(0, scripted([10, 2])), bonus=4, dc=1)
    assert (r.natural, r.bonus_applied, r.total, r.success) == (1, 0, 1, True)


@pytest.mark.parametrize(
    ("faces", "bonus", "dc", "success", "margin"),
    [
        ((8, 9, 10, 1), 0, 3, True, 0),  # equal to DC succeeds
        ((8, 9, 1, 1), 0, 3, False, -1),
        ((8, 9, 1, 1), 1, 3, True, 0),
        ((8, 1, 1, 1), 5, 3, True, 3),
        ((1, 1, 1, 1), 5, 1, False, -1),
    ],
)
def test_dc_and_margin(faces: tuple[int, ...], bonus: int, dc: int, success: bool, margin: int) -> None:
    extra = (3,) if 10 in faces else ()
    r = resolve(pool(*faces, extra=extra), bonus=bonus, dc=dc)
    assert r.success is success and r.margin == margin


def test_no_dc_means_success_is_at_least_one() -> None:
    assert resolve(pool(8)).success and not resolve(pool(7)).success
    assert resolve(pool(8)).margin is None


def test_bad_amounts_refused() -> None:
    with pytest.raises(InputSyntaxError):
        resolve(pool(8), bonus=-1)
    with pytest.raises(InputSyntaxError):
        resolve(pool(8), dc=10**6)


def test_check_result_json_round_trip() -> None:
    r = resolve(pool(8, 10, 2, extra=(9,)), bonus=2, lost=1, dc=2)
    assert CheckResult.from_dict(json.loads(json.dumps(r.to_dict()))) == r


# ---------------------------------------------------------------- opposed
def test_stealth_example_tie_rules() -> None:
    # seed example: A 敏捷+潜行 successes become B's 侦查 DC
    a = resolve(pool(8, 9, 2, 3, 4, 5, 6))  # 2 successes
    b_tie = resolve(pool(10, 8, 1, 1, 1, 1, 1, 1, extra=(2,)))  # 2 successes
    b_more = resolve(pool(10, 8, 9, 1, extra=(2,)))  # 3 successes
    assert opposed(a, b_tie).dc == 2
    assert opposed(a, b_tie).second_wins  # default: ≥ DC (the seed's general rule)
    assert opposed(a, b_tie).tie
    assert not opposed(a, b_tie, TieRule.STRICT).second_wins  # «超过» reading
    assert opposed(a, b_more, TieRule.STRICT).second_wins


def test_opposed_second_side_needs_a_success() -> None:
    a = resolve(pool(1, 2))
    b = resolve(pool(3, 4), bonus=3)
    assert opposed(a, b).dc == 0 and not opposed(a, b).second_wins
    b1 = resolve(pool(8, 4))
    assert opposed(a, b1).second_wins


def test_opposed_bonus_counts_on_each_side() -> None:
    a = resolve(pool(8, 1), bonus=2)  # 3
    b = resolve(pool(8, 9, 1), bonus=0)  # 2
    assert opposed(a, b).dc == 3 and not opposed(a, b).second_wins


# ---------------------------------------------------------------- attacks vs defence
def test_defence_cancelling_all_natural_successes_misses() -> None:
    # seed: 抵消了攻击方自然投掷骰子所得到的全部成功数（在计算攻击的附加成功之前）→ 未命中，
    # 攻击方的附加成功也不会产生效果
    a = resolve_attack(pool(8, 9, 3), attack_bonus=4, defence=2)
    assert not a.hit and a.successes == 0 and a.check.bonus_applied == 0
    assert a.cancelled == 2 and a.wasted_defence == 0


def test_partial_defence_hits_with_bonus() -> None:
    a = resolve_attack(pool(8, 9, 10, extra=(1,)), attack_bonus=4, defence=2)
    assert a.hit and a.successes == 1 + 4 and a.cancelled == 2


def test_seed_note_five_declared_against_one_success_wastes_four() -> None:
    # seed 注意事项: 防御方宣言了5个附加成功，而攻击方只投掷了1个成功数 → 4个浪费
    a = resolve_attack(pool(8, 2, 2), attack_bonus=3, defence=5)
    assert not a.hit and a.wasted_defence == 4 and a.cancelled == 1


def test_no_defence_is_a_plain_attack() -> None:
    a = resolve_attack(pool(8, 2), attack_bonus=3)
    assert a.hit and a.successes == 4 and a.defence == 0


def test_attack_with_no_natural_success_misses_whatever_the_bonus() -> None:
    a = resolve_attack(pool(2, 2), attack_bonus=9)
    assert not a.hit and a.successes == 0
