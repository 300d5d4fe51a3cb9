"""``.coc``: CoC 7th investigator characteristics (rule book method, no point buy).

力量 体质 敏捷 外貌 意志 幸运: 3d6×5; 体型 智力 教育: (2d6+6)×5.  Derived: 理智 = 意志,
体力, 魔法, 伤害加值/体格 and 移动 by :mod:`chronodice.rules.coc7.derived` (age is not asked,
so no age penalty on 移动).

>>> import random
>>> c = generate(random.Random(1))
>>> sorted(c.values) == sorted(["力量", "体质", "体型", "敏捷", "外貌", "智力", "意志", "教育", "幸运"])
True
>>> damage_bonus(64), damage_bonus(65), damage_bonus(124), damage_bonus(125), damage_bonus(205)
(('-2', -2), ('-1', -1), ('0', 0), ('1d4', 1), ('2d6', 3))
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .derived import damage_bonus, hit_points, magic_points, move_rate, starting_sanity
from .skills import CHARACTERISTICS

THREE_D6 = ("力量", "体质", "敏捷", "外貌", "意志", "幸运")
TWO_D6_PLUS_6 = ("体型", "智力", "教育")
MAX_COUNT = 10


@dataclass(frozen=True)
class Investigator:
    values: dict[str, int]

    @property
    def total(self) -> int:
        """Sum of the eight characteristics without 幸运."""
        return sum(v for k, v in self.values.items() if k != "幸运")

    @property
    def derived(self) -> dict[str, int | str]:
        v = self.values
        bonus, build = damage_bonus(v["力量"] + v["体型"])
        return {
            "理智": starting_sanity(v["意志"]),
            "体力": hit_points(v["体质"], v["体型"]),
            "魔法": magic_points(v["意志"]),
            "伤害加值": bonus,
            "体格": build,
            "移动": move_rate(v["力量"], v["敏捷"], v["体型"]),
        }


def generate(rng: random.Random) -> Investigator:
    """One investigator's characteristics, in the order of :data:`CHARACTERISTICS`."""
    values: dict[str, int] = {}
    for name in CHARACTERISTICS:
        if name in THREE_D6:
            values[name] = sum(rng.randint(1, 6) for _ in range(3)) * 5
        else:
            values[name] = (sum(rng.randint(1, 6) for _ in range(2)) + 6) * 5
    return Investigator(values)


__all__ = ["MAX_COUNT", "THREE_D6", "TWO_D6_PLUS_6", "Investigator", "damage_bonus", "generate", "move_rate"]
