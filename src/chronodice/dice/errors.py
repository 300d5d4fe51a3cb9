"""Errors of the dice language, all subclasses of :mod:`chronodice.core.errors`.

::

    DiceError (InputSyntaxError)         malformed expression; ``position`` is 0-based
    ├── DiceLimitError (+ LimitExceeded) a README "Limits" limit: dice, faces, repeats, length, depth
    ├── UnknownVariable (+ NotFound)     a name that is not an attribute of the character
    └── DiceValueError (+ IllegalAction) well-formed but impossible: 1d0, k0, division by zero

Every error carries a short Chinese message that names the place in the input
(``第5个字符附近无法理解 "x"``), so the user can find the bad token.  Services catch
:class:`chronodice.core.errors.ChronoDiceError`; ``except DiceError`` catches every dice error.
"""

from __future__ import annotations

from chronodice.core.errors import IllegalAction, InputSyntaxError, LimitExceeded, NotFound

USAGE = "[次数#]表达式 [理由]，例：3d6+2 侦查、4d6k3、2#d20、5a10、1d20+敏捷"
"""The short form shown under a syntax error."""


def where(position: int) -> str:
    """The 1-based place of a 0-based ``position``, as players count.

    >>> where(0)
    '第1个字符'
    """
    return f"第{position + 1}个字符"


def snippet(text: str, limit: int = 10) -> str:
    """A short quotable piece of ``text`` (at most ``limit`` characters).

    >>> snippet("abc")
    'abc'
    >>> snippet("x" * 20, limit=5)
    'xxxxx…'
    """
    cut = text if len(text) <= limit else text[:limit] + "…"
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in cut)


class DiceError(InputSyntaxError):
    """A dice expression could not be understood; ``position`` points at the bad token."""

    def __init__(self, message: str, *, position: int | None = None, usage: str | None = USAGE) -> None:
        super().__init__(message, usage=usage, position=position)


class DiceLimitError(DiceError, LimitExceeded):
    """An expression asks for too much: dice, faces, repeats, length, nesting or result size."""

    def __init__(self, message: str, *, position: int | None = None) -> None:
        super().__init__(message, position=position, usage=None)


class UnknownVariable(DiceError, NotFound):
    """A name in the expression is not an attribute of the active character."""

    def __init__(self, name: str, *, position: int | None = None) -> None:
        super().__init__(f'未知属性 "{snippet(name)}"（先用 .st 录入）', position=position, usage=None)
        self.name = name


class DiceValueError(DiceError, IllegalAction):
    """Well-formed but impossible: a die with no faces, keeping no dice, dividing by zero."""

    def __init__(self, message: str, *, position: int | None = None) -> None:
        super().__init__(message, position=position, usage=None)


__all__ = [
    "USAGE",
    "DiceError",
    "DiceLimitError",
    "DiceValueError",
    "UnknownVariable",
    "snippet",
    "where",
]
