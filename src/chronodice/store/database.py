"""The store: one async SQLAlchemy engine over SQLite (default) or PostgreSQL.

* SQLite runs in WAL mode with a busy timeout, and every transaction starts with
  ``BEGIN IMMEDIATE`` so that a read-modify-write cannot dead-lock on the lock upgrade.
* PostgreSQL rows are read ``FOR UPDATE`` inside the transaction that writes them.
* On top of both, every mutable row carries a ``version`` and is written with a
  compare-and-set; a lost race is retried from the read, so no update is ever lost, also when
  several bot processes share one database.
* Writes are never deferred: a reply is sent only after its transaction committed.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import delete, event, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound

from .models import Binding, Character, Group, GroupGM, Nickname, Pending, Session, SessionLog, utcnow
from .records import CharacterRecord, ContextView, GroupRecord, LogEntry, UndoResult
from .url import normalize_database_url

T = TypeVar("T")

DEFAULT_URL = "sqlite+aiosqlite:///data/chronodice.db"
_MAX_RETRIES = 200
_MIGRATION_LOCK = 0x43_44_01  # advisory lock key for PostgreSQL migrations ("CD", 1)


class StoreBusy(ChronoDiceError):
    """The database stayed busy through every retry."""


def _aware(dt: datetime | None) -> datetime | None:
    if dt is not None and dt.tzinfo is None:
        return dt.replace(tzinfo=timezone.utc)
    return dt


def _char(row: Character) -> CharacterRecord:
    return CharacterRecord(
        id=row.id,
        owner_id=row.owner_id,
        system=row.system,
        name=row.name,
        attributes=dict(row.attributes or {}),
        data=copy.deepcopy(row.data or {}),
        version=row.version,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
    )


class Store:
    """The repository every service uses (``app.store``).  See docs/SERVICE_API.md."""

    def __init__(self, url: str = DEFAULT_URL, *, echo: bool = False) -> None:
        self.url = url = normalize_database_url(url)
        parsed = make_url(url)
        self.dialect = parsed.get_backend_name()
        kwargs: dict[str, Any] = {"echo": echo}
        if self.dialect == "sqlite":
            db = parsed.database or ""
            if db and db != ":memory:":
                Path(db).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        self._read_engine: AsyncEngine = self.engine
        if self.dialect == "sqlite":
            # Writers start with BEGIN IMMEDIATE (no lock-upgrade dead-locks); pure reads use a
            # second pool with deferred transactions, which in WAL mode never wait for writers.
            _sqlite_pragmas(self.engine, "BEGIN IMMEDIATE")
            self._read_engine = create_async_engine(url, **kwargs)
            _sqlite_pragmas(self._read_engine, "BEGIN")
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._read_sessions = async_sessionmaker(self._read_engine, expire_on_commit=False)

    # ------------------------------------------------------------------ lifecycle
    async def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision, without asking."""
        from .migrate import upgrade_sync

        async with self.engine.connect() as conn:
            if self.dialect == "postgresql":
                await conn.execute(text(f"SELECT pg_advisory_lock({_MIGRATION_LOCK})"))
                await conn.commit()
            try:
                await conn.run_sync(upgrade_sync)
                await conn.commit()
            finally:
                if self.dialect == "postgresql":
                    await conn.execute(text(f"SELECT pg_advisory_unlock({_MIGRATION_LOCK})"))
                    await conn.commit()

    async def close(self) -> None:
        await self.engine.dispose()
        if self._read_engine is not self.engine:
            await self._read_engine.dispose()

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[AsyncSession]:
        """A read-write transaction."""
        async with self._sessions() as session, session.begin():
            yield session

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncSession]:
        """A read-only transaction (one consistent snapshot)."""
        async with self._read_sessions() as session, session.begin():
            yield session

    async def _retry(self, attempt: Callable[[], Any], what: str) -> Any:
        """Run ``attempt`` (an async callable returning ``(done, value)``) until it reports done."""
        delay = 0.002
        for _ in range(_MAX_RETRIES):
            try:
                done, value = await attempt()
            except (IntegrityError, OperationalError) as exc:
                if isinstance(exc, OperationalError) and not _is_transient(exc):
                    raise
                done, value = False, None
            except DBAPIError as exc:
                if not _is_transient(exc):
                    raise
                done, value = False, None
            if done:
                return value
            await asyncio.sleep(delay * (1 + random.random()))
            delay = min(delay * 2, 0.2)
        raise StoreBusy(f"数据库繁忙，{what}未完成，请稍后再试")

    # ------------------------------------------------------------------ nicknames
    async def get_nickname(self, user_id: str, scope: str | None) -> str | None:
        """The nickname of ``user_id`` in ``scope``, else the user's global one, else None."""
        async with self._read() as s:
            return await _nickname(s, user_id, scope)

    async def set_nickname(self, user_id: str, scope: str | None, name: str | None) -> None:
        """Set (or with ``None`` clear) the nickname in ``scope`` (``None``/"" = everywhere)."""

        async def attempt() -> tuple[bool, None]:
            async with self._tx() as s:
                row = await s.get(Nickname, (user_id, scope or ""), with_for_update=True)
                if name is None:
                    if row is not None:
                        await s.delete(row)
                elif row is None:
                    s.add(Nickname(user_id=user_id, scope=scope or "", name=name))
                else:
                    row.name = name
            return True, None

        await self._retry(attempt, "设置昵称")

    # ------------------------------------------------------------------ groups
    async def get_group(self, group_id: str) -> GroupRecord:
        async with self._read() as s:
            return await _group(s, group_id)

    async def view(self, user_id: str, scope: str, group_id: str | None) -> ContextView:
        """Everything most commands read, in one transaction: the group, nickname, active character."""
        async with self._read() as s:
            group = await _group(s, group_id) if group_id is not None else None
            nickname = await _nickname(s, user_id, group_id)
            character = await _active(s, user_id, scope)
        return ContextView(group=group, nickname=nickname, character=character)

    async def set_enabled(self, group_id: str, enabled: bool) -> None:
        async def attempt() -> tuple[bool, None]:
            async with self._tx() as s:
                row = await s.get(Group, group_id, with_for_update=True)
                if row is None:
                    s.add(Group(group_id=group_id, enabled=enabled, settings={}, version=1))
                else:
                    row.enabled = enabled
                    row.version += 1
            return True, None

        await self._retry(attempt, "开关")

    async def update_group_settings(
        self, group_id: str, fn: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Apply ``fn`` to the group's settings dict with compare-and-set; returns the new settings."""

        async def attempt() -> tuple[bool, dict[str, Any] | None]:
            async with self._tx() as s:
                row = await s.get(Group, group_id, with_for_update=True)
                old = copy.deepcopy(row.settings or {}) if row else {}
                new = fn(copy.deepcopy(old))
                if row is None:
                    s.add(Group(group_id=group_id, enabled=True, settings=new, version=1))
                    return True, new
                res = await s.execute(
                    update(Group)
                    .where(Group.group_id == group_id, Group.version == row.version)
                    .values(settings=new, version=row.version + 1, updated_at=utcnow())
                )
                return res.rowcount == 1, new

        return await self._retry(attempt, "群设置")

    async def add_gm(self, group_id: str, user_id: str, by: str = "") -> bool:
        """Appoint a GM; False when already one."""

        async def attempt() -> tuple[bool, bool]:
            async with self._tx() as s:
                if await s.get(GroupGM, (group_id, user_id)) is not None:
                    return True, False
                s.add(GroupGM(group_id=group_id, user_id=user_id, appointed_by=by))
            return True, True

        return await self._retry(attempt, "任命GM")

    async def remove_gm(self, group_id: str, user_id: str) -> bool:
        async with self._tx() as s:
            res = await s.execute(
                delete(GroupGM).where(GroupGM.group_id == group_id, GroupGM.user_id == user_id)
            )
        return res.rowcount > 0

    # ------------------------------------------------------------------ characters
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
        try:
            async with self._tx() as s:
                row = Character(
                    owner_id=owner_id,
                    system=system,
                    name=name,
                    attributes=dict(attributes or {}),
                    data=copy.deepcopy(data or {}),
                    version=1,
                )
                s.add(row)
                await s.flush()
                rec = _char(row)
        except IntegrityError:
            raise IllegalAction(f"你已有名为「{name}」的角色") from None
        return rec

    async def get_character(self, character_id: int) -> CharacterRecord | None:
        async with self._read() as s:
            row = await s.get(Character, character_id)
            return _char(row) if row else None

    async def find_character(self, owner_id: str, name: str) -> CharacterRecord | None:
        async with self._read() as s:
            row = (
                await s.execute(
                    select(Character).where(Character.owner_id == owner_id, Character.name == name)
                )
            ).scalar_one_or_none()
            return _char(row) if row else None

    async def list_characters(self, owner_id: str, system: str | None = None) -> list[CharacterRecord]:
        async with self._read() as s:
            q = select(Character).where(Character.owner_id == owner_id)
            if system is not None:
                q = q.where(Character.system == system)
            rows = (await s.execute(q.order_by(Character.id))).scalars().all()
            return [_char(r) for r in rows]

    async def update_character(
        self, character_id: int, fn: Callable[[CharacterRecord], CharacterRecord]
    ) -> CharacterRecord:
        """Apply the pure ``fn`` to a character with compare-and-set on its version.

        ``fn`` may raise a :class:`ChronoDiceError` to abort (nothing is written) and may be
        called more than once after a lost race.  Owner and id cannot be changed by ``fn``.
        """

        async def attempt() -> tuple[bool, CharacterRecord | None]:
            async with self._tx() as s:
                row = (
                    await s.execute(select(Character).where(Character.id == character_id).with_for_update())
                ).scalar_one_or_none()
                if row is None:
                    raise NotFound("角色不存在（可能已被删除）")
                old = _char(row)
                new = fn(old)
                res = await s.execute(
                    update(Character)
                    .where(Character.id == character_id, Character.version == old.version)
                    .values(
                        name=new.name,
                        system=new.system,
                        attributes=dict(new.attributes),
                        data=copy.deepcopy(new.data),
                        version=old.version + 1,
                        updated_at=utcnow(),
                    )
                )
                if res.rowcount != 1:
                    return False, None
                return True, replace(new, id=old.id, owner_id=old.owner_id, version=old.version + 1)

        try:
            return await self._retry(attempt, "角色更新")
        except IntegrityError:
            raise IllegalAction("已有同名角色") from None

    async def delete_character(self, character_id: int) -> bool:
        async with self._tx() as s:
            await s.execute(delete(Binding).where(Binding.character_id == character_id))
            res = await s.execute(delete(Character).where(Character.id == character_id))
        return res.rowcount > 0

    async def bind(self, user_id: str, scope: str, character_id: int) -> None:
        """Make ``character_id`` the active character of ``user_id`` in ``scope`` ("" = default)."""

        async def attempt() -> tuple[bool, None]:
            async with self._tx() as s:
                row = await s.get(Binding, (user_id, scope), with_for_update=True)
                if row is None:
                    s.add(Binding(user_id=user_id, scope=scope, character_id=character_id))
                else:
                    row.character_id = character_id
            return True, None

        await self._retry(attempt, "绑定角色")

    async def active_character(self, user_id: str, scope: str | None) -> CharacterRecord | None:
        """The character bound in ``scope``, else the user's default, else None."""
        async with self._read() as s:
            return await _active(s, user_id, scope)

    # ------------------------------------------------------------------ sessions
    async def load_session(self, scope: str, system: str) -> tuple[dict[str, Any] | None, int]:
        """The session state and its version (``(None, 0)`` when there is none)."""
        async with self._read() as s:
            row = await s.get(Session, (scope, system))
            if row is None:
                return None, 0
            return row.state, row.version

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
        written.  Each write appends a :class:`SessionLog` row holding the state before it.

        ``characters_before``: cards this command also changed, each as ``(record before the
        change, version after it)``.  ``.undo`` puts such a card back as it was, provided nobody
        changed it since (its version is still the one given).
        """
        saved_chars = [
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

        async def attempt() -> tuple[bool, Any]:
            async with self._tx() as s:
                row = (
                    await s.execute(
                        select(Session)
                        .where(Session.scope == scope, Session.system == system)
                        .with_for_update()
                    )
                ).scalar_one_or_none()
                old = row.state if row else None  # freshly decoded from the database
                version = row.version if row else 0
                new, result = fn(_clone(old))
                if new == old:
                    return True, result
                if row is None:
                    s.add(Session(scope=scope, system=system, state=new, version=1))
                    await s.flush()
                else:
                    res = await s.execute(
                        update(Session)
                        .where(Session.scope == scope, Session.system == system, Session.version == version)
                        .values(state=new, version=version + 1, updated_at=utcnow())
                    )
                    if res.rowcount != 1:
                        return False, None
                s.add(
                    SessionLog(
                        scope=scope,
                        system=system,
                        user_id=user_id,
                        command=command[:500],
                        before=old,
                        characters_before=saved_chars,
                        version_after=version + 1,
                    )
                )
            return True, result

        return await self._retry(attempt, "操作")

    async def undo(self, scope: str, system: str | None = None) -> UndoResult | None:
        """Revert the newest not-yet-undone command of ``scope`` (of ``system`` when given)."""

        async def attempt() -> tuple[bool, UndoResult | None]:
            async with self._tx() as s:
                q = select(SessionLog).where(SessionLog.scope == scope, SessionLog.undone.is_(False))
                if system is not None:
                    q = q.where(SessionLog.system == system)
                entry = (await s.execute(q.order_by(SessionLog.id.desc()).limit(1))).scalar_one_or_none()
                if entry is None:
                    return True, None
                row = (
                    await s.execute(
                        select(Session)
                        .where(Session.scope == scope, Session.system == entry.system)
                        .with_for_update()
                    )
                ).scalar_one_or_none()
                if row is None:
                    return True, None
                res = await s.execute(
                    update(Session)
                    .where(
                        Session.scope == scope, Session.system == entry.system, Session.version == row.version
                    )
                    .values(state=entry.before, version=row.version + 1, updated_at=utcnow())
                )
                if res.rowcount != 1:
                    return False, None
                entry.undone = True
                restored: list[str] = []
                stale: list[str] = []
                for saved in entry.characters_before or []:
                    res = await s.execute(
                        update(Character)
                        .where(Character.id == saved["id"], Character.version == saved["version_after"])
                        .values(
                            name=saved["name"],
                            system=saved["system"],
                            attributes=saved["attributes"],
                            data=saved["data"],
                            version=saved["version_after"] + 1,
                            updated_at=utcnow(),
                        )
                    )
                    (restored if res.rowcount == 1 else stale).append(saved["name"])
                return True, UndoResult(
                    system=entry.system,
                    command=entry.command,
                    user_id=entry.user_id,
                    state=_clone(entry.before),
                    restored_characters=tuple(restored),
                    stale_characters=tuple(stale),
                )

        return await self._retry(attempt, "撤销")

    async def session_log(self, scope: str, system: str | None = None, limit: int = 50) -> list[LogEntry]:
        """The newest ``limit`` log entries, oldest first."""
        async with self._read() as s:
            q = select(SessionLog).where(SessionLog.scope == scope)
            if system is not None:
                q = q.where(SessionLog.system == system)
            rows = (await s.execute(q.order_by(SessionLog.id.desc()).limit(limit))).scalars().all()
        return [
            LogEntry(
                id=r.id,
                scope=r.scope,
                system=r.system,
                user_id=r.user_id,
                command=r.command,
                version_after=r.version_after,
                undone=r.undone,
                created_at=_aware(r.created_at),
            )
            for r in reversed(rows)
        ]

    async def list_sessions(self, system: str) -> list[tuple[str, dict[str, Any] | None, int]]:
        """Every (scope, state, version) of a system — for sweepers after a restart."""
        async with self._read() as s:
            rows = (await s.execute(select(Session).where(Session.system == system))).scalars().all()
            return [(r.scope, copy.deepcopy(r.state), r.version) for r in rows]

    # ------------------------------------------------------------------ confirmations
    async def put_pending(self, key: str, value: dict[str, Any], ttl: float) -> None:
        expires = utcnow() + timedelta(seconds=ttl)

        async def attempt() -> tuple[bool, None]:
            async with self._tx() as s:
                row = await s.get(Pending, key, with_for_update=True)
                if row is None:
                    s.add(Pending(key=key, value=value, expires_at=expires))
                else:
                    row.value = value
                    row.expires_at = expires
            return True, None

        await self._retry(attempt, "确认")

    async def take_pending(self, key: str) -> dict[str, Any] | None:
        """Remove and return a pending value if it has not expired."""
        async with self._tx() as s:
            row = await s.get(Pending, key, with_for_update=True)
            if row is None:
                return None
            value, expires = copy.deepcopy(row.value), _aware(row.expires_at)
            await s.delete(row)
        if expires is not None and expires < utcnow():
            return None
        return value


def _clone(value: Any) -> Any:
    """A deep copy of JSON data (several times faster than ``copy.deepcopy`` on big states)."""
    if value is None:
        return None
    return json.loads(json.dumps(value, ensure_ascii=False))


async def _nickname(s: AsyncSession, user_id: str, scope: str | None) -> str | None:
    rows = (
        await s.execute(
            select(Nickname.scope, Nickname.name).where(
                Nickname.user_id == user_id, Nickname.scope.in_([scope or "", ""])
            )
        )
    ).all()
    names = {r.scope: r.name for r in rows}
    return names.get(scope or "") or names.get("")


async def _group(s: AsyncSession, group_id: str) -> GroupRecord:
    row = await s.get(Group, group_id)
    gms = (await s.execute(select(GroupGM.user_id).where(GroupGM.group_id == group_id))).scalars().all()
    if row is None:
        return GroupRecord(group_id=group_id, gms=tuple(sorted(gms)))
    return GroupRecord(
        group_id=group_id,
        enabled=row.enabled,
        settings=copy.deepcopy(row.settings or {}),
        gms=tuple(sorted(gms)),
        version=row.version,
    )


async def _active(s: AsyncSession, user_id: str, scope: str | None) -> CharacterRecord | None:
    rows = (
        await s.execute(
            select(Binding.scope, Character)
            .join(Character, Character.id == Binding.character_id)
            .where(Binding.user_id == user_id, Binding.scope.in_([scope or "", ""]))
        )
    ).all()
    found = {r[0]: r[1] for r in rows}
    row = found.get(scope or "") or found.get("")
    return _char(row) if row else None


def _is_transient(exc: DBAPIError) -> bool:
    msg = str(exc.orig if exc.orig is not None else exc).lower()
    return any(
        k in msg
        for k in ("database is locked", "busy", "deadlock", "could not serialize", "serialization", "unique")
    )


def _sqlite_pragmas(engine: AsyncEngine, begin: str) -> None:
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
        conn.exec_driver_sql(begin)
