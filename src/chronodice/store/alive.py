"""Which bot accounts are alive: :class:`Alive`, on SQLite a shared ``flock`` on a file per
account (:class:`AccountFiles`), on PostgreSQL a shared advisory lock per account on a
connection held for that, which the server frees with the connection.

Several bot processes may share one SQLite file (a restart that overlaps the old process, two
accounts run apart).  A process holds a shared lock on ``<account>.lock`` for each account
connected to it; the kernel frees it the moment the process dies, SIGKILL included.  Another
process then finds the lock free and knows the account's leases are stale, without waiting for
them to lapse.  Where ``fcntl`` is missing (Windows) every holder counts as alive: leases lapse as before.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import OID
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import tables

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Linux
    fcntl = None  # type: ignore[assignment]

_UNSAFE = re.compile(r"[^0-9A-Za-z_-]")
log = logging.getLogger("chronodice.store")
ACCOUNT_LOCKS = 1128555595
"""PostgreSQL: the first key of the advisory locks that show a bot account alive ("CDiK")."""


class AccountFiles:
    """The lock files of one database's accounts, in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._held: dict[str, int] = {}

    def _path(self, self_id: str) -> Path:
        return self.folder / f"{_UNSAFE.sub('_', self_id)[:64]}.lock"

    def hold(self, self_id: str) -> None:
        """Mark ``self_id`` alive in this process (until :meth:`drop` or the process ends)."""
        if fcntl is None or self_id in self._held:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self._path(self_id), os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_SH)
        self._held[self_id] = fd

    def drop(self, self_id: str) -> None:
        fd = self._held.pop(self_id, None)
        if fd is not None:
            os.close(fd)  # closing the descriptor releases its lock

    def gone(self, self_id: str) -> bool:
        """Whether no process holds ``self_id`` (an exclusive lock can be had at once)."""
        if fcntl is None or self_id in self._held:
            return False
        try:
            fd = os.open(self._path(self_id), os.O_RDWR)
        except FileNotFoundError:
            return True  # never marked alive by any process
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # someone holds it
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return True
        finally:
            os.close(fd)

    def close(self) -> None:
        for self_id in list(self._held):
            with contextlib.suppress(OSError):
                self.drop(self_id)


class Alive:
    """The bot accounts connected to this process, marked alive while it lives: by lock files
    (``files``, SQLite) or by advisory locks on a connection of ``engine`` (PostgreSQL)."""

    def __init__(self, files: AccountFiles | None, engine: AsyncEngine | None = None) -> None:
        self.files = files
        self.engine = engine
        self.accounts: set[str] = set()
        self._holder: AsyncConnection | None = None

    def __contains__(self, self_id: object) -> bool:
        return self_id in self.accounts

    async def hold(self, self_id: str) -> None:
        """Mark ``self_id`` alive while this process lives."""
        if self_id in self.accounts:
            return
        self.accounts.add(self_id)
        if self.files is not None:
            self.files.hold(self_id)
            return
        assert self.engine is not None
        try:
            if self._holder is None:
                self._holder = await self.engine.connect()
            await self._holder.execute(_LOCK, {"key": ACCOUNT_LOCKS, "account": self_id})
        except Exception:
            log.warning("PostgreSQL: marking account %s alive failed", self_id, exc_info=True)

    async def drop(self, self_id: str) -> None:
        self.accounts.discard(self_id)
        if self.files is not None:
            self.files.drop(self_id)
        elif self._holder is not None:
            with contextlib.suppress(Exception):
                await self._holder.execute(_UNLOCK, {"key": ACCOUNT_LOCKS, "account": self_id})

    def known_gone(self, holder: str, asker: str) -> bool:
        """Whether ``holder``'s process is known dead without asking the database (SQLite: no
        process holds its lock file; PostgreSQL never knows without asking)."""
        return (
            self.files is not None
            and asker in self.accounts
            and holder not in self.accounts
            and self.files.gone(holder)
        )

    def holder_gone(self, suspects: Iterable[str]) -> sa.ColumnElement[bool]:
        """A condition on ``bot_leases.self_id``: the holder's process is gone."""
        if self.files is not None:
            gone = [h for h in suspects if h not in self.accounts and self.files.gone(h)]
            return tables.bot_leases.c.self_id.in_(gone)
        account = sa.cast(sa.func.hashtext(tables.bot_leases.c.self_id), OID)
        return account.not_in(_HELD)

    async def close(self) -> None:
        if self.files is not None:
            self.files.close()
        if self._holder is not None:
            with contextlib.suppress(Exception):
                await self._holder.close()
            self._holder = None


_ACCOUNT = sa.func.hashtext(sa.bindparam("account", type_=sa.String))
_LOCK = sa.select(sa.func.pg_advisory_lock_shared(sa.bindparam("key", type_=sa.Integer), _ACCOUNT))
_UNLOCK = sa.select(sa.func.pg_advisory_unlock_shared(sa.bindparam("key", type_=sa.Integer), _ACCOUNT))
_pg_locks = sa.table(
    "pg_locks", *(sa.column(c) for c in ("locktype", "granted", "objsubid", "classid", "objid"))
)
_HELD = sa.select(_pg_locks.c.objid).where(
    _pg_locks.c.locktype == "advisory",
    _pg_locks.c.granted,
    _pg_locks.c.objsubid == 2,
    _pg_locks.c.classid == sa.cast(ACCOUNT_LOCKS, OID),
)
"""The accounts (``objid``) whose shared advisory lock some connection holds (PostgreSQL's own
``pg_locks`` view; never NULL, so ``NOT IN`` is safe)."""
