"""Fixtures of the store tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import empty_pg_database

from chronodice.store import Store


@pytest.fixture(params=["sqlite", "postgres"])
async def any_store(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "sqlite":
        s = Store(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    else:  # each test starts from empty tables (the PostgreSQL database lives for the session)
        url = request.getfixturevalue("pg_url")
        await empty_pg_database(url)
        s = Store(url)
    await s.migrate()
    try:
        yield s
    finally:
        await s.close()
