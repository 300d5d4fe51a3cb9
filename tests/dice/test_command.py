""".r arguments: expression / reason split, repeats, default die, variables, reply text."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from chronodice.core.errors import ChronoDiceError
from chronodice.dice import (
    DiceError,
    DiceLimitError,
    DiceValueError,
    UnknownVariable,
    parse_command,
    roll_command,
)
from chronodice.render.dice import format_roll

Scripted = Callable[..., random.Random]
ATTRS = {"敏捷": 55, "力量": 60, "体质": 50, "侦查": 40, "dex": 2}


@pytest.mark.parametrize(
    ("args", "expression", "reason"),
    [
        ("3d6+2 侦查", "3d6+2", "侦查"),
        ("3d6+2侦查", "3d6+2", "侦查"),
        ("3d6 + 2   侦查 图书馆", "3d6+2", "侦查 图书馆"),
        ("", "1d100", ""),
        ("   ", "1d100", ""),
        ("侦查", "1d100", "侦查"),  # not a known attribute here
        ("潜行50", "1d100", "潜行50"),
        ("d20 攻击", "1d20", "攻击"),
        ("3d侦查", "3d100", "侦查"),  # faces never take a bare name
        ("1d20 attack roll", "1d20", "attack roll"),
        ("'; DROP TABLE characters; --", "1d100", "'; DROP TABLE characters; --"),
        ("🎲🎲🎲", "1d100", "🎲🎲🎲"),
        ("d20😀", "1d20", "😀"),
        ("4d6k3 属性", "4d6k3", "属性"),
        ("1d6x2 伤害", "1d6*2", "伤害"),
        ("d20X2", "1d20*2", ""),
        ("5a9 潜行", "5a9", "潜行"),
        ("100", "100", ""),
        ("1d100,侦查", "1d100", "侦查"),
        ("3d6+2; 图书馆", "3d6+2", "图书馆"),
        (",侦查", "1d100", "侦查"),
    ],
)
def test_expression_and_reason(args: str, expression: str, reason: str) -> None:
    out = roll_command(args, random.Random(1))
    assert (out.expression, out.reason) == (expression, reason)


@pytest.mark.parametrize(
    ("args", "expression", "reason"),
    [
        ("侦查", "侦查", ""),  # a known attribute alone is rolled (shows its value)
        ("1d20+敏捷", "1d20+敏捷", ""),
        ("1d20+敏捷攻击", "1d20+敏捷", "攻击"),  # cut at the longest known attribute
        ("1d20+dex 先攻", "1d20+dex", "先攻"),
        ("1d20+DEX", "1d20+DEX", ""),
        ("(力量+体质)/2 平均", "(力量+体质)/2", "平均"),
        ("敏捷*2", "敏捷*2", ""),
        ("1d20 敏捷", "1d20", "敏捷"),  # after a space: the reason, even if known
    ],
)
def test_with_variables(args: str, expression: str, reason: str) -> None:
    out = roll_command(args, random.Random(1), variables=ATTRS)
    assert (out.expression, out.reason) == (expression, reason)


def test_known_attribute_alone_shows_its_value() -> None:
    out = roll_command("力量", random.Random(1), variables=ATTRS)
    assert out.results[0].detail == "力量=60" and out.results[0].dice == []


def test_unknown_attribute_in_arithmetic_is_an_error() -> None:
    for args in ("1d20+潜行", "潜行+1", "潜行a10", "(潜行)"):
        with pytest.raises(UnknownVariable) as err:
            roll_command(args, random.Random(1), variables=ATTRS)
        assert '"潜行"' in err.value.message


@pytest.mark.parametrize(
    ("args", "position"),
    [
        ("d6y", 2),
        ("d6x", 3),  # x is multiplication: incomplete
        ("1d6 +", 5),
        (")(", 0),
        ("+", 1),
        ("3d6 )", 4),
        ("3d6 !", 4),
        ("4d6 k3", 4),
        ("4d6 kh3 属性", 4),
        ("1d 20", 3),
        ("d 20 攻击", 2),
        ("1 d20", 2),
        ("(1+1) d6", 6),
        ("2#3 d6", 4),
        ("2#2#d6", 3),
        ("3d6#", 3),
        ("1d20+1$侦查", 6),
        ("1d20+1=侦查", 6),
        ("*3", 0),
    ],
)
def test_errors_point_at_the_position(args: str, position: int) -> None:
    with pytest.raises(DiceError) as err:
        roll_command(args, random.Random(1))
    assert err.value.position == position, err.value.message
    assert f"第{position + 1}个字符" in err.value.message or "不完整" in err.value.message


def test_repeats(scripted: Scripted) -> None:
    out = roll_command("3#d20 攻击", scripted(5, 17, 20))
    assert out.repeats == 3 and out.expression == "1d20" and out.reason == "攻击"
    assert [r.detail for r in out.results] == ["1d20=5", "1d20=17", "1d20=20"]
    assert [r.total for r in out.results] == [5, 17, 20]
    out = roll_command(" 2 # 4d6k3", scripted(6, 5, 3, 1, 2, 2, 2, 2))
    assert [r.detail for r in out.results] == ["4d6k3=[6,5,3,(1)]=14", "4d6k3=[2,2,2,(2)]=6"]
    out = roll_command("2#", scripted(3, 4), default_faces=6)
    assert [r.detail for r in out.results] == ["1d6=3", "1d6=4"]


def test_repeat_limits() -> None:
    roll_command("20#d6", random.Random(1))
    with pytest.raises(DiceLimitError):
        roll_command("21#d6", random.Random(1))
    with pytest.raises(DiceLimitError):
        roll_command("1000#1000#d6", random.Random(1))
    with pytest.raises(DiceValueError):
        roll_command("0#d6", random.Random(1))
    with pytest.raises(DiceLimitError):
        roll_command("99999999999999999999#d6", random.Random(1))


def test_default_faces_is_checked() -> None:
    with pytest.raises(ChronoDiceError):
        roll_command("d", random.Random(1), default_faces=0)
    assert roll_command("d", random.Random(1), default_faces=1).total == 1


def test_parse_command_without_rolling() -> None:
    p = parse_command("2#3d6+敏捷 测试", known=("敏捷",))
    assert p.repeats == 2 and str(p.expr) == "3d6+敏捷" and p.reason == "测试"
    assert parse_command("").expr is None


def test_dice_records_match_the_totals() -> None:
    out = roll_command("3#4d6k3+1d4-2", random.Random(9))
    for r in out.results:
        kept = [d for d in r.dice if d.kept]
        assert len(r.dice) == 5 and len(kept) == 4
        assert r.total == sum(d.value for d in kept) - 2


# ---------------------------------------------------------------- reply text
def test_format_roll(scripted: Scripted) -> None:
    out = roll_command("4d6k3", scripted(6, 5, 3, 1))
    assert format_roll("U1", out) == "U1 掷骰: 4d6k3=[6,5,3,(1)]=14"
    out = roll_command("3d6+2 侦查", scripted(1, 2, 3))
    assert format_roll("调查员A", out) == "调查员A 掷骰 侦查: 3d6+2=[1,2,3]+2=8"
    out = roll_command("2#d20 攻击", scripted(5, 19))
    assert format_roll("U1", out) == "U1 掷骰 攻击: 2#1d20\n1d20=5\n1d20=19"


def test_format_roll_clips_long_reasons() -> None:
    out = roll_command("d " + "长" * 500, random.Random(1))
    text = format_roll("U1", out)
    assert len(text) < 120 and text.count("长") == 60 and "…" in text
