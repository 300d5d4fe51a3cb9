"""PostgreSQL behind :class:`~chronodice.store.database.Store` (see :mod:`.backends`).

An :mod:`asyncpg` pool (prepared statements, no greenlet), rows read ``FOR UPDATE``.  A LISTEN
connection receives the notifications sent by triggers (migration 0003) when a cached row
changes in another process, and holds the advisory locks that show this process's bot accounts
alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from datetime import datetime, timezone
from typing import Any

from sqlalchemy.engine import make_url

from .tx import Conflict, Rejected, Transient, Tx

log = logging.getLogger("chronodice.store")

NOTIFY_CHANNEL = "chronodice_cache"
ACCOUNT_LOCKS = 1128555595
"""The first key of the advisory locks that show a bot account's process alive ("CDiK")."""


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
    """A transaction (or, for reads, a plain connection) of the pool."""

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
    """The PostgreSQL database of a store: its pool, LISTEN connection and account locks."""

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
