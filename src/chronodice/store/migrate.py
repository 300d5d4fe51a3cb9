"""Run the Alembic migrations programmatically (at bot start, in tests, from the CLI).

``python -m chronodice.store.migrate [URL]`` upgrades a database by hand; the bot does the same
at start-up, so a non-interactive start on an empty or old database works.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

HERE = Path(__file__).resolve().parent


def alembic_config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE / "migrations"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def upgrade_sync(connection: Connection, revision: str = "head") -> bool:
    """Upgrade; True when a migration rewrote enough rows that a SQLite VACUUM is worth it."""
    cfg = alembic_config(connection)
    command.upgrade(cfg, revision)
    return bool(cfg.attributes.get("vacuum"))


async def _main(url: str) -> None:
    from .database import Store

    store = Store(url)
    try:
        await store.migrate()
    finally:
        await store.close()


if __name__ == "__main__":
    from .database import DEFAULT_URL

    asyncio.run(_main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_URL))
