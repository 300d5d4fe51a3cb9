"""What a command's handler gets: :class:`Call` (the sender's context, the arguments, the
application, the view the dispatcher read, the event's claim), and the names replies give the
sender.  Declaring and routing commands is :mod:`.commands`' part."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import InputSyntaxError
from .text import safe_name

if TYPE_CHECKING:
    from .commands import CommandSpec, Sub
    from .context import Context


def sender_name(view: Any, ctx: Context) -> str:
    """What replies call the sender of ``ctx``: the ``.nn`` nickname in ``view`` (a
    :class:`chronodice.store.ContextView`, or None), else the platform name, else the id."""
    nick = view.nickname if view is not None else None
    return safe_name(nick or ctx.sender_name or ctx.user_id)


def player_name(view: Any, ctx: Context) -> str:
    """What checks call the sender (SealDice's player name): the card in use in ``view``, else
    :func:`sender_name`."""
    char = view.character if view is not None else None
    return safe_name(char.name) if char is not None else sender_name(view, ctx)


@dataclass
class Call:
    """Everything a handler gets: the sender's context, the argument and the application."""

    ctx: Context
    args: str
    app: Any
    """The :class:`chronodice.app.App` (typed ``Any`` here to keep core free of imports)."""
    root: str = ""
    raw_args: str = ""
    bare: bool = False
    """The message was no command but a bare private answer rewritten into one (萌E's ``2``)."""
    spec: CommandSpec | None = None
    view: Any = None
    """The :class:`chronodice.store.ContextView` read by the dispatcher before the handler ran
    (group, nickname, active character) — a snapshot; re-read from the store before writing."""
    sub: Sub | None = None
    claim: Any = None
    """The delivered event's :class:`chronodice.store.Claim` (None when no event carries the
    command: a test, a tool): every store write of the command is given it (``claim=``), so a
    second delivery writes nothing."""
    session: dict[str, Any] = field(default_factory=dict)
    """What this command read or wrote of its session, by system: a command that needs its
    session again (a guard that looks at the replies after the handler) takes it from here
    instead of reading and parsing it a second time."""

    @property
    def name(self) -> str:
        """What replies call the sender: ``.nn`` nickname, else the platform name, else the id."""
        return sender_name(self.view, self.ctx)

    @property
    def player_name(self) -> str:
        """What rolls call the sender (SealDice's player name): the name of their card in use
        here, from the view the dispatcher read (no store read), else :attr:`name`."""
        return player_name(self.view, self.ctx)

    @property
    def command_text(self) -> str:
        """The command as typed, canonicalised (``.bat 力量 3t``) — for session logs and ``.undo``."""
        name = self.spec.name if self.spec else self.root
        return f".{name} {self.raw_args}".strip()

    @property
    def usage(self) -> str:
        """The right form of what was typed: the sub-command's usage, else the command's."""
        if self.spec is None:
            return ""
        if self.sub is not None:
            return self.sub.usage(self.spec.name)
        return self.spec.usage

    def usage_error(self, message: str) -> Exception:
        """An :class:`InputSyntaxError` carrying this sub-command's usage."""
        return InputSyntaxError(message, usage=self.usage or None)


__all__ = ["Call", "player_name", "sender_name"]
