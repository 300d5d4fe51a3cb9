"""``.log`` session records in the store (``store.logs``; tables of migration 0004).

Each line is written in its own transaction when it is received (a SIGKILL loses nothing that
was acknowledged); the line counter is kept in the same transaction and checked against the
limit; an event delivered twice (same log, self_id and message_id) is recorded once.  A line is
never lost to its characters: the recorder removes NUL and lone surrogates before it gets
here, and should a line still fail to encode, it is written again with such characters
replaced by U+FFFD (see :meth:`GameLogStore.record_line`).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Literal

from sqlalchemy import Row, bindparam, case, delete, func, insert, select, update

from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound
from chronodice.core.text import UNSTORABLE

from . import patch as jpatch
from . import tables
from .db import Claim, Conflict, Database, Transient, Tx
from .records import GameLog, LogLine
from .tables import json_value

RecordResult = Literal["ok", "duplicate", "full", "off"]

G, L = tables.game_logs, tables.game_log_lines
_LOG_ID = G.c.id == bindparam("log")
# Built once (see :mod:`.tables`): the statements of a recorded line and of the lookups.
_NAMED = select(G).where(G.c.group_id == bindparam("grp"), G.c.name == bindparam("title"))
_NAMED_LOCKED = _NAMED.with_for_update()
_ACTIVE = select(G).where(G.c.group_id == bindparam("grp"), G.c.ended_at.is_(None))
_ACTIVE = _ACTIVE.order_by(G.c.id.desc()).limit(1).with_for_update()
_COUNT_UP = update(G).where(_LOG_ID, G.c.recording, G.c.ended_at.is_(None), G.c.lines < bindparam("max"))
_COUNT_UP = _COUNT_UP.values(lines=G.c.lines + 1).returning(G.c.lines)
_COUNT_DOWN = update(G).where(_LOG_ID).values(lines=G.c.lines - 1)
_STATE = select(G.c.recording, G.c.ended_at, G.c.lines).where(_LOG_ID)
_SET_RECORDING = update(G).where(_LOG_ID).values(recording=bindparam("on"))
_SET_ENDED = update(G).where(_LOG_ID).values(recording=bindparam("on"), ended_at=bindparam("end"))
"""End a log (``end`` its time, ``on`` false) or reopen one (``end`` None, ``on`` true)."""
_LINE: dict[str, Any] = {
    c: bindparam(c) for c in ("log_id", "self_id", "message_id", "user_id", "nickname", "is_bot")
}
_LINE |= {"created_at": bindparam("created_at")} | {c: tables.text_param(c) for c in ("parts", "check_note")}
_ADD_LINE = tables.per_dialect(
    lambda d: tables.insert_for(d, L).values(_LINE).on_conflict_do_nothing().inline()
)
"""A line, by column name; written once (``inline``: PostgreSQL adds no ``RETURNING id``)."""
_LINES = select(*(tables.json_text(c) if c.key in ("parts", "check_note") else c for c in L.c))
_LINES = _LINES.where(L.c.log_id == bindparam("log")).order_by(L.c.id)


def _utc(dt: datetime) -> datetime:
    """``dt`` in UTC: SQLAlchemy writes SQLite's datetimes without their offset."""
    return dt.astimezone(timezone.utc)


def _storable(value: Any) -> Any:
    """``value`` (a text, or JSON-like parts / check note) with every NUL and lone surrogate
    replaced by U+FFFD — what a line that failed to encode is written as."""
    if isinstance(value, str):
        return UNSTORABLE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_storable(str(k)): _storable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_storable(v) for v in value]
    return value


def storable_line(line: LogLine) -> LogLine:
    """``line`` with the characters no backend takes replaced (U+FFFD) in every text it has."""
    return replace(
        line,
        user_id=_storable(line.user_id),
        nickname=_storable(line.nickname),
        parts=_storable(line.parts),
        check=_storable(line.check),
        self_id=_storable(line.self_id),
        message_id=_storable(line.message_id),
    )


class Logs:
    """``store.logs``: the ``.log`` records of groups and their lines."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _named_log(self, tx: Tx, group_id: str, name: str) -> GameLog:
        """The group's log called ``name``, locked for this write; :class:`NotFound` if none."""
        row = await tx.one(_NAMED_LOCKED, {"grp": group_id, "title": name})
        if row is None:
            raise NotFound(f"本群没有名为「{name}」的日志（.log list 查看）")
        return self._log_row(row)

    def _log_row(self, row: Row[Any]) -> GameLog:
        """A row of ``game_logs`` (all its columns) as a record."""
        return GameLog(
            id=int(row.id),
            group_id=row.group_id,
            name=row.name,
            creator_id=row.creator_id,
            recording=bool(row.recording),
            lines=int(row.lines),
            created_at=self.db.dt_out(row.created_at),
            ended_at=self.db.dt_out(row.ended_at),
        )

    async def _active_in(self, tx: Tx, group_id: str) -> GameLog | None:
        row = await tx.one(_ACTIVE, {"grp": group_id})
        return self._log_row(row) if row else None

    async def active_log(self, group_id: str) -> GameLog | None:
        """The log in progress in ``group_id`` (recording or paused), or None."""
        return await self.db.read(lambda tx: self._active_in(tx, group_id))

    async def record_line(self, group_id: str, log_id: int, line: LogLine, *, max_lines: int) -> RecordResult:
        """Append ``line`` to log ``log_id`` if it is still recording: ``"ok"``;
        ``"duplicate"`` (this self_id/message_id is already in it); ``"off"`` (paused or ended
        meanwhile); ``"full"`` (it reached ``max_lines``: recording is switched off here).

        A line the backend refuses for its characters (a lone surrogate cannot be encoded, nor
        can PostgreSQL store a NUL) is written again with them replaced by U+FFFD, rather than
        lost; the ids and the name are cut to their columns' lengths."""
        try:
            return await self.db.write(lambda tx: self._append(tx, log_id, line, max_lines), "记录日志")
        except (ChronoDiceError, Conflict, Transient):
            raise
        except Exception:
            safe = storable_line(line)
            if safe == line:
                raise
            return await self.db.write(lambda tx: self._append(tx, log_id, safe, max_lines), "记录日志")

    async def _append(self, tx: Tx, log_id: int, line: LogLine, max_lines: int) -> RecordResult:
        """The write of :meth:`record_line`."""
        if await tx.one(_COUNT_UP, {"log": log_id, "max": max_lines}) is None:
            state = await tx.one(_STATE, {"log": log_id})
            if state is not None and state[0] and state[1] is None and state[2] >= max_lines:
                await tx.run(_SET_RECORDING, {"log": log_id, "on": False})
                return "full"
            return "off"
        n = await tx.run(
            _ADD_LINE[tx.dialect],
            {
                "log_id": log_id,
                "self_id": line.self_id[:32],
                "message_id": None if line.message_id is None else line.message_id[:64],
                "user_id": line.user_id[:32],
                "nickname": line.nickname[:64],
                "is_bot": line.is_bot,
                "parts": jpatch.dumps(line.parts),
                "check_note": None if line.check is None else jpatch.dumps(line.check),
                "created_at": _utc(line.created_at) if line.created_at else None,
            },
        )
        if n != 1:
            await tx.run(_COUNT_DOWN, {"log": log_id})
            return "duplicate"
        return "ok"

    # ------------------------------------------------------------------ commands
    async def new_log(
        self,
        group_id: str,
        name: str,
        creator_id: str,
        now: datetime,
        *,
        max_logs: int,
        claim: Claim | None = None,
    ) -> GameLog:
        """Start a log; :class:`IllegalAction` when one is in progress, the name is taken or
        the group already keeps ``max_logs`` logs."""

        async def body(tx: Tx) -> GameLog:
            current = await self._active_in(tx, group_id)
            if current is not None:
                raise IllegalAction(f"日志「{current.name}」还在进行中，请先 .log end 结束它")
            if await tx.one(_NAMED, {"grp": group_id, "title": name}) is not None:
                raise IllegalAction(f"本群已有名为「{name}」的日志，换个名字，或 .log on {name} 继续记录它")
            (count,) = await tx.one(select(func.count()).where(G.c.group_id == group_id)) or (0,)
            if count >= max_logs:
                raise IllegalAction(
                    f"本群已保存{count}份日志（上限{max_logs}），请先 .log del <名字> 删除旧的"
                )
            row = await tx.one(
                insert(G)
                .values(group_id=group_id, name=name, creator_id=creator_id, recording=True, lines=0)
                .values(created_at=_utc(now), ended_at=None)
                .returning(*G.c)
            )
            assert row is not None
            return self._log_row(row)

        try:
            return await self.db.write(body, "新建日志", claim=claim)
        except Conflict:
            raise IllegalAction(f"本群已有名为「{name}」的日志") from None

    async def set_log_recording(
        self, group_id: str, on: bool, name: str | None = None, *, claim: Claim | None = None
    ) -> tuple[GameLog, bool]:
        """Pause or resume the log in progress; ``on`` with ``name`` when none is in progress
        reopens that ended log.  Returns (the log, whether anything changed)."""

        async def body(tx: Tx) -> tuple[GameLog, bool]:
            current = await self._active_in(tx, group_id)
            if current is None and on and name:
                current = await self._named_log(tx, group_id, name)
                await tx.run(_SET_ENDED, {"log": current.id, "on": True, "end": None})
                return GameLog(**{**current.__dict__, "ended_at": None, "recording": True}), True
            if current is None:
                raise NotFound("本群没有进行中的日志（.log new <名字> 新建）")
            if name and name != current.name:
                raise IllegalAction(f"进行中的日志是「{current.name}」，不是「{name}」")
            if current.recording == on:
                return current, False
            await tx.run(_SET_RECORDING, {"log": current.id, "on": on})
            return GameLog(**{**current.__dict__, "recording": on}), True

        return await self.db.write(body, "切换日志", claim=claim)

    async def end_log(self, group_id: str, now: datetime, *, claim: Claim | None = None) -> GameLog:
        """End the log in progress; :class:`NotFound` when there is none."""

        async def body(tx: Tx) -> GameLog:
            current = await self._active_in(tx, group_id)
            if current is None:
                raise NotFound("本群没有进行中的日志（.log list 查看已保存的日志）")
            await tx.run(_SET_ENDED, {"log": current.id, "on": False, "end": _utc(now)})
            row = await tx.one(select(G).where(_LOG_ID), {"log": current.id})
            assert row is not None
            return self._log_row(row)

        return await self.db.write(body, "结束日志", claim=claim)

    async def find_log(self, group_id: str, name: str | None = None) -> GameLog | None:
        """The log of that name, or (no name) the one in progress, else the newest."""

        async def body(tx: Tx) -> GameLog | None:
            if name:
                row = await tx.one(_NAMED, {"grp": group_id, "title": name})
            else:  # the one in progress first, then the newest
                row = await tx.one(
                    select(G)
                    .where(G.c.group_id == group_id)
                    .order_by(case((G.c.ended_at.is_(None), 0), else_=1), G.c.id.desc())
                    .limit(1)
                )
            return self._log_row(row) if row else None

        return await self.db.read(body)

    async def list_logs(self, group_id: str) -> list[GameLog]:
        rows = await self.db.read(
            lambda tx: tx.all(select(G).where(G.c.group_id == group_id).order_by(G.c.id))
        )
        return [self._log_row(r) for r in rows]

    async def delete_log(self, group_id: str, name: str, *, claim: Claim | None = None) -> GameLog:
        """Delete an ended log and its lines; :class:`NotFound` / :class:`IllegalAction`."""

        async def body(tx: Tx) -> GameLog:
            rec = await self._named_log(tx, group_id, name)
            if rec.in_progress:
                raise IllegalAction(f"日志「{name}」还在进行中，请先 .log end 结束它")
            await tx.run(delete(L).where(L.c.log_id == rec.id))
            await tx.run(delete(G).where(G.c.id == rec.id))
            return rec

        return await self.db.write(body, "删除日志", claim=claim)

    async def log_lines(self, log_id: int) -> list[LogLine]:
        """Every line of a log, in the order received."""
        rows = await self.db.read(lambda tx: tx.all(_LINES, {"log": log_id}))
        return [
            LogLine(
                id=int(r.id),
                self_id=r.self_id,
                message_id=r.message_id,
                user_id=r.user_id,
                nickname=r.nickname,
                is_bot=bool(r.is_bot),
                parts=json_value(r.parts) or [],
                check=json_value(r.check_note),
                created_at=self.db.dt_out(r.created_at),
            )
            for r in rows
        ]
