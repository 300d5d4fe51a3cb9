"""Seed 002 rules on the card that the bot keeps (issue 26, the last four of seed 002): the
high-attribute gauge, 人格 (人性/自我/狂气, <发狂>), attribute loss to 0, and 全力移动 at 速度 0.

* 属性阶层 — 高等: "数值为15或更高的属性处于这个阶层。每项高等属性都会获得一个与之对应的属性
  量谱。量谱的上限为`属性值/5-2`，下限为0。" and the action 「高等属性」: "触发：使用具有属性量谱的
  属性进行1次技能检定时。执行：RA｜1点对应属性量值 … 这次检定获得优势。" — "所有被消耗的量值，
  会在角色完成1次「长休」后恢复。"
* 人格 — 人性: "人性值最低为0，没有上限。角色可以通过消耗人性值，来解除等量的狂气值。"
  自我: "自我值最低为0，上限则等同感悟值。" "角色在进行技能检定时，如果消耗1点自我值不会导致她陷入
  <发狂>，则她可以消耗1点自我值，使这次检定获得优势。" 狂气: "当角色的狂气值比自我值高3点或更多时，
  她便会陷入<发狂>，直到她的狂气值降至与自我值相同的数值或更低。" 精神创伤: "当角色的狂气值因为
  精神创伤而增加时，她的自我值也会增加相同的数值。在每个片段中，同一名角色最多只能以此增加2点自我值。"
* 属性 — "属性值最低只能被降至0。体质和感悟之外的属性值被降至0时，角色会陷入<昏迷>。体质值被降至0时，
  角色会立即<解体>。智慧值被降至0后，角色的[认知层阶]会变为「无认知」。" and 劣等智慧 → 「低认知」,
  标准或更高 → 「高认知」.
* 速度 — "即便速度为0，只要没有遭受会导致「无法移动」的效果，角色依然可以通过【全力移动】动作移动
  1格，不过这一移动只能进入消耗的Mov不超过1点的区域。"

Readings where the seed is silent: 智慧 3–6 (次等) is named by neither cognition clause; the bot
keeps 「高认知」 there (a character's default; only 劣等 and 0 are said to *change* it).  智慧 0 is
both 「无认知」 and <昏迷> (智慧 is not among 体质 and 感悟, the two exceptions).  Spending 自我
while already <发狂> is refused (after the spend she is in <发狂>, which the clause rules out).

Pure module: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from chronodice.core.errors import IllegalAction

from .checks import ATTRIBUTES, attribute_tier

PERSONA_KEYS = ("人性", "自我", "狂气")
"""Card keys of 人格 (002 人格)."""
MAD_KEY = "发狂"
"""Card key: 1 while <发狂> (it lasts until 狂气 ≤ 自我, so it is state, not a formula)."""
SEGMENT_KEY = "片段自我"
"""Card key: 自我 gained from 精神创伤 in this 片段 (at most 2)."""
GAUGE_SUFFIX = "量谱"
"""Card key of a gauge's current value: ``力量量谱`` (absent: full)."""
MAX_SEGMENT_EGO = 2


# --------------------------------------------------------------------------- 高等属性量谱
def gauge_cap(value: int) -> int:
    """002 高等: ``属性值/5-2`` (rounded toward zero), only for an attribute of 15 or more.

    >>> [gauge_cap(v) for v in (14, 15, 19, 20, 24, 25, 30)]
    [0, 1, 1, 2, 2, 3, 4]
    """
    if attribute_tier(value) != "高等":
        return 0
    return max(0, value // 5 - 2)


def gauge_now(attrs: Mapping[str, int], name: str, value: int) -> int:
    """The gauge's current value on a card (``力量量谱``; absent = full), within 0..cap."""
    cap = gauge_cap(value)
    held = attrs.get(name + GAUGE_SUFFIX)
    return cap if held is None else max(0, min(cap, int(held)))


# --------------------------------------------------------------------------- 人格
@dataclass(frozen=True)
class Persona:
    """人性, 自我, 狂气, whether she is <发狂>, and the 自我 gained from trauma this 片段."""

    humanity: int = 0
    ego: int = 0
    madness: int = 0
    mad: bool = False
    segment_ego: int = 0

    @classmethod
    def of(cls, attrs: Mapping[str, int]) -> Persona:
        return cls(
            int(attrs.get("人性", 0)),
            int(attrs.get("自我", 0)),
            int(attrs.get("狂气", 0)),
            bool(attrs.get(MAD_KEY, 0)),
            int(attrs.get(SEGMENT_KEY, 0)),
        )

    def card(self) -> dict[str, int]:
        return {
            "人性": self.humanity,
            "自我": self.ego,
            "狂气": self.madness,
            MAD_KEY: int(self.mad),
            SEGMENT_KEY: self.segment_ego,
        }


def settle_madness(madness: int, ego: int, was_mad: bool) -> bool:
    """<发狂> after a change: entered at 狂气 ≥ 自我+3, left at 狂气 ≤ 自我, else unchanged.

    >>> settle_madness(5, 2, False), settle_madness(4, 2, True), settle_madness(2, 2, True)
    (True, True, False)
    """
    if madness - ego >= 3:
        return True
    if madness <= ego:
        return False
    return was_mad


def ego_cap(attrs: Mapping[str, int]) -> int | None:
    """自我's maximum: the 感悟 value (``None`` when the card has no 感悟)."""
    for key in ("感悟", *ATTRIBUTES["感悟"]):
        if key in attrs:
            return int(attrs[key])
    return None


def spend_ego(p: Persona) -> Persona:
    """One 自我 for advantage (002 自我), refused when she would be in <发狂> after it.

    >>> spend_ego(Persona(ego=3, madness=4)).ego
    2
    >>> spend_ego(Persona(ego=3, madness=5))
    Traceback (most recent call last):
    ...
    chronodice.core.errors.IllegalAction: 消耗1点自我后狂气5比自我2高3点或更多，会陷入<发狂>：不能消耗
    """
    if p.ego < 1:
        raise IllegalAction("自我值为0，不能消耗自我获得优势")
    if p.mad:
        raise IllegalAction("正处于<发狂>，不能消耗自我获得优势")
    if settle_madness(p.madness, p.ego - 1, False):
        raise IllegalAction(
            f"消耗1点自我后狂气{p.madness}比自我{p.ego - 1}高3点或更多，会陷入<发狂>：不能消耗"
        )
    return Persona(p.humanity, p.ego - 1, p.madness, False, p.segment_ego)


def trauma(p: Persona, amount: int, cap: int | None) -> Persona:
    """精神创伤: 狂气 +N and 自我 +N, at most 2 自我 per 片段, never above 感悟 (``cap``).

    The seed's numbers: 狂气 0 自我 2, trauma 3 in one 片段 → 狂气 3, 自我 4 (+2, not +3).

    >>> trauma(Persona(ego=2), 3, 12)
    Persona(humanity=0, ego=4, madness=3, mad=False, segment_ego=2)
    """
    gain = max(0, min(amount, MAX_SEGMENT_EGO - p.segment_ego))
    if cap is not None:
        gain = max(0, min(gain, cap - p.ego))
    ego, madness = p.ego + gain, p.madness + amount
    return Persona(p.humanity, ego, madness, settle_madness(madness, ego, p.mad), p.segment_ego + gain)


def soothe(p: Persona, amount: int) -> Persona:
    """人性 spent to remove as much 狂气 (002 人性).

    >>> soothe(Persona(humanity=3, ego=1, madness=5, mad=True), 3)
    Persona(humanity=0, ego=1, madness=2, mad=True, segment_ego=0)
    """
    if amount > p.humanity:
        raise IllegalAction(f"人性只有{p.humanity}点，不能消耗{amount}点")
    if amount > p.madness:
        raise IllegalAction(f"狂气只有{p.madness}点，不能解除{amount}点")
    madness = p.madness - amount
    return Persona(p.humanity - amount, p.ego, madness, settle_madness(madness, p.ego, p.mad), p.segment_ego)


def change(
    p: Persona, *, humanity: int = 0, ego: int = 0, madness: int = 0, cap: int | None = None
) -> Persona:
    """A GM's direct change (not trauma): each value kept at 0 or more, 自我 at most 感悟."""
    new_ego = max(0, p.ego + ego)
    if cap is not None:
        new_ego = min(new_ego, cap)
    new_madness = max(0, p.madness + madness)
    return Persona(
        max(0, p.humanity + humanity),
        new_ego,
        new_madness,
        settle_madness(new_madness, new_ego, p.mad),
        p.segment_ego,
    )


# --------------------------------------------------------------------------- attribute loss
ZERO_EFFECTS: dict[str, tuple[str, ...]] = {
    "力量": ("昏迷",),
    "敏捷": ("昏迷",),
    "魄力": ("昏迷",),
    "智慧": ("昏迷", "无认知"),
    "体质": ("解体",),
    "感悟": (),
}
"""What an attribute at 0 does (002 属性)."""


def cognition(intelligence: int) -> str:
    """[认知层阶] from 智慧 (002 属性阶层; 次等 reading in the module docstring).

    >>> [cognition(v) for v in (0, 2, 5, 7)]
    ['无认知', '低认知', '高认知', '高认知']
    """
    if intelligence <= 0:
        return "无认知"
    if attribute_tier(intelligence) == "劣等":
        return "低认知"
    return "高认知"


def reduced(attrs: Mapping[str, int], losses: Mapping[str, int]) -> dict[str, int]:
    """The card's numbers with a combatant's attribute losses taken off (never below 0), under
    whichever key the card writes the attribute (``力量`` or ``STR``).

    >>> reduced({"STR": 12, "敏捷": 10}, {"力量": 5, "敏捷": 20})
    {'STR': 7, '敏捷': 0}
    """
    out = dict(attrs)
    for name, loss in losses.items():
        for key in (name, *ATTRIBUTES.get(name, ())):
            if key in out:
                out[key] = max(0, int(out[key]) - loss)
                break
    return out


# --------------------------------------------------------------------------- 全力移动
def full_move(speed: int, cost: int, bound: bool) -> None:
    """【全力移动】 at 速度 0: one grid into an area costing at most 1 Mov, unless she is under an
    effect that makes her 「无法移动」.

    >>> full_move(0, 1, False)
    >>> full_move(0, 2, False)
    Traceback (most recent call last):
    ...
    chronodice.core.errors.IllegalAction: 速度为0时的全力移动只能进入消耗Mov不超过1点的区域（这格要2点）
    """
    if bound:
        raise IllegalAction("处于「无法移动」的效果中：任何移动动作都无效（强制移动除外）")
    if speed > 0:
        raise IllegalAction(f"速度为{speed}：用 .mov -n 移动（速度0时才由全力移动移动1格）")
    if cost > 1:
        raise IllegalAction(f"速度为0时的全力移动只能进入消耗Mov不超过1点的区域（这格要{cost}点）")


__all__ = [
    "GAUGE_SUFFIX",
    "MAD_KEY",
    "PERSONA_KEYS",
    "SEGMENT_KEY",
    "ZERO_EFFECTS",
    "Persona",
    "change",
    "cognition",
    "ego_cap",
    "full_move",
    "gauge_cap",
    "gauge_now",
    "reduced",
    "settle_madness",
    "soothe",
    "spend_ego",
    "trauma",
]
