"""Users' nicknames and groups (switch, settings, GMs), and :meth:`Groups.view`: what nearly
every message reads, in one statement (``store.groups``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Integer,
    bindparam,
    delete,
    func,
    insert,
    literal_column,
    null,
    select,
    union_all,
    update,
)

from . import patch as jpatch
from . import tables
from .characters import CHAR_SELECT, char_row
from .db import Claim, Database, Transient, Tx
from .records import ContextView, GroupRecord, LogInProgress
from .tables import clone_json, json_value, upsert, written

_b, _c, _n, _g, _gm = tables.bindings, tables.characters, tables.nicknames, tables.groups, tables.group_gms
_lg = tables.game_logs
_USER: Any = bindparam("user_id")
_GROUP: Any = bindparam("group_id")


def _kind(n: int) -> Any:
    return literal_column(str(n), Integer).label("kind")


_NONE_CARD = [null()] * len(CHAR_SELECT)
_IN_PROGRESS = select(func.max(_lg.c.id)).where(_lg.c.group_id == _GROUP, _lg.c.ended_at.is_(None))
VIEW = union_all(
    select(_kind(3), null().label("settings"), _b.c.scope.label("text"), null().label("name"))
    .add_columns(_b.c.character_id.label("number"), null().label("flag"), *CHAR_SELECT)
    .join_from(_b, _c, _c.c.id == _b.c.character_id, isouter=True)
    .where(_b.c.user_id == _USER),
    select(
        _kind(0), tables.json_text(_g.c.settings), null(), null(), _g.c.version, _g.c.enabled, *_NONE_CARD
    ).where(_g.c.group_id == _GROUP),
    select(_kind(1), null(), _gm.c.user_id, null(), null(), null(), *_NONE_CARD).where(
        _gm.c.group_id == _GROUP
    ),
    select(_kind(2), null(), null(), _lg.c.name, _lg.c.id, _lg.c.recording, *_NONE_CARD).where(
        _lg.c.id == _IN_PROGRESS.scalar_subquery()
    ),
    select(_kind(4), null(), _n.c.scope, _n.c.name, null(), null(), *_NONE_CARD).where(_n.c.user_id == _USER),
)
"""Everything :meth:`Groups.view` reads, one row each, by ``kind``: 3 a binding of the user
(scope, card id, and the card), 0 the group's row (settings, version, switch), 1 an appointed GM,
2 the log in progress (name, id, recording), 4 a nickname of the user (scope, name).  One
statement: on PostgreSQL each is a round trip to a server that shares the machine.  The bindings
come first because PostgreSQL types a ``UNION`` pair by pair from the left: the first two
branches must not both leave a column NULL where a later one has a JSON or number."""
NICKS = select(_n.c.scope, _n.c.name).where(_n.c.user_id == _USER)
NICK_DEL = delete(_n).where(_n.c.user_id == _USER, _n.c.scope == bindparam("scope"))
_NICK = written("user_id", "scope", "name", "updated_at")
NICK_SET = tables.per_dialect(lambda d: upsert(d, _n, _NICK, ["user_id", "scope"], "name", "updated_at"))
GROUP = select(_g.c.enabled, tables.json_text(_g.c.settings), _g.c.version).where(_g.c.group_id == _GROUP)
GROUP_LOCK = GROUP.with_for_update()
WITH_GMS = union_all(
    select(*GROUP.selected_columns, null().label("gm")).where(_g.c.group_id == _GROUP),
    select(null(), null(), null(), _gm.c.user_id).where(_gm.c.group_id == _GROUP),
)
"""A group's row (``gm`` NULL) and one row per appointed GM, in one statement."""
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


class Groups:
    """``store.groups``: nicknames, groups and the view of a command's context."""

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    async def get_nickname(self, user_id: str, scope: str | None) -> str | None:
        """The nickname of ``user_id`` in ``scope``, else the user's global one, else None."""
        rows = await self.db.read(lambda tx: tx.all(NICKS, {"user_id": user_id}))
        names = {r[0]: r[1] for r in rows}
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
                await tx.run(NICK_SET[tx.dialect], {**key, "name": name, "updated_at": self.now()})

        await self.db.write(body, "设置昵称", claim=claim)

    @staticmethod
    async def _group(tx: Tx, group_id: str) -> GroupRecord:
        rows = await tx.all(WITH_GMS, {"group_id": group_id})
        ids = tuple(sorted(r[3] for r in rows if r[3] is not None))
        row = next((r for r in rows if r[3] is None), None)
        if row is None:
            return GroupRecord(group_id=group_id, gms=ids)
        return GroupRecord(
            group_id=group_id,
            enabled=bool(row[0]),
            settings=json_value(row[1]) or {},
            gms=ids,
            version=row[2],
        )

    async def get_group(self, group_id: str) -> GroupRecord:
        return await self.db.read(lambda tx: self._group(tx, group_id))

    async def group_enabled(self, group_id: str) -> bool:
        """The group switch (``.bot on/off``)."""
        return (await self.get_group(group_id)).enabled

    async def view(self, user_id: str | None, scope: str, group_id: str | None) -> ContextView:
        """Everything a message reads (:data:`VIEW`): the group and its GMs, the log in progress
        there, and the user's nickname and card active in ``scope`` (else the default; no user:
        the group's part alone)."""
        rows = await self.db.read(lambda tx: tx.all(VIEW, {"user_id": user_id, "group_id": group_id}))
        return _view(self.db, rows, scope, group_id)

    async def set_enabled(self, group_id: str, enabled: bool, *, claim: Claim | None = None) -> None:
        async def body(tx: Tx) -> None:
            new = {"group_id": group_id, "enabled": enabled, "settings": "{}", "updated_at": self.now()}
            await tx.run(SWITCH[tx.dialect], new)

        await self.db.write(body, "开关", claim=claim)

    async def update_group_settings(
        self, group_id: str, fn: Callable[[dict[str, Any]], dict[str, Any]], *, claim: Claim | None = None
    ) -> dict[str, Any]:
        """Apply ``fn`` to the group's settings dict with compare-and-set; returns the new settings."""

        async def body(tx: Tx) -> dict[str, Any]:
            row = await tx.one(GROUP_LOCK, {"group_id": group_id})
            old = (json_value(row[1]) or {}) if row else {}
            new = fn(clone_json(old))
            params = {"settings": jpatch.dumps(new), "updated_at": self.now()}
            if row is None:
                await tx.run(GROUP_NEW, {**params, "group_id": group_id, "enabled": True})
                return new
            n = await tx.run(GROUP_CAS, {**params, "gid": group_id, "old": row[2], "version": row[2] + 1})
            if n != 1:
                raise Transient("group version")
            return new

        return await self.db.write(body, "群设置", retry_conflict=True, claim=claim)

    async def add_gm(self, group_id: str, user_id: str, by: str = "", *, claim: Claim | None = None) -> bool:
        """Appoint a GM; False when already one."""

        async def body(tx: Tx) -> bool:
            new = {"group_id": group_id, "user_id": user_id, "by": by, "at": self.now()}
            return await tx.run(GM_ADD[tx.dialect], new) == 1

        return await self.db.write(body, "任命GM", claim=claim)

    async def remove_gm(self, group_id: str, user_id: str, *, claim: Claim | None = None) -> bool:
        async def body(tx: Tx) -> bool:
            return await tx.run(GM_DEL, {"group_id": group_id, "user_id": user_id}) > 0

        return await self.db.write(body, "撤销GM", claim=claim)


def _view(db: Database, rows: list[Any], scope: str, group_id: str | None) -> ContextView:
    """:meth:`Groups.view` from the rows of :data:`VIEW`."""
    by_kind: dict[int, list[Any]] = {0: [], 1: [], 2: [], 3: [], 4: []}
    for r in rows:
        by_kind[r.kind].append(r)
    group = None
    if group_id is not None:
        head = by_kind[0][0] if by_kind[0] else None
        gms = tuple(sorted(r.text for r in by_kind[1]))
        group = GroupRecord(group_id=group_id, gms=gms)
        if head is not None:
            group = GroupRecord(
                group_id=group_id,
                enabled=bool(head.flag),
                settings=json_value(head.settings) or {},
                gms=gms,
                version=head.number,
            )
    log = next((LogInProgress(int(r.number), r.name, bool(r.flag)) for r in by_kind[2]), None)
    binds = {r.text: r for r in by_kind[3]}
    nicks = {r.text: r.name for r in by_kind[4]}
    char = None
    for key in (scope or "", ""):
        bound = binds.get(key)
        if bound is not None and bound[6] is not None:
            char = char_row(db, bound[6:])
            break
    return ContextView(
        group=group, nickname=nicks.get(group_id or "") or nicks.get(""), character=char, log=log
    )
