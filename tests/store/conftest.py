"""Fixtures of the store tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronodice.store import Store
from chronodice.store.models import Base


@pytest.fixture(params=["sqlite", "postgres"])
async def any_store(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "sqlite":
        s = Store(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    else:
        s = Store(request.getfixturevalue("pg_url"))
    await s.migrate()
    # each test starts from empty tables (the PostgreSQL database lives for the session)
    async with s.engine.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            await conn.execute(table.delete())
    try:
        yield s
    finally:
        await s.close()
