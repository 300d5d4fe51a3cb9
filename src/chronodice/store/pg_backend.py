"""PostgreSQL behind :class:`~chronodice.store.database.Store` (see :mod:`.backends`).

SQLAlchemy's async engine on :mod:`asyncpg` (its pool, its URL handling, prepared statements),
rows read ``FOR UPDATE``; reads outside a write run in AUTOCOMMIT (under READ COMMITTED every
statement reads its own snapshot, so BEGIN and COMMIT around reads only cost two round trips).
One more connection of the same engine, held and in AUTOCOMMIT, LISTENs for the notifications
sent by triggers (migration 0003) when a cached row changes in another process, and holds the
advisory locks that show this process's bot accounts alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import OID
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.sql import Executable

from . import tables
from .tx import Conflict, Params, Rejected, Transient, Tx

log = logging.getLogger("chronodice.store")

NOTIFY_CHANNEL = "chronodice_cache"
ACCOUNT_LOCKS = 1128555595
"""The first key of the advisory locks that show a bot account's process alive ("CDiK")."""
POOL_SIZE = 12
"""Connections for transactions (the LISTEN connection is one more)."""

_TRANSIENT = {"40001", "40P01", "55P03"}  # serialization failure, deadlock, lock not available


def _pg_error(exc: BaseException) -> BaseException:
    """The store's error for a driver's: by SQLSTATE (SQLAlchemy wraps asyncpg's errors)."""
    if isinstance(exc, UnicodeError):
        return Rejected(str(exc))
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    code = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if code is None and orig is not None and orig.__cause__ is not None:
        code = getattr(orig.__cause__, "sqlstate", None)
        if isinstance(orig.__cause__, UnicodeError):
            return Rejected(str(exc))
    if code is None:
        return exc
    if code == "23505":
        return Conflict(str(exc))
    if code.startswith("22"):  # data exception: a value the database does not take
        return Rejected(str(exc))
    if code in _TRANSIENT:
        return Transient(str(exc))
    return exc


class PgTx(Tx):
    """A transaction (or, for reads, an AUTOCOMMIT connection) of the engine."""

    dialect = "postgresql"

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn = conn

    async def _execute(self, stmt: Executable, params: Params) -> Any:
        try:
            return await self.conn.execute(stmt, params)  # type: ignore[arg-type]
        except Exception as exc:
            mapped = _pg_error(exc)
            if mapped is exc:
                raise
            raise mapped from exc

    async def one(self, stmt: Executable, params: Params = None) -> Any:
        return (await self._execute(stmt, params)).first()

    async def all(self, stmt: Executable, params: Params = None) -> list[Any]:
        return list((await self._execute(stmt, params)).all())

    async def run(self, stmt: Executable, params: Params = None) -> int:
        return int((await self._execute(stmt, params)).rowcount)


class PgBackend:
    """The PostgreSQL database of a store: its engine, LISTEN connection and account locks."""

    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        # json columns come back as their text (the store parses what it needs, and compares
        # texts): SQLAlchemy's asyncpg dialect decodes them with ``json_deserializer``.
        # AUTOCOMMIT by default: reads and the one-statement writes (most of what runs here)
        # then send no BEGIN/COMMIT and set no isolation level per checkout, which cost them
        # 35–100 µs each; transactions check out with READ COMMITTED (the server's default)
        self.engine: AsyncEngine = create_async_engine(
            url,
            pool_size=POOL_SIZE + 1,
            max_overflow=0,
            json_deserializer=str,
            isolation_level="AUTOCOMMIT",
        )
        self._writer = self.engine.execution_options(isolation_level="READ COMMITTED")
        sa.event.listen(self.engine.sync_engine, "connect", self._connected)
        self._own_pids: set[int] = set()
        self._listener: AsyncConnection | None = None
        self._listening = False
        self._started = False
        self._start_lock = asyncio.Lock()
        self.on_notify: Callable[[str], None] = lambda _key: None
        self.on_foreign_change: Callable[[], None] = lambda: None
        self.accounts: set[str] = set()
        """The bot accounts connected to this process: each holds a shared advisory lock on the
        LISTEN connection, which PostgreSQL frees the moment the process dies."""
        self._listener_lock = asyncio.Lock()

    def _connected(self, dbapi_conn: Any, _record: Any) -> None:
        """A new connection of the engine: its server pid is this process's (notifications
        from it were already acted on)."""
        self._own_pids.add(dbapi_conn.driver_connection.get_server_pid())

    async def hold_account(self, self_id: str) -> None:
        if not self._started:
            await self.start()
        if self_id not in self.accounts:
            self.accounts.add(self_id)
            await self._lock_accounts([self_id])

    async def drop_account(self, self_id: str) -> None:
        if self_id in self.accounts:
            self.accounts.discard(self_id)
            conn = self._listener
            if conn is not None:
                with contextlib.suppress(Exception):
                    async with self._listener_lock:
                        await conn.execute(_UNLOCK, {"key": ACCOUNT_LOCKS, "account": self_id})

    async def _lock_accounts(self, ids: Iterable[str]) -> None:
        conn = self._listener
        if conn is None:
            return
        try:
            async with self._listener_lock:
                for self_id in ids:
                    await conn.execute(_LOCK, {"key": ACCOUNT_LOCKS, "account": self_id})
        except Exception:
            log.warning("PostgreSQL: marking the connected accounts alive failed", exc_info=True)

    @staticmethod
    def known_gone(holder: str, asker: str) -> bool:
        """Never without asking: another process may hold the account (see :meth:`holder_gone`)."""
        return False

    def holder_gone(self, suspects: Iterable[str] = ()) -> sa.ColumnElement[bool]:
        """A condition on ``bot_leases.self_id``: no process holds that account's lock (its
        process died, or it disconnected)."""
        account = sa.cast(sa.func.hashtext(tables.bot_leases.c.self_id), OID)
        return account.not_in(_HELD)  # (a subquery SQLAlchemy need not correlate: ON CONFLICT)

    async def migrate(self, upgrade: Callable[[Any], bool]) -> bool:
        """Run ``upgrade`` (Alembic, on a sync connection) under an advisory lock: bot
        processes starting together migrate one after the other."""
        async with self._writer.connect() as conn:
            await conn.execute(_MIGRATION_LOCK)
            await conn.commit()
            try:
                vacuum = await conn.run_sync(upgrade)
                await conn.commit()
            finally:
                await conn.execute(_MIGRATION_UNLOCK)
                await conn.commit()
        return vacuum

    async def start(self) -> None:
        if self._started:
            return
        async with self._start_lock:
            if self._started:
                return
            async with self.engine.connect() as conn:  # the first connection: fail here if any
                await conn.execute(sa.select(1))
            self._started = True
            await self._listen()

    async def _listen(self) -> None:
        conn: AsyncConnection | None = None
        try:
            conn = await self.engine.connect()
            raw = (await conn.get_raw_connection()).driver_connection
            await raw.add_listener(NOTIFY_CHANNEL, self._notified)
            raw.add_termination_listener(self._lost)
        except Exception:
            log.warning("PostgreSQL LISTEN failed: caches stay off", exc_info=True)
            self._listening = False
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.invalidate()
            return
        self._listener = conn
        self._listening = True
        await self._lock_accounts(sorted(self.accounts))  # a new connection: the locks again

    def _notified(self, _conn: Any, pid: int, _channel: str, payload: str) -> None:
        if pid in self._own_pids:
            return  # this process already invalidated what it wrote
        self.on_notify(payload)

    def _lost(self, _conn: Any) -> None:
        self._listening = False
        lost, self._listener = self._listener, None
        if lost is not None:
            task = asyncio.get_running_loop().create_task(lost.invalidate())
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
        self.on_foreign_change()

    def cache_usable(self) -> bool:
        return self._listening

    @contextlib.asynccontextmanager
    async def tx(self, write: bool) -> AsyncIterator[Tx]:
        if not self._started:
            await self.start()
        elif not self._listening and self._listener is None:
            with contextlib.suppress(Exception):
                await self._listen()
        try:
            if write:
                async with self._writer.begin() as conn:
                    yield PgTx(conn)
            else:
                async with self.engine.connect() as conn:
                    yield PgTx(conn)
        except (Conflict, Transient, Rejected):
            raise
        except Exception as exc:
            mapped = _pg_error(exc)
            if mapped is exc:
                raise
            raise mapped from exc

    async def close(self) -> None:
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
            self._listener = None
        self._listening = False
        self._started = False
        await self.engine.dispose()

    @staticmethod
    def dt_out(value: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value


_MIGRATION_KEY = 0x43_44_01  # "CD", 1
_MIGRATION_LOCK = sa.select(sa.func.pg_advisory_lock(_MIGRATION_KEY))
_MIGRATION_UNLOCK = sa.select(sa.func.pg_advisory_unlock(_MIGRATION_KEY))
_ACCOUNT = sa.func.hashtext(sa.bindparam("account", type_=sa.String))
_LOCK = sa.select(sa.func.pg_advisory_lock_shared(sa.bindparam("key", type_=sa.Integer), _ACCOUNT))
_UNLOCK = sa.select(sa.func.pg_advisory_unlock_shared(sa.bindparam("key", type_=sa.Integer), _ACCOUNT))
_pg_locks = sa.table(
    "pg_locks",
    sa.column("locktype"),
    sa.column("granted"),
    sa.column("objsubid"),
    sa.column("classid"),
    sa.column("objid"),
)
_HELD = sa.select(_pg_locks.c.objid).where(
    _pg_locks.c.locktype == "advisory",
    _pg_locks.c.granted,
    _pg_locks.c.objsubid == 2,
    _pg_locks.c.classid == sa.cast(ACCOUNT_LOCKS, OID),
)
"""The accounts (``objid``) with a shared advisory lock held on :data:`ACCOUNT_LOCKS` (never
NULL, so ``NOT IN`` is safe; ``pg_locks`` is PostgreSQL's own view:
a lightweight ``table()`` clause, not one of the store's tables)."""
