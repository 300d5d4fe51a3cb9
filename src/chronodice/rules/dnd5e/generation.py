"""Ability scores for a new character: 4d6 drop the lowest, the standard array, point buy.

>>> point_buy_cost([15, 14, 13, 12, 10, 8])
27
>>> point_buy_cost([15, 15, 15, 8, 8, 8])
27
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from chronodice.core.errors import InputSyntaxError

STANDARD_ARRAY: tuple[int, ...] = (15, 14, 13, 12, 10, 8)
POINT_BUY_COST: dict[int, int] = {8: 0, 9: 1, 10: 2, 11: 3, 12: 4, 13: 5, 14: 7, 15: 9}
POINT_BUY_BUDGET = 27
MAX_SETS = 10


@dataclass(frozen=True)
class Score:
    dice: tuple[int, int, int, int]

    @property
    def total(self) -> int:
        return sum(self.dice) - min(self.dice)

    @property
    def dropped(self) -> int:
        return min(self.dice)


def roll_score(rng: random.Random) -> Score:
    return Score((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)))


def roll_set(rng: random.Random) -> list[Score]:
    """Six scores, each 4d6 keeping the highest three."""
    return [roll_score(rng) for _ in range(6)]


def point_buy_cost(scores: list[int]) -> int:
    """The points ``scores`` cost (each 8–15); raises for a score outside the range or not six."""
    if len(scores) != 6:
        raise InputSyntaxError(f"购点要写六个属性值（写了{len(scores)}个），如 .dnd 购点 15 14 13 12 10 8")
    bad = [s for s in scores if s not in POINT_BUY_COST]
    if bad:
        raise InputSyntaxError(f"购点的属性值须在8到15之间（{bad[0]}不行）")
    return sum(POINT_BUY_COST[s] for s in scores)


__all__ = [
    "MAX_SETS",
    "POINT_BUY_BUDGET",
    "POINT_BUY_COST",
    "STANDARD_ARRAY",
    "Score",
    "point_buy_cost",
    "roll_score",
    "roll_set",
]
