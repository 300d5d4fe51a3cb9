"""Typed session states (``Store.apply_state`` / ``load_state`` with a codec, see
``chronodice.store.states``): the cached decoded state is never stale, never changed in place
unnoticed, and the log it writes keeps ``.undo`` exact and compact."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from helpers import eventually, say, spy_locked_writes
from hypothesis import given, settings
from hypothesis import strategies as st

from chronodice.app import App
from chronodice.core.errors import IllegalAction
from chronodice.core.ratelimit import FloodSettings
from chronodice.rules.timeline import battle as bt
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.store import Claim, DuplicateEvent, Store
from chronodice.store import patch as jpatch

SHEET = (
    ".TLsetup 姓名:{name},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
    "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
)


# ---------------------------------------------------------------- a small codec of our own
@dataclass(frozen=True)
class Box:
    items: tuple[dict[str, Any], ...] = ()
    total: float = 0


class BoxCodec:
    system = "box"
    immutable = True
    row_fields: tuple[str, ...] = ()

    def decode(self, text: str) -> Box:
        d = json.loads(text)
        return Box(tuple(d["items"]), d["total"])

    def encode(self, state: Box, prev: tuple[Box, Any] | None) -> dict[str, Any]:
        return {"items": state.items, "total": state.total}  # the item dicts themselves: shared


class MutableBoxCodec(BoxCodec):
    system = "mbox"
    immutable = False

    def decode(self, text: str) -> Any:
        return json.loads(text)

    def encode(self, state: Any, prev: tuple[Any, Any] | None) -> Any:
        return json.loads(json.dumps(state))


BOX = BoxCodec()


def add(n: Any) -> Any:
    def fn(s: Box | None) -> tuple[Box, None]:
        s = s or Box()
        return replace(s, items=(*s.items, {"n": n}), total=s.total + n), None

    return fn


def stored(path: Path, system: str) -> str | None:
    con = sqlite3.connect(path)
    try:
        row = con.execute("SELECT state FROM sessions WHERE system = ?", (system,)).fetchone()
        return row[0] if row else None
    finally:
        con.close()


def log_rows(path: Path, system: str) -> list[tuple[str | None, str | None]]:
    con = sqlite3.connect(path)
    try:
        return con.execute(
            "SELECT before, patch FROM session_log WHERE system = ? ORDER BY id", (system,)
        ).fetchall()
    finally:
        con.close()


# ---------------------------------------------------------------- the cache is never stale
async def test_a_write_by_another_process_is_seen(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 's.db'}"
    a, b = Store(url), Store(url)
    await a.migrate()
    try:
        await a.apply_state("g", BOX, add(1))
        await b.apply_state("g", BOX, add(2))  # a's cache still holds the state after its write
        await a.apply_state("g", BOX, add(3))
        got = await a.load_state("g", BOX)
        assert got is not None and [i["n"] for i in got.items] == [1, 2, 3]
        assert (await b.load_state("g", BOX)) == got
        assert await a.undo("g", "box") is not None  # undo changes the text: both see it
        for s in (a, b):
            again = await s.load_state("g", BOX)
            assert again is not None and [i["n"] for i in again.items] == [1, 2]
    finally:
        await a.close()
        await b.close()


async def test_sqlite_uses_a_trusted_copy_until_another_connection_commits(tmp_path: Path) -> None:
    """On SQLite a session this process read or wrote is not selected again, neither to read it
    nor inside a write (``BEGIN IMMEDIATE``), while ``PRAGMA data_version`` shows no other
    connection's commit; another process's write is seen at once."""
    url = f"sqlite+aiosqlite:///{tmp_path / 't.db'}"
    a, b = Store(url), Store(url)
    await a.migrate()
    selects: list[str] = []
    try:
        await a.apply_state("g", BOX, add(1))
        await a.load_state("g", BOX)  # learns the new row's created_at
        await a.apply_state("g", BOX, add(2))
        a._backend._connect().connection.dbapi_connection.set_trace_callback(  # type: ignore[union-attr]
            lambda sql: selects.append(sql) if sql.lstrip().upper().startswith("SELECT") else None
        )
        got = await a.load_state("g", BOX)
        await a.apply_state("g", BOX, add(3))
        assert got is not None and [i["n"] for i in got.items] == [1, 2] and selects == []
        await b.apply_state("g", BOX, add(4))  # another connection commits
        got = await a.load_state("g", BOX)
        assert got is not None and [i["n"] for i in got.items] == [1, 2, 3, 4] and selects
        selects.clear()
        await b.apply_state("g", BOX, add(5))
        await a.apply_state("g", BOX, add(6))  # read again inside the write: nothing lost
        got = await a.load_state("g", BOX)
        assert got is not None and [i["n"] for i in got.items] == [1, 2, 3, 4, 5, 6] and selects
    finally:
        await a.close()
        await b.close()


async def test_a_session_created_anew_is_not_taken_for_the_cached_one(any_store: Store) -> None:
    """The cache trusts a row that still shows the version and created_at its text was seen
    with; a session pruned and created again restarts at version 1 with a new created_at."""
    other = Store(any_store.url)
    try:
        await any_store.apply_state("g", BOX, add(1))  # version 1, cached with its row identity
        assert [i["n"] for i in (await any_store.load_state("g", BOX)).items] == [1]  # type: ignore[union-attr]
        async with other.engine.begin() as conn:
            from sqlalchemy import text

            await conn.execute(text("DELETE FROM sessions WHERE scope = 'g'"))
        await other.apply_state("g", BOX, add(7))  # version 1 again
        got = await any_store.load_state("g", BOX)
        assert got is not None and [i["n"] for i in got.items] == [7]
        await any_store.apply_state("g", BOX, add(8))
        assert [i["n"] for i in (await other.load_state("g", BOX)).items] == [7, 8]  # type: ignore[union-attr]
    finally:
        await other.close()


# ---------------------------------------------------------------- one-statement writes (PostgreSQL)
# On PostgreSQL a session this process has cached is first written in one statement that
# checks the row is still the cached one; these hold on both backends (SQLite always locks).
async def test_two_processes_writing_one_session_at_once_lose_nothing(any_store: Store) -> None:
    other = Store(any_store.url)
    await other.migrate()
    try:
        await any_store.apply_state("g", BOX, add(0))
        await other.load_state("g", BOX)  # both caches hold version 1

        async def writes(store: Store, n: int) -> None:
            for _ in range(n):
                await store.apply_state("g", BOX, add(1))

        await asyncio.gather(*(writes(s, 10) for s in (any_store, other) for _ in range(10)))
        for s in (any_store, other):
            got = await s.load_state("g", BOX)
            assert got is not None and len(got.items) == 201 and got.total == 200
        log = await any_store.session_log("g", "box", limit=500)
        assert len(log) == 201
        for k in range(3):
            assert await other.undo("g", "box") is not None
            got = await eventually(  # another process's undo: a read may be a moment behind
                lambda: any_store.load_state("g", BOX), lambda g, k=k: g is not None and g.total == 199 - k
            )
            assert got is not None and got.total == 199 - k
    finally:
        await other.close()


async def test_a_refusal_on_a_state_another_process_changed_is_decided_afresh(any_store: Store) -> None:
    other = Store(any_store.url)
    try:
        await any_store.apply_state("g", BOX, add(1))  # cached: one item
        await other.apply_state("g", BOX, add(2))

        def second_needed(s: Box | None) -> tuple[Box, int]:
            if s is None or len(s.items) < 2:
                raise IllegalAction("还不到两个")
            return replace(s, total=s.total + 10), len(s.items)

        assert await any_store.apply_state("g", BOX, second_needed) == 2
        with pytest.raises(IllegalAction):  # a refusal that stands
            await any_store.apply_state("h", BOX, second_needed)
        got = await other.load_state("g", BOX)
        assert got is not None and got.total == 13
    finally:
        await other.close()


async def test_an_event_applies_once_whichever_process_sees_it_again(any_store: Store) -> None:
    other = Store(any_store.url)
    try:
        await any_store.apply_state("g", BOX, add(1))
        await other.load_state("g", BOX)
        await any_store.apply_state("g", BOX, add(2), claim=Claim("10001", "m1"))
        for s in (any_store, other):
            with pytest.raises(DuplicateEvent):
                await s.apply_state("g", BOX, add(2), claim=Claim("10001", "m1"))
        # a command that changes nothing also claims its event (a re-delivery stays silent)
        same = lambda s: (s, "同上")  # noqa: E731
        assert await any_store.apply_state("g", BOX, same, claim=Claim("10001", "m2")) == "同上"
        with pytest.raises(DuplicateEvent):
            await other.apply_state("g", BOX, same, claim=Claim("10001", "m2"))
        # a second write of one command claims nothing more
        m3 = Claim("10001", "m3")
        await other.apply_state("g", BOX, add(3), claim=m3)
        await other.apply_state("g", BOX, add(4), claim=m3)
        got = await any_store.load_state("g", BOX)
        assert got is not None and [i["n"] for i in got.items] == [1, 2, 3, 4]
    finally:
        await other.close()


async def test_postgres_writes_a_cached_session_in_one_statement(pg_store: Store) -> None:
    """The locked transaction (BEGIN, claim, SELECT … FOR UPDATE, UPDATE, COMMIT) is only the
    fallback: a session whose row is cached is written without it."""
    store = pg_store
    await store.apply_state("one-statement", BOX, add(1))
    await store.load_state("one-statement", BOX)
    locked = spy_locked_writes(store)
    await store.apply_state("one-statement", BOX, add(2), claim=Claim("10001", "one-statement"))
    assert locked == []
    other = Store(store.url)
    try:
        await other.apply_state("one-statement", BOX, add(3))  # the cached row is not the row now
    finally:
        await other.close()
    await store.apply_state("one-statement", BOX, add(4))
    assert locked == ["操作"]
    got = await store.load_state("one-statement", BOX)
    assert got is not None and [i["n"] for i in got.items] == [1, 2, 3, 4]

    # a refusal claims its event in one statement that checks the row fn saw (a second
    # delivery is then silent, as one of a command that changed something)
    statements: list[str] = []
    real_once = store._once

    async def once(sql: str, *a: Any, **kw: Any) -> int:
        statements.append(sql)
        return await real_once(sql, *a, **kw)

    def refuse(_s: Box | None) -> tuple[Box, None]:
        raise IllegalAction("不行")

    store._once = once  # type: ignore[method-assign]
    for attempt in range(2):
        refused = Claim("10001", "refused")
        with pytest.raises(DuplicateEvent if attempt else IllegalAction):
            await store.load_state("one-statement", BOX)
            await store.apply_state("one-statement", BOX, refuse, claim=refused)
    assert len(statements) == 2 and locked == ["操作"]
    # without an event to claim, a row seen since the command came in needs no statement
    one = Claim("10001", "written-then-refused")
    await store.apply_state("one-statement", BOX, add(5), claim=one)
    del statements[:]
    with pytest.raises(IllegalAction):
        await store.apply_state("one-statement", BOX, refuse, claim=one)
    assert statements == []
    assert await store.apply_state("one-statement", BOX, lambda s: (s, "同上"), claim=one) == "同上"
    assert statements == [] and locked == ["操作"]
    with pytest.raises(IllegalAction):  # no command: the row checked in one statement
        await store.apply_state("one-statement", BOX, refuse)
    assert len(statements) == 1 and locked == ["操作"]


async def _until(cond: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not within the time")


async def test_postgres_reads_a_session_it_knows_is_current_without_a_statement(pg_store: Store) -> None:
    """A session this process wrote or read is read again without a statement until a write of
    its group is learnt of: another process's by its notification (migration 0006), this
    process's own ``.undo`` and plain-dict writes by themselves.  Without the notifications (the
    LISTEN connection lost) every read goes to the database again."""
    store, scope = pg_store, "trusted-reads"
    reads: list[int] = []
    real = store._read

    async def spy(body: Any) -> Any:
        reads.append(1)
        return await real(body)

    store._read = spy  # type: ignore[method-assign]
    await store.apply_state(scope, BOX, add(1))  # created: its created_at is learnt by a read
    await store.load_state(scope, BOX)
    await store.apply_state(scope, BOX, add(2))
    del reads[:]
    got = await store.load_state(scope, BOX)
    assert got is not None and [i["n"] for i in got.items] == [1, 2] and reads == []

    other = Store(store.url)
    try:
        await other.apply_state(scope, BOX, add(3))
        await _until(lambda: not store._states.trusted((scope, "box")))
    finally:
        await other.close()
    got = await store.load_state(scope, BOX)
    assert got is not None and [i["n"] for i in got.items] == [1, 2, 3] and reads == [1]
    await store.load_state(scope, BOX)
    assert reads == [1]

    await store.undo(scope, "box")  # this process's own write outside apply_state
    got = await store.load_state(scope, BOX)
    assert got is not None and [i["n"] for i in got.items] == [1, 2] and reads == [1, 1]

    store._backend._lost(None)  # type: ignore[union-attr]
    got = await store.load_state(scope, BOX)
    await store.load_state(scope, BOX)
    assert got is not None and len(reads) == 4


def test_a_read_that_a_write_overtook_is_not_trusted() -> None:
    """A read sent before a write of its group was learnt of (a notification, or this process's
    own commit) may hold the row as it was: its copy is not trusted, nor is a copy without the
    row's identity."""
    from chronodice.store.states import Cached, StateCache

    cache = StateCache()
    key = ("g", "box")
    before = cache.tick()
    cache.put(key, Cached('{"n":1}', None, {"n": 1}, True, (1, "born")))
    cache.trust(key, before)
    assert cache.trusted(key)
    read_sent = cache.tick()
    cache.changed("g")
    assert not cache.trusted(key)
    cache.put(key, Cached('{"n":1}', None, {"n": 1}, True, (1, "born")))
    cache.trust(key, read_sent)
    assert not cache.trusted(key)
    cache.trust(key, cache.tick())
    assert cache.trusted(key)
    cache.changed("another group")
    assert cache.trusted(key)
    cache.put(key, Cached('{"n":2}', None, {"n": 2}, True, None))  # a new row: created_at unknown
    cache.trust(key, cache.tick())
    assert not cache.trusted(key)
    cache.put(key, Cached('{"n":2}', None, {"n": 2}, True, (2, "born")))
    cache.trust(key, cache.tick())
    cache.changed_everywhere()
    assert not cache.trusted(key)


async def test_commands_queued_on_one_session_are_written_together_and_undone_one_by_one(
    any_store: Store,
) -> None:
    """On PostgreSQL the commands that queue on one session while a write is in flight go in
    one statement (a group commit); each keeps its own result, refusal, event and log row."""
    store = any_store
    await store.apply_state("g", BOX, add(0))
    await store.load_state("g", BOX)
    writes: list[str] = []
    if store.dialect == "postgresql":
        real_once = store._once

        async def once(sql: str, *a: Any, **kw: Any) -> int:
            writes.append(sql)
            return await real_once(sql, *a, **kw)

        store._once = once  # type: ignore[method-assign]

    def at_most(limit: int, n: int) -> Any:
        def fn(s: Box | None) -> tuple[Box, float]:
            assert s is not None
            if s.total + n > limit:
                raise IllegalAction(f"超过{limit}")
            return replace(s, items=(*s.items, {"n": n}), total=s.total + n), s.total + n

        return fn

    def broken(_s: Box | None) -> tuple[Box, None]:
        raise RuntimeError("a rule's bug")

    async def command(i: int) -> Any:
        return await store.apply_state(
            "g", BOX, broken if i == 5 else at_most(10, 1), claim=Claim("10001", f"q{i}")
        )

    async def commands(ids: range) -> list[Any]:
        got = await asyncio.gather(*(command(i) for i in ids), return_exceptions=True)
        return [type(g).__name__ if isinstance(g, BaseException) else g for g in got]

    kinds = await commands(range(12))
    assert kinds.count("RuntimeError") == 1 and kinds.count("IllegalAction") == 1  # 11th of 11
    assert sorted(k for k in kinds if not isinstance(k, str)) == list(range(1, 11))
    if store.dialect == "postgresql":
        assert len(writes) < 10  # some went together
    # delivered again (q11 was refused, q5 crashed): silent, but a crash is not claimed
    assert await commands(range(9, 12)) == ["DuplicateEvent", "DuplicateEvent", "DuplicateEvent"]
    assert await commands(range(5, 6)) == ["RuntimeError"]
    state = await store.load_state("g", BOX)
    assert state is not None and state.total == 10
    log = await store.session_log("g", "box")
    assert len(log) == 11
    for k in range(10, 7, -1):
        assert await store.undo("g", "box") is not None
        state = await store.load_state("g", BOX)
        assert state is not None and state.total == k - 1 and len(state.items) == k


async def test_a_caller_gone_from_the_queue_leaves_the_others_be(pg_store: Store) -> None:
    store = pg_store
    await store.apply_state("gone", BOX, add(0))
    tasks = [asyncio.ensure_future(store.apply_state("gone", BOX, add(1))) for _ in range(6)]
    await asyncio.sleep(0)
    tasks[3].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert sum(isinstance(d, asyncio.CancelledError) for d in done) <= 1
    state = await store.load_state("gone", BOX)
    assert state is not None and state.total == sum(1 for d in done if d is None)


async def test_a_logged_event_changed_in_place_fails_loudly(tmp_path: Path) -> None:
    """D20's codec reuses the text of the events a combat held when decoded (logged events are
    never changed); a rule that tried to change one raises (events are frozen, see
    ``tests/store/test_state_invariants.py``) and nothing is written."""
    from chronodice.rules.tick20 import engine as E
    from chronodice.services.tick20.codec import COMBAT_CODEC

    store = Store(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
    await store.migrate()
    try:
        combat = E.add_combatant(E.new_combat("gm"), "怪", value=3).state
        await store.apply_state("g", COMBAT_CODEC, lambda _s: (combat, None))

        def sneaky(s: Any) -> tuple[Any, None]:
            s.log[0].data["n"] = 99
            s.round += 1
            return s, None

        with pytest.raises(TypeError):
            await store.apply_state("g", COMBAT_CODEC, sneaky)
        got = await store.load_state("g", COMBAT_CODEC)
        assert got is not None and got.round == combat.round and "n" not in got.log[0].data
    finally:
        await store.close()


async def test_a_mutable_codec_reuses_only_what_it_lent_for_the_same_text(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 's.db'}"
    a, b = Store(url), Store(url)
    await a.migrate()
    codec = MutableBoxCodec()

    def push(n: int) -> Any:
        def fn(s: Any) -> tuple[Any, Any]:
            s = s if s is not None else {"items": [], "total": 0}
            s["items"].append(n)
            return s, id(s)

        return fn

    try:
        await a.apply_state("g", codec, push(1))
        lent = await a.load_state("g", codec)
        assert await a.apply_state("g", codec, push(2), reuse=lent) == id(lent)  # handed over
        lent = await a.load_state("g", codec)
        await b.apply_state("g", codec, push(3))  # the text changed since it was lent
        assert await a.apply_state("g", codec, push(4), reuse=lent) != id(lent)
        assert (await a.load_state("g", codec))["items"] == [1, 2, 3, 4]
        stranger = {"items": [], "total": 0}  # never lent: not taken
        assert await a.apply_state("g", codec, push(5), reuse=stranger) != id(stranger)
    finally:
        await a.close()
        await b.close()


# ---------------------------------------------------------------- the log stays exact and small
async def test_undo_rebuilds_each_text_exactly_and_the_log_is_patches(any_store: Store) -> None:
    texts: list[str] = []
    for n in (1, 2.0, 3, 0.0, -0.0, 2):
        await any_store.apply_state("g", BOX, add(n))
        texts.append(jpatch.dumps(BOX.encode(await any_store.load_state("g", BOX), None)))  # type: ignore[arg-type]
    for want in reversed(texts[:-1]):
        assert await any_store.undo("g", "box") is not None
        got = await any_store.load_state("g", BOX)
        assert got is not None and jpatch.dumps(BOX.encode(got, None)) == want


async def test_a_battle_of_200_actions_undoes_exactly(sqlite_store: Store) -> None:
    """Read from the SQLite file itself: the texts stored, the log's patches."""
    app = App(sqlite_store, random.Random(1234), flood=FloodSettings(enabled=False))
    path = Path(sqlite_store.url.split("///", 1)[1])
    await say(app, SHEET.format(name="甲"), user="p1", group="g1")
    texts = []
    for i in range(200):
        await say(app, f".bat 力量 {10 + i % 90} 第{i}招", user="p1", group="g1")
        texts.append(stored(path, "timeline"))
    rows = log_rows(path, "timeline")
    assert all(patch is not None for _, patch in rows[1:])  # no whole states in the log
    assert max(len(patch or "") for _, patch in rows[1:]) < 2000
    for want in reversed(texts[-11:-1]):
        await say(app, ".undo", user="p1", group="g1")
        assert stored(path, "timeline") == want


# ---------------------------------------------------------------- the patch itself
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.sampled_from([0.0, -0.0, 1.0, 2.5])
    | st.text(max_size=2),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(json_values, json_values)
def test_diff_exact_rebuilds_the_text_without_a_check(a: Any, b: Any) -> None:
    p = jpatch.diff_exact(a, b)
    got = jpatch.apply(json.loads(jpatch.dumps(p)), json.loads(jpatch.dumps(a)))
    assert jpatch.dumps(got) == jpatch.dumps(b)


def test_diff_exact_sees_what_equality_hides() -> None:
    shared = {"k": [1, 2]}
    assert jpatch.diff_exact({"a": shared, "b": 1}, {"a": shared, "b": 1}) is None
    assert jpatch.diff_exact({"a": {"k": [1]}}, {"a": {"k": [1.0]}}) is not None
    assert jpatch.diff_exact({"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 1}}) is not None
    assert jpatch.diff_exact([0.0], [-0.0]) is not None


def test_the_battle_codec_shares_unchanged_actions() -> None:
    state = bt.new_battle()
    ref = bt.ParticipantRef(character_id=1, name="甲", owner_id="p1")
    for i in range(5):
        state, _, _ = bt.record_action(state, ref, windup=10 + i, impact=100.0)
    plain = BATTLE_CODEC.encode(state, None)
    new, _, _ = bt.record_action(state, ref, windup=7, impact=50.0)
    new_plain = BATTLE_CODEC.encode(new, (state, plain))
    kept = [a for a in new_plain["actions"] if any(a is b for b in plain["actions"])]
    assert len(kept) >= 4
    assert jpatch.dumps(new_plain) == jpatch.dumps(BATTLE_CODEC.encode(new, None))
    assert BATTLE_CODEC.dumps(new_plain) == jpatch.dumps(new_plain)  # the text spliced from rows
    assert BATTLE_CODEC.decode(jpatch.dumps(new_plain)) == new


def test_the_battle_text_leaves_out_default_fields_and_reads_back_the_same() -> None:
    """Rows keep only the fields off their defaults (a third less text per action); reading the
    text back fills the defaults in, and a battle stored with every field (an older text) reads
    the same."""
    state = bt.new_battle()
    a = bt.ParticipantRef(character_id=1, name="甲", owner_id="p1")
    b = bt.ParticipantRef(character_id=2, name="乙", owner_id="p2", npc=True)
    state, _, _ = bt.record_action(state, a, windup=4.36, impact=10.0, target="c2")
    state, _, _ = bt.record_action(state, b, windup=2.0, impact=0.0)
    state, _, _ = bt.record_action(state, a, windup=3.0, impact=5.5)
    state, _, _ = bt.cancel_action(state, "c1", 3)
    text = BATTLE_CODEC.dumps(BATTLE_CODEC.encode(state, None))
    rows = json.loads(text)
    assert rows["actions"][1] == {"id": 2, "key": "c2", "start": 0.0, "windup": 2.0, "impact": 0.0}
    assert rows["actions"][0]["target"] == "c2" and "cancelled_at" in rows["actions"][2]
    assert rows["participants"][1]["npc"] is True and "npc" not in rows["participants"][0]
    assert BATTLE_CODEC.decode(text) == state
    assert BATTLE_CODEC.decode(jpatch.dumps(state.to_dict())) == state  # every field written


def test_the_combat_codec_shares_the_log_and_the_combatants_a_turn_left_alone() -> None:
    """D20: a turn adds a few events to a log of 60 and changes two combatants; the events and
    combatants the combat still holds from its text keep their plain form (the reverse patch
    compares them by identity) and their text (the new text is spliced)."""
    from chronodice.rules.tick20 import engine as E
    from chronodice.services.tick20.codec import COMBAT_CODEC

    state = E.new_combat("gm")
    for i in range(12):
        state = E.add_combatant(state, f"怪{i}", value=i).state
    state = E.start(state, dice=[]).state
    for _ in range(40):
        state = E.end_turn(state, dice=[]).state
    text = jpatch.dumps(state.to_dict())
    old = COMBAT_CODEC.decode(text)
    old_plain = COMBAT_CODEC.encode(old, None)
    assert COMBAT_CODEC.dumps(old_plain) == text
    work = COMBAT_CODEC.decode(text)
    new = E.end_turn(work.give_away(), dice=[]).state
    new_plain = COMBAT_CODEC.encode(new, (work, old_plain))
    new_text = COMBAT_CODEC.dumps(new_plain)
    assert new_text == jpatch.dumps(new.to_dict())
    shared_log = sum(any(e is o for o in old_plain["log"]) for e in new_plain["log"])
    assert len(new_plain["log"]) == 60 and 50 <= shared_log < 60
    shared = sum(c is o for c, o in zip(new_plain["combatants"], old_plain["combatants"], strict=True))
    assert 8 <= shared < 12
    p = jpatch.diff_exact(new_plain, old_plain)
    assert jpatch.dumps(jpatch.apply(json.loads(jpatch.dumps(p)), json.loads(new_text))) == text
    assert len(jpatch.dumps(p)) < len(text) // 4


def test_the_combat_codec_decodes_a_text_it_wrote_with_the_events_it_was_written_from() -> None:
    """D20: the next command's parse of the text a turn wrote takes the log's events from that
    turn (pydantic parses the rest); the combat is the one a parse of the whole text gives, and
    a text it did not write is parsed whole."""
    from chronodice.rules.tick20 import engine as E
    from chronodice.rules.tick20.model import Combat
    from chronodice.services.tick20.codec import COMBAT_CODEC

    state = E.new_combat("gm")
    for i in range(6):
        state = E.add_combatant(state, f"怪{i}", value=i + 3).state
    state = E.start(state, dice=[]).state
    plain = COMBAT_CODEC.encode(state, None)
    text = COMBAT_CODEC.dumps(plain)
    for _ in range(30):
        work = COMBAT_CODEC.decode(text)
        assert work == Combat.model_validate_json(text)
        new = E.end_turn(work.give_away(), dice=[]).state
        new_plain = COMBAT_CODEC.encode(new, (work, plain))
        new_text = COMBAT_CODEC.dumps(new_plain)
        assert new_text == jpatch.dumps(new.to_dict())
        plain, text, before = new_plain, new_text, new
    again = COMBAT_CODEC.decode(text)
    assert again == Combat.model_validate_json(text)
    assert all(a is b for a, b in zip(again.log, before.log, strict=True))
    other = jpatch.dumps({**json.loads(text), "round": 99})  # written by nobody here
    fresh = COMBAT_CODEC.decode(other)
    assert fresh.round == 99 and fresh.log == again.log and fresh.log[0] is not again.log[0]


def test_spliced_text_knows_where_each_rows_value_lies() -> None:
    from chronodice.store import texts

    for marker in ("x", "\x00rows0\x00"):  # the second makes it serialise per key
        plain = {
            "a": marker,
            "log": texts.share([{"a": 1}, {"b": "]"}], None),
            "n": 1,
            "c": texts.share([], None),
        }
        text, spans = texts.splice(plain)
        assert text == jpatch.dumps(plain)
        assert text[slice(*spans["log"])] == '[{"a":1},{"b":"]"}]'
        assert text[slice(*spans["c"])] == "[]"


def test_spliced_text_is_right_when_a_value_holds_the_marker() -> None:
    from chronodice.store import texts

    plain = {"name": "\x00rows0\x00", "log": texts.share([{"a": 1}, {"b": [2.0]}], None), "k": -0.0}
    assert texts.dumps(plain) == jpatch.dumps(plain)


def test_states_lent_and_never_handed_back_are_bounded() -> None:
    """A D20 combat read by ``.init`` (and not written) is lent in case the command hands it back;
    groups that only look must not make the process hold one combat each forever."""
    from chronodice.store.states import Cached, StateCache

    cache = StateCache(size=2)
    for i in range(5):
        cache.lend((f"g{i}", "mbox"), Cached(f'{{"n":{i}}}', {"n": i}, {"n": i}, True))
    assert len(cache._lent) == 2
    assert {k for k, _ in cache._lent} == {("g3", "mbox"), ("g4", "mbox")}


def test_several_states_of_one_session_lent_at_once_are_each_taken_back() -> None:
    """Commands on one session read it one after another before any writes (GM speed): each
    hands its own parse back, none is parsed again."""
    from chronodice.store.states import Cached, StateCache

    codec = MutableBoxCodec()
    cache = StateCache()
    key = ("g", codec.system)
    text = '{"items":[],"total":0}'
    got = [cache.get(key, text, codec) for _ in range(3)]
    for g in got:
        cache.lend(key, g)
    assert len({id(g.state) for g in got}) == 3
    for g in reversed(got):
        assert cache.get_reusing(key, text, codec, g.state).state is g.state
    stranger = Cached(text, {"items": [], "total": 0}, None, True)
    assert cache.get_reusing(key, text, codec, stranger.state).state is not stranger.state
