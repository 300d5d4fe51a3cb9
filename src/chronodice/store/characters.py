"""Characters (cards) and which card each user has bound where (``store.characters``).

Cards are written with compare-and-set on their ``version`` inside a write transaction that
locks the row, so no update is lost, also between processes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Executable, bindparam, delete, insert, select, update

from chronodice.core.errors import IllegalAction, NotFound

from . import patch as jpatch
from . import tables
from .db import Claim, Conflict, Database, Transient, Tx
from .records import CharacterRecord
from .tables import json_value

C, B = tables.characters, tables.bindings

CHAR_SELECT: tuple[Any, ...] = (C.c.id, C.c.owner_id, C.c.system, C.c.name, tables.json_text(C.c.attributes))
CHAR_SELECT += (tables.json_text(C.c.data), C.c.version, C.c.created_at, C.c.updated_at)
"""The columns of ``characters`` that :meth:`CharacterStore._char_row` reads, in its order."""

_CHAR = select(*CHAR_SELECT).where(C.c.id == bindparam("cid"))
_CHAR_LOCKED = _CHAR.with_for_update()
_CHAR_BY_NAME = select(*CHAR_SELECT).filter_by(owner_id=bindparam("owner_id"), name=bindparam("name"))
_WRITTEN: dict[str, Any] = {
    "name": bindparam("name"),
    "system": bindparam("system"),
    "updated_at": bindparam("now"),
}
_WRITTEN |= {"attributes": tables.text_param("attributes"), "data": tables.text_param("data")}
"""What creating and updating a card write (the parameters: :func:`_card`)."""
_CREATE = (
    insert(C)
    .values(owner_id=bindparam("owner_id"), version=1, created_at=bindparam("now"), **_WRITTEN)
    .returning(*CHAR_SELECT)
)
CHAR_CAS = (
    update(C)
    .where(C.c.id == bindparam("cid"), C.c.version == bindparam("old_version"))
    .values(version=bindparam("new_version"), **_WRITTEN)
)
"""A card's compare-and-set (its parameters: :func:`_cas_params`)."""


_BINDS = select(B.c.scope, B.c.character_id).where(B.c.user_id == bindparam("user_id"))


def _bind(dialect: str) -> Executable:
    """``bind``'s upsert (``ON CONFLICT`` is written in each dialect's own construct)."""
    ins = tables.insert_for(dialect, B).values(user_id=bindparam("user_id"), scope=bindparam("scope"))
    ins = ins.values(character_id=bindparam("cid"))
    return ins.on_conflict_do_update(
        index_elements=[B.c.user_id, B.c.scope], set_={"character_id": ins.excluded.character_id}
    )


_BIND = tables.per_dialect(_bind)


def _card(name: str, system: str, attrs: Mapping[str, Any], data: Any, now: datetime) -> dict[str, Any]:
    """The parameters of :data:`_WRITTEN`: a card's fields (JSON as the store's text) at ``now``."""
    texts = {"attributes": jpatch.dumps(dict(attrs)), "data": jpatch.dumps(data)}
    return {"name": name, "system": system, "now": now, **texts}


def _cas_params(old: CharacterRecord, new: CharacterRecord, now: datetime) -> dict[str, Any]:
    """:data:`CHAR_CAS`'s parameters: ``new`` written over ``old`` at ``now``."""
    where = {"cid": old.id, "old_version": old.version, "new_version": old.version + 1}
    return _card(new.name, new.system, new.attributes, new.data, now) | where


def char_row(db: Database, row: Sequence[Any]) -> CharacterRecord:
    """A card from a row of :data:`CHAR_SELECT`."""
    return CharacterRecord(
        id=row[0],
        owner_id=row[1],
        system=row[2],
        name=row[3],
        attributes=json_value(row[4]) or {},
        data=json_value(row[5]) or {},
        version=row[6],
        created_at=db.dt_out(row[7]),
        updated_at=db.dt_out(row[8]),
    )


class Characters:
    """``store.characters``: cards and bindings."""

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    def _char_row(self, row: Sequence[Any]) -> CharacterRecord:
        return char_row(self.db, row)

    async def create_character(
        self,
        owner_id: str,
        name: str,
        *,
        system: str = "generic",
        attributes: dict[str, Any] | None = None,
        data: dict[str, Any] | None = None,
        claim: Claim | None = None,
    ) -> CharacterRecord:
        """Create a character; :class:`IllegalAction` if the owner already has one of that name."""
        params = _card(name, system, attributes or {}, data or {}, self.now()) | {"owner_id": owner_id}

        async def body(tx: Tx) -> CharacterRecord:
            row = await tx.one(_CREATE, params)
            assert row is not None
            return self._char_row(row)

        try:
            return await self.db.write(body, "创建角色", claim=claim)
        except Conflict:
            raise IllegalAction(f"你已有名为「{name}」的角色") from None

    async def get_character(self, character_id: int) -> CharacterRecord | None:
        row = await self.db.read(lambda tx: tx.one(_CHAR, {"cid": character_id}))
        return self._char_row(row) if row else None

    async def find_character(self, owner_id: str, name: str) -> CharacterRecord | None:
        row = await self.db.read(lambda tx: tx.one(_CHAR_BY_NAME, {"owner_id": owner_id, "name": name}))
        return self._char_row(row) if row else None

    async def list_characters(self, owner_id: str, system: str | None = None) -> list[CharacterRecord]:
        stmt = select(*CHAR_SELECT).where(C.c.owner_id == owner_id).order_by(C.c.id)
        if system is not None:
            stmt = stmt.where(C.c.system == system)
        return [self._char_row(r) for r in await self.db.read(lambda tx: tx.all(stmt))]

    async def update_character(
        self,
        character_id: int,
        fn: Callable[[CharacterRecord], CharacterRecord],
        *,
        claim: Claim | None = None,
    ) -> CharacterRecord:
        """Apply the pure ``fn`` to a character with compare-and-set on its version.

        ``fn`` may raise a :class:`ChronoDiceError` to abort (nothing is written) and may be
        called more than once after a lost race.  Owner and id cannot be changed by ``fn``.
        """

        async def body(tx: Tx) -> CharacterRecord:
            row = await tx.one(_CHAR_LOCKED, {"cid": character_id})
            if row is None:
                raise NotFound("角色不存在（可能已被删除）")
            old = self._char_row(row)
            new = fn(old)
            now = self.now()
            if await tx.run(CHAR_CAS, _cas_params(old, new, now)) != 1:
                raise Transient("character version")
            return replace(new, id=old.id, owner_id=old.owner_id, version=old.version + 1, updated_at=now)

        try:
            return await self.db.write(body, "角色更新", claim=claim)
        except Conflict:
            raise IllegalAction("已有同名角色") from None

    async def delete_character(self, character_id: int, *, claim: Claim | None = None) -> bool:
        async def body(tx: Tx) -> bool:
            await tx.run(delete(B).where(B.c.character_id == character_id))
            return await tx.run(delete(C).where(C.c.id == character_id)) > 0

        return await self.db.write(body, "删除角色", claim=claim)

    async def bind(self, user_id: str, scope: str, character_id: int, *, claim: Claim | None = None) -> None:
        """Make ``character_id`` the active character of ``user_id`` in ``scope`` ("" = default)."""
        params = {"user_id": user_id, "scope": scope, "cid": character_id}

        async def body(tx: Tx) -> None:
            await tx.run(_BIND[tx.dialect], params)

        await self.db.write(body, "绑定角色", claim=claim)

    async def active_character(
        self, user_id: str, scope: str | None, *, fallback: bool = True
    ) -> CharacterRecord | None:
        """The character bound in ``scope``, else (with ``fallback``) the user's default, else None."""
        keys = (scope or "", "") if fallback else (scope or "",)

        async def body(tx: Tx) -> CharacterRecord | None:
            binds = {r[0]: r[1] for r in await tx.all(_BINDS, {"user_id": user_id})}
            for key in keys:
                cid = binds.get(key)
                row = await tx.one(_CHAR, {"cid": cid}) if cid is not None else None
                if row is not None:
                    return self._char_row(row)
            return None

        return await self.db.read(body)

    async def bindings(self, user_id: str) -> dict[str, int]:
        """Every scope where ``user_id`` has bound a card ("" = default) → the card's id."""
        rows = await self.db.read(lambda tx: tx.all(_BINDS, {"user_id": user_id}))
        return {r[0]: r[1] for r in rows}
