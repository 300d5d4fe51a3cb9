"""What the parts of the store share: its errors, the claim of a delivered event (exactly
once, see :class:`Claim`) and JSON helpers."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from chronodice.core.clock import SYSTEM
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
class Claim:
    """One delivered event (bot account ``self_id``, ``message_id``), handed by the caller to
    each write of the command it carries (``claim=``): the first write that commits inserts
    ``(self_id, message_id)`` into ``event_claims`` in its own transaction, so a second delivery
    (this or another process, also after a restart) raises :class:`DuplicateEvent` there and
    writes nothing; the later writes of the same command claim nothing more."""

    self_id: str
    message_id: str
    claimed: bool = False
    """Set once a write claimed it (the command's later writes then claim nothing)."""
    began: float = field(default_factory=SYSTEM.monotonic)
    """When the event came in (``SYSTEM.monotonic()``): a write that changes nothing needs no
    statement when the row is known to be as it was since then."""

    def pending(self) -> Claim | None:
        """This claim while no write has made it yet, else None."""
        return None if self.claimed else self


def claim_params(ev: Claim) -> dict[str, Any]:
    """The parameters of an event claim (``claim_self_id``, ``claim_message_id``, ``claim_at``)
    that the claim statement and the one-statement writes insert."""
    return {"claim_self_id": ev.self_id, "claim_message_id": ev.message_id, "claim_at": SYSTEM.timestamp()}


def utcnow() -> datetime:
    return SYSTEM.wall()


def json_value(value: Any) -> Any:
    """A JSON column's value (text on both drivers) as Python data."""
    if value is None:
        return None
    if isinstance(value, str | bytes):
        return json.loads(value)
    return value


def to_json_text(value: Any) -> str | None:
    return None if value is None else jpatch.dumps(value)


def clone_json(value: Any) -> Any:
    """A deep copy of JSON data."""
    if value is None:
        return None
    return json.loads(jpatch.dumps(value))


def stored_text(value: Any) -> str | None:
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
        async def _once(self, sql: str, args: list[Any], claim: Claim | None = None) -> int: ...
