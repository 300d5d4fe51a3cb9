"""Rolling pools: success on 8–10, X-again recursion, chance die, the dice cap."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronodice.core.errors import InputSyntaxError, LimitExceeded
from chronodice.rules.pool10.pool import DiceBudget, PoolRoll, check_again, roll_pool


def test_successes_are_8_9_10(scripted) -> None:
    r = roll_pool(7, scripted([1, 2, 7, 8, 9, 3, 6]))
    assert r.rounds == ((1, 2, 7, 8, 9, 3, 6),)
    assert r.natural_successes == 2 and r.added_dice == 0 and not r.chance


def test_ten_again_recurses_round_by_round(scripted) -> None:
    # two 10s add two dice; one of those is a 10 and adds a third round
    rng = scripted([10, 4, 10, 8, 10, 3, 2])
    r = roll_pool(4, rng)
    assert r.rounds == ((10, 4, 10, 8), (10, 3), (2,))
    assert r.natural_successes == 4  # 10, 10, 8, then the added 10
    assert r.dice_count == 7 and r.added_dice == 3 and rng.calls == 7


def test_added_die_counts_as_ordinary_success(scripted) -> None:
    # seed: "若它能取得成功，则将这次成功加入到总成功数中" — an added 8 is a success
    r = roll_pool(1, scripted([10, 8]))
    assert r.natural_successes == 2 and r.rounds == ((10,), (8,))


def test_nine_again_and_eight_again(scripted) -> None:
    r9 = roll_pool(3, scripted([9, 8, 10, 9, 1, 2]), again=9)
    assert r9.rounds == ((9, 8, 10), (9, 1), (2,))
    assert r9.natural_successes == 4
    r8 = roll_pool(2, scripted([8, 9, 8, 3, 1]), again=8)
    assert r8.rounds == ((8, 9), (8, 3), (1,))
    assert r8.natural_successes == 3


def test_ten_does_not_add_under_a11(scripted) -> None:
    r = roll_pool(2, scripted([10, 10]), again=11)
    assert r.rounds == ((10, 10),) and r.natural_successes == 2


@pytest.mark.parametrize("bad", [1, 5, 7, 12, 0])
def test_threshold_below_8_refused_with_reason(bad: int) -> None:
    with pytest.raises(InputSyntaxError) as exc:
        roll_pool(5, random.Random(1), again=bad)
    assert f"a{bad}" in exc.value.message
    if bad < 8:
        assert "加骰的最低值为8" in exc.value.message


def test_check_again_accepts_8_to_11() -> None:
    assert [check_again(a) for a in (8, 9, 10, 11)] == [8, 9, 10, 11]


# ---------------------------------------------------------------- chance die
@pytest.mark.parametrize("size", [0, -1, -7])
def test_chance_die_when_pool_is_zero_or_less(scripted, size: int) -> None:
    r = roll_pool(size, scripted([9]))
    assert r.chance and r.rounds == ((9,),)
    assert r.natural_successes == 0  # a 9 (or 8) is no success on a chance die
    assert not r.dramatic_failure


def test_chance_die_ten_succeeds_and_adds_an_ordinary_die(scripted) -> None:
    r = roll_pool(0, scripted([10, 8]))
    assert r.rounds == ((10,), (8,))
    assert r.natural_successes == 2
    r = roll_pool(0, scripted([10, 10, 3]))
    assert r.rounds == ((10,), (10,), (3,)) and r.natural_successes == 2


def test_chance_die_one_is_dramatic_failure(scripted) -> None:
    r = roll_pool(0, scripted([1]))
    assert r.dramatic_failure and r.natural_successes == 0


def test_one_after_a_chance_success_is_not_dramatic(scripted) -> None:
    # seed: 若机运骰的检定中已经投出成功，则加骰中投出1也不视为大失败
    r = roll_pool(0, scripted([10, 1]))
    assert not r.dramatic_failure and r.natural_successes == 1


def test_one_in_an_ordinary_pool_is_nothing(scripted) -> None:
    r = roll_pool(3, scripted([1, 1, 1]))
    assert not r.dramatic_failure and r.natural_successes == 0


def test_chance_die_ignores_better_again_threshold(scripted) -> None:
    # 9-again is an ability improving the result: it does not apply to a chance die
    r = roll_pool(0, scripted([9]), again=9)
    assert r.again == 10 and r.rounds == ((9,),)


# ---------------------------------------------------------------- dice cap
def test_huge_pool_refused_before_rolling(scripted) -> None:
    rng = scripted([])
    with pytest.raises(LimitExceeded):
        roll_pool(10**9, rng)
    assert rng.calls == 0
    with pytest.raises(LimitExceeded):
        roll_pool(1001, rng)


def test_cap_holds_with_explosions(scripted) -> None:
    rng = scripted([10] * 2000)
    with pytest.raises(LimitExceeded) as exc:
        roll_pool(600, rng)
    assert "1000" in exc.value.message
    assert rng.calls == 600  # the second round (600 dice) was refused before it was rolled


def test_budget_is_shared_by_the_rolls_of_one_command() -> None:
    budget = DiceBudget()
    roll_pool(600, random.Random(3), budget=budget, again=11)
    assert budget.used == 600
    with pytest.raises(LimitExceeded):
        roll_pool(500, random.Random(3), budget=budget)


def test_pool_of_exactly_1000_without_adding_fits() -> None:
    r = roll_pool(1000, random.Random(5), again=11)
    assert r.dice_count == 1000


def test_faces_are_fair_d10() -> None:
    rng = random.Random(11)
    faces = [f for _ in range(300) for f in roll_pool(10, rng, again=11).faces]
    assert set(faces) == set(range(1, 11))


def test_json_round_trip() -> None:
    r = roll_pool(6, random.Random(8), again=8)
    data = json.loads(json.dumps(r.to_dict()))
    assert PoolRoll.from_dict(data) == r
    c = roll_pool(0, random.Random(2))
    assert PoolRoll.from_dict(json.loads(json.dumps(c.to_dict()))) == c


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(min_value=-5, max_value=400),
    again=st.sampled_from([8, 9, 10, 11]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_any_pool_rolls_within_the_cap_or_raises(size: int, again: int, seed: int) -> None:
    budget = DiceBudget()
    try:
        r = roll_pool(size, random.Random(seed), again=again, budget=budget)
    except LimitExceeded:
        assert budget.used <= 1000
        return
    assert r.dice_count == budget.used <= 1000
    assert len(r.rounds[0]) == max(size, 1)
    for i, (prev, nxt) in enumerate(itertools.pairwise(r.rounds)):
        assert len(nxt) == sum(1 for f in prev if f >= r.again), i
    assert 0 <= r.natural_successes <= r.dice_count
