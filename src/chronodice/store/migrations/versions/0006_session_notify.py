"""PostgreSQL: a session written by another process is announced, like the cached rows of 0003

A command on a session first reads it (its checks: whose turn, who may act), then writes it in
one statement.  With the sessions table announcing its writes on ``chronodice_cache``
(``s:<scope>``), a process whose copy of a session is still current skips that read.  The
function sends only the scope: the generic ``chronodice_notify`` of 0003 would convert the whole
row, state and all, to JSON on every write.  Nothing changes on SQLite.

Revision ID: 0006_session_notify
Revises: 0005_lz4
Create Date: 2026-11-23 03:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0006_session_notify"
down_revision = "0005_lz4"
branch_labels = None
depends_on = None

_FN = """
CREATE OR REPLACE FUNCTION chronodice_notify_session() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('chronodice_cache', 's:' || OLD.scope);
  ELSE
    PERFORM pg_notify('chronodice_cache', 's:' || NEW.scope);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(_FN)
    op.execute(
        "CREATE TRIGGER sessions_notify AFTER INSERT OR UPDATE OR DELETE ON sessions"
        " FOR EACH ROW EXECUTE FUNCTION chronodice_notify_session()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS sessions_notify ON sessions")
    op.execute("DROP FUNCTION IF EXISTS chronodice_notify_session()")
