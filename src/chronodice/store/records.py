"""Plain records the store hands out: no SQLAlchemy objects leave the package."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class CharacterRecord:
    """A character card.  ``attributes``: name → number (``.st``); ``data``: per-system JSON."""

    id: int
    owner_id: str
    system: str
    name: str
    attributes: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    created_at: datetime | None = None
    updated_at: datetime | None = None


@dataclass(frozen=True)
class GroupRecord:
    """A group's switch, settings and appointed GMs (defaults when the group is new)."""

    group_id: str
    enabled: bool = True
    settings: dict[str, Any] = field(default_factory=dict)
    gms: tuple[str, ...] = ()
    version: int = 0


@dataclass(frozen=True)
class LogEntry:
    """One applied session command."""

    id: int
    scope: str
    system: str
    user_id: str
    command: str
    version_after: int
    undone: bool
    created_at: datetime | None


@dataclass(frozen=True)
class UndoResult:
    """What ``.undo`` reverted."""

    system: str
    command: str
    user_id: str
    state: dict[str, Any] | None
    replaced: dict[str, Any] | None = None
    """The state the undo replaced (what the undone command had made)."""
    restored_characters: tuple[str, ...] = ()
    """Names of the character cards put back as they were before the command."""
    stale_characters: tuple[str, ...] = ()
    """Names of cards changed again since the command: left as they are."""


@dataclass(frozen=True)
class ContextView:
    """What the chat edge reads once per command, in one statement: the group (None in
    private), the sender's nickname and active character, and the group's log in progress."""

    group: GroupRecord | None
    nickname: str | None
    character: CharacterRecord | None
    log: LogInProgress | None = None


@dataclass(frozen=True)
class LogInProgress:
    """What the chat edge needs of a group's ``.log`` in progress: whether it records a
    message, into which log, and its name (for the notice when it fills up)."""

    id: int
    name: str
    recording: bool


@dataclass(frozen=True)
class GameLog:
    """A ``.log`` record of a group; in progress while ``ended_at`` is None."""

    id: int
    group_id: str
    name: str
    creator_id: str
    recording: bool
    lines: int
    created_at: datetime | None
    ended_at: datetime | None = None

    @property
    def in_progress(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True)
class LogLine:
    """One recorded message: ``parts`` as ``[kind, value]`` pairs (text, at, image, face …);
    ``check`` the bot reply's check note (label, outcome, success, user_id, name) or None."""

    user_id: str
    nickname: str
    parts: list[Any]
    created_at: datetime | None
    is_bot: bool = False
    check: dict[str, Any] | None = None
    self_id: str = ""
    message_id: str | None = None
    id: int = 0
