"""The store: SQLite (default) or PostgreSQL, with process-local caches that stay correct.

* Every transaction is one unit on one connection (see :mod:`.backends`): SQLite runs it on the
  event loop thread with ``BEGIN IMMEDIATE`` (no thread hop, no lock-upgrade dead-lock);
  PostgreSQL reads rows ``FOR UPDATE``.  On top of both, mutable rows carry a ``version`` and are
  written with a compare-and-set; a lost race is retried from the read, so no update is ever
  lost, also when several bot processes share one database.
* PostgreSQL first tries a cached card or session in one statement, its own transaction, that
  writes only if the row is still at the cached version and also claims the event (see
  :mod:`.sessions`); the locked transaction is the fallback.
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
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound

from . import patch as jpatch
from .backends import Backend, Conflict, PgBackend, SqliteBackend, Transient, Tx
from .common import _EVENT, DuplicateEvent, StoreBusy, _clone, _Event, _j, utcnow
from .gamelogs import GameLogStore
from .records import CharacterRecord, ContextView, GameLog, GroupRecord
from .sessions import SessionStore, _Job
from .states import StateCache
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


class Store(SessionStore, GameLogStore):
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
        self._backend.on_foreign_change = self._foreign_change
        if isinstance(self._backend, PgBackend):
            self._backend.on_notify = self._notified
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
    def _notified(self, key: str) -> None:
        """Another process changed a cached row (PostgreSQL): ``s:<scope>`` a session (see
        :meth:`StateCache.changed`), the other kinds a row of :class:`_Cache`."""
        if key.startswith("s:"):
            self._states.changed(key[2:])
        else:
            self._cache.drop(key)

    def _foreign_change(self) -> None:
        self._cache.clear()
        self._states.changed_everywhere()

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
            elif now < expires and now - checked < 1.0 and not self._backend.known_gone(holder, self_id):
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

        alive_here = self_id in self._backend.accounts  # (then a dead holder is known as dead)
        cached = self._leases.get(scope)
        suspects = [cached[0]] if alive_here and cached is not None and cached[0] != self_id else []

        async def body(tx: Tx) -> tuple[str, float]:
            gone, gone_args = self._backend.holder_gone_sql(suspects)
            row = await tx.one(
                "INSERT INTO bot_leases (scope, self_id, expires_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (scope) DO UPDATE SET self_id = excluded.self_id, expires_at = excluded.expires_at"
                f" WHERE bot_leases.self_id = excluded.self_id OR bot_leases.expires_at < $4 OR ($5 AND {gone})"
                " RETURNING self_id, expires_at",
                scope,
                self_id,
                now + ttl,
                now,
                alive_here,
                *gone_args,
            )
            if row is None:
                row = await tx.one("SELECT self_id, expires_at FROM bot_leases WHERE scope = $1", scope)
            assert row is not None
            return str(row[0]), float(row[1])

        ev = _EVENT.set(None)  # a lease is not the command's write
        try:
            holder, expires = await self._retry(lambda: self._lease_tx(body), "选择账号")
            if holder != self_id and holder not in suspects and self._backend.known_gone(holder, self_id):
                suspects.append(holder)  # (SQLite) a holder first learnt of here, whose process died
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

    async def hold_account(self, self_id: str) -> None:
        """``self_id`` is connected to this process: while the process lives, its leases hold;
        once it dies (a SIGKILL, no release), another account takes its groups over at the next
        message instead of after the lease lapses (PostgreSQL: an advisory lock on the LISTEN
        connection, which the server frees with the connection; SQLite: a shared ``flock`` on a
        file per account, which the kernel frees with the process, see :mod:`.alive`)."""
        await self._backend.hold_account(str(self_id))

    async def release(self, self_id: str) -> None:
        """Give up every lease of ``self_id`` (its connection closed): others take over now."""
        await self._backend.drop_account(str(self_id))
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
        :meth:`_apply_batch_at_once`); the locked transaction is the fallback.
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
        if not await self._one_row(
            sql + " SELECT count(*) FROM u", self._char_cas_args(old, new, now), claim
        ):
            return None
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

    async def _active(
        self, tx: Tx | None, user_id: str, scope: str | None, *, fallback: bool = True
    ) -> CharacterRecord | None:

        async def body(t: Tx) -> dict[str, int]:
            rows = await t.all("SELECT scope, character_id FROM bindings WHERE user_id = $1", user_id)
            return {r[0]: r[1] for r in rows}

        binds = await self._cached(self._cache.binds, user_id, tx, body)
        for key in (scope or "", "") if fallback else (scope or "",):
            cid = binds.get(key)
            if cid is not None:
                rec = await self._char(tx, cid)
                if rec is not None:
                    return rec
        return None

    async def active_character(
        self, user_id: str, scope: str | None, *, fallback: bool = True
    ) -> CharacterRecord | None:
        """The character bound in ``scope``, else (with ``fallback``) the user's default, else None."""
        rec = await self._active(None, user_id, scope, fallback=fallback)
        return _copy_char(rec) if rec else None

    async def bindings(self, user_id: str) -> dict[str, int]:
        """Every scope where ``user_id`` has bound a card ("" = default) → the card's id."""

        async def body(t: Tx) -> dict[str, int]:
            rows = await t.all("SELECT scope, character_id FROM bindings WHERE user_id = $1", user_id)
            return {r[0]: r[1] for r in rows}

        return dict(await self._cached(self._cache.binds, user_id, None, body))

    # ------------------------------------------------------------------ one-statement writes
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

    async def _once(self, sql: str, args: list[Any], claim: _Event | None = None) -> int:
        """Run one statement, which selects a count, as its own transaction; the count.
        ``claim``'s self_id, message_id and time are appended to ``args`` (the statement inserts
        them); :class:`DuplicateEvent` when the claim existed: nothing was written."""
        if claim is not None:
            args = [*args, claim.self_id, claim.message_id, time.time()]
        async with self._backend.tx(False) as tx:
            try:
                got = await tx.one(sql, *args)
            except Conflict as exc:
                if claim is not None and "pk_event_claims" in str(exc):
                    raise DuplicateEvent(f"{claim.self_id}/{claim.message_id}") from None
                raise
        return int(got[0]) if got else 0

    async def _one_row(self, sql: str, args: list[Any], claim: _Event | None) -> bool:
        """:meth:`_once` for a statement meant to count exactly one row: whether it did, the
        claim then made; False also for a lost race."""
        try:
            n = await self._once(sql, args, claim)
        except Transient:
            return False
        if n != 1:
            return False
        if claim is not None:
            claim.claimed = True
        return True

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
            pruned.extend(scope for scope, _, _ in sessions)
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

        pruned: list[str] = []
        ev = _EVENT.set(None)
        try:
            return await self._retry(lambda: self._lease_tx(body), "清理")
        finally:
            _EVENT.reset(ev)
            for scope in pruned:
                self._states.changed(scope)

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
