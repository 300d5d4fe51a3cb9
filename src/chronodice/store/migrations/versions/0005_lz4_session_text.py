"""PostgreSQL: session states (and whole states in the log) compressed with lz4

A session's state is rewritten on every command (a battle of a few hundred actions is ~30–50
KB of JSON), and PostgreSQL compresses it for TOAST each time.  The default method, pglz, spent
about 0.2 ms of a 0.7 ms write on a 33 KB state; lz4 (PostgreSQL 14 and later, when built with
it, as the Debian, Ubuntu and official Docker builds are) stores ~25% more bytes and saves that
time.  Only values written from now on use it.  Elsewhere (SQLite, PostgreSQL 13, a server
without lz4) nothing changes.

Revision ID: 0005_lz4
Revises: 0004_logs
Create Date: 2026-11-23 01:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0005_lz4"
down_revision = "0004_logs"
branch_labels = None
depends_on = None

_COLUMNS = (("sessions", "state"), ("session_log", "before"))


def _set(method: str) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    statements = " ".join(
        f"EXECUTE 'ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}';"
        for table, column in _COLUMNS
    )
    # dynamic SQL: PostgreSQL 13 cannot even parse SET COMPRESSION; a server built without lz4
    # refuses the method, and the columns keep the default
    op.execute(
        "DO $$ BEGIN IF current_setting('server_version_num')::int >= 140000 THEN"
        f" BEGIN {statements} EXCEPTION WHEN OTHERS THEN"
        f" RAISE NOTICE 'compression {method} not available: %', SQLERRM; END;"
        " END IF; END $$"
    )


def upgrade() -> None:
    _set("lz4")


def downgrade() -> None:
    _set("default")
