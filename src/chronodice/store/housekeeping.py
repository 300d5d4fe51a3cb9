"""Upkeep of the store: deleting what nothing needs any more (:meth:`HousekeepingStore.prune`)
and the short-lived values of pending confirmations (table ``pending``).

The clock is read as ``common.utcnow()``: replacing :func:`chronodice.store.common.utcnow`
(as the guide generator does) fixes it here too."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from . import common
from . import patch as jpatch
from . import session_rows as srows
from .common import _EVENT, StorePart, _j
from .states import StateCache
from .tx import Tx

T = TypeVar("T")


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
        wall = now.timestamp()
        cutoff = self._backend.dt_in(now - timedelta(seconds=ended_for))
        ended = (
            "(state IS NULL OR state = 'null')"
            if self.dialect == "sqlite"
            else "(state IS NULL OR state::text = 'null')"
        )

        async def body(tx: Tx) -> dict[str, int]:
            claims = await tx.run("DELETE FROM event_claims WHERE claimed_at < $1", wall - claims_for)
            leases = await tx.run("DELETE FROM bot_leases WHERE expires_at < $1", wall - claims_for)
            sessions = await tx.all(
                f"SELECT scope, system, version FROM sessions WHERE {ended} AND updated_at < $1", cutoff
            )
            logs = 0
            pruned.extend(scope for scope, _, _ in sessions)
            for scope, system, version in sessions:
                logs += await tx.run(
                    "DELETE FROM session_log WHERE scope = $1 AND system = $2", scope, system
                )
                n = await tx.run(
                    "DELETE FROM sessions WHERE scope = $1 AND system = $2 AND version = $3",
                    scope,
                    system,
                    version,
                )
                if n:  # an ended session holds no rows; this keeps it so should one be left
                    await srows.drop_items(tx, scope, system)
            return {"claims": claims, "leases": leases, "sessions": len(sessions), "log_rows": logs}

        pruned: list[str] = []
        ev = _EVENT.set(None)
        try:
            return await self._retry(lambda: self._lease_tx(body), "清理")
        finally:
            _EVENT.reset(ev)
            for scope in pruned:
                self._states.changed(scope)

    async def put_pending(self, key: str, value: dict[str, Any], ttl: float) -> None:
        expires = self._backend.dt_in(common.utcnow() + timedelta(seconds=ttl))

        async def body(tx: Tx) -> None:
            await tx.run(
                "INSERT INTO pending (key, value, expires_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
                key,
                jpatch.dumps(value),
                expires,
            )

        await self._write(body, "确认")

    async def take_pending(self, key: str) -> dict[str, Any] | None:
        """Remove and return a pending value if it has not expired."""

        async def body(tx: Tx) -> tuple[Any, Any] | None:
            row = await tx.one("SELECT value, expires_at FROM pending WHERE key = $1" + tx.for_update, key)
            if row is None:
                return None
            await tx.run("DELETE FROM pending WHERE key = $1", key)
            return row[0], row[1]

        got = await self._write(body, "确认")
        if got is None:
            return None
        expires = self._backend.dt_out(got[1])
        if expires is not None and expires < common.utcnow():
            return None
        return _j(got[0])
