"""Word and text kinds of :mod:`chronodice.core.args`: fixed words and tables, names typed by
players, ``名字:`` prefixes, @-mentions, regular expressions, free text, and the choice between
several kinds.

The name reading decides how glued text splits (``运动15`` → ``运动`` + ``15``, ``狼2`` whole), so
its cut rules live here beside the other word kinds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .argkind import PREFIX_CHARS, Candidates, Kind, ParseEnv, TooLong, is_ascii_digit, match_word, word_end


@dataclass(frozen=True)
class Keyword(Kind):
    """One of fixed words (``优势``/``adv``); the value is ``True`` (or ``value``).

    Latin words need a boundary after them (``advx`` is not ``adv``); CJK words may be glued.
    """

    words: tuple[str, ...] = ()
    value: Any = True
    label: str = ""

    def __init__(self, *words: str, value: Any = True, label: str = "") -> None:
        object.__setattr__(self, "words", tuple(sorted(words, key=len, reverse=True)))
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "label", label or "/".join(words))

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for w in self.words:
            if match_word(text, pos, w):
                yield self.value, pos + len(w)
                return


@dataclass(frozen=True)
class Choice(Kind):
    """One word out of a table: ``{"开": True, "on": True, "关": False, "off": False}``."""

    table: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for w in sorted(self.table, key=len, reverse=True):
            if match_word(text, pos, w):
                yield self.table[w], pos + len(w)
                return

    def usage(self) -> str:
        return self.label or "/".join(dict.fromkeys(self.table))


_NAME_STOP = set(" \t\n,;、|")
_SIGNS = "+-=<>"


def _class(ch: str) -> str:
    if is_ascii_digit(ch):
        return "digit"
    if ch in _SIGNS:
        return "sign"
    if ch.isascii():
        return "latin"
    return "other"


@dataclass(frozen=True)
class Name(Kind):
    """A name typed by a player: a character, an attribute, a skill, an effect.

    One word (up to a space or ``,;、|``), never starting with a digit or a sign and never all
    digits.  Glued to a number (``运动15``, ``狼-3``) the name is first read up to the number,
    then as the whole word.  ``lookup`` (optional) maps a candidate to its canonical value or
    ``None`` to refuse it (a table of known attributes); ``stop`` adds characters that end a
    name (``:`` for ``名字:`` prefixes).
    """

    label: str = "名字"
    glue: bool = False
    max_len: int = 20
    lookup: Callable[[str], Any] | None = None
    stop: str = ""
    split_cjk_latin: bool = False
    """Also try cutting where CJK text meets Latin letters (``力量str``)."""

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        ch = text[pos]
        if is_ascii_digit(ch) or ch in _SIGNS or ch in PREFIX_CHARS or ch == "@":
            return
        end = pos
        # a word longer than max_len is never a name, nor is any cut beyond max_len: looking one
        # character further keeps the parse linear in a 2,000-character word (issue 23)
        stop = min(len(text), pos + self.max_len + 1)
        while end < stop and text[end] not in _NAME_STOP and text[end] not in self.stop:
            end += 1
        cuts = self.cuts(text, pos, end)
        seen: set[int] = set()
        for cut in [*cuts, end]:
            if cut in seen or cut - pos > self.max_len:
                continue
            seen.add(cut)
            word = text[pos:cut]
            if all(is_ascii_digit(c) for c in word):
                continue
            if self.lookup is None:
                yield word, cut
            else:
                value = self.lookup(word)
                if value is not None:
                    yield value, cut
        if self.lookup is not None:  # known names glued to more text (``力量攻击``): longest known prefix
            yield from self.known_prefix(text, pos, end, seen)

    def cuts(self, text: str, pos: int, end: int) -> list[int]:
        """Where a name in ``text[pos:end]`` may end early: before a number or sign glued to it
        (and, with ``split_cjk_latin``, where CJK text meets Latin letters)."""
        cuts: list[int] = []
        for i in range(pos + 1, end):
            a, b = _class(text[i - 1]), _class(text[i])
            if (b == "digit" and a not in ("digit", "sign")) or (b == "sign" and a != "sign"):
                cuts.append(i)
            elif self.split_cjk_latin and {a, b} == {"latin", "other"}:
                cuts.append(i)
        return cuts

    def known_prefix(self, text: str, pos: int, end: int, seen: set[int]) -> Candidates:
        """The longest prefix of ``text[pos:end]`` that ``lookup`` knows, not at a cut already tried."""
        assert self.lookup is not None
        for cut in range(min(end, pos + self.max_len), pos, -1):
            if cut in seen:
                continue
            value = self.lookup(text[pos:cut])
            if value is not None:
                yield value, cut
                break


@dataclass(frozen=True)
class Prefixed(Kind):
    """``名字:`` (or ``名字：`` normalised) before the rest: who acts, e.g. ``.bat Goblin:力量 100``.

    The value is the name without the colon; Latin names are fine.
    """

    label: str = "角色名:"
    max_len: int = 20

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        end = pos
        while end < len(text) and text[end] not in " \t\n:" and end - pos <= self.max_len:
            end += 1
        if end < len(text) and text[end] == ":" and end > pos:
            name = text[pos:end]
            if not all(is_ascii_digit(c) for c in name) and name[0] not in _SIGNS:
                yield name, end + 1


@dataclass(frozen=True)
class Mention(Kind):
    """An @-mentioned user: the next QQ @ of the message (not in the text), or ``@12345`` typed."""

    label: str = "@玩家"
    consumes_text: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = re.compile(r"@([0-9]{5,12})").match(text, pos)
        if m:
            yield m.group(1), m.end()


@dataclass(frozen=True)
class Pattern(Kind):
    """A regular expression at the position; ``convert(match)`` gives the value (or ``None``)."""

    regex: str = ""
    label: str = "参数"
    convert: Callable[[re.Match[str]], Any] | None = None

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = re.compile(self.regex).match(text, pos)
        if not m or m.end() == pos:
            return
        value = self.convert(m) if self.convert is not None else m.group()
        if value is not None:
            yield value, m.end()


@dataclass(frozen=True)
class Rest(Kind):
    """Free text to the end of the message (a reason, a note, a pasted line); may be empty.

    ``max_len`` cuts nothing: longer text is an error naming the limit.
    """

    label: str = "备注"
    glue: bool = False
    max_len: int = 2000

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        value = text[pos:].strip()
        if len(value) > self.max_len:
            raise TooLong(self.label, self.max_len, pos)
        yield value, len(text)


@dataclass(frozen=True)
class Text(Kind):
    """Free text to the end that must not be empty and has a length limit (a character's
    name with spaces, a nickname); the error names the limit."""

    label: str = "名字"
    glue: bool = False
    max_len: int = 20

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        value = text[pos:].strip()
        if len(value) > self.max_len:
            raise TooLong(self.label, self.max_len, pos)
        if value:
            yield value, len(text)


@dataclass(frozen=True)
class OneOf(Kind):
    """The first of several kinds that reads here (``OneOf(Int(), Name())``: a number or a name)."""

    kinds: tuple[Kind, ...] = ()
    label: str = ""

    def __init__(self, *kinds: Kind, label: str = "") -> None:
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "label", label or "或".join(k.label for k in kinds))
        object.__setattr__(self, "consumes_text", all(k.consumes_text for k in kinds))

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for k in self.kinds:
            yield from k.candidates(text, pos, env)

    def can_glue(self, text: str) -> bool:
        return any(k.can_glue(text) for k in self.kinds)


@dataclass(frozen=True)
class Word(Kind):
    """Any one word (up to a space) — for free tokens such as a card's number or a page."""

    label: str = "词"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        end = word_end(text, pos)
        yield text[pos:end], end


__all__ = ["Choice", "Keyword", "Mention", "Name", "OneOf", "Pattern", "Prefixed", "Rest", "Text", "Word"]
