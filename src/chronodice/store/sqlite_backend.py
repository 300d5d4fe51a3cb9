"""SQLite behind :class:`~chronodice.store.database.Store` (see :mod:`.backends`).

SQLAlchemy's synchronous engine (the standard :mod:`sqlite3` driver) with one connection held
for the process and used on the event loop thread: a whole transaction runs without a thread
hop or an await that suspends.  Measured (``benchmarks/bench_store_drivers.py``), a session
command's transaction costs 119 µs this way, 203 µs with a pool checkout per transaction and
about 2,000 µs through aiosqlite's thread (the whole budget of a ``.init next``).

The connection is in SQLAlchemy's AUTOCOMMIT mode, and the store sends ``BEGIN IMMEDIATE`` (a
write) or ``BEGIN`` and ``COMMIT`` itself: a write takes the write lock at its start, so two
processes never dead-lock upgrading a read lock.  WAL mode, so reads never wait for writers.
``busy_timeout`` is 0: when another *process* holds the write lock, ``BEGIN IMMEDIATE`` fails
at once and the store retries after an ``asyncio.sleep`` instead of blocking the loop.
``PRAGMA data_version`` tells when another connection committed, which is how the caches stay
correct with several processes.  Checkpoints (copying the WAL into the database file, with its
fsyncs) run on a thread of their own, not in a commit on the loop
(:meth:`SqliteBackend.checkpoint_soon`); the WAL file is kept small (:data:`WAL_LIMIT_BYTES`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import Executable

from chronodice.core.clock import SYSTEM

from . import tables
from .alive import AccountFiles
from .tx import Conflict, Params, Transient, Tx

log = logging.getLogger("chronodice.store")


def _sqlite_error(exc: BaseException) -> BaseException:
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        exc = exc.orig
    msg = str(exc).lower()
    if isinstance(exc, sqlite3.IntegrityError) or "unique" in msg:
        return Conflict(str(exc))
    if "locked" in msg or "busy" in msg:
        return Transient(str(exc))
    return exc


class SqliteTx(Tx):
    """A transaction on the process's connection."""

    dialect = "sqlite"

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def _execute(self, stmt: Executable, params: Params) -> Any:
        try:
            return self.conn.execute(stmt, params)  # type: ignore[arg-type]
        except (sqlite3.Error, DBAPIError) as exc:
            raise _sqlite_error(exc) from exc

    async def one(self, stmt: Executable, params: Params = None) -> Any:
        return self._execute(stmt, params).first()

    async def all(self, stmt: Executable, params: Params = None) -> list[Any]:
        return list(self._execute(stmt, params).all())

    async def run(self, stmt: Executable, params: Params = None) -> int:
        return int(self._execute(stmt, params).rowcount)


CHECKPOINT_COMMITS = 32
CHECKPOINT_SECONDS = 1.0
"""A checkpoint is started after this many write commits, or after the first commit this long
after the last one started."""
WAL_LIMIT_BYTES = 1024 * 1024
"""``PRAGMA journal_size_limit``: when a commit starts the WAL over from its beginning (the
last checkpoint copied all of it), a WAL file larger than this is truncated to it.  Without a
limit SQLite only ever overwrites the file, which keeps the size of the largest burst it ever
held (21 MB after a 1,000-action bench battle played at full speed, 42 MB before a battle's
actions became rows)."""
AUTOCHECKPOINT_PAGES = 1000
"""``PRAGMA wal_autocheckpoint``, SQLite's default (4 MB at 4 KiB pages): SQLite's own
checkpoint, run inside the commit that crosses it, with the event loop waiting.

While commits come seconds apart, the checkpoint thread's copy ends before the next commit,
which then starts the WAL over, and this never runs.  In a burst of commits (a battle played
fast, an import) each of the thread's checkpoints finds new frames written behind it, so the
WAL is never all copied when a commit begins and grows until this copies the rest: one wait
for the disk per 4 MB written in a burst.  At 128 pages the WAL stayed under 1 MB, but the
waits took 10% off ``.init next`` at 16 in flight (1.21 → 1.33 ms per command); at 1,000 the
cost does not show.  So a burst may leave up to about 4 MB in the WAL, cut back to
:data:`WAL_LIMIT_BYTES` by the next commit after a checkpoint."""


class SqliteBackend:
    """The SQLite file of a store: its connection, checkpoints and alive accounts."""

    dialect = "sqlite"

    def __init__(self, url: str) -> None:
        db = make_url(url).database or ""
        if not db or db == ":memory:":
            raise ValueError("ChronoDice needs a SQLite file (several connections share it)")
        Path(db).parent.mkdir(parents=True, exist_ok=True)
        self.path = db
        self._engine = sa.create_engine(
            make_url(url).set(drivername="sqlite"),
            connect_args={"isolation_level": None, "check_same_thread": False},
        )
        sa.event.listen(self._engine, "connect", _pragmas)
        self._conn: Connection | None = None
        self._raw: Any = None
        self._lock = asyncio.Lock()
        self._data_version = -1
        self.on_foreign_change: Callable[[], None] = lambda: None
        self._commits = 0
        self._last_checkpoint = 0.0
        self._checkpointer: ThreadPoolExecutor | None = None
        self._checkpointing: Future[None] | None = None
        self._checkpoint_conn: Any = None
        self.accounts: set[str] = set()
        """The bot accounts connected to this process."""
        self.alive = AccountFiles(Path(db).parent / f".{Path(db).name}.accounts")

    async def hold_account(self, self_id: str) -> None:
        self.accounts.add(self_id)
        self.alive.hold(self_id)

    async def drop_account(self, self_id: str) -> None:
        self.accounts.discard(self_id)
        self.alive.drop(self_id)

    def known_gone(self, holder: str, asker: str) -> bool:
        """Whether ``holder``'s account is gone, asked without the database: the asker is
        connected here and no process holds the holder's lock file (:mod:`.alive`)."""
        return asker in self.accounts and holder not in self.accounts and self.alive.gone(holder)

    def holder_gone(self, suspects: Iterable[str]) -> sa.ColumnElement[bool]:
        """A condition on ``bot_leases.self_id``: one of ``suspects`` whose lock file nobody
        holds (checked here, before the statement)."""
        gone = [h for h in suspects if h not in self.accounts and self.alive.gone(h)]
        return tables.bot_leases.c.self_id.in_(gone)

    def _connect(self) -> Connection:
        """The process's connection (SQLAlchemy AUTOCOMMIT: the store sends BEGIN and COMMIT)."""
        if self._conn is None:
            self._conn = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            self._raw = self._conn.connection.dbapi_connection
        return self._conn

    # checkpoints ----------------------------------------------------------------------------
    def checkpoint_soon(self) -> None:
        """After a write commit: start a checkpoint on the checkpoint thread when enough was
        written since the last (and none is running).

        In WAL mode a commit appends pages to the WAL; now and then they are copied back into
        the database file, and with ``synchronous=NORMAL`` that is where SQLite syncs the disk
        (twice).  SQLite does it inside the commit that crosses ``wal_autocheckpoint`` pages, so
        one command in every few dozen waited for the disk with the whole bot stopped behind it
        (on the event loop).  A ``PASSIVE`` checkpoint on another connection neither waits for
        nor blocks this one's readers and writers, and the sqlite3 module lets go of the GIL
        while it runs.  Durability is unchanged: a commit is in the WAL either way."""
        self._commits += 1
        if self._checkpointing is not None:
            return
        now = SYSTEM.monotonic()
        if self._commits < CHECKPOINT_COMMITS and now - self._last_checkpoint < CHECKPOINT_SECONDS:
            return
        if self._checkpointer is None:
            self._checkpointer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-checkpoint")
        self._commits = 0
        self._last_checkpoint = now
        self._checkpointing = self._checkpointer.submit(self._checkpoint)
        self._checkpointing.add_done_callback(self._checkpointed)

    def _checkpoint(self) -> None:
        """On the checkpoint thread (its own connection, only ever used there)."""
        try:
            if self._checkpoint_conn is None:
                self._checkpoint_conn = self._engine.raw_connection()
            self._checkpoint_conn.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            log.debug("WAL checkpoint failed (SQLite's own will run)", exc_info=True)

    def _checkpointed(self, _done: Future[None]) -> None:
        self._checkpointing = None

    def _stop_checkpoints(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.shutdown(wait=True)  # a running checkpoint is left to finish
            self._checkpointer = None
        if self._checkpoint_conn is not None:
            self._checkpoint_conn.close()
            self._checkpoint_conn = None

    def check_foreign_changes(self) -> bool:
        """True (and ``on_foreign_change`` called) when another connection committed since the
        last check.  Own commits do not count: this connection is the process's only one."""
        try:
            self._connect()
            (v,) = self._raw.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error:
            self.on_foreign_change()
            return True
        if v != self._data_version:
            changed = self._data_version != -1
            self._data_version = v
            if changed:
                self.on_foreign_change()
            return changed
        return False

    @contextlib.asynccontextmanager
    async def tx(self, write: bool) -> AsyncIterator[Tx]:
        async with self._lock:
            conn = self._connect()
            raw = self._raw
            try:
                raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.Error as exc:
                raise _sqlite_error(exc) from exc
            # a transaction's first read sees the newest commits: look for foreign ones
            self.check_foreign_changes()
            try:
                yield SqliteTx(conn)
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    raw.execute("ROLLBACK")
                raise
            try:
                raw.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    raw.execute("ROLLBACK")
                raise _sqlite_error(exc) from exc
            if write:
                self.checkpoint_soon()

    async def migrate(self, upgrade: Callable[[Connection], bool]) -> bool:
        """Run ``upgrade`` (Alembic) in one ``BEGIN IMMEDIATE`` transaction on a connection of
        the engine, waiting up to 30 s for another process's migration to end."""
        with self._engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            raw.execute("PRAGMA busy_timeout=30000")
            sa.event.listen(conn, "begin", begin_immediate)
            try:
                with conn.begin():
                    return upgrade(conn)
            finally:
                raw.execute("PRAGMA busy_timeout=0")

    async def start(self) -> None:
        self._connect()
        self.check_foreign_changes()

    def vacuum(self) -> None:
        try:
            self._connect()
            self._raw.execute("VACUUM")
            self._raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            log.warning("VACUUM after the migration failed", exc_info=True)

    async def close(self) -> None:
        self.alive.close()
        await asyncio.to_thread(self._stop_checkpoints)
        if self._conn is not None:
            self._conn.close()
            self._conn = self._raw = None
        self._engine.dispose()

    def cache_usable(self) -> bool:
        self.check_foreign_changes()
        return True

    # value conversions
    @staticmethod
    def dt_out(value: Any) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def _pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Each new connection of the engine (the process's and the checkpoint thread's)."""
    for pragma in (
        "journal_mode=WAL",
        "synchronous=NORMAL",
        "foreign_keys=ON",
        "busy_timeout=0",
        f"wal_autocheckpoint={AUTOCHECKPOINT_PAGES}",
        f"journal_size_limit={WAL_LIMIT_BYTES}",
    ):
        dbapi_conn.execute(f"PRAGMA {pragma}")


def begin_immediate(conn: Connection) -> None:
    """A transaction that takes the write lock at once: a migration's (see
    :meth:`SqliteBackend.migrate`) and those of the store's test engine."""
    conn.exec_driver_sql("BEGIN IMMEDIATE")
