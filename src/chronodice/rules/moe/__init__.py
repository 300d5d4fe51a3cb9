"""萌E (萌战Evolution): a pure card-game engine, with content packs as data.

Modules: :mod:`.cards` (face info), :mod:`.state` (serialisable state), :mod:`.pack` (YAML packs
validated with pydantic), :mod:`.expr` (safe expressions), :mod:`.engine` (driver, event stack),
:mod:`.effects` (timings, card/skill use, effect primitives), :mod:`.ops` (card and HP
operations), :mod:`.flow` (turns and phases), :mod:`.auto` (timeouts and 托管), :mod:`.record`
(input log + snapshots, replay, pack hash), :mod:`.recovery` (the way on for a game that no
longer rebuilds), :mod:`.testing` (scenario builder); the random-play soak with its invariants
and the public-card audit is a test harness (``tests/moe_soak_harness.py``).  No I/O, no clock, no global
``random``.
"""

from .auto import auto_answer, default_answer
from .engine import Ask, Game, GameOver
from .pack import Pack, load_pack
from .record import DesyncError, admin, new_record, rebuild, replay_full, start, step, to_record
from .state import GameState

__all__ = [
    "Ask",
    "DesyncError",
    "Game",
    "GameOver",
    "GameState",
    "Pack",
    "admin",
    "auto_answer",
    "default_answer",
    "load_pack",
    "new_record",
    "rebuild",
    "replay_full",
    "start",
    "step",
    "to_record",
]
