"""Argument kinds of the TimeLine commands (see :mod:`chronodice.core.args`).

* :class:`Number` — a decimal number standing as a word of its own (``35``, ``-2.5``); ``1a``
  is not a number (MayuriBot crashed or kept silent on it);
* :class:`AmountKind` — an impact value ``150`` or a windup ``10t`` → :class:`Amount`;
* :class:`Attribute` — one of the 11 attributes (MayuriBot's substring lookup: ``力`` = 力量),
  also glued to a number (``力量150``); an unknown word is refused with MayuriBot's
  ``没有找到属性[x]×``;
* :class:`ActionKind` — ``属性 影响数值|前摇t`` in either order (``.pre`` and ``.bat``) →
  :class:`Action`;
* :class:`Token` — one word up to a space (a buff source, a damage type), refusing given words
  (so ``.buff del`` without an index is not a buff named ``del``);
* :class:`OnOff` — ``open 开`` / ``sheet off`` for ``.tlconf``;
* ``RANDOM_LEVEL`` (``15d``), ``ACTION_REF`` (``#3``), ``RATIO`` (``25/50``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

from chronodice.core.args import (
    Candidates,
    Choice,
    Kind,
    ParseEnv,
    Pattern,
    is_ascii_digit,
    is_ascii_letter,
    match_word,
    skip_space,
    word_end,
)
from chronodice.core.errors import InputSyntaxError
from chronodice.rules.timeline.attributes import lookup_attribute

_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{0,6})?|\.[0-9]{1,6})")
NEED_AMOUNT = "需要属性和影响数值（或前摇时间，如 10t）"


def _boundary(text: str, end: int) -> bool:
    """A number ends here: the end, a space, or anything but a Latin letter, a digit or ``.%``."""
    if end >= len(text):
        return True
    ch = text[end]
    return not (is_ascii_letter(ch) or is_ascii_digit(ch) or ch in ".%")


def read_number(
    text: str, pos: int, *, signed: bool = True, suffix: str = ""
) -> tuple[float, bool, int] | None:
    """``(value, had the suffix, end)`` for a number at ``pos`` followed by a boundary."""
    m = _NUMBER.match(text, pos)
    if not m or (not signed and m.group()[0] in "+-"):
        return None
    value, end = float(m.group()), m.end()
    if suffix and end < len(text) and text[end].lower() == suffix and _boundary(text, end + 1):
        return value, True, end + 1
    if _boundary(text, end):
        return value, False, end
    return None


@dataclass(frozen=True)
class Number(Kind):
    """A decimal number that is a word of its own (``35``, ``-2.5``; not ``1a``)."""

    label: str = "数字"
    signed: bool = True

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        got = read_number(text, pos, signed=self.signed)
        if got is not None:
            yield got[0], got[2]


class Amount(NamedTuple):
    """An impact value (``150``) or, with ``time``, a windup in t (``10t``)."""

    value: float
    time: bool = False


@dataclass(frozen=True)
class AmountKind(Kind):
    """``150`` (影响数值) or ``10t`` (前摇) → :class:`Amount`."""

    label: str = "影响数值或前摇t"

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        got = read_number(text, pos, suffix="t")
        if got is not None:
            yield Amount(got[0], got[1]), got[2]


def _word_end(text: str, pos: int) -> int:
    end = pos
    while end < len(text) and text[end] not in " \t\n,;、|:":
        end += 1
    return end


@dataclass(frozen=True)
class Attribute(Kind):
    """One of the 11 attributes → its key (``strength``); glued numbers split off (``力量150``).

    An unknown word is refused with MayuriBot's ``没有找到属性[x]×``."""

    label: str = "属性"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        ch = text[pos]
        if is_ascii_digit(ch) or ch in "+-.@#":
            return
        end = _word_end(text, pos)
        cut = next((i for i in range(pos + 1, end) if is_ascii_digit(text[i]) or text[i] in "+-."), end)
        found = False
        for stop in dict.fromkeys((cut, end)):
            key = lookup_attribute(text[pos:stop])
            if key is not None:
                found = True
                yield key, stop
        if not found:
            raise InputSyntaxError(f"没有找到属性[{text[pos:cut][:12]}]×")


class Action(NamedTuple):
    """An attribute with an impact value or a windup (``.pre``, ``.bat``)."""

    attr: str
    impact: float | None = None
    time: float | None = None


def _action(attr: str, amount: Amount) -> Action:
    return Action(attr, None, amount.value) if amount.time else Action(attr, amount.value, None)


@dataclass(frozen=True)
class ActionKind(Kind):
    """``属性 影响数值|前摇t`` in either order, glued or not (``力量150``, ``10t 力量``)."""

    label: str = "属性 影响数值|前摇t"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        attr = Attribute()
        first = read_number(text, pos, suffix="t")
        if first is not None:  # the amount first: 10t 力量
            after = skip_space(text, first[2])
            if after >= len(text):
                raise InputSyntaxError(NEED_AMOUNT)
            for key, end in attr.candidates(text, after, env):
                yield _action(key, Amount(first[0], first[1])), end
            return
        found = False
        bad = ""
        for key, end in attr.candidates(text, pos, env):
            after = skip_space(text, end)
            if after >= len(text):
                continue
            got = read_number(text, after, suffix="t")
            if got is None:
                bad = bad or text[after : word_end(text, after)][:12]
                continue
            found = True
            yield _action(key, Amount(got[0], got[1])), got[2]
        if not found:
            raise InputSyntaxError(f"[{bad}]不是数字（影响数值如 150，前摇如 10t）" if bad else NEED_AMOUNT)


@dataclass(frozen=True)
class Token(Kind):
    """One word up to a space; ``refuse``: words (any case) that are not this argument."""

    label: str = "词"
    glue: bool = False
    refuse: tuple[str, ...] = ()
    max_len: int = 60

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        end = word_end(text, pos, limit=self.max_len + 1)  # a longer word is refused anyway
        word = text[pos:end]
        if word.lower() in self.refuse or text[pos] == "@" or end - pos > self.max_len:
            return
        yield word, end


ON_OFF = {"on": True, "开": True, "1": True, "off": False, "关": False, "0": False}


@dataclass(frozen=True)
class OnOff(Kind):
    """A setting word followed by 开/关 (on/off, 1/0): ``open 开`` → ``True``."""

    words: tuple[str, ...] = ()
    label: str = ""
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for w in self.words:
            if match_word(text, pos, w):
                at = skip_space(text, pos + len(w))
                for value, end in Choice(ON_OFF).candidates(text, at, env) if at < len(text) else ():
                    yield value, end
                    return
                raise InputSyntaxError("设置值应为 开/关（on/off）")

    def usage(self) -> str:
        return self.label


class RandomLevel(NamedTuple):
    """``.tar 15d``: level 15, difficulty rolled 1d20."""

    level: float


def _random_level(m: re.Match[str]) -> Any:
    return RandomLevel(float(m.group(1)))


RANDOM_LEVEL = Pattern(
    regex=r"([0-9]{1,9}(?:\.[0-9]{1,6})?)[dD](?![0-9A-Za-z.])", label="等级d", convert=_random_level
)


class ActionRef(NamedTuple):
    """``#3``: action 3 of the battle timeline."""

    id: int


ACTION_REF = Pattern(
    regex=r"#([0-9]{1,6})(?![0-9])", label="#行动", convert=lambda m: ActionRef(int(m.group(1)))
)


class Ratio(NamedTuple):
    """``25/50``: a roll and the success rate it was rolled against."""

    roll: int
    rate: float
    text: str


RATIO = Pattern(
    regex=r"([0-9]{1,6})/([0-9]{1,6}(?:\.[0-9]{1,4})?)%?(?![0-9A-Za-z./])",
    label="骰值/成功率",
    convert=lambda m: Ratio(int(m.group(1)), float(m.group(2)), m.group()),
)

__all__ = [
    "ACTION_REF",
    "NEED_AMOUNT",
    "ON_OFF",
    "RANDOM_LEVEL",
    "RATIO",
    "Action",
    "ActionKind",
    "ActionRef",
    "Amount",
    "AmountKind",
    "Attribute",
    "Number",
    "OnOff",
    "RandomLevel",
    "Ratio",
    "Token",
    "read_number",
]
