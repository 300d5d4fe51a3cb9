"""How the store keeps a TimeLine battle: :class:`BattleCodec` (the rules' :class:`BattleState`
in, its stored JSON text out, and back), beside the service that reads and writes battles."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

from chronodice.core.plain import plain
from chronodice.rules.timeline.battle_state import BattleState
from chronodice.store import texts

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
            f.name: f.default if f.default is not MISSING else f.default_factory()  # type: ignore[misc]
            for f in fields(cls)
            if f.default is not MISSING or f.default_factory is not MISSING
        }
    out = plain(o)
    for name, default in defaults.items():
        v = out[name]
        if v == default and type(v) is type(default):
            del out[name]
    return out


class BattleCodec:
    """How the store keeps a battle (a :class:`chronodice.store.SessionCodec`): states are frozen
    dataclasses all the way down (tuples and read-only mappings, see
    :func:`~chronodice.rules.timeline.battle_state.frozen_mapping`), changed only by
    ``replace``, so the store shares the decoded state between commands, and a new state's
    participants, actions and events that are the *same objects* as the previous state's keep
    their plain form and text (:class:`~chronodice.store.texts.Rows`).
    ``tests/store/test_state_invariants.py`` holds both: no field of a battle can hold a mutable
    container, and along played battles ``encode(new, prev)`` and :meth:`dumps` give what
    encoding from scratch and ``chronodice.store.patch.dumps`` give."""

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
            out[f.name] = texts.keep(value, old_objs, old_rows, _row)
        return out

    def dumps(self, plain_state: dict[str, Any]) -> str:
        """``chronodice.store.patch.dumps(plain_state)``, the rows spliced from their texts."""
        return texts.dumps(plain_state)


BATTLE_CODEC = BattleCodec()


__all__ = ["BATTLE_CODEC", "BattleCodec"]
