"""SQLite's WAL stays small: a long burst of session writes leaves at most SQLite's own
checkpoint size in the WAL, not the tens of MB a WAL that is never truncated grows to, and once
a checkpoint copied it the next commit cuts it back (issue 24)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from chronodice.store import Store
from chronodice.store import sqlite_backend as sb

WRITES = 300
STATE_ITEMS = 1_000
"""About 100 KB of JSON: 1,000 items of about 100 bytes."""


def _disk(db: Path) -> int:
    """Bytes of the database with its ``-wal`` and ``-shm`` files."""
    return sum(p.stat().st_size for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists())


async def test_wal_file_stays_bounded_through_many_large_session_writes(tmp_path: Path) -> None:
    """300 writes of a ~100 KB state, back to back (30 MB through the WAL), never leave more
    than SQLite's checkpoint size (4 MB) and a few states beside the database; after a
    checkpoint, one more write brings the WAL back to its 1 MB limit."""
    db = tmp_path / "wal.db"
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.migrate()
    state: dict[str, Any] = {"items": [{"n": i, "text": "move " * 16} for i in range(STATE_ITEMS)]}
    state_size = len(json.dumps(state).encode())
    assert 80_000 < state_size < 140_000

    def step(k: int) -> Any:
        def fn(old: dict[str, Any] | None) -> tuple[dict[str, Any], None]:
            items = [dict(item) for item in (old or state)["items"]]
            items[k % STATE_ITEMS]["n"] = -k  # each state slightly different from the last
            return {"items": items, "turn": k}, None

        return fn

    biggest = 0
    backend = store._backend
    assert isinstance(backend, sb.SqliteBackend)
    try:
        for k in range(WRITES):
            await store.apply_session("g1", "timeline", step(k), user_id="u", command=f".bat {k}")
            biggest = max(biggest, _disk(db))
        database = db.stat().st_size
        running = backend._checkpointing
        if running is not None:
            await asyncio.wrap_future(running)
        await asyncio.to_thread(backend._checkpoint)  # the checkpoint thread's copy, caught up
        await store.apply_session("g1", "timeline", step(WRITES), command=".bat end")
        at_rest = _disk(db)
        got, version = await store.load_session("g1", "timeline")
        assert got is not None and got["turn"] == WRITES and version == WRITES + 1
    finally:
        await store.close()
    peak = database + sb.AUTOCHECKPOINT_PAGES * 4096 + 4 * state_size + 64 * 1024
    assert biggest <= peak, f"{biggest / 1e6:.1f} MB on disk at most (bound {peak / 1e6:.1f} MB)"
    rest = database + sb.WAL_LIMIT_BYTES + 2 * state_size + 64 * 1024
    assert at_rest <= rest, f"{at_rest / 1e6:.1f} MB on disk at rest (bound {rest / 1e6:.1f} MB)"
