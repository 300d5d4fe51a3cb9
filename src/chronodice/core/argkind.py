"""What every argument kind of :mod:`chronodice.core.args` builds on: the :class:`Kind` base, what a
parse may use beside the text (:class:`ParseEnv`), the errors a kind raises about the text it
reads, and the character tests the kinds (here and in the services) share.

Kept apart from the concrete kinds so that a service defining its own kind needs only this
vocabulary, and so that :meth:`Kind.can_glue` knows the errors every kind may raise.

>>> match_word("advx", 0, "adv"), match_word("优势x", 0, "优势"), word_end("ab cd", 0)
(False, True, 2)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .argsearch import KindError
from .errors import InputSyntaxError

if TYPE_CHECKING:
    from .argnumbers import NumberKind

PREFIX_CHARS = ".。．"
"""The full stops a command starts with (``.``, ``。``, ``．``): a name never starts with one."""


def word_end(text: str, pos: int, limit: int | None = None) -> int:
    """Index of the first whitespace at or after ``pos`` (or the end).

    ``limit``: look at most this many characters (a kind that refuses longer words need not
    walk a 2,000-character one at every position the parser tries: issue 23).

    >>> word_end("ab cd", 0), word_end("abcdef", 1, limit=2)
    (2, 3)
    """
    stop = len(text) if limit is None else min(len(text), pos + limit)
    while pos < stop and text[pos] not in " \t\n":
        pos += 1
    return pos


def is_ascii_digit(ch: str) -> bool:
    """``0``–``9`` only: ``str.isdigit`` also accepts ``²`` and ``⑤``, which ``int()`` refuses."""
    return "0" <= ch <= "9"


def is_ascii_letter(ch: str) -> bool:
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z")


def match_word(text: str, pos: int, word: str) -> bool:
    """``word`` at ``pos``, case-insensitive; a word ending in a Latin letter or digit needs a
    non-Latin, non-digit character (or the end) after it."""
    end = pos + len(word)
    if text[pos:end].lower() != word.lower():
        return False
    if end < len(text) and word[-1:].isascii() and word[-1:].isalnum():
        nxt = text[end]
        if is_ascii_letter(nxt) or is_ascii_digit(nxt):
            return False
    return True


Candidates = Iterator[tuple[Any, int]]


class Kind:
    """What an argument can be.  ``label`` names it in usage lines and errors (``整数``).

    ``candidates(text, pos, env)`` yields ``(value, end)`` for each way the kind can read
    ``text`` from ``pos`` (which is never whitespace), preferred first.  ``glue`` says whether
    the kind may start right after a command root that ends in a Latin letter (``.rd20``);
    free text never may, so ``.ra 侦查`` is not ``.r`` with the reason ``a 侦查``.
    """

    label: str = "参数"
    glue: bool = True
    consumes_text: bool = True

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:  # pragma: no cover
        raise NotImplementedError

    def usage(self) -> str:
        return self.label

    def can_glue(self, text: str) -> bool:
        """Whether this kind reads the start of ``text`` glued to a Latin-ending root."""
        if not self.glue or not self.consumes_text or not text:
            return False
        try:
            return any(end > 0 for _, end in self.candidates(text, 0, ParseEnv()))
        except (RangeError, TooLong, InputSyntaxError):
            return True  # it reads this text, and will say what is wrong with it


@dataclass
class ParseEnv:
    """What a parse may use beside the text: the @-mentions of the message (consumed in order)."""

    mentions: tuple[str, ...] = ()


class RangeError(KindError):
    """A number outside its kind's ``min``/``max`` (or too many digits): the message gives the range."""

    def __init__(self, kind: NumberKind, raw: str, pos: int) -> None:
        lo = None if kind.min is None else f"{kind.min:g}"
        hi = None if kind.max is None else f"{kind.max:g}"
        if lo is not None and hi is not None:
            span = f"应在{lo}到{hi}之间"
        elif lo is not None or hi is not None:
            span = f"至少为{lo}" if lo is not None else f"至多为{hi}"
        else:
            span = "数字太长"
        super().__init__(f"{kind.label}「{raw[:12]}」超出范围（{span}）", pos)


class TooLong(KindError):
    """Free text over its kind's ``max_len``: the message names the limit (nothing is cut)."""

    def __init__(self, label: str, limit: int, pos: int) -> None:
        super().__init__(f"{label}太长（最多{limit}字）", pos)


__all__ = [
    "PREFIX_CHARS",
    "Candidates",
    "Kind",
    "ParseEnv",
    "RangeError",
    "TooLong",
    "is_ascii_digit",
    "is_ascii_letter",
    "match_word",
    "word_end",
]
