"""Armour: extra 体力 above the sheet's maximum (rule book 体力与意志: "穿着盔甲可以为角色增加额外
体力值，而你只需要考虑它有多重就可以"; "规则中…也没有规定它们不能够超过上限").

Reading where the book is silent (the GM sets both numbers, as for an item):

* a piece of armour has a name, the extra 体力 it gives and its 负重; it is kept on the card
  (``TLCharacter.extra["armour"]``);
* its 负重 counts like a weapon's (负重修正 and 敏捷 follow, F5 — "只需要考虑它有多重");
* 总体力 = the sheet's ``r0(检定_体质)`` + the armour's extra 体力 (so ``.crd reset``, ``.lv`` and
  healing all count it); putting armour on adds its 体力 to the current 体力 too; taking it off
  lowers 总体力 and clamps the current 体力 to it (damage is taken from the armour's share first).
  Standard sheet (体力 150, 总负重 175) with 皮甲 +30 体力, 负重 20: 体力 180/180, 负重 20/175,
  负重修正 0.99, 敏捷 172.71.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from chronodice.core.errors import IllegalAction, NotFound

from .rounding import r1
from .sheet import Derived

KEY = "armour"
MAX_ARMOUR = 10


@dataclass(frozen=True)
class Armour:
    name: str
    hp: float
    weight: float


def armour_of(extra: dict[str, Any]) -> list[Armour]:
    return [Armour(str(a["name"]), float(a["hp"]), float(a["weight"])) for a in extra.get(KEY, [])]


def armour_weight(extra: dict[str, Any]) -> float:
    return sum(a.weight for a in armour_of(extra))


def armour_hp(extra: dict[str, Any]) -> float:
    return sum(a.hp for a in armour_of(extra))


def with_armour(d: Derived, extra: dict[str, Any]) -> Derived:
    """The derived values with the armour's extra 体力 on 总体力."""
    bonus = armour_hp(extra)
    return replace(d, hp_max=r1(d.hp_max + bonus)) if bonus else d


def _store(extra: dict[str, Any], pieces: list[Armour]) -> dict[str, Any]:
    out = {k: v for k, v in extra.items() if k != KEY}
    if pieces:
        out[KEY] = [{"name": a.name, "hp": a.hp, "weight": a.weight} for a in pieces]
    return out


def put_on(extra: dict[str, Any], name: str, hp: float, weight: float) -> tuple[dict[str, Any], Armour]:
    if hp < 0 or weight < 0:
        raise IllegalAction("护甲的体力和负重不能为负")
    pieces = [a for a in armour_of(extra) if a.name != name]
    if len(pieces) >= MAX_ARMOUR:
        raise IllegalAction(f"护甲最多{MAX_ARMOUR}件")
    piece = Armour(name, r1(hp), r1(weight))
    return _store(extra, [*pieces, piece]), piece


def take_off(extra: dict[str, Any], index: int) -> tuple[dict[str, Any], Armour]:
    pieces = armour_of(extra)
    if not 1 <= index <= len(pieces):
        raise NotFound(f"序号错误× 共有{len(pieces)}件护甲")
    gone = pieces.pop(index - 1)
    return _store(extra, pieces), gone


__all__ = ["Armour", "armour_hp", "armour_of", "armour_weight", "put_on", "take_off", "with_armour"]
