"""SQLite's WAL stays small: a long run of session writes leaves a few MB on disk, not the
tens of MB a WAL that is never truncated grows to (issue 24)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chronodice.store import Store

WRITES = 300
STATE_ITEMS = 1_000
"""About 100 KB of JSON: 1,000 items of about 100 bytes."""


def _disk(db: Path) -> int:
    """Bytes of the database with its ``-wal`` and ``-shm`` files."""
    return sum(p.stat().st_size for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists())


async def test_wal_file_stays_bounded_through_many_large_session_writes(tmp_path: Path) -> None:
    """300 writes of a ~100 KB state (30 MB through the WAL) keep the database, ``-wal`` and
    ``-shm`` together within 2 MB plus one state, after every write and at the end."""
    db = tmp_path / "wal.db"
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.migrate()
    state: dict[str, Any] = {"items": [{"n": i, "text": "move " * 16} for i in range(STATE_ITEMS)]}
    state_size = len(json.dumps(state).encode())
    assert 80_000 < state_size < 140_000
    bound = 2 * 1024 * 1024 + state_size
    biggest = 0
    try:
        for k in range(WRITES):

            def step(old: dict[str, Any] | None, k: int = k) -> tuple[dict[str, Any], None]:
                items = [dict(item) for item in (old or state)["items"]]
                items[k % STATE_ITEMS]["n"] = -k  # each state slightly different from the last
                return {"items": items, "turn": k}, None

            await store.apply_session("g1", "timeline", step, user_id="u", command=f".bat {k}")
            biggest = max(biggest, _disk(db))
        got, version = await store.load_session("g1", "timeline")
        assert got is not None and got["turn"] == WRITES - 1 and version == WRITES
        at_end = _disk(db)
    finally:
        await store.close()
    assert biggest <= bound, f"{biggest / 1e6:.1f} MB on disk at most (bound {bound / 1e6:.1f} MB)"
    assert at_end <= bound
