"""A D&D 5e character sheet read from a card: abilities, level, proficiency, skills, saves.

The card keeps plain numbers (``attributes``: ``力量16 敏捷14 等级5 隐匿5``) and the proficiency
marks ``.st 隐匿*`` / ``.st 隐匿**`` / ``.st 敏捷豁免*`` set (a ``{name: 1 | 2}`` table: 1 熟练,
2 专精/expertise).  A number written under a skill or save is its total bonus and wins; a marked
one without a number is computed: ability modifier + proficiency bonus (twice for expertise).

>>> proficiency_bonus(1), proficiency_bonus(4), proficiency_bonus(5), proficiency_bonus(17)
(2, 2, 3, 6)
>>> s = Sheet({"敏捷": 14, "感知": 12, "等级": 5}, {"隐匿": 1, "察觉": 2, "敏捷豁免": 1})
>>> s.target("隐匿").modifier, s.target("察觉").modifier, s.target("dex save").modifier
(5, 7, 5)
>>> s.target("敏捷豁免").source, s.target("感知豁免").source
('敏捷+熟练', '感知')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chronodice.core.errors import NotFound

ABILITIES: dict[str, tuple[str, ...]] = {
    "力量": ("str", "strength"),
    "敏捷": ("dex", "dexterity"),
    "体质": ("con", "constitution"),
    "智力": ("int", "intelligence"),
    "感知": ("wis", "wisdom"),
    "魅力": ("cha", "charisma"),
}

SKILLS: dict[str, str] = {
    "运动": "力量",
    "体操": "敏捷",
    "特技": "敏捷",
    "巧手": "敏捷",
    "隐匿": "敏捷",
    "奥秘": "智力",
    "历史": "智力",
    "调查": "智力",
    "自然": "智力",
    "宗教": "智力",
    "驯兽": "感知",
    "驯养动物": "感知",
    "洞悉": "感知",
    "医药": "感知",
    "察觉": "感知",
    "求生": "感知",
    "欺瞒": "魅力",
    "威吓": "魅力",
    "表演": "魅力",
    "说服": "魅力",
}
"""The 18 skills (two spellings for 体操/特技 and 驯兽/驯养动物) and their abilities."""

SKILL_WORDS: dict[str, str] = {
    "athletics": "运动",
    "acrobatics": "体操",
    "sleight": "巧手",
    "stealth": "隐匿",
    "arcana": "奥秘",
    "history": "历史",
    "investigation": "调查",
    "nature": "自然",
    "religion": "宗教",
    "animal": "驯兽",
    "insight": "洞悉",
    "medicine": "医药",
    "perception": "察觉",
    "survival": "求生",
    "deception": "欺瞒",
    "intimidation": "威吓",
    "performance": "表演",
    "persuasion": "说服",
}
"""English skill names (Avrae's ``!check stealth``) and the Chinese ones the card uses."""

SAVE_WORDS = ("豁免", "save", "saves", "saving", "st")
SAVE = "豁免"
LEVEL_KEYS = ("等级", "lv", "level")
PB_KEYS = ("熟练加值", "pb", "prof")
PROF_WORDS = {1: "熟练", 2: "专精"}

_SAVE_RE = re.compile(r"^(?:(?P<a>.+?)\s*(?:豁免|save|saves|saving)|(?:豁免|save)\s*(?P<b>.+))$", re.I)


def ability_name(name: str) -> str | None:
    """The ability ``name`` means (``str``, ``STR``, ``力量``), or ``None``."""
    word = name.strip()
    low = word.lower()
    for ability, aliases in ABILITIES.items():
        if word == ability or low in aliases:
            return ability
    return None


def skill_name(name: str) -> str | None:
    """The skill ``name`` means (``隐匿``, ``stealth``), or ``None``."""
    word = name.strip()
    if word in SKILLS:
        return word
    return SKILL_WORDS.get(word.lower())


def save_name(name: str) -> str | None:
    """The ability of a saving throw (``敏捷豁免``, ``dex save``, ``豁免 敏捷``), or ``None``."""
    m = _SAVE_RE.match(name.strip())
    if m is None:
        return None
    return ability_name(m.group("a") or m.group("b") or "")


def ability_modifier(score: int) -> int:
    return (score - 10) // 2


def proficiency_bonus(level: int) -> int:
    return 2 + (max(1, level) - 1) // 4


def number(attrs: Mapping[str, Any], *keys: str) -> int | None:
    """The first integer the card holds under one of ``keys`` (any case), else ``None``."""
    for key in keys:
        for k in (key, key.upper(), key.capitalize()):
            value = attrs.get(k)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return int(value)
    return None


@dataclass(frozen=True)
class Target:
    """What a check rolls against: its label, modifier and where the modifier came from."""

    label: str
    modifier: int
    source: str
    save: bool = False


@dataclass(frozen=True)
class Sheet:
    attrs: Mapping[str, Any]
    prof: Mapping[str, int] = field(default_factory=dict)

    @property
    def level(self) -> int:
        return max(1, number(self.attrs, *LEVEL_KEYS) or 1)

    @property
    def pb(self) -> int:
        written = number(self.attrs, *PB_KEYS)
        return written if written is not None else proficiency_bonus(self.level)

    def score(self, ability: str) -> int | None:
        return number(self.attrs, ability, *ABILITIES[ability])

    def modifier(self, ability: str) -> int:
        score = self.score(ability)
        if score is None:
            raise NotFound(f"角色卡上没有{ability}（.st {ability}14 设置）")
        return ability_modifier(score)

    def _marked(self, key: str, ability: str, label: str, save: bool) -> Target:
        written = number(self.attrs, key)
        if written is not None:
            return Target(label, written, key, save)
        level = self.prof.get(key, 0)
        mod = self.modifier(ability)
        if level:
            return Target(label, mod + self.pb * level, f"{ability}+{PROF_WORDS[level]}", save)
        return Target(label, mod, ability, save)

    def skill(self, skill: str) -> Target:
        return self._marked(skill, SKILLS[skill], skill, False)

    def save(self, ability: str) -> Target:
        return self._marked(ability + SAVE, ability, ability + SAVE, True)

    def ability(self, ability: str) -> Target:
        return Target(ability, self.modifier(ability), ability)

    def target(self, name: str, *, save: bool = False) -> Target:
        """The check ``name`` names: an ability (a save with ``save``), a skill, or a save."""
        ability = ability_name(name)
        if ability is not None:
            return self.save(ability) if save else self.ability(ability)
        saved = save_name(name)
        if saved is not None:
            return self.save(saved)
        skill = skill_name(name)
        if skill is None:
            raise NotFound(
                f"没有「{name.strip()[:20]}」这项属性或技能（属性：{'/'.join(ABILITIES)}；"
                "技能如 察觉、运动、隐匿；豁免如 敏捷豁免）"
            )
        if save:
            raise NotFound(f"{skill}是技能，没有豁免：豁免写属性，如 .rc 敏捷豁免")
        return self.skill(skill)

    def variables(self) -> dict[str, int]:
        """What a dice expression may name on this card (DnD convention): ``str``/``dex``… are
        the ability *modifiers*; ``力量调整``… too; ``熟练``/``pb`` the proficiency bonus;
        skills and ``敏捷豁免``… their bonuses.  Chinese ability names stay the scores."""
        out: dict[str, int] = {"熟练": self.pb, "熟练加值": self.pb, "pb": self.pb, "PB": self.pb}
        for ability, aliases in ABILITIES.items():
            score = self.score(ability)
            if score is None:
                continue
            mod = ability_modifier(score)
            out[ability + "调整"] = out[ability + "调整值"] = mod
            for word in aliases[:1]:
                out[word] = out[word.upper()] = mod
            out[ability + SAVE] = self.save(ability).modifier
        for skill, ability in SKILLS.items():
            if self.score(ability) is not None or number(self.attrs, skill) is not None:
                out[skill] = self.skill(skill).modifier
        return out


def check_modifier(attrs: Mapping[str, Any], name: str) -> tuple[int, str]:
    """The modifier of an ability or skill check and where it came from (the name read).

    >>> check_modifier({"感知": 14}, "察觉"), check_modifier({"察觉": 6, "感知": 14}, "察觉")
    ((2, '感知'), (6, '察觉'))
    """
    target = Sheet(attrs).target(name)
    return target.modifier, target.source


__all__ = [
    "ABILITIES",
    "LEVEL_KEYS",
    "PB_KEYS",
    "PROF_WORDS",
    "SAVE",
    "SAVE_WORDS",
    "SKILLS",
    "SKILL_WORDS",
    "Sheet",
    "Target",
    "ability_modifier",
    "ability_name",
    "check_modifier",
    "number",
    "proficiency_bonus",
    "save_name",
    "skill_name",
]
