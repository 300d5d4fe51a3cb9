"""The database under every part of the store: one SQLAlchemy engine per database, transactions
with retries, the claim of a delivered event, and which bot accounts are alive.

* **Engines.** PostgreSQL: SQLAlchemy's async engine on asyncpg.  SQLite: SQLAlchemy's
  synchronous engine (the standard driver), used on the event loop thread: a read transaction
  costs about 0.1 ms this way against about 1 ms through aiosqlite's thread, and a command
  reads two or three times (through aiosqlite a bot recording a ``.log`` fell seconds behind a
  busy group, and ``.r`` lost a third of its rate; the figures are in issue 40's note).

* **Transactions.** :meth:`Database.write` runs a body in one read-write transaction and
  retries it when the database was busy or a compare-and-set lost; :meth:`Database.read` runs
  one in a read transaction.  On SQLite a write begins ``BEGIN IMMEDIATE`` (the write lock at
  once: two processes never dead-lock upgrading a read lock) and waits for another process's
  lock with SQLite's own ``busy_timeout``, kept short because it waits on the event loop; past
  it the write is retried after an ``asyncio.sleep``, like any busy transaction.  WAL mode: reads never wait for a writer.  On PostgreSQL rows are read
  ``FOR UPDATE`` inside the write; reads run in AUTOCOMMIT.
* **Exactly once.** A write given a :class:`Claim` also inserts ``(self_id, message_id)`` into
  ``event_claims`` in its transaction: a second delivery raises :class:`DuplicateEvent` there
  and writes nothing (see :class:`Claim`).
* **Alive accounts** (:mod:`.alive`): each bot account connected to this process is marked
  alive while the process lives, so a lease whose holder is gone can be taken over at once
  (:mod:`.leases`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.sql import Executable

from chronodice.core.clock import SYSTEM
from chronodice.core.errors import ChronoDiceError

from . import tables
from .alive import AccountFiles, Alive

T = TypeVar("T")
log = logging.getLogger("chronodice.store")

Params = Mapping[str, Any] | Sequence[Mapping[str, Any]] | None
"""A statement's parameters by bindparam name (a list of them: executemany)."""
MAX_RETRIES = 200
BUSY_TIMEOUT_MS = 50
"""How long a SQLite write waits on the event loop for another process's write lock before it
is retried after an ``asyncio.sleep`` (see :meth:`Database.retry`)."""
MIGRATION_BUSY_MS = 30_000
"""How long a migration waits for another process's (bots starting together)."""
WAL_LIMIT_BYTES = 1024 * 1024
"""SQLite's ``journal_size_limit``: a WAL that a checkpoint emptied is cut back to this when the
next commit starts it over (without it the file keeps the size of the largest burst)."""


class StoreBusy(ChronoDiceError):
    """The database stayed busy through every retry."""


class DuplicateEvent(Exception):
    """This event (same bot account, same message id) was already handled: stay silent."""


class Transient(Exception):
    """The database was busy, or a compare-and-set lost: the transaction is retried."""


class Conflict(Exception):
    """A unique key was violated (not retried unless the write asks for it)."""


@dataclass
class Claim:
    """One delivered event (bot account ``self_id``, ``message_id``), handed by the caller to
    each write of the command it carries (``claim=``): the first write that commits inserts it
    into ``event_claims`` in its own transaction, so a second delivery (this or another process,
    also after a restart) raises :class:`DuplicateEvent` there and writes nothing; the later
    writes of the same command claim nothing more."""

    self_id: str
    message_id: str
    claimed: bool = False
    began: float = field(default_factory=SYSTEM.monotonic)
    """When the event came in (for the caller's own use)."""

    def pending(self) -> Claim | None:
        """This claim while no write has made it yet, else None."""
        return None if self.claimed else self


_CLAIM = tables.per_dialect(
    lambda d: (
        tables.insert_for(d, tables.event_claims)
        .values(
            self_id=sa.bindparam("self_id"),
            message_id=sa.bindparam("message_id"),
            claimed_at=sa.bindparam("at"),
        )
        .on_conflict_do_nothing()
    )
)


class Tx:
    """One transaction: ``one`` (first row or None), ``all`` (rows), ``run`` (rows changed)."""

    def __init__(self, conn: AsyncConnection | sa.Connection, dialect: str) -> None:
        self.conn = conn
        self.dialect = dialect

    async def _execute(self, stmt: Executable, params: Params) -> Any:
        try:
            if isinstance(self.conn, sa.Connection):
                return self.conn.execute(stmt, params)  # type: ignore[arg-type]
            return await self.conn.execute(stmt, params)  # type: ignore[arg-type]
        except DBAPIError as exc:
            raise _mapped(exc, self.dialect) from exc

    async def one(self, stmt: Executable, params: Params = None) -> Any:
        return (await self._execute(stmt, params)).first()

    async def all(self, stmt: Executable, params: Params = None) -> list[Any]:
        return list((await self._execute(stmt, params)).all())

    async def run(self, stmt: Executable, params: Params = None) -> int:
        return int((await self._execute(stmt, params)).rowcount)


_PG_TRANSIENT = {"40001", "40P01", "55P03"}  # serialization failure, deadlock, lock not available


def _mapped(exc: DBAPIError, dialect: str) -> Exception:
    """The store's error for a driver's: a unique key is a :class:`Conflict`, a busy database
    or a lost race :class:`Transient`; anything else stays as it is."""
    if (isinstance(exc, IntegrityError) and "unique" in str(exc).lower()) or "23505" in str(exc):
        return Conflict(str(exc))
    if dialect == "sqlite":
        msg = str(exc).lower()
        return Transient(str(exc)) if "locked" in msg or "busy" in msg else exc
    code = getattr(exc.orig, "sqlstate", None) or getattr(
        getattr(exc.orig, "__cause__", None), "sqlstate", None
    )
    return Transient(str(exc)) if code in _PG_TRANSIENT else exc


class Database:
    """The engine of one database URL and what every part of the store does with it."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = url
        self.dialect = make_url(url).get_backend_name()
        self._write_lock = asyncio.Lock()
        if self.dialect == "sqlite":
            path = make_url(url).database or ""
            if not path or path == ":memory:":
                raise ValueError("ChronoDice needs a SQLite file (several connections share it)")
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.alive = Alive(AccountFiles(Path(path).parent / f".{Path(path).name}.accounts"))
            self.sqlite = sa.create_engine(
                make_url(url).set(drivername="sqlite"),
                echo=echo,
                json_deserializer=str,
                connect_args={"check_same_thread": False},
            )
            sa.event.listen(self.sqlite, "connect", _sqlite_connected)
            sa.event.listen(self.sqlite, "begin", self._sqlite_begin)
            self._begin: str | None = None
            self._held: sa.Connection | None = None
        else:
            # JSON columns come back as their text: the store parses what it needs
            self.engine: AsyncEngine = create_async_engine(
                url, echo=echo, json_deserializer=str, pool_size=12, isolation_level="AUTOCOMMIT"
            )
            self._writer = self.engine.execution_options(isolation_level="READ COMMITTED")
            self.alive = Alive(None, self.engine)

    # transactions ------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def tx(self, write: bool, *, snapshot: bool = False) -> AsyncIterator[Tx]:
        """One transaction (``write``: ``BEGIN IMMEDIATE`` on SQLite); its errors mapped.  A
        SQLite read runs each statement on its own unless ``snapshot`` (its statements then see
        one moment; PostgreSQL's reads are one statement each wherever that matters)."""
        try:
            if self.dialect == "postgresql":
                async with self._writer.begin() if write else self.engine.connect() as conn:
                    yield Tx(conn, self.dialect)
                return
            async with self._write_lock if write else contextlib.nullcontext():
                with self._sqlite_connection() as sync:
                    self._begin = "BEGIN IMMEDIATE" if write else "BEGIN" if snapshot else None
                    with sync.begin():
                        yield Tx(sync, self.dialect)
        except DBAPIError as exc:
            raise _mapped(exc, self.dialect) from exc

    @contextlib.contextmanager
    def _sqlite_connection(self) -> Iterator[sa.Connection]:
        """SQLite: the process's connection, held between transactions (a transaction runs on
        the event loop without yielding, so one is nearly always enough; another is taken from
        the engine's pool while it is in use)."""
        conn, self._held = self._held, None
        if conn is None or conn.closed or conn.invalidated:
            conn = self.sqlite.connect()
        try:
            yield conn
        finally:
            if self._held is None and not conn.invalidated:
                self._held = conn
            else:
                conn.close()

    def _sqlite_begin(self, conn: sa.Connection) -> None:
        """A SQLite transaction begins: a write takes the write lock at once (``BEGIN
        IMMEDIATE``); a read runs its statements in autocommit (each sees the newest commit)
        unless it asked for one snapshot."""
        if self._begin is not None:
            conn.exec_driver_sql(self._begin)

    async def read(self, body: Callable[[Tx], Awaitable[T]], *, snapshot: bool = False) -> T:
        async def attempt() -> T:
            async with self.tx(False, snapshot=snapshot) as tx:
                return await body(tx)

        return await self.retry(attempt, "读取")

    async def write(
        self,
        body: Callable[[Tx], Awaitable[T]],
        what: str,
        *,
        retry_conflict: bool = False,
        claim: Claim | None = None,
    ) -> T:
        """``body`` in one read-write transaction, retried on a lost race, that also makes
        ``claim`` (unless an earlier write of the same command did).  A body refused with a
        :class:`ChronoDiceError` writes nothing but still claims the event, so a second
        delivery of the refused command stays silent."""

        async def attempt() -> T:
            ev = claim.pending() if claim is not None else None
            try:
                async with self.tx(True) as tx:
                    if ev is not None:
                        await self._claim(tx, ev)
                    value = await body(tx)
            except ChronoDiceError:
                if ev is not None:
                    async with self.tx(True) as tx:
                        await self._claim(tx, ev)
                    ev.claimed = True
                raise
            if ev is not None:
                ev.claimed = True
            return value

        return await self.retry(attempt, what, retry_conflict=retry_conflict)

    @staticmethod
    async def _claim(tx: Tx, ev: Claim) -> None:
        params = {"self_id": ev.self_id, "message_id": ev.message_id, "at": SYSTEM.timestamp()}
        if await tx.run(_CLAIM[tx.dialect], params) != 1:
            raise DuplicateEvent(f"{ev.self_id}/{ev.message_id}")

    async def retry(
        self, attempt: Callable[[], Awaitable[T]], what: str, *, retry_conflict: bool = True
    ) -> T:
        """``attempt`` again after a short, growing, jittered wait while it raises
        :class:`Transient` (or :class:`Conflict` with ``retry_conflict``)."""
        delay = 0.001
        for _ in range(MAX_RETRIES):
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

    # schema --------------------------------------------------------------------------------------
    async def migrate(self, upgrade: Callable[[Any], bool]) -> bool:
        """Run ``upgrade`` (Alembic, on the sync side of a connection) in one transaction;
        processes starting together migrate one after the other (SQLite's write lock, a
        PostgreSQL advisory lock)."""
        if self.dialect == "sqlite":
            with self._sqlite_connection() as sync:
                raw = sync.connection.dbapi_connection
                assert raw is not None
                raw.execute(f"PRAGMA busy_timeout={MIGRATION_BUSY_MS}")
                self._begin = "BEGIN IMMEDIATE"
                try:
                    with sync.begin():
                        return bool(upgrade(sync))
                finally:
                    raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        async with self._writer.connect() as conn:
            await conn.execute(sa.select(sa.func.pg_advisory_lock(_MIGRATION_KEY)))
            await conn.commit()
            try:
                vacuum = await conn.run_sync(upgrade)
                await conn.commit()
            finally:
                await conn.execute(sa.select(sa.func.pg_advisory_unlock(_MIGRATION_KEY)))
                await conn.commit()
        return bool(vacuum)

    async def vacuum(self) -> None:
        """SQLite: give back the pages a migration freed."""
        if self.dialect == "sqlite":
            self.sqlite_outside("VACUUM")
            self.sqlite_outside("PRAGMA wal_checkpoint(TRUNCATE)")

    async def run_sync(self, fn: Callable[[sa.Connection], T], *, commit: bool = False) -> T:
        """``fn`` on a synchronous connection of the engine (Alembic, ``inspect``), for tools
        and tests; ``commit``: what it wrote is committed."""
        if self.dialect == "sqlite":
            with self.sqlite.connect() as sync:
                value = fn(sync)
                if commit:
                    sync.commit()
                return value
        async with self._writer.connect() as conn:
            value = await conn.run_sync(fn)
            if commit:
                await conn.commit()
            return value

    def sqlite_outside(self, sql: str) -> list[Any]:
        """SQLite: ``sql`` on a connection of the engine outside any transaction (``VACUUM``, a
        checkpoint), its rows."""
        with self.sqlite.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            return list(raw.execute(sql).fetchall())

    # values and lifecycle ---------------------------------------------------------------------------
    @staticmethod
    def dt_out(value: Any) -> datetime | None:
        """A datetime column as an aware UTC datetime (SQLite keeps them naive)."""
        if value is None:
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)

    async def close(self) -> None:
        await self.alive.close()
        if self.dialect == "sqlite":
            if self._held is not None:
                self._held.close()
                self._held = None
            self.sqlite.dispose()
        else:
            await self.engine.dispose()


def _sqlite_connected(dbapi_conn: Any, _record: Any) -> None:
    """Each new SQLite connection: WAL, SQLite's own busy wait, and transactions begun by the
    store (:func:`_sqlite_begin`) rather than by the driver."""
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    for pragma in (
        "journal_mode=WAL",
        "synchronous=NORMAL",
        "foreign_keys=ON",
        f"busy_timeout={BUSY_TIMEOUT_MS}",
        f"journal_size_limit={WAL_LIMIT_BYTES}",
    ):
        cur.execute(f"PRAGMA {pragma}")
    cur.close()


_MIGRATION_KEY = 0x43_44_01  # "CD", 1
