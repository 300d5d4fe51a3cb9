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
the old sequence follows.  What this test shares with ``test_from_0007.py`` is in
``old_databases.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from store.old_databases import (
    OldDatabase,
    new_command_then_undo,
    postgres_copy,
    sqlite_copy,
    undo_as_recorded,
)

from chronodice.store import Store

OLD = OldDatabase("main_cd38824", head="0006_session_notify", steps=(30, 11))
TL_GROUP = "30003"
NEW_COMMAND = ".bat 角色2:力量 30 >NPC1 迁移后"
"""The GM queues 角色2's next action (its own still winds up: a player may not, issue 39)."""


async def _check(store: Store, new_command: bool) -> None:
    if new_command:
        await new_command_then_undo(store, TL_GROUP, NEW_COMMAND, expect="行动#26 角色2")
    await undo_as_recorded(store, OLD)


@pytest.mark.parametrize("new_command", [False, True], ids=["undo", "new_command_then_undo"])
async def test_sqlite_database_from_main_cd38824(tmp_path: Path, new_command: bool) -> None:
    assert OLD.sqlite_head() == OLD.head
    async with sqlite_copy(OLD, tmp_path) as store:
        await _check(store, new_command)


@pytest.mark.parametrize("new_command", [False, True], ids=["undo", "new_command_then_undo"])
async def test_postgres_database_from_main_cd38824(own_pg_url: str, new_command: bool) -> None:
    """The same data as that code would hold on PostgreSQL (schema 0006), migrated by the store."""
    assert await postgres_copy(OLD, own_pg_url) == 42
    store = Store(own_pg_url)
    await store.migrate()
    try:
        await _check(store, new_command)
    finally:
        await store.close()
