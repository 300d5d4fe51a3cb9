"""SQLAlchemy models: the one shared store of users, groups, characters and session state.

Every table is created by the Alembic migrations in ``migrations/``; a test checks that the
migrations and these models agree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from chronodice.core.clock import SYSTEM

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return SYSTEM.wall()


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Nickname(Base):
    """``.nn``: what replies call a user, per group (``scope``) or everywhere (``scope=""``)."""

    __tablename__ = "nicknames"
    user_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    scope: Mapped[str] = mapped_column(String(40), primary_key=True, default="")
    name: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class Group(Base):
    """A group (or a private chat scope) and its settings."""

    __tablename__ = "groups"
    group_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    version: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class GroupGM(Base):
    """A GM appointed in a group with ``.gm add``."""

    __tablename__ = "group_gms"
    group_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    appointed_by: Mapped[str] = mapped_column(String(32), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Character(Base):
    """A character card: belongs to a user, usable in any group."""

    __tablename__ = "characters"
    __table_args__ = (UniqueConstraint("owner_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    owner_id: Mapped[str] = mapped_column(String(32), index=True)
    system: Mapped[str] = mapped_column(String(20), default="generic")
    name: Mapped[str] = mapped_column(String(64))
    attributes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class Binding(Base):
    """The active character of a user in a scope (``scope=""``: the user's default)."""

    __tablename__ = "bindings"
    user_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    scope: Mapped[str] = mapped_column(String(40), primary_key=True)
    character_id: Mapped[int] = mapped_column(Integer)


class Session(Base):
    """Per-scope, per-system session state (a battle, a combat, a game): JSON + version."""

    __tablename__ = "sessions"
    scope: Mapped[str] = mapped_column(String(40), primary_key=True)
    system: Mapped[str] = mapped_column(String(20), primary_key=True)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class SessionRow(Base):
    """An item of a list that only grows in a session (a battle's actions and events), one per
    row: see :mod:`chronodice.store.session_rows`."""

    __tablename__ = "session_rows"
    scope: Mapped[str] = mapped_column(String(40), primary_key=True)
    system: Mapped[str] = mapped_column(String(20), primary_key=True)
    field: Mapped[str] = mapped_column(String(20), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    item: Mapped[str] = mapped_column(Text)


class SessionLog(Base):
    """Append-only log of applied session commands: audit trail, replay and ``.undo``."""

    __tablename__ = "session_log"
    __table_args__ = (Index("ix_session_log_scope_id", "scope", "id"),)
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    scope: Mapped[str] = mapped_column(String(40))
    system: Mapped[str] = mapped_column(String(20))
    user_id: Mapped[str] = mapped_column(String(32), default="")
    command: Mapped[str] = mapped_column(Text, default="")
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The whole state before the command — only where ``patch`` is NULL."""
    characters_before: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """Character cards the command changed, as they were before: restored by ``.undo``."""
    version_after: Mapped[int] = mapped_column(Integer)
    patch: Mapped[Any | None] = mapped_column(JSON, nullable=True)
    """Reverse patch (state after → state before, see ``chronodice.store.patch``); when it is
    NULL, ``before`` holds the whole state before (old rows, or where a patch is not shorter)."""
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Pending(Base):
    """A pending confirmation (``.pc del``, ``.dismiss``) with an expiry."""

    __tablename__ = "pending"
    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    value: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventClaim(Base):
    """An event (bot account, message id) already applied: a second delivery is ignored."""

    __tablename__ = "event_claims"
    __table_args__ = (Index("ix_event_claims_claimed_at", "claimed_at"),)
    self_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    message_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    claimed_at: Mapped[float] = mapped_column(Float)
    """Unix time, for pruning."""


class BotLease(Base):
    """Which bot account answers in a group (several accounts in one group: exactly one)."""

    __tablename__ = "bot_leases"
    scope: Mapped[str] = mapped_column(String(40), primary_key=True)
    self_id: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[float] = mapped_column(Float)
    """Unix time; the holder renews it while it keeps seeing messages in the group."""


class GameLog(Base):
    """A ``.log`` session record of a group: at most one per group is in progress
    (``ended_at`` NULL); ``recording`` false while paused (``.log off``)."""

    __tablename__ = "game_logs"
    __table_args__ = (UniqueConstraint("group_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    group_id: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(64))
    creator_id: Mapped[str] = mapped_column(String(32), default="")
    recording: Mapped[bool] = mapped_column(Boolean, default=True)
    lines: Mapped[int] = mapped_column(Integer, default=0)
    """How many lines it holds (kept with each insert, checked against the limit)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class GameLogLine(Base):
    """One message of a ``.log``: a player's chatter or command, or the bot's reply."""

    __tablename__ = "game_log_lines"
    __table_args__ = (
        UniqueConstraint("log_id", "self_id", "message_id"),
        Index("ix_game_log_lines_log_id_id", "log_id", "id"),
    )
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    log_id: Mapped[int] = mapped_column(Integer)
    self_id: Mapped[str] = mapped_column(String(32), default="")
    message_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """With ``self_id``: an event delivered twice is recorded once."""
    user_id: Mapped[str] = mapped_column(String(32))
    nickname: Mapped[str] = mapped_column(String(64), default="")
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    parts: Mapped[list[Any]] = mapped_column(JSON, default=list)
    """The message as ``[kind, value]`` pairs: text, at (a name), image (URL or file id), face."""
    check_note: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """A bot reply's check (``Reply.check`` + the player it was for), counted by ``.log stat``."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
