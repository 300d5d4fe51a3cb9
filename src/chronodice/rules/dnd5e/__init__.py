"""D&D 5e ability and skill checks (pure): what ``.rc`` means in a group set to ``.set dnd5e``.

A check is d20 (two dice, the higher with 优势, the lower with 劣势; both cancel) + modifier
(+ typed ``±N``) against an optional DC; it succeeds when the total reaches the DC (no automatic
success on a natural 20 for ability checks, as the Player's Handbook rules).  The modifier of an
ability is ⌊(score − 10) / 2⌋; a skill uses the value written on the card under its name (the total
bonus, as SealDice and character sheets note it), else its ability's modifier.

>>> ability_modifier(16), ability_modifier(9), ability_modifier(10), ability_modifier(1)
(3, -1, 0, -5)
>>> check_modifier({"感知": 14}, "察觉"), check_modifier({"察觉": 6, "感知": 14}, "察觉"), check_modifier({"wis": 8}, "wis")
((2, '感知'), (6, '察觉'), (-1, '感知'))
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chronodice.core.errors import NotFound

ABILITIES: dict[str, tuple[str, ...]] = {
    "力量": ("str",),
    "敏捷": ("dex",),
    "体质": ("con",),
    "智力": ("int",),
    "感知": ("wis",),
    "魅力": ("cha",),
}

SKILLS: dict[str, str] = {
    "运动": "力量",
    "体操": "敏捷",
    "特技": "敏捷",
    "巧手": "敏捷",
    "隐匿": "敏捷",
    "奥秘": "智力",
    "历史": "智力",
    "调查": "智力",
    "自然": "智力",
    "宗教": "智力",
    "驯兽": "感知",
    "驯养动物": "感知",
    "洞悉": "感知",
    "医药": "感知",
    "察觉": "感知",
    "求生": "感知",
    "欺瞒": "魅力",
    "威吓": "魅力",
    "表演": "魅力",
    "说服": "魅力",
}
"""The 18 skills (two spellings for 体操/特技 and 驯兽/驯养动物) and their abilities."""


def ability_name(name: str) -> str | None:
    """The ability ``name`` means (``str``, ``STR``, ``力量``), or ``None``."""
    low = name.strip().lower()
    for ability, aliases in ABILITIES.items():
        if name.strip() == ability or low in aliases:
            return ability
    return None


def ability_modifier(score: int) -> int:
    return (score - 10) // 2


def _score(attrs: Mapping[str, Any], ability: str) -> int | None:
    for key in (ability, *ABILITIES[ability], *(a.upper() for a in ABILITIES[ability])):
        value = attrs.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return int(value)
    return None


def check_modifier(attrs: Mapping[str, Any], name: str) -> tuple[int, str]:
    """The modifier of an ability or skill check and where it came from (the name read)."""
    ability = ability_name(name)
    if ability is None:
        skill = name.strip()
        if skill not in SKILLS:
            raise NotFound(
                f"没有「{skill[:20]}」这项属性或技能（属性：{'/'.join(ABILITIES)}；技能如 察觉、运动、隐匿）"
            )
        value = attrs.get(skill)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return int(value), skill
        ability = SKILLS[skill]
    score = _score(attrs, ability)
    if score is None:
        raise NotFound(f"角色卡上没有{ability}（.st {ability}14 设置）")
    return ability_modifier(score), ability


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


def roll_check(
    rng: random.Random,
    modifier: int,
    *,
    advantage: bool = False,
    disadvantage: bool = False,
    dc: int | None = None,
) -> D20Check:
    """Roll one check: one d20, or two keeping the higher (优势) / lower (劣势)."""
    if advantage and not disadvantage:
        dice = (rng.randint(1, 20), rng.randint(1, 20))
        kept = max(dice)
    elif disadvantage and not advantage:
        dice = (rng.randint(1, 20), rng.randint(1, 20))
        kept = min(dice)
    else:
        dice = (rng.randint(1, 20),)
        kept = dice[0]
    return D20Check(dice=dice, kept=kept, modifier=modifier, dc=dc)


__all__ = [
    "ABILITIES",
    "SKILLS",
    "D20Check",
    "ability_modifier",
    "ability_name",
    "check_modifier",
    "roll_check",
]
