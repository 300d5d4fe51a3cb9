"""Characters (cards) and which card each user has bound where.

Cards are read through the process-local cache (:class:`~chronodice.store.cache.RowCache`)
and written with compare-and-set on their ``version``; on PostgreSQL a cached card is first
written in one statement that also claims the event.  The statements (SQLAlchemy Core on
:data:`.tables.characters` and :data:`.tables.bindings`) are built once, here.

The clock is read as ``common.utcnow()``: replacing :func:`chronodice.store.common.utcnow`
(as the guide generator does) fixes it here too."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Executable, Float, String, bindparam, delete, func, insert, select, update

from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound

from . import common, tables
from . import patch as jpatch
from .cache import RowCache
from .common import Claim, StorePart, clone_json, json_value
from .records import CharacterRecord
from .tx import Conflict, Transient, Tx

C, B = tables.characters, tables.bindings

CHAR_SELECT = (C.c.id, C.c.owner_id, C.c.system, C.c.name, tables.json_text(C.c.attributes))
CHAR_SELECT += (tables.json_text(C.c.data), C.c.version, C.c.created_at, C.c.updated_at)
"""The columns of ``characters`` that :meth:`CharacterStore._char_row` reads, in its order."""

_CHAR = select(*CHAR_SELECT).where(C.c.id == bindparam("cid"))
_CHAR_LOCKED = _CHAR.with_for_update()
_CHAR_BY_NAME = select(*CHAR_SELECT).filter_by(owner_id=bindparam("owner_id"), name=bindparam("name"))
_WRITTEN = {"name": bindparam("name"), "system": bindparam("system"), "updated_at": bindparam("now")}
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


def _cas_at_once(claim: bool) -> Executable:
    """PostgreSQL: :data:`CHAR_CAS` counting the rows it wrote (1 or 0); with ``claim`` also
    claiming the event for each (``claim_*``: added by :meth:`Store._once`; typed, as
    PostgreSQL must know their types in a ``SELECT`` list)."""
    u = CHAR_CAS.returning(C.c.id).cte("u")
    stmt = select(func.count()).select_from(u)
    claims = select(bindparam("claim_self_id", type_=String), bindparam("claim_message_id", type_=String))
    claims = claims.add_columns(bindparam("claim_at", type_=Float)).select_from(u)
    cols = ("self_id", "message_id", "claimed_at")
    return stmt.add_cte(insert(tables.event_claims).from_select(cols, claims).cte("c")) if claim else stmt


_CAS_AT_ONCE = {claim: _cas_at_once(claim) for claim in (False, True)}
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


def _binds_of(user_id: str) -> Callable[[Tx], Awaitable[dict[str, int]]]:
    """A read of ``user_id``'s bindings (scope → card id), for :meth:`StorePart._cached`."""

    async def body(t: Tx) -> dict[str, int]:
        return {r[0]: r[1] for r in await t.all(_BINDS, {"user_id": user_id})}

    return body


def copy_char(rec: CharacterRecord) -> CharacterRecord:
    """A copy of a cached card that its caller may change."""
    return replace(rec, attributes=dict(rec.attributes), data=clone_json(rec.data) if rec.data else {})


class CharacterStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`: characters and bindings."""

    if TYPE_CHECKING:
        _cache: RowCache

        def _in_turn(self, key: tuple[str, str]) -> contextlib.AbstractAsyncContextManager[None]: ...
        async def _one_row(self, stmt: Executable, params: dict[str, Any], claim: Claim | None) -> bool: ...
        def _at_once(self) -> bool: ...

    def _char_row(self, row: Sequence[Any]) -> CharacterRecord:
        """A card from a row of :data:`CHAR_SELECT`."""
        return CharacterRecord(
            id=row[0],
            owner_id=row[1],
            system=row[2],
            name=row[3],
            attributes=json_value(row[4]) or {},
            data=json_value(row[5]) or {},
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
        claim: Claim | None = None,
    ) -> CharacterRecord:
        """Create a character; :class:`IllegalAction` if the owner already has one of that name."""
        params = _card(name, system, attributes or {}, data or {}, common.utcnow()) | {"owner_id": owner_id}

        async def body(tx: Tx) -> CharacterRecord:
            row = await tx.one(_CREATE, params)
            assert row is not None
            return self._char_row(row)

        try:
            return await self._write(body, "创建角色", claim=claim)
        except Conflict:
            raise IllegalAction(f"你已有名为「{name}」的角色") from None

    async def _char(self, tx: Tx | None, character_id: int) -> CharacterRecord | None:
        async def body(t: Tx) -> CharacterRecord | None:
            row = await t.one(_CHAR, {"cid": character_id})
            return self._char_row(row) if row else None

        return await self._cached(self._cache.chars, character_id, tx, body)

    async def get_character(self, character_id: int) -> CharacterRecord | None:
        rec = await self._char(None, character_id)
        return copy_char(rec) if rec else None

    async def find_character(self, owner_id: str, name: str) -> CharacterRecord | None:
        row = await self._read(lambda tx: tx.one(_CHAR_BY_NAME, {"owner_id": owner_id, "name": name}))
        return self._char_row(row) if row else None

    async def list_characters(self, owner_id: str, system: str | None = None) -> list[CharacterRecord]:
        stmt = select(*CHAR_SELECT).where(C.c.owner_id == owner_id).order_by(C.c.id)
        if system is not None:
            stmt = stmt.where(C.c.system == system)
        return [self._char_row(r) for r in await self._read(lambda tx: tx.all(stmt))]

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
        On PostgreSQL a cached card is first written in one statement (as sessions are, see
        :meth:`_apply_batch_at_once`); the locked transaction is the fallback.
        """
        epoch = [0]

        async def body(tx: Tx) -> CharacterRecord:
            epoch[0] = self._cache.epoch
            row = await tx.one(_CHAR_LOCKED, {"cid": character_id})
            if row is None:
                raise NotFound("角色不存在（可能已被删除）")
            old = self._char_row(row)
            new = fn(copy_char(old))
            now = common.utcnow()
            if await tx.run(CHAR_CAS, _cas_params(old, new, now)) != 1:
                raise Transient("character version")
            return replace(new, id=old.id, owner_id=old.owner_id, version=old.version + 1, updated_at=now)

        try:
            if self._at_once():
                async with self._in_turn((f"card:{character_id}", "")):
                    rec = await self._update_character_at_once(character_id, fn, epoch, claim)
                    if rec is None:
                        rec = await self._write(body, "角色更新", claim=claim)
            else:
                rec = await self._write(body, "角色更新", claim=claim)
        except Conflict:
            raise IllegalAction("已有同名角色") from None
        self._cache.drop(f"c:{character_id}")
        if self._cache_on and epoch[0] + 1 == self._cache.epoch:
            RowCache.put(self._cache.chars, character_id, copy_char(rec))
        return rec

    async def _update_character_at_once(
        self,
        character_id: int,
        fn: Callable[[CharacterRecord], CharacterRecord],
        epoch: list[int],
        claim: Claim | None,
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
            new = fn(copy_char(old))
        except ChronoDiceError:
            return None
        ev = claim.pending() if claim is not None else None
        now = common.utcnow()
        if not await self._one_row(_CAS_AT_ONCE[ev is not None], _cas_params(old, new, now), ev):
            return None
        return replace(new, id=old.id, owner_id=old.owner_id, version=old.version + 1, updated_at=now)

    async def delete_character(self, character_id: int, *, claim: Claim | None = None) -> bool:
        async def body(tx: Tx) -> tuple[bool, list[str]]:
            owners = await tx.all(select(B.c.user_id).distinct().where(B.c.character_id == character_id))
            await tx.run(delete(B).where(B.c.character_id == character_id))
            n = await tx.run(delete(C).where(C.c.id == character_id))
            return n > 0, [r[0] for r in owners]

        done, owners = await self._write(body, "删除角色", drops=(f"c:{character_id}",), claim=claim)
        for uid in owners:
            self._cache.drop(f"b:{uid}")
        return done

    async def bind(self, user_id: str, scope: str, character_id: int, *, claim: Claim | None = None) -> None:
        """Make ``character_id`` the active character of ``user_id`` in ``scope`` ("" = default)."""
        params = {"user_id": user_id, "scope": scope, "cid": character_id}

        async def body(tx: Tx) -> None:
            await tx.run(_BIND[tx.dialect], params)

        await self._write(body, "绑定角色", drops=(f"b:{user_id}",), claim=claim)

    async def _active(
        self, tx: Tx | None, user_id: str, scope: str | None, *, fallback: bool = True
    ) -> CharacterRecord | None:
        binds = await self._cached(self._cache.binds, user_id, tx, _binds_of(user_id))
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
        return copy_char(rec) if rec else None

    async def bindings(self, user_id: str) -> dict[str, int]:
        """Every scope where ``user_id`` has bound a card ("" = default) → the card's id."""
        return dict(await self._cached(self._cache.binds, user_id, None, _binds_of(user_id)))
