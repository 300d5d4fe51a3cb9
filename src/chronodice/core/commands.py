"""Command declarations and the router.

A command is declared once: its roots, its sub-commands, each sub-command's typed arguments
(:mod:`chronodice.core.args`), its permission and its help line.  Routing, parsing, permission
checks, ``.help`` and the README command table all come from these declarations.

Routing rules (README "Commands"):

* prefixes ``.``, ``。`` and ``．`` (:data:`PREFIXES`; a host bot's ``COMMAND_START`` or
  ``CHRONODICE_COMMAND_START`` changes them: :meth:`CommandRegistry.set_prefixes`); spaces after
  the prefix are allowed; full-width letters in the root are folded (``．ＲＨ``);
* command names are case-insensitive and matched longest first (``.rh`` before ``.r``);
* the argument may follow the name without a space where it can start that command's
  arguments: ``.r3d6``, ``.rd20``, ``.ex力量``, ``.set20`` — but a root ending in a Latin
  letter followed directly by a Latin letter that none of its arguments can read is someone
  else's command (``.rav 斗殴``, ``.rs 3d6``, ``.nnn``, ``.setdnd``, ``.draw``) and gets no
  reply; so is a one-letter root followed by a digit it cannot read (``.d20`` is not ``.dr``),
  while a longer root followed by a digit is ours and a bad one gets the short error (``.lv5``:
  the level change needs its sign);
* unknown commands give ``None`` (other bots share the group);
* a spec's ``resolve`` hook may hand a routed message to another spec or to silence, by the
  group's settings and the sender's card (``.ra`` in a group set to another system, ``.rc``).

Declaring::

    bat = define("bat", aliases=("ba",), summary="战斗时间轴", system="时间线", group_only=True)

    @bat.sub("推进", "advance", params=[arg("to", Num(label="时间"))], perm=Perm.GM, what="推进战斗时间",
             help="把战斗时间推进到给定时刻")
    async def bat_advance(call: Call, to: float) -> list[Reply]: ...

>>> reg = CommandRegistry()
>>> async def h(call, expr): return []
>>> from chronodice.core.args import Int, opt
>>> r = define("r", summary="掷骰", registry=reg)
>>> _ = r.sub(params=[opt("n", Int(label="面数"))], help="掷骰")(h)
>>> reg.route("。R20 偷看").args, reg.route(". r 1d20").args
('20 偷看', '1d20')
>>> reg.route("hello") is None, reg.route(".xyz") is None, reg.route(".ra 侦查") is None
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .args import (
    Flag,
    Param,
    Rest,
    can_start,
    is_ascii_digit,
    is_ascii_letter,
    match_word,
    parse_args,
)
from .call import Call, player_name, sender_name
from .errors import InputSyntaxError
from .help_pages import help_lines
from .permissions import Perm
from .text import normalize

if TYPE_CHECKING:
    from .context import Context
    from .reply import Reply

PREFIXES: tuple[str, ...] = (".", "。", "．")

SYSTEM_ORDER: tuple[str, ...] = ("通用", "CoC7", "DnD5e", "时间线", "D20刻度", "无限恐怖", "萌E")
"""Order of the systems in ``.help`` and the README (independent of plugin load order)."""

Handler = Callable[..., Awaitable[list["Reply"]]]
Resolver = Callable[[Any, "Context", Any, str], Awaitable["CommandSpec | None"]]
"""``resolve(app, ctx, view, args)``: which command answers a routed message in this group —
the spec itself, another spec (``.rc`` → the CoC check in a coc7 group), or ``None`` for
silence (CoC-only commands in a group set to another system, so another bot can answer)."""


@dataclass(frozen=True)
class Sub:
    """One form of a command: ``words`` select it (``()`` = the form without a keyword).

    ``params`` are read in order, ``flags`` anywhere; the handler is called as
    ``handler(call, **values)``.  ``perm`` is checked by the dispatcher before the handler
    runs (``what`` completes the refusal: ``只有…可以<what>``); checks that need session state
    (a combat's own GMs) are made by the service with :mod:`chronodice.core.permissions`.
    ``when_empty``: this form also answers the bare command (``.bat`` shows the timeline).
    """

    words: tuple[str, ...]
    handler: Handler
    params: tuple[Param, ...] = ()
    flags: tuple[Flag, ...] = ()
    help: str = ""
    perm: Perm = Perm.ANYONE
    what: str = ""
    group_only: bool = False
    when_empty: bool = False

    def usage(self, root: str) -> str:
        # kept per root: every parse passes it along for its error message (the declarations
        # never change after import; ``__dict__`` is written directly as the class is frozen)
        memo: dict[str, str] = self.__dict__.setdefault("_usage_memo", {})
        line = memo.get(root)
        if line is None:
            head = f".{root}" + (f" {self.words[0]}" if self.words else "")
            parts = [p.usage() for p in self.params if not isinstance(p.kind, Rest) or p.label]
            parts += [f.usage() for f in self.flags]
            line = memo[root] = " ".join([head, *parts])
        return line

    def help_line(self, root: str, *, group_tag: bool = True) -> str:
        """One line of ``.help``: usage, help, permission; ``group_tag``: add ``（仅群聊）`` (off
        where the page says it once for all its lines)."""
        line = self.usage(root)
        tags = self.perm.tag + ("（仅群聊）" if self.group_only and group_tag else "")
        if self.help:
            line += f" —— {self.help}"
        if tags:
            line += tags
        if len(self.words) > 1:
            line += "（别名：" + " ".join(self.words[1:]) + "）"
        return line


@dataclass
class CommandSpec:
    """One command: roots, help, and its sub-commands (:class:`Sub`)."""

    name: str
    summary: str
    detail: str = ""
    aliases: tuple[str, ...] = ()
    system: str = "通用"
    works_when_off: bool = False
    group_only: bool = False
    subs: list[Sub] = field(default_factory=list)
    resolve: Resolver | None = None
    """Called by the dispatcher after routing, before parsing (see :data:`Resolver`)."""

    @property
    def roots(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @property
    def usage(self) -> str:
        """The forms, one line: every sub-command's usage (keywords listed when there are many)."""
        if len(self.subs) <= 4:
            return " | ".join(s.usage(self.name) for s in self.subs)
        default = [s for s in self.subs if not s.words]
        keys = "/".join(s.words[0] for s in self.subs if s.words)
        head = f".{self.name} <{keys}> …"
        return " | ".join([*(s.usage(self.name) for s in default), head])

    def sub(
        self,
        *words: str,
        params: Sequence[Param] = (),
        flags: Sequence[Flag] = (),
        help: str = "",
        perm: Perm = Perm.ANYONE,
        what: str = "",
        group_only: bool = False,
        when_empty: bool = False,
    ) -> Callable[[Handler], Handler]:
        """Decorator: declare a sub-command of this command."""

        def deco(fn: Handler) -> Handler:
            for w in words:
                for other in self.subs:
                    if any(w.lower() == x.lower() for x in other.words):
                        raise ValueError(f".{self.name}: sub-command word {w!r} declared twice")
            self.subs.append(
                Sub(
                    words=tuple(words),
                    handler=fn,
                    params=tuple(params),
                    flags=tuple(flags),
                    help=help,
                    perm=perm,
                    what=what or (words[0] if words else self.name),
                    group_only=group_only or self.group_only,
                    when_empty=when_empty,
                )
            )
            return fn

        return deco

    # -------------------------------------------------------------- selection and parsing
    def find_sub(self, word: str) -> Sub | None:
        low = word.lower()
        return next((s for s in self.subs if any(w.lower() == low for w in s.words)), None)

    def _keyword(self, text: str) -> tuple[Sub, int] | None:
        best: tuple[Sub, int] | None = None
        for s in self.subs:
            for w in s.words:
                if match_word(text, 0, w) and (best is None or len(w) > best[1]):
                    best = (s, len(w))
        return best

    def accepts_glued(self, text: str) -> bool:
        """Whether ``text`` glued to the root (no space) can start this command's arguments."""
        if self._keyword(text) is not None:
            return True
        for s in self.subs:
            if not s.words and can_start(text, s.params, s.flags):
                return True
        return False

    def select(self, text: str, mentions: Sequence[str] = ()) -> tuple[Sub, dict[str, Any]]:
        """The sub-command and its typed arguments for ``text`` (the normalised argument).

        Raises :class:`InputSyntaxError` naming the bad token and showing that form."""
        text = text.strip()
        default = next((s for s in self.subs if not s.words), None)
        if not text:
            empty = next((s for s in self.subs if s.when_empty), None)
            if empty is not None:
                return empty, self._parse(empty, "", mentions)
        hit = self._keyword(text)
        if hit is not None:
            sub, n = hit
            try:
                return sub, self._parse(sub, text[n:], mentions)
            except InputSyntaxError:
                if default is None:
                    raise
                try:  # a name that merely starts like a keyword (``图书管理员:力量 100``)
                    return default, self._parse(default, text, mentions)
                except InputSyntaxError:
                    pass
                raise
        if default is None:
            word = text.split()[0][:12] if text else ""
            keys = "/".join(s.words[0] for s in self.subs if s.words)
            if not word:
                raise InputSyntaxError(f"请写出要做什么（{keys}）", usage=self.usage)
            hint = f"可用：{keys}" if len(keys) <= 40 else f".help {self.name} 查看全部"
            raise InputSyntaxError(f"「{word}」不是 .{self.name} 的子命令（{hint}）", usage=self.usage)
        return default, self._parse(default, text, mentions)

    def _parse(self, sub: Sub, text: str, mentions: Sequence[str]) -> dict[str, Any]:
        return parse_args(text.strip(), sub.params, sub.flags, mentions=mentions, usage=sub.usage(self.name))

    def help_text(self, word: str = "") -> str:
        """The help of one sub-command (``word``), or of the whole command: every page of
        :func:`~chronodice.core.help_pages.help_pages` joined, without page footers."""
        if word:
            sub = self.find_sub(word)
            if sub is not None:
                lines = [(sub.help or self.summary) + sub.perm.tag, "格式：" + sub.usage(self.name)]
                if len(sub.words) > 1:
                    lines.append("别名：" + " ".join(sub.words[1:]))
                return "\n".join(lines)
        return "\n".join(help_lines(self))


@dataclass(frozen=True)
class Routed:
    """A routed message: which spec, the root as typed, and the normalised argument."""

    spec: CommandSpec
    root: str
    args: str
    raw_args: str
    bare: bool = False
    """A private message that was no command, rewritten into one (:attr:`CommandRegistry.bare_private`)."""

    @property
    def name(self) -> str:
        return self.spec.name


def fold_root(text: str) -> str:
    """Full-width letters and digits → ASCII, for matching roots (``ＲＨ`` → ``RH``)."""
    return "".join(chr(ord(c) - 0xFEE0) if "！" <= c <= "～" else c for c in text)


@dataclass
class CommandRegistry:
    """All commands, with longest-first, case-insensitive routing."""

    specs: dict[str, CommandSpec] = field(default_factory=dict)
    _roots: list[tuple[str, CommandSpec]] = field(default_factory=list)
    _by_root: dict[str, CommandSpec] | None = field(default=None, repr=False)
    _lengths: list[int] = field(default_factory=list, repr=False)
    bare_private: list[Callable[[str], str | None]] = field(default_factory=list)
    """Rewrites of a private message that is no command into one (萌E: a bare ``2`` answers the
    open prompt, as ``.moe 答 2``); ``None``: not theirs."""
    prefixes: tuple[str, ...] = PREFIXES
    """What starts a command, longest first (:meth:`set_prefixes`)."""

    def set_prefixes(self, prefixes: Iterable[str]) -> None:
        """Commands start with one of ``prefixes`` (empty ones are dropped: a message without a
        prefix is never a command here, whatever a host bot allows); ``.`` stays the form the
        bot's own rewrites and help texts use."""
        chosen = {p for p in prefixes if p and not p.isspace()}
        self.prefixes = tuple(sorted(chosen, key=len, reverse=True)) or PREFIXES

    def _body(self, text: str) -> str | None:
        """``text`` without its prefix, or ``None`` when it starts with none."""
        for prefix in self.prefixes:
            if text.startswith(prefix):
                return text[len(prefix) :].lstrip()
        return None

    def route_private(self, text: str) -> Routed | None:
        """:meth:`route` for a private chat: a command, else the first ``bare_private`` rewrite."""
        routed = self.route(text)
        if routed is not None:
            return routed
        for rewrite in self.bare_private:
            command = rewrite(text)
            if command is not None:
                routed = self._route_body(command.lstrip().removeprefix(".").lstrip())
                return replace(routed, bare=True) if routed is not None else None
        return None

    def add(self, spec: CommandSpec) -> None:
        for root in spec.roots:
            key = root.lower()
            for existing, other in self._roots:
                if existing == key and other.name != spec.name:
                    raise ValueError(f"command root {root!r} already used by {other.name!r}")
        self.specs[spec.name] = spec
        self._roots = [(r, s) for r, s in self._roots if s.name != spec.name]
        self._roots.extend((r.lower(), spec) for r in spec.roots)
        self._roots.sort(key=lambda item: len(item[0]), reverse=True)
        self._by_root = None  # the routing index is rebuilt on the next route

    def get(self, name: str) -> CommandSpec | None:
        """Find a spec by any of its roots, ignoring case and a leading prefix."""
        key = fold_root(name.strip())
        while key and (stripped := self._body(key)) is not None:
            key = stripped
        key = key.lower()
        for root, spec in self._roots:
            if root == key:
                return spec
        return None

    def route(self, text: str) -> Routed | None:
        body = self._body(text.lstrip())
        return None if body is None else self._route_body(body)

    def _route_body(self, body: str) -> Routed | None:
        low = fold_root(body[:24]).lower()
        if self._by_root is None:
            self._by_root = {}
            for known, owner in self._roots:
                self._by_root.setdefault(known, owner)
            self._lengths = sorted({len(r) for r in self._by_root}, reverse=True)
        for n in self._lengths:  # longest root first
            if n > len(low):
                continue
            root = low[:n]
            spec = self._by_root.get(root)
            if spec is None:
                continue
            raw = body[n:]
            args = normalize(raw)
            nxt = raw[:1]
            if nxt and root[-1:].isascii() and root[-1:].isalnum():
                folded = fold_root(nxt)
                foreign = is_ascii_letter(folded) or (is_ascii_digit(folded) and n < 2)
                if foreign and not spec.accepts_glued(args):
                    continue  # ``.ra``: not ``.r`` + ``a`` — maybe a shorter root, else not ours
            return Routed(spec=spec, root=body[:n], args=args, raw_args=raw.strip())
        return None

    def by_system(self) -> dict[str, list[CommandSpec]]:
        """Commands grouped by system, systems in :data:`SYSTEM_ORDER` (others after, by name)."""
        out: dict[str, list[CommandSpec]] = {}
        for spec in self.specs.values():
            out.setdefault(spec.system, []).append(spec)
        rank = {s: i for i, s in enumerate(SYSTEM_ORDER)}
        return dict(sorted(out.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))


REGISTRY = CommandRegistry()
"""The process-wide registry that service modules add their commands to on import."""

NO_UNDO_SYSTEMS: set[str] = set()
"""Session systems the common ``.undo`` must never revert (a card game: undoing a move after
seeing hidden cards would be cheating).  Services add their system name on import."""

UNDO_HIDDEN: dict[str, Callable[[Any], bool]] = {}
"""Per session system: whether a stored state holds something the group may not see (a D20
combat with a hidden NPC).  ``.undo`` then names the undone command only by private message,
since its text may carry a hidden name or number.  Services register on import."""


def define(
    name: str,
    *,
    summary: str,
    detail: str = "",
    aliases: Iterable[str] = (),
    system: str = "通用",
    works_when_off: bool = False,
    group_only: bool = False,
    registry: CommandRegistry | None = None,
    resolve: Resolver | None = None,
) -> CommandSpec:
    """Declare a command and add it to ``REGISTRY`` (or ``registry``); add forms with ``.sub``."""
    spec = CommandSpec(
        name=name,
        summary=summary,
        detail=detail,
        aliases=tuple(aliases),
        system=system,
        works_when_off=works_when_off,
        group_only=group_only,
        resolve=resolve,
    )
    (registry or REGISTRY).add(spec)
    return spec


__all__ = [
    "NO_UNDO_SYSTEMS",
    "PREFIXES",
    "REGISTRY",
    "SYSTEM_ORDER",
    "UNDO_HIDDEN",
    "Call",
    "CommandRegistry",
    "CommandSpec",
    "Resolver",
    "Routed",
    "Sub",
    "define",
    "player_name",
    "sender_name",
]
