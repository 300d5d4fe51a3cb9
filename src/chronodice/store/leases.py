"""Which bot account answers in a group (``store.leases``): each group is leased to one account (table
``bot_leases``), renewed while its holder keeps seeing messages, taken over once it lapsed or
its holder's process died (see :meth:`.alive.Alive.holder_gone`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy import ColumnElement, bindparam, delete, false, or_, select
from sqlalchemy.sql.dml import Insert

from chronodice.core.clock import SYSTEM

from . import tables
from .db import Database, Tx

T = TypeVar("T")
log = logging.getLogger("chronodice.store")

_l = tables.bot_leases
HOLDER = select(_l.c.self_id, _l.c.expires_at).where(_l.c.scope == bindparam("scope"))
RELEASE = delete(_l).where(_l.c.self_id == bindparam("self_id"))
_TAKE = tables.per_dialect(
    lambda d: tables.insert_for(d, _l).values({c: bindparam(c) for c in ("scope", "self_id", "expires_at")})
)


def _take(dialect: str, gone: ColumnElement[bool]) -> Insert:
    """Take or renew a lease: written where the row is the taker's own, lapsed, or its holder
    is ``gone`` (a condition on the holder); the row as it is after.  Built per call, as
    ``gone`` is (seldom: see :meth:`LeaseStore.serves`)."""
    ins = _TAKE[dialect]
    where = or_(_l.c.self_id == ins.excluded.self_id, _l.c.expires_at < bindparam("now"), gone)
    new = {"self_id": ins.excluded.self_id, "expires_at": ins.excluded.expires_at}
    upsert = ins.on_conflict_do_update(index_elements=["scope"], set_=new, where=where)
    return upsert.returning(_l.c.self_id, _l.c.expires_at)


RENEW_AHEAD = 5.0
"""Seconds of lease left above which the serving account renews in the background."""


class Leases:
    """``store.leases``: the serving account of each group."""

    def __init__(self, db: Database, lease_seconds: float, tasks: set[asyncio.Task[None]]) -> None:
        self.db = db
        self.lease_seconds = lease_seconds
        self._leases: dict[str, tuple[str, float, float]] = {}
        """Group → (holder, expiry, when it was read), all ``SYSTEM.timestamp()``: what this
        process last learnt of the lease, so a message in a group it serves costs no statement
        until half the lease is gone."""
        self._renewing: set[str] = set()
        self._tasks = tasks

    async def serves(self, scope: str, self_id: str) -> bool:
        """Whether bot account ``self_id`` answers in ``scope`` (a group): each group is leased
        to one account; the holder renews its lease while it keeps seeing messages, another
        account takes over once it lapsed (``lease_seconds``) or was released.

        The holder renews in the background once half the lease is gone, while more than
        :data:`RENEW_AHEAD` seconds are left: the renewal is a committed write (an fsync on
        PostgreSQL), which the message that happened to trigger it need not wait for."""
        now = SYSTEM.timestamp()
        ttl = self.lease_seconds
        cached = self._leases.get(scope)
        if cached is not None:
            holder, expires, checked = cached
            if holder == self_id:
                if expires - now > ttl / 2:
                    return True
                if expires - now > RENEW_AHEAD:
                    self._renew_in_background(scope, self_id)
                    return True
            elif now < expires and now - checked < 1.0 and not self.db.alive.known_gone(holder, self_id):
                return False
        return await self._take_lease(scope, self_id)

    def _renew_in_background(self, scope: str, self_id: str) -> None:
        if scope in self._renewing:
            return
        self._renewing.add(scope)

        async def renew() -> None:
            try:
                await self._take_lease(scope, self_id)
            except Exception:
                log.warning(
                    "renewing the lease of %s failed (the next message retries)", scope, exc_info=True
                )
            finally:
                self._renewing.discard(scope)

        task = asyncio.get_running_loop().create_task(renew())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _take_lease(self, scope: str, self_id: str) -> bool:
        now = SYSTEM.timestamp()
        ttl = self.lease_seconds

        alive_here = self_id in self.db.alive  # (then a dead holder is known as dead)
        cached = self._leases.get(scope)
        suspects = [cached[0]] if alive_here and cached is not None and cached[0] != self_id else []

        async def body(tx: Tx) -> tuple[str, float]:
            gone = self.db.alive.holder_gone(suspects) if alive_here else false()
            params = {"scope": scope, "self_id": self_id, "expires_at": now + ttl, "now": now}
            row = await tx.one(_take(tx.dialect, gone), params)
            if row is None:
                row = await tx.one(HOLDER, {"scope": scope})
            assert row is not None
            return str(row[0]), float(row[1])

        holder, expires = await self.db.retry(lambda: self._lease_tx(body), "选择账号")
        if holder != self_id and holder not in suspects and self.db.alive.known_gone(holder, self_id):
            suspects.append(holder)  # (SQLite) a holder first learnt of here, whose process died
            holder, expires = await self.db.retry(lambda: self._lease_tx(body), "选择账号")
        self._leases[scope] = (holder, expires, now)
        return holder == self_id

    async def _lease_tx(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """``body`` in a write transaction of its own that claims no event (a lease, a release
        or a prune is not a command's write)."""
        async with self.db.tx(True) as tx:
            return await body(tx)

    async def lease_holder(self, scope: str) -> str | None:
        """The account serving ``scope`` now, or None when nobody holds a live lease."""
        now = SYSTEM.timestamp()
        cached = self._leases.get(scope)
        if cached is not None and now < cached[1] and now - cached[2] < 1.0:
            return cached[0]
        row = await self.db.read(lambda tx: tx.one(HOLDER, {"scope": scope}))
        if row is None or float(row[1]) <= now:
            return None
        self._leases[scope] = (str(row[0]), float(row[1]), now)
        return str(row[0])

    async def hold_account(self, self_id: str) -> None:
        """``self_id`` is connected to this process: while the process lives, its leases hold;
        once it dies (a SIGKILL, no release), another account takes its groups over at the next
        message instead of after the lease lapses (see :class:`.alive.Alive`)."""
        await self.db.alive.hold(str(self_id))

    async def release(self, self_id: str) -> None:
        """Give up every lease of ``self_id`` (its connection closed): others take over now."""
        await self.db.alive.drop(str(self_id))
        for scope in [s for s, v in self._leases.items() if v[0] == self_id]:
            del self._leases[scope]

        async def body(tx: Tx) -> int:
            return await tx.run(RELEASE, {"self_id": self_id})

        await self.db.retry(lambda: self._lease_tx(body), "释放账号")
