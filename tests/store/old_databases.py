"""Databases written by an older main, migrated by the store of today: what the tests of them share
(``test_from_0006.py``, ``test_from_0007.py``).

Each fixture is a SQLite file the old code wrote (``fixtures/<name>.db``) and what that code's own
``.undo`` gave, step by step, group by group, until nothing was left (``<name>.expected.json``:
the command undone, the cards put back or found changed since, the session state, every
character's attributes), both made by ``fixtures/make_<name>_db.py`` with that commit's code.
The tests migrate the file (or the same rows copied into PostgreSQL at the old schema,
:func:`postgres_copy`) and check that ``.undo`` now gives the same (:func:`undo_as_recorded`),
also after one new command through today's code (:func:`new_command_then_undo`).
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from chronodice.app import App
from chronodice.core.context import Context
from chronodice.core.ratelimit import FloodSettings
from chronodice.store import Store

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class OldDatabase:
    """One fixture: ``fixtures/<name>.db`` at schema ``head``, and its expected ``.undo`` steps."""

    name: str
    head: str
    """The schema revision the old code wrote (``alembic_version``)."""
    steps: tuple[int, ...]
    """How many ``.undo`` steps each group of the expected file has, in its order."""

    @property
    def db(self) -> Path:
        return FIXTURES / f"{self.name}.db"

    @property
    def expected(self) -> dict[str, Any]:
        plans: dict[str, Any] = json.loads(
            (FIXTURES / f"{self.name}.expected.json").read_text(encoding="utf-8")
        )
        return plans

    def sqlite_head(self) -> str:
        """The fixture file's own schema revision."""
        con = sqlite3.connect(self.db)
        try:
            (head,) = con.execute("SELECT version_num FROM alembic_version").fetchone()
        finally:
            con.close()
        return str(head)


def json_text(value: Any) -> str:
    """The JSON text a value is compared by: key order and 1 against 1.0 count."""
    return json.dumps(value, ensure_ascii=False)


async def all_characters(store: Store) -> dict[str, Any]:
    """Every card as the generators recorded them: id → name and attributes."""
    out: dict[str, Any] = {}
    for i in range(1, 20):
        c = await store.characters.get_character(i)
        if c is not None:
            out[str(i)] = {"name": c.name, "attributes": c.attributes}
    return out


async def schema_head(store: Store) -> str:
    """The revision in ``alembic_version``."""
    from sqlalchemy import text

    row = await store.db.read(lambda tx: tx.one(text("SELECT version_num FROM alembic_version")))
    return str(row[0])


async def session_row_count(store: Store, scope: str) -> int:
    """How many items of ``scope``'s sessions are kept in ``session_rows`` (0 on a schema
    without that table)."""
    from sqlalchemy import inspect, text

    if "session_rows" not in await store.db.run_sync(lambda c: inspect(c).get_table_names()):
        return 0
    q = text("SELECT count(*) FROM session_rows WHERE scope = :s")
    return int((await store.db.read(lambda tx: tx.one(q, {"s": scope})))[0])


async def user_triggers(engine: AsyncEngine) -> list[str]:
    """The names of the PostgreSQL triggers not made by the server itself (foreign keys)."""
    from sqlalchemy import text

    async with engine.connect() as conn:
        q = text("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname")
        return [str(name) for name in (await conn.execute(q)).scalars()]


async def new_command_then_undo(store: Store, group: str, command: str, expect: str) -> None:
    """``command`` (a TimeLine ``.bat``) sent by a GM through today's code, its reply holding
    ``expect``, then its ``.undo``: the battle is the one before it again, text for text, and its
    lists are kept in ``session_rows``."""
    before, _v = await store.sessions.load_session(group, "timeline")
    assert before is not None
    app = App(store, random.Random(7), flood=FloodSettings(enabled=False))
    ctx = Context(
        user_id="10009", group_id=group, sender_name="GM", roles=frozenset({"owner"}), self_id="123456"
    )
    reply = "\n".join(r.text for r in await app.dispatch(ctx, command) or [])
    assert expect in reply, reply
    assert await session_row_count(store, group) > 0
    result = await store.history.undo(group)
    assert result is not None and result.command == command
    state, _v = await store.sessions.load_session(group, "timeline")
    assert state == before and json_text(state) == json_text(before)


async def undo_as_recorded(store: Store, old: OldDatabase) -> None:
    """Each group's ``.undo`` down to nothing, compared with what the old code gave at each step."""
    expected = old.expected
    assert tuple(len(v["steps"]) for v in expected.values()) == old.steps
    for group, plan in expected.items():
        for n, step in enumerate(plan["steps"]):
            where = f"{group} step {n}: {step['command']}"
            result = await store.history.undo(group)
            assert result is not None and result.command == step["command"], where
            assert list(result.restored_characters) == step["restored"], where
            assert list(result.stale_characters) == step["stale"], where
            state, _v = await store.sessions.load_session(group, plan["system"])
            assert state == step["state"], where
            assert json_text(state) == json_text(step["state"]), where
            assert await all_characters(store) == step["characters"], where
        assert await store.history.undo(group) is None, group


@contextlib.asynccontextmanager
async def sqlite_copy(old: OldDatabase, folder: Path) -> AsyncIterator[Store]:
    """A copy of ``old``'s SQLite file in ``folder``, opened and migrated by the store."""
    db = folder / "old.db"
    shutil.copy(old.db, db)
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.migrate()
    try:
        yield store
    finally:
        await store.close()


def sqlite_tables(db: Path) -> set[str]:
    """The tables of a SQLite file, its own (``sqlite_…``) left out."""
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return {str(name) for (name,) in rows}
    finally:
        con.close()


def sqlite_rows(db: Path, table: str) -> tuple[list[str], list[dict[str, Any]]]:
    """A table's column names and rows."""
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    try:
        cur = con.execute(f'SELECT * FROM "{table}"')
        return [d[0] for d in cur.description], [dict(r) for r in cur]
    finally:
        con.close()


async def _copy_rows(conn: AsyncConnection, db: Path) -> None:
    from sqlalchemy import JSON, Boolean, DateTime, MetaData, text

    meta = MetaData()
    await conn.run_sync(meta.reflect)
    assert set(meta.tables) == sqlite_tables(db), "the two schemas have different tables"
    for table in meta.sorted_tables:
        if table.name == "alembic_version":
            continue
        names, rows = sqlite_rows(db, table.name)
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
        await conn.execute(text(f'INSERT INTO "{table.name}" ({columns}) VALUES ({", ".join(values)})'), rows)
        if "id" in names:
            await conn.execute(
                text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), :n)"),
                {"n": max(r["id"] for r in rows)},
            )


async def postgres_copy(old: OldDatabase, url: str) -> int:
    """The old schema (``old.head``) by Alembic in the empty PostgreSQL database ``url``, then every
    row of the SQLite fixture copied in: the same tables on both sides, JSON columns as the text
    SQLite holds (SQL NULL stays NULL), datetimes as UTC, booleans as booleans; serial ids continue
    after the copied ones.  Returns the number of ``session_log`` rows copied."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from chronodice.store.migrate import upgrade_sync

    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(upgrade_sync, old.head)
            await _copy_rows(conn, old.db)
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
            assert version == old.head
            return int((await conn.execute(text("SELECT count(*) FROM session_log"))).scalar_one())
    finally:
        await engine.dispose()
