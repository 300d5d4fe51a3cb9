"""Turning a pool roll into a result: bonus successes, lost successes, DC, opposed rolls, attacks.

Seed 003, «检定» step 4–5, «附加成功的使用», «机运骰».  Pure functions over
:class:`~chronodice.rules.pool10.pool.PoolRoll`.

Rules and the readings taken where the seed is silent:

* **Bonus successes** (附加成功) are added only when the effective successes — natural successes
  minus successes lost (``lost``: penalties, a defender's cancelling bonus successes) — are
  greater than 0.  A roll whose effective successes are 0 or less is a failure whatever the
  bonuses.  Negative effective successes are shown as 0.
* A **chance roll** gets no bonus successes at all (the seed: no ability that increases the
  result applies to it); lost successes still apply.
* **DC**: success when the final successes ≥ DC (the seed's general rule), margin = successes −
  DC.  A roll with 0 successes is never a success, even against DC 0.
* **Opposed** (对抗): the first side's final successes become the second side's DC.  By default the
  second side wins with successes ≥ that DC (the seed's general rule «大于或等于»; the stealth
  example's «超过» is read as loose wording).  A group may choose the strict reading
  (``TieRule.STRICT``: the second side must exceed).  Either way the second side needs at least
  one success.
* **Defence** (防御附加成功): bonus successes declared by the defender before the attack roll
  cancel the attacker's *natural* successes one for one.  If they cancel all of them the attack
  misses: the attacker's bonus successes and on-hit effects do not apply.  Otherwise the attack
  hits with (natural − defence) + attack bonus.  Declared points beyond the attacker's natural
  successes are wasted (the seed's 注意事项).

>>> from chronodice.rules.pool10.pool import PoolRoll
>>> roll = PoolRoll(size=4, again=10, rounds=((8, 3, 9, 2),))
>>> r = resolve(roll, bonus=2, dc=3)
>>> r.natural, r.total, r.success, r.margin
(2, 4, True, 1)
>>> resolve(roll, bonus=5, lost=2).total
0
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from chronodice.core.errors import InputSyntaxError

from .pool import PoolRoll

MAX_BONUS = 1000
MAX_DC = 1000


class TieRule(str, enum.Enum):
    """How an opposed roll is decided when both sides have the same successes."""

    AT_LEAST = "ge"
    """The second side needs successes ≥ the first side's (seed's general rule; default)."""
    STRICT = "gt"
    """The second side must exceed the first side's successes (the stealth example's «超过»)."""


def attribute_bonus(value: int) -> int:
    """Bonus successes an attribute value gives: 6 → 1, 11 → 2, each 5 more → one more.

    >>> [attribute_bonus(v) for v in (1, 5, 6, 10, 11, 15, 16, 21)]
    [0, 0, 1, 1, 2, 2, 3, 4]
    """
    if value < 6:
        return 0
    return 1 + (value - 6) // 5


def _check_amount(value: int, what: str, limit: int = MAX_BONUS) -> int:
    if value < 0:
        raise InputSyntaxError(f"{what}不能为负数")
    if value > limit:
        raise InputSyntaxError(f"{what}最多{limit}")
    return value


@dataclass(frozen=True)
class CheckResult:
    """A resolved pool check.

    ``natural``: successes on the dice; ``lost``: successes taken away before bonuses;
    ``bonus``: bonus successes available; ``bonus_applied``: those actually added (0 when the
    effective successes are 0 or less, or on a chance roll); ``total``: final successes (≥ 0);
    ``dc``: target, or ``None``.
    """

    roll: PoolRoll
    natural: int
    lost: int
    bonus: int
    bonus_applied: int
    total: int
    dc: int | None = None

    @property
    def effective(self) -> int:
        """Natural successes minus lost ones (may be negative)."""
        return self.natural - self.lost

    @property
    def bonus_blocked(self) -> bool:
        """Bonus successes were available but could not be added."""
        return self.bonus > 0 and self.bonus_applied == 0

    @property
    def success(self) -> bool:
        """At least one success, and at least the DC when there is one."""
        if self.total <= 0:
            return False
        return self.dc is None or self.total >= self.dc

    @property
    def margin(self) -> int | None:
        """Successes over the DC (negative: short of it); ``None`` without a DC."""
        return None if self.dc is None else self.total - self.dc

    @property
    def dramatic_failure(self) -> bool:
        return self.roll.dramatic_failure

    def to_dict(self) -> dict[str, Any]:
        return {
            "roll": self.roll.to_dict(),
            "natural": self.natural,
            "lost": self.lost,
            "bonus": self.bonus,
            "bonus_applied": self.bonus_applied,
            "total": self.total,
            "dc": self.dc,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckResult:
        return cls(
            roll=PoolRoll.from_dict(data["roll"]),
            natural=int(data["natural"]),
            lost=int(data["lost"]),
            bonus=int(data["bonus"]),
            bonus_applied=int(data["bonus_applied"]),
            total=int(data["total"]),
            dc=None if data.get("dc") is None else int(data["dc"]),
        )


def resolve(roll: PoolRoll, *, bonus: int = 0, lost: int = 0, dc: int | None = None) -> CheckResult:
    """Apply bonus successes (only if effective successes > 0), lost successes and a DC."""
    _check_amount(bonus, "附加成功")
    _check_amount(lost, "扣除的成功数")
    if dc is not None:
        _check_amount(dc, "DC", MAX_DC)
    natural = roll.natural_successes
    effective = natural - lost
    applied = bonus if effective > 0 and not roll.chance else 0
    total = max(0, effective) + applied
    return CheckResult(
        roll=roll, natural=natural, lost=lost, bonus=bonus, bonus_applied=applied, total=total, dc=dc
    )


@dataclass(frozen=True)
class OpposedResult:
    """对抗: ``first`` sets the DC that ``second`` must reach (or exceed, under ``STRICT``)."""

    first: CheckResult
    second: CheckResult
    tie_rule: TieRule = TieRule.AT_LEAST

    @property
    def dc(self) -> int:
        """The DC the second side faced: the first side's successes."""
        return self.first.total

    @property
    def second_wins(self) -> bool:
        s, d = self.second.total, self.dc
        if s <= 0:
            return False
        return s > d if self.tie_rule is TieRule.STRICT else s >= d

    @property
    def tie(self) -> bool:
        return self.first.total == self.second.total


def opposed(first: CheckResult, second: CheckResult, tie_rule: TieRule = TieRule.AT_LEAST) -> OpposedResult:
    """Decide an opposed roll; each side was resolved on its own (bonuses included).

    >>> from chronodice.rules.pool10.pool import PoolRoll
    >>> a = resolve(PoolRoll(size=3, again=10, rounds=((8, 9, 1),)))
    >>> b = resolve(PoolRoll(size=3, again=10, rounds=((10, 2, 8), (4,))))
    >>> opposed(a, b).second_wins, opposed(a, b, TieRule.STRICT).second_wins
    (True, False)
    """
    return OpposedResult(first=first, second=second, tie_rule=tie_rule)


@dataclass(frozen=True)
class AttackResult:
    """An attack roll against declared defence bonus successes."""

    check: CheckResult
    defence: int
    """Defence bonus successes the defender declared for this attack."""

    @property
    def hit(self) -> bool:
        """The attack hits unless the defence cancelled all natural successes (or there were none)."""
        return self.check.effective > 0

    @property
    def cancelled(self) -> int:
        """Natural successes the defence cancelled."""
        return min(self.defence, self.check.natural)

    @property
    def wasted_defence(self) -> int:
        """Declared defence beyond the attacker's natural successes (seed: 无可避免地浪费了)."""
        return max(0, self.defence - self.check.natural)

    @property
    def successes(self) -> int:
        """Attack successes after defence and attack bonus (0 on a miss)."""
        return self.check.total if self.hit else 0


def resolve_attack(roll: PoolRoll, *, attack_bonus: int = 0, defence: int = 0) -> AttackResult:
    """An attack: the declared defence cancels natural successes first, then the attack bonus
    applies only if some natural success is left.

    >>> from chronodice.rules.pool10.pool import PoolRoll
    >>> roll = PoolRoll(size=5, again=10, rounds=((8, 9, 3, 2, 1),))
    >>> a = resolve_attack(roll, attack_bonus=3, defence=2)
    >>> a.hit, a.successes, a.check.bonus_applied
    (False, 0, 0)
    >>> b = resolve_attack(roll, attack_bonus=3, defence=1)
    >>> b.hit, b.successes
    (True, 4)
    """
    _check_amount(defence, "防御附加成功")
    check = resolve(roll, bonus=attack_bonus, lost=defence)
    return AttackResult(check=check, defence=defence)


__all__ = [
    "AttackResult",
    "CheckResult",
    "OpposedResult",
    "TieRule",
    "attribute_bonus",
    "opposed",
    "resolve",
    "resolve_attack",
]
