"""The .ww argument language: pools over card values, XaY terms, options, hostile input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronodice.core.errors import ChronoDiceError, InputSyntaxError, LimitExceeded, NotFound
from chronodice.rules.pool10.card import Pool10Card
from chronodice.rules.pool10.expr import evaluate_pool, parse_pool_args

CARD = {"敏捷": 4, "潜行": 3, "力量": 11, "运动": 2, "感知": 6, "调查": 1}


@pytest.mark.parametrize(
    ("text", "size", "again"),
    [
        ("5", 5, None),
        ("10a8", 10, 8),
        ("6a9", 6, 9),
        ("10A10", 10, 10),
        ("5 a11", 5, 11),
        ("0", 0, None),
        ("3-5", -2, None),
        ("  7  ", 7, None),
    ],
)
def test_numbers_and_xay_terms(text: str, size: int, again: int | None) -> None:
    args = parse_pool_args(text)
    assert evaluate_pool(args, {}).size == size and args.again == again


def test_names_show_where_the_pool_came_from() -> None:
    pool = evaluate_pool(parse_pool_args("敏捷+潜行"), CARD)
    assert pool.size == 7 and pool.text == "敏捷4+潜行3=7"
    pool = evaluate_pool(parse_pool_args("力量 + 运动 - 2"), CARD)
    assert pool.size == 11 and pool.text == "力量11+运动2-2=11"
    assert evaluate_pool(parse_pool_args("5"), {}).text == "5"


def test_bonus_successes_from_attributes_and_skills() -> None:
    card = Pool10Card(bonus={"潜行": 1})
    pool = evaluate_pool(parse_pool_args("力量+潜行"), CARD, card.term_bonus)
    assert pool.term_bonus == 2 + 1  # 力量11 → 2, 潜行 stored 1
    # a subtracted name brings no bonus
    assert evaluate_pool(parse_pool_args("10-力量"), CARD, card.term_bonus).term_bonus == 0


def test_options_in_any_order() -> None:
    a = parse_pool_args("敏捷+潜行 +2s dc3 a9 ? 偷袭 哨兵")
    assert (a.bonus, a.dc, a.again, a.odds, a.reason) == (2, 3, 9, True, "偷袭 哨兵")
    b = parse_pool_args("敏捷+潜行dc3+1s-1s")
    assert (b.dc, b.bonus, b.lost) == (3, 1, 1)
    c = parse_pool_args("5 难度2 附加3 概率")
    assert (c.dc, c.bonus, c.odds) == (2, 3, True)
    assert parse_pool_args("5 +1成功").bonus == 1


def test_parentheses_distribute_the_sign() -> None:
    pool = evaluate_pool(parse_pool_args("力量-(运动-2)"), CARD)
    assert pool.size == 11 and pool.text == "力量11-运动2+2=11"


def test_canonical_text_round_trips() -> None:
    for text in ("敏捷+潜行-2 dc3 +1s 理由", "10a8", "5 a9 ?", "力量-运动 -2s"):
        a = parse_pool_args(text)
        assert parse_pool_args(a.to_text()) == a


def test_unknown_names_all_reported() -> None:
    with pytest.raises(NotFound) as exc:
        evaluate_pool(parse_pool_args("魔法+咒语+敏捷"), CARD)
    assert "魔法" in exc.value.message and "咒语" in exc.value.message and "敏捷" not in exc.value.message


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("", InputSyntaxError, "骰池"),
        ("潜行2", InputSyntaxError, "缺少+或-"),
        ("5潜行", InputSyntaxError, "缺少+或-"),
        ("1a1", InputSyntaxError, "加骰的最低值为8"),
        ("5 a7", InputSyntaxError, "加骰的最低值为8"),
        ("10a8 a9", InputSyntaxError, "一个加骰阈值"),
        ("2d6", InputSyntaxError, ".r"),
        ("10a8k7", InputSyntaxError, "k/q/m"),
        ("((((((1))))))", InputSyntaxError, "嵌套"),
        ("(1+2", InputSyntaxError, "闭合"),
        ("5)", InputSyntaxError, "右括号"),
        ("敏捷+", InputSyntaxError, "缺少骰池"),
        ("dc3", InputSyntaxError, "缺少骰池"),
        ("5 dc0", InputSyntaxError, "DC"),
        ("1000000000", LimitExceeded, "1000"),
        ("1" * 400, LimitExceeded, "300"),
        ("+".join(["1"] * 40), InputSyntaxError, "30项"),
    ],
)
def test_hostile_input_gets_a_clear_error(text: str, error: type, fragment: str) -> None:
    with pytest.raises(error) as exc:
        parse_pool_args(text)
    assert fragment in exc.value.user_message


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789+-()aAdcs?？ 敏捷潜行难度附加成功kx", max_size=40))
def test_any_input_parses_or_raises_a_chronodice_error(text: str) -> None:
    try:
        args = parse_pool_args(text)
    except ChronoDiceError:
        return
    try:
        evaluate_pool(args, {"敏捷": 3, "潜行": 2})
    except ChronoDiceError:
        pass
