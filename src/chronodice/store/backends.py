"""The two databases behind :class:`~chronodice.store.database.Store`, both through SQLAlchemy.

Both speak the same small interface (:mod:`.tx`) — a transaction object with ``one`` / ``all``
/ ``run`` over SQLAlchemy Core statements on the tables of :mod:`.tables` — so every statement
of the store is written once and compiled by SQLAlchemy for each database.

* SQLite (:mod:`.sqlite_backend`): SQLAlchemy's synchronous engine, one connection per process
  used on the event loop thread; WAL mode, checkpoints on a thread of their own, a WAL file kept
  small.
* PostgreSQL (:mod:`.pg_backend`): SQLAlchemy's async engine on asyncpg, rows read
  ``FOR UPDATE``, a LISTEN connection for the cache invalidations of other processes.

This module names them together (the store imports from here).
"""

from __future__ import annotations

from .pg_backend import ACCOUNT_LOCKS, NOTIFY_CHANNEL, PgBackend, PgTx
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
]
