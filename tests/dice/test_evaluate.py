"""Rolling, node by node and operator by operator, with scripted dice and exact traces."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from chronodice.core.errors import ChronoDiceError, IllegalAction, LimitExceeded, NotFound
from chronodice.dice import (
    DiceBudget,
    DiceLimitError,
    DiceValueError,
    UnknownVariable,
    all_dice,
    evaluate,
    parse,
    roll_command,
)
from chronodice.dice.trace import detail

Scripted = Callable[..., random.Random]


def trace(text: str, rng: random.Random, **kw: object) -> str:
    out = roll_command(text, rng, **kw)  # type: ignore[arg-type]
    assert len(out.results) == 1
    return out.results[0].detail


# ---------------------------------------------------------------- numbers and arithmetic
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7", 7),
        ("1+2*3", 7),
        ("(1+2)*3", 9),
        ("10-4-3", 3),
        ("2*3*4", 24),
        ("100/7", 14),
        ("-7/2", -3),  # rounds toward zero, as OneDice: not Python's floor (-4)
        ("7/-2", -3),
        ("-7/-2", 3),
        ("2x3", 6),  # x/X is multiplication (Dice!, SealDice)
        ("2X3+1", 7),
        ("(1+2)x3", 9),
        ("2x-3", -6),
        ("(0-1)/2", 0),
        ("-(7/2)", -3),
        ("-8/2", -4),
        ("--3", 3),
        ("+5", 5),
        ("2*-3", -6),
        ("2d6-2d6+0", None),
    ],
)
def test_arithmetic(text: str, value: int | None) -> None:
    rolled = evaluate(parse(text), random.Random(0))
    if value is not None:
        assert rolled.value == value
    else:
        dice = [d.value for d in all_dice(rolled)]
        assert rolled.value == dice[0] + dice[1] - dice[2] - dice[3]


def test_division_by_zero_points_at_the_slash(scripted: Scripted) -> None:
    with pytest.raises(DiceValueError) as err:
        roll_command("1d6/(1-1)", scripted(4))
    assert err.value.position == 3 and "除数为0" in err.value.message
    assert isinstance(err.value, IllegalAction)


def test_results_beyond_10_to_15_are_refused() -> None:
    with pytest.raises(DiceLimitError):
        evaluate(parse("99999999*99999999*99999999"), random.Random(0))
    with pytest.raises(DiceLimitError):
        parse("1000000000000001")
    assert evaluate(parse("1000000000000000"), random.Random(0)).value == 10**15
    with pytest.raises(LimitExceeded):
        evaluate(parse("1000000000000000+1"), random.Random(0))


# ---------------------------------------------------------------- variables
def test_variables_are_looked_up() -> None:
    attrs = {"敏捷": 55, "力量": 60, "体质": 51, "str": 3}
    assert evaluate(parse("(力量+体质)/2"), random.Random(0), variables=attrs).value == 55
    assert evaluate(parse("敏捷*2"), random.Random(0), variables=attrs).value == 110
    assert evaluate(parse("STR+1"), random.Random(0), variables=attrs).value == 4  # case-insensitive


def test_unknown_variable_is_named(scripted: Scripted) -> None:
    with pytest.raises(UnknownVariable) as err:
        roll_command("1d20+潜行", scripted(5), variables={"敏捷": 3})
    assert '未知属性 "潜行"' in err.value.message and err.value.position == 5
    assert isinstance(err.value, NotFound)


def test_variable_values_must_be_integers() -> None:
    with pytest.raises(DiceValueError):
        evaluate(parse("幸运+1"), random.Random(0), variables={"幸运": 2.5})  # type: ignore[dict-item]
    assert evaluate(parse("幸运+1"), random.Random(0), variables={"幸运": 2.0}).value == 3  # type: ignore[dict-item]
    with pytest.raises(DiceLimitError):
        evaluate(parse("幸运"), random.Random(0), variables={"幸运": 10**16})


def test_negative_variable_is_shown_in_parentheses(scripted: Scripted) -> None:
    assert trace("1d20+敏捷", scripted(12), variables={"敏捷": -2}) == "1d20+敏捷=[12]+(-2)=10"


# ---------------------------------------------------------------- plain dice
def test_plain_dice_traces(scripted: Scripted) -> None:
    assert trace("1d100", scripted(42)) == "1d100=42"
    assert trace("3d6+2", scripted(1, 2, 3)) == "3d6+2=[1,2,3]+2=8"
    assert trace("3d6", scripted(1, 2, 3)) == "3d6=[1,2,3]=6"
    assert trace("1d20+5", scripted(12)) == "1d20+5=[12]+5=17"
    assert trace("2d6*2", scripted(3, 4)) == "2d6*2=[3,4]*2=14"
    assert trace("1d20+敏捷", scripted(12), variables={"敏捷": 55}) == "1d20+敏捷=[12]+55=67"


def test_dice_ask_for_the_right_faces(scripted: Scripted) -> None:
    rng = scripted(1, 2, 3, 4)
    roll_command("d20+d%+2d8", rng, default_faces=100)
    assert rng.faces == [20, 100, 8, 8]  # type: ignore[attr-defined]


def test_default_die(scripted: Scripted) -> None:
    out = roll_command("d", scripted(7), default_faces=20)
    assert out.expression == "1d20" and out.results[0].detail == "1d20=7"
    out = roll_command("3d+1", scripted(1, 2, 3), default_faces=6)
    assert out.results[0].detail == "3d6+1=[1,2,3]+1=7"
    out = roll_command("", scripted(55))
    assert out.results[0].detail == "1d100=55"


def test_percent_die(scripted: Scripted) -> None:
    out = roll_command("D%", scripted(100))
    assert out.expression == "1d100" and out.total == 100


def test_computed_count_and_faces(scripted: Scripted) -> None:
    assert trace("(1d4)d6", scripted(3, 2, 5, 1)) == "(1d4)d6=3d6[2,5,1]=8"
    assert trace("敏捷d6", scripted(2, 6), variables={"敏捷": 2}) == "敏捷d6=2d6[2,6]=8"
    assert trace("2d(2*5)", scripted(10, 1)) == "2d(2*5)=2d10[10,1]=11"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("0d6", DiceValueError),
        ("(1-2)d6", DiceValueError),
        ("1d0", DiceValueError),
        ("1d(0-5)", DiceValueError),
        ("1001d6", DiceLimitError),
        ("1d1000001", DiceLimitError),
        ("1001a10", DiceLimitError),
    ],
)
def test_bad_counts_and_faces(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        roll_command(text, random.Random(0))


def test_zero_pool_rolls_the_chance_die_like_ww_0(scripted: Callable[..., random.Random]) -> None:
    # seed «机运骰»: one D10, only a 10 succeeds, it still adds dice (the added die is ordinary)
    assert roll_command("0a10", scripted(9)).results[0].detail == "0a10=[9]=0"
    assert roll_command("0a10", scripted(1)).results[0].total == 0
    assert roll_command("0a10", scripted(10, 8)).results[0].detail == "0a10=[10,{8}]=2"
    assert roll_command("0a10", scripted(10, 10, 3)).results[0].total == 2
    # always 10-again, as .ww 0: a9/a8 do not apply to the chance die
    assert roll_command("0a8", scripted(9)).results[0].detail == "0a8=[9]=0"
    assert roll_command("(1-3)a10", scripted(10, 2)).results[0].total == 1
    with pytest.raises(DiceValueError):
        roll_command("0a7", random.Random(0))


def test_limits_are_inclusive() -> None:
    out = roll_command("1000d1000000", random.Random(0))
    assert len(out.results[0].dice) == 1000 and all(d.faces == 1_000_000 for d in out.results[0].dice)


# ---------------------------------------------------------------- keep / drop
@pytest.mark.parametrize(
    ("text", "rolls", "expected"),
    [
        ("4d6k3", (6, 5, 3, 1), "4d6k3=[6,5,3,(1)]=14"),
        ("4d6kh3", (1, 5, 3, 6), "4d6k3=[(1),5,3,6]=14"),
        ("4d6q1", (4, 2, 5, 2), "4d6q1=[(4),2,(5),(2)]=2"),  # ties keep the earlier die
        ("4d6kl2", (4, 2, 5, 3), "4d6q2=[(4),2,(5),3]=5"),
        ("4d6dl1", (6, 5, 3, 1), "4d6dl1=[6,5,3,(1)]=14"),
        ("4d6dh1", (6, 5, 3, 1), "4d6dh1=[(6),5,3,1]=9"),
        ("2d20k", (7, 15), "2d20k1=[(7),15]=15"),
        ("2d20q", (7, 15), "2d20q1=[7,(15)]=7"),
        ("3d6k3", (1, 2, 3), "3d6k3=[1,2,3]=6"),
        ("5d10k2+1", (10, 10, 9, 1, 10), "5d10k2+1=[10,10,(9),(1),(10)]+1=21"),
    ],
)
def test_keep_and_drop(scripted: Scripted, text: str, rolls: tuple[int, ...], expected: str) -> None:
    out = roll_command(text, scripted(*rolls))
    assert out.results[0].detail == expected
    kept = [d.value for d in out.results[0].dice if d.kept]
    assert out.total - (1 if text.endswith("+1") else 0) == sum(kept)


@pytest.mark.parametrize("text", ["1d6k0", "3d6k4", "3d6q4", "3d6dh3", "1d6dl1", "3d6dl0"])
def test_impossible_selection(text: str) -> None:
    with pytest.raises(DiceValueError) as err:
        roll_command(text, random.Random(0))
    assert err.value.position == 3


def test_two_selections_are_refused() -> None:
    with pytest.raises(ChronoDiceError):
        roll_command("4d6k3q1", random.Random(0))


# ---------------------------------------------------------------- exploding
def test_explosion_chain(scripted: Scripted) -> None:
    out = roll_command("3d6!", scripted(6, 6, 2, 4, 3))
    r = out.results[0]
    assert r.detail == "3d6!=[6,{6},{2},4,3]=21"
    assert [(d.value, d.exploded, d.added) for d in r.dice] == [
        (6, True, False),
        (6, True, True),
        (2, False, True),
        (4, False, False),
        (3, False, False),
    ]


def test_explosion_with_keep_uses_added_dice(scripted: Scripted) -> None:
    assert trace("2d6!k2", scripted(6, 5, 1)) == "2d6!k2=[6,{5},(1)]=11"
    assert trace("2d6k2!", scripted(1, 2)) == "2d6!k2=[1,2]=3"


def test_explosion_is_bounded_by_the_budget() -> None:
    with pytest.raises(DiceValueError):
        roll_command("1d1!", random.Random(0))  # would never stop
    always_max = _AlwaysMax()
    with pytest.raises(DiceLimitError):
        roll_command("1d2!", always_max)
    assert always_max.calls == 1000  # rolled up to the budget, not one die more


class _AlwaysMax(random.Random):
    def __init__(self) -> None:
        super().__init__(0)
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return b


def test_double_bang_refused() -> None:
    with pytest.raises(ChronoDiceError):
        roll_command("3d6!!", random.Random(0))


# ---------------------------------------------------------------- success pool XaY (无限恐怖)
def test_pool_ten_again(scripted: Scripted) -> None:
    # 8, 9, 10 succeed; the 10 adds one die (a 9: a success, no further die)
    out = roll_command("5a10", scripted(3, 8, 10, 9, 1, 6))
    r = out.results[0]
    assert r.detail == "5a10=[3,8,10,{9},1,6]=3"
    assert r.total == sum(1 for d in r.dice if d.value >= 8)
    assert [d.added for d in r.dice] == [False, False, False, True, False, False]
    assert all(d.faces == 10 for d in r.dice)


def test_pool_default_threshold_is_ten(scripted: Scripted) -> None:
    out = roll_command("3a", scripted(9, 10, 10, 2, 1))
    assert out.expression == "3a10"
    assert out.results[0].detail == "3a10=[9,10,{10},{2},1]=3"


def test_pool_nine_again(scripted: Scripted) -> None:
    # 9加骰: a 9 or 10 adds a die, recursively; the added 10 adds another
    assert trace("2a9", scripted(9, 10, 3, 7)) == "2a9=[9,{10},{3},7]=2"


def test_pool_eight_again_is_the_lowest(scripted: Scripted) -> None:
    assert trace("1a8", scripted(8, 8, 1)) == "1a8=[8,{8},{1}]=2"
    with pytest.raises(DiceValueError) as err:
        roll_command("5a7", random.Random(0))
    assert "8" in err.value.message


def test_pool_eleven_means_no_added_dice(scripted: Scripted) -> None:
    assert trace("3a11", scripted(10, 10, 8)) == "3a11=[10,10,8]=3"
    with pytest.raises(DiceValueError):
        roll_command("3a12", random.Random(0))


def test_pool_in_arithmetic_and_with_attributes(scripted: Scripted) -> None:
    attrs = {"敏捷": 2, "潜行": 1}
    assert (
        trace("(敏捷+潜行)a9+1", scripted(1, 9, 2, 8), variables=attrs)
        == "(敏捷+潜行)a9+1=3a9[1,9,{2},8]+1=3"
    )
    assert trace("敏捷a", scripted(8, 7), variables=attrs) == "敏捷a10=2a10[8,7]=1"


def test_pool_runaway_hits_the_budget() -> None:
    with pytest.raises(DiceLimitError):
        roll_command("10a8", _AlwaysMax())


# ---------------------------------------------------------------- budget
def test_budget_counts_across_terms_and_repeats() -> None:
    roll_command("500d6+500d6", random.Random(0))
    with pytest.raises(DiceLimitError):
        roll_command("500d6+501d6", random.Random(0))
    roll_command("20#50d6", random.Random(0))
    with pytest.raises(DiceLimitError):
        roll_command("20#51d6", random.Random(0))
    budget = DiceBudget(limit=5)
    evaluate(parse("3d6"), random.Random(0), budget=budget)
    with pytest.raises(DiceLimitError):
        evaluate(parse("3d6"), random.Random(0), budget=budget)
    assert budget.used == 3


def test_detail_helper_matches_roll_command(scripted: Scripted) -> None:
    rolled = evaluate(parse("4d6k3"), scripted(6, 5, 3, 1))
    assert detail(rolled, "4d6k3") == "4d6k3=[6,5,3,(1)]=14"


def test_long_dice_lists_are_summarised() -> None:
    out = roll_command("100d6", random.Random(0))
    r = out.results[0]
    assert "…共100颗" in r.detail and len(r.dice) == 100 and r.total == sum(d.value for d in r.dice)
