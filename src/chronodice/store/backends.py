"""The two database drivers behind :class:`~chronodice.store.database.Store`, without an ORM.

Both speak the same small interface (:mod:`.tx`) — a transaction object with ``one`` / ``all``
/ ``run`` over SQL written once with ``$1``-style parameters — so every query of the store is
written once.

* SQLite (:mod:`.sqlite_backend`): one synchronous :mod:`sqlite3` connection per process, used
  on the event loop thread; WAL mode, checkpoints on a thread of their own, a WAL file kept
  small.
* PostgreSQL (:mod:`.pg_backend`): an :mod:`asyncpg` pool, rows read ``FOR UPDATE``, a LISTEN
  connection for the cache invalidations of other processes.

This module names them together (the store imports from here).
"""

from __future__ import annotations

from .pg_backend import ACCOUNT_LOCKS, NOTIFY_CHANNEL, PgBackend, PgTx, asyncpg_dsn
from .sqlite_backend import (
    AUTOCHECKPOINT_PAGES,
    CHECKPOINT_COMMITS,
    CHECKPOINT_SECONDS,
    WAL_LIMIT_BYTES,
    SqliteBackend,
    SqliteTx,
)
from .tx import Conflict, Rejected, Transient, Tx

Backend = SqliteBackend | PgBackend
"""The driver of a store, chosen by its URL."""

_CHECKPOINT_COMMITS = CHECKPOINT_COMMITS
""":data:`CHECKPOINT_COMMITS` by the name tests/store/test_store.py reads."""

__all__ = [
    "ACCOUNT_LOCKS",
    "AUTOCHECKPOINT_PAGES",
    "CHECKPOINT_COMMITS",
    "CHECKPOINT_SECONDS",
    "NOTIFY_CHANNEL",
    "WAL_LIMIT_BYTES",
    "Backend",
    "Conflict",
    "PgBackend",
    "PgTx",
    "Rejected",
    "SqliteBackend",
    "SqliteTx",
    "Transient",
    "Tx",
    "asyncpg_dsn",
]
