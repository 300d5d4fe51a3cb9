"""Fixtures of the store tests."""

from __future__ import annotations

from collections.abc import Iterator
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


@pytest.fixture
def own_pg_url(pg_url: str) -> Iterator[str]:
    """A PostgreSQL database of this test's own (for tests that write a schema by hand)."""
    import uuid

    import asyncpg
    from helpers import PG_ADMIN_DSN, run_in_thread

    name = f"chronodice_own_{uuid.uuid4().hex[:10]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(PG_ADMIN_DSN)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    run_in_thread(lambda: admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{pg_url.rsplit('/', 1)[0]}/{name}"
    finally:
        run_in_thread(lambda: admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
