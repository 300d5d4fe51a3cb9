"""Session rows: what only grows in a session (a battle's actions and events) one item per row

A TimeLine battle used to be rewritten whole on every command (about 120 KB of JSON at 1,000
actions).  Its long lists now live in ``session_rows``, one item per row keyed by its place in
the list, and the ``sessions`` row keeps the rest with a placeholder ``{"$rows": n}`` per list
(see ``chronodice.store.session_rows``).  States written before stay whole in ``sessions`` and
are read as they are; the first command on such a battle moves its lists into rows, so nothing
is converted here and ``.undo`` works across the upgrade.

Revision ID: 0007_session_rows
Revises: 0006_session_notify
Create Date: 2026-11-25 21:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_session_rows"
down_revision = "0006_session_notify"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "session_rows",
        sa.Column("scope", sa.String(length=40), nullable=False),
        sa.Column("system", sa.String(length=20), nullable=False),
        sa.Column("field", sa.String(length=20), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("item", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("scope", "system", "field", "seq", name=op.f("pk_session_rows")),
    )


def downgrade() -> None:
    op.drop_table("session_rows")
