"""Reading a page's session from the store: one reader per kind, chosen from :data:`SOURCES`.

Each reader returns a :class:`Read`: the :class:`~chronodice.web.views.Loaded` state for the
view (``None`` once the session is over — or when the row holds another session than the one
the link was made for, :attr:`Where.session` — so its links stop working) and a ``marker``: equal
markers mean the page data is unchanged, so the hub (:mod:`.hub`) skips rebuilding it.  The
reads are those the commands make, and as cheap: the store's session cache answers an unchanged
TimeLine battle with one short statement on SQLite (none on PostgreSQL while its notifications
arrive); a D20 combat is parsed again; a 萌E game is rebuilt only when its version moved.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from chronodice.render.battle_picture import Vitals
from chronodice.rules.moe.record import DesyncError, rebuild
from chronodice.rules.tick20.model import Phase
from chronodice.rules.timeline.character import TLCharacter
from chronodice.rules.timeline.load import overload_note
from chronodice.services.gamelog.export import ExportHead
from chronodice.services.tick20.codec import COMBAT_CODEC
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.store import GameLog, Store

from .views import Loaded

TL_SYSTEM = "timeline"
MOE_SYSTEM = "moe"
MOE_LIVE = ("lobby", "running")


@dataclass(frozen=True)
class Read:
    loaded: Loaded | None
    """``None``: no such session any more (ended, aborted, deleted)."""
    marker: Any
    """Equal markers: the same page data (an ``object()`` when the reader cannot tell)."""
    unchanged: bool = False
    """The marker equals the one the caller knew: ``loaded`` was not built (it is ``None``)."""
    session: str = ""
    """The id of the session read (what a new link is bound to)."""
    pins: Any = None
    """An object the marker names by its ``id()``: whoever keeps the marker keeps this too, so
    the id cannot be reused by a later object."""


@dataclass(frozen=True)
class Where:
    """What a link names: the group (``scope``) and the session key (``tl``, ``log:7`` …)."""

    scope: str
    key: str
    utc_offset_hours: float = 8.0
    session: str | None = None
    """The session the link was made for: another one in the row reads as over (``None``: any,
    for the link command, which reads the current one)."""

    def other(self, session: str) -> bool:
        """Whether ``session`` is not the one this link names."""
        return self.session is not None and session != self.session

    @property
    def kind(self) -> str:
        return self.key.split(":", 1)[0]


async def read_timeline(store: Store, where: Where, known: Any = None) -> Read:
    """The battle and each participant's 体力/意志 from the card (cards change apart from it)."""
    state = await store.sessions.load_state(where.scope, BATTLE_CODEC)
    if state is None or where.other(state.session_id):
        return Read(None, None)
    cards = []
    for p in state.participants:
        rec = await store.characters.get_character(p.character_id)
        if rec is not None and rec.system == TL_SYSTEM and TL_SYSTEM in rec.data:
            cards.append((p.key, rec))
    # the state object itself is the marker's first half: the store hands the same object back
    # while the row is unchanged (an immutable codec), and the hub keeps it referenced
    marker = (id(state), tuple((rec.id, rec.version) for _key, rec in cards))
    if marker == known:
        return Read(None, marker, unchanged=True, session=state.session_id)
    vitals: dict[str, Vitals] = {}
    for key, rec in cards:
        char = TLCharacter.from_dict(rec.data[TL_SYSTEM])
        res = char.resources
        vitals[key] = Vitals(res.hp, res.hp_full, res.mp, res.mp_full, overload_note(char.derived()))
    return Read(Loaded(state, vitals), marker, session=state.session_id, pins=state)


async def read_tick20(store: Store, where: Where, known: Any = None) -> Read:
    """The combat, parsed afresh (a mutable codec): the hub compares the page data instead."""
    state = await store.sessions.load_state(where.scope, COMBAT_CODEC)
    if state is None or state.phase is Phase.ENDED or where.other(state.session_id):
        return Read(None, None)  # an ended combat stays stored until the next
    return Read(Loaded(state), object(), session=state.session_id)


async def read_moe(store: Store, where: Where, known: Any = None) -> Read:
    """The session record; the game is rebuilt from it only when its version is not ``known``."""
    rec, version = await store.sessions.load_session(where.scope, MOE_SYSTEM)
    if not rec or rec.get("status") not in MOE_LIVE or rec.get("aborted"):
        return Read(None, None)
    session = str(rec.get("session_id", ""))
    if where.other(session):
        return Read(None, None)
    if version == known:
        return Read(None, version, unchanged=True, session=session)
    game = None
    if rec.get("record"):
        try:
            game = rebuild(rec["record"])
        except DesyncError:
            game = None  # a broken game shows its seats; the group is told how to go on
    return Read(Loaded(rec, game), version, session=session)


def log_session(log: GameLog) -> str:
    """A log's session id: its creation stamp (a deleted log's id may be given again on SQLite)."""
    return log.created_at.isoformat() if log.created_at is not None else ""


async def read_log(store: Store, where: Where, known: Any = None) -> Read:
    """The log named by the link's id, until it ends (``.log end``: the link's reply says 结束后失效,
    and the export is the record after that); its lines are read only when its count, state or
    name is not ``known``."""
    log_id = int(where.key.split(":", 1)[1])
    found = next((g for g in await store.logs.list_logs(where.scope) if g.id == log_id), None)
    session = log_session(found) if found is not None else ""
    if found is None or found.ended_at is not None or where.other(session):
        return Read(None, None)
    marker = (found.lines, found.ended_at, found.recording, found.name)
    if marker == known:
        return Read(None, marker, unchanged=True, session=session)
    lines = await store.logs.log_lines(log_id)
    return Read(Loaded(lines, ExportHead.of(found, where.utc_offset_hours)), marker, session=session)


Reader = Callable[[Store, Where, Any], Awaitable[Read]]
SOURCES: dict[str, Reader] = {"tl": read_timeline, "tick20": read_tick20, "moe": read_moe, "log": read_log}


__all__ = ["SOURCES", "Read", "Reader", "Where", "log_session"]
