"""CoC 7th derived values (rule book, chapter 3): what a card holds without writing it down.

体力 (HP) = ⌊(体质+体型)/10⌋; 魔法 (MP) = ⌊意志/5⌋; starting 理智 = 意志; 伤害加值 (DB) and
体格 (Build) from 力量+体型 by the table below; 移动 (MOV) 7/8/9 from 力量, 敏捷 and 体型, minus
one per decade of age from 40 (40–49 −1 … 80+ −5).

>>> hit_points(55, 65), magic_points(65), starting_sanity(65)
(12, 13, 65)
>>> [damage_bonus(n) for n in (64, 65, 84, 85, 124, 125, 164, 165, 204, 205, 284, 285, 364, 365)]
... # doctest: +NORMALIZE_WHITESPACE
[('-2', -2), ('-1', -1), ('-1', -1), ('0', 0), ('0', 0), ('1d4', 1), ('1d4', 1), ('1d6', 2),
 ('1d6', 2), ('2d6', 3), ('2d6', 3), ('3d6', 4), ('3d6', 4), ('4d6', 5)]
>>> move_rate(40, 50, 65), move_rate(50, 65, 65), move_rate(70, 80, 65), move_rate(70, 80, 65, age=45)
(7, 8, 9, 8)
>>> move_rate(70, 80, 65, age=39), move_rate(70, 80, 65, age=59), move_rate(70, 80, 65, age=85)
(9, 7, 4)
>>> d = derive({"体质": 55, "体型": 65}, "hp")
>>> d.name, d.value, d.sources
('体力', 12, ('体质', '体型'))
>>> derive({"con": 55}, "体力") is None, derive({"意志": 60}, "san").value, derive({"POW": 62}, "mp").value
(True, 60, 12)
>>> derive({"力量": 70, "体型": 65}, "db").value, derive({"力量": 70, "体型": 65}, "体格").value
('1d4', 1)
>>> derive({"力量": 70, "敏捷": 80, "体型": 65, "年龄": 52}, "mov").value
7
>>> derive({"侦查": 60}, "侦查") is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .skills import canonical, card_value


def hit_points(con: int, siz: int) -> int:
    """体力 (HP): (体质+体型)/10, rounded down."""
    return (con + siz) // 10


def magic_points(pow_: int) -> int:
    """魔法 (MP): 意志/5, rounded down."""
    return pow_ // 5


def starting_sanity(pow_: int) -> int:
    """Starting 理智: equal to 意志."""
    return pow_


def damage_bonus(str_siz: int) -> tuple[str, int]:
    """伤害加值 and 体格 for 力量+体型 (rule book table; from 285 each 80 more adds +1d6 / +1)."""
    table = ((64, "-2", -2), (84, "-1", -1), (124, "0", 0), (164, "1d4", 1), (204, "1d6", 2), (284, "2d6", 3))
    for top, bonus, build in table:
        if str_siz <= top:
            return bonus, build
    extra = (str_siz - 285) // 80 + 1
    return f"{2 + extra}d6", 3 + extra


def move_rate(strength: int, dex: int, siz: int, age: int | None = None) -> int:
    """移动 (MOV): 7 when both 力量 and 敏捷 are below 体型, 9 when both are above, else 8; then
    −1 for each decade of age from 40 (40–49 −1, 50–59 −2, …, 80 and over −5)."""
    if strength < siz and dex < siz:
        base = 7
    elif strength > siz and dex > siz:
        base = 9
    else:
        base = 8
    if age is not None and age >= 40:
        base -= min(5, (age - 30) // 10)
    return base


@dataclass(frozen=True)
class Derived:
    """A derived value computed from a card: its canonical name, the value, and the
    characteristics it came from (for the reply: ``由体质、体型算出12``)."""

    name: str
    value: int | str
    sources: tuple[str, ...]


Rule = tuple[tuple[str, ...], Callable[..., int | str]]

DERIVATIONS: dict[str, Rule] = {
    "体力": (("体质", "体型"), hit_points),
    "魔法": (("意志",), magic_points),
    "理智": (("意志",), starting_sanity),
    "伤害加值": (("力量", "体型"), lambda s, z: damage_bonus(s + z)[0]),
    "体格": (("力量", "体型"), lambda s, z: damage_bonus(s + z)[1]),
    "移动": (("力量", "敏捷", "体型"), move_rate),
}
"""Each derived value: the characteristics it needs (all on the card) and the formula."""

DERIVED_ALIASES: dict[str, str] = {
    "db": "伤害加值",
    "伤害奖励": "伤害加值",
    "build": "体格",
    "mov": "移动",
    "移动力": "移动",
}
"""Names of the values :func:`~chronodice.rules.coc7.skills.canonical` does not know."""


def derived_name(name: str) -> str | None:
    """The canonical name of a derived value (``hp`` → 体力, ``DB`` → 伤害加值), else ``None``."""
    want = DERIVED_ALIASES.get(name.lower(), canonical(name))
    return want if want in DERIVATIONS else None


def derive(attrs: Mapping[str, Any], name: str) -> Derived | None:
    """``name``'s derived value from the card's characteristics (any alias: ``CON``, ``con``),
    or ``None`` when ``name`` is not a derived value or a characteristic it needs is missing.
    移动 also reads 年龄 when the card has it."""
    want = derived_name(name)
    if want is None:
        return None
    sources, formula = DERIVATIONS[want]
    values = [card_value(attrs, s) for s in sources]
    if any(v is None for v in values):
        return None
    extra: dict[str, Any] = {}
    if want == "移动":
        age = card_value(attrs, "年龄")
        if age is not None:
            extra["age"] = age
    return Derived(want, formula(*values, **extra), sources)


def missing_derived(attrs: Mapping[str, Any]) -> dict[str, int | str]:
    """Every derived value the card lacks but its characteristics give (``.st show``).

    >>> missing_derived({"体质": 55, "体型": 65, "意志": 60, "体力": 9})
    {'魔法': 12, '理智': 60}
    """
    out: dict[str, int | str] = {}
    for name in DERIVATIONS:
        if name not in attrs and (d := derive(attrs, name)) is not None:
            out[name] = d.value
    return out


__all__ = [
    "DERIVATIONS",
    "DERIVED_ALIASES",
    "Derived",
    "damage_bonus",
    "derive",
    "derived_name",
    "hit_points",
    "magic_points",
    "missing_derived",
    "move_rate",
    "starting_sanity",
]
