"""Typed arguments: the kinds a command's words can be, and the one parser that reads them.

A sub-command declares its arguments as :class:`Param` s (positional, in order) and
:class:`Flag` s (free position, e.g. ``优势`` or ``+5状态``).  :func:`parse_args` reads the
normalised text after the sub-command keyword into a ``dict`` of typed values, or raises one
:class:`~chronodice.core.errors.InputSyntaxError` that names the bad token and what was
expected there.  Services never split text themselves.

How the parser reads (chosen for players typing fast on a phone):

* Words are separated by spaces, but a value may be glued to the next one where the kinds
  differ (``运动15``, ``力量150``, ``+2环境哥布林``): a kind offers *candidates* — the ways it
  could read the text at a position, preferred first — and the parser searches depth first for
  the first reading that uses the whole text.  Names therefore try the glued split first
  (``运动`` + ``15``) and fall back to the whole word (``狼2``) when the split leaves something
  no argument can take.
* Flags may stand anywhere between positional arguments; a positional argument is tried before
  a flag at each point, so ``.rc +3 15`` reads the ``+3`` as the skill modifier and ``15`` as
  the target value.
* On failure the error names the token at the furthest point any reading reached and the
  labels expected there (``「xd」不是目标数值（整数）``), or says what is missing at the end.
* The search (:mod:`chronodice.core.argsearch`) is bounded for any message: a list takes at
  most 100 values, and a failed reading is never searched twice.

>>> from chronodice.core.args import Param, Flag, Int, Name, TypedMod, Keyword, parse_args
>>> params = (Param("skill", Name(label="技能")), Param("target", Int(label="目标值"), required=False))
>>> flags = (Flag("mods", TypedMod(types=("通用", "状态")), many=True), Flag("adv", Keyword("优势", "adv")))
>>> parse_args("运动15 优势 +2状态", params, flags)
{'skill': '运动', 'target': 15, 'mods': [Mod(value=2, type='状态')], 'adv': True}
>>> hp = (Param("who", Name()), Param("n", Int(signed=True, sign_required=True)))
>>> parse_args("狼2 -5", hp), parse_args("狼2-5", hp)
({'who': '狼2', 'n': -5}, {'who': '狼2', 'n': -5})
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .argsearch import KindError, Search, skip_space
from .errors import InputSyntaxError

PREFIX_CHARS = ".。．"


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
        except (_RangeError, _TooLong, InputSyntaxError):
            return True  # it reads this text, and will say what is wrong with it


@dataclass
class ParseEnv:
    """What a parse may use beside the text: the @-mentions of the message (consumed in order)."""

    mentions: tuple[str, ...] = ()


# ---------------------------------------------------------------------------- numbers
_INT = re.compile(r"[+-]?[0-9]{1,9}")
_NUM = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{0,6})?|\.[0-9]{1,6})")


class _Number(Kind):
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
            raise _RangeError(self, raw, pos)
        end = m.end()
        if end < len(text) and self._runs_on(text[end]):
            raise _RangeError(self, text[pos : word_end(text, pos)], pos)
        for s in self.suffix:
            if text[end : end + len(s)].lower() == s.lower():
                yield value, end + len(s)
        yield value, end


@dataclass(frozen=True)
class Int(_Number):
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
class Num(_Number):
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


class _RangeError(KindError):
    def __init__(self, kind: _Number, raw: str, pos: int) -> None:
        lo = None if kind.min is None else f"{kind.min:g}"
        hi = None if kind.max is None else f"{kind.max:g}"
        if lo is not None and hi is not None:
            span = f"应在{lo}到{hi}之间"
        elif lo is not None or hi is not None:
            span = f"至少为{lo}" if lo is not None else f"至多为{hi}"
        else:
            span = "数字太长"
        super().__init__(f"{kind.label}「{raw[:12]}」超出范围（{span}）", pos)


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
            raise _RangeError(Int(label=self.label, min=-self.max_abs, max=self.max_abs), m.group(), pos)
        end = m.end()
        words = sorted([*self.types, *self.aliases], key=len, reverse=True)
        for w in words:
            if text.startswith(w, end):
                yield Mod(value, self.aliases.get(w, w)), end + len(w)
        yield Mod(value, ""), end

    def usage(self) -> str:
        return f"±N{'/'.join(self.types)}" if self.types else "±N"


# ---------------------------------------------------------------------------- words
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
        cuts: list[int] = []
        for i in range(pos + 1, end):
            a, b = _class(text[i - 1]), _class(text[i])
            if (b == "digit" and a not in ("digit", "sign")) or (b == "sign" and a != "sign"):
                cuts.append(i)
            elif self.split_cjk_latin and {a, b} == {"latin", "other"}:
                cuts.append(i)
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
            raise _TooLong(self.label, self.max_len, pos)
        yield value, len(text)


class _TooLong(KindError):
    def __init__(self, label: str, limit: int, pos: int) -> None:
        super().__init__(f"{label}太长（最多{limit}字）", pos)


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
            raise _TooLong(self.label, self.max_len, pos)
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


# ---------------------------------------------------------------------------- declarations
@dataclass(frozen=True)
class Param:
    """A positional argument.  ``many``: one or more (zero or more when not required), a list."""

    name: str
    kind: Kind
    required: bool = True
    many: bool = False
    default: Any = None
    label: str = ""

    @property
    def shown(self) -> str:
        return self.label or self.kind.usage()

    def usage(self) -> str:
        core = self.shown + ("…" if self.many else "")
        return f"<{core}>" if self.required else f"[{core}]"


@dataclass(frozen=True)
class Flag(Param):
    """A position-free argument (``优势``, ``+5状态``, ``暗``), never required.  ``many``: a list
    of every match."""

    required: bool = False

    def __init__(
        self, name: str, kind: Kind, many: bool = False, default: Any = None, label: str = ""
    ) -> None:
        super().__init__(name, kind, required=False, many=many, default=default, label=label)


def arg(name: str, kind: Kind, label: str = "") -> Param:
    """A required positional argument."""
    return Param(name, kind, label=label)


def opt(name: str, kind: Kind, default: Any = None, label: str = "") -> Param:
    """An optional positional argument."""
    return Param(name, kind, required=False, default=default, label=label)


def many(name: str, kind: Kind, *, required: bool = True, label: str = "") -> Param:
    """A list of one or more (``required=False``: zero or more) values of ``kind``."""
    return Param(name, kind, required=required, many=True, label=label)


def rest(name: str = "note", label: str = "备注", *, max_len: int = 2000) -> Param:
    """Free text to the end (may be empty)."""
    return Param(name, Rest(label=label, max_len=max_len), required=False, default="", label=label)


def flag(name: str, *words: str, label: str = "") -> Flag:
    """A keyword that may stand anywhere: ``True`` when present, else ``False``."""
    return Flag(name, Keyword(*words, label=label), default=False, label=label)


# ---------------------------------------------------------------------------- the parser
def parse_args(
    text: str,
    params: Sequence[Param],
    flags: Sequence[Flag] = (),
    *,
    mentions: Sequence[str] = (),
    usage: str | None = None,
) -> dict[str, Any]:
    """Read ``text`` into ``{name: value}`` for every param and flag (defaults filled in).

    Raises :class:`InputSyntaxError` naming the bad token (or what is missing) with ``usage``.

    >>> parse_args("3 x", (Param("n", Int()),), usage=".x <整数>")
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 多余的「x」
    >>> parse_args("", (Param("n", Int(label="面数")),))["n"]
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 缺少面数
    """
    search = Search(text, params, flags, ParseEnv(tuple(mentions)), usage=usage)
    got = search.run(0, 0, {}, 0)
    if got is None:
        raise InputSyntaxError(_message(search), usage=usage, position=max(search.far.pos, 0))
    out: dict[str, Any] = {}
    for p in params:
        out[p.name] = got.get(p.name, [] if p.many else p.default)
    for f in flags:
        out[f.name] = got.get(f.name, [] if f.many else f.default)
    return out


def _message(search: Search) -> str:
    text, pos = search.text, max(search.far.pos, 0)
    if search.far.error:
        return search.far.error
    labels = search.far.expect[:4]
    expected = "、".join(labels[:-1]) + "或" + labels[-1] if len(labels) > 1 else "".join(labels)
    if pos >= len(text.rstrip()):
        return f"缺少{expected}" if expected else "参数不完整"
    token = text[pos : word_end(text, pos)][:12]
    if not expected:
        return f"多余的「{token}」"
    return f"「{token}」不是有效的{expected}"


def can_start(text: str, params: Sequence[Param], flags: Sequence[Flag]) -> bool:
    """Whether a typed (non-free-text) argument can read ``text`` from its first character —
    used to accept a root glued to Latin letters or digits (``.rd20``, ``.set20``)."""
    kinds = [p.kind for p in params[:1]] + [f.kind for f in flags]
    for i, p in enumerate(params):
        if p.required or i + 1 >= len(params):
            break
        kinds.append(params[i + 1].kind)
    return any(kind.can_glue(text) for kind in kinds)


__all__ = [
    "Candidates",
    "Choice",
    "Flag",
    "Int",
    "Keyword",
    "Kind",
    "Mention",
    "Mod",
    "Name",
    "Num",
    "OneOf",
    "Param",
    "ParseEnv",
    "Pattern",
    "Prefixed",
    "Rest",
    "Text",
    "TypedMod",
    "Word",
    "arg",
    "can_start",
    "flag",
    "is_ascii_digit",
    "many",
    "match_word",
    "opt",
    "parse_args",
    "rest",
    "skip_space",
]
