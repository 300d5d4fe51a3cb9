"""Upkeep of the store (``store.housekeeping``): deleting what nothing needs any more (:meth:`HousekeepingStore.prune`)
and the short-lived values of pending confirmations (table ``pending``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any, TypeVar

from sqlalchemy import Text, bindparam, cast, delete, or_, select

from . import patch as jpatch
from . import session_rows as srows
from . import tables
from .db import Claim, Database, Tx
from .tables import json_value, upsert, written

T = TypeVar("T")

_p, _s, _log = tables.pending, tables.sessions, tables.session_log
_KEY: Any = bindparam("key")
PENDING = select(tables.json_text(_p.c.value), _p.c.expires_at).where(_p.c.key == _KEY).with_for_update()
PENDING_DEL = delete(_p).where(_p.c.key == _KEY)
_PENDING = written("key", "expires_at", value=tables.text_param("value"))
PENDING_PUT = tables.per_dialect(lambda d: upsert(d, _p, _PENDING, ["key"], "value", "expires_at"))


class Housekeeping:
    """``store.housekeeping``: prune and pending confirmations."""

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    async def prune(
        self, *, ended_for: float = 7 * 86400, claims_for: float = 2 * 86400, now: datetime | None = None
    ) -> dict[str, int]:
        """Delete what nothing needs any more: event claims and leases older than ``claims_for``
        seconds, and sessions ended (state ``None``) more than ``ended_for`` seconds ago with
        their log (``.undo`` of the ending works until then)."""
        now = now or self.now()
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
            for scope, system, version in sessions:
                logs += await tx.run(delete(_log).where(_log.c.scope == scope, _log.c.system == system))
                n = await tx.run(
                    delete(_s).where(_s.c.scope == scope, _s.c.system == system, _s.c.version == version)
                )
                if n:  # an ended session holds no rows; this keeps it so should one be left
                    await srows.drop_items(tx, scope, system)
            return {"claims": claims, "leases": leases, "sessions": len(sessions), "log_rows": logs}

        return await self.db.write(body, "清理")

    async def put_pending(
        self, key: str, value: dict[str, Any], ttl: float, *, claim: Claim | None = None
    ) -> None:
        expires = self.now() + timedelta(seconds=ttl)
        new = {"key": key, "value": jpatch.dumps(value), "expires_at": expires}

        async def body(tx: Tx) -> None:
            await tx.run(PENDING_PUT[tx.dialect], new)

        await self.db.write(body, "确认", claim=claim)

    async def take_pending(self, key: str, *, claim: Claim | None = None) -> dict[str, Any] | None:
        """Remove and return a pending value if it has not expired."""

        async def body(tx: Tx) -> tuple[Any, Any] | None:
            row = await tx.one(PENDING, {"key": key})
            if row is None:
                return None
            await tx.run(PENDING_DEL, {"key": key})
            return row[0], row[1]

        got = await self.db.write(body, "确认", claim=claim)
        if got is None:
            return None
        expires = self.db.dt_out(got[1])
        if expires is not None and expires < self.now():
            return None
        return json_value(got[0])
