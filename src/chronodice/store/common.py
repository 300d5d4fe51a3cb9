"""What the parts of the store share: its errors, the event of the command being handled
(exactly once, see :meth:`~chronodice.store.database.Store.event`) and JSON helpers."""

from __future__ import annotations

import contextvars
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

from chronodice.core.errors import ChronoDiceError

from . import patch as jpatch

if TYPE_CHECKING:
    from .backends import Backend, Tx

T = TypeVar("T")


class StoreBusy(ChronoDiceError):
    """The database stayed busy through every retry."""


class UndoOvertaken(ChronoDiceError):
    """``.undo`` found a newer command than the one its permission check approved: nothing was
    reverted.  The message names no command (it may concern a hidden NPC)."""

    def __init__(self, command: str = "") -> None:
        super().__init__("刚才又有一条新的操作，撤销没有执行；请看清最新的局面后再发 .undo")
        self.command = command


class DuplicateEvent(Exception):
    """This event (same bot account, same message id) was already handled (applied, or refused
    inside a write): stay silent."""


@dataclass
class _Event:
    self_id: str
    message_id: str
    claimed: bool = False
    began: float = field(default_factory=time.monotonic)


_EVENT: contextvars.ContextVar[_Event | None] = contextvars.ContextVar("chronodice_event", default=None)


def claim_params(ev: _Event) -> dict[str, Any]:
    """The parameters of an event claim (``claim_self_id``, ``claim_message_id``, ``claim_at``)
    that the claim statement and the one-statement writes insert."""
    return {"claim_self_id": ev.self_id, "claim_message_id": ev.message_id, "claim_at": time.time()}


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _j(value: Any) -> Any:
    """A JSON column's value (text on both drivers) as Python data."""
    if value is None:
        return None
    if isinstance(value, str | bytes):
        return json.loads(value)
    return value


def _jtext(value: Any) -> str | None:
    return None if value is None else jpatch.dumps(value)


def _clone(value: Any) -> Any:
    """A deep copy of JSON data."""
    if value is None:
        return None
    return json.loads(jpatch.dumps(value))


def _text(value: Any) -> str | None:
    """A JSON column's stored text (both drivers return text; bytes or data are normalised)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode()
    return jpatch.dumps(value)


class StorePart:
    """Base of the parts mixed into :class:`~chronodice.store.database.Store`: what they use of
    it (for type checkers)."""

    if TYPE_CHECKING:
        _backend: Backend
        _cache: Any
        _cache_on: bool
        dialect: str

        def _cache_ok(self) -> bool: ...
        async def _cached(
            self, table: dict[Any, Any], key: Any, tx: Tx | None, body: Callable[[Tx], Awaitable[T]]
        ) -> T: ...
        async def _read(self, body: Callable[[Tx], Awaitable[T]]) -> T: ...
        async def _write(self, body: Callable[[Tx], Awaitable[T]], what: str, **options: Any) -> T: ...
        async def _once(self, sql: str, args: list[Any], claim: _Event | None = None) -> int: ...
