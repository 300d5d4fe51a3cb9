"""Weapon 效率 (rule book 武器的描述与纲领: "描述武器强度的数值为效率…效率等于 1 时意味着武器没有
带给角色任何优势").  The book gives no formula; the Excel sheet's is used (``rules/timeline.md`` §7,
绝对效率):

* amplifier (增幅): ``1 + 伤害/100`` — the scalpel of the book (伤害 10) → 1.1;
* artillery (火力) and other: ``DPS / (0.916·L)`` with ``DPS = 伤害·N / (装填时间 + N·前摇)``,
  N = 载弹量 (blank or 0 → 1); 0.916·L is the sheet's per-t output of a reference character.
  "明日"警用手枪 (50, 3 t, 7 rounds, 15 t reload) at L 10: 350/36 = 9.72 → 1.06.

Shown r2.  A firearm's efficiency falls as the level rises (the book: "随着角色等级的提高，火力武器的
效率就会逐渐下降"): the same pistol at L 20 → 0.53.
"""

from __future__ import annotations

from .character import Weapon
from .rounding import r2

REFERENCE_OUTPUT = 0.916
"""Per-t output of the sheet's reference character, per level."""


def dps(w: Weapon) -> float:
    """Damage per t over a full magazine and its reload.

    >>> dps(Weapon("明日", "artillery", damage=50, cast=3, load=7, reload_time=15))
    9.722222222222221
    """
    n = w.load or 1
    time = w.reload_time + n * w.cast
    return w.damage * n / time if time > 0 else 0.0


def efficiency(w: Weapon, level: float) -> float | None:
    """绝对效率, r2 (None when it cannot be computed: level ≤ 0 or a weapon with no time).

    >>> efficiency(Weapon("手术刀", "amplifier", attribute="strength", damage=10), 10)
    1.1
    >>> pistol = Weapon("明日", "artillery", damage=50, cast=3, load=7, reload_time=15)
    >>> efficiency(pistol, 10), efficiency(pistol, 20)
    (1.06, 0.53)
    """
    if w.type == "amplifier":
        return r2(1 + w.damage / 100)
    if level <= 0 or dps(w) <= 0:
        return None
    return r2(dps(w) / (REFERENCE_OUTPUT * level))


__all__ = ["REFERENCE_OUTPUT", "dps", "efficiency"]
