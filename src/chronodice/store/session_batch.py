"""PostgreSQL's per-session queue and group commit for session writes.

The commands of a process on one session queue and run in a task of the session's own
(:meth:`SessionBatchStore._drain`): the commands queued together, or a single one, in one
statement that writes the cached row if it is still the one cached
(:meth:`SessionBatchStore._apply_batch_at_once`), and the locked transaction
(:meth:`~chronodice.store.sessions.SessionStore._apply_state_locked`) as the fallback.

The clock is read as ``common.utcnow()``: replacing :func:`chronodice.store.common.utcnow`
(as the guide generator does) fixes it here too."""

from __future__ import annotations

import asyncio
from asyncio import Future
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import CTE, Select, TableValuedAlias

from chronodice.core.clock import SYSTEM
from chronodice.core.errors import ChronoDiceError

from . import common, tables
from . import session_rows as srows
from .backends import Conflict, Rejected, Transient
from .common import Claim, DuplicateEvent, StoreBusy
from .sessions import KEY, LOGGED, NEW, Key, LogRow, SessionStore, reverse_plain, row_fields_of

T = TypeVar("T")
BatchLog = tuple[str, str, str | None, str | None, int, str | None]
"""One log row of a batch: user, command, the state before, the cards, the version, the patch."""
S = TypeVar("S")

_s, _rows = tables.sessions, tables.session_rows
_GATE = (*KEY, _s.c.version == sa.bindparam("v_old"), _s.c.created_at == sa.bindparam("born"))
"""The session's row still the cached one (``v_old``, ``born``; see :attr:`Cached.row`)."""
_KEY_VALUES = (sa.bindparam("key_scope"), sa.bindparam("key_system"))
"""The session's ``scope`` and ``system`` as values of a row inserted."""
_ONE = sa.literal_column("1")


def _unnest(name: str, ordinality: str | None = None, **arrays: Any) -> TableValuedAlias:
    """``unnest(:a, :b, …) [WITH ORDINALITY] AS name(a, b, …)``: the array parameters ``arrays``
    (name: item type) as rows, the parameter names as column names (see :func:`_arrays`)."""
    params = [sa.bindparam(key, type_=sa.ARRAY(item)) for key, item in arrays.items()]
    return sa.func.unnest(*params).table_valued(*arrays, with_ordinality=ordinality).render_derived(name)


def _arrays(names: tuple[str, ...], rows: list[Any]) -> dict[str, list[Any]]:
    """``rows`` (tuples) as one list per column, named ``names``: the parameters of :func:`_unnest`."""
    return {name: [r[i] for r in rows] for i, name in enumerate(names)}


def _then(gate: CTE, rows: TableValuedAlias, *columns: Any) -> Select[Any]:
    """``SELECT columns FROM gate JOIN rows ON true``: ``rows`` where ``gate`` holds a row."""
    return sa.select(*columns).select_from(gate).join(rows, sa.true())


def _claims(gate: CTE) -> CTE:
    """The events claimed (``self_ids``, ``message_ids``, at ``claim_at``) where ``gate`` holds."""
    y = _unnest("y", self_ids=sa.Text, message_ids=sa.Text)
    claims = _then(gate, y, y.c.self_ids, y.c.message_ids, sa.bindparam("claim_at", type_=sa.Float))
    return (
        sa.insert(tables.event_claims).from_select(["self_id", "message_id", "claimed_at"], claims).cte("c")
    )


def _batch() -> Select[Any]:
    """:data:`_BATCH`: the update ``u``, then only where it wrote, the log rows ``l`` (in order),
    the claims ``c``, and the session's rows written ``r`` and cut back ``d``; the lists arrive
    as arrays (:func:`_arrays`), so a batch of any size is one statement of one compiled form."""
    u = sa.update(_s).where(*_GATE).values(NEW).returning(_ONE).cte("u")
    txt = sa.Text
    x = _unnest("x", "o", users=txt, commands=txt, befores=txt, cards=txt, patches=txt, versions=sa.Integer)
    texts = (sa.cast(c, sa.JSON) for c in (x.c.befores, x.c.cards, x.c.patches))  # in LOGGED's order
    logs = _then(
        u, x, *_KEY_VALUES, x.c.users, x.c.commands, *texts, x.c.versions, sa.false(), sa.bindparam("now")
    )
    log = sa.insert(tables.session_log).from_select(list(LOGGED), logs.order_by(x.c.o))
    z = _unnest("z", put_fields=txt, put_seqs=sa.Integer, put_items=txt)
    put = tables.insert_for("postgresql", _rows).from_select(
        ["scope", "system", "field", "seq", "item"],
        _then(u, z, *_KEY_VALUES, z.c.put_fields, z.c.put_seqs, z.c.put_items),
    )
    put = put.on_conflict_do_update(index_elements=list(_rows.primary_key), set_={"item": put.excluded.item})
    w = _unnest("w", cut_fields=txt, cut_at=sa.Integer)
    cut = sa.delete(_rows).where(
        _rows.c.scope == sa.bindparam("key_scope"),
        _rows.c.system == sa.bindparam("key_system"),
        _rows.c.field == w.c.cut_fields,
        _rows.c.seq >= w.c.cut_at,
        sa.exists(sa.select(_ONE).select_from(u)),
    )
    return (
        sa.select(sa.func.count())
        .select_from(u)
        .add_cte(log.cte("l"), _claims(u), put.cte("r"), cut.cte("d"))
    )


_BATCH = _batch()
"""PostgreSQL: a batch of session commands (see :meth:`Store._apply_batch_at_once`): the final
state, a log row per command that changed it, in order, the events claimed, and the session's
rows that changed (:mod:`.session_rows`); the count of rows updated (0: the row was not the
cached one, nothing was written)."""
_seen = sa.select(_ONE).where(*_GATE).cte("s")
_BATCH_CLAIM = sa.select(sa.func.count()).select_from(_seen).add_cte(_claims(_seen))
"""PostgreSQL: a batch that changed nothing: the row still the cached one, and the events
claimed (none, only the row checked)."""


@dataclass(eq=False)
class Job:
    """A command's session write queued on PostgreSQL (see :meth:`Store._drain`)."""

    codec: Any
    fn: Callable[[Any], tuple[Any, Any]]
    reuse: Any
    log_row: tuple[str, str, str | None]
    claim: Claim | None
    future: asyncio.Future[Any]

    def resolve(self, value: Any) -> None:
        if not self.future.done():  # not when its caller is gone
            self.future.set_result(value)

    def fail(self, exc: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(exc)


class SessionBatchStore(SessionStore):
    """:class:`~chronodice.store.sessions.SessionStore` with the queue and group commit of
    session writes on PostgreSQL (what :class:`~chronodice.store.database.Store` is made of)."""

    if TYPE_CHECKING:
        _jobs: dict[Key, list[Job]]
        _drains: dict[Key, asyncio.Future[None]]
        _tasks: set[asyncio.Task[None]]

    def _at_once(self) -> bool:
        """Whether writes may first be tried as one statement (PostgreSQL; see
        :meth:`_apply_batch_at_once`).  Without it (the locked transaction each time,
        ``benchmarks/bench_caches.py``, 2026-11-26) ``.st`` takes 1.95× as long (1.38 against
        0.71 ms), ``.init next`` 1.5× and a ``.bat`` 1.7×."""
        return self.dialect == "postgresql"

    # PostgreSQL: one queue per session ------------------------------------------------------
    def _queue_state(
        self, key: Key, codec: Any, fn: Any, reuse: Any, log_row: LogRow, claim: Claim | None
    ) -> Future[Any]:
        """Queue a command's session write (:meth:`_submit`); the future its outcome is set on."""
        job = Job(codec, fn, reuse, log_row, claim, asyncio.get_running_loop().create_future())
        self._submit(key, job)
        return job.future

    def _submit(self, key: tuple[str, str], job: Job) -> None:
        """Queue ``job``; one task per session drains the queue (:meth:`_drain`)."""
        self._jobs.setdefault(key, []).append(job)
        if key not in self._drains:
            task = asyncio.ensure_future(self._drain(key))
            self._drains[key] = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _drain(self, key: tuple[str, str]) -> None:
        """Run the queued commands of one session, first come first served, in batches: all
        that queued while the previous batch was being written go in the next (see
        :meth:`_apply_batch_at_once`).  Each command then finds the row as the one before left
        it in the cache, so its one-statement write is not lost to a sibling; only another
        process can still race."""
        batch: list[Job] = []
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

    async def _at_once_or_fail(self, key: tuple[str, str], jobs: list[Job]) -> bool:
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

    async def _apply_locked_job(self, key: tuple[str, str], job: Job) -> None:
        if job.future.done():  # answered already (a second delivery found in its batch), or gone
            return
        try:
            job.resolve(
                await self._apply_state_locked(key, job.codec, job.fn, job.reuse, job.log_row, job.claim)
            )
        except Exception as exc:
            job.fail(exc)

    async def _apply_batch_at_once(self, key: tuple[str, str], jobs: list[Job]) -> bool:
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
        stored = self._states.rows_at(key, row)
        if stored is None:
            return False  # the rows it holds not known: the locked transaction reads them
        fields = row_fields_of(codec, stored)
        scope, system = key
        cur = self._states.get_reusing(key, None, codec, jobs[0].reuse, row, same_row=True)
        cur, outcomes, logs, claims = self._run_jobs(key, codec, cur, jobs, row[0])
        since = SYSTEM.monotonic()
        tick = self._states.tick()
        sent = True
        params = {
            "key_scope": scope,
            "key_system": system,
            "v_old": row[0],
            "born": row[1],
            "claim_at": SYSTEM.timestamp(),
        }
        params |= _arrays(("self_ids", "message_ids"), [(e.self_id, e.message_id) for e in claims])
        items: srows.Items = {}
        try:
            if logs:
                head, items = (
                    srows.split(cur.plain, fields) if fields and cur.text is not None else (cur.text, {})
                )
                put, cut = srows.changes(stored, items)
                params |= {"state": head, "v_new": row[0] + len(logs), "now": common.utcnow()}
                params |= _arrays(("users", "commands", "befores", "cards", "versions", "patches"), logs)
                params |= _arrays(("put_fields", "put_seqs", "put_items"), put)
                params |= _arrays(("cut_fields", "cut_at"), cut)
                n = await self._once(_BATCH, params)
            elif not claims and all(
                j.claim is not None and self._states.held_since(key, row, j.claim.began) for j in jobs
            ):
                n = 1  # nothing changed, nothing to claim, and each saw the row since it came in
                sent = False
            else:  # nothing changed: the row checked (and the events claimed) in one statement
                n = await self._once(_BATCH_CLAIM, params)
        except Transient:
            return False
        except Conflict:  # a claim that existed: one by one, each finds out (unless it is plain)
            if len(claims) == 1:
                dup = claims[0]
                next(j for j in jobs if j.claim is dup).fail(
                    DuplicateEvent(f"{dup.self_id}/{dup.message_id}")
                )
            return False
        except BaseException:
            self._states.changed(scope)  # it may have committed (the connection lost on the way)
            raise
        if n != 1:
            return False
        self._settle(key, row, cur, logs, items, claims, since, tick, sent=sent)
        for job, (ok, value) in zip(jobs, outcomes, strict=True):
            if ok:
                job.resolve(value)
            else:
                job.fail(value)
        return True

    def _run_jobs(
        self, key: tuple[str, str], codec: Any, cur: Any, jobs: list[Job], version: int
    ) -> tuple[Any, list[tuple[bool, Any]], list[BatchLog], list[Claim]]:
        """Apply each job's ``fn`` in turn to the state the one before left: the last state,
        each job's outcome (ok and result, or the exception), a log row per job that changed
        the state (numbered from ``version``), and the events to claim (a refusal's too)."""
        outcomes: list[tuple[bool, Any]] = []
        logs: list[BatchLog] = []
        claims: list[Claim] = []
        for n, job in enumerate(jobs):
            if n and not codec.immutable and cur.text is not None:
                cur = replace(cur, state=codec.decode(cur.text))  # the last fn's state is its caller's
            try:
                after, result = self._next_state(key, codec, cur, job.fn)
            except Exception as exc:
                outcomes.append((False, exc))
                if isinstance(exc, ChronoDiceError) and job.claim is not None and not job.claim.claimed:
                    claims.append(job.claim)  # a refusal claims its event too (not a rule's crash)
                continue
            if after.text != cur.text:
                before_text, patch_text = reverse_plain(cur, after)
                user_id, command, chars_text = job.log_row
                logs.append((user_id, command, before_text, chars_text, version + len(logs) + 1, patch_text))
                cur = after
            if job.claim is not None and not job.claim.claimed:
                claims.append(job.claim)
            outcomes.append((True, result))
        return cur, outcomes, logs, claims

    def _settle(
        self,
        key: tuple[str, str],
        row: Any,
        cur: Any,
        logs: list[BatchLog],
        items: srows.Items,
        claims: list[Claim],
        since: float,
        tick: Any,
        *,
        sent: bool,
    ) -> None:
        """After a batch was written: its events claimed, the cache holding the new state and
        rows, and the row trusted when the statement checked it."""
        for ev in claims:
            ev.claimed = True
        trusted = self._states.trusted(key)
        if logs:
            tick = self._states.changed(key[0])
            self._states.rows_seen(key, (row[0] + len(logs), row[1]), items)
        self._states.put(key, replace(cur, row=(row[0] + len(logs), row[1])), since)
        if sent or trusted:  # the statement checked the row (without one, trust stays as it was)
            self._states.trust(key, tick)
