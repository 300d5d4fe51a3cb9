"""The tables of :mod:`.models` as SQLAlchemy Core ``Table`` objects, and the few helpers every
statement of the store is written with.

Statements are SQLAlchemy Core on these tables, compiled by SQLAlchemy for SQLite or
PostgreSQL; the hot ones are built once at import with named :func:`~sqlalchemy.bindparam`
parameters (SQLAlchemy then reuses their compiled form) and run as ``tx.one(STMT, {...})``.

JSON columns are written and read as the store's own JSON text (:func:`chronodice.store.patch.dumps`,
which the log, the caches and the reverse patches compare by): :func:`json_text` reads a
column's stored text, :func:`text_param` binds text to one, so SQLAlchemy's JSON type neither
parses nor serialises it again.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import JSON, ColumnElement, Table, Text, TypeDecorator, bindparam, type_coerce
from sqlalchemy.dialects import postgresql, sqlite

from . import models
from .patch import dumps


def _tables(*models_: type[models.Base]) -> tuple[Table, ...]:
    return tuple(m.__table__ for m in models_)  # type: ignore[misc]


characters, bindings, nicknames, groups, group_gms = _tables(
    models.Character, models.Binding, models.Nickname, models.Group, models.GroupGM
)
sessions, session_rows, session_log = _tables(models.Session, models.SessionRow, models.SessionLog)
pending, event_claims, bot_leases = _tables(models.Pending, models.EventClaim, models.BotLease)
game_logs, game_log_lines = _tables(models.GameLog, models.GameLogLine)

DIALECTS = ("sqlite", "postgresql")
_INSERTS: dict[str, Any] = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


def json_text(column: ColumnElement[Any]) -> ColumnElement[str]:
    """``column`` (a JSON column) read as the text stored in it, labelled with its name."""
    return type_coerce(column, Text).label(column.key)


class JsonText(TypeDecorator[Any]):
    """A JSON column's type that binds the store's JSON text as it is: SQLAlchemy's JSON would
    serialise it again, and a plain ``Text`` parameter reaches PostgreSQL as ``varchar``, which a
    ``json`` column refuses (this one is sent as ``$n::JSON``)."""

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect: Any) -> None:
        return None


def text_param(name: str) -> Any:
    """A parameter that binds JSON text to a JSON column as it is (see the module's doc)."""
    return bindparam(name, type_=JsonText())


def insert_for(dialect: str, table: Table) -> sqlite.Insert | postgresql.Insert:
    """``INSERT`` into ``table`` in ``dialect``'s own construct, which has ``on_conflict_do_nothing``
    and ``on_conflict_do_update`` (both SQLite and PostgreSQL write ``ON CONFLICT``)."""
    return _INSERTS[dialect](table)


def per_dialect(build: Any) -> dict[str, Any]:
    """``build(dialect)`` for each dialect: a statement built once for each (``ON CONFLICT``,
    ``RETURNING``, what only one database has), picked with ``STMT[tx.dialect]``."""
    return {d: build(d) for d in DIALECTS}


def written(*names: str, **values: Any) -> dict[str, Any]:
    """What an ``INSERT`` or ``UPDATE`` writes: ``names`` from parameters of their own name, and
    ``values``."""
    return {name: bindparam(name) for name in names} | values


def upsert(
    d: str, table: Table, values: dict[str, Any], keys: list[str], *new: str, **set_: Any
) -> sqlite.Insert | postgresql.Insert:
    """``INSERT`` ``values`` in dialect ``d``; on a conflict on ``keys`` the columns ``new``
    take the values inserted and ``set_`` are set."""
    ins = insert_for(d, table).values(values)
    return ins.on_conflict_do_update(index_elements=keys, set_={c: ins.excluded[c] for c in new} | set_)


def json_value(value: Any) -> Any:
    """A JSON column's value (text on both drivers) as Python data."""
    if value is None:
        return None
    if isinstance(value, str | bytes):
        return json.loads(value)
    return value


def stored_text(value: Any) -> str | None:
    """A JSON column's stored text (both drivers return text; bytes or data are normalised)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode()
    return dumps(value)


def clone_json(value: Any) -> Any:
    """A deep copy of JSON data."""
    return None if value is None else json.loads(dumps(value))
