"""Checks of the D20 tick system: the 002 d20 check (the 004 two-die check is :mod:`.two_die`).

002 第三章「检定」:

* roll 1d20 and add every modifier; a passive check uses 10 instead of a die;
* advantage / disadvantage add one extra d20 (never more); both together cancel; a passive check
  turns advantage into +5 and disadvantage into −5 (still only one of each, still cancelling);
* N1 / N20 (die 1 / 20) give −10 / +10, only on *active skill* checks (the initiative check is a
  skill check with 洞悉, so it gets them too);
* success degree and failure degree; reaching 10 gives 大成功 / 大失败.

Reading taken where the seed is self-contradictory: the seed writes the success degree as
``目标值−判定值`` and the failure degree as ``判定值−目标值``.  Taken literally a higher roll
would fail more often, which contradicts everything else in the chapter (advantage keeps the
higher die, N20 is a +10 bonus, a defence result DEF is the target an attack must reach).  We
therefore use the reading every GM applies: success degree = 判定值 − 目标值 (≥ 0 is a success,
≥ 10 a 大成功), failure degree = 目标值 − 判定值 (> 0 is a failure, ≥ 10 a 大失败).  An opposed
check is the same comparison with the opponent's result as the target, so the acting side wins
ties (as an attack does against DEF).

Skill checks (002 「技能检定」, 「属性修正」, 「属性阶层」): the related attribute's modifier
``属性/2−5`` (rounded toward zero, 第一章「小数的处理」; an unchosen related attribute still adds
its modifier when it is negative), ``熟练度×2`` PB when proficiency ≥ 1, ``LV−4`` as a 内在
modifier, and the tier penalty of the attribute used (劣等 0–2: −4, 次等 3–6: −2).

The 004 two-die check is :mod:`.two_die`.

Pure module: randomness comes from the ``rng`` argument.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from chronodice.core.errors import InputSyntaxError, NotFound

from .card import (
    ATTACK_SKILL,
    ATTACK_WORDS,
    attack_proficiency,
    card_lv,
    card_proficiency,
    domain_proficiency,
    lookup,
)
from .modifiers import Modifier, stack
from .two_die import TwoDieRoll

Nat = Literal["N1", "N20"]
Outcome = Literal["大成功", "成功", "失败", "大失败"]

ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "力量": ("STR", "str"),
    "敏捷": ("DEX", "dex"),
    "体质": ("CON", "con"),
    "魄力": ("WIL", "wil"),
    "智慧": ("INT", "int"),
    "感悟": ("SEN", "sen"),
}
"""002 attributes with their abbreviations."""

SKILLS: dict[str, tuple[str, ...]] = {
    "运动": ("力量", "体质"),
    "灵巧": ("力量", "敏捷"),
    "耐力": ("体质", "魄力"),
    "学识": ("智慧",),
    "洞悉": ("敏捷", "智慧"),
    "直觉": ("魄力", "感悟"),
    "示威": ("力量", "感悟"),
    "话术": ("智慧", "感悟"),
    "共情": ("魄力", "感悟"),
}
"""002 skills and their related attributes."""

SKILL_ALIASES: dict[str, str] = {
    "强韧": "耐力",
    "强韧防御": "耐力",
    "闪避": "灵巧",
    "闪避防御": "灵巧",
    "识破": "洞悉",
    "识破防御": "洞悉",
    "意志": "直觉",
    "意志防御": "直觉",
    "先攻": "洞悉",
    **{word: ATTACK_SKILL[kind] for word, (kind, _mode) in ATTACK_WORDS.items()},
}
"""Defence, attack and initiative checks use a default skill (002 攻击检定/防御检定/先攻检定)."""

DEFENCES: tuple[str, ...] = ("强韧", "闪避", "识破", "意志")
"""The four defence types (002 防御检定)."""

DEFENCE_WORDS: dict[str, str] = {f"{d}防御": d for d in DEFENCES}

TIER_PENALTY: dict[str, int] = {"劣等": -4, "次等": -2, "标准": 0, "高等": 0}


# --------------------------------------------------------------------------- 002 arithmetic
def attribute_modifier(value: int) -> int:
    """``属性/2−5`` rounded toward zero (002 属性修正, 小数的处理).

    >>> [attribute_modifier(v) for v in (0, 6, 7, 10, 13, 14, 20)]
    [-5, -2, -1, 0, 1, 2, 5]
    """
    diff = value - 10
    return diff // 2 if diff >= 0 else -((-diff) // 2)


def attribute_tier(value: int) -> str:
    """劣等 0–2, 次等 3–6, 标准 7–14, 高等 15+.

    >>> [attribute_tier(v) for v in (2, 3, 6, 7, 14, 15)]
    ['劣等', '次等', '次等', '标准', '标准', '高等']
    """
    if value <= 2:
        return "劣等"
    if value <= 6:
        return "次等"
    if value <= 14:
        return "标准"
    return "高等"


def proficiency_bonus(level: int) -> int:
    """PB = 熟练度×2 once the proficiency reaches 1.

    >>> proficiency_bonus(0), proficiency_bonus(1), proficiency_bonus(3)
    (0, 2, 6)
    """
    return level * 2 if level >= 1 else 0


def canonical_skill(name: str) -> str:
    """Skill name for a skill, defence, attack or initiative word.

    >>> canonical_skill("闪避"), canonical_skill("运动")
    ('灵巧', '运动')
    """
    name = name.strip()
    if name in SKILLS:
        return name
    if name in SKILL_ALIASES:
        return SKILL_ALIASES[name]
    raise NotFound(f"没有「{name}」这项技能（可用：{'/'.join(SKILLS)}）")


def attribute_value(attrs: Mapping[str, int], name: str) -> int | None:
    """Read an 002 attribute by Chinese name or abbreviation (either case)."""
    return lookup(attrs, name, *ATTRIBUTES.get(name, ()))


def skill_modifiers(
    attrs: Mapping[str, int],
    skill: str,
    *,
    proficiency: int | None = None,
    lv: int | None = None,
    attribute: str | None = None,
    domain: str | None = None,
) -> list[Modifier]:
    """The modifiers a skill check gets from a character card.

    ``attrs`` maps attribute names (力量 or STR …), ``LV``/``等级`` and proficiencies
    (``运动``, ``运动熟练``, ``运动熟练度``) to numbers.  An attribute missing from the card adds
    nothing, and a card without LV gets no ``LV−4`` term.  ``attribute`` forces the
    related attribute; by default the best one is used.

    A defence check (``闪避``, ``强韧防御`` …) uses the proficiency of the *defence type*, not
    that of its skill (002 防御检定: "将使用角色对防御类型的熟练度，而非技能原本的熟练度"):
    a card without that proficiency gets no PB even if it has one in the skill.  The issue's
    numbers — 敏捷12 力量10 闪避2 LV4, passive 闪避: 10 + 1 + 4 + 0 = 15:

    >>> stack(skill_modifiers({"敏捷": 12, "力量": 10, "闪避": 2, "LV": 4}, "闪避"))
    5
    >>> stack(skill_modifiers({"敏捷": 12, "灵巧": 2, "LV": 4}, "闪避"))
    1

    An attack check (``近战``, ``远程魔法`` …) likewise uses the proficiency of its *mode*
    (002 攻击检定, see :mod:`.card`): issue 26's 力量12 运动0 武器熟练3 LV4 melee attack gets
    +1 力量 and +6 PB:

    >>> stack(skill_modifiers({"力量": 12, "运动": 0, "武器熟练": 3, "LV": 4}, "近战"))
    7

    ``domain``: an ability of that 次要领域 uses its proficiency, not the skill's (002 次要领域,
    :func:`.card.domain_proficiency`); 智慧12 洞悉1 工程熟练3 LV4: +6 PB, not +2:

    >>> [(m.value, m.source) for m in skill_modifiers({"智慧": 12, "洞悉": 1, "工程熟练": 3, "LV": 4}, "洞悉", domain="工程")]
    [(1, '智慧'), (6, '《工程》熟练'), (0, 'LV')]

    >>> mods = skill_modifiers({"力量": 14, "体质": 5, "LV": 3, "运动": 1}, "运动")
    >>> [(m.value, m.type, m.source) for m in mods]
    [(2, '通用', '力量'), (-2, '通用', '体质'), (2, '通用', '熟练'), (-1, '内在', 'LV')]
    >>> stack(mods)
    1
    """
    word = DEFENCE_WORDS.get(skill.strip(), skill.strip())
    skill = canonical_skill(skill)
    related = SKILLS[skill]
    values = {a: attribute_value(attrs, a) for a in related}
    known = {a: v for a, v in values.items() if v is not None}
    if attribute is not None:
        if attribute not in related:
            raise InputSyntaxError(f"「{skill}」的关联属性是{'/'.join(related)}")
        chosen = attribute
    elif known:
        chosen = max(known, key=lambda a: (attribute_modifier(known[a]), -related.index(a)))
    else:
        chosen = related[0]
    mods: list[Modifier] = []
    chosen_value = known.get(chosen)
    if chosen_value is not None:
        mods.append(Modifier(attribute_modifier(chosen_value), source=chosen))
    for name, value in known.items():
        if name != chosen and attribute_modifier(value) < 0:
            mods.append(Modifier(attribute_modifier(value), source=name))
    if chosen_value is not None and TIER_PENALTY[attribute_tier(chosen_value)]:
        tier = attribute_tier(chosen_value)
        mods.append(Modifier(TIER_PENALTY[tier], source=f"{chosen}{tier}"))
    attack = ATTACK_WORDS.get(word)
    if proficiency is None and domain is not None:
        proficiency = domain_proficiency(attrs, domain)
    if proficiency is None:
        proficiency = attack_proficiency(attrs, word)
    if proficiency is None:
        proficiency = card_proficiency(attrs, word if word in DEFENCES else skill)
    if proficiency_bonus(proficiency):
        source = (
            f"《{domain}》熟练"
            if domain is not None
            else f"{attack[1]}熟练"
            if attack is not None
            else "熟练"
        )
        mods.append(Modifier(proficiency_bonus(proficiency), source=source))
    if lv is None:
        lv = card_lv(attrs)
    if lv is not None:
        mods.append(Modifier(lv - 4, "内在", source="LV"))
    return mods


# --------------------------------------------------------------------------- 002 d20 check
@dataclass(frozen=True)
class D20Roll:
    """One d20 check roll: every die rolled, the die used, and the resulting total.

    ``modifier`` is ``total − die``: all modifiers, N1/N20 and passive ±5 included.
    """

    dice: tuple[int, ...]
    die: int
    total: int
    modifier: int
    passive: bool = False
    edge: Literal["优势", "劣势"] | None = None
    nat: Nat | None = None

    @property
    def nat_bonus(self) -> int:
        return {"N1": -10, "N20": 10}.get(self.nat or "", 0)


def roll_d20(
    rng: random.Random,
    modifiers: Iterable[Modifier] | int = 0,
    *,
    advantage: bool = False,
    disadvantage: bool = False,
    passive: bool = False,
    skill: bool = True,
) -> D20Roll:
    """Roll a 002 check.  ``skill=False`` (a plain attribute or other check) has no N1/N20.

    >>> roll_d20(random.Random(1), 2, passive=True, advantage=True)
    D20Roll(dice=(), die=10, total=17, modifier=7, passive=True, edge='优势', nat=None)
    """
    base = modifiers if isinstance(modifiers, int) else stack(modifiers)
    edge: Literal["优势", "劣势"] | None = None
    if advantage and not disadvantage:
        edge = "优势"
    elif disadvantage and not advantage:
        edge = "劣势"
    if passive:
        shift = {"优势": 5, "劣势": -5}.get(edge or "", 0)
        return D20Roll((), 10, 10 + base + shift, base + shift, True, edge, None)
    first = rng.randint(1, 20)
    dice: tuple[int, ...] = (first,)
    if edge is not None:
        dice = (first, rng.randint(1, 20))
    return d20_from_dice(dice, base, edge=edge, skill=skill)


def d20_from_dice(
    dice: tuple[int, ...],
    modifier: int,
    *,
    edge: Literal["优势", "劣势"] | None = None,
    skill: bool = True,
) -> D20Roll:
    """The roll given its dice (for tests and replay): B07's numbers.

    >>> d20_from_dice((6, 15), 2, edge="优势").total
    17
    >>> d20_from_dice((20, 3), 2, edge="劣势").total
    5
    >>> d20_from_dice((20, 4), 2, edge="优势").total
    32
    >>> d20_from_dice((1,), 3).total
    -6
    """
    if edge == "优势":
        die = max(dice)
    elif edge == "劣势":
        die = min(dice)
    else:
        die = dice[0]
    nat: Nat | None = None
    if skill and die == 20:
        nat = "N20"
    elif skill and die == 1:
        nat = "N1"
    bonus = {"N1": -10, "N20": 10}.get(nat or "", 0)
    return D20Roll(tuple(dice), die, die + modifier + bonus, modifier + bonus, False, edge, nat)


@dataclass(frozen=True)
class Judgement:
    """Result of comparing a 判定值 with a 目标值."""

    total: int
    target: int
    success_degree: int | None
    failure_degree: int | None
    outcome: Outcome


def judge(total: int, target: int) -> Judgement:
    """Success/failure degree and outcome (reading in the module docstring).

    >>> judge(15, 15).outcome, judge(25, 15).outcome, judge(14, 15).outcome, judge(5, 15).outcome
    ('成功', '大成功', '失败', '大失败')
    >>> judge(18, 15).success_degree, judge(18, 15).failure_degree
    (3, None)
    """
    success = total - target if total >= target else None
    failure = target - total if target > total else None
    if success is not None:
        outcome: Outcome = "大成功" if success >= 10 else "成功"
    else:
        outcome = "大失败" if (failure or 0) >= 10 else "失败"
    return Judgement(total, target, success, failure, outcome)


@dataclass(frozen=True)
class Opposed:
    """An opposed check: the actor wins when her result reaches the opponent's."""

    actor: int
    opponent: int
    actor_wins: bool
    margin: int


def opposed(actor_total: int, opponent_total: int) -> Opposed:
    """Compare two results; the actor wins ties.

    >>> opposed(12, 12).actor_wins, opposed(11, 12).actor_wins
    (True, False)
    """
    return Opposed(actor_total, opponent_total, actor_total >= opponent_total, actor_total - opponent_total)


@dataclass(frozen=True)
class CheckReport:
    """What a service needs to render a check: the roll, the modifiers and the judgement."""

    roll: D20Roll | TwoDieRoll
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)
    judgement: Judgement | None = None


__all__ = [
    "ATTRIBUTES",
    "SKILLS",
    "CheckReport",
    "D20Roll",
    "Judgement",
    "Opposed",
    "attribute_modifier",
    "attribute_tier",
    "attribute_value",
    "canonical_skill",
    "card_proficiency",
    "d20_from_dice",
    "judge",
    "opposed",
    "proficiency_bonus",
    "roll_d20",
    "skill_modifiers",
]
