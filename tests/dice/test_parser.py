"""Tokenizer and parser: tokens, tree shapes, canonical text, positions in errors, limits."""

from __future__ import annotations

import time

import pytest

from chronodice.core.errors import InputSyntaxError, LimitExceeded
from chronodice.dice import Binary, Dice, DiceError, DiceLimitError, Num, Pool, Select, Unary, Var, parse
from chronodice.dice.parser import MAX_DEPTH
from chronodice.dice.tokens import Kind, Lexer


def kinds(text: str, known: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    return [(t.kind.name, t.text) for t in Lexer(text, known=known).tokens()][:-1]


# ---------------------------------------------------------------- tokens
def test_tokens_of_a_dice_term() -> None:
    assert kinds("4D6KH3!") == [
        ("NUM", "4"),
        ("D", "D"),
        ("NUM", "6"),
        ("SELECT", "KH"),
        ("NUM", "3"),
        ("BANG", "!"),
    ]


def test_letters_after_an_operand_are_operators_elsewhere_names() -> None:
    assert kinds("5a10") == [("NUM", "5"), ("A", "a"), ("NUM", "10")]
    assert kinds("str+dex") == [("NAME", "str"), ("PLUS", "+"), ("NAME", "dex")]
    assert kinds("d20+d") == [("D", "d"), ("NUM", "20"), ("PLUS", "+"), ("D", "d")]
    assert kinds("d6y") == [("D", "d"), ("NUM", "6"), ("ERROR", "y")]
    # a touching x/X is multiplication; elsewhere it starts a name
    assert kinds("1d6x2") == [("NUM", "1"), ("D", "d"), ("NUM", "6"), ("STAR", "x"), ("NUM", "2")]
    assert kinds("2Xdex") == [("NUM", "2"), ("STAR", "X"), ("NAME", "dex")]
    assert kinds("x+1") == [("NAME", "x"), ("PLUS", "+"), ("NUM", "1")]
    # after a space the letters are a name again (a reason, as the command decides)
    assert kinds("3d6 attack") == [("NUM", "3"), ("D", "d"), ("NUM", "6"), ("NAME", "attack")]


def test_cjk_names_and_known_prefixes() -> None:
    assert kinds("敏捷攻击") == [("NAME", "敏捷攻击")]
    assert kinds("敏捷攻击", known=("敏捷", "敏")) == [("NAME", "敏捷"), ("NAME", "攻击")]
    assert kinds("敏捷d6") == [("NAME", "敏捷"), ("D", "d"), ("NUM", "6")]


def test_positions_and_spaces() -> None:
    toks = list(Lexer("3d6 + 2").tokens())
    assert [(t.pos, t.end, t.space_before) for t in toks] == [
        (0, 1, False),
        (1, 2, False),
        (2, 3, False),
        (4, 5, True),
        (6, 7, True),
        (7, 7, False),
    ]
    assert toks[-1].kind is Kind.EOF


def test_emoji_and_controls_are_error_tokens() -> None:
    assert kinds("😀\x00") == [("ERROR", "😀"), ("ERROR", "\x00")]


# ---------------------------------------------------------------- trees
def test_precedence_and_associativity() -> None:
    assert parse("1+2*3") == Binary("+", Num(1, 0), Binary("*", Num(2, 2), Num(3, 4), 3), 1)
    assert parse("8-2-1") == Binary("-", Binary("-", Num(8, 0), Num(2, 2), 1), Num(1, 4), 3)
    assert parse("-2*3") == Binary("*", Unary("-", Num(2, 1), 0), Num(3, 3), 2)


def test_dice_tree() -> None:
    assert parse("4d6k3") == Dice(Num(4, 0), Num(6, 2), False, Select("k", 3, 3), 1)
    assert parse("d") == Dice(None, None, pos=0)
    assert parse("3d!") == Dice(Num(3, 0), None, True, None, 1)
    assert parse("d%") == Dice(None, Num(100, 1), pos=0)
    assert parse("5a") == Pool(Num(5, 0), Num(10, 1), 1)
    assert parse("5a9") == Pool(Num(5, 0), Num(9, 2), 1)
    assert parse("敏捷a8") == Pool(Var("敏捷", 0), Num(8, 3), 2)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3D6 + 2", "3d6+2"),
        ("4d6kh3", "4d6k3"),
        ("4d6KL1", "4d6q1"),
        ("4d6k3!", "4d6!k3"),
        ("d", "1d"),
        ("d20", "1d20"),
        ("d%", "1d100"),
        ("5A", "5a10"),
        ("((1))", "1"),
        ("(1+2)*3", "(1+2)*3"),
        ("1+(2*3)", "1+2*3"),
        ("1-(2-3)", "1-(2-3)"),
        ("2 * - 3", "2*-3"),
        ("(力量 + 体质) / 2", "(力量+体质)/2"),
        ("(1d4)d(2+4)", "(1d4)d(2+4)"),
        ("(str)d6", "(str)d6"),
        ("007", "7"),
        ("2d20k", "2d20k1"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical
    assert str(parse(canonical)) == canonical  # the canonical form is a fixed point


# ---------------------------------------------------------------- errors point at the token
@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("d6y", 2, '第3个字符附近无法理解 "y"'),
        ("1d6+😀", 4, '第5个字符附近无法理解 "😀"'),
        ("1d6 +", 5, "不完整"),
        (")(", 0, '多了一个 ")"'),
        ("(1+2", 0, "括号没有闭合"),
        ("1+2)", 3, '多了一个 ")"'),
        ("3d6d6", 3, '无法理解 "d"'),
        ("1.5", 1, '无法理解 "."'),
        ("", 0, "表达式为空"),
        ("4d6k3q1", 5, "只能写一个取舍"),
        ("3d6!!", 4, '只能写一个 "!"'),
        ("2**3", 2, '无法理解 "*"'),
    ],
)
def test_syntax_errors_point_at_the_bad_token(text: str, position: int, fragment: str) -> None:
    with pytest.raises(DiceError) as err:
        parse(text)
    assert err.value.position == position
    assert fragment in err.value.message
    assert isinstance(err.value, InputSyntaxError) and err.value.usage


def test_deep_parentheses_give_a_clear_error_not_recursion() -> None:
    ok = "(" * MAX_DEPTH + "1" + ")" * MAX_DEPTH
    assert parse(ok) == Num(1, MAX_DEPTH)
    too_deep = "(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1)
    with pytest.raises(DiceLimitError) as err:
        parse(too_deep)
    assert "嵌套太深" in err.value.message and err.value.position == MAX_DEPTH
    with pytest.raises(DiceLimitError):
        parse("-" * 200 + "1")
    t0 = time.perf_counter()
    with pytest.raises(LimitExceeded):
        parse("(" * 10_000 + "1")
    assert time.perf_counter() - t0 < 1.0


def test_expression_length_limit() -> None:
    ok = "+".join(["1"] * 150)  # 299 characters
    assert len(ok) == 299
    parse(ok)
    with pytest.raises(DiceLimitError) as err:
        parse(ok + "+1")
    assert "300" in err.value.message


def test_huge_numbers() -> None:
    with pytest.raises(DiceLimitError):
        parse("9" * 200)
    with pytest.raises(DiceLimitError):
        parse("1d" + "9" * 20)


def test_control_characters_are_quoted_visibly() -> None:
    with pytest.raises(DiceError) as err:
        parse("1d6\x00+2")
    assert err.value.position == 3 and '"\\x00"' in err.value.message
