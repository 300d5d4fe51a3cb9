"""The store on a real SQLite file and a real PostgreSQL server."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from helpers import eventually

from chronodice.core.clock import SYSTEM
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.store import Claim, DuplicateEvent, Store, tables
from chronodice.store.models import Base


async def test_migrations_match_models(any_store: Store) -> None:
    def diff(sync_conn):  # type: ignore[no-untyped-def]
        return compare_metadata(MigrationContext.configure(sync_conn), Base.metadata)

    assert await any_store.db.run_sync(diff) == []


async def test_migrate_twice_is_harmless(any_store: Store) -> None:
    await any_store.migrate()
    c = await any_store.characters.create_character("1", "甲")
    assert (await any_store.characters.get_character(c.id)) == c


async def test_character_crud_and_binding(any_store: Store) -> None:
    s = any_store
    a = await s.characters.create_character("u1", "艾拉", attributes={"力量": 60})
    b = await s.characters.create_character("u1", "布鲁")
    with pytest.raises(IllegalAction):
        await s.characters.create_character("u1", "艾拉")
    assert [c.name for c in await s.characters.list_characters("u1")] == ["艾拉", "布鲁"]
    assert await s.characters.active_character("u1", "g1") is None
    await s.characters.bind("u1", "", a.id)
    assert (await s.characters.active_character("u1", "g1")).id == a.id  # falls back to default
    await s.characters.bind("u1", "g1", b.id)
    assert (await s.characters.active_character("u1", "g1")).id == b.id
    assert (await s.characters.active_character("u1", "g2")).id == a.id
    up = await s.characters.update_character(
        a.id, lambda c: replace(c, attributes={**c.attributes, "敏捷": 50})
    )
    assert up.attributes == {"力量": 60, "敏捷": 50} and up.version == a.version + 1
    assert await s.characters.delete_character(b.id)
    assert (await s.characters.active_character("u1", "g1")).id == a.id
    with pytest.raises(NotFound):
        await s.characters.update_character(b.id, lambda c: c)


async def test_update_abort_writes_nothing(any_store: Store) -> None:
    c = await any_store.characters.create_character("u", "x", attributes={"a": 1})

    def boom(rec):
        raise IllegalAction("不行")

    with pytest.raises(IllegalAction):
        await any_store.characters.update_character(c.id, boom)
    assert (await any_store.characters.get_character(c.id)).attributes == {"a": 1}


async def test_concurrent_updates_lose_nothing(any_store: Store) -> None:
    c = await any_store.characters.create_character("u", "x", attributes={"n": 0})

    async def bump(i: int) -> None:
        await any_store.characters.update_character(
            c.id, lambda r: replace(r, attributes={**r.attributes, "n": r.attributes["n"] + 1, f"k{i}": i})
        )

    await asyncio.gather(*(bump(i) for i in range(60)))
    final = await any_store.characters.get_character(c.id)
    assert final.attributes["n"] == 60
    assert all(final.attributes[f"k{i}"] == i for i in range(60))


async def test_two_processes_updating_one_card_lose_nothing_and_claim_once(any_store: Store) -> None:
    """On PostgreSQL a cached card is written in one statement that checks its version and
    claims the event; a stale cache falls back to the locked read."""
    other = Store(any_store.url)
    await other.migrate()
    try:
        c = await any_store.characters.create_character("u", "x", attributes={"n": 0})
        await any_store.characters.create_character("u", "y")
        for s in (any_store, other):
            await s.characters.get_character(c.id)  # cached in both

        def bump(r):
            return replace(r, attributes={**r.attributes, "n": r.attributes["n"] + 1})

        async def bumps(s: Store) -> None:
            for _ in range(10):
                await s.characters.update_character(c.id, bump)

        await asyncio.gather(*(bumps(s) for s in (any_store, other) for _ in range(5)))
        for s in (any_store, other):
            got = await eventually(
                lambda s=s: s.characters.get_character(c.id), lambda r: r.attributes["n"] == 100
            )
            assert got.attributes["n"] == 100
        await any_store.characters.update_character(c.id, bump, claim=Claim("10001", "card-1"))
        for s in (any_store, other):
            with pytest.raises(DuplicateEvent):
                await s.characters.update_character(c.id, bump, claim=Claim("10001", "card-1"))
        with pytest.raises(IllegalAction, match="同名"):
            await other.characters.update_character(c.id, lambda r: replace(r, name="y"))
        for s in (any_store, other):
            got = await eventually(lambda s=s: s.characters.get_character(c.id), lambda r: r.version == 102)
            assert got.attributes["n"] == 101 and got.name == "x" and got.version == 102
    finally:
        await other.close()


async def test_session_apply_undo_and_log(any_store: Store) -> None:
    s = any_store

    def add(n):
        def fn(state):
            state = state or {"items": []}
            return {"items": [*state["items"], n]}, len(state["items"]) + 1

        return fn

    assert await s.sessions.apply_session("g", "tl", add(1), user_id="a", command=".x 1") == 1
    assert await s.sessions.apply_session("g", "tl", add(2), user_id="b", command=".x 2") == 2
    assert await s.sessions.apply_session("g", "tl", lambda st: (st, "same")) == "same"  # no write
    state, version = await s.sessions.load_session("g", "tl")
    assert state == {"items": [1, 2]} and version == 2
    log = await s.history.session_log("g")
    assert [e.command for e in log] == [".x 1", ".x 2"]
    undone = await s.history.undo("g")
    assert undone is not None and undone.command == ".x 2" and undone.state == {"items": [1]}
    assert (await s.sessions.load_session("g", "tl"))[0] == {"items": [1]}
    assert (await s.history.undo("g")).command == ".x 1"
    assert (await s.sessions.load_session("g", "tl"))[0] is None
    assert await s.history.undo("g") is None


async def test_concurrent_session_commands_serialise(any_store: Store) -> None:
    def push(i):
        def fn(state):
            state = state or {"seq": []}
            return {"seq": [*state["seq"], i]}, None

        return fn

    await asyncio.gather(*(any_store.sessions.apply_session("g", "t", push(i)) for i in range(40)))
    state, version = await any_store.sessions.load_session("g", "t")
    assert sorted(state["seq"]) == list(range(40)) and version == 40


async def test_groups_gms_nicknames_pending(any_store: Store) -> None:
    s = any_store
    g = await s.groups.get_group("g1")
    assert g.enabled and g.settings == {} and g.gms == ()
    await s.groups.set_enabled("g1", False)
    await s.groups.update_group_settings("g1", lambda st: {**st, "default_die": 20})
    assert await s.groups.add_gm("g1", "u2")
    assert not await s.groups.add_gm("g1", "u2")
    g = await s.groups.get_group("g1")
    assert (g.enabled, g.settings, g.gms) == (False, {"default_die": 20}, ("u2",))
    assert await s.groups.remove_gm("g1", "u2")
    await s.groups.set_nickname("u", None, "全局")
    await s.groups.set_nickname("u", "g1", "群内")
    assert await s.groups.get_nickname("u", "g1") == "群内"
    assert await s.groups.get_nickname("u", "g2") == "全局"
    await s.groups.set_nickname("u", "g1", None)
    assert await s.groups.get_nickname("u", "g1") == "全局"
    await s.housekeeping.put_pending("k", {"a": 1}, ttl=60)
    assert await s.housekeeping.take_pending("k") == {"a": 1}
    assert await s.housekeeping.take_pending("k") is None
    await s.housekeeping.put_pending("old", {"a": 1}, ttl=-1)
    assert await s.housekeeping.take_pending("old") is None


async def test_a_users_first_view_reads_everything_at_once_and_right(any_store: Store) -> None:
    s = any_store
    a = await s.characters.create_character("u", "甲", attributes={"力量": 60})
    b = await s.characters.create_character("u", "乙")
    await s.characters.bind("u", "", a.id)
    await s.characters.bind("u", "g1", b.id)
    await s.characters.bind("u", "g3", 999_999)  # a card deleted since: falls back to the default
    await s.groups.set_nickname("u", None, "全局")
    await s.groups.set_nickname("u", "g1", "群内")
    fresh = Store(s.url)  # nothing cached
    await fresh.migrate()
    try:
        for scope, nick, card in (("g1", "群内", "乙"), ("g2", "全局", "甲"), ("g3", "全局", "甲")):
            v = await fresh.groups.view("u", scope, scope)
            assert (v.nickname, v.character.name if v.character else None) == (nick, card)
        v = await fresh.groups.view("nobody", "g1", "g1")
        assert (v.nickname, v.character) == (None, None)
        up = await fresh.characters.update_character(a.id, lambda r: replace(r, attributes={"力量": 61}))
        assert (await s.groups.view("u", "g2", "g2")).character.attributes == {"力量": 61} == up.attributes
    finally:
        await fresh.close()


async def test_postgres_compresses_session_states_with_lz4(pg_store: Store) -> None:
    """A state is rewritten on every command; lz4 compresses it for TOAST in a fraction of
    pglz's time (migration 0005; the servers here are built with lz4)."""
    from sqlalchemy import text

    async with pg_store.db.engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT attrelid::regclass::text, attname::text, attcompression::text FROM pg_attribute"
                " WHERE (attrelid, attname) IN (('sessions'::regclass, 'state'), ('session_log'::regclass, 'before'))"
                " ORDER BY 1"
            )
        )
        assert [tuple(r) for r in rows] == [("session_log", "before", "l"), ("sessions", "state", "l")]


async def test_sqlite_is_wal(tmp_path: Path) -> None:
    s = Store(f"sqlite+aiosqlite:///{tmp_path / 'sub' / 'w.db'}")
    await s.migrate()
    mode = s.db.sqlite_outside("PRAGMA journal_mode")[0][0]
    await s.close()
    assert mode == "wal"


async def test_undo_puts_back_cards_the_command_changed(any_store: Store) -> None:
    s = any_store
    c = await s.characters.create_character("u", "甲", attributes={"体力": 150})
    hurt = await s.characters.update_character(c.id, lambda r: replace(r, attributes={"体力": 120}))
    await s.sessions.apply_session(
        "g", "tl", lambda st: ({"log": ["hp -30"]}, None), characters_before=[(c, hurt.version)]
    )
    result = await s.history.undo("g")
    assert result is not None and result.restored_characters == ("甲",) and result.stale_characters == ()
    back = await s.characters.get_character(c.id)
    assert back.attributes == {"体力": 150} and back.version == hurt.version + 1
    # changed again since the command: the card is left alone and reported
    hurt = await s.characters.update_character(c.id, lambda r: replace(r, attributes={"体力": 100}))
    await s.sessions.apply_session(
        "g", "tl", lambda st: ({"log": ["hp -50"]}, None), characters_before=[(back, hurt.version)]
    )
    await s.characters.update_character(c.id, lambda r: replace(r, attributes={"体力": 90}))
    result = await s.history.undo("g")
    assert result.stale_characters == ("甲",) and (await s.characters.get_character(c.id)).attributes == {
        "体力": 90
    }


async def test_old_database_is_upgraded_at_start(tmp_path: Path) -> None:
    """A database created by the first release (revision 0001) is migrated without asking."""
    from chronodice.store.migrate import upgrade_sync

    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    old = Store(url)
    await old.db.run_sync(lambda c: upgrade_sync(c, "0001"), commit=True)
    await old.close()
    new = Store(url)
    await new.migrate()
    await new.sessions.apply_session("g", "x", lambda st: ({"a": 1}, None))
    assert (await new.history.undo("g")) is not None
    await new.close()


async def test_a_write_transaction_is_all_or_nothing(any_store: Store) -> None:
    """A write transaction's statements commit together or not at all (on PostgreSQL the engine
    is in AUTOCOMMIT for reads and one-statement writes; transactions must not be)."""
    pending = tables.pending
    probe = pending.c.key == "all-or-nothing"

    async def count() -> int:
        async def body(tx: Any) -> int:
            row = await tx.one(sa.select(sa.func.count()).select_from(pending).where(probe))
            return int(row[0])

        return await any_store.db.read(body)

    with pytest.raises(RuntimeError):
        async with any_store.db.tx(True) as tx:
            row = {"key": "all-or-nothing", "value": "{}", "expires_at": SYSTEM.wall()}
            await tx.run(sa.insert(pending).values(row))
            assert await tx.one(sa.select(sa.func.count()).select_from(pending).where(probe)) == (1,)
            raise RuntimeError("the command failed after its first statement")
    assert await count() == 0


async def test_the_view_reads_the_group_its_gms_and_its_log_in_one_statement(any_store: Store) -> None:
    """``groups.view``: the group's switch and settings, its GMs, the log in progress (recording
    or paused; none once ended), and the user's part — or the group's
    part alone (no user)."""
    s = any_store
    await s.groups.update_group_settings("g9", lambda st: {**st, "mode": "coc7"})
    await s.groups.add_gm("g9", "gm2")
    await s.groups.add_gm("g9", "gm1")
    await s.groups.set_nickname("u", "g9", "小艾")
    v = await s.groups.view("u", "g9", "g9")
    assert (v.group.settings, v.group.gms, v.group.enabled, v.log) == (
        {"mode": "coc7"},
        ("gm1", "gm2"),
        True,
        None,
    )  # type: ignore[union-attr]
    first = await s.logs.new_log(
        "g9", "第一夜", "gm1", datetime(2026, 11, 28, tzinfo=timezone.utc), max_logs=10
    )
    v = await s.groups.view(None, "g9", "g9")
    assert (v.log.id, v.log.name, v.log.recording, v.nickname, v.character) == (
        first.id,
        "第一夜",
        True,
        None,
        None,
    )  # type: ignore[union-attr]
    await s.logs.set_log_recording("g9", False)
    assert (await s.groups.view("u", "g9", "g9")).log.recording is False  # type: ignore[union-attr]
    await s.logs.end_log("g9", datetime(2026, 11, 29, tzinfo=timezone.utc))
    v = await s.groups.view("u", "g9", "g9")
    assert (v.log, v.nickname) == (None, "小艾")
    unknown = await s.groups.view("u", "g0", "g0")  # a group with no row: the defaults
    assert (unknown.group.enabled, unknown.group.settings, unknown.group.gms, unknown.log) == (
        True,
        {},
        (),
        None,
    )  # type: ignore[union-attr]
