"""The store keeps no caches of rows any more: PostgreSQL stops announcing writes

Migrations 0003, 0004 and 0006 made PostgreSQL send a notification (``chronodice_cache``) on
every write of a group, GM, nickname, binding, card, ``.log`` record and session, so that other
processes could drop their copies.  The store now reads what it needs in each transaction and
keeps only decoded session states checked against the row's version, so nobody listens: the
triggers and their functions go.  Nothing changes on SQLite.

Revision ID: 0008_no_cache_triggers
Revises: 0007_session_rows
Create Date: 2026-11-29 05:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0008_no_cache_triggers"
down_revision = "0007_session_rows"
branch_labels = None
depends_on = None

_TRIGGERS = ("groups", "group_gms", "nicknames", "bindings", "characters", "game_logs", "sessions")
_FUNCTIONS = ("chronodice_notify()", "chronodice_notify_session()")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in _TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {table}_notify ON {table}")
    for fn in _FUNCTIONS:
        op.execute(f"DROP FUNCTION IF EXISTS {fn}")


def downgrade() -> None:
    """The triggers are not brought back: a store that wants them runs 0007's code."""
