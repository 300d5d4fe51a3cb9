"""Session history in the store: ``.undo``, the session log, ``.replay`` and every session of a
system.

Each command's log row holds the reverse patch (after → before, see :mod:`.patch`) or the whole
state before; ``.undo`` applies the newest to the current state, ``.replay`` walks them back
from it.

The clock is read as ``common.utcnow()``: replacing :func:`chronodice.store.common.utcnow`
(as the guide generator does) fixes it here too."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chronodice.core.errors import IllegalAction

from . import common
from . import patch as jpatch
from . import session_rows as srows
from .backends import Transient, Tx
from .common import StorePart, UndoOvertaken, _clone, _j, _text
from .records import LogEntry, UndoResult
from .states import StateCache

log = logging.getLogger("chronodice.store")


class SessionHistoryStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`: undoing, listing and replaying the
    commands of sessions."""

    if TYPE_CHECKING:
        _states: StateCache

    async def undo(
        self, scope: str, system: str | None = None, *, entry_id: int | None = None
    ) -> UndoResult | None:
        """Revert the newest not-yet-undone command of ``scope`` (of ``system`` when given).

        ``entry_id``: the log entry the caller's permission check approved.  It is reverted only
        if it is still the newest, judged inside the same transaction; when another command came
        in between, :class:`UndoOvertaken` is raised and nothing changes (two people typing at
        once: an undo never reverts a command its sender did not see)."""
        drops: list[str] = []

        async def newest(tx: Tx, sys_name: str | None) -> Sequence[Any] | None:
            cols = "id, system, user_id, command, before, characters_before, patch"
            if sys_name is None:
                return await tx.one(
                    f"SELECT {cols} FROM session_log WHERE scope = $1 AND NOT undone ORDER BY id DESC LIMIT 1",
                    scope,
                )
            return await tx.one(
                f"SELECT {cols} FROM session_log WHERE scope = $1 AND system = $2 AND NOT undone"
                " ORDER BY id DESC LIMIT 1",
                scope,
                sys_name,
            )

        async def body(tx: Tx) -> UndoResult | None:
            drops.clear()
            sys_name = system
            if sys_name is None:
                first = await newest(tx, None)
                if first is None:
                    return None
                sys_name = first[1]
            # the session row is locked first, then its newest entry read: a command that
            # committed in between is seen (and refused below), never reverted in its place
            row = await tx.one(
                "SELECT state, version FROM sessions WHERE scope = $1 AND system = $2" + tx.for_update,
                scope,
                sys_name,
            )
            if row is None:
                return None
            entry = await newest(tx, sys_name)
            if entry is None:
                return None
            log_id, sys_name, user, cmd, before_raw, chars_raw, patch_raw = entry
            if entry_id is not None and log_id != entry_id:
                raise UndoOvertaken(cmd or "")
            head = _text(row[0])
            stored = await srows.rows_of(tx, scope, sys_name, head)
            current = srows.assemble(head, stored)
            if patch_raw is not None:
                try:
                    before = jpatch.apply(_j(patch_raw), _j(current))
                except (KeyError, IndexError, TypeError, ValueError):
                    log.exception("undo: the log of %s/%s does not fit the state", scope, sys_name)
                    raise IllegalAction("撤销记录与当前状态对不上，无法撤销") from None
            else:
                before = _j(before_raw)
            now = self._backend.dt_in(common.utcnow())
            before_head, items = srows.split(before, srows.fields_of(head))
            n = await tx.run(
                "UPDATE sessions SET state = $1, version = $2, updated_at = $3"
                " WHERE scope = $4 AND system = $5 AND version = $6",
                before_head,
                row[1] + 1,
                now,
                scope,
                sys_name,
                row[1],
            )
            if n != 1:
                raise Transient("session version")
            await srows.write_items(tx, scope, sys_name, stored, items)
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
                replaced=_j(current),
                restored_characters=tuple(restored),
                stale_characters=tuple(stale),
            )

        try:
            return await self._write(body, "撤销", drops=drops)  # filled by the body before the commit
        finally:
            self._states.changed(scope)

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
            got = await srows.read_whole(tx, scope, system)
            whole = srows.assemble(got[0][2], got[1]) if got else None
            rows = await tx.all(
                "SELECT id, scope, system, user_id, command, version_after, undone, created_at, before, patch"
                " FROM session_log WHERE scope = $1 AND system = $2 AND NOT undone ORDER BY id DESC",
                scope,
                system,
            )
            return whole, rows

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

        async def body(tx: Tx) -> list[tuple[str, str | None, int]]:
            out: list[tuple[str, str | None, int]] = []
            for (scope,) in await tx.all("SELECT scope FROM sessions WHERE system = $1", system):
                got = await srows.read_whole(tx, scope, system)
                if got is not None:
                    out.append((scope, srows.assemble(got[0][2], got[1]), got[0][0]))
            return out

        return [(scope, _j(text), version) for scope, text, version in await self._read(body)]
