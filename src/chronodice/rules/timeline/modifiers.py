"""Attribute buffs (``.buff``, F17) and resource-change modifiers (``.dr``, F18–F19).

Buff stacking (F17), applied in ``.ex``/``.pre``/``.bat``/``.chr show``, never in ``.neg``,
maxima, weight or damage::

    A_buffed = ((A + ΣDA)·(1 + ΣDT) + ΣFA)·(1 + ΣFT)        r2

Each Σ is a plain sum over the rows whose range covers the attribute.  MayuriBot sums 最终乘算
rows although a code comment says they multiply; we keep the sum so the numbers match.

Resource change (F18–F19) for a signed change X on 体力/意志 with an optional damage type τ::

    r = D/(D + 10L) for losses, D/(10L) for gains (D = Σ defence), k = 1 − r     k r2
    loss:  X·k·Π(1 − p) + Σf        gain: X·k·(1 + Σp) + Σf                     r1

Decisions (MayuriBot bugs of §8 fixed):

* ``±all`` rows apply to both 体力 and 意志;
* a row whose type is 所有 applies to every damage type (and to untyped changes); a typed row
  (物理 …) applies only when ``.crd`` names that type;
* a percentage is kept exact (MayuriBot rounded 12.5 % to 12 %);
* the result never changes sign: flat reductions can cancel a loss but not turn it into healing,
  and a gain is never turned into a loss.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from chronodice.core.errors import InputSyntaxError
from chronodice.core.plain import plain

from .attributes import lookup_range, range_covers
from .importing import parse_number
from .mayuri_order import insert_buff, insert_reduction
from .rounding import r1, r2

BuffType = Literal["direct_add", "direct_time", "final_add", "final_time"]
BUFF_TYPES: tuple[BuffType, ...] = ("direct_add", "direct_time", "final_add", "final_time")
BUFF_TYPE_CN: dict[str, str] = {
    "direct_add": "直接加算",
    "direct_time": "直接乘算",
    "final_add": "最终加算",
    "final_time": "最终乘算",
}
BUFF_RANGE_ERROR = "属性错误× 不存在属性[{x}] 属性范围可选：物理，思维，领域，所有，或11项属性之一"
VALUE_ERROR = '数值错误× 应为数字、百分数或"数字d"'
TYPE_ERROR = "类型错误× 类型应为数字1-4或汉字类型名称"
BUFF_USAGE = ".buff 来源 属性或范围 数值(n / n% / nd) [类型1-4]"
DR_USAGE = ".dr 来源 (+/-)(hp/mp/all) 数值(n / n% / nd) [伤害类型]"
ALL_TYPES = "所有"


@dataclass(frozen=True)
class Buff:
    """One ``.buff`` row: ``value`` is a fraction for the 乘算 types (0.1 = 10 %)."""

    source: str
    range: str
    value: float
    type: BuffType

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Buff:
        return cls(**{f.name: data[f.name] for f in fields(cls)})


def parse_modifier_value(text: str, level: float) -> tuple[float, str] | None:
    """``N%`` → (N/100, "%"), ``Nd``/``ND`` → (N, "d"), ``N`` → (N, ""); None if not a number.

    >>> parse_modifier_value("10%", 10), parse_modifier_value("100D", 10), parse_modifier_value("-5", 10)
    ((0.1, '%'), (100.0, 'd'), (-5.0, ''))
    >>> parse_modifier_value("x%", 10) is None, parse_modifier_value("d", 10) is None
    (True, True)
    """
    text = text.strip()
    suffix = ""
    if text[-1:] in ("%", "d", "D"):
        suffix = "%" if text[-1] == "%" else "d"
        text = text[:-1]
    if not text.strip():
        return None
    number = parse_number(text)
    if number is None or abs(number) > 1e6:
        return None
    if suffix == "%":
        return number / 100, "%"
    return number, suffix


def parse_buff_type(text: str) -> BuffType | None:
    """1–4 or the Chinese type names."""
    text = text.strip()
    if text in ("1", "2", "3", "4"):
        return BUFF_TYPES[int(text) - 1]
    for key, name in BUFF_TYPE_CN.items():
        if text == name or text == key:
            return key  # type: ignore[return-value]
    return None


def make_buff(source: str, range_text: str, value_text: str, type_text: str | None, level: float) -> Buff:
    """Build a buff from ``.buff`` arguments; ``Nd`` becomes r2(N/(10·L)) (F18), a 乘算 fraction.

    >>> make_buff("祝福", "物理", "10%", None, 10)
    Buff(source='祝福', range='r_physical', value=0.1, type='direct_time')
    >>> make_buff("甲", "力", "100d", None, 10)
    Buff(source='甲', range='strength', value=1.0, type='direct_time')
    >>> make_buff("药", "智力", "20", "3", 10)
    Buff(source='药', range='intelligence', value=20.0, type='final_add')
    """
    range_key = lookup_range(range_text)
    if range_key is None:
        raise InputSyntaxError(BUFF_RANGE_ERROR.format(x=range_text[:12]), usage=BUFF_USAGE)
    parsed = parse_modifier_value(value_text, level)
    if parsed is None:
        raise InputSyntaxError(VALUE_ERROR, usage=BUFF_USAGE)
    value, suffix = parsed
    if suffix == "d":
        value = r2(value / (10 * level))
    if type_text:
        kind = parse_buff_type(type_text)
        if kind is None:
            raise InputSyntaxError(TYPE_ERROR, usage=BUFF_USAGE)
    else:
        kind = "direct_time" if suffix else "direct_add"
    return Buff(source=source[:20], range=range_key, value=value, type=kind)


def sort_buffs(buffs: list[Buff]) -> list[Buff]:
    """MayuriBot's order: range desc (by its English names), type desc, value asc, source asc
    (:mod:`.mayuri_order`; a list is sorted at each addition, :func:`.mayuri_order.insert_buff`)."""
    return insert_buff(buffs[:-1], buffs[-1]) if buffs else []


def buffs_for(buffs: list[Buff], attribute: str) -> list[Buff]:
    """The rows whose range covers ``attribute``."""
    return [b for b in buffs if range_covers(b.range, attribute)]


def apply_buffs(value: float, buffs: list[Buff], attribute: str) -> float:
    """F17: ((A + ΣDA)(1 + ΣDT) + ΣFA)(1 + ΣFT), r2 (§4.4 example).

    >>> rows = [Buff("a", "strength", 20, "direct_add"), Buff("b", "r_physical", 0.1, "direct_time"),
    ...         Buff("c", "r_all", 0.05, "direct_time"), Buff("d", "strength", 5, "final_add"),
    ...         Buff("e", "strength", 0.1, "final_time"), Buff("x", "will", 99, "direct_add")]
    >>> apply_buffs(181.81, rows, "strength")
    260.79
    """
    sums = dict.fromkeys(BUFF_TYPES, 0.0)
    for b in buffs_for(buffs, attribute):
        sums[b.type] += b.value
    result = ((value + sums["direct_add"]) * (1 + sums["direct_time"]) + sums["final_add"]) * (
        1 + sums["final_time"]
    )
    return r2(result)


# ---------------------------------------------------------------------------- reductions
Resource = Literal["hp", "mp"]
RESOURCE_CN: dict[str, str] = {"hp": "体力", "mp": "意志", "all": "所有"}
_RANGE_WORDS = {"hp": "hp", "体力": "hp", "mp": "mp", "意志": "mp", "all": "all", "所有": "all"}


@dataclass(frozen=True)
class Reduction:
    """One ``.dr`` row.  ``range`` is ``-hp``/``+mp``/``-all``…; ``kind``: "%", "flat", "defence"."""

    source: str
    range: str
    value: float
    kind: Literal["%", "flat", "defence"]
    damage_type: str = ALL_TYPES

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reduction:
        return cls(**{f.name: data[f.name] for f in fields(cls)})

    def applies(self, sign: str, resource: str, damage_type: str | None) -> bool:
        """Range sign+resource or sign+all, and type 所有 or the named type."""
        if self.range not in (sign + resource, sign + "all"):
            return False
        return self.damage_type == ALL_TYPES or (damage_type is not None and self.damage_type == damage_type)


def parse_dr_range(text: str) -> str | None:
    """``-hp``/``+mp``/``all``/``体力``… → canonical ``-hp`` etc. (unsigned → ``-``).

    >>> parse_dr_range("HP"), parse_dr_range("+意志"), parse_dr_range("-all"), parse_dr_range("x")
    ('-hp', '+mp', '-all', None)
    """
    text = text.strip().lower()
    sign = "-"
    if text[:1] in "+-" and text:
        sign, text = text[0], text[1:]
    word = _RANGE_WORDS.get(text)
    return None if word is None else sign + word


def make_reduction(source: str, range_text: str, value_text: str, damage_type: str | None) -> Reduction:
    """Build a ``.dr`` row.

    >>> make_reduction("甲", "-hp", "100d", "物理")
    Reduction(source='甲', range='-hp', value=100.0, kind='defence', damage_type='物理')
    >>> make_reduction("盾", "hp", "20%", None)
    Reduction(source='盾', range='-hp', value=0.2, kind='%', damage_type='所有')
    """
    range_key = parse_dr_range(range_text)
    if range_key is None:
        raise InputSyntaxError(
            f"范围错误× 不存在范围 [{range_text[:10]}] 范围可选：(+/-)(hp/mp/all)", usage=DR_USAGE
        )
    parsed = parse_modifier_value(value_text, 1)
    if parsed is None:
        raise InputSyntaxError('数值错误× 应为数字、百分数或"数字d"', usage=DR_USAGE)
    value, suffix = parsed
    kind: Literal["%", "flat", "defence"] = "defence" if suffix == "d" else ("%" if suffix else "flat")
    if kind == "defence" and value < 0:
        raise InputSyntaxError("防御值不能为负", usage=DR_USAGE)
    return Reduction(
        source=source[:20],
        range=range_key,
        value=value if kind == "%" else r2(value),
        kind=kind,
        damage_type=(damage_type or ALL_TYPES)[:10],
    )


def sort_reductions(rows: list[Reduction]) -> list[Reduction]:
    """MayuriBot's order: defence desc, range desc, type desc, value asc, source asc, the last
    row being the one added (:func:`.mayuri_order.insert_reduction`: how its file compares a
    percentage with a number)."""
    return insert_reduction(rows[:-1], rows[-1]) if rows else []


@dataclass(frozen=True)
class ResourceChange:
    """The outcome of F19: the adjusted change and how it was obtained."""

    requested: float
    result: float
    keep: float
    """k = 1 − r (defence)."""
    multiplier: float
    """Π(1 − p) for losses, 1 + Σp for gains."""
    flat: float
    defence: float
    applied: tuple[Reduction, ...] = ()

    @property
    def process(self) -> str | None:
        """``[X]*k*m+d`` as MayuriBot shows it, when a non-defence row applied."""
        if not any(r.kind != "defence" for r in self.applied):
            return None
        return f"[{self.requested:g}]*{self.keep:g}*{self.multiplier:g}+{self.flat:g}"


def resource_change(
    amount: float, resource: Resource, level: float, rows: list[Reduction], damage_type: str | None = None
) -> ResourceChange:
    """F18–F19 (§4.5 example: L10, 100d 物理, 20 %, then flat 10).

    >>> rows = [make_reduction("甲", "-hp", "100d", "物理"), make_reduction("盾", "-hp", "20%", None)]
    >>> resource_change(-200, "hp", 10, rows, "物理").result
    -80.0
    >>> resource_change(-200, "hp", 10, rows + [make_reduction("x", "-hp", "10", None)], "物理").result
    -70.0
    >>> resource_change(-200, "hp", 10, rows).result   # untyped: the 物理 armour does not apply
    -160.0
    """
    if amount == 0:
        return ResourceChange(amount, 0.0, 1.0, 1.0, 0.0, 0.0)
    sign = "-" if amount < 0 else "+"
    applied = tuple(r for r in rows if r.applies(sign, resource, damage_type))
    defence = sum(r.value for r in applied if r.kind == "defence")
    if defence and level > 0:
        reduction = defence / (defence + 10 * level) if sign == "-" else defence / (10 * level)
    else:
        reduction = 0.0
    keep = r2(1 - r2(reduction))
    flat = r1(sum(r.value for r in applied if r.kind == "flat"))
    if sign == "-":
        multiplier = 1.0
        for r in applied:
            if r.kind == "%":
                multiplier *= 1 - r.value
    else:
        multiplier = 1 + sum(r.value for r in applied if r.kind == "%")
    multiplier = r2(multiplier)
    result = r1(amount * keep * multiplier + flat)
    result = min(result, 0.0) if sign == "-" else max(result, 0.0)
    return ResourceChange(amount, result + 0.0, keep, multiplier, flat, defence, applied)


__all__ = [
    "ALL_TYPES",
    "BUFF_TYPES",
    "BUFF_TYPE_CN",
    "BUFF_USAGE",
    "DR_USAGE",
    "RESOURCE_CN",
    "Buff",
    "Reduction",
    "ResourceChange",
    "apply_buffs",
    "buffs_for",
    "make_buff",
    "make_reduction",
    "parse_buff_type",
    "parse_dr_range",
    "parse_modifier_value",
    "resource_change",
    "sort_buffs",
    "sort_reductions",
]
