"""Plain JSON states whose long lists carry each item's JSON text beside it (:class:`Rows`).

A session codec (:class:`~chronodice.store.states.SessionCodec`, kept beside its system's
service) that keeps the items of a long list — a battle's actions, a combat's log — from one
command to the next reuses their plain form and text, and the state's text is spliced from the
items' texts (:func:`dumps`): a command then converts and serialises what it added, not the
whole list.  The text is exactly what :func:`chronodice.store.patch.dumps` gives for the same
plain value (``tests/store/test_state_invariants.py`` holds the two equal along played battles
and combats); :mod:`.session_rows` writes a :class:`Rows` list's items from their texts.

Without it (``benchmarks/bench_caches.py``, 2026-11-26: the codecs' ``dumps`` and reuse off) a
``.bat`` in a battle of 300 actions takes 5.0× as long on SQLite (3.94 against 0.79 ms) and 3.6×
on PostgreSQL, and a D20 ``.init next`` 2.0× and 1.7×.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from chronodice.core.plain import same_prefix


def dumps_value(value: Any) -> str:
    """Compact JSON (UTF-8 kept as is), the form the store writes states and patches in
    (:func:`chronodice.store.patch.dumps` is this)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Rows(tuple):  # type: ignore[type-arg]
    """A list in plain form (it serialises as a JSON array) with each item's text in ``texts``."""

    texts: tuple[str, ...]

    @classmethod
    def of(cls, items: list[Any], texts: list[str]) -> Rows:
        rows = cls(items)
        rows.texts = tuple(texts)
        return rows


def dumps(plain_state: dict[str, Any]) -> str:
    """``dumps_value(plain_state)``, its :class:`Rows` spliced from their items' texts."""
    return splice(plain_state)[0]


def splice(plain_state: dict[str, Any]) -> tuple[str, dict[str, tuple[int, int]]]:
    """:func:`dumps`, with where each :class:`Rows` value's array lies in the text (by key:
    ``text[start:stop]`` is ``"[" + ",".join(rows.texts) + "]"``).

    The other values are serialised in one call, each :class:`Rows` standing in as a marker
    string that is then replaced by the spliced array (per key, should a marker occur twice)."""
    marks: dict[str, tuple[str, str]] = {}
    flat: dict[str, Any] = {}
    for k, v in plain_state.items():
        if type(v) is Rows:
            mark = f"\x00rows{len(marks)}\x00"
            marks[k] = (dumps_value(mark), _one(v))
            flat[k] = mark
        else:
            flat[k] = v
    text = dumps_value(flat)
    places: list[tuple[int, str, str, str]] = []
    for k, (mark, body) in marks.items():
        if text.count(mark) != 1:  # a value held the marker's very text: serialise per key
            return _per_key(plain_state)
        places.append((text.index(mark), k, mark, body))
    places.sort()
    parts: list[str] = []
    spans: dict[str, tuple[int, int]] = {}
    pos = size = 0
    for at, k, mark, body in places:
        parts += (text[pos:at], body)
        size += at - pos
        spans[k] = (size, size + len(body))
        size += len(body)
        pos = at + len(mark)
    parts.append(text[pos:])
    return "".join(parts), spans


def _per_key(plain_state: dict[str, Any]) -> tuple[str, dict[str, tuple[int, int]]]:
    parts = ["{"]
    spans: dict[str, tuple[int, int]] = {}
    size = 1
    for i, (k, v) in enumerate(plain_state.items()):
        head = ("," if i else "") + dumps_value(k) + ":"
        body = _one(v)
        parts += (head, body)
        size += len(head)
        if type(v) is Rows:
            spans[k] = (size, size + len(body))
        size += len(body)
    parts.append("}")
    return "".join(parts), spans


def _one(v: Any) -> str:
    return "[" + ",".join(v.texts) + "]" if type(v) is Rows else dumps_value(v)


def keep(objs: Sequence[Any], old_objs: Sequence[Any], old: Any, convert: Callable[[Any], Any]) -> Rows:
    """``objs`` as :class:`Rows`: an object that *is* one of ``old_objs`` takes the plain item and
    text that ``old`` (the :class:`Rows` made of ``old_objs``, else ignored) holds for it; the
    others are ``convert``-ed and serialised.  The unchanged prefix (rows appended at the end) is
    taken in one slice; only past it are objects looked up by identity."""
    if type(old) is not Rows or len(old) != len(old_objs):
        old_objs = ()
    k = same_prefix(old_objs, objs)
    items: list[Any] = list(old[:k]) if k else []
    texts: list[str] = list(old.texts[:k]) if k else []
    known: dict[int, int] | None = None  # id → place in ``old_objs``, built on the first miss
    for o in objs[k:]:
        i: int | None = None
        if k < len(old_objs):  # some old row moved or changed: look the others up
            if known is None:
                known = {id(x): j for j, x in enumerate(old_objs)}
            i = known.get(id(o))
        if i is None:
            d = convert(o)
            items.append(d)
            texts.append(dumps_value(d))
        else:
            items.append(old[i])
            texts.append(old.texts[i])
    return Rows.of(items, texts)


def share(items: list[Any], old: Any) -> Rows:
    """``items`` (plain) as :class:`Rows`, each item that serialises to the same text as one of
    ``old``'s (a :class:`Rows`, else ignored) replaced by that old item: equal text, equal value
    to the last type and sign, so the store's reverse patch skips it as the same object.

    An item equal (``==``) to the old item at its place is taken with that item's text without
    serialising it: for plain forms whose every key holds one JSON type (a typed model's dump,
    with no number that may be an int one time and a float the next), equal means equal text.
    ``tests/store/test_state_invariants.py`` compares each step of played combats with an
    encoding from scratch, so a codec that breaks this fails there."""
    if type(old) is not Rows:
        return Rows.of(items, [dumps_value(d) for d in items])
    out: list[Any] = []
    texts: list[str] = []
    by_text: dict[str, Any] | None = None
    for i, d in enumerate(items):
        if i < len(old) and old[i] == d:
            out.append(old[i])
            texts.append(old.texts[i])
            continue
        text = dumps_value(d)
        if by_text is None:
            by_text = dict(zip(old.texts, old, strict=True))
        out.append(by_text.get(text, d))
        texts.append(text)
    return Rows.of(out, texts)


__all__ = ["Rows", "dumps", "dumps_value", "keep", "share", "splice"]
