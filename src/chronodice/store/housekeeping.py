"""Upkeep of the store: deleting what nothing needs any more (:meth:`HousekeepingStore.prune`)
and the short-lived values of pending confirmations (table ``pending``).

The clock is read as ``common.utcnow()``: replacing :func:`chronodice.store.common.utcnow`
(as the guide generator does) fixes it here too."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Text, bindparam, cast, delete, or_, select

from . import common, tables
from . import patch as jpatch
from . import session_rows as srows
from .common import Claim, StorePart, json_value
from .states import StateCache
from .tables import upsert, written
from .tx import Tx

T = TypeVar("T")

_p, _s, _log, _KEY = tables.pending, tables.sessions, tables.session_log, bindparam("key")
PENDING = select(tables.json_text(_p.c.value), _p.c.expires_at).where(_p.c.key == _KEY).with_for_update()
PENDING_DEL = delete(_p).where(_p.c.key == _KEY)
_PENDING = written("key", "expires_at", value=tables.text_param("value"))
PENDING_PUT = tables.per_dialect(lambda d: upsert(d, _p, _PENDING, ["key"], "value", "expires_at"))


class HousekeepingStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`: prune and confirmations."""

    if TYPE_CHECKING:
        _states: StateCache

        async def _retry(
            self, attempt: Callable[[], Awaitable[T]], what: str, *, retry_conflict: bool = True
        ) -> T: ...
        async def _lease_tx(self, body: Callable[[Tx], Awaitable[T]]) -> T: ...

    async def prune(
        self, *, ended_for: float = 7 * 86400, claims_for: float = 2 * 86400, now: datetime | None = None
    ) -> dict[str, int]:
        """Delete what nothing needs any more: event claims and leases older than ``claims_for``
        seconds, and sessions ended (state ``None``) more than ``ended_for`` seconds ago with
        their log (``.undo`` of the ending works until then)."""
        now = now or common.utcnow()
        old = now.timestamp() - claims_for
        cutoff = (now - timedelta(seconds=ended_for)).astimezone(timezone.utc)
        claims_t, leases_t = tables.event_claims, tables.bot_leases
        ended = or_(_s.c.state.is_(None), cast(_s.c.state, Text) == "null")  # (a JSON null)

        async def body(tx: Tx) -> dict[str, int]:
            claims = await tx.run(delete(claims_t).where(claims_t.c.claimed_at < old))
            leases = await tx.run(delete(leases_t).where(leases_t.c.expires_at < old))
            sessions = await tx.all(
                select(_s.c.scope, _s.c.system, _s.c.version).where(ended, _s.c.updated_at < cutoff)
            )
            logs = 0
            pruned.extend(scope for scope, _, _ in sessions)
            for scope, system, version in sessions:
                logs += await tx.run(delete(_log).where(_log.c.scope == scope, _log.c.system == system))
                n = await tx.run(
                    delete(_s).where(_s.c.scope == scope, _s.c.system == system, _s.c.version == version)
                )
                if n:  # an ended session holds no rows; this keeps it so should one be left
                    await srows.drop_items(tx, scope, system)
            return {"claims": claims, "leases": leases, "sessions": len(sessions), "log_rows": logs}

        pruned: list[str] = []
        try:
            return await self._retry(lambda: self._lease_tx(body), "清理")
        finally:
            for scope in pruned:
                self._states.changed(scope)

    async def put_pending(
        self, key: str, value: dict[str, Any], ttl: float, *, claim: Claim | None = None
    ) -> None:
        expires = common.utcnow() + timedelta(seconds=ttl)
        new = {"key": key, "value": jpatch.dumps(value), "expires_at": expires}

        async def body(tx: Tx) -> None:
            await tx.run(PENDING_PUT[tx.dialect], new)

        await self._write(body, "确认", claim=claim)

    async def take_pending(self, key: str, *, claim: Claim | None = None) -> dict[str, Any] | None:
        """Remove and return a pending value if it has not expired."""

        async def body(tx: Tx) -> tuple[Any, Any] | None:
            row = await tx.one(PENDING, {"key": key})
            if row is None:
                return None
            await tx.run(PENDING_DEL, {"key": key})
            return row[0], row[1]

        got = await self._write(body, "确认", claim=claim)
        if got is None:
            return None
        expires = self._backend.dt_out(got[1])
        if expires is not None and expires < common.utcnow():
            return None
        return json_value(got[0])
