"""What an action's impact number *is*: its kind (影响的类型), read from the declaration.

Rule book (战斗 → 影响数值, line 475): the impact 「可以是伤害,可以是移动,可以是闪避、护盾、治疗、招架、
闪现、时间停止、精神控制,可以代表任何行为的影响程度」 — a number is damage only when the action is
an attack.  So every declaration has a kind (:data:`KINDS`), and the resolution feed and
automatic damage apply each kind as the book means it (:mod:`.resolution`):

====== ============================================================ =================
kind   what lands on the target when the action resolves            the book
====== ============================================================ =================
伤害   the impact off 体力 (less a defence in windup, 交互)          影响数值, 交互
精神伤害 the impact off 意志                                         死亡 (意志 0 kills)
治疗   the impact back onto 体力, up to the maximum                 影响数值 (治疗)
护盾 闪避 招架  nothing itself: subtracts from what hits its owner        交互, lines 531–535
打断   only against an action in windup then: larger − smaller      交互
控制   holds the target for 20·I/A of the resisting attribute       控制效果, 第二条
减益   the target's next impacts are that much smaller              控制效果 (虚弱、减速)
增益 移动 交涉 其他  no 体力/意志 change: the GM rules                   —
====== ============================================================ =================

Readings where the book is silent (a GM's reading, documented and tested):

* the kind is the first kind word found in the note (:func:`read_kind`, by position, the
  longer word first at a tie: ``精神控制`` is 控制, ``打断施法`` is 打断, ``给队友加buff`` is
  增益); the bare kind names work too (``.bat 智力 50 >托林 治疗``);
* a note the bot cannot read is 伤害 when aimed at the other side (a player's character at an
  NPC or back), 其他 when aimed at one's own side or at nobody — the GM rules those
  (:func:`default_kind`); the GM changes any action's kind in one command (``.bat 类型``);
* a control names its resisting attribute at declaration (``眩晕术 意志``: the first full
  attribute name in the note, :func:`read_resist`); without one the bot asks the GM for it.
"""

from __future__ import annotations

import re
from typing import Literal

from .attributes import ATTRIBUTES, lookup_attribute

Kind = Literal[
    "伤害", "精神伤害", "治疗", "护盾", "闪避", "招架", "打断", "控制", "减益", "增益", "移动", "交涉", "其他"
]
KINDS: tuple[Kind, ...] = (
    "伤害",
    "精神伤害",
    "治疗",
    "护盾",
    "闪避",
    "招架",
    "打断",
    "控制",
    "减益",
    "增益",
    "移动",
    "交涉",
    "其他",
)
DEFENCES: tuple[Kind, ...] = ("闪避", "招架", "护盾")
"""Kinds that subtract from what hits their owner (交互)."""
ON_CARDS: dict[Kind, tuple[str, int]] = {"伤害": ("hp", -1), "精神伤害": ("mp", -1), "治疗": ("hp", 1)}
"""Kinds that change a card: (resource, sign)."""
RULED: tuple[Kind, ...] = ("增益", "移动", "交涉", "其他")
"""Kinds that change no 体力/意志: what they do is the GM's ruling."""

WORDS: dict[Kind, tuple[str, ...]] = {
    "伤害": (
        "伤害",
        "攻击",
        "打击",
        "拳",
        "踢",
        "斩",
        "砍",
        "劈",
        "背刺",
        "突刺",
        "刺击",
        "射击",
        "射箭",
        "开枪",
        "枪击",
        "火球",
        "雷击",
        "爆炸",
        "撕咬",
        "冲撞",
        "attack",
        "damage",
        "dmg",
    ),
    "精神伤害": ("精神伤害", "精神攻击", "精神冲击", "精神", "心灵攻击", "侵蚀", "意志伤害", "mental"),
    "治疗": ("治疗", "治愈", "疗伤", "回复", "恢复", "急救", "包扎", "回血", "heal"),
    "护盾": ("护盾", "盾", "结界", "shield"),
    "闪避": ("闪避", "躲避", "闪躲", "躲闪", "dodge"),
    "招架": ("招架", "格挡", "parry", "block"),
    "打断": ("打断", "interrupt"),
    "控制": (
        "控制",
        "眩晕",
        "昏迷",
        "定身",
        "冰冻",
        "束缚",
        "麻痹",
        "石化",
        "时间停止",
        "催眠",
        "精神控制",
        "stun",
    ),
    "减益": ("减益", "虚弱", "减速", "削弱", "诅咒", "debuff"),
    "增益": ("增益", "加buff", "buff", "鼓舞", "祝福", "强化", "加持"),
    "移动": ("移动", "走位", "奔跑", "撤退", "后撤", "靠近", "闪现", "move"),
    "交涉": ("交涉", "谈判", "说服", "劝说", "威吓", "欺骗", "恐吓", "沟通"),
    "其他": ("其他", "其它"),
}
"""Words that select each kind (the kind's own name first)."""

_BY_WORD: tuple[tuple[str, Kind], ...] = tuple(
    sorted(((w.lower(), k) for k, ws in WORDS.items() for w in ws), key=lambda wk: -len(wk[0]))
)
_SPLIT = re.compile(r"[\s,，:：;；/、（）()]+")


def read_kind(note: str) -> Kind | None:
    """The kind the note names: the kind word that starts earliest (the longer at a tie); None
    when the note names none.  Linear in the note (a fixed list of short words).

    >>> [read_kind(n) for n in ("治疗", "打断施法", "眩晕术 意志", "给队友加buff", "精神控制", "交涉", "背刺")]
    ['治疗', '打断', '控制', '增益', '控制', '交涉', '伤害']
    >>> read_kind("看看风景") is None, read_kind("") is None
    (True, True)
    """
    text = note.lower()
    best: tuple[int, int, Kind] | None = None
    for word, kind in _BY_WORD:
        at = text.find(word)
        if at >= 0 and (best is None or (at, -len(word)) < (best[0], best[1])):
            best = (at, -len(word), kind)
    return best[2] if best is not None else None


def default_kind(enemy: bool | None) -> Kind:
    """An unreadable note: 伤害 at the other side, 其他 (the GM rules) at one's own or nobody."""
    return "伤害" if enemy else "其他"


def kind_of(note: str, enemy: bool | None) -> Kind:
    """The kind of an action declared with ``note`` (``enemy``: aimed at the other side; None:
    at nobody)."""
    return read_kind(note) or default_kind(enemy)


def read_resist(note: str) -> str | None:
    """A control's resisting attribute: the first word of the note that is an attribute's full
    name (or a known alias), as its key; a bare 力 or 体 inside another word is not one.

    >>> read_resist("眩晕术 意志"), read_resist("定身:体质"), read_resist("力竭"), read_resist("")
    ('will', 'constitution', None, None)
    """
    for word in _SPLIT.split(note):
        for _key, name in ATTRIBUTES:
            if word.endswith(name) or word.startswith(name):
                return lookup_attribute(name)
        key = lookup_attribute(word) if len(word) >= 4 else None
        if key is not None:
            return key
    return None


def parse_kind(text: str) -> Kind | None:
    """A kind named by the GM (``.bat 类型 #3 治疗``): a kind's name or any of its words."""
    text = text.strip().lower()
    return next((k for w, k in _BY_WORD if w == text), None)


__all__ = [
    "DEFENCES",
    "KINDS",
    "ON_CARDS",
    "RULED",
    "WORDS",
    "Kind",
    "default_kind",
    "kind_of",
    "parse_kind",
    "read_kind",
    "read_resist",
]
