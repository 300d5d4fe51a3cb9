"""The store: SQLite (default) or PostgreSQL, with process-local caches that stay correct.

* Every transaction is one unit on one connection (see :mod:`.backends`): SQLite runs it on the
  event loop thread with ``BEGIN IMMEDIATE`` (no thread hop, no lock-upgrade dead-lock);
  PostgreSQL reads rows ``FOR UPDATE``.  On top of both, mutable rows carry a ``version`` and are
  written with a compare-and-set; a lost race is retried from the read, so no update is ever
  lost, also when several bot processes share one database.
* Writes are never deferred: a method returns only after its transaction committed.
* What nearly every command reads — the group (switch, settings, GMs), nicknames, bindings and
  character cards — is cached in process memory.  A cache entry is dropped when this process
  writes the row, and when another process does: SQLite's ``PRAGMA data_version`` (checked on
  each use) or PostgreSQL ``NOTIFY`` from triggers.  Without a working LISTEN connection the
  PostgreSQL store reads through.
* The session log keeps a reverse patch per command (:mod:`.patch`), not the whole state.
* Exactly once: inside :meth:`Store.event` the first write of a command also claims the
  event's (self_id, message_id); a second delivery raises :class:`DuplicateEvent` and writes
  nothing.  :meth:`Store.serves` leases each group to one bot account.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any, TypeVar

from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound

from . import patch as jpatch
from .backends import Backend, Conflict, PgBackend, SqliteBackend, Transient, Tx
from .gamelogs import GameLogStore
from .records import CharacterRecord, ContextView, GameLog, GroupRecord, LogEntry, UndoResult
from .states import Cached, SessionCodec, StateCache
from .url import normalize_database_url

T = TypeVar("T")
S = TypeVar("S")

DEFAULT_URL = "sqlite+aiosqlite:///data/chronodice.db"
_MAX_RETRIES = 200
_MIGRATION_LOCK = 0x43_44_01  # advisory lock key for PostgreSQL migrations ("CD", 1)
_CACHE_MAX = 50_000
RENEW_AHEAD = 5.0
"""Seconds of lease left above which the serving account renews in the background."""
log = logging.getLogger("chronodice.store")

_CHAR_COLS = "id, owner_id, system, name, attributes, data, version, created_at, updated_at"
_BATCH_SQL = (
    "WITH u AS (UPDATE sessions SET state = $1, version = $2, updated_at = $3"
    " WHERE scope = $4 AND system = $5 AND version = $6 AND created_at = $7 RETURNING 1),"
    " l AS (INSERT INTO session_log (scope, system, user_id, command, before, characters_before,"
    " version_after, undone, created_at, patch)"
    " SELECT $4, $5, x.u, x.c, x.b::json, x.cb::json, x.v, false, $3, x.p::json"
    " FROM u, unnest($8::text[], $9::text[], $10::text[], $11::text[], $12::int[], $13::text[])"
    " WITH ORDINALITY AS x(u, c, b, cb, v, p, o) ORDER BY x.o),"
    " c AS (INSERT INTO event_claims (self_id, message_id, claimed_at)"
    " SELECT y.s, y.m, $16::float8 FROM u, unnest($14::text[], $15::text[]) AS y(s, m))"
    " SELECT count(*) FROM u"
)
"""PostgreSQL: a batch of session commands (see :meth:`Store._apply_batch_at_once`): the final
state, a log row per command that changed it, in order, and the events claimed."""
_ROW_IS_SQL = (
    "SELECT count(*) FROM sessions WHERE scope = $1 AND system = $2 AND version = $3 AND created_at = $4"
)
_CLAIM_IF_ROW_SQL = (
    "INSERT INTO event_claims (self_id, message_id, claimed_at) SELECT $5, $6, $7::float8"
    " FROM sessions WHERE scope = $1 AND system = $2 AND version = $3 AND created_at = $4"
)
_BATCH_CLAIM_SQL = (
    "WITH s AS (SELECT 1 FROM sessions WHERE scope = $1 AND system = $2 AND version = $3 AND created_at = $4),"
    " c AS (INSERT INTO event_claims (self_id, message_id, claimed_at)"
    " SELECT y.s, y.m, $7::float8 FROM s, unnest($5::text[], $6::text[]) AS y(s, m))"
    " SELECT count(*) FROM s"
)
"""PostgreSQL: a batch that changed nothing: the row still the cached one, and the events claimed."""
_USER_SQL = (
    f"SELECT b.scope, b.character_id, {', '.join('c.' + col for col in _CHAR_COLS.split(', '))}, NULL"
    " FROM bindings b LEFT JOIN characters c ON c.id = b.character_id WHERE b.user_id = $1"
    " UNION ALL SELECT n.scope, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, n.name"
    " FROM nicknames n WHERE n.user_id = $1"
)
"""A user's bindings with their cards, then the user's nicknames (see :meth:`Store._user`)."""
_CHAR_CAS = (
    "UPDATE characters SET name = $1, system = $2, attributes = $3, data = $4, version = $5,"
    " updated_at = $6 WHERE id = $7 AND version = $8"
)


class StoreBusy(ChronoDiceError):
    """The database stayed busy through every retry."""


class DuplicateEvent(Exception):
    """This event (same bot account, same message id) was already applied: stay silent."""


@dataclass
class _Event:
    self_id: str
    message_id: str
    claimed: bool = False
    began: float = field(default_factory=time.monotonic)


_EVENT: contextvars.ContextVar[_Event | None] = contextvars.ContextVar("chronodice_event", default=None)


@dataclass(eq=False)
class _Job:
    """A command's session write queued on PostgreSQL (see :meth:`Store._drain`)."""

    codec: Any
    fn: Callable[[Any], tuple[Any, Any]]
    reuse: Any
    log_row: tuple[str, str, str | None]
    event: _Event | None
    future: asyncio.Future[Any]

    def resolve(self, value: Any) -> None:
        if not self.future.done():  # not when its caller is gone
            self.future.set_result(value)

    def fail(self, exc: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(exc)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _j(value: Any) -> Any:
    """A JSON column's value (text on both drivers) as Python data."""
    if value is None:
        return None
    if isinstance(value, str | bytes):
        return json.loads(value)
    return value


def _jtext(value: Any) -> str | None:
    return None if value is None else jpatch.dumps(value)


def _clone(value: Any) -> Any:
    """A deep copy of JSON data."""
    if value is None:
        return None
    return json.loads(jpatch.dumps(value))


def _copy_char(rec: CharacterRecord) -> CharacterRecord:
    return replace(rec, attributes=dict(rec.attributes), data=_clone(rec.data) if rec.data else {})


def _copy_group(rec: GroupRecord) -> GroupRecord:
    return replace(rec, settings=_clone(rec.settings)) if rec.settings else rec


class _Cache:
    """Process-local copies of rows; ``epoch`` grows on every invalidation so that a read which
    raced with one does not store what it read."""

    def __init__(self) -> None:
        self.groups: dict[str, GroupRecord] = {}
        self.nicks: dict[str, dict[str, str]] = {}
        self.binds: dict[str, dict[str, int]] = {}
        self.chars: dict[int, CharacterRecord] = {}
        self.logs: dict[str, GameLog | None] = {}
        """Group → its ``.log`` in progress, or None (cached "no log": see :mod:`.gamelogs`)."""
        self.epoch = 0

    def clear(self) -> None:
        self.epoch += 1
        self.groups.clear()
        self.nicks.clear()
        self.binds.clear()
        self.chars.clear()
        self.logs.clear()

    def drop(self, key: str) -> None:
        """``g:<group>``, ``n:<user>``, ``b:<user>``, ``c:<character id>``, ``l:<group>``."""
        self.epoch += 1
        kind, _, ident = key.partition(":")
        if kind == "g":
            self.groups.pop(ident, None)
        elif kind == "n":
            self.nicks.pop(ident, None)
        elif kind == "b":
            self.binds.pop(ident, None)
        elif kind == "c":
            with contextlib.suppress(ValueError):
                self.chars.pop(int(ident), None)
        elif kind == "l":
            self.logs.pop(ident, None)
        else:
            self.clear()

    @staticmethod
    def put(table: dict[Any, Any], key: Any, value: Any) -> None:
        if len(table) >= _CACHE_MAX:
            table.pop(next(iter(table)))
        table[key] = value


class Store(GameLogStore):
    """The repository every service uses (``app.store``).  See docs/SERVICE_API.md."""

    def __init__(
        self,
        url: str = DEFAULT_URL,
        *,
        echo: bool = False,
        lease_seconds: float = 30.0,
        cache: bool = True,
    ) -> None:
        self.url = url = normalize_database_url(url)
        self.dialect = make_url(url).get_backend_name()
        self._echo = echo
        self._backend: Backend = SqliteBackend(url) if self.dialect == "sqlite" else PgBackend(url)
        self._cache = _Cache()
        self._states = StateCache()
        self._cache_on = cache
        self._backend.on_foreign_change = self._cache.clear
        if isinstance(self._backend, PgBackend):
            self._backend.on_notify = self._cache.drop
        self.lease_seconds = lease_seconds
        self._leases: dict[str, tuple[str, float, float]] = {}
        self._renewing: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: dict[tuple[str, str], None] = {}
        self._turns: dict[tuple[str, str], tuple[asyncio.Lock, list[int]]] = {}
        self._jobs: dict[tuple[str, str], list[_Job]] = {}
        self._drains: dict[tuple[str, str], asyncio.Future[None]] = {}
        self._engine: AsyncEngine | None = None

    # ------------------------------------------------------------------ lifecycle
    @property
    def engine(self) -> AsyncEngine:
        """A SQLAlchemy engine on the same database, for migrations and tests (not the hot path)."""
        if self._engine is None:
            kwargs: dict[str, Any] = {"echo": self._echo}
            if self.dialect == "sqlite":
                kwargs["connect_args"] = {"timeout": 30}
            self._engine = create_async_engine(self.url, **kwargs)
            if self.dialect == "sqlite":
                _sqlite_pragmas(self._engine)
        return self._engine

    async def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision, without asking."""
        from .migrate import upgrade_sync

        vacuum = False
        async with self.engine.connect() as conn:
            if self.dialect == "postgresql":
                await conn.execute(text(f"SELECT pg_advisory_lock({_MIGRATION_LOCK})"))
                await conn.commit()
            try:
                vacuum = await conn.run_sync(upgrade_sync)
                await conn.commit()
            finally:
                if self.dialect == "postgresql":
                    await conn.execute(text(f"SELECT pg_advisory_unlock({_MIGRATION_LOCK})"))
                    await conn.commit()
        await self._engine_dispose()
        self._cache.clear()
        await self._backend.start()
        if vacuum and isinstance(self._backend, SqliteBackend):
            self._backend.vacuum()  # the converted log left free pages behind

    async def _engine_dispose(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None

    async def close(self) -> None:
        for task in list(self._tasks):  # a lease renewal still running: the lease simply lapses
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._engine_dispose()
        await self._backend.close()

    # ------------------------------------------------------------------ plumbing
    def _cache_ok(self) -> bool:
        return self._cache_on and self._backend.cache_usable()

    async def _read(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async def attempt() -> T:
            async with self._backend.tx(False) as tx:
                return await body(tx)

        return await self._retry(attempt, "读取")

    async def _write(
        self,
        body: Callable[[Tx], Awaitable[T]],
        what: str,
        *,
        drops: Sequence[str] = (),
        retry_conflict: bool = False,
        claim: bool = True,
    ) -> T:
        """One read-write transaction (retried on a lost race); the event of the command being
        handled is claimed in it (unless ``claim`` is false: a ``.log`` line is not the
        command's write); ``drops`` are cache keys to invalidate after the commit."""

        async def attempt() -> T:
            ev = _EVENT.get() if claim else None
            if ev is not None and ev.claimed:
                ev = None
            try:
                async with self._backend.tx(True) as tx:
                    if ev is not None:
                        await self._claim(tx, ev)
                    value = await body(tx)
            except ChronoDiceError:
                # refused: nothing written, but the command got its answer; a second delivery
                # of it stays silent (as the one-statement writes on PostgreSQL have it)
                if ev is not None:
                    async with self._backend.tx(True) as tx:
                        await self._claim(tx, ev)
                    ev.claimed = True
                raise
            if ev is not None:
                ev.claimed = True
            for key in drops:
                self._cache.drop(key)
            return value

        return await self._retry(attempt, what, retry_conflict=retry_conflict)

    @staticmethod
    async def _claim(tx: Tx, ev: _Event) -> None:
        n = await tx.run(
            "INSERT INTO event_claims (self_id, message_id, claimed_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            ev.self_id,
            ev.message_id,
            time.time(),
        )
        if n != 1:
            raise DuplicateEvent(f"{ev.self_id}/{ev.message_id}")

    async def _retry(
        self, attempt: Callable[[], Awaitable[T]], what: str, *, retry_conflict: bool = True
    ) -> T:
        delay = 0.001
        for _ in range(_MAX_RETRIES):
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

    # ------------------------------------------------------------------ exactly once
    @contextlib.contextmanager
    def event(self, self_id: str, message_id: str) -> Iterator[None]:
        """Handle one delivered event: the first write inside claims ``(self_id, message_id)``
        in the same transaction; a second delivery (this or another process, also after a
        restart) raises :class:`DuplicateEvent` there and writes nothing."""
        token = _EVENT.set(_Event(str(self_id), str(message_id)))
        try:
            yield
        finally:
            _EVENT.reset(token)

    def first_delivery(self, self_id: str, message_id: str) -> bool:
        """False when this process already saw the event (no database access)."""
        key = (str(self_id), str(message_id))
        if key in self._seen:
            return False
        if len(self._seen) >= 20_000:
            for old in list(self._seen)[:5_000]:
                del self._seen[old]
        self._seen[key] = None
        return True

    # ------------------------------------------------------------------ serving account
    async def serves(self, scope: str, self_id: str) -> bool:
        """Whether bot account ``self_id`` answers in ``scope`` (a group): each group is leased
        to one account; the holder renews its lease while it keeps seeing messages, another
        account takes over once it lapsed (``lease_seconds``) or was released.

        The holder renews in the background once half the lease is gone, while more than
        :data:`RENEW_AHEAD` seconds are left: the renewal is a committed write (an fsync on
        PostgreSQL), which the message that happened to trigger it need not wait for."""
        now = time.time()
        ttl = self.lease_seconds
        cached = self._leases.get(scope)
        if cached is not None:
            holder, expires, checked = cached
            if holder == self_id:
                if expires - now > ttl / 2:
                    return True
                if expires - now > RENEW_AHEAD:
                    self._renew_in_background(scope, self_id)
                    return True
            elif now < expires and now - checked < 1.0:
                return False
        return await self._take_lease(scope, self_id)

    def _renew_in_background(self, scope: str, self_id: str) -> None:
        if scope in self._renewing:
            return
        self._renewing.add(scope)

        async def renew() -> None:
            try:
                await self._take_lease(scope, self_id)
            except Exception:
                log.warning(
                    "renewing the lease of %s failed (the next message retries)", scope, exc_info=True
                )
            finally:
                self._renewing.discard(scope)

        task = asyncio.get_running_loop().create_task(renew())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _take_lease(self, scope: str, self_id: str) -> bool:
        now = time.time()
        ttl = self.lease_seconds

        async def body(tx: Tx) -> tuple[str, float]:
            row = await tx.one(
                "INSERT INTO bot_leases (scope, self_id, expires_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (scope) DO UPDATE SET self_id = excluded.self_id, expires_at = excluded.expires_at"
                " WHERE bot_leases.self_id = excluded.self_id OR bot_leases.expires_at < $4"
                " RETURNING self_id, expires_at",
                scope,
                self_id,
                now + ttl,
                now,
            )
            if row is None:
                row = await tx.one("SELECT self_id, expires_at FROM bot_leases WHERE scope = $1", scope)
            assert row is not None
            return str(row[0]), float(row[1])

        ev = _EVENT.set(None)  # a lease is not the command's write
        try:
            holder, expires = await self._retry(lambda: self._lease_tx(body), "选择账号")
        finally:
            _EVENT.reset(ev)
        self._leases[scope] = (holder, expires, now)
        return holder == self_id

    async def _lease_tx(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async with self._backend.tx(True) as tx:
            return await body(tx)

    async def lease_holder(self, scope: str) -> str | None:
        """The account serving ``scope`` now, or None when nobody holds a live lease."""
        now = time.time()
        cached = self._leases.get(scope)
        if cached is not None and now < cached[1] and now - cached[2] < 1.0:
            return cached[0]
        row = await self._read(
            lambda tx: tx.one("SELECT self_id, expires_at FROM bot_leases WHERE scope = $1", scope)
        )
        if row is None or float(row[1]) <= now:
            return None
        self._leases[scope] = (str(row[0]), float(row[1]), now)
        return str(row[0])

    async def release(self, self_id: str) -> None:
        """Give up every lease of ``self_id`` (its connection closed): others take over now."""
        for scope in [s for s, v in self._leases.items() if v[0] == self_id]:
            del self._leases[scope]

        async def body(tx: Tx) -> int:
            return await tx.run("DELETE FROM bot_leases WHERE self_id = $1", self_id)

        ev = _EVENT.set(None)
        try:
            await self._retry(lambda: self._lease_tx(body), "释放账号")
        finally:
            _EVENT.reset(ev)

    # ------------------------------------------------------------------ nicknames
    async def _cached(
        self, table: dict[Any, Any], key: Any, tx: Tx | None, body: Callable[[Tx], Awaitable[T]]
    ) -> T:
        """Read-through cache: ``table[key]`` when the caches are valid, else ``body`` (in ``tx``
        or a read transaction of its own), stored unless an invalidation raced with the read."""
        use = self._cache_ok()
        if use and (hit := table.get(key)) is not None:
            return hit
        epoch = self._cache.epoch
        value = await body(tx) if tx is not None else await self._read(body)
        if value is not None and use and epoch == self._cache.epoch:
            _Cache.put(table, key, value)
        return value

    async def _user_nicks(self, tx: Tx | None, user_id: str) -> dict[str, str]:
        async def body(t: Tx) -> dict[str, str]:
            rows = await t.all("SELECT scope, name FROM nicknames WHERE user_id = $1", user_id)
            return {r[0]: r[1] for r in rows}

        return await self._cached(self._cache.nicks, user_id, tx, body)

    async def _user(self, tx: Tx, user_id: str, scope: str) -> tuple[dict[str, str], CharacterRecord | None]:
        """A user not in the caches: nicknames, bindings and bound cards in one statement (a
        user's first message costs one round trip, not three); all cached.  The nicknames and
        the card active in ``scope``."""
        epoch = self._cache.epoch
        rows = await tx.all(_USER_SQL, user_id)
        nicks: dict[str, str] = {}
        binds: dict[str, int] = {}
        chars: dict[int, CharacterRecord] = {}
        for r in rows:
            if r[1] is None:
                nicks[r[0]] = r[-1]
                continue
            binds[r[0]] = r[1]
            if r[2] is not None:
                chars[r[2]] = self._char_row(r[2:11])
        if self._cache_ok() and epoch == self._cache.epoch:
            _Cache.put(self._cache.nicks, user_id, nicks)
            _Cache.put(self._cache.binds, user_id, binds)
            for cid, rec in chars.items():
                _Cache.put(self._cache.chars, cid, rec)
        for key in (scope or "", ""):
            cid = binds.get(key)
            if cid is not None and cid in chars:
                return nicks, chars[cid]
        return nicks, None

    async def get_nickname(self, user_id: str, scope: str | None) -> str | None:
        """The nickname of ``user_id`` in ``scope``, else the user's global one, else None."""
        names = await self._user_nicks(None, user_id)
        return names.get(scope or "") or names.get("")

    async def set_nickname(self, user_id: str, scope: str | None, name: str | None) -> None:
        """Set (or with ``None`` clear) the nickname in ``scope`` (``None``/"" = everywhere)."""

        async def body(tx: Tx) -> None:
            if name is None:
                await tx.run("DELETE FROM nicknames WHERE user_id = $1 AND scope = $2", user_id, scope or "")
            else:
                await tx.run(
                    "INSERT INTO nicknames (user_id, scope, name, updated_at) VALUES ($1, $2, $3, $4)"
                    " ON CONFLICT (user_id, scope) DO UPDATE SET name = excluded.name,"
                    " updated_at = excluded.updated_at",
                    user_id,
                    scope or "",
                    name,
                    self._backend.dt_in(utcnow()),
                )

        await self._write(body, "设置昵称", drops=(f"n:{user_id}",))

    # ------------------------------------------------------------------ groups
    async def _group(self, tx: Tx | None, group_id: str) -> GroupRecord:
        async def body(t: Tx) -> GroupRecord:
            row = await t.one("SELECT enabled, settings, version FROM groups WHERE group_id = $1", group_id)
            gms = await t.all("SELECT user_id FROM group_gms WHERE group_id = $1", group_id)
            ids = tuple(sorted(r[0] for r in gms))
            if row is None:
                return GroupRecord(group_id=group_id, gms=ids)
            return GroupRecord(
                group_id=group_id,
                enabled=bool(row[0]),
                settings=_j(row[1]) or {},
                gms=ids,
                version=row[2],
            )

        return await self._cached(self._cache.groups, group_id, tx, body)

    async def get_group(self, group_id: str) -> GroupRecord:
        return _copy_group(await self._group(None, group_id))

    async def group_enabled(self, group_id: str) -> bool:
        """The group switch (``.bot on/off``), from the cache when it is valid."""
        return (await self._group(None, group_id)).enabled

    async def view(self, user_id: str, scope: str, group_id: str | None) -> ContextView:
        """Everything most commands read: the group, nickname, active character — from the
        caches, with at most one read transaction for what is missing."""
        use = self._cache_ok()
        c = self._cache
        if use:
            group = c.groups.get(group_id) if group_id is not None else None
            nicks = c.nicks.get(user_id)
            binds = c.binds.get(user_id)
            char_id = None if binds is None else (binds.get(scope) or binds.get(""))
            char = c.chars.get(char_id) if char_id is not None else None
            if (
                (group is not None or group_id is None)
                and nicks is not None
                and binds is not None
                and (char_id is None or char is not None)
            ):
                return ContextView(
                    group=_copy_group(group) if group is not None else None,
                    nickname=nicks.get(group_id or "") or nicks.get(""),
                    character=_copy_char(char) if char is not None else None,
                )

        async def body(tx: Tx) -> ContextView:
            group = await self._group(tx, group_id) if group_id is not None else None
            if use and c.nicks.get(user_id) is not None and c.binds.get(user_id) is not None:
                nicks = await self._user_nicks(tx, user_id)
                char = await self._active(tx, user_id, scope)
            else:
                nicks, char = await self._user(tx, user_id, scope)
            return ContextView(
                group=_copy_group(group) if group is not None else None,
                nickname=nicks.get(group_id or "") or nicks.get(""),
                character=_copy_char(char) if char is not None else None,
            )

        return await self._read(body)

    async def set_enabled(self, group_id: str, enabled: bool) -> None:
        async def body(tx: Tx) -> None:
            await tx.run(
                "INSERT INTO groups (group_id, enabled, settings, version, updated_at)"
                " VALUES ($1, $2, $3, 1, $4) ON CONFLICT (group_id) DO UPDATE SET"
                " enabled = excluded.enabled, version = groups.version + 1, updated_at = excluded.updated_at",
                group_id,
                enabled,
                "{}",
                self._backend.dt_in(utcnow()),
            )

        await self._write(body, "开关", drops=(f"g:{group_id}",))

    async def update_group_settings(
        self, group_id: str, fn: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Apply ``fn`` to the group's settings dict with compare-and-set; returns the new settings."""

        async def body(tx: Tx) -> dict[str, Any]:
            row = await tx.one(
                "SELECT settings, version FROM groups WHERE group_id = $1" + tx.for_update, group_id
            )
            old = (_j(row[0]) or {}) if row else {}
            new = fn(_clone(old))
            if row is None:
                await tx.run(
                    "INSERT INTO groups (group_id, enabled, settings, version, updated_at)"
                    " VALUES ($1, $2, $3, 1, $4)",
                    group_id,
                    True,
                    jpatch.dumps(new),
                    self._backend.dt_in(utcnow()),
                )
                return new
            n = await tx.run(
                "UPDATE groups SET settings = $1, version = $2, updated_at = $3"
                " WHERE group_id = $4 AND version = $5",
                jpatch.dumps(new),
                row[1] + 1,
                self._backend.dt_in(utcnow()),
                group_id,
                row[1],
            )
            if n != 1:
                raise Transient("group version")
            return new

        return await self._write(body, "群设置", drops=(f"g:{group_id}",), retry_conflict=True)

    async def add_gm(self, group_id: str, user_id: str, by: str = "") -> bool:
        """Appoint a GM; False when already one."""

        async def body(tx: Tx) -> bool:
            n = await tx.run(
                "INSERT INTO group_gms (group_id, user_id, appointed_by, created_at) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT DO NOTHING",
                group_id,
                user_id,
                by,
                self._backend.dt_in(utcnow()),
            )
            return n == 1

        return await self._write(body, "任命GM", drops=(f"g:{group_id}",))

    async def remove_gm(self, group_id: str, user_id: str) -> bool:
        async def body(tx: Tx) -> bool:
            n = await tx.run("DELETE FROM group_gms WHERE group_id = $1 AND user_id = $2", group_id, user_id)
            return n > 0

        return await self._write(body, "撤销GM", drops=(f"g:{group_id}",))

    # ------------------------------------------------------------------ characters
    def _char_row(self, row: tuple[Any, ...]) -> CharacterRecord:
        return CharacterRecord(
            id=row[0],
            owner_id=row[1],
            system=row[2],
            name=row[3],
            attributes=_j(row[4]) or {},
            data=_j(row[5]) or {},
            version=row[6],
            created_at=self._backend.dt_out(row[7]),
            updated_at=self._backend.dt_out(row[8]),
        )

    async def create_character(
        self,
        owner_id: str,
        name: str,
        *,
        system: str = "generic",
        attributes: dict[str, Any] | None = None,
        data: dict[str, Any] | None = None,
    ) -> CharacterRecord:
        """Create a character; :class:`IllegalAction` if the owner already has one of that name."""
        now = utcnow()

        async def body(tx: Tx) -> CharacterRecord:
            row = await tx.one(
                "INSERT INTO characters (owner_id, system, name, attributes, data, version, created_at, updated_at)"
                f" VALUES ($1, $2, $3, $4, $5, 1, $6, $6) RETURNING {_CHAR_COLS}",
                owner_id,
                system,
                name,
                jpatch.dumps(dict(attributes or {})),
                jpatch.dumps(data or {}),
                self._backend.dt_in(now),
            )
            assert row is not None
            return self._char_row(row)

        try:
            return await self._write(body, "创建角色")
        except Conflict:
            raise IllegalAction(f"你已有名为「{name}」的角色") from None

    async def _char(self, tx: Tx | None, character_id: int) -> CharacterRecord | None:
        async def body(t: Tx) -> CharacterRecord | None:
            row = await t.one(f"SELECT {_CHAR_COLS} FROM characters WHERE id = $1", character_id)
            return self._char_row(row) if row else None

        return await self._cached(self._cache.chars, character_id, tx, body)

    async def get_character(self, character_id: int) -> CharacterRecord | None:
        rec = await self._char(None, character_id)
        return _copy_char(rec) if rec else None

    async def find_character(self, owner_id: str, name: str) -> CharacterRecord | None:
        row = await self._read(
            lambda tx: tx.one(
                f"SELECT {_CHAR_COLS} FROM characters WHERE owner_id = $1 AND name = $2", owner_id, name
            )
        )
        return self._char_row(row) if row else None

    async def list_characters(self, owner_id: str, system: str | None = None) -> list[CharacterRecord]:
        if system is None:
            rows = await self._read(
                lambda tx: tx.all(
                    f"SELECT {_CHAR_COLS} FROM characters WHERE owner_id = $1 ORDER BY id", owner_id
                )
            )
        else:
            rows = await self._read(
                lambda tx: tx.all(
                    f"SELECT {_CHAR_COLS} FROM characters WHERE owner_id = $1 AND system = $2 ORDER BY id",
                    owner_id,
                    system,
                )
            )
        return [self._char_row(r) for r in rows]

    async def update_character(
        self, character_id: int, fn: Callable[[CharacterRecord], CharacterRecord]
    ) -> CharacterRecord:
        """Apply the pure ``fn`` to a character with compare-and-set on its version.

        ``fn`` may raise a :class:`ChronoDiceError` to abort (nothing is written) and may be
        called more than once after a lost race.  Owner and id cannot be changed by ``fn``.
        On PostgreSQL a cached card is first written in one statement (as sessions are, see
        :meth:`_apply_state_at_once`); the locked transaction is the fallback.
        """
        epoch = [0]

        async def body(tx: Tx) -> CharacterRecord:
            epoch[0] = self._cache.epoch
            row = await tx.one(
                f"SELECT {_CHAR_COLS} FROM characters WHERE id = $1" + tx.for_update, character_id
            )
            if row is None:
                raise NotFound("角色不存在（可能已被删除）")
            old = self._char_row(row)
            new = fn(_copy_char(old))
            now = utcnow()
            n = await tx.run(_CHAR_CAS, *self._char_cas_args(old, new, now))
            if n != 1:
                raise Transient("character version")
            return replace(new, id=old.id, owner_id=old.owner_id, version=old.version + 1, updated_at=now)

        try:
            if self._at_once():
                async with self._in_turn((f"card:{character_id}", "")):
                    rec = await self._update_character_at_once(character_id, fn, epoch)
                    if rec is None:
                        rec = await self._write(body, "角色更新")
            else:
                rec = await self._write(body, "角色更新")
        except Conflict:
            raise IllegalAction("已有同名角色") from None
        self._cache.drop(f"c:{character_id}")
        if self._cache_on and epoch[0] + 1 == self._cache.epoch:
            _Cache.put(self._cache.chars, character_id, _copy_char(rec))
        return rec

    def _char_cas_args(self, old: CharacterRecord, new: CharacterRecord, now: datetime) -> list[Any]:
        return [
            new.name,
            new.system,
            jpatch.dumps(dict(new.attributes)),
            jpatch.dumps(new.data),
            old.version + 1,
            self._backend.dt_in(now),
            old.id,
            old.version,
        ]

    async def _update_character_at_once(
        self, character_id: int, fn: Callable[[CharacterRecord], CharacterRecord], epoch: list[int]
    ) -> CharacterRecord | None:
        """PostgreSQL: ``fn`` applied to the cached card and written in one statement that also
        claims the event, if the card is still at the cached version; None otherwise (also when
        ``fn`` refused: the locked transaction decides on the card as it is)."""
        if not self._cache_ok():
            return None
        epoch[0] = self._cache.epoch
        old = self._cache.chars.get(character_id)
        if old is None:
            return None
        try:
            new = fn(_copy_char(old))
        except ChronoDiceError:
            return None
        ev = _EVENT.get()
        claim = ev if ev is not None and not ev.claimed else None
        now = utcnow()
        sql = f"WITH u AS ({_CHAR_CAS} RETURNING 1)"
        if claim is not None:
            sql += ", c AS (INSERT INTO event_claims (self_id, message_id, claimed_at) SELECT $9, $10, $11::float8 FROM u)"
        try:
            n = await self._once(
                sql + " SELECT count(*) FROM u", self._char_cas_args(old, new, now), claim, count=True
            )
        except Transient:
            return None
        if n != 1:
            return None
        if claim is not None:
            claim.claimed = True
        return replace(new, id=old.id, owner_id=old.owner_id, version=old.version + 1, updated_at=now)

    async def delete_character(self, character_id: int) -> bool:
        async def body(tx: Tx) -> tuple[bool, list[str]]:
            owners = await tx.all(
                "SELECT DISTINCT user_id FROM bindings WHERE character_id = $1", character_id
            )
            await tx.run("DELETE FROM bindings WHERE character_id = $1", character_id)
            n = await tx.run("DELETE FROM characters WHERE id = $1", character_id)
            return n > 0, [r[0] for r in owners]

        done, owners = await self._write(body, "删除角色", drops=(f"c:{character_id}",))
        for uid in owners:
            self._cache.drop(f"b:{uid}")
        return done

    async def bind(self, user_id: str, scope: str, character_id: int) -> None:
        """Make ``character_id`` the active character of ``user_id`` in ``scope`` ("" = default)."""

        async def body(tx: Tx) -> None:
            await tx.run(
                "INSERT INTO bindings (user_id, scope, character_id) VALUES ($1, $2, $3)"
                " ON CONFLICT (user_id, scope) DO UPDATE SET character_id = excluded.character_id",
                user_id,
                scope,
                character_id,
            )

        await self._write(body, "绑定角色", drops=(f"b:{user_id}",))

    async def _active(self, tx: Tx | None, user_id: str, scope: str | None) -> CharacterRecord | None:

        async def body(t: Tx) -> dict[str, int]:
            rows = await t.all("SELECT scope, character_id FROM bindings WHERE user_id = $1", user_id)
            return {r[0]: r[1] for r in rows}

        binds = await self._cached(self._cache.binds, user_id, tx, body)
        for key in (scope or "", ""):
            cid = binds.get(key)
            if cid is not None:
                rec = await self._char(tx, cid)
                if rec is not None:
                    return rec
        return None

    async def active_character(self, user_id: str, scope: str | None) -> CharacterRecord | None:
        """The character bound in ``scope``, else the user's default, else None."""
        rec = await self._active(None, user_id, scope)
        return _copy_char(rec) if rec else None

    # ------------------------------------------------------------------ sessions
    async def load_session(self, scope: str, system: str) -> tuple[dict[str, Any] | None, int]:
        """The session state and its version (``(None, 0)`` when there is none)."""
        row = await self._read(
            lambda tx: tx.one(
                "SELECT state, version FROM sessions WHERE scope = $1 AND system = $2", scope, system
            )
        )
        if row is None:
            return None, 0
        return _j(row[0]), row[1]

    async def apply_session(
        self,
        scope: str,
        system: str,
        fn: Callable[[dict[str, Any] | None], tuple[dict[str, Any] | None, T]],
        *,
        user_id: str = "",
        command: str = "",
        characters_before: Sequence[tuple[CharacterRecord, int]] = (),
    ) -> T:
        """Load → apply the pure ``fn`` → save with compare-and-set, retrying lost races.

        ``fn(state) -> (new_state, result)``; when ``new_state`` equals the old state nothing is
        written.  Each write appends a log row holding the reverse patch (after → before).

        ``characters_before``: cards this command also changed, each as ``(record before the
        change, version after it)``.  ``.undo`` puts such a card back as it was, provided nobody
        changed it since (its version is still the one given).
        """
        log_row = (user_id, command[:500], _jtext(_cards_before(characters_before)))

        async def body(tx: Tx) -> T:
            row = await tx.one(
                "SELECT state, version FROM sessions WHERE scope = $1 AND system = $2" + tx.for_update,
                scope,
                system,
            )
            raw = row[0] if row else None
            old = _j(raw)
            new, result = fn(_j(raw) if isinstance(raw, str) else _clone(old))
            new_text = _jtext(new)
            # what will be stored, as JSON gives it back (engines return tuples, asdict output…)
            new = _j(new_text)
            if new == old and type(new) is type(old):
                return result
            before_text, patch_text = _reverse(old, new, raw if isinstance(raw, str) else None)
            await self._save_session(
                tx, scope, system, row[1] if row else None, new_text, before_text, patch_text, log_row
            )
            return result

        return await self._write(body, "操作", retry_conflict=True)

    async def _save_session(
        self,
        tx: Tx,
        scope: str,
        system: str,
        version: int | None,
        new_text: str | None,
        before_text: str | None,
        patch_text: str | None,
        log_row: tuple[str, str, str | None],
    ) -> int:
        """Write the new state with compare-and-set on the ``version`` read (``None``: no row yet)
        and append the log row (``log_row``: user, command, cards before); returns the new
        version."""
        now = self._backend.dt_in(utcnow())
        if version is None:
            version = 0
            await tx.run(
                "INSERT INTO sessions (scope, system, state, version, created_at, updated_at)"
                " VALUES ($1, $2, $3, 1, $4, $4)",
                scope,
                system,
                new_text,
                now,
            )
        elif tx.dialect == "postgresql":
            # the compare-and-set and the log row in one statement: one round trip less
            user_id, command, chars_text = log_row
            n = await tx.run(
                _session_cas_sql(born=False, claim=False),
                new_text,
                version + 1,
                now,
                scope,
                system,
                version,
                user_id,
                command,
                before_text,
                chars_text,
                patch_text,
            )
            if n != 1:
                raise Transient("session version")
            return version + 1
        else:
            n = await tx.run(
                "UPDATE sessions SET state = $1, version = $2, updated_at = $3"
                " WHERE scope = $4 AND system = $5 AND version = $6",
                new_text,
                version + 1,
                now,
                scope,
                system,
                version,
            )
            if n != 1:
                raise Transient("session version")
        user_id, command, chars_text = log_row
        await tx.run(
            "INSERT INTO session_log (scope, system, user_id, command, before, characters_before,"
            " version_after, undone, created_at, patch) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            scope,
            system,
            user_id,
            command,
            before_text,
            chars_text,
            version + 1,
            False,
            now,
            patch_text,
        )
        return version + 1

    async def load_state(self, scope: str, codec: SessionCodec[S]) -> S | None:
        """The session state as ``codec`` decodes it (``None`` when there is none).  For an
        immutable codec this is the cached object itself: do not change it."""
        key = (scope, codec.system)
        got = await self._read(lambda tx: self._state_row(tx, key, codec, None, ""))
        if not codec.immutable:
            self._states.lend(key, got)
        return got.state

    async def _state_row(
        self, tx: Tx, key: tuple[str, str], codec: SessionCodec[S], reuse: S | None, lock: str
    ) -> Cached[S]:
        """Read session ``key`` (``lock``: ``tx.for_update`` inside a write) as the cache gives
        it: the text is fetched only when the row's version and ``created_at`` are not those the
        cached text was seen with (see :attr:`Cached.row`)."""
        known = self._states.row_of(key)
        version, born = known if known is not None else (-1, None)
        since = time.monotonic()
        row = await tx.one(
            "SELECT version, created_at, (version = $3 AND created_at = $4),"
            " CASE WHEN version = $3 AND created_at = $4 THEN NULL ELSE state END"
            " FROM sessions WHERE scope = $1 AND system = $2" + lock,
            key[0],
            key[1],
            version,
            born,
        )
        if row is None:
            return self._states.get_reusing(key, None, codec, reuse)
        rid = (row[0], row[1])
        self._states.saw(key, rid, since)
        if row[2]:
            if self._states.row_of(key) == rid:  # still the entry asked about (no await since)
                return self._states.get_reusing(key, None, codec, reuse, rid, same_row=True)
            got = await tx.one("SELECT state FROM sessions WHERE scope = $1 AND system = $2", key[0], key[1])
            text = _text(got[0]) if got else None
        else:
            text = _text(row[3])
        return self._states.get_reusing(key, text, codec, reuse, rid)

    async def apply_state(
        self,
        scope: str,
        codec: SessionCodec[S],
        fn: Callable[[S | None], tuple[S | None, T]],
        *,
        user_id: str = "",
        command: str = "",
        characters_before: Sequence[tuple[CharacterRecord, int]] = (),
        reuse: S | None = None,
    ) -> T:
        """:meth:`apply_session` on decoded states: ``fn(state) -> (new_state, result)`` with
        ``state`` as :meth:`load_state` gives it.  Per command this parses nothing when the
        session is cached, converts only what changed and serialises the new state once (see
        :mod:`.states`).

        ``reuse``: for a mutable codec, the state this command got from :meth:`load_state`,
        handed over (the caller does not read it afterwards): ``fn`` gets it, changes and all,
        instead of a fresh parse when the session is still as it was loaded.

        On PostgreSQL a session whose row this process knows is first tried in one statement
        (see :meth:`_apply_state_at_once`); the locked transaction below is the fallback."""
        key = (scope, codec.system)
        log_row = (user_id, command[:500], _jtext(_cards_before(characters_before)))
        if self._at_once():
            job = _Job(codec, fn, reuse, log_row, _EVENT.get(), asyncio.get_running_loop().create_future())
            self._submit(key, job)
            return await job.future  # type: ignore[no-any-return]
        return await self._apply_state_locked(key, codec, fn, reuse, log_row)

    # PostgreSQL: one queue per session ------------------------------------------------------
    def _submit(self, key: tuple[str, str], job: _Job) -> None:
        """Queue ``job``; one task per session drains the queue (:meth:`_drain`)."""
        self._jobs.setdefault(key, []).append(job)
        if key not in self._drains:
            # a context of its own: the job's event is set per job, not inherited from the first
            task = contextvars.Context().run(asyncio.ensure_future, self._drain(key))
            self._drains[key] = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _drain(self, key: tuple[str, str]) -> None:
        """Run the queued commands of one session, first come first served, in batches: all
        that queued while the previous batch was being written go in the next (see
        :meth:`_apply_batch_at_once`).  Each command then finds the row as the one before left
        it in the cache, so its one-statement write is not lost to a sibling; only another
        process can still race."""
        batch: list[_Job] = []
        try:
            while jobs := self._jobs.get(key):
                batch = [j for j in jobs if not j.future.done()]  # a caller gone: skipped
                jobs.clear()
                try:
                    if len(batch) > 1 and await self._apply_batch_at_once(key, batch):
                        continue
                except Exception as exc:  # e.g. the connection lost: the batch may have been written
                    for job in batch:
                        job.fail(exc)
                    continue
                for job in batch:
                    await self._apply_one(key, job)
        finally:
            del self._drains[key]
            # only when this task was cancelled (the store closing): nobody waits in vain
            for job in [*batch, *self._jobs.pop(key, ())]:
                job.fail(StoreBusy("数据库繁忙，操作未完成，请稍后再试"))

    async def _apply_one(self, key: tuple[str, str], job: _Job) -> None:
        if job.future.done():
            return
        token = _EVENT.set(job.event)
        try:
            done = await self._apply_state_at_once(key, job.codec, job.fn, job.reuse, job.log_row)
            if done is None:
                done = (await self._apply_state_locked(key, job.codec, job.fn, job.reuse, job.log_row),)
        except Exception as exc:
            job.fail(exc)
        else:
            job.resolve(done[0])
        finally:
            _EVENT.reset(token)

    async def _apply_batch_at_once(self, key: tuple[str, str], jobs: list[_Job]) -> bool:
        """Several queued commands of one session in one statement (a group commit): each
        ``fn`` applied to the state the one before left, then the final state written if the row
        is still the cached one, with a log row per command that changed it (in order, so
        ``.undo`` takes them back one by one) and every event claimed.  A command refused in the
        batch is refused on the state the commands before it left, which the commit makes true.

        A batch that changes nothing only checks the row and claims the events (or, when each
        command saw the row since it came in and none claims, needs no statement at all).

        False (nothing written, nothing answered) when the row changed, an event was already
        claimed, or the commands are not all of one codec: the caller then runs them one by
        one."""
        codec = jobs[0].codec
        row = self._states.row_of(key)
        if row is None or row[1] is None or any(j.codec is not codec for j in jobs):
            return False
        scope, system = key
        cur = self._states.get_reusing(key, None, codec, jobs[0].reuse, row, same_row=True)
        outcomes: list[tuple[bool, Any]] = []
        logs: list[tuple[str, str, str | None, str | None, int, str | None]] = []
        claims: list[_Event] = []
        for n, job in enumerate(jobs):
            if n and not codec.immutable and cur.text is not None:
                cur = replace(cur, state=codec.decode(cur.text))  # the last fn's state is its caller's
            try:
                after, result = self._next_state(key, codec, cur, job.fn)
            except Exception as exc:
                outcomes.append((False, exc))
                if isinstance(exc, ChronoDiceError) and job.event is not None and not job.event.claimed:
                    claims.append(job.event)  # a refusal claims its event too (not a rule's crash)
                continue
            if after.text != cur.text:
                before_text, patch_text = _reverse_plain(cur, after)
                user_id, command, chars_text = job.log_row
                logs.append((user_id, command, before_text, chars_text, row[0] + len(logs) + 1, patch_text))
                cur = after
            if job.event is not None and not job.event.claimed:
                claims.append(job.event)
            outcomes.append((True, result))
        since = time.monotonic()
        claimed = [[e.self_id for e in claims], [e.message_id for e in claims], time.time()]
        try:
            if logs:
                cols = [list(c) for c in zip(*logs, strict=True)]
                now = self._backend.dt_in(utcnow())
                n = await self._once(
                    _BATCH_SQL,
                    [cur.text, row[0] + len(logs), now, scope, system, row[0], row[1], *cols, *claimed],
                    None,
                    count=True,
                )
            elif not claims and all(
                j.event is not None and self._states.held_since(key, row, j.event.began) for j in jobs
            ):
                n = 1  # nothing changed, nothing to claim, and each saw the row since it came in
            else:  # nothing changed: the row checked (and the events claimed) in one statement
                n = await self._once(
                    _BATCH_CLAIM_SQL, [scope, system, row[0], row[1], *claimed], None, count=True
                )
        except (Transient, Conflict):
            return False  # a claim that existed (or a lost race): one by one, each finds out
        if n != 1:
            return False
        for ev in claims:
            ev.claimed = True
        self._states.put(key, replace(cur, row=(row[0] + len(logs), row[1])), since)
        for job, (ok, value) in zip(jobs, outcomes, strict=True):
            if ok:
                job.resolve(value)
            else:
                job.fail(value)
        return True

    @contextlib.asynccontextmanager
    async def _in_turn(self, key: tuple[str, str]) -> AsyncIterator[None]:
        """Writes of this process to one card, one after another (first come, first served):
        each then finds the card as the one before left it in the cache, so its one-statement
        write is not lost to a sibling; only another process can still race."""
        entry = self._turns.get(key)
        if entry is None:
            entry = self._turns[key] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._turns[key]

    async def _apply_state_locked(
        self,
        key: tuple[str, str],
        codec: SessionCodec[S],
        fn: Callable[[S | None], tuple[S | None, T]],
        reuse: S | None,
        log_row: tuple[str, str, str | None],
    ) -> T:
        scope = key[0]
        since = time.monotonic()

        async def body(tx: Tx) -> tuple[T, Cached[S]]:
            old = await self._state_row(tx, key, codec, reuse, tx.for_update)
            after, result = self._next_state(key, codec, old, fn)
            if after.text != old.text:
                before_text, patch_text = _reverse_plain(old, after)
                version = await self._save_session(
                    tx,
                    scope,
                    codec.system,
                    old.row[0] if old.row is not None else None,
                    after.text,
                    before_text,
                    patch_text,
                    log_row,
                )
                # an update keeps created_at; a new row's is learnt when it is next read
                after = replace(after, row=(version, old.row[1]) if old.row is not None else None)
            return result, after

        result, after = await self._write(body, "操作", retry_conflict=True)
        # cached once committed: a row identity is trusted with its text (see Cached.row)
        self._states.put(key, after, since)
        return result

    def _next_state(
        self,
        key: tuple[str, str],
        codec: SessionCodec[S],
        old: Cached[S],
        fn: Callable[[S | None], tuple[S | None, T]],
    ) -> tuple[Cached[S], T]:
        """``fn`` applied to ``old``: the new cache entry (still with the old row identity) and
        ``fn``'s result."""
        new_state, result = fn(old.state)
        self._states.verify(key, old, codec)
        if new_state is None:
            new_text, new_plain = None, None
        else:
            prev = (old.state, old.plain) if old.state is not None else None
            new_plain = codec.encode(new_state, prev)
            new_text = self._states.text(codec, new_plain)
            self._states.verify_encoding(codec, new_state, new_text)
        return Cached(new_text, new_state if codec.immutable else None, new_plain, True, old.row), result

    def _at_once(self) -> bool:
        """Whether writes may first be tried as one statement (PostgreSQL; see
        :meth:`_apply_state_at_once`)."""
        return self.dialect == "postgresql"

    async def _apply_state_at_once(
        self,
        key: tuple[str, str],
        codec: SessionCodec[S],
        fn: Callable[[S | None], tuple[S | None, T]],
        reuse: S | None,
        log_row: tuple[str, str, str | None],
    ) -> tuple[T] | None:
        """PostgreSQL, optimistically: ``fn`` applied to the cached state, and one statement,
        its own transaction, that writes the new state only if the row is still the one the
        cache saw (same version and ``created_at``), appends the log row and claims the event.
        A command that changes nothing, or is refused, claims its event only if the row is
        still that one (so a second delivery of it stays silent, as one of a command that
        changed something); with no event to claim, it needs no statement when the row was
        seen since the command came in (what ``fn`` decided holds as of then).

        One round trip (and the commit) instead of BEGIN, the claim, ``SELECT … FOR UPDATE``,
        the write and COMMIT.  The result is the same as the locked transaction's: ``fn`` saw
        the state the row held when the statement ran.  None when the row changed (or is not
        cached): the caller then runs the locked transaction, which calls ``fn`` again on a
        fresh state (``reuse`` is not handed over twice, so ``fn``'s changes to it are not seen
        there)."""
        row = self._states.row_of(key)
        if row is None or row[1] is None:
            return None
        scope, system = key
        refused: ChronoDiceError | None = None
        old = self._states.get_reusing(key, None, codec, reuse, row, same_row=True)
        after = old
        try:
            after, result = self._next_state(key, codec, old, fn)
        except ChronoDiceError as exc:
            refused = exc
        ev = _EVENT.get()
        claim = ev if ev is not None and not ev.claimed else None
        since = time.monotonic()
        base: list[Any] = [scope, system, row[0], row[1]]
        try:
            if after.text != old.text:
                before_text, patch_text = _reverse_plain(old, after)
                user_id, command, chars_text = log_row
                now = self._backend.dt_in(utcnow())
                args: list[Any] = [after.text, row[0] + 1, now, scope, system, row[0], user_id, command]
                args += [before_text, chars_text, patch_text, row[1]]
                n = await self._once(_session_cas_sql(born=True, claim=claim is not None), args, claim)
                after = replace(after, row=(row[0] + 1, row[1]))
            elif claim is not None:
                n = await self._once(_CLAIM_IF_ROW_SQL, base, claim)
            elif ev is not None and self._states.held_since(key, row, ev.began):
                n = 1
            else:
                n = await self._once(_ROW_IS_SQL, base, None, count=True)
        except Transient:
            return None
        if n != 1:
            return None
        if claim is not None:
            claim.claimed = True
        if refused is not None:
            raise refused
        self._states.put(key, after, since)
        return (result,)

    async def _once(self, sql: str, args: list[Any], claim: _Event | None, *, count: bool = False) -> int:
        """Run one statement as its own transaction; ``claim``'s self_id, message_id and time are
        appended to ``args`` (the statement inserts them).  Rows changed, or the count selected
        (``count``).  :class:`DuplicateEvent` when the claim existed: nothing was written."""
        if claim is not None:
            args = [*args, claim.self_id, claim.message_id, time.time()]
        async with self._backend.tx(False) as tx:
            try:
                if count:
                    got = await tx.one(sql, *args)
                    return int(got[0]) if got else 0
                return await tx.run(sql, *args)
            except Conflict as exc:
                if claim is not None and "pk_event_claims" in str(exc):
                    raise DuplicateEvent(f"{claim.self_id}/{claim.message_id}") from None
                raise

    async def undo(self, scope: str, system: str | None = None) -> UndoResult | None:
        """Revert the newest not-yet-undone command of ``scope`` (of ``system`` when given)."""
        drops: list[str] = []

        async def body(tx: Tx) -> UndoResult | None:
            drops.clear()
            cols = "id, system, user_id, command, before, characters_before, patch"
            if system is None:
                entry = await tx.one(
                    f"SELECT {cols} FROM session_log WHERE scope = $1 AND NOT undone ORDER BY id DESC LIMIT 1",
                    scope,
                )
            else:
                entry = await tx.one(
                    f"SELECT {cols} FROM session_log WHERE scope = $1 AND system = $2 AND NOT undone"
                    " ORDER BY id DESC LIMIT 1",
                    scope,
                    system,
                )
            if entry is None:
                return None
            log_id, sys_name, user, cmd, before_raw, chars_raw, patch_raw = entry
            row = await tx.one(
                "SELECT state, version FROM sessions WHERE scope = $1 AND system = $2" + tx.for_update,
                scope,
                sys_name,
            )
            if row is None:
                return None
            if patch_raw is not None:
                try:
                    before = jpatch.apply(_j(patch_raw), _j(row[0]))
                except (KeyError, IndexError, TypeError, ValueError):
                    log.exception("undo: the log of %s/%s does not fit the state", scope, sys_name)
                    raise IllegalAction("撤销记录与当前状态对不上，无法撤销") from None
            else:
                before = _j(before_raw)
            now = self._backend.dt_in(utcnow())
            n = await tx.run(
                "UPDATE sessions SET state = $1, version = $2, updated_at = $3"
                " WHERE scope = $4 AND system = $5 AND version = $6",
                _jtext(before),
                row[1] + 1,
                now,
                scope,
                sys_name,
                row[1],
            )
            if n != 1:
                raise Transient("session version")
            await tx.run("UPDATE session_log SET undone = $1 WHERE id = $2", True, log_id)
            restored: list[str] = []
            stale: list[str] = []
            for saved in _j(chars_raw) or []:
                n = await tx.run(
                    "UPDATE characters SET name = $1, system = $2, attributes = $3, data = $4, version = $5,"
                    " updated_at = $6 WHERE id = $7 AND version = $8",
                    saved["name"],
                    saved["system"],
                    jpatch.dumps(saved["attributes"]),
                    jpatch.dumps(saved["data"]),
                    saved["version_after"] + 1,
                    now,
                    saved["id"],
                    saved["version_after"],
                )
                (restored if n == 1 else stale).append(saved["name"])
                drops.append(f"c:{saved['id']}")
            return UndoResult(
                system=sys_name,
                command=cmd,
                user_id=user,
                state=before,
                restored_characters=tuple(restored),
                stale_characters=tuple(stale),
            )

        result = await self._write(body, "撤销")
        for key in drops:
            self._cache.drop(key)
        return result

    async def session_log(self, scope: str, system: str | None = None, limit: int = 50) -> list[LogEntry]:
        """The newest ``limit`` log entries, oldest first."""
        cols = "id, scope, system, user_id, command, version_after, undone, created_at"
        if system is None:
            rows = await self._read(
                lambda tx: tx.all(
                    f"SELECT {cols} FROM session_log WHERE scope = $1 ORDER BY id DESC LIMIT $2", scope, limit
                )
            )
        else:
            rows = await self._read(
                lambda tx: tx.all(
                    f"SELECT {cols} FROM session_log WHERE scope = $1 AND system = $2 ORDER BY id DESC LIMIT $3",
                    scope,
                    system,
                    limit,
                )
            )
        return [self._log_entry(r) for r in reversed(rows)]

    def _log_entry(self, r: Sequence[Any]) -> LogEntry:
        """A session_log row's first eight columns (id … created_at) as a :class:`LogEntry`."""
        return LogEntry(
            id=r[0],
            scope=r[1],
            system=r[2],
            user_id=r[3],
            command=r[4],
            version_after=r[5],
            undone=bool(r[6]),
            created_at=self._backend.dt_out(r[7]),
        )

    async def replay(self, scope: str, system: str) -> list[tuple[LogEntry, Any, Any]]:
        """The applied (not undone) commands of a session with the state before and after each,
        oldest first, rebuilt from the current state and the reverse patches."""

        async def body(tx: Tx) -> tuple[Any, list[tuple[Any, ...]]]:
            row = await tx.one("SELECT state FROM sessions WHERE scope = $1 AND system = $2", scope, system)
            rows = await tx.all(
                "SELECT id, scope, system, user_id, command, version_after, undone, created_at, before, patch"
                " FROM session_log WHERE scope = $1 AND system = $2 AND NOT undone ORDER BY id DESC",
                scope,
                system,
            )
            return (row[0] if row else None), rows

        raw, rows = await self._read(body)
        state = _j(raw)
        out: list[tuple[LogEntry, Any, Any]] = []
        for r in rows:
            after = state
            before = jpatch.apply(_j(r[9]), _clone(after)) if r[9] is not None else _j(r[8])
            out.append((self._log_entry(r), before, after))
            state = before
        out.reverse()
        return out

    async def list_sessions(self, system: str) -> list[tuple[str, dict[str, Any] | None, int]]:
        """Every (scope, state, version) of a system — for sweepers after a restart."""
        rows = await self._read(
            lambda tx: tx.all("SELECT scope, state, version FROM sessions WHERE system = $1", system)
        )
        return [(r[0], _j(r[1]), r[2]) for r in rows]

    # ------------------------------------------------------------------ upkeep
    async def prune(
        self, *, ended_for: float = 7 * 86400, claims_for: float = 2 * 86400, now: datetime | None = None
    ) -> dict[str, int]:
        """Delete what nothing needs any more: event claims and leases older than ``claims_for``
        seconds, and sessions ended (state ``None``) more than ``ended_for`` seconds ago with
        their log (``.undo`` of the ending works until then)."""
        now = now or utcnow()
        wall = now.timestamp()
        cutoff = self._backend.dt_in(now - timedelta(seconds=ended_for))
        ended = (
            "(state IS NULL OR state = 'null')"
            if self.dialect == "sqlite"
            else "(state IS NULL OR state::text = 'null')"
        )

        async def body(tx: Tx) -> dict[str, int]:
            claims = await tx.run("DELETE FROM event_claims WHERE claimed_at < $1", wall - claims_for)
            leases = await tx.run("DELETE FROM bot_leases WHERE expires_at < $1", wall - claims_for)
            sessions = await tx.all(
                f"SELECT scope, system, version FROM sessions WHERE {ended} AND updated_at < $1", cutoff
            )
            logs = 0
            for scope, system, version in sessions:
                logs += await tx.run(
                    "DELETE FROM session_log WHERE scope = $1 AND system = $2", scope, system
                )
                await tx.run(
                    "DELETE FROM sessions WHERE scope = $1 AND system = $2 AND version = $3",
                    scope,
                    system,
                    version,
                )
            return {"claims": claims, "leases": leases, "sessions": len(sessions), "log_rows": logs}

        ev = _EVENT.set(None)
        try:
            return await self._retry(lambda: self._lease_tx(body), "清理")
        finally:
            _EVENT.reset(ev)

    # ------------------------------------------------------------------ confirmations
    async def put_pending(self, key: str, value: dict[str, Any], ttl: float) -> None:
        expires = self._backend.dt_in(utcnow() + timedelta(seconds=ttl))

        async def body(tx: Tx) -> None:
            await tx.run(
                "INSERT INTO pending (key, value, expires_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at",
                key,
                jpatch.dumps(value),
                expires,
            )

        await self._write(body, "确认")

    async def take_pending(self, key: str) -> dict[str, Any] | None:
        """Remove and return a pending value if it has not expired."""

        async def body(tx: Tx) -> tuple[Any, Any] | None:
            row = await tx.one("SELECT value, expires_at FROM pending WHERE key = $1" + tx.for_update, key)
            if row is None:
                return None
            await tx.run("DELETE FROM pending WHERE key = $1", key)
            return row[0], row[1]

        got = await self._write(body, "确认")
        if got is None:
            return None
        expires = self._backend.dt_out(got[1])
        if expires is not None and expires < utcnow():
            return None
        return _j(got[0])


def _session_cas_sql(*, born: bool, claim: bool) -> str:
    """PostgreSQL: the session's compare-and-set and its log row in one statement.  Parameters:
    $1 state, $2 new version, $3 time, $4 scope, $5 system, $6 version read, $7 user, $8
    command, $9 before, $10 cards before, $11 patch; with ``born`` $12 the row's ``created_at``
    (a session ended and begun anew starts at version 1 again); with ``claim`` the event's
    self_id, message_id and time follow, inserted only if the row was written."""
    n = 12
    where = "scope = $4 AND system = $5 AND version = $6"
    if born:
        where += f" AND created_at = ${n}"
        n += 1
    sql = (
        f"WITH u AS (UPDATE sessions SET state = $1, version = $2, updated_at = $3 WHERE {where} RETURNING 1)"
    )
    if claim:
        sql += (
            f", c AS (INSERT INTO event_claims (self_id, message_id, claimed_at)"
            f" SELECT ${n}, ${n + 1}, ${n + 2}::float8 FROM u)"
        )
    return sql + (
        " INSERT INTO session_log (scope, system, user_id, command, before, characters_before,"
        " version_after, undone, created_at, patch)"
        " SELECT $4, $5, $7, $8, $9, $10, $2, false, $3, $11 FROM u"
    )


def _text(value: Any) -> str | None:
    """A JSON column's stored text (both drivers return text; bytes or data are normalised)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode()
    return jpatch.dumps(value)


def _cards_before(characters_before: Sequence[tuple[CharacterRecord, int]]) -> list[dict[str, Any]] | None:
    return [
        {
            "id": rec.id,
            "name": rec.name,
            "system": rec.system,
            "attributes": rec.attributes,
            "data": rec.data,
            "version_after": version_after,
        }
        for rec, version_after in characters_before
    ] or None


def _patch_or_whole(old_text: str, p: Any) -> tuple[str | None, str | None]:
    """The log's ``(before, patch)`` texts: the reverse patch ``p`` where there is one and it is
    shorter than the whole old text, else the whole old text."""
    if p is not None:
        p_text = jpatch.dumps(p)
        if len(p_text) < len(old_text):
            return None, p_text
    return old_text, None


def _reverse_plain(old: Cached[Any], new: Cached[Any]) -> tuple[str | None, str | None]:
    """:func:`_reverse` for codec states, whose plain forms share their unchanged parts: the
    type-exact :func:`patch.diff_exact` compares those by identity and needs no check against
    the texts.  The whole old text is stored where its plain form does not rebuild it exactly (a
    migrated old state)."""
    if old.text is None:
        return None, jpatch.dumps(["=", None])
    if new.text is None or not old.exact:
        return old.text, None
    return _patch_or_whole(old.text, jpatch.diff_exact(new.plain, old.plain))


def _reverse(old: Any, new: Any, old_text: str | None = None) -> tuple[str | None, str | None]:
    """What the log stores to get ``old`` back from ``new`` (both plain JSON data):
    ``(before, patch)`` texts — a reverse patch, or the whole old state where a patch would not
    be shorter or would not rebuild it exactly.  ``new`` is consumed (patched in place).
    ``old_text``: the stored text of ``old`` when at hand (saves serialising it again)."""
    if old is None:
        return None, jpatch.dumps(["=", None])
    canonical = old_text if old_text is not None else jpatch.dumps(old)
    if new is None:
        return canonical, None
    p = jpatch.diff(new, old)
    before, p_text = _patch_or_whole(canonical, p)
    # ``diff`` skips sub-values that are == (1 == 1.0): check that the patch rebuilds the text
    if p_text is not None and jpatch.dumps(jpatch.apply(p, new)) != canonical:
        return canonical, None
    return before, p_text


def _sqlite_pragmas(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
