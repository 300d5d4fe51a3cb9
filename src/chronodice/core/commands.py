"""Command definitions and the router.

Every command is declared once, as a :class:`CommandSpec`; the router, ``.help`` and the README
command list are all generated from these specs, so help never drifts from behaviour.

Routing rules (README "Commands"):

* prefixes ``.``, ``。`` and ``．``; spaces after the prefix are allowed;
* command names are case-insensitive and matched longest first (``.rh`` before ``.r``);
* the argument may follow the name without a space (``.r3d6``, ``.ex力量``);
* unknown commands give ``None`` (other bots share the group).

>>> reg = CommandRegistry()
>>> async def h(call): return []
>>> reg.add(CommandSpec("r", h, usage=".r [表达式] [理由]", summary="掷骰"))
>>> reg.add(CommandSpec("rh", h, usage=".rh [表达式]", summary="暗骰"))
>>> reg.route("。RH3d6 偷看").name, reg.route("。RH3d6 偷看").args
('rh', '3d6 偷看')
>>> reg.route(". r 1d20").args
'1d20'
>>> reg.route("hello") is None, reg.route(".xyz") is None
(True, True)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .text import normalize

if TYPE_CHECKING:
    from .context import Context
    from .reply import Reply

PREFIXES: tuple[str, ...] = (".", "。", "．")

Handler = Callable[["Call"], Awaitable[list["Reply"]]]


@dataclass(frozen=True)
class CommandSpec:
    """One command.

    ``name`` is the canonical root (``"r"``), ``aliases`` other roots matched the same way
    (``"TLsetup"`` may have ``"tlsetup"`` — case is folded anyway).  ``usage`` is the right form,
    shown on bad input; ``summary`` one line for the command list; ``detail`` the rest of the help.
    ``works_when_off`` lets the command run while the bot is switched off in the group.
    ``system`` groups commands in ``.help``.
    """

    name: str
    handler: Handler
    usage: str
    summary: str
    detail: str = ""
    aliases: tuple[str, ...] = ()
    system: str = "通用"
    works_when_off: bool = False
    group_only: bool = False

    @property
    def roots(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    def help_text(self) -> str:
        lines = [f"{self.usage}", self.summary]
        if self.aliases:
            lines.append("别名：" + " ".join("." + a for a in self.aliases))
        if self.detail:
            lines.append(self.detail)
        return "\n".join(lines)


@dataclass(frozen=True)
class Routed:
    """A routed message: which spec, the root as typed, and the normalised argument."""

    spec: CommandSpec
    root: str
    args: str
    raw_args: str

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class CommandRegistry:
    """All commands, with longest-first, case-insensitive routing."""

    specs: dict[str, CommandSpec] = field(default_factory=dict)
    _roots: list[tuple[str, CommandSpec]] = field(default_factory=list)

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

    def extend(self, specs: Iterable[CommandSpec]) -> None:
        for spec in specs:
            self.add(spec)

    def get(self, name: str) -> CommandSpec | None:
        """Find a spec by any of its roots, ignoring case and a leading prefix."""
        key = name.strip()
        while key[:1] in PREFIXES and key:
            key = key[1:]
        key = key.lower()
        for root, spec in self._roots:
            if root == key:
                return spec
        return None

    def route(self, text: str) -> Routed | None:
        text = text.lstrip()
        if not text or text[0] not in PREFIXES:
            return None
        body = text[1:].lstrip()
        low = body.lower()
        for root, spec in self._roots:
            if low.startswith(root):
                raw = body[len(root) :]
                return Routed(spec=spec, root=body[: len(root)], args=normalize(raw), raw_args=raw.strip())
        return None

    def by_system(self) -> dict[str, list[CommandSpec]]:
        out: dict[str, list[CommandSpec]] = {}
        for spec in self.specs.values():
            out.setdefault(spec.system, []).append(spec)
        return out


REGISTRY = CommandRegistry()
"""The process-wide registry that service modules add their commands to on import."""

NO_UNDO_SYSTEMS: set[str] = set()
"""Session systems the common ``.undo`` must never revert (a card game: undoing a move after
seeing hidden cards would be cheating).  Services add their system name on import."""


def command(
    name: str,
    *,
    usage: str,
    summary: str,
    detail: str = "",
    aliases: Iterable[str] = (),
    system: str = "通用",
    works_when_off: bool = False,
    group_only: bool = False,
    registry: CommandRegistry | None = None,
) -> Callable[[Handler], Handler]:
    """Decorator: declare a command and add it to ``REGISTRY`` (or ``registry``)."""

    def deco(fn: Handler) -> Handler:
        (registry or REGISTRY).add(
            CommandSpec(
                name=name,
                handler=fn,
                usage=usage,
                summary=summary,
                detail=detail,
                aliases=tuple(aliases),
                system=system,
                works_when_off=works_when_off,
                group_only=group_only,
            )
        )
        return fn

    return deco


@dataclass
class Call:
    """Everything a handler gets: the sender's context, the argument and the application."""

    ctx: Context
    args: str
    app: Any
    """The :class:`chronodice.app.App` (typed ``Any`` here to keep core free of imports)."""
    root: str = ""
    raw_args: str = ""
    spec: CommandSpec | None = None
    view: Any = None
    """The :class:`chronodice.store.ContextView` read by the dispatcher before the handler ran
    (group, nickname, active character) — a snapshot; re-read from the store before writing."""

    @property
    def name(self) -> str:
        """What replies call the sender: ``.nn`` nickname, else the platform name, else the id."""
        nick = self.view.nickname if self.view is not None else None
        return nick or self.ctx.sender_name or self.ctx.user_id

    @property
    def command_text(self) -> str:
        """The command as typed, canonicalised (``.bat 力量 3t``) — for session logs and ``.undo``."""
        name = self.spec.name if self.spec else self.root
        return f".{name} {self.raw_args}".strip()

    def usage_error(self, message: str) -> Exception:
        """An :class:`InputSyntaxError` carrying this command's usage."""
        from .errors import InputSyntaxError

        return InputSyntaxError(message, usage=self.spec.usage if self.spec else None)
