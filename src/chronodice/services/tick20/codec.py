"""How the store keeps a D20 combat: :class:`CombatCodec` (the rules' :class:`Combat` in, its
stored JSON text out, and back), beside the service that reads and writes combats."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from chronodice.rules.tick20.model import SCHEMA_VERSION, Combat, Event
from chronodice.store import texts


class CombatCodec:
    """How the store keeps a combat (a :class:`chronodice.store.SessionCodec`).  Combats are mutable
    models (the engine changes a fresh parse in place, see ``Combat.give_away``), so each use is
    decoded afresh, straight from the stored text by pydantic's JSON parser.

    The log (the last :data:`~chronodice.rules.tick20.engine.LOG_DEPTH` events, most of a
    combat's text) is kept between commands, as logged events are never changed:

    * encoding, the events a combat still holds from the text it was decoded from keep the plain
      form and text they had there (:class:`~chronodice.store.texts.Rows`); a turn converts and
      serialises the few events it added, not the whole log;
    * decoding a text this codec wrote, the log's events are those it was written from: pydantic
      parses the text with an empty log in place of the events' texts (the log is about two
      fifths of a parse).  Two combats then hold the same event objects, which is why logged
      events are never changed: :class:`Event` is frozen all the way down, so a rule that
      tried would raise."""

    system = "tick20"
    immutable = False
    row_fields: tuple[str, ...] = ()
    """The log is capped (it slides), so the combat is stored whole."""
    _KEEP = 64
    """Decoded combats whose log is remembered (a combat is encoded right after its decode), and
    texts written whose log's events are remembered.  Without these memos ``.init next`` (20
    combatants) converts 60 events instead of 2 and takes 1.8× as long on SQLite (2.42 against
    1.34 ms) and 1.5× on PostgreSQL (``benchmarks/bench_caches.py``, 2026-11-26)."""

    def __init__(self) -> None:
        self._decoded: OrderedDict[int, tuple[Combat, tuple[Event, ...]]] = OrderedDict()
        self._encoded: OrderedDict[int, tuple[texts.Rows, tuple[Event, ...]]] = OrderedDict()
        """A log's :class:`~chronodice.store.texts.Rows` made by :meth:`encode` (by ``id``), with
        its events, until :meth:`dumps` writes it."""
        self._written: OrderedDict[int, tuple[str, int, int, tuple[Event, ...]]] = OrderedDict()
        """Texts :meth:`dumps` wrote (by ``id``: the store hands the very object back, and
        hashing a long text costs more than the lookup saves): where their log's array lies,
        and its events."""

    def decode(self, text: str) -> Combat:
        written = self._written.get(id(text))
        if written is not None and written[0] is text:
            _, start, stop, events = written
            state = Combat.model_validate_json(text[:start] + "[]" + text[stop:])
            state.log = list(events)
        else:
            state = Combat.model_validate_json(text)
        if state.schema_version != SCHEMA_VERSION:
            raise ValueError(f"unsupported tick20 schema_version {state.schema_version}")
        _remember(self._decoded, id(state), (state, tuple(state.log)), self._KEEP)
        return state

    def encode(self, state: Combat, prev: tuple[Combat, Any] | None) -> dict[str, Any]:
        """``state.to_dict()``, its log as :class:`~chronodice.store.texts.Rows`: events ``state``
        still holds from its decode take their plain form and text from ``prev``'s (the plain
        form of the very text it was decoded from)."""
        out = state.model_dump(mode="json", exclude_defaults=True, exclude={"log"})
        if "combatants" in out:  # those a turn left alone keep their previous plain form
            out["combatants"] = texts.share(out["combatants"], prev[1].get("combatants") if prev else None)
        if state.log:  # the last field: to_dict puts it here too
            entry = self._decoded.get(id(state))
            decoded = entry[1] if entry is not None and entry[0] is state else ()
            log = out["log"] = texts.keep(
                state.log, decoded, prev[1].get("log") if prev else None, _event_row
            )
            _remember(self._encoded, id(log), (log, tuple(state.log)), self._KEEP)
        return out | {"schema_version": state.schema_version}

    def dumps(self, plain_state: dict[str, Any]) -> str:
        """``chronodice.store.patch.dumps(plain_state)``, the log spliced from its events' texts
        (and, when :meth:`encode` made it, remembered for :meth:`decode`)."""
        text, spans = texts.splice(plain_state)
        log = plain_state.get("log")
        made = self._encoded.pop(id(log), None) if log is not None else None
        if made is not None and made[0] is log and "log" in spans:
            _remember(self._written, id(text), (text, *spans["log"], made[1]), self._KEEP)
        return text


def _remember(memory: OrderedDict[Any, Any], key: Any, value: Any, size: int) -> None:
    memory[key] = value
    memory.move_to_end(key)
    while len(memory) > size:
        memory.popitem(last=False)


def _event_row(e: Event) -> dict[str, Any]:
    return e.model_dump(mode="json", exclude_defaults=True)


COMBAT_CODEC = CombatCodec()


__all__ = ["COMBAT_CODEC", "CombatCodec"]
