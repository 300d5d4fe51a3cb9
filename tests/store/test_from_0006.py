"""A database written by the store of cd38824 (schema 0006, whole battle states) is migrated,
on SQLite and on PostgreSQL, and ``.undo`` across the migration gives, step by step, what that
code's own ``.undo`` gave: the command undone, the cards put back, the session state (the same
JSON text), every character's attributes.

The fixture ``main_cd38824.db`` and ``main_cd38824.expected.json`` were made by
``fixtures/make_main_cd38824_db.py`` with that commit's code: a TimeLine battle in group 30003
(four characters, 26 declarations, ``.bat 开始``, a control effect, a cancel, two recorded hits,
an ``.undo``, a card edit) and a D20 combat in group 30005 (initiative, six turns).  With
``new_command``, one more ``.bat`` declaration is sent through the new code first (a battle
stored whole moves its lists into ``session_rows`` on its first command), then undone, then
the old sequence follows.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from chronodice.app import App
from chronodice.core.context import Context
from chronodice.core.ratelimit import FloodSettings
from chronodice.store import Store

FIXTURES = Path(__file__).parent / "fixtures"
OLD_DB = FIXTURES / "main_cd38824.db"
TL_GROUP = "30003"
NEW_COMMAND = ".bat 角色2:力量 30 >NPC1 迁移后"
"""The GM queues 角色2's next action (its own still winds up: a player may not, issue 39)."""
OLD_HEAD = "0006_session_notify"


def _text(value: Any) -> str:
    """The JSON text a value is compared by: key order and 1 against 1.0 count."""
    return json.dumps(value, ensure_ascii=False)


async def _characters(store: Store) -> dict[str, Any]:
    """Every card as the generator recorded them: id → name and attributes."""
    out: dict[str, Any] = {}
    for i in range(1, 20):
        c = await store.get_character(i)
        if c is not None:
            out[str(i)] = {"name": c.name, "attributes": c.attributes}
    return out


async def _has_session_rows(store: Store) -> bool:
    """Whether the battle's lists are in ``session_rows`` (true too on a schema without it)."""
    from sqlalchemy import inspect, text

    async with store.engine.connect() as conn:
        tables = await conn.run_sync(lambda c: inspect(c).get_table_names())
        if "session_rows" not in tables:
            return True
        q = text("SELECT count(*) FROM session_rows WHERE scope = :s")
        return (await conn.execute(q, {"s": TL_GROUP})).scalar_one() > 0


async def _new_command_then_undo(store: Store) -> None:
    """One ``.bat`` through the new code on the battle stored whole, then its ``.undo``: the state
    is the one before it again, text for text."""
    before, _v = await store.load_session(TL_GROUP, "timeline")
    app = App(store, random.Random(7), flood=FloodSettings(enabled=False))
    ctx = Context(
        user_id="10009", group_id=TL_GROUP, sender_name="GM", roles=frozenset({"owner"}), self_id="123456"
    )
    reply = "\n".join(r.text for r in await app.dispatch(ctx, NEW_COMMAND))
    assert "行动#26 角色2" in reply, reply
    assert await _has_session_rows(store)
    result = await store.undo(TL_GROUP)
    assert result is not None and result.command == NEW_COMMAND
    state, _v = await store.load_session(TL_GROUP, "timeline")
    assert state == before and _text(state) == _text(before)


async def _undo_matches_the_old_code(store: Store) -> None:
    """Each group's ``.undo`` down to nothing, compared with what cd38824 gave at each step."""
    expected = json.loads((FIXTURES / "main_cd38824.expected.json").read_text())
    assert [len(v["steps"]) for v in expected.values()] == [30, 11]
    for group, plan in expected.items():
        for n, step in enumerate(plan["steps"]):
            where = f"{group} step {n}: {step['command']}"
            result = await store.undo(group)
            assert result is not None and result.command == step["command"], where
            assert list(result.restored_characters) == step["restored"], where
            assert list(result.stale_characters) == step["stale"], where
            state, _v = await store.load_session(group, plan["system"])
            assert state == step["state"], where
            assert _text(state) == _text(step["state"]), where
            assert await _characters(store) == step["characters"], where
        assert await store.undo(group) is None, group


async def _check(store: Store, new_command: bool) -> None:
    if new_command:
        await _new_command_then_undo(store)
    await _undo_matches_the_old_code(store)


@pytest.mark.parametrize("new_command", [False, True], ids=["undo", "new_command_then_undo"])
async def test_sqlite_database_from_main_cd38824(tmp_path: Path, new_command: bool) -> None:
    db = tmp_path / "old.db"
    shutil.copy(OLD_DB, db)
    con = sqlite3.connect(db)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone() == (OLD_HEAD,)
    con.close()
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.migrate()
    try:
        await _check(store, new_command)
    finally:
        await store.close()


def _sqlite_rows(table: str) -> tuple[list[str], list[dict[str, Any]]]:
    con = sqlite3.connect(OLD_DB)
    con.row_factory = sqlite3.Row
    try:
        cur = con.execute(f'SELECT * FROM "{table}"')
        return [d[0] for d in cur.description], [dict(r) for r in cur]
    finally:
        con.close()


async def _postgres_at_0006(url: str) -> int:
    """Schema 0006 by Alembic, then every row of the SQLite fixture copied in: JSON columns as
    the text SQLite holds (SQL NULL stays NULL), datetimes as UTC, booleans as booleans; serial
    ids continue after the copied ones.  Returns the number of log rows copied."""
    from sqlalchemy import JSON, Boolean, DateTime, MetaData, text
    from sqlalchemy.ext.asyncio import create_async_engine

    from chronodice.store.migrate import upgrade_sync

    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(upgrade_sync, OLD_HEAD)
            meta = MetaData()
            await conn.run_sync(meta.reflect)
            assert "session_rows" not in meta.tables
            for table in meta.sorted_tables:
                if table.name == "alembic_version":
                    continue
                names, rows = _sqlite_rows(table.name)
                assert set(names) == set(table.columns.keys()), table.name
                if not rows:
                    continue
                values = []
                for col in names:
                    kind = table.columns[col].type
                    values.append(f"CAST(:{col} AS JSON)" if isinstance(kind, JSON) else f":{col}")
                    for row in rows:
                        v = row[col]
                        if v is not None and isinstance(kind, DateTime):
                            row[col] = datetime.fromisoformat(v).replace(tzinfo=timezone.utc)
                        elif v is not None and isinstance(kind, Boolean):
                            row[col] = bool(v)
                columns = ", ".join(f'"{c}"' for c in names)
                await conn.execute(
                    text(f'INSERT INTO "{table.name}" ({columns}) VALUES ({", ".join(values)})'), rows
                )
                if "id" in names:
                    await conn.execute(
                        text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), :n)"),
                        {"n": max(r["id"] for r in rows)},
                    )
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
            assert version == OLD_HEAD
            return (await conn.execute(text("SELECT count(*) FROM session_log"))).scalar_one()
    finally:
        await engine.dispose()


@pytest.mark.parametrize("new_command", [False, True], ids=["undo", "new_command_then_undo"])
async def test_postgres_database_from_main_cd38824(own_pg_url: str, new_command: bool) -> None:
    """The same data as that code would hold on PostgreSQL (schema 0006), migrated by the store."""
    assert await _postgres_at_0006(own_pg_url) == 42
    store = Store(own_pg_url)
    await store.migrate()
    try:
        await _check(store, new_command)
    finally:
        await store.close()
