"""Which bot accounts are alive, for SQLite: a shared ``flock`` on a file per account.

Several bot processes may share one SQLite file (a restart that overlaps the old process, two
accounts run apart).  A process holds a shared lock on ``<account>.lock`` for each account
connected to it; the kernel frees it the moment the process dies, SIGKILL included.  Another
process then finds the lock free and knows the account's leases are stale, without waiting for
them to lapse.  (PostgreSQL does the same with advisory locks, see ``backends.PgBackend``.)
Where ``fcntl`` is missing (Windows) every holder counts as alive: leases lapse as before.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Linux
    fcntl = None  # type: ignore[assignment]

_UNSAFE = re.compile(r"[^0-9A-Za-z_-]")


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
