"""The eleven TimeLine check attributes, their groups and MayuriBot's substring lookup.

Lookup order is the sheet's order; the first attribute whose Chinese name *contains* the input
wins (``力`` → 力量, ``体`` → 体质, ``学`` → 医学及生命科学, ``艺术`` → 视觉及表演艺术).  The rule book
spells two fields differently (工程及科技, 视觉和表演艺术); both spellings are accepted.

>>> lookup_attribute("力"), lookup_attribute("体"), lookup_attribute("学"), lookup_attribute("艺术")
('strength', 'constitution', 'medicine', 'arts')
>>> lookup_attribute("工程及科技"), lookup_attribute("魔法") is None
('engineering', True)
"""

from __future__ import annotations

ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("constitution", "体质"),
    ("dexterity", "敏捷"),
    ("strength", "力量"),
    ("will", "意志"),
    ("education", "教育"),
    ("intelligence", "智力"),
    ("medicine", "医学及生命科学"),
    ("engineering", "工程与科技"),
    ("military", "军事与生存"),
    ("literature", "文学"),
    ("arts", "视觉及表演艺术"),
)
"""(key, Chinese name) in the sheet's order."""

ATTRIBUTE_KEYS: tuple[str, ...] = tuple(k for k, _ in ATTRIBUTES)
CN: dict[str, str] = dict(ATTRIBUTES)
"""Attribute key → Chinese name."""

PHYSICAL: tuple[str, ...] = ("constitution", "dexterity", "strength")
MENTAL_BASIC: tuple[str, ...] = ("will", "education", "intelligence")
FIELDS: tuple[str, ...] = ("medicine", "engineering", "military", "literature", "arts")

GROUPS: dict[str, tuple[str, ...]] = {
    "r_physical": PHYSICAL,
    "r_mental": MENTAL_BASIC + FIELDS,
    "r_field": FIELDS,
    "r_all": ATTRIBUTE_KEYS,
}
"""Buff range groups (``.buff``): 物理, 思维 (including the fields), 领域, 所有."""

GROUP_CN: dict[str, str] = {"r_physical": "物理", "r_mental": "思维", "r_field": "领域", "r_all": "所有"}
_GROUP_BY_CN: dict[str, str] = {v: k for k, v in GROUP_CN.items()}

_ALIASES: dict[str, str] = {
    "工程及科技": "engineering",
    "工程和科技": "engineering",
    "视觉和表演艺术": "arts",
    "视觉与表演艺术": "arts",
    "医学与生命科学": "medicine",
    "医学和生命科学": "medicine",
    "军事及生存": "military",
    "军事和生存": "military",
}


def lookup_attribute(text: str) -> str | None:
    """The attribute key for ``text`` (exact name, alias, English key, then substring), or None."""
    text = text.strip()
    if not text:
        return None
    if text in _ALIASES:
        return _ALIASES[text]
    if text.lower() in CN:
        return text.lower()
    for key, name in ATTRIBUTES:
        if text in name:
            return key
    return None


def lookup_range(text: str) -> str | None:
    """A buff range: an attribute key or a group key (``r_physical`` …), or None.

    >>> lookup_range("物理"), lookup_range("思维"), lookup_range("领域"), lookup_range("所有")
    ('r_physical', 'r_mental', 'r_field', 'r_all')
    >>> lookup_range("敏")
    'dexterity'
    """
    text = text.strip()
    if text in _GROUP_BY_CN:
        return _GROUP_BY_CN[text]
    if text in GROUPS:
        return text
    return lookup_attribute(text)


def range_covers(range_key: str, attribute: str) -> bool:
    """Whether a buff range applies to ``attribute``.

    >>> range_covers("r_mental", "arts"), range_covers("r_physical", "will"), range_covers("will", "will")
    (True, False, True)
    """
    if range_key in GROUPS:
        return attribute in GROUPS[range_key]
    return range_key == attribute


def range_name(range_key: str) -> str:
    """Chinese name of an attribute or group key."""
    return GROUP_CN.get(range_key) or CN.get(range_key, range_key)


__all__ = [
    "ATTRIBUTES",
    "ATTRIBUTE_KEYS",
    "CN",
    "FIELDS",
    "GROUPS",
    "GROUP_CN",
    "MENTAL_BASIC",
    "PHYSICAL",
    "lookup_attribute",
    "lookup_range",
    "range_covers",
    "range_name",
]
