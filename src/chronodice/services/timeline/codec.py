"""How the store keeps a TimeLine battle: :class:`BattleCodec` (the rules' :class:`BattleState`
in, its stored JSON text out, and back), beside the service that reads and writes battles."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

from chronodice.core.plain import carried, plain
from chronodice.rules.timeline.battle_state import BattleState

_DEFAULTS: dict[type, dict[str, Any]] = {}


def _row(o: Any) -> dict[str, Any]:
    """A participant, action or event as the battle's text keeps it: without the fields that hold
    their default (``weapon``/``target``/``cancelled_at`` are null, ``delay`` 0 for nearly every
    action), which :meth:`BattleState.from_dict` fills back in.  A third less text to write,
    parse and log per command."""
    cls = type(o)
    defaults = _DEFAULTS.get(cls)
    if defaults is None:
        defaults = _DEFAULTS[cls] = {
            f.name: f.default if f.default is not MISSING else f.default_factory()  # type: ignore[misc,operator]
            for f in fields(cls)
            if f.default is not MISSING or f.default_factory is not MISSING
        }
    out = plain(o)
    for name, default in defaults.items():
        v = out[name]
        if v == default and type(v) is type(default):
            del out[name]
    return out


def _reusing(objs: Any, old_objs: Any, old_plain: Any) -> list[Any]:
    """``objs`` in plain form, each object that *is* one of ``old_objs`` taking the plain item
    ``old_plain`` (the plain form of ``old_objs``) holds for it."""
    return carried(objs, old_objs, old_plain if isinstance(old_plain, list) else (), _row)


class BattleCodec:
    """How the store keeps a battle (a :class:`chronodice.store.SessionCodec`): states are frozen
    dataclasses all the way down (tuples and read-only mappings, see
    :func:`~chronodice.rules.timeline.battle_state.frozen_mapping`), changed only by
    ``replace``, so the store may share one decoded state between commands; a new state's
    participants, actions and events that are the *same objects* as the previous state's keep
    their plain form (so the store neither serialises nor compares them again).
    ``tests/store/test_codecs.py`` holds both: no field of a battle can hold a mutable container,
    and along played battles ``encode(new, prev)`` gives what encoding from scratch gives."""

    system = "timeline"
    immutable = True
    row_fields = ("actions", "events")
    """What only grows in a battle: the store keeps these one item per row."""
    _ROWS = ("participants", "actions", "events")

    def decode(self, text: str) -> BattleState:
        return BattleState.from_dict(json.loads(text))

    def encode(self, state: BattleState, prev: tuple[BattleState, Any] | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(BattleState):
            value = getattr(state, f.name)
            if f.name not in self._ROWS:
                out[f.name] = plain(value)
                continue
            old_objs, old_rows = (getattr(prev[0], f.name), prev[1].get(f.name)) if prev else ((), None)
            out[f.name] = _reusing(value, old_objs, old_rows)
        return out


BATTLE_CODEC = BattleCodec()


__all__ = ["BATTLE_CODEC", "BattleCodec"]
