"""D&D 5e rules (pure): checks and saves, the sheet a card holds, hit points and death saves,
spell slots, ability generation and the initiative order.

A check is d20 (two dice, the higher with 优势, the lower with 劣势; both cancel) + modifier
(+ typed ``±N``) against an optional DC; it succeeds when the total reaches the DC (no automatic
success on a natural 20 for ability checks, as the Player's Handbook rules).  The modifier of an
ability is ⌊(score − 10) / 2⌋; a skill or save uses the value written on the card under its name
(the total bonus, as SealDice and character sheets note it), else its ability's modifier plus the
proficiency bonus when the card marks it proficient (:mod:`.sheet`).

>>> ability_modifier(16), ability_modifier(9), ability_modifier(10), ability_modifier(1)
(3, -1, 0, -5)
>>> check_modifier({"感知": 14}, "察觉"), check_modifier({"察觉": 6, "感知": 14}, "察觉"), check_modifier({"wis": 8}, "wis")
((2, '感知'), (6, '察觉'), (-1, '感知'))
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .sheet import (
    ABILITIES,
    SKILLS,
    Sheet,
    Target,
    ability_modifier,
    ability_name,
    check_modifier,
    proficiency_bonus,
    save_name,
    skill_name,
)


@dataclass(frozen=True)
class D20Check:
    dice: tuple[int, ...]
    kept: int
    modifier: int
    dc: int | None

    @property
    def total(self) -> int:
        return self.kept + self.modifier

    @property
    def success(self) -> bool | None:
        return None if self.dc is None else self.total >= self.dc


def roll_d20(
    rng: random.Random, *, advantage: bool = False, disadvantage: bool = False
) -> tuple[tuple[int, ...], int]:
    """One d20, or two keeping the higher (优势) / lower (劣势); both cancel."""
    if advantage != disadvantage:
        dice = (rng.randint(1, 20), rng.randint(1, 20))
        return dice, max(dice) if advantage else min(dice)
    die = rng.randint(1, 20)
    return (die,), die


def roll_check(
    rng: random.Random,
    modifier: int,
    *,
    advantage: bool = False,
    disadvantage: bool = False,
    dc: int | None = None,
) -> D20Check:
    """Roll one check: one d20, or two keeping the higher (优势) / lower (劣势)."""
    dice, kept = roll_d20(rng, advantage=advantage, disadvantage=disadvantage)
    return D20Check(dice=dice, kept=kept, modifier=modifier, dc=dc)


__all__ = [
    "ABILITIES",
    "SKILLS",
    "D20Check",
    "Sheet",
    "Target",
    "ability_modifier",
    "ability_name",
    "check_modifier",
    "proficiency_bonus",
    "roll_check",
    "roll_d20",
    "save_name",
    "skill_name",
]
