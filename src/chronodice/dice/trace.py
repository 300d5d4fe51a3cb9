"""The trace players see: ``4d6k3=[6,5,3,(1)]=14``, from a rolled tree.

Form: ``expression=middle=total``, where the middle is the expression with every dice term
replaced by its dice and every attribute by its value (Fate dice as ``[+1,0,-1,0]``; CoC bonus/penalty dice as ``b2=[个位7;十位(3),1,(5)]=17``:
the units die, then every tens digit, the ones not kept in parentheses).  Marks: ``(1)`` a die dropped by
``k``/``q``/``dh``/``dl``; ``{9}`` a die added by an explosion (``!``) or by the pool's 加骰 —
it follows the die that made it.  A dice term whose count or faces were computed shows the
resolved numbers first (``(1d4)d6`` → ``3d6[2,5,1]``).  A lone plain die is just ``1d100=42``,
and a middle that adds nothing (``1+2=3``, ``力量=60``) is left out. An attribute that is a formula (``.st &手枪=1d10``)
shows its dice: ``手枪+2=1d10[7]+2=9``, ``匕首=1d4[1]+2=3``.  A term with more than
:data:`MAX_SHOWN_DICE` dice shows the first ones and the count.

>>> import random
>>> from chronodice.dice.evaluate import evaluate
>>> from chronodice.dice.parser import parse
>>> tree = parse("3d6+2")
>>> detail(evaluate(tree, random.Random(3)), "3d6+2")
'3d6+2=[2,5,5]+2=14'
"""

from __future__ import annotations

from .ast import PREC_ATOM, PREC_UNARY, Binary, Bonus, Dice, Fate, Num, Pool, Unary, Var, precedence
from .evaluate import DieRecord, Rolled

MAX_SHOWN_DICE = 50
"""Most dice listed for one term; the rest are summarised."""


def format_die(die: DieRecord) -> str:
    """``5``, ``{5}`` (added), ``(5)`` (dropped), ``({5})``.

    >>> format_die(DieRecord(5, 6, kept=False, added=True))
    '({5})'
    """
    text = f"{{{die.value}}}" if die.added else str(die.value)
    return text if die.kept else f"({text})"


def format_dice(dice: tuple[DieRecord, ...]) -> str:
    """``[6,5,3,(1)]``, cut after :data:`MAX_SHOWN_DICE` dice."""
    shown = ",".join(format_die(d) for d in dice[:MAX_SHOWN_DICE])
    if len(dice) > MAX_SHOWN_DICE:
        shown += f",…共{len(dice)}颗"
    return f"[{shown}]"


def _literal(part: Rolled | None) -> bool:
    return part is None or isinstance(part.node, Num)


def render(rolled: Rolled, *, spell: bool = False) -> str:
    """The middle part of the trace for ``rolled``; ``spell``: every dice term says what it is
    (``1d4[3]``, inside a formula attribute, whose dice the expression does not show)."""
    node = rolled.node
    if isinstance(node, Num):
        return str(rolled.value)
    if isinstance(node, Var):
        if rolled.parts and rolled.parts[0] is not None:  # a formula attribute: its dice
            inner = rolled.parts[0]
            text = render(inner, spell=True)
            return text if precedence(inner.node) >= PREC_ATOM else f"({text})"
        return str(rolled.value) if rolled.value >= 0 else f"({rolled.value})"
    if isinstance(node, Unary | Binary):
        return _render_operator(rolled, node, spell)
    return _render_dice(rolled, node, spell)


def _render_operator(rolled: Rolled, node: Unary | Binary, spell: bool) -> str:
    """An operator over its rolled operands, parenthesised where precedence needs it."""
    if isinstance(node, Unary):
        operand = rolled.parts[0]
        assert operand is not None
        inner_text = render(operand, spell=spell)
        if precedence(operand.node) < PREC_UNARY:
            inner_text = f"({inner_text})"
        return node.op + inner_text
    left, right = rolled.parts
    assert left is not None and right is not None
    prec = precedence(node)
    lt, rt = render(left, spell=spell), render(right, spell=spell)
    if precedence(left.node) < prec:
        lt = f"({lt})"
    if precedence(right.node) <= prec:
        rt = f"({rt})"
    return f"{lt}{node.op}{rt}"


def _render_dice(rolled: Rolled, node: object, spell: bool) -> str:
    """A dice term's faces, after what it is (``2d6``) unless every count is written plainly."""
    plain = not spell and all(_literal(p) for p in rolled.parts)
    if isinstance(node, Dice):
        prefix = "" if plain else f"{rolled.count}d{rolled.faces}"
        return prefix + format_dice(rolled.dice)
    if isinstance(node, Pool):
        prefix = "" if plain else f"{rolled.count}a{rolled.threshold}"
        return prefix + format_dice(rolled.dice)
    if isinstance(node, Fate):
        prefix = "" if plain else f"{rolled.count}dF"
        shown = ",".join(f"{d.value:+d}" if d.value else "0" for d in rolled.dice[:MAX_SHOWN_DICE])
        if len(rolled.dice) > MAX_SHOWN_DICE:
            shown += f",…共{len(rolled.dice)}颗"
        return f"{prefix}[{shown}]"
    if isinstance(node, Bonus):
        prefix = "" if plain else f"{node.kind}{rolled.count}"
        units, *tens = rolled.dice
        shown = ",".join(format_die(d) for d in tens[:MAX_SHOWN_DICE])
        if len(tens) > MAX_SHOWN_DICE:
            shown += f",…共{len(tens)}颗"
        return f"{prefix}[个位{units.value};十位{shown}]"
    raise TypeError(f"not a rolled dice node: {node!r}")


def detail(rolled: Rolled, expression: str) -> str:
    """The whole trace line ``expression=middle=total`` (middle left out when it adds nothing)."""
    total = str(rolled.value)
    node = rolled.node
    if (
        isinstance(node, Dice)
        and len(rolled.dice) == 1
        and rolled.dice[0].kept
        and all(_literal(p) for p in rolled.parts)
    ):
        return f"{expression}={total}"
    if isinstance(node, Var) and rolled.parts and rolled.parts[0] is not None:
        middle = render(rolled.parts[0], spell=True)  # a formula alone: no parentheses
    else:
        middle = render(rolled)
    if middle in (expression, total):
        return f"{expression}={total}"
    return f"{expression}={middle}={total}"


__all__ = ["MAX_SHOWN_DICE", "detail", "format_dice", "format_die", "render"]
