"""The 004 two-die check of the D20 tick system (004 「检定规则」).

004 「检定规则」: two attribute dice ``［A+B］``; equal faces give 「双X」: 双1 → +1 物语点,
双6 or higher → +1 机会; no N1/N20, no 大成功/大失败.  The high roll (HR) is the larger die;
the minimum damage of a failed attack is the damage with HR 0, minus 4.

Pure module: randomness comes from the ``rng`` argument.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from chronodice.core.errors import InputSyntaxError, NotFound

from .card import lookup
from .modifiers import Modifier, stack

ATTRIBUTES_004: dict[str, tuple[str, ...]] = {
    "DEX": ("dex", "敏捷"),
    "INS": ("ins", "洞察", "灵感"),
    "MIG": ("mig", "力量", "体魄"),
    "WLP": ("wlp", "意志"),
}
"""004 attribute dice (sizes from the 32 creation points)."""


@dataclass(frozen=True)
class TwoDieRoll:
    """An 004 ``［A+B］`` check."""

    sizes: tuple[int, int]
    dice: tuple[int, int]
    modifier: int
    total: int
    doubles: int | None = None
    story_point: bool = False
    opportunity: bool = False

    @property
    def high_roll(self) -> int:
        """HR: the larger of the two dice."""
        return max(self.dice)


def two_die_from_dice(sizes: tuple[int, int], dice: tuple[int, int], modifier: int) -> TwoDieRoll:
    """The 004 result for given dice (S08's numbers).

    >>> r = two_die_from_dice((8, 6), (5, 5), 6); (r.total, r.doubles, r.story_point, r.opportunity)
    (16, 5, False, False)
    >>> r = two_die_from_dice((8, 6), (1, 1), 6); (r.total, r.story_point)
    (8, True)
    >>> r = two_die_from_dice((8, 6), (6, 6), 6); (r.total, r.opportunity)
    (18, True)
    """
    doubles = dice[0] if dice[0] == dice[1] else None
    return TwoDieRoll(
        sizes=sizes,
        dice=dice,
        modifier=modifier,
        total=dice[0] + dice[1] + modifier,
        doubles=doubles,
        story_point=doubles == 1,
        opportunity=doubles is not None and doubles >= 6,
    )


def roll_two_die(
    rng: random.Random, sizes: tuple[int, int], modifiers: Iterable[Modifier] | int = 0
) -> TwoDieRoll:
    """Roll ``［A+B］`` with dice of the given sizes."""
    for size in sizes:
        if not 1 <= size <= 1000:
            raise InputSyntaxError(f"属性骰尺寸应在1~1000之间，不是{size}")
    modifier = modifiers if isinstance(modifiers, int) else stack(modifiers)
    dice = (rng.randint(1, sizes[0]), rng.randint(1, sizes[1]))
    return two_die_from_dice(sizes, dice, modifier)


def attribute_die_004(attrs: Mapping[str, int], name: str) -> int:
    """Size of an 004 attribute die on a card (``DEX: 8`` or ``敏捷: 8``)."""
    key = name.upper()
    value = lookup(attrs, key, *ATTRIBUTES_004.get(key, ()))
    if value is None:
        raise NotFound(f"角色卡上没有{key}骰尺寸（用 .st {key} 8 设置）")
    return value


def attack_damage(high_roll: int, base: int) -> int:
    """Damage of a hit: HR + the attack's base damage (004 最低伤害 context).

    >>> attack_damage(7, 5)
    12
    """
    return high_roll + base


def minimum_damage(base: int) -> int:
    """004 最低伤害: a failed attack still deals its damage with HR 0, minus 4 (not below 0).

    >>> minimum_damage(10), minimum_damage(3)
    (6, 0)
    """
    return max(0, base - 4)


__all__ = [
    "ATTRIBUTES_004",
    "TwoDieRoll",
    "attack_damage",
    "attribute_die_004",
    "minimum_damage",
    "roll_two_die",
    "two_die_from_dice",
]
