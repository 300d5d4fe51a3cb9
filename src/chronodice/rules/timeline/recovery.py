"""Recovering 体力 and 意志 outside the battle (rule book 恢复体力 / 恢复意志).

* **Rest**: "一夜的休息可以恢复总意志的五分之一" — each night gives ``总意志/5`` 意志, r1 like every
  resource.  Reading where the book is silent: rest does not raise 意志 above its maximum (it
  recovers, and the book names armour, not rest, as what adds to a maximum); a value already above
  the maximum is kept, not lowered.  Rest gives no 体力 (the book lists 体力's recoveries
  separately: healing skills, 医学 checks, items).
* **Healing through a 医学 check**: "使用医学及生命科学检定，以需要恢复数值的作为目标数值" — the
  target value T is the amount to restore, the rate is the ordinary check rate
  ``r0(100·医学/(5·T))`` (F9), success when ``roll ≤ rate`` (the book's checks are "及以下").
  Reading: the amount asked for is capped at what is missing (the book: "需要恢复数值"), so a
  healthy target needs no check; on a failure nothing is restored.
"""

from __future__ import annotations

from dataclasses import dataclass

from chronodice.core.errors import IllegalAction

from .checks import check_rate
from .rounding import r1

REST_SHARE = 5
"""One night restores 总意志 / 5."""
MAX_NIGHTS = 30


def rest_gain(mp: float, mp_full: float, nights: int = 1) -> float:
    """意志 after ``nights`` of rest: ``min(max, mp + nights·max/5)``, r1, never lowered.

    >>> rest_gain(60.0, 150.0), rest_gain(0.0, 150.0, 5), rest_gain(100.0, 150.0, 3)
    (90.0, 150.0, 150.0)
    >>> rest_gain(160.0, 150.0), rest_gain(10.0, 123.4)
    (160.0, 34.7)
    """
    if not 1 <= nights <= MAX_NIGHTS:
        raise IllegalAction(f"休息天数应在1到{MAX_NIGHTS}之间")
    if mp >= mp_full:
        return mp
    return min(mp_full, r1(mp + nights * mp_full / REST_SHARE))


@dataclass(frozen=True)
class Healing:
    """A 医学 check to restore ``amount`` (already capped at what is missing)."""

    amount: float
    rate: float

    def success(self, roll: int) -> bool:
        return roll <= self.rate


def healing(medicine: float, wanted: float, current: float, full: float) -> Healing:
    """The check for restoring ``wanted`` (capped at ``full − current``): target value = amount.

    Book: 目标数值 = the amount; with 医学 100 (the standard sheet's fields at level 10) restoring
    20 is ``100·100/(5·20)`` = 100 %, restoring 50 is 40 %; 工程 250 vs target 100 → 50 % is the
    book's own example of the same rate.

    >>> healing(100.0, 20, 100.0, 150.0).rate, healing(100.0, 50, 0.0, 150.0).rate
    (100.0, 40.0)
    >>> healing(100.0, 80, 120.0, 150.0)
    Healing(amount=30.0, rate=67.0)
    """
    if wanted <= 0:
        raise IllegalAction("恢复数值应大于0")
    amount = r1(min(wanted, full - current))
    if amount <= 0:
        raise IllegalAction("不需要恢复（已满）")
    return Healing(amount=amount, rate=check_rate(medicine, amount))


__all__ = ["MAX_NIGHTS", "REST_SHARE", "Healing", "healing", "rest_gain"]
