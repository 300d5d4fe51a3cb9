"""The store: SQLite (default) or PostgreSQL, with process-local caches that stay correct.

* Every transaction is one unit on one connection (see :mod:`.backends`): SQLite runs it on the
  event loop thread with ``BEGIN IMMEDIATE`` (no thread hop, no lock-upgrade dead-lock);
  PostgreSQL reads rows ``FOR UPDATE``.  On top of both, mutable rows carry a ``version`` and are
  written with a compare-and-set; a lost race is retried from the read, so no update is ever
  lost, also when several bot processes share one database.
* PostgreSQL first tries a cached card or session in one statement, its own transaction, that
  writes only if the row is still at the cached version and also claims the event (see
  :mod:`.session_batch`); the locked transaction is the fallback.
* Writes are never deferred: a method returns only after its transaction committed.
* What nearly every command reads — the group (switch, settings, GMs), nicknames, bindings and
  character cards — is cached in process memory.  A cache entry is dropped when this process
  writes the row, and when another process does: SQLite's ``PRAGMA data_version`` (checked on
  each use) or PostgreSQL ``NOTIFY`` from triggers.  Without a working LISTEN connection the
  PostgreSQL store reads through.
* The session log keeps a reverse patch per command (:mod:`.patch`), not the whole state.
* Exactly once: a command's writes are each given its :class:`~.common.Claim` (``claim=``);
  the first of them also claims the event's (self_id, message_id), and a second delivery
  raises :class:`DuplicateEvent` there and writes nothing.  :meth:`Store.serves` leases each
  group to one bot account.

The parts: sessions (:mod:`.sessions`, :mod:`.session_batch`, :mod:`.session_history`, :mod:`.session_rows`), ``.log`` records (:mod:`.gamelogs`), characters and
bindings (:mod:`.characters`), nicknames and groups (:mod:`.groups`), serving accounts
(:mod:`.leases`), prune and confirmations (:mod:`.housekeeping`), each a mixin of
:class:`Store`; this module holds what they share: transactions, retries, the event claim, the
read-through cache and the one-statement writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar

from sqlalchemy import bindparam, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.sql import Executable

from chronodice.core.errors import ChronoDiceError

from . import tables
from .backends import Backend, Conflict, PgBackend, SqliteBackend, Transient, Tx
from .cache import RowCache
from .characters import CharacterStore
from .common import Claim, DuplicateEvent, StoreBusy, claim_params, utcnow
from .gamelogs import GameLogStore
from .groups import GroupStore
from .housekeeping import HousekeepingStore
from .leases import RENEW_AHEAD, LeaseStore
from .session_batch import Job, SessionBatchStore
from .session_history import SessionHistoryStore
from .sqlite_backend import begin_immediate
from .states import StateCache
from .url import normalize_database_url

T = TypeVar("T")

DEFAULT_URL = "sqlite+aiosqlite:///data/chronodice.db"
_MAX_RETRIES = 200
log = logging.getLogger("chronodice.store")

__all__ = ["DEFAULT_URL", "RENEW_AHEAD", "DuplicateEvent", "Store", "StoreBusy", "utcnow"]


class Store(
    SessionBatchStore,
    SessionHistoryStore,
    GameLogStore,
    CharacterStore,
    GroupStore,
    LeaseStore,
    HousekeepingStore,
):
    """The repository every service uses (``app.store``).  See docs/SERVICE_API.md."""

    def __init__(
        self,
        url: str = DEFAULT_URL,
        *,
        echo: bool = False,
        lease_seconds: float = 30.0,
        cache: bool = True,
    ) -> None:
        self.url = url = normalize_database_url(url)
        self.dialect = make_url(url).get_backend_name()
        self._echo = echo
        self._backend: Backend = SqliteBackend(url) if self.dialect == "sqlite" else PgBackend(url)
        self._cache = RowCache()
        self._states = StateCache()
        self._cache_on = cache
        self._backend.on_foreign_change = self._foreign_change
        if isinstance(self._backend, PgBackend):
            self._backend.on_notify = self._notified
        self.lease_seconds = lease_seconds
        self._leases: dict[str, tuple[str, float, float]] = {}
        self._renewing: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: dict[tuple[str, str], None] = {}
        self._turns: dict[tuple[str, str], tuple[asyncio.Lock, list[int]]] = {}
        self._jobs: dict[tuple[str, str], list[Job]] = {}
        self._drains: dict[tuple[str, str], asyncio.Future[None]] = {}
        self._engine: AsyncEngine | None = None

    # ------------------------------------------------------------------ lifecycle
    @property
    def engine(self) -> AsyncEngine:
        """An async SQLAlchemy engine on the same database for tests and tools, beside the
        store's own connections (JSON columns come back parsed here)."""
        if self._engine is None:
            kwargs: dict[str, Any] = {"echo": self._echo}
            if self.dialect == "sqlite":
                kwargs["connect_args"] = {"timeout": 30}
            self._engine = create_async_engine(self.url, **kwargs)
            if self.dialect == "sqlite":
                _sqlite_pragmas(self._engine)
        return self._engine

    async def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision, without asking."""
        from .migrate import upgrade_sync

        vacuum = await self._backend.migrate(upgrade_sync)
        self._cache.clear()
        await self._backend.start()
        if vacuum and isinstance(self._backend, SqliteBackend):
            self._backend.vacuum()  # the converted log left free pages behind

    async def _engine_dispose(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None

    async def close(self) -> None:
        for task in list(self._tasks):  # a lease renewal still running: the lease simply lapses
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._engine_dispose()
        await self._backend.close()

    # ------------------------------------------------------------------ plumbing
    def _notified(self, key: str) -> None:
        """Another process changed a cached row (PostgreSQL): ``s:<scope>`` a session (see
        :meth:`StateCache.changed`), the other kinds a row of :class:`~.cache.RowCache`."""
        if key.startswith("s:"):
            self._states.changed(key[2:])
        else:
            self._cache.drop(key)

    def _foreign_change(self) -> None:
        self._cache.clear()
        self._states.changed_everywhere()

    def _cache_ok(self) -> bool:
        return self._cache_on and self._backend.cache_usable()

    async def _read(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async def attempt() -> T:
            async with self._backend.tx(False) as tx:
                return await body(tx)

        return await self._retry(attempt, "读取")

    async def _write(
        self,
        body: Callable[[Tx], Awaitable[T]],
        what: str,
        *,
        drops: Sequence[str] = (),
        retry_conflict: bool = False,
        claim: Claim | None = None,
    ) -> T:
        """One read-write transaction (retried on a lost race) that also makes ``claim`` (the
        delivered event of the command writing, unless an earlier write of it did; a ``.log``
        line or a background write gives none); ``drops`` are cache keys to invalidate after
        the commit."""

        async def attempt() -> T:
            ev = claim.pending() if claim is not None else None
            try:
                async with self._backend.tx(True) as tx:
                    if ev is not None:
                        await self._claim(tx, ev)
                    value = await body(tx)
            except ChronoDiceError:
                # refused: nothing written, but the command got its answer; a second delivery
                # of it stays silent (as the one-statement writes on PostgreSQL have it)
                if ev is not None:
                    async with self._backend.tx(True) as tx:
                        await self._claim(tx, ev)
                    ev.claimed = True
                raise
            if ev is not None:
                ev.claimed = True
            for key in drops:
                self._cache.drop(key)
            return value

        return await self._retry(attempt, what, retry_conflict=retry_conflict)

    @staticmethod
    async def _claim(tx: Tx, ev: Claim) -> None:
        n = await tx.run(_CLAIM[tx.dialect], claim_params(ev))
        if n != 1:
            raise DuplicateEvent(f"{ev.self_id}/{ev.message_id}")

    async def _retry(
        self, attempt: Callable[[], Awaitable[T]], what: str, *, retry_conflict: bool = True
    ) -> T:
        delay = 0.001
        for _ in range(_MAX_RETRIES):
            try:
                return await attempt()
            except Transient:
                pass
            except Conflict:
                if not retry_conflict:
                    raise
            await asyncio.sleep(delay * (1 + random.random()))
            delay = min(delay * 2, 0.1)
        raise StoreBusy(f"数据库繁忙，{what}未完成，请稍后再试")

    async def _cached(
        self, table: dict[Any, Any], key: Any, tx: Tx | None, body: Callable[[Tx], Awaitable[T]]
    ) -> T:
        """Read-through cache: ``table[key]`` when the caches are valid, else ``body`` (in ``tx``
        or a read transaction of its own), stored unless an invalidation raced with the read."""
        use = self._cache_ok()
        if use and (hit := table.get(key)) is not None:
            return hit
        epoch = self._cache.epoch
        value = await body(tx) if tx is not None else await self._read(body)
        if value is not None and use and epoch == self._cache.epoch:
            RowCache.put(table, key, value)
        return value

    # ------------------------------------------------------------------ exactly once
    def first_delivery(self, self_id: str, message_id: str) -> bool:
        """False when this process already saw the event (no database access)."""
        key = (str(self_id), str(message_id))
        if key in self._seen:
            return False
        if len(self._seen) >= 20_000:
            for old in list(self._seen)[:5_000]:
                del self._seen[old]
        self._seen[key] = None
        return True

    # ------------------------------------------------------------------ one-statement writes
    @contextlib.asynccontextmanager
    async def _in_turn(self, key: tuple[str, str]) -> AsyncIterator[None]:
        """Writes of this process to one card, one after another (first come, first served):
        each then finds the card as the one before left it in the cache, so its one-statement
        write is not lost to a sibling; only another process can still race."""
        entry = self._turns.get(key)
        if entry is None:
            entry = self._turns[key] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._turns[key]

    async def _once(self, stmt: Executable, params: dict[str, Any], claim: Claim | None = None) -> int:
        """Run one statement, which selects a count, as its own transaction; the count.
        ``claim``'s ``claim_self_id``, ``claim_message_id`` and ``claim_at`` are added to
        ``params`` (the statement inserts them); :class:`DuplicateEvent` when the claim existed:
        nothing was written."""
        async with self._backend.tx(False) as tx:
            try:
                if claim is not None:
                    params = {**params, **claim_params(claim)}
                got = await tx.one(stmt, params)
            except Conflict as exc:
                if claim is not None and "pk_event_claims" in str(exc):
                    raise DuplicateEvent(f"{claim.self_id}/{claim.message_id}") from None
                raise
        return int(got[0]) if got else 0

    async def _one_row(self, stmt: Executable, params: dict[str, Any], claim: Claim | None) -> bool:
        """:meth:`_once` for a statement meant to count exactly one row: whether it did, the
        claim then made; False also for a lost race."""
        try:
            n = await self._once(stmt, params, claim)
        except Transient:
            return False
        if n != 1:
            return False
        if claim is not None:
            claim.claimed = True
        return True


_CLAIM = tables.per_dialect(
    lambda d: (
        tables.insert_for(d, tables.event_claims)
        .values(
            self_id=bindparam("claim_self_id"),
            message_id=bindparam("claim_message_id"),
            claimed_at=bindparam("claim_at"),
        )
        .on_conflict_do_nothing()
    )
)


def _sqlite_pragmas(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    event.listen(engine.sync_engine, "begin", begin_immediate)
