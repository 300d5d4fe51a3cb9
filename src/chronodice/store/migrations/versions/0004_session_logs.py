"""``.log`` session records: game_logs and game_log_lines

* ``game_logs``: one row per log of a group (name unique in the group); the log in progress has
  ``ended_at`` NULL.
* ``game_log_lines``: the recorded messages, each committed when received; (log, self_id,
  message_id) is unique so that an event delivered twice is recorded once.
* PostgreSQL: a trigger NOTIFYs ``chronodice_cache`` with ``l:<group>`` when a log starts,
  pauses, resumes, ends or is deleted, so other processes drop their cached "log in progress"
  entry of that group (the line counter's updates do not notify).

Revision ID: 0004_logs
Revises: 0003
Create Date: 2026-11-22 18:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_logs"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_logs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("group_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("creator_id", sa.String(length=32), nullable=False),
        sa.Column("recording", sa.Boolean(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_logs")),
        sa.UniqueConstraint("group_id", "name", name=op.f("uq_game_logs_group_id")),
    )
    op.create_table(
        "game_log_lines",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("log_id", sa.Integer(), nullable=False),
        sa.Column("self_id", sa.String(length=32), nullable=False),
        sa.Column("message_id", sa.String(length=64), nullable=True),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("nickname", sa.String(length=64), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("parts", sa.JSON(), nullable=False),
        sa.Column("check_note", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_log_lines")),
        sa.UniqueConstraint("log_id", "self_id", "message_id", name=op.f("uq_game_log_lines_log_id")),
    )
    op.create_index("ix_game_log_lines_log_id_id", "game_log_lines", ["log_id", "id"], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        # chronodice_notify() is created by migration 0003
        op.execute(
            "CREATE TRIGGER game_logs_notify AFTER INSERT OR UPDATE OF recording, ended_at, name OR DELETE"
            " ON game_logs FOR EACH ROW EXECUTE FUNCTION chronodice_notify('l', 'group_id')"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS game_logs_notify ON game_logs")
    op.drop_index("ix_game_log_lines_log_id_id", table_name="game_log_lines")
    op.drop_table("game_log_lines")
    op.drop_table("game_logs")
