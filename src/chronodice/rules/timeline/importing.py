"""Parsing the Excel sheet's import lines: ``.TLsetup key:value,…`` and ``.setupWP key:value,…``.

A superset of MayuriBot's input: any case, full-width ``：``/``，`` (normalised before this module
sees the text, but accepted here too), ``=`` as a separator, a trailing comma, several lines.
Every problem is reported at once in one :class:`~chronodice.core.errors.InputSyntaxError`
(missing keys named, bad numbers named), never a crash.

>>> s = parse_tlsetup("姓名:甲,等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,"
...     "智力:35,医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50,")
>>> s.sheet.name, s.sheet.level, s.sheet.strength, s.warnings
('甲', 10.0, 35.0, [])
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from chronodice.core.errors import InputSyntaxError

from .attributes import lookup_attribute
from .sheet import Sheet

TLSETUP_USAGE = ".TLsetup 姓名:…,种族:…,等级:…,物理思维比值:…,体质:…,…,负重:…（人物卡生成的整行）"
SETUPWP_USAGE = (
    ".setupWP 名称:…,类型:增幅/火力/其他,增幅属性:…,伤害:…,前摇:…,射程:…,载弹量:…,装填时间:…,负重:…,备注:…"
)
MAX_ABS = 1e6
"""Largest magnitude accepted for any number on a sheet (keeps every formula finite)."""
MAX_LEVEL = 10_000

SHEET_KEYS: dict[str, str] = {
    "姓名": "name",
    "名字": "name",
    "种族": "race",
    "成年年龄": "adult_age",
    "标准体型": "standard_size",
    "年龄": "age",
    "体型": "size",
    "外貌": "appearance",
    "资产": "wealth",
    "性别": "gender",
    "职业": "occupation",
    "等级": "level",
    "物理思维比值": "ratio",
    "物理思维比": "ratio",
    "负重": "weight",
}
TEXT_FIELDS = ("name", "race", "gender", "occupation")
REQUIRED = (
    "level",
    "ratio",
    "constitution",
    "dexterity",
    "strength",
    "will",
    "education",
    "intelligence",
    "medicine",
    "engineering",
    "military",
    "literature",
    "arts",
)
OPTIONAL_ZERO = ("adult_age", "standard_size", "age", "size", "wealth", "weight")

FIELD_CN: dict[str, str] = {v: k for k, v in reversed(list(SHEET_KEYS.items()))}
FIELD_CN.update(
    {
        "constitution": "体质",
        "dexterity": "敏捷",
        "strength": "力量",
        "will": "意志",
        "education": "教育",
        "intelligence": "智力",
        "medicine": "医学及生命科学",
        "engineering": "工程与科技",
        "military": "军事与生存",
        "literature": "文学",
        "arts": "视觉及表演艺术",
    }
)

_SPLIT = re.compile(r"[,，;；\n]+")
_KV = re.compile(r"([^:：=]+)[:：=](.*)", re.S)
"""Key, first separator, value; the caller strips both sides.  The key cannot hold a separator,
so it ends at the first one (or the match fails after giving the key back once) and ``(.*)``
takes the rest: linear.  The earlier ``^\\s*([^:：=]+?)\\s*[:：=]\\s*(.*?)\\s*$`` let three
runs share the same spaces (12 s for a 2,000-character message, issue 23); this one reads
exactly the same pairs."""


def split_pairs(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """Split ``k:v,k:v,`` into pairs; also return the items that have no separator.

    >>> split_pairs("a:1，b：2,, c=3,bad,")
    ([('a', '1'), ('b', '2'), ('c', '3')], ['bad'])
    """
    pairs: list[tuple[str, str]] = []
    bad: list[str] = []
    for item in _SPLIT.split(text):
        if not item.strip():
            continue
        m = _KV.match(item)
        if m is None:
            bad.append(item.strip())
        else:
            pairs.append((m.group(1).strip(), m.group(2).strip()))
    return pairs, bad


def parse_number(text: str) -> float | None:
    """A finite number, optionally followed by ``%``; '' → 0; None when not a number.

    >>> parse_number("30"), parse_number(" 12.5% "), parse_number(""), parse_number("abc"), parse_number("nan")
    (30.0, 12.5, 0.0, None, None)
    """
    text = text.strip().rstrip("%").strip()
    if not text:
        return 0.0
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _sheet_key(key: str) -> str | None:
    if key in SHEET_KEYS:
        return SHEET_KEYS[key]
    attr = lookup_attribute(key) if len(key) >= 2 else None
    if attr is not None:
        return attr
    return None


@dataclass(frozen=True)
class ImportedSheet:
    """A parsed ``.TLsetup``: the sheet, keys that were ignored, and gentle warnings."""

    sheet: Sheet
    ignored: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def parse_tlsetup(text: str) -> ImportedSheet:
    """Parse the argument of ``.TLsetup``; raises one InputSyntaxError listing every problem."""
    pairs, bad = split_pairs(text)
    values: dict[str, Any] = {}
    problems: list[str] = []
    ignored: list[str] = []
    if bad:
        problems.append("无法理解：" + "、".join(b[:12] for b in bad[:5]) + "（应为 键:值）")
    for key, raw in pairs:
        name = _sheet_key(key)
        if name is None:
            ignored.append(key[:12])
            continue
        if name in TEXT_FIELDS:
            values[name] = raw[:20]
            continue
        number = parse_number(raw)
        if number is None:
            problems.append(f"「{key[:12]}」不是数字：{raw[:12]}")
        elif abs(number) > MAX_ABS:
            problems.append(f"「{key[:12]}」数值太大")
        else:
            values[name] = number
    if not values.get("name"):
        problems.append("缺少姓名")
    missing = [FIELD_CN[k] for k in REQUIRED if k not in values]
    if missing:
        problems.append("缺少：" + "、".join(missing))
    if not problems:
        problems.extend(validate_values(values))
    if problems:
        raise InputSyntaxError("人物卡导入失败×\n" + "\n".join(problems), usage=TLSETUP_USAGE)
    values.setdefault("appearance", 50.0)
    for k in OPTIONAL_ZERO:
        values.setdefault(k, 0.0)
    sheet = Sheet.from_dict(values)
    return ImportedSheet(sheet=sheet, ignored=ignored, warnings=sum_warnings(sheet))


def validate_values(values: dict[str, Any]) -> list[str]:
    """The domain checks MayuriBot lacked (every one of these crashed it, §8 bug 2)."""
    problems: list[str] = []
    level = values["level"]
    # Lower bounds are 0.01 / 1 rather than "> 0": a denormal such as 5e-324 passes "> 0" but
    # underflows to 0 in the sheet's divisions and logarithms (found by the property test).
    if not 0.01 <= level <= MAX_LEVEL:
        problems.append(f"等级应在0.01到{MAX_LEVEL}之间")
    if not 1 <= values["ratio"] <= 999:
        problems.append("物理思维比值应在1到999之间")
    if values.get("appearance", 50.0) < 0.01:
        problems.append("外貌应大于0")
    if values.get("adult_age", 0.0) < 0 or values.get("standard_size", 0.0) < 0:
        problems.append("成年年龄和标准体型不能为负")
    # A ratio under a logarithm (年龄/成年年龄, 体型/标准体型): both between 0.01 and a million,
    # or a denormal or a huge value underflows or overflows it (found by the property test).
    for value, standard, word, base in (
        ("age", "adult_age", "年龄", "成年年龄"),
        ("size", "standard_size", "体型", "标准体型"),
    ):
        if values.get(standard, 0.0) <= 0:
            continue
        if values.get(value, 0.0) <= 0:
            problems.append(f"填写了{base}时，{word}应大于0")
        elif not _fair(values[value], values[standard]):
            problems.append(f"{word}和{base}应在0.01到{RATIO_MAX}之间")
    negative = [FIELD_CN[k] for k in REQUIRED[2:] if values[k] < 0]
    if negative:
        problems.append("百分比不能为负：" + "、".join(negative))
    if values.get("weight", 0.0) < 0:
        problems.append("负重不能为负")
    return problems


RATIO_MAX = 1_000_000


def _fair(value: float, standard: float) -> bool:
    return 0.01 <= value <= RATIO_MAX and 0.01 <= standard <= RATIO_MAX


def sum_warnings(sheet: Sheet) -> list[str]:
    """Percentages that do not add up to 100 (accepted, as in MayuriBot, but pointed out)."""
    groups = (
        ("物理属性", ("constitution", "dexterity", "strength")),
        ("思维属性", ("will", "education", "intelligence")),
        ("领域", ("medicine", "engineering", "military", "literature", "arts")),
    )
    out = []
    for label, keys in groups:
        total = sum(sheet.percent(k) for k in keys)
        if abs(total - 100) > 1e-9:
            out.append(f"{label}合计{total:g}%（应为100%）")
    return out


# ---------------------------------------------------------------------------- weapons
WEAPON_KEYS: dict[str, str] = {
    "名称": "name",
    "类型": "type",
    "增幅属性": "attribute",
    "伤害": "damage",
    "前摇": "cast",
    "射程": "range",
    "载弹量": "load",
    "装填时间": "reload_time",
    "负重": "weight",
    "备注": "note",
    "当前载弹": "current_load",
    "使用": "using",
}
WEAPON_TYPES: dict[str, str] = {"增幅": "amplifier", "火力": "artillery", "其他": "other", "": "other"}
WEAPON_TYPE_CN: dict[str, str] = {"amplifier": "增幅", "artillery": "火力", "other": "其他"}


def parse_setupwp(text: str) -> dict[str, Any]:
    """Parse ``.setupWP``; returns the weapon fields (see :class:`~.weapons.Weapon`).

    >>> w = parse_setupwp("名称:左轮,类型:火力,增幅属性:,伤害:3,前摇:0.5,射程:50,载弹量:6,装填时间:4,负重:1,备注:")
    >>> w["type"], w["load"], w["current_load"], w["cast"], w["damage"]
    ('artillery', 6, 6, 0.5, 3.0)
    """
    pairs, bad = split_pairs(text)
    raw: dict[str, str] = {}
    problems: list[str] = []
    if bad:
        problems.append("无法理解：" + "、".join(b[:12] for b in bad[:5]) + "（应为 键:值）")
    unknown = [k for k, _ in pairs if k not in WEAPON_KEYS]
    if unknown:
        problems.append("不认识的键：" + "、".join(u[:12] for u in unknown[:5]))
    for key, value in pairs:
        if key in WEAPON_KEYS:
            raw[WEAPON_KEYS[key]] = value
    name = raw.get("name", "").strip()
    if not name:
        problems.append("缺少名称")
    kind = WEAPON_TYPES.get(raw.get("type", "").strip())
    if kind is None:
        problems.append(f"不存在武器类型[{raw.get('type', '')[:10]}]×（可选：增幅、火力、其他）")
    numbers = _weapon_numbers(raw, problems)
    attribute = _amplifier_attribute(raw, problems) if kind == "amplifier" else None
    load = _artillery_load(raw, numbers, problems) if kind == "artillery" else None
    if problems:
        raise InputSyntaxError("武器导入失败×\n" + "\n".join(problems), usage=SETUPWP_USAGE)
    current = load
    if load is not None and "current_load" in numbers and raw.get("current_load", "").strip():
        current = min(load, int(numbers["current_load"]))
    return {
        "name": name[:20],
        "type": kind,
        "attribute": attribute,
        "damage": numbers.get("damage", 0.0),
        "cast": numbers.get("cast", 0.0),
        "range": raw.get("range", "")[:20],
        "load": load,
        "current_load": current,
        "reload_time": numbers.get("reload_time", 0.0),
        "weight": numbers.get("weight", 0.0),
        "note": raw.get("note", "")[:60],
    }


def _weapon_numbers(raw: dict[str, str], problems: list[str]) -> dict[str, float]:
    """The numeric fields given, each a number from 0 to MAX_ABS (the others noted in ``problems``)."""
    numbers: dict[str, float] = {}
    for key in ("damage", "cast", "reload_time", "weight", "load", "current_load"):
        if key not in raw:
            continue
        value = parse_number(raw[key])
        if value is None or value < 0 or value > MAX_ABS:
            problems.append(f"「{_cn(key)}」应为不小于0的数字：{raw[key][:12]}")
        else:
            numbers[key] = value
    return numbers


def _amplifier_attribute(raw: dict[str, str], problems: list[str]) -> str | None:
    """An 增幅 weapon's attribute (it must name one, and give its damage: the percentage)."""
    attribute = lookup_attribute(raw.get("attribute", ""))
    if attribute is None:
        problems.append(f"不可使用属性[{raw.get('attribute', '')[:10]}]×")
    if not raw.get("damage", "").strip():
        problems.append("增幅武器需要填写伤害（增幅百分比）")
    return attribute


def _artillery_load(raw: dict[str, str], numbers: dict[str, float], problems: list[str]) -> int:
    """A 火力 weapon's 载弹量 (it must give damage, cast and a whole load of at least 1)."""
    for key in ("damage", "cast", "load"):
        if not raw.get(key, "").strip():
            problems.append(f"火力武器需要填写{_cn(key)}")
    if "load" in numbers and numbers["load"] != int(numbers["load"]):
        problems.append("载弹量应为整数")
    if "load" in numbers and numbers["load"] < 1 and raw.get("load", "").strip():
        problems.append("载弹量至少为1")
    return int(numbers.get("load", 0))


def _cn(key: str) -> str:
    return {v: k for k, v in WEAPON_KEYS.items()}[key]


__all__ = [
    "SETUPWP_USAGE",
    "TLSETUP_USAGE",
    "WEAPON_TYPE_CN",
    "ImportedSheet",
    "parse_number",
    "parse_setupwp",
    "parse_tlsetup",
    "split_pairs",
]
