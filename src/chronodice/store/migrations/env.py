"""Alembic environment: always run with a connection handed in by chronodice.store.migrate."""

from __future__ import annotations

from alembic import context

from chronodice.store.models import Base

target_metadata = Base.metadata
connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - guarded usage
    raise RuntimeError("run migrations through chronodice.store.migrate, which passes a connection")

context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
