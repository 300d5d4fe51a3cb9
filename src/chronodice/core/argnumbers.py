"""Number kinds of :mod:`chronodice.core.args`: whole and decimal numbers with their sign and range
rules, and signed modifiers with an optional type word (``+5状态``).

Numbers share one reading (:class:`NumberKind`) so that ``Int`` and ``Num`` refuse the same way:
a number out of range, or longer than the kind reads (ten digits), is an error naming the token,
never a shorter reading of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from .argkind import Candidates, Kind, ParseEnv, RangeError, is_ascii_digit, word_end

_INT = re.compile(r"[+-]?[0-9]{1,9}")
_NUM = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{0,6})?|\.[0-9]{1,6})")


class NumberKind(Kind):
    """Shared reading of :class:`Int` and :class:`Num`: sign rules, range, suffix words."""

    label: str
    signed: bool
    sign_required: bool
    min: float | None
    max: float | None
    suffix: tuple[str, ...]
    spaced: bool
    _regex: re.Pattern[str]

    def _convert(self, raw: str) -> float:  # pragma: no cover - overridden
        raise NotImplementedError

    def _runs_on(self, ch: str) -> bool:
        """Whether ``ch`` right after the number means the number was cut short."""
        return is_ascii_digit(ch)

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = self._regex.match(text, pos)
        if not m:
            return
        raw = m.group()
        has_sign = raw[0] in "+-"
        if (has_sign and not self.signed) or (self.sign_required and not has_sign):
            return
        if self.spaced and not has_sign and pos > 0 and text[pos - 1] not in " \t\n":
            return
        value = self._convert(raw)
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise RangeError(self, raw, pos)
        end = m.end()
        if end < len(text) and self._runs_on(text[end]):
            raise RangeError(self, text[pos : word_end(text, pos)], pos)
        for s in self.suffix:
            if text[end : end + len(s)].lower() == s.lower():
                yield value, end + len(s)
        yield value, end


@dataclass(frozen=True)
class Int(NumberKind):
    """A whole number of ASCII digits (full-width digits are normalised before).

    ``signed``: ``+``/``-`` allowed; ``sign_required``: a leading sign must be there (a change
    such as ``+5``).  ``min``/``max`` bound the value; out of range is an error with the range.
    """

    label: str = "整数"
    signed: bool = False
    sign_required: bool = False
    min: int | None = None
    max: int | None = None
    suffix: tuple[str, ...] = ()
    """Words that may follow the digits and are dropped (``3次``, ``10t``)."""
    spaced: bool = False
    """Without a sign, the number must be set off by a space: ``卫兵 2`` is 卫兵 and 2, while
    ``卫兵2`` stays one name (``+2`` may still be glued: ``卫兵+2``)."""
    _regex = _INT

    def _convert(self, raw: str) -> int:
        return int(raw)


@dataclass(frozen=True)
class Num(NumberKind):
    """A decimal number (``1.5``, ``-3``, ``.5``)."""

    label: str = "数值"
    signed: bool = True
    sign_required: bool = False
    min: float | None = None
    max: float | None = None
    suffix: tuple[str, ...] = ()
    spaced: bool = False
    _regex = _NUM

    def _convert(self, raw: str) -> float:
        return float(raw)

    def _runs_on(self, ch: str) -> bool:
        return is_ascii_digit(ch) or ch == "."


class Mod(NamedTuple):
    """A signed modifier with an optional type word (``+5状态`` → ``Mod(5, '状态')``)."""

    value: int
    type: str = ""


@dataclass(frozen=True)
class TypedMod(Kind):
    """``±N`` with an optional type suffix from ``types`` (aliases map to canonical names).

    >>> k = TypedMod(types=("状态",), aliases={"状": "状态"})
    >>> list(k.candidates("+5状 x", 0, ParseEnv()))
    [(Mod(value=5, type='状态'), 3), (Mod(value=5, type=''), 2)]
    """

    label: str = "±修正"
    types: tuple[str, ...] = ()
    aliases: dict[str, str] = field(default_factory=dict)
    max_abs: int = 999

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = re.compile(r"[+-][0-9]{1,4}").match(text, pos)
        if not m or (m.end() < len(text) and is_ascii_digit(text[m.end()])):
            return
        value = int(m.group())
        if abs(value) > self.max_abs:
            raise RangeError(Int(label=self.label, min=-self.max_abs, max=self.max_abs), m.group(), pos)
        end = m.end()
        words = sorted([*self.types, *self.aliases], key=len, reverse=True)
        for w in words:
            if text.startswith(w, end):
                yield Mod(value, self.aliases.get(w, w)), end + len(w)
        yield Mod(value, ""), end

    def usage(self) -> str:
        return f"±N{'/'.join(self.types)}" if self.types else "±N"


__all__ = ["Int", "Mod", "Num", "NumberKind", "TypedMod"]
