"""TimeLine (时间线) rules engine: pure functions and immutable state, no I/O.

Modules: :mod:`.rounding` (MayuriBot's r0/r1/r2), :mod:`.attributes` (the 11 check attributes
and lookup), :mod:`.sheet` (F1–F8, F20), :mod:`.importing` (``.TLsetup``/``.setupWP`` lines),
:mod:`.modifiers` (buffs F17, resource modifiers F18–F19), :mod:`.checks` (F9–F16, F21, opposed,
cooperative, interaction), :mod:`.character` (the stored character and its transitions),
:mod:`.battle` (the battle timeline state machine).  Nothing here imports NoneBot, SQLAlchemy,
a clock or the global ``random``; randomness comes in as a ``random.Random`` argument.
"""

from __future__ import annotations

from .attributes import CN, lookup_attribute, lookup_range
from .battle import BattleState, ParticipantRef, new_battle
from .character import TLCharacter, Weapon, import_sheet
from .importing import parse_setupwp, parse_tlsetup
from .sheet import Derived, Resources, Sheet, derive

__all__ = [
    "CN",
    "BattleState",
    "Derived",
    "ParticipantRef",
    "Resources",
    "Sheet",
    "TLCharacter",
    "Weapon",
    "derive",
    "import_sheet",
    "lookup_attribute",
    "lookup_range",
    "new_battle",
    "parse_setupwp",
    "parse_tlsetup",
]
