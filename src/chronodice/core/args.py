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

This module holds the declarations (:class:`Param`, :class:`Flag` and their shorthands) and the
parser.  The kinds live in :mod:`chronodice.core.argkind` (the base and the character tests the
kinds share), :mod:`chronodice.core.argnumbers` and :mod:`chronodice.core.argwords`; every one
of them is importable from here, which is where services import them from.

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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .argkind import Candidates, Kind, ParseEnv, is_ascii_digit, is_ascii_letter, match_word, word_end
from .argnumbers import Int, Mod, Num, TypedMod
from .argsearch import Search, skip_space
from .argwords import Choice, Keyword, Mention, Name, OneOf, Pattern, Prefixed, Rest, Text, Word
from .errors import InputSyntaxError


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
    "is_ascii_letter",
    "many",
    "match_word",
    "opt",
    "parse_args",
    "rest",
    "skip_space",
    "word_end",
]
