"""Which bot account answers in a group: each group is leased to one account (table
``bot_leases``), renewed while its holder keeps seeing messages, taken over once it lapsed or
its holder's process died (see :mod:`.alive` and ``PgBackend.holder_gone_sql``)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from .common import _EVENT, StorePart
from .tx import Tx

T = TypeVar("T")
log = logging.getLogger("chronodice.store")

RENEW_AHEAD = 5.0
"""Seconds of lease left above which the serving account renews in the background."""


class LeaseStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`: the serving account of a group."""

    if TYPE_CHECKING:
        lease_seconds: float
        _leases: dict[str, tuple[str, float, float]]
        """Group → (holder, expiry, when it was read), all ``time.time()``."""
        _renewing: set[str]
        _tasks: set[asyncio.Task[None]]

        async def _retry(
            self, attempt: Callable[[], Awaitable[T]], what: str, *, retry_conflict: bool = True
        ) -> T: ...

    async def serves(self, scope: str, self_id: str) -> bool:
        """Whether bot account ``self_id`` answers in ``scope`` (a group): each group is leased
        to one account; the holder renews its lease while it keeps seeing messages, another
        account takes over once it lapsed (``lease_seconds``) or was released.

        The holder renews in the background once half the lease is gone, while more than
        :data:`RENEW_AHEAD` seconds are left: the renewal is a committed write (an fsync on
        PostgreSQL), which the message that happened to trigger it need not wait for."""
        now = time.time()
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
            elif now < expires and now - checked < 1.0 and not self._backend.known_gone(holder, self_id):
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
        now = time.time()
        ttl = self.lease_seconds

        alive_here = self_id in self._backend.accounts  # (then a dead holder is known as dead)
        cached = self._leases.get(scope)
        suspects = [cached[0]] if alive_here and cached is not None and cached[0] != self_id else []

        async def body(tx: Tx) -> tuple[str, float]:
            gone, gone_args = self._backend.holder_gone_sql(suspects)
            row = await tx.one(
                "INSERT INTO bot_leases (scope, self_id, expires_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (scope) DO UPDATE SET self_id = excluded.self_id, expires_at = excluded.expires_at"
                f" WHERE bot_leases.self_id = excluded.self_id OR bot_leases.expires_at < $4 OR ($5 AND {gone})"
                " RETURNING self_id, expires_at",
                scope,
                self_id,
                now + ttl,
                now,
                alive_here,
                *gone_args,
            )
            if row is None:
                row = await tx.one("SELECT self_id, expires_at FROM bot_leases WHERE scope = $1", scope)
            assert row is not None
            return str(row[0]), float(row[1])

        ev = _EVENT.set(None)  # a lease is not the command's write
        try:
            holder, expires = await self._retry(lambda: self._lease_tx(body), "选择账号")
            if holder != self_id and holder not in suspects and self._backend.known_gone(holder, self_id):
                suspects.append(holder)  # (SQLite) a holder first learnt of here, whose process died
                holder, expires = await self._retry(lambda: self._lease_tx(body), "选择账号")
        finally:
            _EVENT.reset(ev)
        self._leases[scope] = (holder, expires, now)
        return holder == self_id

    async def _lease_tx(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async with self._backend.tx(True) as tx:
            return await body(tx)

    async def lease_holder(self, scope: str) -> str | None:
        """The account serving ``scope`` now, or None when nobody holds a live lease."""
        now = time.time()
        cached = self._leases.get(scope)
        if cached is not None and now < cached[1] and now - cached[2] < 1.0:
            return cached[0]
        row = await self._read(
            lambda tx: tx.one("SELECT self_id, expires_at FROM bot_leases WHERE scope = $1", scope)
        )
        if row is None or float(row[1]) <= now:
            return None
        self._leases[scope] = (str(row[0]), float(row[1]), now)
        return str(row[0])

    async def hold_account(self, self_id: str) -> None:
        """``self_id`` is connected to this process: while the process lives, its leases hold;
        once it dies (a SIGKILL, no release), another account takes its groups over at the next
        message instead of after the lease lapses (PostgreSQL: an advisory lock on the LISTEN
        connection, which the server frees with the connection; SQLite: a shared ``flock`` on a
        file per account, which the kernel frees with the process, see :mod:`.alive`)."""
        await self._backend.hold_account(str(self_id))

    async def release(self, self_id: str) -> None:
        """Give up every lease of ``self_id`` (its connection closed): others take over now."""
        await self._backend.drop_account(str(self_id))
        for scope in [s for s, v in self._leases.items() if v[0] == self_id]:
            del self._leases[scope]

        async def body(tx: Tx) -> int:
            return await tx.run("DELETE FROM bot_leases WHERE self_id = $1", self_id)

        ev = _EVENT.set(None)
        try:
            await self._retry(lambda: self._lease_tx(body), "释放账号")
        finally:
            _EVENT.reset(ev)
