"""session_log.characters_before: cards a session command changed, for .undo

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 09:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("session_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("characters_before", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("session_log", schema=None) as batch_op:
        batch_op.drop_column("characters_before")
