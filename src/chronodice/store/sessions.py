"""Session states in the store: a battle, a combat, a game per group and system.

* Every command is one write with compare-and-set on the row's ``version`` and a log row
  holding the reverse patch (``.undo``, ``.replay``); see :mod:`.states` for the decoded states
  a :class:`~chronodice.store.states.SessionCodec` keeps between commands.
* This module holds the core path: reading a session, applying a command to it (the locked
  transaction) and the reverse patch its log row keeps.  On PostgreSQL the commands of a process
  on one session first go through a queue and group commit of their own
  (:mod:`.session_batch`); SQLite runs the locked transaction, on the event loop thread, without
  a hop.  ``.undo``, the log and ``.replay`` are in :mod:`.session_history`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from asyncio import Future

import sqlalchemy as sa

from chronodice.core.clock import SYSTEM
from chronodice.core.text import clean_text

from . import patch as jpatch
from . import session_rows as srows
from . import tables
from .backends import Transient, Tx
from .common import Claim, StorePart, json_value, stored_text, to_json_text, utcnow
from .records import CharacterRecord
from .states import Cached, SessionCodec, StateCache

T = TypeVar("T")
S = TypeVar("S")

_s = tables.sessions
KEY = (_s.c.scope == sa.bindparam("key_scope"), _s.c.system == sa.bindparam("key_system"))
"""The session named by the parameters ``key_scope`` and ``key_system`` (not ``scope``: an
UPDATE keeps its table's column names for parameters of its own)."""
_RAW_BORN = sa.type_coerce(_s.c.created_at, sa.types.NullType())
"""``created_at`` as the driver gives it and bound back as it is (``born``; no ``::VARCHAR`` or
``DateTime`` conversion): a row's identity (see :attr:`Cached.row`), compared in SQL only."""

READ_LOCKED = sa.select(tables.json_text(_s.c.state), _s.c.version).where(*KEY).with_for_update()
_HEAD = sa.select(tables.json_text(_s.c.state)).where(*KEY)
_SAME = sa.and_(_s.c.version == sa.bindparam("known"), _RAW_BORN == sa.bindparam("born"))
_STATE_ROW = sa.select(
    _s.c.version, _RAW_BORN, _SAME, sa.type_coerce(sa.case((_SAME, sa.null()), else_=_s.c.state), sa.Text)
).where(*KEY)
_STATE_ROWS = {False: _STATE_ROW, True: _STATE_ROW.with_for_update()}
"""A session's row identity, whether it is the one known (``known``, ``born``), and its state's
text unless it is; by ``lock``: ``FOR UPDATE`` inside a write."""
NEW = {
    "state": tables.text_param("state"),
    "version": sa.bindparam("v_new"),
    "updated_at": sa.bindparam("now"),
}
_CREATE = sa.insert(_s).values(
    scope=sa.bindparam("key_scope"), system=sa.bindparam("key_system"), created_at=sa.bindparam("now"), **NEW
)
_CAS = sa.update(_s).where(*KEY, _s.c.version == sa.bindparam("v_old")).values(NEW)
"""The compare-and-set: the new ``state`` written if the row is still at version ``v_old``."""
LOGGED = {"scope": sa.bindparam("key_scope"), "system": sa.bindparam("key_system")}
LOGGED |= {"user_id": sa.bindparam("user_id"), "command": sa.bindparam("command")}
LOGGED |= {k: tables.text_param(k) for k in ("before", "characters_before", "patch")}
LOGGED |= {"version_after": sa.bindparam("v_new"), "undone": sa.false(), "created_at": sa.bindparam("now")}
"""A log row's columns and what each is written from (in this order)."""
_LOG = sa.insert(tables.session_log).values(LOGGED).inline()
_CAS_LOG = sa.insert(tables.session_log).from_select(
    list(LOGGED), sa.select(*LOGGED.values()).select_from(_CAS.returning(sa.literal_column("1")).cte("u"))
)
"""PostgreSQL, in the locked transaction: the compare-and-set and the log row in one statement
(the log row only where the update matched)."""


Key = tuple[str, str]
"""A session: ``(scope, system)``."""
LogRow = tuple[str, str, str | None]
"""A session log row's user, command and cards before (see :meth:`SessionStore.apply_state`)."""


class SessionStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`: reading and writing sessions."""

    if TYPE_CHECKING:
        _states: StateCache

        def _at_once(self) -> bool: ...
        def _queue_state(
            self, key: Key, codec: Any, fn: Any, reuse: Any, log_row: LogRow, claim: Claim | None
        ) -> Future[Any]: ...

    # ------------------------------------------------------------------ sessions
    async def load_session(self, scope: str, system: str) -> tuple[dict[str, Any] | None, int]:
        """The session state and its version (``(None, 0)`` when there is none)."""
        got = await self._read(lambda tx: srows.read_whole(tx, scope, system))
        if got is None:
            return None, 0
        (version, _born, head), stored = got
        return json_value(srows.assemble(head, stored)), version

    async def apply_session(
        self,
        scope: str,
        system: str,
        fn: Callable[[dict[str, Any] | None], tuple[dict[str, Any] | None, T]],
        *,
        user_id: str = "",
        command: str = "",
        characters_before: Sequence[tuple[CharacterRecord, int]] = (),
        rows: Sequence[str] = (),
        claim: Claim | None = None,
    ) -> T:
        """:meth:`apply_state` on plain JSON data (:func:`json_codec`): ``fn(state) ->
        (new_state, result)`` gets a fresh copy of the stored state, which it may change; when
        ``new_state`` equals the old state nothing is written.

        ``characters_before``: cards this command also changed, each as ``(record before the
        change, version after it)``.  ``.undo`` puts such a card back as it was, provided nobody
        changed it since (its version is still the one given).

        ``rows``: lists of the state that only grow (dotted, see :mod:`.session_rows`), stored
        one item per row from this write on; a stored state keeps those it has.
        """
        codec = json_codec(system, tuple(rows))
        return await self.apply_state(
            scope,
            codec,
            fn,
            user_id=user_id,
            command=command,
            characters_before=characters_before,
            claim=claim,
        )

    async def _save_session(
        self,
        tx: Tx,
        scope: str,
        system: str,
        version: int | None,
        new_text: str | None,
        before_text: str | None,
        patch_text: str | None,
        log_row: tuple[str, str, str | None],
    ) -> int:
        """Write the new state with compare-and-set on the ``version`` read (``None``: no row yet)
        and append the log row (``log_row``: user, command, cards before); returns the new
        version."""
        after = (version or 0) + 1
        params = {"key_scope": scope, "key_system": system, "v_old": version, "v_new": after}
        params |= {"now": utcnow(), "state": new_text, "before": before_text, "patch": patch_text}
        params |= dict(zip(("user_id", "command", "characters_before"), log_row, strict=True))
        if version is None:
            await tx.run(_CREATE, params)
        elif tx.dialect == "postgresql":
            # the compare-and-set and the log row in one statement: one round trip less
            if await tx.run(_CAS_LOG, params) != 1:
                self._states.changed(scope)  # the copy it was decided on is not trusted: read
                raise Transient("session version")
            return after
        elif await tx.run(_CAS, params) != 1:
            self._states.changed(scope)
            raise Transient("session version")
        await tx.run(_LOG, params)
        return after

    async def load_state(self, scope: str, codec: SessionCodec[S]) -> S | None:
        """The session state as ``codec`` decodes it (``None`` when there is none).  For an
        immutable codec this is the cached object itself: do not change it."""
        key = (scope, codec.system)
        if self._trusts_states() and self._states.trusted(key):  # no statement at all
            got = self._states.get_reusing(key, None, codec, None, same_row=True)
        else:
            since = self._states.tick()
            got = await self._read(lambda tx: self._state_row(tx, key, codec, None, False))
            self._states.trust(key, since)
        if not codec.immutable:
            self._states.lend(key, got)
        return got.state

    def _trusts_states(self) -> bool:
        """Whether a trusted copy of a session may be used without reading the row (see
        :meth:`StateCache.trusted`): on PostgreSQL while its notifications are received, on
        SQLite while ``PRAGMA data_version`` (asked now) shows no other connection's commit."""
        return self._cache_ok()

    async def _state_row(
        self, tx: Tx, key: tuple[str, str], codec: SessionCodec[S], reuse: S | None, lock: bool
    ) -> Cached[S]:
        """Read session ``key`` (``lock``: ``FOR UPDATE``, inside a write) as the cache gives
        it: the text is fetched only when the row's version and ``created_at`` are not those the
        cached text was seen with (see :attr:`Cached.row`).

        On SQLite a trusted copy is not read again in a write: under ``BEGIN IMMEDIATE`` no
        other connection can commit, and ``data_version`` (asked after the ``BEGIN``) showed
        none did since the copy was read or written, so it is the row.  This saves two of the
        four statements of a ``.init next`` (with the read of :meth:`load_state`), which it
        needs for its target (0.26 → 0.3× the bare bot at 16 in flight, measured when the store
        moved onto SQLAlchemy Core).  The compare-and-set still checks the version."""
        if lock and self.dialect == "sqlite" and self._trusts_states() and self._states.trusted(key):
            return self._states.get_reusing(key, None, codec, reuse, same_row=True)
        known = self._states.row_of(key)
        version, born = known if known is not None else (-1, None)
        since = SYSTEM.monotonic()
        names = {"key_scope": key[0], "key_system": key[1]}
        row = await tx.one(_STATE_ROWS[lock], {**names, "known": version, "born": born})
        if row is None:
            return self._states.get_reusing(key, None, codec, reuse)
        rid = (row[0], row[1])
        self._states.saw(key, rid, since)
        if row[2]:
            if self._states.row_of(key) == rid:  # still the entry asked about (no await since)
                return self._states.get_reusing(key, None, codec, reuse, rid, same_row=True)
            got = await tx.one(_HEAD, names)
            head = stored_text(got[0]) if got else None
        else:
            head = stored_text(row[3])
        if lock or not srows.fields_of(head):
            stored = await srows.rows_of(tx, key[0], key[1], head)
        else:  # not locked: the head again with its rows, of one moment
            whole = await srows.read_whole(tx, key[0], key[1])
            if whole is None:
                return self._states.get_reusing(key, None, codec, reuse)
            (version, born, head), stored = whole
            rid = (version, born)
            self._states.saw(key, rid, since)
        self._states.rows_seen(key, rid, stored)
        return self._states.get_reusing(key, srows.assemble(head, stored), codec, reuse, rid)

    async def apply_state(
        self,
        scope: str,
        codec: SessionCodec[S],
        fn: Callable[[S | None], tuple[S | None, T]],
        *,
        user_id: str = "",
        command: str = "",
        characters_before: Sequence[tuple[CharacterRecord, int]] = (),
        reuse: S | None = None,
        claim: Claim | None = None,
    ) -> T:
        """:meth:`apply_session` on decoded states: ``fn(state) -> (new_state, result)`` with
        ``state`` as :meth:`load_state` gives it.  Per command this parses nothing when the
        session is cached, converts only what changed and serialises the new state once (see
        :mod:`.states`).

        ``reuse``: for a mutable codec, the state this command got from :meth:`load_state`,
        handed over (the caller does not read it afterwards): ``fn`` gets it, changes and all,
        instead of a fresh parse when the session is still as it was loaded.

        ``claim``: the delivered event of the command writing (:class:`~.common.Claim`: a
        second delivery writes nothing); None for a write no event carries (a timer's).

        On PostgreSQL a session whose row this process knows is first tried in one statement
        (see :meth:`_apply_batch_at_once`); the locked transaction is the fallback."""
        key = (scope, codec.system)
        log_row = (user_id, clean_text(command[:500]), to_json_text(_cards_before(characters_before)))
        if self._at_once():
            return await self._queue_state(key, codec, fn, reuse, log_row, claim)  # type: ignore[no-any-return]
        return await self._apply_state_locked(key, codec, fn, reuse, log_row, claim)

    async def _apply_state_locked(
        self,
        key: tuple[str, str],
        codec: SessionCodec[S],
        fn: Callable[[S | None], tuple[S | None, T]],
        reuse: S | None,
        log_row: tuple[str, str, str | None],
        claim: Claim | None,
    ) -> T:
        scope = key[0]
        since = SYSTEM.monotonic()
        tick = self._states.tick()
        wrote = False

        items: srows.Items = {}

        async def body(tx: Tx) -> tuple[T, Cached[S]]:
            nonlocal wrote, items
            old = await self._state_row(tx, key, codec, reuse, True)
            after, result = self._next_state(key, codec, old, fn)
            wrote = after.text != old.text
            if wrote:
                before_text, patch_text = reverse_plain(old, after)
                stored = self._states.rows_at(key, old.row) if old.text is not None else {}
                if stored is None:
                    whole = await srows.read_whole(tx, scope, codec.system)
                    stored = whole[1] if whole is not None else {}
                fields = row_fields_of(codec, stored)
                head, items = srows.split(after.plain, fields) if fields else (after.text, {})
                version = await self._save_session(
                    tx,
                    scope,
                    codec.system,
                    old.row[0] if old.row is not None else None,
                    head,
                    before_text,
                    patch_text,
                    log_row,
                )
                await srows.write_items(tx, scope, codec.system, stored, items)
                # an update keeps created_at; a new row's is learnt when it is next read
                after = replace(after, row=(version, old.row[1]) if old.row is not None else None)
            return result, after

        try:
            result, after = await self._write(body, "操作", retry_conflict=True, claim=claim)
        except BaseException:
            if wrote:  # perhaps committed (the connection lost at COMMIT)
                self._states.changed(scope)
            raise
        # cached once committed: a row identity is trusted with its text (see Cached.row)
        if wrote:
            tick = self._states.changed(scope)
            self._states.rows_seen(key, after.row, items)
        self._states.put(key, after, since)
        self._states.trust(key, tick)
        return result

    def _next_state(
        self,
        key: tuple[str, str],
        codec: SessionCodec[S],
        old: Cached[S],
        fn: Callable[[S | None], tuple[S | None, T]],
    ) -> tuple[Cached[S], T]:
        """``fn`` applied to ``old``: the new cache entry (still with the old row identity) and
        ``fn``'s result."""
        new_state, result = fn(old.state)
        if new_state is None:
            new_text, new_plain = None, None
        else:
            prev = (old.state, old.plain) if old.state is not None else None
            new_plain = codec.encode(new_state, prev)
            new_text = self._states.text(codec, new_plain)
        state = new_state if codec.immutable else None
        return Cached(new_text, state, new_plain, True, old.row, codec), result


def row_fields_of(codec: SessionCodec[Any], stored: srows.Items) -> tuple[str, ...]:
    """The fields of a state written through ``codec`` kept as rows (see :mod:`.session_rows`):
    the codec's, and those the session has rows of already (a writer keeps the layout)."""
    return (*dict.fromkeys((*codec.row_fields, *stored)),)


class JsonCodec:
    """A session kept as plain JSON data (萌E, D10): each use gets a fresh parse (the caller may
    change it), and a new state is stored as JSON gives it back (tuples become lists)."""

    immutable = False

    def __init__(self, system: str, row_fields: tuple[str, ...] = ()) -> None:
        self.system = system
        self.row_fields = row_fields

    def __eq__(self, other: object) -> bool:
        """Equal to another of the same system: they decode and encode alike (``row_fields``
        only says what a write keeps as rows), so one's cached state serves the other."""
        return type(other) is JsonCodec and other.system == self.system

    def __hash__(self) -> int:
        return hash(("json", self.system))

    def decode(self, text: str) -> Any:
        return json_value(text)

    def encode(self, state: Any, prev: tuple[Any, Any] | None) -> Any:
        return json_value(to_json_text(state))


@functools.cache
def json_codec(system: str, row_fields: tuple[str, ...] = ()) -> JsonCodec:
    """The one :class:`JsonCodec` of ``system`` and ``row_fields`` (the commands queued on a
    session go in one group commit only when they share their codec object)."""
    return JsonCodec(system, row_fields)


def _cards_before(characters_before: Sequence[tuple[CharacterRecord, int]]) -> list[dict[str, Any]] | None:
    return [
        {
            "id": rec.id,
            "name": rec.name,
            "system": rec.system,
            "attributes": rec.attributes,
            "data": rec.data,
            "version_after": version_after,
        }
        for rec, version_after in characters_before
    ] or None


def _patch_or_whole(old_text: str, p: Any) -> tuple[str | None, str | None]:
    """The log's ``(before, patch)`` texts: the reverse patch ``p`` where there is one and it is
    shorter than the whole old text, else the whole old text."""
    if p is not None:
        p_text = jpatch.dumps(p)
        if len(p_text) < len(old_text):
            return None, p_text
    return old_text, None


def reverse_plain(old: Cached[Any], new: Cached[Any]) -> tuple[str | None, str | None]:
    """:func:`reverse_json` for codec states, whose plain forms share their unchanged parts: the
    type-exact :func:`patch.diff_exact` compares those by identity and needs no check against
    the texts.  The whole old text is stored where its plain form does not rebuild it exactly (a
    migrated old state)."""
    if old.text is None:
        return None, jpatch.dumps(["=", None])
    if new.text is None or not old.exact:
        return old.text, None
    return _patch_or_whole(old.text, jpatch.diff_exact(new.plain, old.plain))


def reverse_json(old: Any, new: Any, old_text: str | None = None) -> tuple[str | None, str | None]:
    """What the log stores to get ``old`` back from ``new`` (both plain JSON data):
    ``(before, patch)`` texts — a reverse patch, or the whole old state where a patch would not
    be shorter or would not rebuild it exactly.  ``new`` is consumed (patched in place).
    ``old_text``: the stored text of ``old`` when at hand (saves serialising it again)."""
    if old is None:
        return None, jpatch.dumps(["=", None])
    canonical = old_text if old_text is not None else jpatch.dumps(old)
    if new is None:
        return canonical, None
    p = jpatch.diff(new, old)
    before, p_text = _patch_or_whole(canonical, p)
    # ``diff`` skips sub-values that are == (1 == 1.0): check that the patch rebuilds the text
    if p_text is not None and jpatch.dumps(jpatch.apply(p, new)) != canonical:
        return canonical, None
    return before, p_text
