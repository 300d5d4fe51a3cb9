"""Users' nicknames and groups (switch, settings, GMs), and :meth:`GroupStore.view`: what
nearly every command reads, from the process-local caches (:mod:`.cache`) with at most one
read transaction for what is missing.

The clock is read as ``common.utcnow()``: replacing :func:`chronodice.store.common.utcnow`
(as the guide generator does) fixes it here too."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from . import common
from . import patch as jpatch
from .cache import RowCache
from .characters import CHAR_COLS, copy_char
from .common import StorePart, _clone, _j
from .records import CharacterRecord, ContextView, GroupRecord
from .tx import Transient, Tx

T = TypeVar("T")

USER_SQL = (
    f"SELECT b.scope, b.character_id, {', '.join('c.' + col for col in CHAR_COLS.split(', '))}, NULL"
    " FROM bindings b LEFT JOIN characters c ON c.id = b.character_id WHERE b.user_id = $1"
    " UNION ALL SELECT n.scope, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, n.name"
    " FROM nicknames n WHERE n.user_id = $1"
)
"""A user's bindings with their cards, then the user's nicknames (see :meth:`GroupStore._user`)."""


def copy_group(rec: GroupRecord) -> GroupRecord:
    """A copy of a cached group that its caller may change."""
    return replace(rec, settings=_clone(rec.settings)) if rec.settings else rec


class GroupStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`: nicknames, groups and the view."""

    if TYPE_CHECKING:
        _cache: RowCache

        def _char_row(self, row: tuple[Any, ...]) -> CharacterRecord: ...
        async def _active(
            self, tx: Tx | None, user_id: str, scope: str | None, *, fallback: bool = True
        ) -> CharacterRecord | None: ...

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
        rows = await tx.all(USER_SQL, user_id)
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
            RowCache.put(self._cache.nicks, user_id, nicks)
            RowCache.put(self._cache.binds, user_id, binds)
            for cid, rec in chars.items():
                RowCache.put(self._cache.chars, cid, rec)
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
                    self._backend.dt_in(common.utcnow()),
                )

        await self._write(body, "设置昵称", drops=(f"n:{user_id}",))

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
        return copy_group(await self._group(None, group_id))

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
                    group=copy_group(group) if group is not None else None,
                    nickname=nicks.get(group_id or "") or nicks.get(""),
                    character=copy_char(char) if char is not None else None,
                )

        async def body(tx: Tx) -> ContextView:
            group = await self._group(tx, group_id) if group_id is not None else None
            if use and c.nicks.get(user_id) is not None and c.binds.get(user_id) is not None:
                nicks = await self._user_nicks(tx, user_id)
                char = await self._active(tx, user_id, scope)
            else:
                nicks, char = await self._user(tx, user_id, scope)
            return ContextView(
                group=copy_group(group) if group is not None else None,
                nickname=nicks.get(group_id or "") or nicks.get(""),
                character=copy_char(char) if char is not None else None,
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
                self._backend.dt_in(common.utcnow()),
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
                    self._backend.dt_in(common.utcnow()),
                )
                return new
            n = await tx.run(
                "UPDATE groups SET settings = $1, version = $2, updated_at = $3"
                " WHERE group_id = $4 AND version = $5",
                jpatch.dumps(new),
                row[1] + 1,
                self._backend.dt_in(common.utcnow()),
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
                self._backend.dt_in(common.utcnow()),
            )
            return n == 1

        return await self._write(body, "任命GM", drops=(f"g:{group_id}",))

    async def remove_gm(self, group_id: str, user_id: str) -> bool:
        async def body(tx: Tx) -> bool:
            n = await tx.run("DELETE FROM group_gms WHERE group_id = $1 AND user_id = $2", group_id, user_id)
            return n > 0

        return await self._write(body, "撤销GM", drops=(f"g:{group_id}",))
