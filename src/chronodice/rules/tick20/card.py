"""Reading a D20 tick character card: numbers by name or alias, proficiencies, LV, 速度, SP上限.

A card is whatever ``.st`` stored (keys as the player typed them), so every reader here accepts
the seed's own words and the short forms players write (``闪避``, ``闪避熟练``, ``闪避熟练度``).

Attack proficiency (002 「攻击检定」): "进行攻击检定时，使用的熟练度基于攻击的模式，而非技能
原本的熟练度" — a 武器攻击 uses the character's proficiency with the kind of weapon used, a
魔法攻击 that of her 魔法源流.  ``.rc 近战`` is a melee *weapon* attack (the mode of an attack
made without further words, as the seed's examples of 近战 are weapons and fists); ``.rc 近战魔法``
/ ``.rc 远程魔法`` are magic attacks.  The card records the mode proficiency as ``武器熟练`` (also
``武器熟练度``/``武器攻击熟练``) and ``魔法熟练`` (also ``魔法熟练度``/``魔法源流``/``源流熟练``).
Reading a GM would expect of a card that has no 武器熟练 but a ``近战熟练``/``远程熟练``: that is
the player's record of the weapon kind she uses for that attack type, and is used.  The skill's
own proficiency (``运动`` for 近战) is never used for an attack, as the seed says.

次要领域 (002): a check for an ability of a 次要领域 uses that domain's proficiency instead of the
skill's (:func:`domain_proficiency`; ``.rc 洞悉 15 工程``).

Pure module: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import trunc
from typing import Literal

AttackType = Literal["近战", "远程"]
AttackMode = Literal["武器", "魔法"]

LV_KEYS: tuple[str, ...] = ("LV", "lv", "Lv", "等级")
"""How a card may write its LV (第一章: 角色所有主要领域等级之和)."""

ATTACK_WORDS: dict[str, tuple[AttackType, AttackMode]] = {
    "近战": ("近战", "武器"),
    "近战攻击": ("近战", "武器"),
    "近战武器": ("近战", "武器"),
    "近战武器攻击": ("近战", "武器"),
    "远程": ("远程", "武器"),
    "远程攻击": ("远程", "武器"),
    "远程武器": ("远程", "武器"),
    "远程武器攻击": ("远程", "武器"),
    "近战魔法": ("近战", "魔法"),
    "近战魔法攻击": ("近战", "魔法"),
    "魔法近战": ("近战", "魔法"),
    "远程魔法": ("远程", "魔法"),
    "远程魔法攻击": ("远程", "魔法"),
    "魔法远程": ("远程", "魔法"),
}
"""``.rc`` words of an attack check: its type (which skill) and its mode (which proficiency)."""

ATTACK_SKILL: dict[AttackType, str] = {"近战": "运动", "远程": "灵巧"}
"""002 攻击检定: 近战攻击 defaults to 运动, 远程攻击 to 灵巧."""

MODE_KEYS: dict[AttackMode, tuple[str, ...]] = {
    "武器": ("武器熟练", "武器熟练度", "武器攻击熟练", "武器攻击熟练度"),
    "魔法": ("魔法熟练", "魔法熟练度", "魔法源流", "魔法源流熟练", "源流熟练", "魔法攻击熟练"),
}
"""Card keys of the mode proficiencies (002 武器攻击 / 魔法攻击)."""


def lookup(attrs: Mapping[str, int], *keys: str) -> int | None:
    """The first of ``keys`` present on the card, as an int (``None`` when none is)."""
    for key in keys:
        if key in attrs:
            return int(attrs[key])
    return None


def card_lv(attrs: Mapping[str, int]) -> int | None:
    """The card's LV (``LV5``, ``lv5``, ``等级5``), ``None`` when the card has none.

    >>> card_lv({"LV": 5}), card_lv({"等级": 3}), card_lv({})
    (5, 3, None)
    """
    return lookup(attrs, *LV_KEYS)


def card_proficiency(attrs: Mapping[str, int], name: str) -> int:
    """Proficiency ``name`` on a card: ``闪避``, ``闪避熟练`` or ``闪避熟练度`` (0 when absent).

    >>> card_proficiency({"闪避熟练": 2}, "闪避"), card_proficiency({}, "灵巧")
    (2, 0)
    """
    return lookup(attrs, name, f"{name}熟练", f"{name}熟练度") or 0


SECONDARY_DOMAINS: tuple[str, ...] = ("工程", "学术", "神秘", "游艺")
"""002 次要领域: 《工程》《学术》《神秘》《游艺》."""


def domain_proficiency(attrs: Mapping[str, int], domain: str) -> int:
    """A 次要领域's proficiency on the card (``工程``, ``工程熟练``, ``工程熟练度``; 0 when absent).

    002 次要领域: "次要领域，以及其中的能力，并不具备等级，但是每个次要领域都具有熟练度。如果角色从
    次要领域中习得的能力需要进行技能检定，则使用她在该领域上的熟练度，而非技能原本的熟练度。"

    >>> domain_proficiency({"工程熟练": 2, "洞悉": 1}, "工程"), domain_proficiency({}, "神秘")
    (2, 0)
    """
    return card_proficiency(attrs, domain)


def attack_proficiency(attrs: Mapping[str, int], word: str) -> int | None:
    """The proficiency an attack check uses (module docstring); ``None`` when ``word`` is not an
    attack word (a plain skill or defence check keeps its own proficiency).

    The issue-26 card — 运动0 近战熟练3 武器熟练3 — attacks with proficiency 3, not 运动's 0:

    >>> attack_proficiency({"运动": 0, "近战熟练": 3, "武器熟练": 3}, "近战")
    3
    >>> attack_proficiency({"运动": 2}, "近战"), attack_proficiency({"魔法源流": 2}, "远程魔法")
    (0, 2)
    >>> attack_proficiency({"远程熟练": 1}, "远程"), attack_proficiency({"运动": 2}, "运动") is None
    (1, True)
    """
    spec = ATTACK_WORDS.get(word.strip())
    if spec is None:
        return None
    kind, mode = spec
    found = lookup(attrs, *MODE_KEYS[mode])
    if found is None and mode == "武器":
        found = lookup(attrs, f"{kind}熟练", f"{kind}熟练度")
    return found or 0


def speed_002(strength_mod: int, dex_mod: int, agility: int) -> int:
    """002 速度: ``灵巧熟练度+(STR+DEX)/4 (最低2)``.

    STR and DEX are the attributes' *modifiers* (002 属性修正: "属性的完整数值由其名称指代，
    修正值则由其缩写指代"), and the fraction is dropped toward zero once, at the end of the
    calculation (第一章「小数的处理」).  The issue's cards: 力量10 敏捷10 灵巧1 → 1+0/4 = 1 → 2;
    力量10 敏捷16 灵巧2 → 2+(0+3)/4 = 2.75 → 2; 力量16 敏捷18 灵巧3 → 3+(3+4)/4 = 4.75 → 4.

    >>> speed_002(0, 0, 1), speed_002(0, 3, 2), speed_002(3, 4, 3), speed_002(-5, -5, 0)
    (2, 2, 4, 2)
    """
    return max(2, trunc(agility + Fraction(strength_mod + dex_mod, 4)))


def sp_max_002(endurance_pb: int, con_mod: int, wil_mod: int) -> int:
    """002 精力值上限: ``耐力PB+CON+WIL (最低2)``.

    The seed (002 精力值): "精力值的上限为`耐力PB+CON+WIL (最低2)`点".  耐力PB is the 熟练加值 of
    the 耐力 skill (002 技能检定: "会获得`熟练度*2`点PB" once the proficiency reaches 1); CON
    and WIL are the *modifiers* (002 属性修正: "修正值则由其缩写指代").  体质14 魄力12 耐力2:
    4 + 2 + 1 = 7; 体质6 魄力6 耐力0: 0 − 2 − 2 → 2.

    >>> sp_max_002(4, 2, 1), sp_max_002(0, -2, -2)
    (7, 2)
    """
    return max(2, endurance_pb + con_mod + wil_mod)


__all__ = [
    "ATTACK_SKILL",
    "ATTACK_WORDS",
    "LV_KEYS",
    "MODE_KEYS",
    "SECONDARY_DOMAINS",
    "attack_proficiency",
    "card_lv",
    "card_proficiency",
    "domain_proficiency",
    "lookup",
    "sp_max_002",
    "speed_002",
]
