"""What only grows in a session, stored as rows (``session_rows``): a command writes the items
it added or changed, not the whole session.

A session's state is a JSON object.  The long lists in it (a TimeLine battle's ``actions`` and
``events``, named by the codec's ``row_fields``; a 萌E game's ``record.inputs``, named by
``apply_session(rows=...)``) are kept one item per row, keyed by ``(scope, system, field, seq)``
with ``seq`` the item's place in the list; the ``sessions`` row keeps the rest, with a
placeholder ``{"$rows": n}`` where each such list was.  A field is a key of the state or, one
level down, ``key.key`` (:data:`DEPTH`).  The head is
self-describing: any reader (``.undo``, ``.replay``, the web view) gets the whole state back by
putting the rows in place of the placeholders (:func:`assemble`), and a writer that knows no
codec stores the same fields as rows again (:func:`head_fields`).

A state written before these rows existed has no placeholder and is read as it is; the first
write through a codec with ``row_fields`` moves its lists into rows.

Writing compares the item texts stored with the new ones (:func:`write_items`): an item whose
text is the same string object, or an equal one, is not written; a changed item is updated in
place, new items are inserted and items past the new end deleted.
"""

from __future__ import annotations

import itertools
import json
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import sqlalchemy as sa

from chronodice.core.plain import carried

from . import patch as jpatch
from . import tables
from .db import Tx

MARK = "$rows"
"""The placeholder's key: ``{"$rows": n}`` stands for a list of ``n`` items kept as rows."""

Items = dict[str, Sequence[str]]
"""Per field stored as rows, its items' JSON texts in order."""


def is_placeholder(value: Any) -> bool:
    return type(value) is dict and len(value) == 1 and type(value.get(MARK)) is int


DEPTH = 2
"""How deep a field may lie: ``actions`` or ``record.inputs``."""


def head_fields(head: Any, depth: int = DEPTH) -> tuple[str, ...]:
    """The fields a stored head keeps as rows (its placeholders), dotted."""
    if type(head) is not dict:
        return ()
    out: list[str] = []
    for k, v in head.items():
        if is_placeholder(v):
            out.append(k)
        elif depth > 1 and type(v) is dict:
            out += (f"{k}.{sub}" for sub in head_fields(v, depth - 1))
    return tuple(out)


def _at(state: Any, field: str) -> Any:
    """The value at ``field`` (dotted) in ``state``, ``None`` where there is none."""
    for key in field.split("."):
        if type(state) is not dict:
            return None
        state = state.get(key)
    return state


def _set(state: dict[str, Any], field: str, value: Any, *, copy: bool) -> None:
    """Put ``value`` at ``field`` (dotted) in ``state``; ``copy``: the objects on the way are
    copied first (``state`` itself is the caller's copy)."""
    *path, last = field.split(".")
    for key in path:
        state[key] = child = dict(state[key]) if copy else state[key]
        state = child
    state[last] = value


def fields_of(head_text: str | None) -> tuple[str, ...]:
    """:func:`head_fields` of a stored head's text (parsed only when it holds a placeholder)."""
    if head_text is None or f'"{MARK}"' not in head_text:
        return ()
    return head_fields(json.loads(head_text))


def split(
    plain: Any, fields: Iterable[str], known: Mapping[str, tuple[Sequence[Any], Sequence[str]]] | None = None
) -> tuple[str | None, Items]:
    """``plain`` (a state's JSON data, ``None`` for no state) as the head's text and the items
    of ``fields`` (those holding a list; others stay in the head).  ``known``: per field, the
    items of an earlier plain form with their texts; an item that *is* one of them (the same
    object: an unchanged part the codec reused) takes its text without serialising it."""
    if plain is None:
        return None, {}
    fields = [f for f in fields if isinstance(_at(plain, f), list | tuple)] if type(plain) is dict else []
    if not fields:
        return jpatch.dumps(plain), {}
    head = dict(plain)
    items: Items = {}
    for f in fields:
        value = _at(plain, f)
        old = known.get(f) if known else None
        items[f] = _texts(value, old) if old else [jpatch.dumps(v) for v in value]
        _set(head, f, {MARK: len(value)}, copy=True)
    return jpatch.dumps(head), items


def _texts(values: Sequence[Any], old: tuple[Sequence[Any], Sequence[str]]) -> list[str]:
    """The texts of ``values``, taken from ``old`` (items and their texts) for the items that are
    the very objects found there."""
    return carried(values, old[0], old[1], jpatch.dumps)


def items_of(plain: Any, field: str) -> Any:
    """The list at ``field`` (dotted) of a plain state, ``None`` where there is none."""
    return _at(plain, field)


def assemble(head_text: str | None, items: Items) -> str | None:
    """The whole state's text (as :func:`chronodice.store.patch.dumps` gives it) from a stored
    head and its rows."""
    if head_text is None or f'"{MARK}"' not in head_text:
        return head_text
    head = json.loads(head_text)
    for f in head_fields(head):
        texts, expected = items.get(f, ()), _at(head, f)[MARK]
        if len(texts) != expected:
            raise ValueError(f"session rows of {f!r}: {len(texts)} stored, {expected} expected")
        _set(head, f, json.loads("[" + ",".join(texts) + "]"), copy=False)
    return jpatch.dumps(head)


_rows, _heads = tables.session_rows, tables.sessions
BORN = sa.type_coerce(_heads.c.created_at, sa.String)
"""A session row's ``created_at`` as the driver gives it: with its version, the row's identity
(a session deleted and begun again starts its versions over, never its ``created_at``)."""
_MINE = (_rows.c.scope == sa.bindparam("scope"), _rows.c.system == sa.bindparam("system"))  # a session's

READ_ITEMS = sa.select(_rows.c.field, _rows.c.item).where(*_MINE).order_by(_rows.c.field, _rows.c.seq)

READ_WHOLE = sa.union_all(
    sa.select(
        sa.literal_column("''", sa.String).label("field"),
        sa.literal_column("-1", sa.Integer).label("seq"),
        sa.cast(_heads.c.state, sa.Text).label("item"),  # a real CAST: PostgreSQL unites no json with text
        _heads.c.version,
        BORN.label("created_at"),
    ).where(_heads.c.scope == sa.bindparam("scope"), _heads.c.system == sa.bindparam("system")),
    sa.select(_rows.c.field, _rows.c.seq, _rows.c.item, sa.null(), sa.null()).where(*_MINE),
).order_by("field", "seq")
"""The head row (field ``''``, first) and the session's rows under it, in one statement."""


async def read_items(tx: Tx, scope: str, system: str) -> Items:
    """The rows stored for a session, per field in order."""
    out: dict[str, list[str]] = {}
    for field, item in await tx.all(READ_ITEMS, {"scope": scope, "system": system}):
        out.setdefault(field, []).append(item)
    return cast(Items, out)


def _with_fields(head: str | None, items: Items) -> Items:
    """``items`` with each field ``head`` keeps as rows, also those with none yet (an empty
    list): a writer then keeps storing it as rows."""
    return {f: () for f in fields_of(head)} | items


async def rows_of(tx: Tx, scope: str, system: str, head: str | None) -> Items:
    """The rows stored beside a session's ``head`` (none unless it holds a placeholder)."""
    if head is None or f'"{MARK}"' not in head:
        return {}
    return _with_fields(head, await read_items(tx, scope, system))


async def read_whole(tx: Tx, scope: str, system: str) -> tuple[tuple[int, Any, str | None], Items] | None:
    """A session's ``(version, created_at, head)`` and its rows in one statement, so they are
    of one moment even outside a transaction that locks the row (PostgreSQL reads without a
    transaction, each statement on its own snapshot); ``None`` when there is no session."""
    rows = await tx.all(READ_WHOLE, {"scope": scope, "system": system})
    if not rows or rows[0][0] != "":
        return None
    out: dict[str, list[str]] = {}
    for field, _seq, item, _v, _c in rows[1:]:
        out.setdefault(field, []).append(item)
    return (rows[0][3], rows[0][4], rows[0][2]), _with_fields(rows[0][2], cast(Items, out))


def changes(old: Items, new: Items) -> tuple[list[tuple[str, int, str]], list[tuple[str, int]]]:
    """What makes the stored rows ``new`` where they are ``old``: the ``(field, seq, item)`` to
    write (changed, or past the old end) and the ``(field, length)`` to cut back to."""
    put: list[tuple[str, int, str]] = []
    cut: list[tuple[str, int]] = []
    for field in dict.fromkeys(itertools.chain(old, new)):
        before, after = old.get(field, ()), new.get(field, ())
        common = min(len(before), len(after))
        moved = itertools.compress(range(common), map(operator.is_not, before, after))
        put += [(field, i, after[i]) for i in moved if before[i] != after[i]]
        put += [(field, i, after[i]) for i in range(common, len(after))]
        if len(before) > common:
            cut.append((field, common))
    return put, cut


UPSERT = tables.per_dialect(
    lambda d: (ins := tables.insert_for(d, _rows)).on_conflict_do_update(
        index_elements=list(_rows.primary_key), set_={"item": ins.excluded.item}
    )
)
"""Write one row, run with ``scope``, ``system``, ``field``, ``seq`` and ``item``."""

CUT = sa.delete(_rows).where(
    *_MINE, _rows.c.field == sa.bindparam("field"), _rows.c.seq >= sa.bindparam("length")
)
DROP = sa.delete(_rows).where(*_MINE)


async def write_items(tx: Tx, scope: str, system: str, old: Items, new: Items) -> None:
    """Make the stored rows ``new`` where they are ``old`` (see :func:`changes`); the rows
    written go in one call (executemany: a session's first move into rows writes them all)."""
    put, cut = changes(old, new)
    for field, length in cut:
        await tx.run(CUT, {"scope": scope, "system": system, "field": field, "length": length})
    if put:
        keys = {"scope": scope, "system": system}
        rows = [keys | {"field": field, "seq": seq, "item": item} for field, seq, item in put]
        await tx.run(UPSERT[tx.dialect], rows)


async def drop_items(tx: Tx, scope: str, system: str) -> None:
    """Delete a session's rows (the session itself is being deleted)."""
    await tx.run(DROP, {"scope": scope, "system": system})
