"""Syntax tree of the dice language: what the user typed, with positions, printed canonically.

Grammar (loosest first; whitespace only around ``+ - * / ( )``)::

    command := [NUM "#"] [expr] [reason]
    expr    := term (("+" | "-") term)*
    term    := unary (("*" | "x" | "/") unary)*  # "x"/"X" only touching its left operand
    unary   := ("+" | "-") unary | dice
    dice    := [atom] "d" [part | "%"] mod*      # NdM, d20, 3d, d, d%; parts touch
             | ["1"] "d20" ("优势" | "劣势")      # 2d20k1 / 2d20q1 (advantage, disadvantage)
             | [atom] "d" "F"                    # Fate dice, each -1/0/+1; dF is 4dF
             | ("b" | "p") [part]                # CoC d100 with N bonus/penalty dice, N = 1
             | atom "a" [part]                   # XaY success pool, Y defaults to 10
             | atom
    mod     := "!" | ("k" | "kh" | "q" | "kl" | "dh" | "dl") [NUM]
    atom    := NUM | NAME | "(" expr ")"
    part    := NUM | "(" expr ")"                # no bare name: "3d侦查" is 3d + reason

Each node keeps ``pos``, the 0-based index in the input of the token that made it, so an error
found while rolling (``1d0``, an unknown name) still points at the right place.  ``str(node)``
gives the canonical form: lower-case (but ``dF``), no spaces, ``*`` for ``x``, ``k``/``q`` for
keep highest/lowest, an omitted dice count written as ``1`` (``4`` for ``dF``; ``b``/``p`` stay
bare), ``d%`` as ``d100``, ``d20优势`` as ``2d20k1`` and only the parentheses precedence needs.  It parses
back to the same text.

>>> from chronodice.dice.parser import parse
>>> str(parse("3D6 + 2"))
'3d6+2'
>>> str(parse("4d6kh3"))
'4d6k3'
>>> str(parse("((力量+体质))/2"))
'(力量+体质)/2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .tokens import is_latin

# Binding levels, loosest first (also used by the trace renderer).
PREC_ADD = 1
PREC_MUL = 2
PREC_UNARY = 3
PREC_ATOM = 4

SELECT_KINDS = ("k", "q", "dh", "dl")
"""Keep highest, keep lowest, drop highest, drop lowest (``kh``→``k``, ``kl``→``q``)."""


@dataclass(frozen=True)
class Num:
    """An integer literal."""

    value: int
    pos: int = 0

    def __str__(self) -> str:
        return to_text(self)


@dataclass(frozen=True)
class Var:
    """An attribute of the character (``敏捷``, ``str``), looked up when rolling."""

    name: str
    pos: int = 0

    def __str__(self) -> str:
        return to_text(self)


@dataclass(frozen=True)
class Unary:
    """``+x`` or ``-x``."""

    op: str
    operand: Expr
    pos: int = 0

    def __str__(self) -> str:
        return to_text(self)


@dataclass(frozen=True)
class Binary:
    """``left op right`` with ``op`` one of ``+ - * /``; ``pos`` is the operator's."""

    op: str
    left: Expr
    right: Expr
    pos: int = 0

    def __str__(self) -> str:
        return to_text(self)


@dataclass(frozen=True)
class Select:
    """A keep/drop modifier: ``kind`` in :data:`SELECT_KINDS`, ``count`` dice."""

    kind: str
    count: int
    pos: int = 0

    def __str__(self) -> str:
        return f"{self.kind}{self.count}"


@dataclass(frozen=True)
class Dice:
    """``NdM`` with optional explosion and keep/drop; ``count``/``faces`` None = 1 / default die."""

    count: Expr | None
    faces: Expr | None
    explode: bool = False
    select: Select | None = None
    pos: int = 0

    def __str__(self) -> str:
        return to_text(self)


@dataclass(frozen=True)
class Pool:
    """The success pool ``XaY``: X d10, each die >= Y adds a die, value = dice >= 8."""

    count: Expr
    threshold: Expr
    pos: int = 0

    def __str__(self) -> str:
        return to_text(self)


@dataclass(frozen=True)
class Fate:
    """Fate (Fudge) dice ``NdF``: each die is -1, 0 or +1; ``count`` None = 4 (``dF``)."""

    count: Expr | None
    pos: int = 0

    def __str__(self) -> str:
        return to_text(self)


@dataclass(frozen=True)
class Bonus:
    """CoC 7th bonus (``b``) or penalty (``p``) dice: one d100 and ``count`` more tens dice
    (None = 1), keeping the best (``b``) or worst (``p``) result."""

    kind: str
    count: Expr | None
    pos: int = 0

    def __str__(self) -> str:
        return to_text(self)


FATE_DEFAULT_COUNT = 4
"""``dF`` alone rolls four dice, as OneDice (OlivaDice) and SealDice do and Fate Core plays."""


Expr = Union[Num, Var, Unary, Binary, Dice, Pool, Fate, Bonus]  # noqa: UP007 (a runtime alias; py3.10 target)
EXPR_TYPES = (Num, Var, Unary, Binary, Dice, Pool, Fate, Bonus)
"""The node classes of :data:`Expr`, for ``isinstance`` (an attribute whose value is a formula)."""

_BINARY_PREC = {"+": PREC_ADD, "-": PREC_ADD, "*": PREC_MUL, "/": PREC_MUL}


def precedence(node: Expr) -> int:
    """How tightly ``node`` binds when printed (for parentheses)."""
    if isinstance(node, Binary):
        return _BINARY_PREC[node.op]
    if isinstance(node, Unary):
        return PREC_UNARY
    return PREC_ATOM


def to_text(node: Expr, default_faces: int | None = None) -> str:
    """Canonical text of ``node``; with ``default_faces`` a bare ``d`` is written ``d{faces}``.

    >>> to_text(Dice(None, None), default_faces=20), to_text(Dice(None, None))
    ('1d20', '1d')
    >>> to_text(Binary("-", Num(2), Binary("-", Num(3), Num(1))))
    '2-(3-1)'
    """
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Unary):
        inner = to_text(node.operand, default_faces)
        if precedence(node.operand) < PREC_UNARY:
            inner = f"({inner})"
        return node.op + inner
    if isinstance(node, Binary):
        prec = _BINARY_PREC[node.op]
        left = to_text(node.left, default_faces)
        right = to_text(node.right, default_faces)
        if precedence(node.left) < prec:
            left = f"({left})"
        if precedence(node.right) <= prec:
            right = f"({right})"
        return f"{left}{node.op}{right}"
    if isinstance(node, Dice):
        count = "1" if node.count is None else dice_part(node.count, default_faces, bare_names=True)
        if node.faces is not None:
            faces = dice_part(node.faces, default_faces)
        else:
            faces = "" if default_faces is None else str(default_faces)
        mods = ("!" if node.explode else "") + (str(node.select) if node.select else "")
        return f"{count}d{faces}{mods}"
    if isinstance(node, Pool):
        count = dice_part(node.count, default_faces, bare_names=True)
        return f"{count}a{dice_part(node.threshold, default_faces)}"
    if isinstance(node, Fate):
        count = (
            str(FATE_DEFAULT_COUNT)
            if node.count is None
            else dice_part(node.count, default_faces, bare_names=True)
        )
        return f"{count}dF"
    if isinstance(node, Bonus):
        return node.kind if node.count is None else node.kind + dice_part(node.count, default_faces)
    raise TypeError(f"not a dice expression node: {node!r}")


def dice_part(node: Expr, default_faces: int | None = None, *, bare_names: bool = False) -> str:
    """A count, faces or threshold: bare when a number, else in parentheses.

    With ``bare_names`` (a count) a CJK name stays bare (``敏捷d6``); latin names always get
    parentheses, since ``strd6`` would read as the name ``strd``.  Faces and thresholds never take
    a bare name, so ``3d侦查`` stays "3d, reason 侦查".
    """
    if isinstance(node, Num):
        return str(node.value)
    if bare_names and isinstance(node, Var) and not any(is_latin(ch) for ch in node.name):
        return node.name
    return f"({to_text(node, default_faces)})"


__all__ = [
    "EXPR_TYPES",
    "FATE_DEFAULT_COUNT",
    "PREC_ADD",
    "PREC_ATOM",
    "PREC_MUL",
    "PREC_UNARY",
    "SELECT_KINDS",
    "Binary",
    "Bonus",
    "Dice",
    "Expr",
    "Fate",
    "Num",
    "Pool",
    "Select",
    "Unary",
    "Var",
    "dice_part",
    "precedence",
    "to_text",
]
