"""The store: SQLite (default) or PostgreSQL through one SQLAlchemy engine, composed of small
parts, each owning its statements:

* ``store.sessions`` (:mod:`.sessions`): session states, one write path;
* ``store.history`` (:mod:`.history`): ``.undo``, the session log, ``.replay``;
* ``store.characters`` (:mod:`.characters`): cards and bindings;
* ``store.groups`` (:mod:`.groups`): groups, GMs, nicknames, the view of a command's context;
* ``store.logs`` (:mod:`.gamelogs`): ``.log`` records;
* ``store.leases`` (:mod:`.leases`): which bot account serves a group;
* ``store.housekeeping`` (:mod:`.housekeeping`): prune and pending confirmations.

They share one :class:`~.db.Database` (transactions, retries, the event claim).  Writes are
never deferred: a method returns only after its transaction committed.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime, timezone

from chronodice.core.clock import SYSTEM, Clock

from .characters import Characters
from .db import Database, DuplicateEvent, StoreBusy
from .gamelogs import Logs
from .groups import Groups
from .history import History
from .housekeeping import Housekeeping
from .leases import RENEW_AHEAD, Leases
from .sessions import Sessions
from .url import normalize_database_url

DEFAULT_URL = "sqlite+aiosqlite:///data/chronodice.db"
SEEN_MAX = 20_000
"""Events this process remembers having seen (:meth:`Store.first_delivery`)."""

__all__ = ["DEFAULT_URL", "RENEW_AHEAD", "DuplicateEvent", "Store", "StoreBusy"]


class Store:
    """The repository every service uses (``app.store``).  See docs/SERVICE_API.md."""

    def __init__(
        self,
        url: str = DEFAULT_URL,
        *,
        echo: bool = False,
        lease_seconds: float = 30.0,
        clock: Clock = SYSTEM,
    ) -> None:
        self.url = url = normalize_database_url(url)
        self.db = Database(url, echo=echo)
        self.dialect = self.db.dialect
        self.clock = clock
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: dict[tuple[str, str], None] = {}
        self.sessions = Sessions(self.db, self.now)
        self.history = History(self.db, self.now)
        self.characters = Characters(self.db, self.now)
        self.groups = Groups(self.db, self.now)
        self.logs = Logs(self.db)
        self.leases = Leases(self.db, lease_seconds, self._tasks)
        self.housekeeping = Housekeeping(self.db, self.now)

    def now(self) -> datetime:
        """The time rows are stamped with (UTC)."""
        return self.clock.wall().astimezone(timezone.utc)

    async def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision, without asking."""
        from .migrate import upgrade_sync

        if await self.db.migrate(upgrade_sync):
            await self.db.vacuum()  # a converted log left free pages behind

    def first_delivery(self, self_id: str, message_id: str) -> bool:
        """False when this process already saw the event (no database access): a command that
        writes nothing is not answered twice either."""
        key = (str(self_id), str(message_id))
        if key in self._seen:
            return False
        if len(self._seen) >= SEEN_MAX:
            for old in list(self._seen)[: SEEN_MAX // 4]:
                del self._seen[old]
        self._seen[key] = None
        return True

    async def close(self) -> None:
        for task in list(self._tasks):  # a lease renewal still running: the lease simply lapses
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.db.close()
