"""CoC 7th attribute and skill names: aliases as players paste them, and the rule book's base
values for skills a card does not list.

Canonical names are the Chinese ones of the usual translation.  Hit points are stored as
``体力`` (as Dice! and ChronoDice's other systems call them) and magic points as ``魔法``;
``hp``/``生命值``/``耐久`` and ``mp``/``魔法值``/``魔力`` are aliases, as are ``san``/``san值``/
``理智值`` for ``理智``.  English abbreviations match in any case (``STR``, ``str``, ``Str``).

>>> canonical("STR"), canonical("san值"), canonical("侦察"), canonical("hp"), canonical("mp")
('力量', '理智', '侦查', '体力', '魔法')
>>> skill_value({"敏捷": 55}, "闪避"), skill_value({"教育": 70}, "母语"), skill_value({}, "侦查")
(27, 70, 25)
>>> skill_value({"侦查": 60}, "侦察"), skill_value({}, "不存在的技能") is None
(60, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CHARACTERISTICS: tuple[str, ...] = ("力量", "体质", "体型", "敏捷", "外貌", "智力", "意志", "教育", "幸运")
"""The nine rolled characteristics, in the order ``.coc`` shows them."""

DERIVED: tuple[str, ...] = ("理智", "体力", "魔法")

ALIASES: dict[str, str] = {
    # characteristics
    "str": "力量",
    "con": "体质",
    "siz": "体型",
    "dex": "敏捷",
    "app": "外貌",
    "int": "智力",
    "灵感": "智力",
    "pow": "意志",
    "edu": "教育",
    "知识": "教育",
    "luck": "幸运",
    "运气": "幸运",
    "幸运值": "幸运",
    # derived
    "san": "理智",
    "san值": "理智",
    "理智值": "理智",
    "hp": "体力",
    "生命": "体力",
    "生命值": "体力",
    "血量": "体力",
    "耐久": "体力",
    "耐久值": "体力",
    "mp": "魔法",
    "魔法值": "魔法",
    "魔力": "魔法",
    "魔力值": "魔法",
    # skills
    "侦察": "侦查",
    "图书馆": "图书馆使用",
    "计算机": "计算机使用",
    "电脑": "计算机使用",
    "电脑使用": "计算机使用",
    "汽车": "汽车驾驶",
    "驾驶汽车": "汽车驾驶",
    "开车": "汽车驾驶",
    "步枪": "步枪/霰弹枪",
    "霰弹枪": "步枪/霰弹枪",
    "步霰": "步枪/霰弹枪",
    "信用": "信用评级",
    "信誉": "信用评级",
    "信用度": "信用评级",
    "cr": "信用评级",
    "cm": "克苏鲁神话",
    "克苏鲁": "克苏鲁神话",
    "躲藏": "潜行",
    "快速交谈": "话术",
    "取悦": "魅惑",
    "自然学": "博物学",
    "自然": "博物学",
    "导航": "领航",
    "重型机械": "操作重型机械",
    "重型操作": "操作重型机械",
    "手上功夫": "妙手",
    "开锁": "锁匠",
    "撬锁": "锁匠",
    "拳击": "斗殴",
    "格斗": "斗殴",
    "格斗:斗殴": "斗殴",
    "格斗（斗殴）": "斗殴",
    "射击:手枪": "手枪",
    "射击（手枪）": "手枪",
    "精神分析学": "精神分析",
    "机修": "机械维修",
    "电修": "电气维修",
    "骑乘": "骑术",
    "动物驯养": "驯兽",
    "艺术": "艺术与手艺",
    "手艺": "艺术与手艺",
    "艺术和手艺": "艺术与手艺",
}

SKILL_BASE: dict[str, int] = {
    "会计": 5,
    "人类学": 1,
    "估价": 5,
    "考古学": 1,
    "魅惑": 15,
    "攀爬": 20,
    "计算机使用": 5,
    "信用评级": 0,
    "克苏鲁神话": 0,
    "乔装": 5,
    "汽车驾驶": 20,
    "电气维修": 10,
    "电子学": 1,
    "话术": 5,
    "斗殴": 25,
    "手枪": 20,
    "急救": 30,
    "历史": 5,
    "恐吓": 15,
    "跳跃": 20,
    "外语": 1,
    "法律": 5,
    "图书馆使用": 20,
    "聆听": 20,
    "锁匠": 1,
    "机械维修": 10,
    "医学": 1,
    "博物学": 10,
    "领航": 10,
    "神秘学": 5,
    "操作重型机械": 1,
    "说服": 10,
    "精神分析": 1,
    "心理学": 10,
    "骑术": 5,
    "妙手": 10,
    "侦查": 25,
    "潜行": 20,
    "生存": 10,
    "游泳": 20,
    "投掷": 20,
    "追踪": 10,
    "步枪/霰弹枪": 25,
    "驯兽": 5,
    "潜水": 1,
    "爆破": 1,
    "读唇": 1,
    "催眠": 1,
    "炮术": 1,
    "艺术与手艺": 5,
    "科学": 1,
    "驾驶": 1,
}
"""Base values of the investigator skills (rule book skill list).  闪避 (敏捷/2) and 母语 (教育)
depend on the card: :func:`skill_value`."""

COC_MARKERS: frozenset[str] = frozenset(
    {
        "理智",
        "san",
        "san值",
        "理智值",
        "克苏鲁神话",
        "cm",
        "克苏鲁",
        "信用评级",
        "信用",
        "信誉",
        "侦查",
        "侦察",
    }
    | {"聆听", "图书馆使用", "图书馆"}
)
"""Names that mark a card pasted in a group without a mode as a CoC card (``.st 理智60 侦查50``):
names every CoC card has and none of ChronoDice's other systems uses.  Shared names (力量, 意志,
潜行, 格斗, 教育, 体力…) never switch a card: the pool10 and TimeLine cards use them too."""


def canonical(name: str) -> str:
    """The canonical name of an attribute or skill (the name itself when it has no alias)."""
    name = name.strip()
    return ALIASES.get(name.lower(), ALIASES.get(name, name))


def _number(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value)


def card_value(attrs: Mapping[str, Any], name: str) -> int | None:
    """The value written on the card under ``name`` or any alias of it (no rule-book default)."""
    want = canonical(name)
    for key in (name, want):
        if key in attrs and _number(attrs[key]) is not None:
            return _number(attrs[key])
    for key, value in attrs.items():
        if canonical(key) == want and _number(value) is not None:
            return _number(value)
    return None


def skill_value(attrs: Mapping[str, Any], name: str) -> int | None:
    """The value of ``name`` for a check: the card's, else the rule book's base value
    (闪避 = 敏捷/2, 母语 = 教育), else ``None`` (unknown and not on the card)."""
    value = card_value(attrs, name)
    if value is not None:
        return value
    want = canonical(name)
    if want == "闪避":
        dex = card_value(attrs, "敏捷")
        return dex // 2 if dex is not None else None
    if want == "母语":
        return card_value(attrs, "教育")
    return SKILL_BASE.get(want)


__all__ = [
    "ALIASES",
    "CHARACTERISTICS",
    "COC_MARKERS",
    "DERIVED",
    "SKILL_BASE",
    "canonical",
    "card_value",
    "skill_value",
]
