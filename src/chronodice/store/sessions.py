"""Session states in the store: a battle, a combat, a game per group and system.

* Every command is one write with compare-and-set on the row's ``version`` and a log row
  holding the reverse patch (``.undo``, ``.replay``); see :mod:`.states` for the decoded states
  a :class:`~chronodice.store.states.SessionCodec` keeps between commands.
* On PostgreSQL the commands of a process on one session queue and run in a task of the
  session's own (:meth:`SessionStore._drain`): the commands queued together, or a single one, in
  one statement that writes the cached row if it is still the one cached
  (:meth:`SessionStore._apply_batch_at_once`), and the locked transaction as the fallback.
  SQLite runs the locked transaction, on the event loop thread, without a hop.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from chronodice.core.errors import ChronoDiceError, IllegalAction
from chronodice.core.text import clean_text

from . import patch as jpatch
from . import session_rows as srows
from .backends import Conflict, Rejected, Transient, Tx
from .common import (
    _EVENT,
    DuplicateEvent,
    StoreBusy,
    StorePart,
    UndoOvertaken,
    _clone,
    _Event,
    _j,
    _jtext,
    _text,
    utcnow,
)
from .records import CharacterRecord, LogEntry, UndoResult
from .states import Cached, SessionCodec, StateCache

T = TypeVar("T")
S = TypeVar("S")
log = logging.getLogger("chronodice.store")

_CAS_SQL = (
    "WITH u AS (UPDATE sessions SET state = $1, version = $2, updated_at = $3"
    " WHERE scope = $4 AND system = $5 AND version = $6 RETURNING 1)"
    " INSERT INTO session_log (scope, system, user_id, command, before, characters_before,"
    " version_after, undone, created_at, patch)"
    " SELECT $4, $5, $7, $8, $9, $10, $2, false, $3, $11 FROM u"
)
"""PostgreSQL, in the locked transaction: the compare-and-set and the log row in one statement."""
_BATCH_SQL = (
    "WITH u AS (UPDATE sessions SET state = $1, version = $2, updated_at = $3"
    " WHERE scope = $4 AND system = $5 AND version = $6 AND created_at = $7 RETURNING 1),"
    " l AS (INSERT INTO session_log (scope, system, user_id, command, before, characters_before,"
    " version_after, undone, created_at, patch)"
    " SELECT $4, $5, x.u, x.c, x.b::json, x.cb::json, x.v, false, $3, x.p::json"
    " FROM u, unnest($8::text[], $9::text[], $10::text[], $11::text[], $12::int[], $13::text[])"
    " WITH ORDINALITY AS x(u, c, b, cb, v, p, o) ORDER BY x.o),"
    " c AS (INSERT INTO event_claims (self_id, message_id, claimed_at)"
    " SELECT y.s, y.m, $16::float8 FROM u, unnest($14::text[], $15::text[]) AS y(s, m)),"
    " r AS (INSERT INTO session_rows (scope, system, field, seq, item)"
    " SELECT $4, $5, z.f, z.q, z.i FROM u, unnest($17::text[], $18::int[], $19::text[]) AS z(f, q, i)"
    " ON CONFLICT (scope, system, field, seq) DO UPDATE SET item = excluded.item),"
    " d AS (DELETE FROM session_rows USING u, unnest($20::text[], $21::int[]) AS w(f, n)"
    " WHERE session_rows.scope = $4 AND session_rows.system = $5 AND session_rows.field = w.f"
    " AND session_rows.seq >= w.n)"
    " SELECT count(*) FROM u"
)
"""PostgreSQL: a batch of session commands (see :meth:`Store._apply_batch_at_once`): the final
state, a log row per command that changed it, in order, the events claimed, and the session's
rows that changed (:mod:`.session_rows`)."""
_BATCH_CLAIM_SQL = (
    "WITH s AS (SELECT 1 FROM sessions WHERE scope = $1 AND system = $2 AND version = $3 AND created_at = $4),"
    " c AS (INSERT INTO event_claims (self_id, message_id, claimed_at)"
    " SELECT y.s, y.m, $7::float8 FROM s, unnest($5::text[], $6::text[]) AS y(s, m))"
    " SELECT count(*) FROM s"
)
"""PostgreSQL: a batch that changed nothing: the row still the cached one, and the events
claimed (none, only the row checked)."""


@dataclass(eq=False)
class _Job:
    """A command's session write queued on PostgreSQL (see :meth:`Store._drain`)."""

    codec: Any
    fn: Callable[[Any], tuple[Any, Any]]
    reuse: Any
    log_row: tuple[str, str, str | None]
    event: _Event | None
    future: asyncio.Future[Any]

    def resolve(self, value: Any) -> None:
        if not self.future.done():  # not when its caller is gone
            self.future.set_result(value)

    def fail(self, exc: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(exc)


class SessionStore(StorePart):
    """Mixed into :class:`~chronodice.store.database.Store`."""

    if TYPE_CHECKING:
        _states: StateCache
        _jobs: dict[tuple[str, str], list[_Job]]
        _drains: dict[tuple[str, str], asyncio.Future[None]]
        _tasks: set[asyncio.Task[None]]

    # ------------------------------------------------------------------ sessions
    async def load_session(self, scope: str, system: str) -> tuple[dict[str, Any] | None, int]:
        """The session state and its version (``(None, 0)`` when there is none)."""
        got = await self._read(lambda tx: srows.read_whole(tx, scope, system))
        if got is None:
            return None, 0
        (version, _born, head), stored = got
        return _j(srows.assemble(head, stored)), version

    @staticmethod
    async def _rows_of(tx: Tx, scope: str, system: str, head: str | None) -> srows.Items:
        """The rows stored beside ``head`` (none unless it holds a placeholder)."""
        if head is None or f'"{srows.MARK}"' not in head:
            return {}
        return await srows.read_items(tx, scope, system)

    async def apply_session(
        self,
        scope: str,
        system: str,
        fn: Callable[[dict[str, Any] | None], tuple[dict[str, Any] | None, T]],
        *,
        user_id: str = "",
        command: str = "",
        characters_before: Sequence[tuple[CharacterRecord, int]] = (),
    ) -> T:
        """Load → apply the pure ``fn`` → save with compare-and-set, retrying lost races.

        ``fn(state) -> (new_state, result)``; when ``new_state`` equals the old state nothing is
        written.  Each write appends a log row holding the reverse patch (after → before).

        ``characters_before``: cards this command also changed, each as ``(record before the
        change, version after it)``.  ``.undo`` puts such a card back as it was, provided nobody
        changed it since (its version is still the one given).
        """
        log_row = (user_id, clean_text(command[:500]), _jtext(_cards_before(characters_before)))

        async def body(tx: Tx) -> T:
            row = await tx.one(
                "SELECT state, version FROM sessions WHERE scope = $1 AND system = $2" + tx.for_update,
                scope,
                system,
            )
            head = _text(row[0]) if row else None
            stored = await self._rows_of(tx, scope, system, head)
            raw = srows.assemble(head, stored)
            old = _j(raw)
            new, result = fn(_j(raw))
            new_text = _jtext(new)
            # what will be stored, as JSON gives it back (engines return tuples, asdict output…)
            new = _j(new_text)
            if new == old and type(new) is type(old):
                return result
            fields = srows.fields_of(head)
            new_head, items = srows.split(new, fields) if fields else (new_text, {})
            before_text, patch_text = _reverse(old, new, raw)
            await self._save_session(
                tx, scope, system, row[1] if row else None, new_head, before_text, patch_text, log_row
            )
            await srows.write_items(tx, scope, system, stored, items)
            return result

        try:
            return await self._write(body, "操作", retry_conflict=True)
        finally:
            self._states.changed(scope)  # a copy cached by apply_state is not trusted any more

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
        now = self._backend.dt_in(utcnow())
        if version is None:
            version = 0
            await tx.run(
                "INSERT INTO sessions (scope, system, state, version, created_at, updated_at)"
                " VALUES ($1, $2, $3, 1, $4, $4)",
                scope,
                system,
                new_text,
                now,
            )
        elif tx.dialect == "postgresql":
            # the compare-and-set and the log row in one statement: one round trip less
            user_id, command, chars_text = log_row
            n = await tx.run(
                _CAS_SQL,
                new_text,
                version + 1,
                now,
                scope,
                system,
                version,
                user_id,
                command,
                before_text,
                chars_text,
                patch_text,
            )
            if n != 1:
                raise Transient("session version")
            return version + 1
        else:
            n = await tx.run(
                "UPDATE sessions SET state = $1, version = $2, updated_at = $3"
                " WHERE scope = $4 AND system = $5 AND version = $6",
                new_text,
                version + 1,
                now,
                scope,
                system,
                version,
            )
            if n != 1:
                raise Transient("session version")
        user_id, command, chars_text = log_row
        await tx.run(
            "INSERT INTO session_log (scope, system, user_id, command, before, characters_before,"
            " version_after, undone, created_at, patch) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            scope,
            system,
            user_id,
            command,
            before_text,
            chars_text,
            version + 1,
            False,
            now,
            patch_text,
        )
        return version + 1

    async def load_state(self, scope: str, codec: SessionCodec[S]) -> S | None:
        """The session state as ``codec`` decodes it (``None`` when there is none).  For an
        immutable codec this is the cached object itself: do not change it."""
        key = (scope, codec.system)
        if self._trusts_states() and self._states.trusted(key):  # no statement at all
            got = self._states.get_reusing(key, None, codec, None, same_row=True)
        else:
            since = self._states.tick()
            got = await self._read(lambda tx: self._state_row(tx, key, codec, None, ""))
            self._states.trust(key, since)
        if not codec.immutable:
            self._states.lend(key, got)
        return got.state

    def _trusts_states(self) -> bool:
        """Whether a trusted copy of a session may be used without reading the row (see
        :meth:`StateCache.trusted`): on PostgreSQL, while its notifications are received."""
        return self.dialect == "postgresql" and self._cache_ok()

    async def _state_row(
        self, tx: Tx, key: tuple[str, str], codec: SessionCodec[S], reuse: S | None, lock: str
    ) -> Cached[S]:
        """Read session ``key`` (``lock``: ``tx.for_update`` inside a write) as the cache gives
        it: the text is fetched only when the row's version and ``created_at`` are not those the
        cached text was seen with (see :attr:`Cached.row`)."""
        known = self._states.row_of(key)
        version, born = known if known is not None else (-1, None)
        since = time.monotonic()
        row = await tx.one(
            "SELECT version, created_at, (version = $3 AND created_at = $4),"
            " CASE WHEN version = $3 AND created_at = $4 THEN NULL ELSE state END"
            " FROM sessions WHERE scope = $1 AND system = $2" + lock,
            key[0],
            key[1],
            version,
            born,
        )
        if row is None:
            return self._states.get_reusing(key, None, codec, reuse)
        rid = (row[0], row[1])
        self._states.saw(key, rid, since)
        if row[2]:
            if self._states.row_of(key) == rid:  # still the entry asked about (no await since)
                return self._states.get_reusing(key, None, codec, reuse, rid, same_row=True)
            got = await tx.one("SELECT state FROM sessions WHERE scope = $1 AND system = $2", key[0], key[1])
            head = _text(got[0]) if got else None
        else:
            head = _text(row[3])
        if lock or not srows.fields_of(head):
            stored = await self._rows_of(tx, key[0], key[1], head)
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
    ) -> T:
        """:meth:`apply_session` on decoded states: ``fn(state) -> (new_state, result)`` with
        ``state`` as :meth:`load_state` gives it.  Per command this parses nothing when the
        session is cached, converts only what changed and serialises the new state once (see
        :mod:`.states`).

        ``reuse``: for a mutable codec, the state this command got from :meth:`load_state`,
        handed over (the caller does not read it afterwards): ``fn`` gets it, changes and all,
        instead of a fresh parse when the session is still as it was loaded.

        On PostgreSQL a session whose row this process knows is first tried in one statement
        (see :meth:`_apply_batch_at_once`); the locked transaction is the fallback."""
        key = (scope, codec.system)
        log_row = (user_id, clean_text(command[:500]), _jtext(_cards_before(characters_before)))
        if self._at_once():
            job = _Job(codec, fn, reuse, log_row, _EVENT.get(), asyncio.get_running_loop().create_future())
            self._submit(key, job)
            return await job.future  # type: ignore[no-any-return]
        return await self._apply_state_locked(key, codec, fn, reuse, log_row)

    # PostgreSQL: one queue per session ------------------------------------------------------
    def _submit(self, key: tuple[str, str], job: _Job) -> None:
        """Queue ``job``; one task per session drains the queue (:meth:`_drain`)."""
        self._jobs.setdefault(key, []).append(job)
        if key not in self._drains:
            # a context of its own: the job's event is set per job, not inherited from the first
            task = contextvars.Context().run(asyncio.ensure_future, self._drain(key))
            self._drains[key] = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _drain(self, key: tuple[str, str]) -> None:
        """Run the queued commands of one session, first come first served, in batches: all
        that queued while the previous batch was being written go in the next (see
        :meth:`_apply_batch_at_once`).  Each command then finds the row as the one before left
        it in the cache, so its one-statement write is not lost to a sibling; only another
        process can still race."""
        batch: list[_Job] = []
        try:
            while jobs := self._jobs.get(key):
                batch = [j for j in jobs if not j.future.done()]  # a caller gone: skipped
                jobs.clear()
                if await self._at_once_or_fail(key, batch):
                    continue
                for job in batch:  # one by one: at once again (the others' outcomes), else locked
                    if len(batch) == 1 or not await self._at_once_or_fail(key, [job]):
                        await self._apply_locked_job(key, job)
        finally:
            del self._drains[key]
            # only when this task was cancelled (the store closing): nobody waits in vain
            for job in [*batch, *self._jobs.pop(key, ())]:
                job.fail(StoreBusy("数据库繁忙，操作未完成，请稍后再试"))

    async def _at_once_or_fail(self, key: tuple[str, str], jobs: list[_Job]) -> bool:
        """:meth:`_apply_batch_at_once`; an error it raised (the connection lost: the batch may
        have been written) fails its commands, as it would each alone."""
        try:
            return await self._apply_batch_at_once(key, jobs)
        except Rejected as exc:
            if len(jobs) > 1:
                return False  # nothing was written: each alone, so only the bad one fails
            jobs[0].fail(exc)
            return True
        except Exception as exc:
            for job in jobs:
                job.fail(exc)
            return True

    async def _apply_locked_job(self, key: tuple[str, str], job: _Job) -> None:
        if job.future.done():  # answered already (a second delivery found in its batch), or gone
            return
        token = _EVENT.set(job.event)
        try:
            job.resolve(await self._apply_state_locked(key, job.codec, job.fn, job.reuse, job.log_row))
        except Exception as exc:
            job.fail(exc)
        finally:
            _EVENT.reset(token)

    async def _apply_batch_at_once(self, key: tuple[str, str], jobs: list[_Job]) -> bool:
        """PostgreSQL, optimistically: the queued commands of one session (one or several, a
        group commit) in one statement, its own transaction.  Each ``fn`` is applied to the
        cached state or the one the command before left; then the final state is written if the
        row is still the cached one (same version and ``created_at``), with a log row per
        command that changed it (in order, so ``.undo`` takes them back one by one) and every
        event claimed.  A command refused (or changing nothing) claims its event too, so a
        second delivery of it stays silent; it is refused on the state the commands before it
        left, which the commit makes true.

        One round trip (and the commit) instead of BEGIN, the claim, ``SELECT … FOR UPDATE``,
        the write and COMMIT per command.  A batch that changes nothing only checks the row and
        claims the events; when none claims and each command saw the row since it came in (what
        ``fn`` decided holds as of then), it needs no statement at all.

        False (nothing written, nothing answered) when the row changed or is not cached, an
        event was already claimed, or the commands are not all of one codec: the caller then
        runs them one by one, and the locked transaction calls ``fn`` again on a fresh state
        (``reuse`` is not handed over twice, so ``fn``'s changes to it are not seen there).
        When the batch claimed a single event and that one existed, its command is answered
        here (:class:`DuplicateEvent`: a second delivery) and the others run one by one."""
        codec = jobs[0].codec
        row = self._states.row_of(key)
        if row is None or row[1] is None or any(j.codec is not codec for j in jobs):
            return False
        fields = _row_fields(codec)
        stored = self._states.rows_at(key, row) if fields else {}
        if stored is None:
            return False  # the rows it holds not known: the locked transaction reads them
        scope, system = key
        cur = self._states.get_reusing(key, None, codec, jobs[0].reuse, row, same_row=True)
        outcomes: list[tuple[bool, Any]] = []
        logs: list[tuple[str, str, str | None, str | None, int, str | None]] = []
        claims: list[_Event] = []
        for n, job in enumerate(jobs):
            if n and not codec.immutable and cur.text is not None:
                cur = replace(cur, state=codec.decode(cur.text))  # the last fn's state is its caller's
            try:
                after, result = self._next_state(key, codec, cur, job.fn)
            except Exception as exc:
                outcomes.append((False, exc))
                if isinstance(exc, ChronoDiceError) and job.event is not None and not job.event.claimed:
                    claims.append(job.event)  # a refusal claims its event too (not a rule's crash)
                continue
            if after.text != cur.text:
                before_text, patch_text = _reverse_plain(cur, after)
                user_id, command, chars_text = job.log_row
                logs.append((user_id, command, before_text, chars_text, row[0] + len(logs) + 1, patch_text))
                cur = after
            if job.event is not None and not job.event.claimed:
                claims.append(job.event)
            outcomes.append((True, result))
        since = time.monotonic()
        tick = self._states.tick()
        sent = True
        claimed = [[e.self_id for e in claims], [e.message_id for e in claims], time.time()]
        items: srows.Items = {}
        try:
            if logs:
                cols = [list(c) for c in zip(*logs, strict=True)]
                now = self._backend.dt_in(utcnow())
                head, items = (
                    srows.split(cur.plain, fields) if fields and cur.text is not None else (cur.text, {})
                )
                put, cut = srows.changes(stored, items)
                rows = [[p[0] for p in put], [p[1] for p in put], [p[2] for p in put]]
                cuts = [[c[0] for c in cut], [c[1] for c in cut]]
                n = await self._once(
                    _BATCH_SQL,
                    [
                        head,
                        row[0] + len(logs),
                        now,
                        scope,
                        system,
                        row[0],
                        row[1],
                        *cols,
                        *claimed,
                        *rows,
                        *cuts,
                    ],
                )
            elif not claims and all(
                j.event is not None and self._states.held_since(key, row, j.event.began) for j in jobs
            ):
                n = 1  # nothing changed, nothing to claim, and each saw the row since it came in
                sent = False
            else:  # nothing changed: the row checked (and the events claimed) in one statement
                n = await self._once(_BATCH_CLAIM_SQL, [scope, system, row[0], row[1], *claimed])
        except Transient:
            return False
        except Conflict:  # a claim that existed: one by one, each finds out (unless it is plain)
            if len(claims) == 1:
                dup = claims[0]
                next(j for j in jobs if j.event is dup).fail(
                    DuplicateEvent(f"{dup.self_id}/{dup.message_id}")
                )
            return False
        except BaseException:
            self._states.changed(scope)  # it may have committed (the connection lost on the way)
            raise
        if n != 1:
            return False
        for ev in claims:
            ev.claimed = True
        trusted = self._states.trusted(key)
        if logs:
            tick = self._states.changed(scope)
            self._states.rows_seen(key, (row[0] + len(logs), row[1]), items)
        self._states.put(key, replace(cur, row=(row[0] + len(logs), row[1])), since)
        if sent or trusted:  # the statement checked the row (without one, trust stays as it was)
            self._states.trust(key, tick)
        for job, (ok, value) in zip(jobs, outcomes, strict=True):
            if ok:
                job.resolve(value)
            else:
                job.fail(value)
        return True

    async def _apply_state_locked(
        self,
        key: tuple[str, str],
        codec: SessionCodec[S],
        fn: Callable[[S | None], tuple[S | None, T]],
        reuse: S | None,
        log_row: tuple[str, str, str | None],
    ) -> T:
        scope = key[0]
        since = time.monotonic()
        tick = self._states.tick()
        wrote = False

        items: srows.Items = {}

        async def body(tx: Tx) -> tuple[T, Cached[S]]:
            nonlocal wrote, items
            old = await self._state_row(tx, key, codec, reuse, tx.for_update)
            after, result = self._next_state(key, codec, old, fn)
            wrote = after.text != old.text
            if wrote:
                before_text, patch_text = _reverse_plain(old, after)
                stored = self._states.rows_at(key, old.row) if old.text is not None else {}
                if stored is None:
                    stored = await srows.read_items(tx, scope, codec.system)
                fields = _row_fields(codec)
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
            result, after = await self._write(body, "操作", retry_conflict=True)
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
        self._states.verify(key, old, codec)
        if new_state is None:
            new_text, new_plain = None, None
        else:
            prev = (old.state, old.plain) if old.state is not None else None
            new_plain = codec.encode(new_state, prev)
            new_text = self._states.text(codec, new_plain)
            self._states.verify_encoding(codec, new_state, new_text)
        return Cached(new_text, new_state if codec.immutable else None, new_plain, True, old.row), result

    def _at_once(self) -> bool:
        """Whether writes may first be tried as one statement (PostgreSQL; see
        :meth:`_apply_batch_at_once`)."""
        return self.dialect == "postgresql"

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
            stored = await self._rows_of(tx, scope, sys_name, head)
            current = srows.assemble(head, stored)
            if patch_raw is not None:
                try:
                    before = jpatch.apply(_j(patch_raw), _j(current))
                except (KeyError, IndexError, TypeError, ValueError):
                    log.exception("undo: the log of %s/%s does not fit the state", scope, sys_name)
                    raise IllegalAction("撤销记录与当前状态对不上，无法撤销") from None
            else:
                before = _j(before_raw)
            now = self._backend.dt_in(utcnow())
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


def _row_fields(codec: Any) -> tuple[str, ...]:
    """The fields of ``codec``'s states kept as rows (see :mod:`.session_rows`)."""
    return tuple(getattr(codec, "row_fields", ()))


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


def _reverse_plain(old: Cached[Any], new: Cached[Any]) -> tuple[str | None, str | None]:
    """:func:`_reverse` for codec states, whose plain forms share their unchanged parts: the
    type-exact :func:`patch.diff_exact` compares those by identity and needs no check against
    the texts.  The whole old text is stored where its plain form does not rebuild it exactly (a
    migrated old state)."""
    if old.text is None:
        return None, jpatch.dumps(["=", None])
    if new.text is None or not old.exact:
        return old.text, None
    return _patch_or_whole(old.text, jpatch.diff_exact(new.plain, old.plain))


def _reverse(old: Any, new: Any, old_text: str | None = None) -> tuple[str | None, str | None]:
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
