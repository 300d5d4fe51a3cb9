"""What a character card holds for the D10 pool system, and the bonus successes it gives.

A card's ``attributes`` (flat name → number, edited with ``.st``) give the pool values.  The
system's own data, kept under ``data["pool10"]``, holds bonus successes that are not computed
from a value:

* ``bonus``: name → bonus successes for a skill (the seed's skill rule lives in its «技能概述»
  page, not in our seed, so players enter the number) — or an override for an attribute;
* ``attack``: attack bonus successes from sources other than the pool's attributes and skills
  (equipment, 强化 …);
* ``defence``: the character's defence bonus successes (declared before an attack);
* ``legend``: how many of those come from 传奇敏捷/传奇感知 (``.ww 附加 传奇防御2``): they are lost
  while the character's base defence is 0 (seed 003, 冲锋/多次攻击减值/高速).

Attributes give bonus successes by the seed's formula (6 → 1, 11 → 2, each 5 more → one more,
:func:`~chronodice.rules.pool10.check.attribute_bonus`).  Which names are attributes: the usual
无限恐怖/WoD ones in :data:`DEFAULT_ATTRIBUTES`; any name with an entry in ``bonus`` uses that
entry instead.

>>> card = Pool10Card(bonus={"潜行": 1})
>>> card.term_bonus("敏捷", 11), card.term_bonus("潜行", 3), card.term_bonus("运动", 4)
(2, 1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chronodice.core.errors import IllegalAction, InputSyntaxError

from .check import MAX_BONUS, attribute_bonus

SCHEMA_VERSION = 1
DATA_KEY = "pool10"
MAX_ENTRIES = 100
DEFAULT_ATTRIBUTES: frozenset[str] = frozenset(
    {
        "力量",
        "敏捷",
        "体质",
        "耐力",
        "智力",
        "感知",
        "意志",
        "决心",
        "魅力",
        "风度",
        "操控",
        "沉着",
    }
)
"""Names read as attributes (bonus successes by the seed's formula)."""
ATTACK_KEYS = ("攻击", "攻击附加", "attack")
DEFENCE_KEYS = ("防御", "防御附加", "defence", "defense")
LEGEND_KEYS = ("传奇防御", "传奇", "legend")


@dataclass(frozen=True)
class Pool10Card:
    """The pool system's part of a character card (``data["pool10"]``)."""

    bonus: dict[str, int] = field(default_factory=dict)
    attack: int = 0
    defence: int = 0
    legend: int = 0
    schema_version: int = SCHEMA_VERSION

    def term_bonus(self, name: str, value: int) -> int:
        """Bonus successes a term brings to a check."""
        if name in self.bonus:
            return self.bonus[name]
        if name in DEFAULT_ATTRIBUTES:
            return attribute_bonus(value)
        return 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "bonus": dict(sorted(self.bonus.items())),
            "attack": self.attack,
            "defence": self.defence,
            **({"legend": self.legend} if self.legend else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Pool10Card:
        if not data:
            return cls()
        return cls(
            bonus={str(k): int(v) for k, v in dict(data.get("bonus", {})).items()},
            attack=int(data.get("attack", 0)),
            defence=int(data.get("defence", 0)),
            legend=int(data.get("legend", 0)),
        )

    @classmethod
    def of(cls, character_data: dict[str, Any] | None) -> Pool10Card:
        """Read from a whole character ``data`` dict."""
        return cls.from_dict((character_data or {}).get(DATA_KEY))

    def with_entries(self, entries: list[tuple[str, int]]) -> Pool10Card:
        """Set bonus entries; ``攻击``/``防御`` set the attack and defence bonus."""
        bonus, attack, defence, legend = dict(self.bonus), self.attack, self.defence, self.legend
        for name, value in entries:
            if not 0 <= value <= MAX_BONUS:
                raise InputSyntaxError(f"「{name}」的附加成功应为0到{MAX_BONUS}")
            if name in ATTACK_KEYS:
                attack = value
            elif name in DEFENCE_KEYS:
                defence = value
            elif name in LEGEND_KEYS:
                legend = value
            else:
                bonus[name] = value
        if len(bonus) > MAX_ENTRIES:
            raise IllegalAction(f"一张卡最多记录{MAX_ENTRIES}项附加成功")
        if legend > defence:
            raise IllegalAction(
                f"传奇防御附加成功{legend}不能超过防御附加成功{defence}（它是防御附加成功的一部分）"
            )
        return Pool10Card(bonus=bonus, attack=attack, defence=defence, legend=legend)

    def without(self, names: list[str]) -> Pool10Card:
        bonus = {k: v for k, v in self.bonus.items() if k not in names}
        attack = 0 if any(n in ATTACK_KEYS for n in names) else self.attack
        defence = 0 if any(n in DEFENCE_KEYS for n in names) else self.defence
        legend = 0 if defence == 0 or any(n in LEGEND_KEYS for n in names) else self.legend
        return Pool10Card(bonus=bonus, attack=attack, defence=defence, legend=legend)


__all__ = ["ATTACK_KEYS", "DATA_KEY", "DEFAULT_ATTRIBUTES", "DEFENCE_KEYS", "LEGEND_KEYS", "Pool10Card"]
