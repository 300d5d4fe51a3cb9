"""The two database drivers behind :class:`~chronodice.store.database.Store`, without an ORM.

Both speak the same small interface — a transaction object with ``one`` / ``all`` / ``run`` over
SQL written once with ``$1``-style parameters — so every query of the store is written once.

* SQLite: one synchronous :mod:`sqlite3` connection per process, used on the event loop thread.
  A whole transaction runs without a thread hop or an await that suspends; WAL mode, so reads
  never wait for writers.  ``busy_timeout`` is 0: when another *process* holds the write lock,
  ``BEGIN IMMEDIATE`` fails at once and the store retries after an ``asyncio.sleep`` instead of
  blocking the loop.  ``PRAGMA data_version`` tells when another connection committed, which is
  how the caches stay correct with several processes.  Checkpoints (copying the WAL into the
  database file, with its fsyncs) run on a thread of their own, not in a commit on the loop
  (:meth:`SqliteBackend.checkpoint_soon`).
* PostgreSQL: an :mod:`asyncpg` pool (prepared statements, no greenlet), rows read ``FOR
  UPDATE``.  A LISTEN connection receives the notifications sent by triggers (migration 0003)
  when a cached row changes in another process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from .alive import AccountFiles

log = logging.getLogger("chronodice.store")

NOTIFY_CHANNEL = "chronodice_cache"
ACCOUNT_LOCKS = 1128555595
"""The first key of the advisory locks that show a bot account's process alive ("CDiK")."""
_PARAM = re.compile(r"\$(\d+)")


class Transient(Exception):
    """The database was busy (lock, serialization failure, lost insert race): retry."""


class Conflict(Exception):
    """A unique key was violated (not retried)."""


class Rejected(Exception):
    """The statement was refused whole for the data it carried (a character the database or
    the encoder does not take): nothing was written, so the commands batched with the bad
    one can be written without it."""


class Tx:
    """One transaction: ``one`` (first row or None), ``all`` (rows), ``run`` (rows changed)."""

    dialect: str
    for_update: str

    async def one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        raise NotImplementedError

    async def all(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def run(self, sql: str, *args: Any) -> int:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------- SQLite
_sqlite_sql: dict[str, str] = {}


def _to_sqlite(sql: str) -> str:
    out = _sqlite_sql.get(sql)
    if out is None:
        out = _sqlite_sql[sql] = _PARAM.sub(r"?\1", sql.replace(" FOR UPDATE", ""))
    return out


def _sqlite_error(exc: sqlite3.Error) -> Exception:
    msg = str(exc).lower()
    if isinstance(exc, sqlite3.IntegrityError) or "unique" in msg:
        return Conflict(str(exc))
    if "locked" in msg or "busy" in msg:
        return Transient(str(exc))
    return exc


class SqliteTx(Tx):
    dialect = "sqlite"
    for_update = ""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        try:
            return self.conn.execute(_to_sqlite(sql), args).fetchone()
        except sqlite3.Error as exc:
            raise _sqlite_error(exc) from exc

    async def all(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        try:
            return self.conn.execute(_to_sqlite(sql), args).fetchall()
        except sqlite3.Error as exc:
            raise _sqlite_error(exc) from exc

    async def run(self, sql: str, *args: Any) -> int:
        try:
            return self.conn.execute(_to_sqlite(sql), args).rowcount
        except sqlite3.Error as exc:
            raise _sqlite_error(exc) from exc


_CHECKPOINT_COMMITS = 32
_CHECKPOINT_SECONDS = 1.0
"""A checkpoint is started after this many write commits, or after the first commit this long
after the last one started."""
_AUTOCHECKPOINT_PAGES = 10_000
"""SQLite's own checkpoint inside a commit (default 1,000 pages): only a backstop here, for a
WAL that the checkpoint thread could not keep small (40 MB at 4 KB pages)."""


class SqliteBackend:
    dialect = "sqlite"

    def __init__(self, url: str) -> None:
        db = make_url(url).database or ""
        if not db or db == ":memory:":
            raise ValueError("ChronoDice needs a SQLite file (several connections share it)")
        Path(db).parent.mkdir(parents=True, exist_ok=True)
        self.path = db
        self._conn: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()
        self._data_version = -1
        self.on_foreign_change: Callable[[], None] = lambda: None
        self._commits = 0
        self._last_checkpoint = 0.0
        self._checkpointer: ThreadPoolExecutor | None = None
        self._checkpointing: Future[None] | None = None
        self._checkpoint_conn: sqlite3.Connection | None = None
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

    def holder_gone_sql(self, suspects: Iterable[str]) -> tuple[str, list[Any]]:
        """A condition on ``bot_leases.self_id``: one of ``suspects`` whose lock file nobody
        holds (checked here, before the statement), with its parameters."""
        gone = [h for h in suspects if h not in self.accounts and self.alive.gone(h)]
        return "bot_leases.self_id IN (SELECT value FROM json_each($6))", [json.dumps(gone)]

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=0")
            conn.execute(f"PRAGMA wal_autocheckpoint={_AUTOCHECKPOINT_PAGES}")
            self._conn = conn
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
        now = time.monotonic()
        if self._commits < _CHECKPOINT_COMMITS and now - self._last_checkpoint < _CHECKPOINT_SECONDS:
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
                self._checkpoint_conn = sqlite3.connect(
                    self.path, isolation_level=None, check_same_thread=False
                )
            self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
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
            (v,) = self._connect().execute("PRAGMA data_version").fetchone()
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
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.Error as exc:
                raise _sqlite_error(exc) from exc
            # a transaction's first read sees the newest commits: look for foreign ones
            self.check_foreign_changes()
            try:
                yield SqliteTx(conn)
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            try:
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise _sqlite_error(exc) from exc
            if write:
                self.checkpoint_soon()

    async def start(self) -> None:
        self._connect()
        self.check_foreign_changes()

    def vacuum(self) -> None:
        try:
            conn = self._connect()
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            log.warning("VACUUM after the migration failed", exc_info=True)

    async def close(self) -> None:
        self.alive.close()
        await asyncio.to_thread(self._stop_checkpoints)
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def cache_usable(self) -> bool:
        self.check_foreign_changes()
        return True

    # value conversions
    @staticmethod
    def dt_in(dt: datetime) -> Any:
        return dt.astimezone(timezone.utc).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")

    @staticmethod
    def dt_out(value: Any) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


# ------------------------------------------------------------------------------------ PostgreSQL
def _pg_error(exc: Exception) -> Exception:
    import asyncpg

    if isinstance(exc, asyncpg.UniqueViolationError):
        return Conflict(str(exc))
    if isinstance(exc, asyncpg.DataError | UnicodeError):
        return Rejected(str(exc))
    if isinstance(
        exc,
        asyncpg.SerializationError | asyncpg.DeadlockDetectedError | asyncpg.LockNotAvailableError,
    ):
        return Transient(str(exc))
    return exc


def _rowcount(status: str) -> int:
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


class PgTx(Tx):
    dialect = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        try:
            row = await self.conn.fetchrow(sql, *args)
        except Exception as exc:
            raise _pg_error(exc) from exc
        return tuple(row) if row is not None else None

    async def all(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        try:
            rows = await self.conn.fetch(sql, *args)
        except Exception as exc:
            raise _pg_error(exc) from exc
        return [tuple(r) for r in rows]

    async def run(self, sql: str, *args: Any) -> int:
        try:
            return _rowcount(await self.conn.execute(sql, *args))
        except Exception as exc:
            raise _pg_error(exc) from exc


async def _no_reset(_conn: Any) -> None:
    """Pool connections keep no session state (see :meth:`PgBackend.start`)."""


def asyncpg_dsn(url: str) -> str:
    """The libpq-style DSN that ``asyncpg.connect``/``create_pool`` take for a store URL.

    SQLAlchemy's asyncpg dialect wants ``?ssl=require`` (a keyword of ``asyncpg.connect``), which
    :func:`~chronodice.store.url.normalize_database_url` writes; in a DSN, though, asyncpg reads
    only ``sslmode`` and sends every other query key to the server as a run-time setting — the
    server then refused ``ssl`` ("parameter "ssl" cannot be changed now") and the bot exited.

    >>> asyncpg_dsn("postgresql+asyncpg://dice:pw@db:5432/chronodice?ssl=require")
    'postgresql://dice:pw@db:5432/chronodice?sslmode=require'
    """
    parsed = make_url(url).set(drivername="postgresql")
    if "ssl" in parsed.query:
        query = {("sslmode" if key == "ssl" else key): value for key, value in parsed.query.items()}
        parsed = parsed.set(query=query)
    return parsed.render_as_string(hide_password=False)


class PgBackend:
    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        self.dsn = asyncpg_dsn(url)
        self._pool: Any = None
        self._listener: Any = None
        self._own_pids: set[int] = set()
        self._listening = False
        self._start_lock = asyncio.Lock()
        self.on_notify: Callable[[str], None] = lambda _key: None
        self.on_foreign_change: Callable[[], None] = lambda: None
        self.accounts: set[str] = set()
        """The bot accounts connected to this process: each holds a shared advisory lock on the
        LISTEN connection, which PostgreSQL frees the moment the process dies."""
        self._listener_lock = asyncio.Lock()

    async def hold_account(self, self_id: str) -> None:
        if self._pool is None:
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
                        await conn.execute(
                            "SELECT pg_advisory_unlock_shared($1, hashtext($2))", ACCOUNT_LOCKS, self_id
                        )

    async def _lock_accounts(self, ids: Iterable[str]) -> None:
        conn = self._listener
        if conn is None:
            return
        try:
            async with self._listener_lock:
                for self_id in ids:
                    await conn.execute(
                        "SELECT pg_advisory_lock_shared($1, hashtext($2))", ACCOUNT_LOCKS, self_id
                    )
        except Exception:
            log.warning("PostgreSQL: marking the connected accounts alive failed", exc_info=True)

    @staticmethod
    def known_gone(holder: str, asker: str) -> bool:
        """Never without asking: another process may hold the account (see :meth:`holder_gone_sql`)."""
        return False

    def holder_gone_sql(self, suspects: Iterable[str] = ()) -> tuple[str, list[Any]]:
        """A condition on ``bot_leases.self_id``: no process holds that account's lock (its
        process died, or it disconnected), with its parameters."""
        return (
            "NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2"
            f" AND classid = {ACCOUNT_LOCKS}::oid AND objid = hashtext(bot_leases.self_id)::oid)",
            [],
        )

    async def start(self) -> None:
        if self._pool is not None:
            return
        async with self._start_lock:
            if self._pool is not None:
                return
            import asyncpg

            async def init(conn: Any) -> None:
                self._own_pids.add(conn.get_server_pid())

            # ``reset``: asyncpg's default sends "RESET ALL; UNLISTEN *; …" on every release —
            # a round trip per transaction for session state these connections never set
            # (LISTEN has a connection of its own; migrations lock on SQLAlchemy's)
            self._pool = await asyncpg.create_pool(
                self.dsn, min_size=1, max_size=12, init=init, reset=_no_reset
            )
            await self._listen()

    async def _listen(self) -> None:
        import asyncpg

        try:
            conn = await asyncpg.connect(self.dsn)
            await conn.add_listener(NOTIFY_CHANNEL, self._notified)
            conn.add_termination_listener(self._lost)
        except Exception:
            log.warning("PostgreSQL LISTEN failed: caches stay off", exc_info=True)
            self._listening = False
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
        self._listener = None
        self.on_foreign_change()

    def cache_usable(self) -> bool:
        return self._listening

    @contextlib.asynccontextmanager
    async def tx(self, write: bool) -> AsyncIterator[Tx]:
        if self._pool is None:
            await self.start()
        elif not self._listening and self._listener is None:
            with contextlib.suppress(Exception):
                await self._listen()
        try:
            async with self._pool.acquire() as conn:
                if write:
                    async with conn.transaction():
                        yield PgTx(conn)
                else:
                    # under READ COMMITTED every statement reads its own snapshot, so BEGIN and
                    # COMMIT around reads only cost two round trips
                    yield PgTx(conn)
        except (Conflict, Transient):
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
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @staticmethod
    def dt_in(dt: datetime) -> Any:
        return dt

    @staticmethod
    def dt_out(value: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value


Backend = SqliteBackend | PgBackend
