"""``.coc``: CoC 7th investigator characteristics (rule book method, no point buy).

力量 体质 敏捷 外貌 意志 幸运: 3d6×5; 体型 智力 教育: (2d6+6)×5.  Derived: 理智 = 意志,
体力 = (体质+体型)/10, 魔法 = 意志/5 (rounded down), 伤害加值/体格 from 力量+体型, 移动 from
力量, 敏捷 and 体型 (7, 8 or 9; age is not asked, so no age penalty).

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

from .skills import CHARACTERISTICS

THREE_D6 = ("力量", "体质", "敏捷", "外貌", "意志", "幸运")
TWO_D6_PLUS_6 = ("体型", "智力", "教育")
MAX_COUNT = 10


def damage_bonus(str_siz: int) -> tuple[str, int]:
    """伤害加值 and 体格 for 力量+体型 (rule book table; above 284 +1d6 / +1 per 80)."""
    table = ((64, "-2", -2), (84, "-1", -1), (124, "0", 0), (164, "1d4", 1), (204, "1d6", 2), (284, "2d6", 3))
    for top, bonus, build in table:
        if str_siz <= top:
            return bonus, build
    extra = (str_siz - 285) // 80 + 1
    return f"{2 + extra}d6", 3 + extra


def move_rate(strength: int, dex: int, siz: int) -> int:
    """移动: 7 when both 力量 and 敏捷 are below 体型, 9 when both are above, else 8."""
    if strength < siz and dex < siz:
        return 7
    if strength > siz and dex > siz:
        return 9
    return 8


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
            "理智": v["意志"],
            "体力": (v["体质"] + v["体型"]) // 10,
            "魔法": v["意志"] // 5,
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
