"""The forms players bring from SealDice, Dice! and OlivaDice: 优势/劣势, dF, b/p (issue 14).

Each form is pinned by a scripted roll (the trace) and its exact distribution is checked
against a brute-force enumeration of every die outcome.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest

from chronodice.dice import DiceError, distribution, roll_command

Scripted = Callable[..., random.Random]


def enumerate_dist(faces: list[int], value) -> dict[int, Fraction]:
    """Every outcome of dice with these ``faces`` (1-based values) → ``value(outcome)``."""
    counts = Counter(value(outcome) for outcome in product(*(range(1, f + 1) for f in faces)))
    total = sum(counts.values())
    return {v: Fraction(c, total) for v, c in sorted(counts.items())}


# ---------------------------------------------------------------- 优势 / 劣势
@pytest.mark.parametrize(
    ("args", "expression", "reason", "script", "detail"),
    [
        ("d20优势", "2d20k1", "", (5, 19), "2d20k1=[(5),19]=19"),
        ("1d20劣势 攻击", "2d20q1", "攻击", (5, 19), "2d20q1=[5,(19)]=5"),
        ("d20优势攻击", "2d20k1", "攻击", (7, 7), "2d20k1=[7,(7)]=7"),
        ("d20劣势+5", "2d20q1+5", "", (3, 4), "2d20q1+5=[3,(4)]+5=8"),
        ("d20 优势", "1d20", "优势", (5,), "1d20=5"),  # only right after the die
        ("3d6优势", "3d6", "优势", (1, 2, 3), "3d6=[1,2,3]=6"),  # only after a plain d20
        ("2d20优势", "2d20", "优势", (1, 2), "2d20=[1,2]=3"),
        ("d20k1优势", "1d20k1", "优势", (4,), "1d20k1=4"),
    ],
)
def test_advantage(
    args: str, expression: str, reason: str, script: tuple[int, ...], detail: str, scripted: Scripted
) -> None:
    out = roll_command(args, scripted(*script))
    assert (out.expression, out.reason, out.results[0].detail) == (expression, reason, detail)


@pytest.mark.parametrize(("word", "pick"), [("优势", max), ("劣势", min)])
def test_advantage_distribution(word: str, pick) -> None:
    out = roll_command(f"d20{word}", random.Random(1))
    assert distribution(out.expression) == enumerate_dist([20, 20], pick)


# ---------------------------------------------------------------- Fate dice
@pytest.mark.parametrize(
    ("args", "expression", "reason", "script", "detail"),
    [
        ("4dF", "4dF", "", (1, 3, 2, 3), "4dF=[-1,+1,0,+1]=1"),
        ("dF 说服", "4dF", "说服", (2, 2, 2, 1), "4dF=[0,0,0,-1]=-1"),  # dF alone is 4dF
        ("df", "4dF", "", (3, 3, 3, 3), "4dF=[+1,+1,+1,+1]=4"),
        ("2DF+1", "2dF+1", "", (1, 1), "2dF+1=[-1,-1]+1=-1"),
        ("1dFx2", "1dF*2", "", (3,), "1dF*2=[+1]*2=2"),
    ],
)
def test_fate(
    args: str, expression: str, reason: str, script: tuple[int, ...], detail: str, scripted: Scripted
) -> None:
    rng = scripted(*script)
    out = roll_command(args, rng)
    assert (out.expression, out.reason, out.results[0].detail) == (expression, reason, detail)
    assert set(rng.faces) == {3}  # type: ignore[attr-defined]


@pytest.mark.parametrize("n", [1, 2, 4, 6])
def test_fate_distribution(n: int) -> None:
    assert distribution(f"{n}dF") == enumerate_dist([3] * n, lambda dice: sum(d - 2 for d in dice))
    assert distribution("dF") == distribution("4dF")


@pytest.mark.parametrize("args", ["4dFk3", "dF!", "0dF", "1001dF", "3d6f"])
def test_fate_errors(args: str) -> None:
    with pytest.raises(DiceError):
        roll_command(args, random.Random(1))


# ---------------------------------------------------------------- CoC bonus / penalty dice
# Scripted values are randint(1, 10): the digit is the value minus one.  The units die comes
# first, then the tens dice.
@pytest.mark.parametrize(
    ("args", "expression", "reason", "script", "detail"),
    [
        ("b2", "b2", "", (8, 4, 2, 6), "b2=[个位7;十位(3),1,(5)]=17"),
        ("p", "p", "", (8, 4, 2), "p=[个位7;十位3,(1)]=37"),
        ("b 侦查", "b", "侦查", (8, 4, 2), "b=[个位7;十位(3),1]=17"),
        ("P2+5", "p2+5", "", (1, 2, 10, 3), "p2+5=[个位0;十位(1),9,(2)]+5=95"),
        # 00 with 0 is 100: the worst result, so a bonus die keeps the other tens die
        ("b", "b", "", (1, 1, 6), "b=[个位0;十位(0),5]=50"),
        ("p", "p", "", (1, 6, 1), "p=[个位0;十位(5),0]=100"),
        ("b", "b", "", (1, 1, 1), "b=[个位0;十位0,(0)]=100"),  # ties keep the earlier die
        ("b", "b", "", (6, 1, 10), "b=[个位5;十位0,(9)]=5"),  # 00 with 5 is 5, the best
        ("b(1+1)", "b(1+1)", "", (2, 3, 4, 5), "b(1+1)=b2[个位1;十位2,(3),(4)]=21"),
    ],
)
def test_bonus_penalty(
    args: str, expression: str, reason: str, script: tuple[int, ...], detail: str, scripted: Scripted
) -> None:
    rng = scripted(*script)
    out = roll_command(args, rng)
    assert (out.expression, out.reason, out.results[0].detail) == (expression, reason, detail)
    assert rng.values == []  # type: ignore[attr-defined]


def _coc(units: int, tens: int) -> int:
    return ((tens - 1) * 10 + units - 1) or 100


@pytest.mark.parametrize(("kind", "n"), [("b", 1), ("b", 2), ("p", 1), ("p", 2), ("b", 3)])
def test_bonus_penalty_distribution(kind: str, n: int) -> None:
    pick = min if kind == "b" else max
    expected = enumerate_dist([10] * (n + 2), lambda d: pick(_coc(d[0], t) for t in d[1:]))
    assert distribution(f"{kind}{n}") == expected
    if n == 1:
        assert distribution(kind) == expected


def test_bonus_penalty_errors_and_names() -> None:
    for args in ("b0", "p1001", "b2k1", "b2!"):
        with pytest.raises(DiceError):
            roll_command(args, random.Random(1))
    # longer words stay names/reasons
    out = roll_command("bonus", random.Random(1))
    assert (out.expression, out.reason) == ("1d100", "bonus")
    out = roll_command("1d20+bp", random.Random(1), variables={"bp": 3})
    assert out.expression == "1d20+bp"
