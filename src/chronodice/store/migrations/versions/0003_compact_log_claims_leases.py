"""Compact session log (reverse patches), event claims, bot leases, cache notifications

* ``session_log.patch``: existing rows are converted — each applied command keeps the reverse
  patch from the state after it to the state before it instead of the whole state before
  (``.undo`` gives exactly the same states); undone rows drop their copy.
* ``event_claims``: events already applied (exactly once across re-deliveries and processes).
* ``bot_leases``: the bot account serving each group.
* PostgreSQL: triggers NOTIFY ``chronodice_cache`` when a cached row changes, so that the
  caches of other processes drop it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 10:00:00
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import context, op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_NOTIFY_FN = """
CREATE OR REPLACE FUNCTION chronodice_notify() RETURNS trigger AS $$
DECLARE
  k text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    k := to_jsonb(OLD) ->> TG_ARGV[1];
  ELSE
    k := to_jsonb(NEW) ->> TG_ARGV[1];
  END IF;
  PERFORM pg_notify('chronodice_cache', TG_ARGV[0] || ':' || k);
  RETURN NULL;
END $$ LANGUAGE plpgsql
"""
_TRIGGERS = (
    ("groups", "g", "group_id"),
    ("group_gms", "g", "group_id"),
    ("nicknames", "n", "user_id"),
    ("bindings", "b", "user_id"),
    ("characters", "c", "id"),
)


def _load(value: Any) -> Any:
    if value is None:
        return None
    return json.loads(value) if isinstance(value, str | bytes) else value


def _convert_logs(bind: sa.engine.Connection) -> int:
    from chronodice.store.patch import dumps
    from chronodice.store.patch import reverse as reverse_json

    if bind.dialect.name == "postgresql":
        update = sa.text(
            "UPDATE session_log SET before = CAST(:b AS JSON), patch = CAST(:p AS JSON) WHERE id = :i"
        )
    else:
        update = sa.text("UPDATE session_log SET before = :b, patch = :p WHERE id = :i")
    streams = bind.execute(sa.text("SELECT DISTINCT scope, system FROM session_log")).all()
    converted = 0
    for scope, system in streams:
        row = bind.execute(
            sa.text("SELECT state FROM sessions WHERE scope = :s AND system = :y"), {"s": scope, "y": system}
        ).first()
        current = _load(row[0]) if row else None
        entries = bind.execute(
            sa.text(
                "SELECT id, CAST(before AS TEXT), undone FROM session_log"
                " WHERE scope = :s AND system = :y ORDER BY id DESC"
            ),
            {"s": scope, "y": system},
        ).all()
        for log_id, before_raw, undone in entries:
            if undone:
                values: dict[str, Any] = {"before": None, "patch": None}
            else:
                before = _load(before_raw)
                after = None if current is None else json.loads(dumps(current))
                before_text, patch_text = reverse_json(before, after)
                values = {"before": before_text, "patch": patch_text}
                current = before
            bind.execute(update, {"b": values["before"], "p": values["patch"], "i": log_id})
            converted += 1
    return converted


def upgrade() -> None:
    with op.batch_alter_table("session_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("patch", sa.JSON(), nullable=True))
    op.create_table(
        "event_claims",
        sa.Column("self_id", sa.String(length=32), nullable=False),
        sa.Column("message_id", sa.String(length=64), nullable=False),
        sa.Column("claimed_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("self_id", "message_id", name=op.f("pk_event_claims")),
    )
    op.create_index("ix_event_claims_claimed_at", "event_claims", ["claimed_at"], unique=False)
    op.create_table(
        "bot_leases",
        sa.Column("scope", sa.String(length=40), nullable=False),
        sa.Column("self_id", sa.String(length=32), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("scope", name=op.f("pk_bot_leases")),
    )
    bind = op.get_bind()
    if _convert_logs(bind):
        context.config.attributes["vacuum"] = True
    if bind.dialect.name == "postgresql":
        op.execute(_NOTIFY_FN)
        for table, kind, key in _TRIGGERS:
            op.execute(
                f"CREATE TRIGGER {table}_notify AFTER INSERT OR UPDATE OR DELETE ON {table}"
                f" FOR EACH ROW EXECUTE FUNCTION chronodice_notify('{kind}', '{key}')"
            )


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        for table, _kind, _key in _TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_notify ON {table}")
        op.execute("DROP FUNCTION IF EXISTS chronodice_notify()")
    op.drop_table("bot_leases")
    op.drop_index("ix_event_claims_claimed_at", table_name="event_claims")
    op.drop_table("event_claims")
    with op.batch_alter_table("session_log", schema=None) as batch_op:
        batch_op.drop_column("patch")
