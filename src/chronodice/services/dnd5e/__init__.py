"""DnD5e (``.set dnd5e``): checks and saves, the 5e card, HP and death saves, spell slots, rests,
ability generation and 5e initiative.  Importing the package registers its commands and hooks
``.rc``/``.st``/``.ri``/``.init``/``.ed`` by group mode.

* :mod:`.checks` — ``.rc`` in dnd5e groups (ability, skill, save), ``.rs``;
* :mod:`.card` — ``.st`` in dnd5e groups (proficiency marks, HP floor, temp HP, massive damage),
  ``dex`` etc. as modifiers in ``.r``;
* :mod:`.rest` — ``.ds`` death saves, ``.ss`` spell slots, ``.长休``/``.短休``;
* :mod:`.generation` — ``.dnd``;
* :mod:`.initiative` — ``.ri`` in dnd5e groups (monsters with HP/AC, NPC cards, hidden ones);
* :mod:`.turns` — ``.init``/``.ed`` in dnd5e groups (turns, conditions, monsters' HP, hiding);
* :mod:`.attack` — ``.atk``: to-hit against AC and damage in one command;
* :mod:`.combat` — the combat session and what the group and the DM read of it.
"""

from __future__ import annotations

from . import attack, card, checks, combat, generation, initiative, rest, turns
from .checks import dnd_rc, rs

__all__ = [
    "attack",
    "card",
    "checks",
    "combat",
    "dnd_rc",
    "generation",
    "initiative",
    "rest",
    "rs",
    "turns",
]
