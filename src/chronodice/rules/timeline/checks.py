"""Checks, negotiation, windup and weapons: formulas F9–F16 and F21 of ``rules/timeline.md`` §5.

Every roll is 1d100 from an injected ``random.Random``; success is ``roll ≤ rate`` (the rule
book's example says "50 及以下").  Rates are not capped (MayuriBot); a group may choose the
sheet's display (capped at 100 %) in the service.

Decisions where the rules are silent:

* a rate ≤ 0 can never succeed and its opposed-check ratio is infinite (MayuriBot printed 0,
  which would *win* an opposed check);
* negotiation: ``roll ≤ rate`` like every other check (:func:`negotiation_success`), as MayuriBot
  does.  The book's 交涉战 paragraph says "骰值小于成功率则成功", but its general rule (检定:
  "骰值小于等于成功率则成功") governs: the other passages that say 小于 (检定's 目标数值,
  合作检定) are contradicted by their own worked examples ("50 及以下", "40 及以下"), so 小于 there
  is loose wording, not a different rule (issue 25).  Counterpart level and 智力% must be > 0
  (MayuriBot crashed);
* windup needs A > 0 and an impact ≥ 0.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Literal

from chronodice.core.errors import IllegalAction

from .rounding import r0, r1, r2

MAX_IMPACT = 1e9
MAX_WINDUP = 1e6


def d100(rng: random.Random) -> int:
    """An unbiased 1..100 from the injected source."""
    return rng.randint(1, 100)


def check_rate(value: float, target: float) -> float:
    """F9: r0(100·A/(5·T_tar)), not capped (§7: 工程与科技 250 vs 100 → 50; §4.13 力量 175 → 35).

    >>> check_rate(250, 100), check_rate(175, 100), check_rate(1000, 10)
    (50.0, 35.0, 2000.0)
    """
    if target <= 0:
        raise IllegalAction("目标数值应大于0")
    return r0(100 * value / (5 * target))


def cooperative_rate(values: list[float], target: float) -> float:
    """F11 (协同检定): r0(100·ΣA/(5·T_tar)); the book: 120 + 80 vs 100 → 40.

    >>> cooperative_rate([120, 80], 100)
    40.0
    """
    return check_rate(sum(values), target)


def ratio(roll: int, rate: float) -> float:
    """F10: r2(roll/rate); infinite when the rate is ≤ 0 (cannot succeed).

    >>> ratio(25, 50), ratio(35, 80), ratio(5, 0)
    (0.5, 0.44, inf)
    """
    if rate <= 0:
        return math.inf
    return r2(roll / rate)


@dataclass(frozen=True)
class CheckResult:
    """One rolled check."""

    rate: float
    roll: int
    ratio: float

    @property
    def success(self) -> bool:
        return self.roll <= self.rate


def roll_check(rate: float, rng: random.Random) -> CheckResult:
    roll = d100(rng)
    return CheckResult(rate=rate, roll=roll, ratio=ratio(roll, rate))


def opposed_winner(a: float, b: float) -> Literal["a", "b", "tie"]:
    """Opposed check: the lower ratio wins (book: A 25/50 = 0.5, B 35/80 = 0.44 → B).

    Ratios are compared as printed (r2), so 0.44 vs 0.44 is a tie the GM settles.

    >>> opposed_winner(ratio(25, 50), ratio(35, 80)), opposed_winner(0.5, 0.5)
    ('b', 'tie')
    """
    if a == b:
        return "tie"
    return "a" if a < b else "b"


def negotiation_rate(rp: float, bonus: float, level: float, target_level: float, target_int: float) -> float:
    """F12: r0(((rp + bonus)/int% · 10)·(1 + ln(L/L_target))), clamped to 0..100.

    §7 / §4.13: bonus 75 vs level 10, 智力 35 % → RP 100: 50, RP 0: 21; at L 20: 85.

    >>> negotiation_rate(100, 75, 10, 10, 35), negotiation_rate(0, 75, 10, 10, 35)
    (50.0, 21.0)
    >>> negotiation_rate(100, 75, 20, 10, 35), negotiation_rate(-500, 75, 10, 10, 35)
    (85.0, 0.0)
    """
    if target_level <= 0 or target_int <= 0:
        raise IllegalAction("交涉对象的等级和智力%都应大于0")
    if level <= 0:
        raise IllegalAction("角色等级应大于0")
    value = r0((rp + bonus) / target_int * 10 * (1 + math.log(level / target_level)))
    return min(100.0, max(0.0, value))


def negotiation_success(roll: int, rate: float) -> bool:
    """交涉战 succeeds on ``roll ≤ rate``: the book's general rule (检定: 骰值小于等于成功率则成功)
    and MayuriBot; the 交涉战 paragraph's "小于" is the same loose wording the book's own worked
    examples contradict elsewhere (成功率 50 → "50 及以下", 40 → "40 及以下").

    >>> negotiation_success(50, 50.0), negotiation_success(51, 50.0), negotiation_success(100, 100.0)
    (True, False, True)
    >>> negotiation_success(21, 21.0), negotiation_success(1, 0.0)
    (True, False)
    """
    return roll <= rate


def target_value(level: float, difficulty: float) -> int:
    """F21: 目标数值 = level × difficulty (§7: 15×17 = 255, 20×1 = 20).

    >>> target_value(15, 17), target_value(20, 1), target_value(10, 10)
    (255, 20, 100)
    """
    return round(level * difficulty)


def windup(impact: float, value: float) -> float:
    """F13: T = 20·I/A, r2 (§4.13: 力量 175, I 150 → 17.14; quick-start: A = I → 20).

    >>> windup(150, 175), windup(150, 115), windup(150, 150)
    (17.14, 26.09, 20.0)
    """
    _check_attr(value)
    if not 0 <= impact <= MAX_IMPACT:
        raise IllegalAction(f"影响数值应在0到{MAX_IMPACT:g}之间")
    return r2(20 * impact / value)


def sheet_windup(impact: float, value: float) -> int:
    """The Excel sheet's windup: ROUND(I·2·10/A, 0) on the exact value (no r2 first).

    >>> sheet_windup(150, 115), sheet_windup(50, 222.25), windup(50, 222.25)
    (26, 4, 4.5)
    """
    _check_attr(value)
    return math.floor(20 * impact / value + 0.5)


def impact_for(time: float, value: float) -> float:
    """F14: I = (A/10)·(T/2), r2 (§4.13: 力量 175, 10t → 87.5; 敏捷 175, 5t → 43.75).

    Floating-point form, in MayuriBot's operation order: ``r2((A / 10) * (T / 2))`` — divide A
    by 10, divide T by 2, multiply, then r2 on the binary result.  Algebraically A·T/20, but
    ``A * T / 20`` lands on the other side of a .xx5 tie in about 1.3 % of inputs
    (力量 225.78, 15t: 169.335000…08 → 169.34, where A·T/20 = 169.33499…98 → 169.33).

    >>> impact_for(10, 175), impact_for(5, 175), impact_for(15, 225.78)
    (87.5, 43.75, 169.34)
    """
    _check_attr(value)
    if not 0 <= time <= MAX_WINDUP:
        raise IllegalAction(f"前摇应在0到{MAX_WINDUP:g}t之间")
    return r2((value / 10) * (time / 2))


def _check_attr(value: float) -> None:
    if value <= 0:
        raise IllegalAction("该属性的检定值不大于0，无法据此行动")


def amplified(impact: float, damage: float) -> float:
    """F15: recorded impact r1(I·(1 + damage/100)); the windup stays that of I (scalpel 100 → 110).

    >>> amplified(100, 10), amplified(43.75, 0)
    (110.0, 43.8)
    """
    return r1(impact * (1 + damage / 100))


def artillery(damage: float, cast: float, shots: int) -> tuple[float, float]:
    """F16: (impact r2(damage·n), windup r2(cast·n)); revolver 3 dmg, 0.5 t, fire 3 → (9, 1.5).

    >>> artillery(3, 0.5, 3)
    (9.0, 1.5)
    """
    return r2(damage * shots), r2(cast * shots)


def interaction(impact_a: float, impact_b: float) -> tuple[Literal["a", "b", "tie"], float]:
    """交互: the larger impact minus the smaller is what the larger side achieves (200 vs 150 → 50).

    >>> interaction(200, 150), interaction(150, 200), interaction(80, 80)
    (('a', 50.0), ('b', 50.0), ('tie', 0.0))
    """
    if impact_a == impact_b:
        return "tie", 0.0
    return ("a" if impact_a > impact_b else "b"), r1(abs(impact_a - impact_b))


__all__ = [
    "CheckResult",
    "amplified",
    "artillery",
    "check_rate",
    "cooperative_rate",
    "d100",
    "impact_for",
    "interaction",
    "negotiation_rate",
    "negotiation_success",
    "opposed_winner",
    "ratio",
    "roll_check",
    "sheet_windup",
    "target_value",
    "windup",
]
