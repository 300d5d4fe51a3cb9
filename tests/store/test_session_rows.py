"""What only grows in a session is stored as rows (``session_rows``, migration 0007): a command
writes the items it added or changed, readers get the whole state back, ``.undo`` is exact, and
a state written whole before the upgrade moves into rows on its next command."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from helpers import say

from chronodice.app import App
from chronodice.core.ratelimit import FloodSettings
from chronodice.services.moe._common import ROWS
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.store import Store, tables
from chronodice.store import patch as jpatch
from chronodice.store import session_rows as srows


@dataclass(frozen=True)
class Log:
    entries: tuple[dict[str, Any], ...] = ()
    turn: int = 0


class LogCodec:
    """A state with one list kept as rows."""

    system = "rowlog"
    immutable = True
    row_fields = ("entries",)

    def decode(self, text: str) -> Log:
        d = json.loads(text)
        return Log(tuple(d["entries"]), d["turn"])

    def encode(self, state: Log, prev: tuple[Log, Any] | None) -> dict[str, Any]:
        return {"entries": list(state.entries), "turn": state.turn}


LOG = LogCodec()


def append(n: int) -> Any:
    def fn(s: Log | None) -> tuple[Log, None]:
        s = s or Log()
        return replace(s, entries=(*s.entries, {"n": n, "text": f"第{n}条"}), turn=s.turn + 1), None

    return fn


def edit(i: int, text: str) -> Any:
    def fn(s: Log | None) -> tuple[Log, None]:
        assert s is not None
        entries = list(s.entries)
        entries[i] = {**entries[i], "text": text}
        return replace(s, entries=tuple(entries), turn=s.turn + 1), None

    return fn


async def stored(store: Store, scope: str, system: str) -> tuple[Any, dict[str, list[str]]]:
    async def body(tx: Any) -> Any:
        s = tables.sessions
        row = await tx.one(
            sa.select(sa.cast(s.c.state, sa.Text)).where(s.c.scope == scope, s.c.system == system)
        )
        return (json.loads(row[0]) if row and row[0] else None), await srows.read_items(tx, scope, system)

    return await store.db.read(body)


async def test_a_command_writes_only_what_it_added_and_readers_get_the_whole_state(any_store: Store) -> None:
    for n in range(40):
        await any_store.sessions.apply_state("g", LOG, append(n), command=f".add {n}")
    head, items = await stored(any_store, "g", "rowlog")
    assert head == {"entries": {"$rows": 40}, "turn": 40}
    assert [json.loads(t)["n"] for t in items["entries"]] == list(range(40))
    whole, version = await any_store.sessions.load_session("g", "rowlog")
    assert whole is not None and version == 40
    assert [e["n"] for e in whole["entries"]] == list(range(40)) and whole["turn"] == 40
    state = await any_store.sessions.load_state("g", LOG)
    assert state is not None and len(state.entries) == 40
    # an edit in the middle rewrites that one row
    await any_store.sessions.apply_state("g", LOG, edit(7, "改过"), command=".edit 7")
    head, items = await stored(any_store, "g", "rowlog")
    assert json.loads(items["entries"][7])["text"] == "改过" and len(items["entries"]) == 40
    # the log keeps what .undo and .replay need: each entry small, every step exact
    history = await any_store.history.replay("g", "rowlog")
    assert [e.command for e, _b, _a in history][-2:] == [".add 39", ".edit 7"]
    assert history[-1][1]["entries"][7]["text"] == "第7条" and history[-1][2]["entries"][7]["text"] == "改过"
    undone = await any_store.history.undo("g")
    assert undone is not None and undone.command == ".edit 7"
    assert json.loads(jpatch.dumps(undone.state))["entries"][7]["text"] == "第7条"
    for n in range(39, 29, -1):
        assert (await any_store.history.undo("g")).command == f".add {n}"
    head, items = await stored(any_store, "g", "rowlog")
    assert head == {"entries": {"$rows": 30}, "turn": 30} and len(items["entries"]) == 30
    state = await any_store.sessions.load_state("g", LOG)
    assert state is not None and [e["n"] for e in state.entries] == list(range(30))
    # the end of the session drops its rows too
    await any_store.sessions.apply_state("g", LOG, lambda _s: (None, None), command=".end")
    head, items = await stored(any_store, "g", "rowlog")
    assert head is None and items == {}
    assert (await any_store.history.undo("g")).command == ".end"
    assert len((await any_store.sessions.load_state("g", LOG)).entries) == 30


async def test_a_state_written_whole_moves_into_rows_and_undo_gets_it_back(any_store: Store) -> None:
    """A battle written before migration 0007 (whole, in ``sessions.state``) reads as it is; the
    next command moves its lists into rows; ``.undo`` gives the whole old state back."""
    old = {"entries": [{"n": i, "text": f"第{i}条"} for i in range(5)], "turn": 5}
    await any_store.sessions.apply_session("g", "rowlog", lambda _s: (old, None), command=".old")
    head, items = await stored(any_store, "g", "rowlog")
    assert head == old and items == {}
    await any_store.sessions.apply_state("g", LOG, append(5), command=".add 5")
    head, items = await stored(any_store, "g", "rowlog")
    assert head == {"entries": {"$rows": 6}, "turn": 6} and len(items["entries"]) == 6
    # a writer without the codec keeps the same layout
    await any_store.sessions.apply_session("g", "rowlog", lambda s: ({**s, "turn": 7}, None), command=".turn")
    head, _items = await stored(any_store, "g", "rowlog")
    assert head == {"entries": {"$rows": 6}, "turn": 7}
    assert (await any_store.history.undo("g")).command == ".turn"
    assert (await any_store.history.undo("g")).command == ".add 5"
    state, _v = await any_store.sessions.load_session("g", "rowlog")
    assert jpatch.dumps(state) == jpatch.dumps(old)


async def test_a_plain_session_keeps_a_nested_list_as_rows(any_store: Store) -> None:
    """``apply_session(rows=...)`` (the 萌E record's inputs): a list one level down is stored one
    item per row from that write on; later writers keep the layout without being told; each
    command writes the inputs it added; ``.undo`` and readers get every state back exactly."""
    game = {"record": {"seed": 7, "inputs": [], "snapshot": {"turn": 0}}, "status": "running"}
    await any_store.sessions.apply_session("m", "moe", lambda _s: (game, None), command=".start", rows=ROWS)
    texts = [jpatch.dumps(game)]
    for n in range(12):

        def play(s: Any, n: int = n) -> tuple[Any, None]:
            rec = s["record"]
            inputs = [*rec["inputs"], {"seat": n % 3, "answer": f"出牌{n}"}]
            return {**s, "record": {**rec, "inputs": inputs, "snapshot": {"turn": n + 1}}}, None

        await any_store.sessions.apply_session("m", "moe", play, command=f".play {n}")
        texts.append(jpatch.dumps((await any_store.sessions.load_session("m", "moe"))[0]))
    head, items = await stored(any_store, "m", "moe")
    assert head == {
        "record": {"seed": 7, "inputs": {"$rows": 12}, "snapshot": {"turn": 12}},
        "status": "running",
    }
    assert [json.loads(t)["answer"] for t in items["record.inputs"]] == [f"出牌{n}" for n in range(12)]
    whole, _v = await any_store.sessions.load_session("m", "moe")
    assert whole is not None and len(whole["record"]["inputs"]) == 12
    for n in range(11, -1, -1):  # undone step by step, each state exactly as it was
        undone = await any_store.history.undo("m")
        assert undone is not None and undone.command == f".play {n}"
        assert jpatch.dumps((await any_store.sessions.load_session("m", "moe"))[0]) == texts[n]
    _head, items = await stored(any_store, "m", "moe")
    assert items.get("record.inputs", []) == []


def test_a_nested_field_splits_and_assembles_without_touching_the_state() -> None:
    plain = {"record": {"inputs": [{"a": 1}, {"a": 2}], "x": 1}, "actions": [3], "other": {"k": 1}}
    before = jpatch.dumps(plain)
    head, items = srows.split(plain, ("record.inputs", "actions", "missing.path", "other.k"))
    assert jpatch.dumps(plain) == before  # the caller's state is not changed
    assert json.loads(head or "") == {
        "record": {"inputs": {"$rows": 2}, "x": 1},
        "actions": {"$rows": 1},
        "other": {"k": 1},
    }
    assert srows.fields_of(head) == ("record.inputs", "actions")
    assert srows.assemble(head, items) == before


async def test_another_process_sees_the_rows_written_by_this_one(tmp_path: Path) -> None:
    """Two stores on one SQLite file (two bot processes): each command sees the other's rows."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'two.db'}"
    a, b = Store(url), Store(url)
    await a.migrate()
    try:
        for n in range(30):
            await (a if n % 3 else b).sessions.apply_state("g", LOG, append(n))
            if n % 7 == 0:
                await (b if n % 3 else a).sessions.apply_state("g", LOG, edit(n // 2, f"改{n}"))
        for s in (a, b):
            state = await s.sessions.load_state("g", LOG)
            assert state is not None and [e["n"] for e in state.entries] == list(range(30))
            assert state.entries[14]["text"] == "改28"
    finally:
        await a.close()
        await b.close()


async def test_a_thousand_action_battle_is_small_on_disk(tmp_path: Path) -> None:
    """Issue 24: a 1,000-action TimeLine battle takes ≤ 2 MB on disk (database, WAL and shared
    memory files together, at rest), and its session row holds no action."""
    db = tmp_path / "big.db"
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.migrate()
    app = App(store, random.Random(5), flood=FloodSettings(enabled=False))
    sheet = (
        ".TLsetup 姓名:{name},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
        "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
    )
    try:
        for u in range(4):
            assert "设置完成" in await say(app, sheet.format(name=f"角色{u}"), user=f"1000{u}", group="30003")
        for k in range(1000):
            await say(app, f".bat 力量 {10 + k % 90} 第{k}招", user=f"1000{k % 4}", group="30003")
        state = await store.sessions.load_state("30003", BATTLE_CODEC)
        assert state is not None and len(state.actions) == 1000
        # at rest: a checkpoint copied the WAL and a later commit started it over, cut back to
        # its limit (played back to back, the battle may leave up to SQLite's 4 MB checkpoint
        # in the WAL meanwhile)
        store.db.sqlite_outside("PRAGMA wal_checkpoint(PASSIVE)")
        await store.groups.set_nickname("10000", None, "甲")
        on_disk = sum(p.stat().st_size for p in tmp_path.iterdir() if p.name.startswith("big.db"))
    finally:
        await store.close()
    con = sqlite3.connect(db)
    head = con.execute("SELECT length(state) FROM sessions WHERE system = 'timeline'").fetchone()[0]
    rows = con.execute("SELECT count(*) FROM session_rows WHERE field = 'actions'").fetchone()[0]
    con.close()
    assert rows == 1000 and head < 4000, head
    assert on_disk <= 2_000_000, on_disk


async def test_commands_at_once_write_their_rows_together_and_undo_one_by_one(any_store: Store) -> None:
    """Sixteen commands on one session at once (on PostgreSQL they go in one statement): the
    rows hold every item, an edit among them included, and ``.undo`` takes them back in turn."""
    await any_store.sessions.apply_state("g", LOG, append(0), command=".add 0")
    await any_store.sessions.load_state("g", LOG)  # the row's identity known: the next writes may batch
    await asyncio.gather(
        *(
            any_store.sessions.apply_state(
                "g", LOG, append(n) if n != 8 else edit(0, "改"), command=f".c {n}"
            )
            for n in range(1, 17)
        )
    )
    head, items = await stored(any_store, "g", "rowlog")
    state = await any_store.sessions.load_state("g", LOG)
    assert state is not None and head == {"entries": {"$rows": 16}, "turn": 17}
    assert [json.loads(t) for t in items["entries"]] == list(state.entries)
    assert state.entries[0]["text"] == "改"
    assert sorted(e["n"] for e in state.entries) == [n for n in range(17) if n != 8]
    for _ in range(16):
        assert await any_store.history.undo("g") is not None
    head, items = await stored(any_store, "g", "rowlog")
    assert head == {"entries": {"$rows": 1}, "turn": 1} and [
        json.loads(t)["n"] for t in items["entries"]
    ] == [0]
    assert json.loads(items["entries"][0])["text"] == "第0条"
