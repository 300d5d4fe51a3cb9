"""Argument kinds (:mod:`chronodice.core.args`) for dice: a whole ``.r`` line and one expression.

>>> from chronodice.core.args import ParseEnv
>>> [(str(v), e) for v, e in DiceExpr().candidates("1d6+10巨魔", 0, ParseEnv())]
[('1d6+10', 6)]
>>> RollText().can_glue("d20 攻击"), RollText().can_glue("a 侦查"), RollText().can_glue("3d6")
(True, False, True)
>>> RollText().can_glue("b2"), RollText().can_glue("p"), RollText().can_glue("ab2")
(True, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from chronodice.core.args import Candidates, Kind, ParseEnv

from .errors import DiceError
from .parser import parse

_EXPR_CHARS = frozenset("0123456789dD%+-*/()!kKqQhHlLxX")


@dataclass(frozen=True)
class DiceExpr(Kind):
    """One dice expression written as one word (``1d6+10``, ``d8+d6``, ``2d20kh1``); the value is
    the parsed tree (:class:`chronodice.dice.Expr`).  Glued CJK text after it is left for the next
    argument (``=1d6+10巨魔``)."""

    label: str = "骰子表达式"
    require_die: bool = False
    """Only expressions with a die in them (``3`` alone is then not read as an expression)."""

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        end = pos
        while end < len(text) and text[end] in _EXPR_CHARS:
            end += 1
        if end == pos:
            return
        word = text[pos:end]
        if self.require_die and "d" not in word.lower():
            return
        try:
            tree = parse(word)
        except DiceError:
            return
        yield tree, end


@dataclass(frozen=True)
class RollText(Kind):
    """The rest of a ``.r`` line — ``[N#][表达式] [理由]`` — read by the dice language itself
    (:func:`chronodice.dice.parse_command`, which knows the character's attribute names).

    It may follow the root directly (``.r3d6``, ``.rd20``, ``.r2#d6``, ``.rb2``, ``.rp``) only
    where a dice expression starts, so ``.ra 侦查``, ``.rab2`` and ``.rs 3d6`` (other bots'
    commands) are not ours.
    """

    label: str = "表达式 理由"
    glue: bool = True

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        yield text[pos:].strip(), len(text)

    def can_glue(self, text: str) -> bool:
        first = text[:1]
        if not first:
            return False
        if first.isdigit() or first in "(+-":
            return True
        nxt = text[1:2]
        if first in "dD":
            return nxt == "" or not nxt.isascii() or not nxt.isalpha() or nxt.lower() == "f"
        if first in "bBpP":  # SealDice's .rb2 / .rp: CoC bonus and penalty dice
            return nxt == "" or nxt.isdigit() or nxt in " \t(" or not nxt.isascii()
        return False


__all__ = ["DiceExpr", "RollText"]
