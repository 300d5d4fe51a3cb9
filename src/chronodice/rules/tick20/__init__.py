"""D20 tick-initiative system (seed 002 chapter 3 and the 004 追加规则): checks and the combat tracker.

Pure engine package: no I/O, no NoneBot, no SQLAlchemy, no clock, no global ``random``.

* :mod:`.checks` — d20 checks, skill modifiers, the 004 two-die check;
* :mod:`.modifiers` — typed modifiers and the stacking rule;
* :mod:`.model` — the JSON-serialisable combat state;
* :mod:`.variants` — the BASE / SPD timing arithmetic;
* :mod:`.durations` — effect durations as written in chat;
* :mod:`.health` — 002 wounds, 004 Hit Gauges;
* :mod:`.engine` — the tracker's transitions (each returns a new state and events).
"""

from __future__ import annotations

from . import checks, durations, engine, health, model, modifiers, variants
from .engine import Outcome, find, forecast, new_combat
from .model import Combat, Combatant, Duration, DurationKind, Effect, Event, InitMod, InitRoll, Phase, Variant

__all__ = [
    "Combat",
    "Combatant",
    "Duration",
    "DurationKind",
    "Effect",
    "Event",
    "InitMod",
    "InitRoll",
    "Outcome",
    "Phase",
    "Variant",
    "checks",
    "durations",
    "engine",
    "find",
    "forecast",
    "health",
    "model",
    "modifiers",
    "new_combat",
    "variants",
]
