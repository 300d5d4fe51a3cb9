"""Distance, movement and weapon range (rule book 距离; the sheet's 战斗方盒 tab).

* **Box distance** (战斗方盒): the distance between two points of the battle box is
  ``√(长² + 宽² + 高²)``, r1, in D (``rules/timeline.md`` §6).  3, 4, 12 → 13.0 D.
* **Movement**: "距离…可以以影响数值的身份出现在玩家的行为中" — moving d D is an action whose
  impact is d; its windup is F13 with the attribute chosen (敏捷 for running):
  ``T = 20·d/A``.  Standard sheet (敏捷 175): 13 D → 1.49 t; 35 D → 4.0 t.
* **Weapon range** (射程 "武器可以命中的范围"): a target at distance d is in range when
  ``d ≤ 射程``.  The sheet writes 射程 as free text; the first number in it is read as D
  (``"15D"``, ``"射程15"`` → 15); text without a number (``"近战"``) is no limit the bot can check.
  Reading where the book is silent: without a weapon, bare hands reach 1 D (a GM may rule
  otherwise; the bot only warns, it never blocks an action).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from chronodice.core.errors import IllegalAction

from .checks import windup
from .rounding import r1

UNARMED_REACH = 1.0
MAX_SIDE = 1e6


def box_distance(*sides: float) -> float:
    """√(Σ side²), r1 (1 to 3 sides: a line, a floor, the box).

    >>> box_distance(3, 4, 12), box_distance(3, 4), box_distance(10), box_distance(1, 1, 1)
    (13.0, 5.0, 10.0, 1.7)
    """
    if not 1 <= len(sides) <= 3:
        raise IllegalAction("距离需要1到3个边长（长 宽 高）")
    if any(abs(s) > MAX_SIDE for s in sides):
        raise IllegalAction("边长太大")
    return r1(math.sqrt(sum(s * s for s in sides)))


def move_windup(distance: float, value: float) -> float:
    """Windup of moving ``distance`` D with the attribute value ``value`` (F13, impact = distance).

    >>> move_windup(13.0, 175.0), move_windup(35.0, 175.0)
    (1.49, 4.0)
    """
    return windup(distance, value)


def weapon_reach(range_text: str) -> float | None:
    """The first number of a weapon's 射程 text, in D (None: no number, nothing to check).

    >>> weapon_reach("15D"), weapon_reach("射程 2.5d"), weapon_reach("近战"), weapon_reach("")
    (15.0, 2.5, None, None)
    """
    m = re.search(r"\d+(?:\.\d+)?", range_text or "")
    return float(m.group()) if m else None


@dataclass(frozen=True)
class RangeCheck:
    reach: float | None
    distance: float

    @property
    def in_range(self) -> bool | None:
        return None if self.reach is None else self.distance <= self.reach


def range_check(distance: float, range_text: str | None) -> RangeCheck:
    """``range_text`` None = no weapon: bare hands reach :data:`UNARMED_REACH`.

    >>> range_check(13.0, "15D").in_range, range_check(13.0, "10D").in_range
    (True, False)
    >>> range_check(1.0, None).in_range, range_check(1.1, None).in_range, range_check(5, "近战").in_range
    (True, False, None)
    """
    reach = UNARMED_REACH if range_text is None else weapon_reach(range_text)
    return RangeCheck(reach=reach, distance=distance)


__all__ = ["UNARMED_REACH", "RangeCheck", "box_distance", "move_windup", "range_check", "weapon_reach"]
