"""Typed modifiers and their stacking rule (seed 002, 第三章「修正值」).

Modifiers come in four types: 通用, 环境, 内在, 状态.  Within one type other than 通用, bonuses
do not stack with each other and penalties do not stack with each other, but the largest bonus
and the largest penalty of a type do add up.  通用 modifiers always stack.  A modifier whose
type is not stated is 通用.

Pure module: no I/O, no randomness.

>>> stack([Modifier(-4, "状态"), Modifier(-2, "状态")])
-4
>>> stack([Modifier(-4, "状态"), Modifier(-2, "状态"), Modifier(3, "状态")])
-1
>>> stack([Modifier(-2), Modifier(-3)])
-5
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from chronodice.core.errors import InputSyntaxError

MOD_TYPES: tuple[str, ...] = ("通用", "环境", "内在", "状态")
"""The four modifier types; 通用 is the default."""

GENERAL = "通用"


@dataclass(frozen=True)
class Modifier:
    """One bonus (value > 0) or penalty (value < 0) of a type.

    >>> Modifier(3, "环境")
    Modifier(value=3, type='环境', source='')
    """

    value: int
    type: str = GENERAL
    source: str = ""

    def __post_init__(self) -> None:
        if self.type not in MOD_TYPES:
            raise InputSyntaxError(f"修正类型只能是{'/'.join(MOD_TYPES)}，不是「{self.type}」")


def stack(mods: Iterable[Modifier]) -> int:
    """Net value of ``mods`` under the stacking rule.

    >>> stack([Modifier(2, "环境"), Modifier(5, "环境"), Modifier(-1, "环境"), Modifier(1)])
    5
    >>> stack([])
    0
    """
    total = 0
    best_bonus: dict[str, int] = {}
    worst_penalty: dict[str, int] = {}
    for mod in mods:
        if mod.type == GENERAL:
            total += mod.value
        elif mod.value > 0:
            best_bonus[mod.type] = max(best_bonus.get(mod.type, 0), mod.value)
        elif mod.value < 0:
            worst_penalty[mod.type] = min(worst_penalty.get(mod.type, 0), mod.value)
    return total + sum(best_bonus.values()) + sum(worst_penalty.values())


def parse_mod_type(text: str) -> str:
    """Map a type word (or its first character) to the canonical type.

    >>> parse_mod_type("状态"), parse_mod_type("环"), parse_mod_type("")
    ('状态', '环境', '通用')
    """
    text = text.strip()
    if not text:
        return GENERAL
    for name in MOD_TYPES:
        if text == name or text == name[0]:
            return name
    raise InputSyntaxError(f"修正类型只能是{'/'.join(MOD_TYPES)}，不是「{text}」")


__all__ = ["GENERAL", "MOD_TYPES", "Modifier", "parse_mod_type", "stack"]
