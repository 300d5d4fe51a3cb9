"""Call of Cthulhu 7th edition rules (pure): checks and house rules, skill names and base
values, sanity, skill growth, investigator generation and the bouts-of-madness tables."""

from __future__ import annotations

from .checks import RULES, CheckOutcome, Difficulty, Level, improves, judge
from .skills import canonical, card_value, skill_value

__all__ = [
    "RULES",
    "CheckOutcome",
    "Difficulty",
    "Level",
    "canonical",
    "card_value",
    "improves",
    "judge",
    "skill_value",
]
