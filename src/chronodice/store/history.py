"""Session history in the store: ``.undo``, the session log, ``.replay`` and every session of a
system.

Each command's log row holds the reverse patch (after → before, see :mod:`.patch`) or the whole
state before; ``.undo`` applies the newest to the current state, ``.replay`` walks them back
from it.

The clock is the store's (``now``), as for every write."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa

from chronodice.core.errors import ChronoDiceError, IllegalAction

from . import patch as jpatch
from . import session_rows as srows
from . import tables
from .db import Claim, Database, Transient, Tx
from .records import LogEntry, UndoResult
from .sessions import HEAD_LOCKED, KEY
from .tables import clone_json, json_value, stored_text

log = logging.getLogger("chronodice.store")

_s, _log, _c = tables.sessions, tables.session_log, tables.characters
_ENTRY = [_log.c[k] for k in "id scope system user_id command version_after undone created_at".split()]
"""The columns :meth:`SessionHistoryStore._log_entry` reads."""
_BEFORE, _CARDS, _PATCH = (tables.json_text(_log.c[k]) for k in ("before", "characters_before", "patch"))
# parameters named after no column: an UPDATE would take a column's name for its SET clause
_APPLIED = (_log.c.scope == sa.bindparam("key_scope"), ~_log.c.undone)

NEWEST = (
    sa.select(_log.c.id, _log.c.system, _log.c.user_id, _log.c.command, _BEFORE, _CARDS, _PATCH)
    .where(*_APPLIED)
    .order_by(_log.c.id.desc())
    .limit(1)
)
"""The newest entry of ``.undo``'s scope not undone yet (of one system: :data:`NEWEST_OF`)."""
NEWEST_OF = NEWEST.where(_log.c.system == sa.bindparam("key_system"))
UNDO_SESSION = (
    sa.update(_s)
    .where(*KEY, _s.c.version == sa.bindparam("version_was"))
    .values(state=tables.text_param("state"), version=_s.c.version + 1, updated_at=sa.bindparam("now"))
)
MARK_UNDONE = sa.update(_log).where(_log.c.id == sa.bindparam("log_id")).values(undone=True)
RESTORE_CARD = (
    sa.update(_c)
    .where(_c.c.id == sa.bindparam("card"), _c.c.version == sa.bindparam("version_was"))
    .values(
        name=sa.bindparam("name"),
        system=sa.bindparam("system"),
        attributes=tables.text_param("attributes"),
        data=tables.text_param("data"),
        version=_c.c.version + 1,
        updated_at=sa.bindparam("now"),
    )
)
"""A card put back as it was before the command, unless someone changed it since."""
REPLAY = (
    sa.select(*_ENTRY, _BEFORE, _PATCH)
    .where(*_APPLIED, _log.c.system == sa.bindparam("key_system"))
    .order_by(_log.c.id.desc())
)


class UndoOvertaken(ChronoDiceError):
    """``.undo`` found a newer command than the one its permission check approved: nothing was
    reverted.  The message names no command (it may concern a hidden NPC)."""

    def __init__(self, command: str = "") -> None:
        super().__init__("刚才又有一条新的操作，撤销没有执行；请看清最新的局面后再发 .undo")
        self.command = command


class History:
    """``store.history``: undoing, listing and replaying the commands of sessions."""

    def __init__(self, db: Database, now: Callable[[], Any]) -> None:
        self.db = db
        self.now = now

    async def undo(
        self,
        scope: str,
        system: str | None = None,
        *,
        entry_id: int | None = None,
        claim: Claim | None = None,
    ) -> UndoResult | None:
        """Revert the newest not-yet-undone command of ``scope`` (of ``system`` when given).

        ``entry_id``: the log entry the caller's permission check approved.  It is reverted only
        if it is still the newest, judged inside the same transaction; when another command came
        in between, :class:`UndoOvertaken` is raised and nothing changes (two people typing at
        once: an undo never reverts a command its sender did not see)."""

        async def body(tx: Tx) -> UndoResult | None:
            sys_name = system
            if sys_name is None:
                first = await tx.one(NEWEST, {"key_scope": scope})
                if first is None:
                    return None
                sys_name = first[1]
            # the session row is locked first, then its newest entry read: a command that
            # committed in between is seen (and refused below), never reverted in its place
            key = {"key_scope": scope, "key_system": sys_name}
            row = await tx.one(HEAD_LOCKED, key)
            if row is None:
                return None
            entry = await tx.one(NEWEST_OF, key)
            if entry is None:
                return None
            log_id, sys_name, user, cmd, before_raw, chars_raw, patch_raw = entry
            if entry_id is not None and log_id != entry_id:
                raise UndoOvertaken(cmd or "")
            head = stored_text(row[0])
            stored = await srows.rows_of(tx, scope, sys_name, head)
            current = srows.assemble(head, stored)
            if patch_raw is not None:
                try:
                    before = jpatch.apply(json_value(patch_raw), json_value(current))
                except (KeyError, IndexError, TypeError, ValueError):
                    log.exception("undo: the log of %s/%s does not fit the state", scope, sys_name)
                    raise IllegalAction("撤销记录与当前状态对不上，无法撤销") from None
            else:
                before = json_value(before_raw)
            now = self.now()
            before_head, items = srows.split(before, srows.fields_of(head))
            n = await tx.run(UNDO_SESSION, {**key, "state": before_head, "version_was": row[1], "now": now})
            if n != 1:
                raise Transient("session version")
            await srows.write_items(tx, scope, sys_name, stored, items)
            await tx.run(MARK_UNDONE, {"log_id": log_id})
            restored: list[str] = []
            stale: list[str] = []
            for saved in json_value(chars_raw) or []:
                texts = {k: jpatch.dumps(saved[k]) for k in ("attributes", "data")}
                card = {"name": saved["name"], "system": saved["system"], "card": saved["id"], "now": now}
                n = await tx.run(RESTORE_CARD, {**card, **texts, "version_was": saved["version_after"]})
                (restored if n == 1 else stale).append(saved["name"])
            return UndoResult(
                system=sys_name,
                command=cmd,
                user_id=user,
                state=before,
                replaced=json_value(current),
                restored_characters=tuple(restored),
                stale_characters=tuple(stale),
            )

        return await self.db.write(body, "撤销", claim=claim)

    async def session_log(self, scope: str, system: str | None = None, limit: int = 50) -> list[LogEntry]:
        """The newest ``limit`` log entries, oldest first."""
        stmt = sa.select(*_ENTRY).where(_log.c.scope == scope).order_by(_log.c.id.desc()).limit(limit)
        if system is not None:
            stmt = stmt.where(_log.c.system == system)
        rows = await self.db.read(lambda tx: tx.all(stmt))
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
            created_at=self.db.dt_out(r[7]),
        )

    async def replay(self, scope: str, system: str) -> list[tuple[LogEntry, Any, Any]]:
        """The applied (not undone) commands of a session with the state before and after each,
        oldest first, rebuilt from the current state and the reverse patches."""

        async def body(tx: Tx) -> tuple[Any, list[tuple[Any, ...]]]:
            got = await srows.read_whole(tx, scope, system)
            whole = srows.assemble(got[0][2], got[1]) if got else None
            return whole, await tx.all(REPLAY, {"key_scope": scope, "key_system": system})

        raw, rows = await self.db.read(body, snapshot=True)
        state = json_value(raw)
        out: list[tuple[LogEntry, Any, Any]] = []
        for r in rows:
            after = state
            before = (
                jpatch.apply(json_value(r[9]), clone_json(after)) if r[9] is not None else json_value(r[8])
            )
            out.append((self._log_entry(r), before, after))
            state = before
        out.reverse()
        return out
