"""Characters (cards) and which card each user has bound where.

Cards are read through the process-local cache (:class:`~chronodice.store.cache.RowCache`)
and written with compare-and-set on their ``version``; on PostgreSQL a cached card is first
written in one statement that also claims the event.

The clock is read as ``common.utcnow()``: replacing :func:`chronodice.store.common.utcnow`
(as the guide generator does) fixes it here too."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound

from . import common
from . import patch as jpatch
from .cache import RowCache
from .common import _EVENT, StorePart, _clone, _Event, _j
from .records import CharacterRecord
from .tx import Conflict, Transient, Tx

T = TypeVar("T")

CHAR_COLS = "id, owner_id, system, name, attributes, data, version, created_at, updated_at"
"""The columns of ``characters`` that :meth:`CharacterStore._char_row` reads, in its order."""
CHAR_CAS = (
    "UPDATE characters SET name = $1, system = $2, attributes = $3, data = $4, version = $5,"
    " updated_at = $6 WHERE id = $7 AND version = $8"
)
"""A card's compare-and-set (its parameters: :meth:`CharacterStore._char_cas_args`)."""


def copy_char(rec: CharacterRecord) -> CharacterRecord:
    """A copy of a cached card that its caller may change."""
    return replace(rec, attributes=dict(rec.attributes), data=_clone(rec.data) if rec.data else {})


class CharacterStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`: characters and bindings."""

    if TYPE_CHECKING:
        _cache: RowCache

        def _in_turn(self, key: tuple[str, str]) -> contextlib.AbstractAsyncContextManager[None]: ...
        async def _one_row(self, sql: str, args: list[Any], claim: _Event | None) -> bool: ...
        def _at_once(self) -> bool: ...

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
        now = common.utcnow()

        async def body(tx: Tx) -> CharacterRecord:
            row = await tx.one(
                "INSERT INTO characters (owner_id, system, name, attributes, data, version, created_at, updated_at)"
                f" VALUES ($1, $2, $3, $4, $5, 1, $6, $6) RETURNING {CHAR_COLS}",
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
            row = await t.one(f"SELECT {CHAR_COLS} FROM characters WHERE id = $1", character_id)
            return self._char_row(row) if row else None

        return await self._cached(self._cache.chars, character_id, tx, body)

    async def get_character(self, character_id: int) -> CharacterRecord | None:
        rec = await self._char(None, character_id)
        return copy_char(rec) if rec else None

    async def find_character(self, owner_id: str, name: str) -> CharacterRecord | None:
        row = await self._read(
            lambda tx: tx.one(
                f"SELECT {CHAR_COLS} FROM characters WHERE owner_id = $1 AND name = $2", owner_id, name
            )
        )
        return self._char_row(row) if row else None

    async def list_characters(self, owner_id: str, system: str | None = None) -> list[CharacterRecord]:
        if system is None:
            rows = await self._read(
                lambda tx: tx.all(
                    f"SELECT {CHAR_COLS} FROM characters WHERE owner_id = $1 ORDER BY id", owner_id
                )
            )
        else:
            rows = await self._read(
                lambda tx: tx.all(
                    f"SELECT {CHAR_COLS} FROM characters WHERE owner_id = $1 AND system = $2 ORDER BY id",
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
                f"SELECT {CHAR_COLS} FROM characters WHERE id = $1" + tx.for_update, character_id
            )
            if row is None:
                raise NotFound("角色不存在（可能已被删除）")
            old = self._char_row(row)
            new = fn(copy_char(old))
            now = common.utcnow()
            n = await tx.run(CHAR_CAS, *self._char_cas_args(old, new, now))
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
            RowCache.put(self._cache.chars, character_id, copy_char(rec))
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
            new = fn(copy_char(old))
        except ChronoDiceError:
            return None
        ev = _EVENT.get()
        claim = ev if ev is not None and not ev.claimed else None
        now = common.utcnow()
        sql = f"WITH u AS ({CHAR_CAS} RETURNING 1)"
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
        return copy_char(rec) if rec else None

    async def bindings(self, user_id: str) -> dict[str, int]:
        """Every scope where ``user_id`` has bound a card ("" = default) → the card's id."""

        async def body(t: Tx) -> dict[str, int]:
            rows = await t.all("SELECT scope, character_id FROM bindings WHERE user_id = $1", user_id)
            return {r[0]: r[1] for r in rows}

        return dict(await self._cached(self._cache.binds, user_id, None, body))
