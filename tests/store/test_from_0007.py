"""A database written by the store of 3438b86 (schema 0007: a TimeLine battle's ``actions`` and
``events`` kept one item per row in ``session_rows``, a ``{"$rows": n}`` placeholder in
``sessions.state``) is migrated to today's head, on SQLite and on PostgreSQL, and ``.undo``
across the migration gives, step by step, what that code's own ``.undo`` gave: the command
undone, the cards put back or found changed since, the session state (the same JSON text), every
character's attributes.  On PostgreSQL the migration drops 0006's notify triggers.

The fixture ``main_3438b86.db`` and ``main_3438b86.expected.json`` were made by
``fixtures/make_main_3438b86_db.py`` with that commit's code: a TimeLine battle in group 30003
(four characters, 26 declarations, ``.bat 开始``, a control effect, a cancel, two recorded hits,
an ``.undo``, a card edit; once the battle runs, the GM declares by name for a player whose own
action still winds up), a D20 combat in group 30005 (initiative, six turns, a card change) and a
无限恐怖 exchange in group 30007 (a plain JSON session: a defence, an attack on it, the
defender's next action).  With ``new_command``, one more ``.bat`` declaration is sent through
today's code first, then undone, then the old sequence follows.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from store.old_databases import (
    OldDatabase,
    new_command_then_undo,
    postgres_copy,
    schema_head,
    sqlite_copy,
    undo_as_recorded,
    user_triggers,
)

from chronodice.store import Store

OLD = OldDatabase("main_3438b86", head="0007_session_rows", steps=(30, 11, 4))
NEW_HEAD = "0008_no_cache_triggers"
TL_GROUP = "30003"
NEW_COMMAND = ".bat 角色2:力量 30 >NPC1 迁移后"
"""The GM queues 角色2's next action (its own still winds up: a player may not, issue 39)."""
NOTIFY_TRIGGERS = [
    f"{table}_notify"
    for table in ("bindings", "characters", "game_logs", "group_gms", "groups", "nicknames", "sessions")
]
"""What 0003, 0004 and 0006 made PostgreSQL announce writes with (sorted)."""


def test_the_fixture_keeps_the_battle_in_session_rows() -> None:
    """What makes this fixture differ from cd38824's: the battle's lists are rows, its head has
    their placeholders."""
    assert OLD.sqlite_head() == OLD.head
    con = sqlite3.connect(OLD.db)
    try:
        fields = dict(
            con.execute(
                "SELECT field, count(*) FROM session_rows WHERE scope = ? AND system = 'timeline' "
                "GROUP BY field",
                (TL_GROUP,),
            ).fetchall()
        )
        (head,) = con.execute(
            "SELECT state FROM sessions WHERE scope = ? AND system = 'timeline'", (TL_GROUP,)
        ).fetchone()
    finally:
        con.close()
    assert fields == {"actions": 25, "events": 8}
    state = json.loads(head)
    assert (state["actions"], state["events"]) == ({"$rows": 25}, {"$rows": 8})


async def _check(store: Store, new_command: bool) -> None:
    assert await schema_head(store) == NEW_HEAD
    if new_command:
        await new_command_then_undo(store, TL_GROUP, NEW_COMMAND, expect="行动#26 角色2")
    await undo_as_recorded(store, OLD)


@pytest.mark.parametrize("new_command", [False, True], ids=["undo", "new_command_then_undo"])
async def test_sqlite_database_from_main_3438b86(tmp_path: Path, new_command: bool) -> None:
    async with sqlite_copy(OLD, tmp_path) as store:
        await _check(store, new_command)


@pytest.mark.parametrize("new_command", [False, True], ids=["undo", "new_command_then_undo"])
async def test_postgres_database_from_main_3438b86(own_pg_url: str, new_command: bool) -> None:
    """The same data as that code would hold on PostgreSQL (schema 0007, ``session_rows`` too),
    migrated by the store: its notify triggers are gone."""
    assert await postgres_copy(OLD, own_pg_url) == 46
    store = Store(own_pg_url)
    try:
        assert [t for t in await user_triggers(store.db.engine) if t.endswith("_notify")] == NOTIFY_TRIGGERS
        await store.migrate()
        assert not [t for t in await user_triggers(store.db.engine) if t.endswith("_notify")]
        await _check(store, new_command)
    finally:
        await store.close()
