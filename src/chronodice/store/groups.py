"""Users' nicknames and groups (switch, settings, GMs), and :meth:`GroupStore.view`: what
nearly every command reads, from the process-local caches (:mod:`.cache`) with at most one
read transaction for what is missing.

The clock is read as ``common.utcnow()``: replacing :func:`chronodice.store.common.utcnow`
(as the guide generator does) fixes it here too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, insert, null, select, union_all, update

from . import common, tables
from . import patch as jpatch
from .cache import RowCache
from .characters import CHAR_SELECT, copy_char
from .common import Claim, StorePart, clone_json, json_value
from .records import CharacterRecord, ContextView, GroupRecord
from .tables import upsert, written
from .tx import Transient, Tx

_b, _c, _n, _g, _gm = tables.bindings, tables.characters, tables.nicknames, tables.groups, tables.group_gms
_USER, _GROUP = bindparam("user_id"), bindparam("group_id")


USER = union_all(
    select(_b.c.scope, _b.c.character_id, *CHAR_SELECT, null().label("nick"))
    .join_from(_b, _c, _c.c.id == _b.c.character_id, isouter=True)
    .where(_b.c.user_id == _USER),
    select(_n.c.scope, *[null()] * (1 + len(CHAR_SELECT)), _n.c.name).where(_n.c.user_id == _USER),
)
"""A user's bindings with their cards, then the user's nicknames (see :meth:`GroupStore._user`)."""
NICKS = select(_n.c.scope, _n.c.name).where(_n.c.user_id == _USER)
NICK_DEL = delete(_n).where(_n.c.user_id == _USER, _n.c.scope == bindparam("scope"))
_NICK = written("user_id", "scope", "name", "updated_at")
NICK_SET = tables.per_dialect(lambda d: upsert(d, _n, _NICK, ["user_id", "scope"], "name", "updated_at"))
GROUP = select(_g.c.enabled, tables.json_text(_g.c.settings), _g.c.version).where(_g.c.group_id == _GROUP)
GROUP_LOCK = GROUP.with_for_update()
GMS = select(_gm.c.user_id).where(_gm.c.group_id == _GROUP)
_NEW_GROUP = written("group_id", "enabled", "updated_at", settings=tables.text_param("settings"), version=1)
GROUP_NEW = insert(_g).values(_NEW_GROUP)
GROUP_CAS = (
    update(_g)
    .where(_g.c.group_id == bindparam("gid"), _g.c.version == bindparam("old"))
    .values(written("version", "updated_at", settings=tables.text_param("settings")))
)
SWITCH = tables.per_dialect(
    lambda d: upsert(d, _g, _NEW_GROUP, ["group_id"], "enabled", "updated_at", version=_g.c.version + 1)
)
_NEW_GM = written("group_id", "user_id", appointed_by=bindparam("by"), created_at=bindparam("at"))
GM_ADD = tables.per_dialect(lambda d: tables.insert_for(d, _gm).values(_NEW_GM).on_conflict_do_nothing())
GM_DEL = delete(_gm).where(_gm.c.group_id == _GROUP, _gm.c.user_id == _USER)


def copy_group(rec: GroupRecord) -> GroupRecord:
    """A copy of a cached group that its caller may change."""
    return replace(rec, settings=clone_json(rec.settings)) if rec.settings else rec


class GroupStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`: nicknames, groups and the view."""

    if TYPE_CHECKING:
        _cache: RowCache

        def _char_row(self, row: Sequence[Any]) -> CharacterRecord: ...
        async def _active(
            self, tx: Tx | None, user_id: str, scope: str | None, *, fallback: bool = True
        ) -> CharacterRecord | None: ...

    async def _user_nicks(self, tx: Tx | None, user_id: str) -> dict[str, str]:
        async def body(t: Tx) -> dict[str, str]:
            rows = await t.all(NICKS, {"user_id": user_id})
            return {r[0]: r[1] for r in rows}

        return await self._cached(self._cache.nicks, user_id, tx, body)

    async def _user(self, tx: Tx, user_id: str, scope: str) -> tuple[dict[str, str], CharacterRecord | None]:
        """A user not in the caches: nicknames, bindings and bound cards in one statement (a
        user's first message costs one round trip, not three); all cached.  The nicknames and
        the card active in ``scope``."""
        epoch = self._cache.epoch
        rows = await tx.all(USER, {"user_id": user_id})
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

    async def set_nickname(
        self, user_id: str, scope: str | None, name: str | None, *, claim: Claim | None = None
    ) -> None:
        """Set (or with ``None`` clear) the nickname in ``scope`` (``None``/"" = everywhere)."""

        async def body(tx: Tx) -> None:
            key = {"user_id": user_id, "scope": scope or ""}
            if name is None:
                await tx.run(NICK_DEL, key)
            else:
                await tx.run(NICK_SET[tx.dialect], {**key, "name": name, "updated_at": common.utcnow()})

        await self._write(body, "设置昵称", drops=(f"n:{user_id}",), claim=claim)

    async def _group(self, tx: Tx | None, group_id: str) -> GroupRecord:
        async def body(t: Tx) -> GroupRecord:
            row = await t.one(GROUP, {"group_id": group_id})
            gms = await t.all(GMS, {"group_id": group_id})
            ids = tuple(sorted(r[0] for r in gms))
            if row is None:
                return GroupRecord(group_id=group_id, gms=ids)
            return GroupRecord(
                group_id=group_id,
                enabled=bool(row[0]),
                settings=json_value(row[1]) or {},
                gms=ids,
                version=row[2],
            )

        return await self._cached(self._cache.groups, group_id, tx, body)

    async def get_group(self, group_id: str) -> GroupRecord:
        return copy_group(await self._group(None, group_id))

    async def shared_group(self, group_id: str) -> GroupRecord:
        """The cached record itself, not a copy (every group message may ask: a keyword reply's
        lookup); read it, never change it.  Its ``version`` changes with every write."""
        return await self._group(None, group_id)

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

    async def set_enabled(self, group_id: str, enabled: bool, *, claim: Claim | None = None) -> None:
        async def body(tx: Tx) -> None:
            new = {"group_id": group_id, "enabled": enabled, "settings": "{}", "updated_at": common.utcnow()}
            await tx.run(SWITCH[tx.dialect], new)

        await self._write(body, "开关", drops=(f"g:{group_id}",), claim=claim)

    async def update_group_settings(
        self, group_id: str, fn: Callable[[dict[str, Any]], dict[str, Any]], *, claim: Claim | None = None
    ) -> dict[str, Any]:
        """Apply ``fn`` to the group's settings dict with compare-and-set; returns the new settings."""

        async def body(tx: Tx) -> dict[str, Any]:
            row = await tx.one(GROUP_LOCK, {"group_id": group_id})
            old = (json_value(row[1]) or {}) if row else {}
            new = fn(clone_json(old))
            params = {"settings": jpatch.dumps(new), "updated_at": common.utcnow()}
            if row is None:
                await tx.run(GROUP_NEW, {**params, "group_id": group_id, "enabled": True})
                return new
            n = await tx.run(GROUP_CAS, {**params, "gid": group_id, "old": row[2], "version": row[2] + 1})
            if n != 1:
                raise Transient("group version")
            return new

        return await self._write(body, "群设置", drops=(f"g:{group_id}",), retry_conflict=True, claim=claim)

    async def add_gm(self, group_id: str, user_id: str, by: str = "", *, claim: Claim | None = None) -> bool:
        """Appoint a GM; False when already one."""

        async def body(tx: Tx) -> bool:
            new = {"group_id": group_id, "user_id": user_id, "by": by, "at": common.utcnow()}
            return await tx.run(GM_ADD[tx.dialect], new) == 1

        return await self._write(body, "任命GM", drops=(f"g:{group_id}",), claim=claim)

    async def remove_gm(self, group_id: str, user_id: str, *, claim: Claim | None = None) -> bool:
        async def body(tx: Tx) -> bool:
            return await tx.run(GM_DEL, {"group_id": group_id, "user_id": user_id}) > 0

        return await self._write(body, "撤销GM", drops=(f"g:{group_id}",), claim=claim)
