"""The compact session log: reverse patches, exact ``.undo`` and replay, pruning, and the
migration of a database written by the store of b61d402 (whole states in the log)."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from chronodice.core.clock import SYSTEM
from chronodice.store import Claim, Store, tables
from chronodice.store import patch as jpatch

FIXTURES = Path(__file__).parent / "fixtures"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-3, 3, allow_nan=False) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=2), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_patch_rebuilds_the_exact_text(a: Any, b: Any) -> None:
    a_text, b_text = jpatch.dumps(a), jpatch.dumps(b)
    p = jpatch.exact_diff(a, b, a_text, b_text)
    if p is None:
        assert a_text == b_text
        return
    got = jpatch.apply(json.loads(jpatch.dumps(p)), json.loads(a_text))
    assert jpatch.dumps(got) == b_text


def test_patch_of_a_growing_list_is_small() -> None:
    a = {"actions": [{"n": i, "text": f"第{i}招" * 5} for i in range(300)], "clock": 1.5}
    b = json.loads(json.dumps(a))
    b["actions"].append({"n": 300, "text": "新"})
    b["clock"] = 2
    p = jpatch.dumps(jpatch.diff(b, a))
    assert len(p) < 80, p
    assert jpatch.apply(json.loads(p), b) == a


@settings(max_examples=300, deadline=None)
@given(
    st.lists(json_values, min_size=1, max_size=12),
    st.lists(json_values, max_size=4),
    st.integers(0, 6),
    st.booleans(),
)
def test_patch_of_a_sliding_window_is_small_and_exact(
    items: list[Any], new: list[Any], shift: int, left: bool
) -> None:
    """A capped log (new entries at one end, the oldest dropped) is patched as a window of the
    old list, both ways: the patch holds the new entries, not the whole list."""
    a = {"log": [{"n": i, "v": v} for i, v in enumerate(items)], "k": 1}
    fresh = [{"n": 100 + i, "v": v} for i, v in enumerate(new)]
    log = a["log"][shift:] + fresh if left else fresh + a["log"][: len(a["log"]) - shift]
    b = {"log": json.loads(json.dumps(log)), "k": 1}
    for x, y in ((a, b), (b, a)):
        x_text, y_text = jpatch.dumps(x), jpatch.dumps(y)
        p = jpatch.diff_exact(x, y)
        got = jpatch.apply(json.loads(jpatch.dumps(p)), json.loads(x_text))
        assert jpatch.dumps(got) == y_text
        kept = len(a["log"]) - shift
        if kept > 4 and shift and fresh:  # (a few changed items of a short list: item patches)
            assert len(jpatch.dumps(p)) < len(jpatch.dumps(y["log"])), p


def test_sliding_log_of_a_combat_is_patched_by_its_new_entries() -> None:
    """D20's combat keeps its last events (``LOG_DEPTH``): ``.init next`` adds a few and drops as
    many; its log row holds those, not the whole log (6.5 KB per turn before)."""
    before = {
        "round": 2,
        "log": [{"kind": "turn", "tick": t, "data": {"cid": f"c{t}", "cur": t}} for t in range(60)],
    }
    after = {
        "round": 2,
        "log": before["log"][2:] + [{"kind": "turn_end", "tick": 99, "data": {"cid": "c9"}}] * 2,
    }
    p = jpatch.diff_exact(after, before)  # the reverse patch the log stores
    assert p == {"d": {"log": {"l": 60, "w": [0, 58], "b": before["log"][:2], "a": []}}}
    assert jpatch.apply(json.loads(jpatch.dumps(p)), json.loads(jpatch.dumps(after))) == before


def _step(rng: random.Random, state: dict[str, Any] | None, k: int) -> dict[str, Any] | None:
    state = json.loads(json.dumps(state)) if state else {"actors": [], "log": [], "clock": 0}
    choice = rng.randrange(6)
    if choice == 0 or not state["actors"]:
        state["actors"].append({"name": f"甲{k}", "hp": 10, "buffs": {}})
    elif choice == 1:
        actor = rng.choice(state["actors"])
        actor["hp"] = actor["hp"] - rng.choice([1, 0.5])
    elif choice == 2:
        actor = rng.choice(state["actors"])
        actor["buffs"][f"b{k}"] = k
        if len(actor["buffs"]) > 2:
            del actor["buffs"][next(iter(actor["buffs"]))]
    elif choice == 3 and len(state["actors"]) > 1:
        state["actors"].pop(rng.randrange(len(state["actors"])))
    elif choice == 4:
        state["clock"] = float(state["clock"]) if isinstance(state["clock"], int) else int(state["clock"])
    state["log"].append(f"第{k}步")
    return state


async def test_undo_and_replay_are_exact_on_the_compact_log(any_store: Store) -> None:
    rng = random.Random(5)
    states: list[Any] = [None]
    for k in range(60):
        new = _step(rng, states[-1], k)
        await any_store.sessions.apply_session(
            "g", "tl", lambda _s, n=new: (n, None), user_id="u", command=f".x {k}"
        )
        states.append(new)
    history = await any_store.history.replay("g", "tl")
    assert [e.command for e, _b, _a in history] == [f".x {k}" for k in range(60)]
    for k, (_e, before, after) in enumerate(history):
        assert jpatch.dumps(before) == jpatch.dumps(states[k])
        assert jpatch.dumps(after) == jpatch.dumps(states[k + 1])
    for k in range(59, 49, -1):  # undo ten commands, each back to the exact state before it
        result = await any_store.history.undo("g")
        assert result is not None and result.command == f".x {k}"
        assert jpatch.dumps((await any_store.sessions.load_session("g", "tl"))[0]) == jpatch.dumps(states[k])
    # new commands after undos, then undo across them
    new = _step(rng, states[50], 99)
    await any_store.sessions.apply_session("g", "tl", lambda _s: (new, None), command=".x 99")
    assert (await any_store.history.undo("g")).command == ".x 99"
    assert (await any_store.history.undo("g")).command == ".x 49"
    assert jpatch.dumps((await any_store.sessions.load_session("g", "tl"))[0]) == jpatch.dumps(states[49])


async def test_log_grows_with_the_change_not_the_state(any_store: Store) -> None:
    big = {"actions": [{"n": i, "text": "一段很长的描述" * 5} for i in range(400)]}
    await any_store.sessions.apply_session("g", "tl", lambda _s: (big, None))
    for k in range(20):
        await any_store.sessions.apply_session(
            "g", "tl", lambda s, k=k: ({"actions": [*s["actions"], {"n": 400 + k, "text": "短"}]}, None)
        )

    async def log_bytes(tx: Any) -> Any:
        log = tables.session_log
        patch_size = sa.func.sum(sa.func.length(sa.cast(log.c.patch, sa.Text)))
        return await tx.one(sa.select(patch_size, sa.func.count()).where(log.c.before.is_(None)))

    size, rows = await any_store.db.read(log_bytes)
    assert rows == 21 and size < 21 * 100, size


async def test_prune_drops_ended_sessions_and_old_claims(any_store: Store) -> None:
    await any_store.sessions.apply_session("g1", "tl", lambda _s: ({"a": 1}, None))
    await any_store.sessions.apply_session("g1", "tl", lambda _s: (None, None))  # ended
    await any_store.sessions.apply_session("g2", "tl", lambda _s: ({"a": 1}, None))  # still running
    await any_store.groups.set_nickname("u", None, "x", claim=Claim("1", "m1"))
    assert await any_store.housekeeping.prune() == {"claims": 0, "leases": 0, "sessions": 0, "log_rows": 0}
    assert (await any_store.history.undo("g1")) is not None  # the end can still be undone within the grace
    await any_store.sessions.apply_session("g1", "tl", lambda _s: (None, None))
    later = SYSTEM.wall() + timedelta(days=8)
    got = await any_store.housekeeping.prune(now=later)
    assert got == {"claims": 1, "leases": 0, "sessions": 1, "log_rows": 3}
    assert (
        await any_store.history.session_log("g1") == []
        and len(await any_store.history.session_log("g2")) == 1
    )
    assert await any_store.history.undo("g1") is None


async def test_database_from_main_b61d402_is_migrated_and_undo_still_works(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    shutil.copy(FIXTURES / "main_b61d402.db", db)
    before_size = db.stat().st_size
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.migrate()
    try:
        con = sqlite3.connect(db)
        full = con.execute("SELECT count(*) FROM session_log WHERE before IS NOT NULL").fetchone()[0]
        patched = con.execute("SELECT count(*) FROM session_log WHERE patch IS NOT NULL").fetchone()[0]
        con.close()
        assert patched > 30 and full <= 3, (patched, full)
        # half, give or take the pages of tables later migrations create empty (0007: 2 pages)
        assert db.stat().st_size < before_size / 2 + 3 * 4096, (db.stat().st_size, before_size)
        await _undo_matches_the_old_code(store)
    finally:
        await store.close()


async def _undo_matches_the_old_code(store: Store) -> None:
    """``.undo`` on the migrated database gives what b61d402's own ``.undo`` gave, step by step."""
    expected = json.loads((FIXTURES / "main_b61d402.expected.json").read_text())
    for step in expected:
        result = await store.history.undo("30003")
        assert result is not None and result.command == step["command"]
        assert list(result.restored_characters) == step["restored"]
        state, _v = await store.sessions.load_session("30003", "timeline")
        assert state == step["state"]
        chars = [await store.characters.get_character(i) for i in range(1, 5)]
        assert {c.name: c.attributes for c in chars if c} == step["attributes"]
    # the ended battle of the other group: its end can be undone, back to the battle
    result = await store.history.undo("30004")
    assert result is not None and result.command == ".bat end" and result.state is not None


def _sqlite_rows(db: Path, table: str) -> list[dict[str, Any]]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in con.execute(f'SELECT * FROM "{table}"')]
    finally:
        con.close()


async def test_postgres_database_from_main_b61d402_is_migrated(own_pg_url: str) -> None:
    """The same old data, as that code wrote it on PostgreSQL (schema at revision 0002, whole
    states in the log), is converted by the migration and ``.undo`` still gives the same steps."""
    from sqlalchemy import JSON, Boolean, DateTime, MetaData, text
    from sqlalchemy.ext.asyncio import create_async_engine

    from chronodice.store.migrate import upgrade_sync

    engine = create_async_engine(own_pg_url)
    async with engine.begin() as conn:
        for table in (  # (a database of its own: nothing to drop, kept as a guard)
            "alembic_version",
            "session_log",
            "sessions",
            "pending",
            "nicknames",
            "groups",
            "group_gms",
            "characters",
            "bindings",
            "claims",
            "bot_leases",
        ):
            await conn.execute(text(f'DROP TABLE IF EXISTS "{table}" CASCADE'))
        await conn.run_sync(upgrade_sync, "0002")
        meta = MetaData()
        await conn.run_sync(meta.reflect)
        for table in meta.sorted_tables:
            if table.name == "alembic_version":
                continue
            rows = _sqlite_rows(FIXTURES / "main_b61d402.db", table.name)
            for row in rows:
                for col in table.columns:
                    v = row.get(col.name)
                    if v is None:
                        continue
                    if isinstance(col.type, JSON):
                        row[col.name] = json.loads(v)
                    elif isinstance(col.type, DateTime):
                        row[col.name] = datetime.fromisoformat(v).replace(tzinfo=timezone.utc)
                    elif isinstance(col.type, Boolean):
                        row[col.name] = bool(v)
            if rows:
                await conn.execute(table.insert(), rows)
            if "id" in table.columns and rows:
                await conn.execute(
                    text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), :n)"),
                    {"n": max(r["id"] for r in rows)},
                )
        old_log = (await conn.execute(text("SELECT count(*) FROM session_log"))).scalar_one()
    await engine.dispose()
    assert old_log > 30
    store = Store(own_pg_url)
    await store.migrate()
    try:
        engine = create_async_engine(own_pg_url)
        async with engine.connect() as conn:
            full = (
                await conn.execute(text("SELECT count(*) FROM session_log WHERE before IS NOT NULL"))
            ).scalar_one()
            patched = (
                await conn.execute(text("SELECT count(*) FROM session_log WHERE patch IS NOT NULL"))
            ).scalar_one()
        await engine.dispose()
        assert patched > 30 and full <= 3, (patched, full)
        await _undo_matches_the_old_code(store)
    finally:
        await store.close()
