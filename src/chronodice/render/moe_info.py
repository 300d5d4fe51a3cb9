"""Chinese descriptions for 萌E: a card's or a skill's text (``.moe card`` / ``.moe skill``) and
what triggered an optional effect (the "是否发动【X】？" prompt).

>>> from chronodice.rules.moe.pack import load_pack
>>> print(card_info(load_pack("demo"), "mirror").splitlines()[0])
【镜之结界】行动牌·奥秘
>>> find_card(load_pack("demo"), "攻击"), find_skill(load_pack("demo"), "奇境")
('attack', 'wonderland')
"""

from __future__ import annotations

from typing import Any

from chronodice.rules.moe.pack import Pack
from chronodice.rules.moe.state import PHASE_NAMES

CATEGORY = {"basic": "基础牌", "action": "行动牌", "equipment": "装备牌"}
ACTION_KIND = {"instant": "瞬时魔法", "secret": "奥秘", "tactic": "战术"}
SLOT = {"weapon": "武器", "armour": "防具"}
SKILL_KIND = {
    "status": "状态类被动技",
    "passive": "被动技",
    "trigger": "触发技",
    "active": "主动技",
    "limited": "限定技",
    "awakening": "觉醒技",
    "faith": "信仰技",
}


def find_card(pack: Pack, name: str) -> str | None:
    """The key of the card named ``name`` (display name or key, case-insensitive)."""
    low = name.strip().lower()
    for key, cd in pack.cards.items():
        if low in (key.lower(), cd.name.lower()):
            return key
    return None


def find_skill(pack: Pack, name: str) -> str | None:
    low = name.strip().lower()
    for key, sd in pack.skills.items():
        if low in (key.lower(), sd.name.lower()):
            return key
    return None


def card_info(pack: Pack, key: str) -> str:
    """A card definition as text: name, kind, range / attribute / skills, and its rules text."""
    cd = pack.cards[key]
    kind = CATEGORY[cd.category]
    if cd.action_kind:
        kind += "·" + ACTION_KIND[cd.action_kind]
    if cd.slot:
        kind += "·" + SLOT[cd.slot]
    bits = []
    if cd.attribute:
        bits.append(f"{cd.attribute}属性")
    if cd.slot == "weapon" and cd.range is not None:
        bits.append("攻击范围" + ("无限" if cd.range == "inf" else str(cd.range)))
    if cd.talent is not None:
        bits.append(f"天赋({cd.talent.kind}{cd.talent.need})")
    lines = [f"【{cd.name}】{kind}" + (f"（{'，'.join(bits)}）" if bits else "")]
    if cd.text:
        lines.append(cd.text)
    for s in cd.skills:
        if s in pack.skills:
            lines.append(skill_info(pack, s))
    return "\n".join(lines)


def skill_info(pack: Pack, key: str) -> str:
    sd = pack.skills[key]
    kind = SKILL_KIND[sd.kind]
    # a pack's text often opens with the kind itself (「信仰技，行动阶段…」): say it once
    bits = [] if (sd.text or "").startswith(kind) else [kind]
    if sd.faith_cost:
        bits.append(f"消耗{sd.faith_cost}点信仰")
    owners = [c.name for c in pack.characters.values() if key in c.skills]
    who = f"（{'、'.join(owners)}）" if owners else ""
    return f"【{sd.name}】{'，'.join(bits)}{who}：{sd.text or '（无说明）'}"


# ====================================================================== triggers
_PHASE_EDGE = {"before": "即将开始", "start": "开始时", "end": "结束时", "after": "结束后"}
_TURN = {
    "turn.before_start": "回合开始前",
    "turn.start": "回合开始时",
    "turn.end": "回合结束时",
    "turn.after_end": "回合结束后",
}


_TRIGGERS = {
    "use.become_target": "{user}对{about}使用了{cname}",
    "use.declared": "{user}使用了{cname}",
    "use.finished": "{user}使用了{cname}（结算完毕）",
    "use.before_effect": "{user}的{cname}即将对{about}生效",
    "use.effect": "{user}的{cname}即将对{about}生效",
    "use.offset": "{user}的{cname}被抵消",
    "damage.caused": "{source}即将对{victim}造成{dmg}",
    "damage.inflicted": "{victim}即将受到{source}造成的{dmg}",
    "damage.after_dealt": "{source}对{victim}造成了{dmg}",
    "damage.after_received": "{victim}受到了{source}造成的{dmg}",
    "damage.finished": "{victim}的伤害结算结束",
    "phase.draw.count": "{about}的摸牌阶段摸牌时",
    "dying.enter": "{about}进入濒死状态",
    "death": "{about}阵亡",
    "hp.lost": "{about}流失了血量",
    "hp.recovered": "{about}回复了血量",
    "cards.obtained": "{about}获得了牌",
    "cards.lost": "{about}失去了牌",
    "cards.discarded": "{about}的牌被弃置",
    "judge.before_effective": "{about}的判定牌生效前",
    "judge.effective": "{about}的判定牌生效后",
    "pindian.shown": "拼点牌亮出后",
    "skill.used": "{about}发动了技能",
    "round.start": "一轮开始时",
    "round.end": "一轮结束时",
    "game.start": "游戏开始时",
}
"""Timing → the sentence for it, filled with the words of :func:`_trigger_words`."""


def _trigger_words(pack: Pack, info: dict[str, Any], me: int, label: Any) -> dict[str, str]:
    """The words a trigger's sentence may use: the seats (你 for ``me``), the card, the damage."""

    def who(key: str) -> str:
        s = info.get(key)
        if not isinstance(s, int):
            return "（无来源）" if key == "source" else "某角色"
        return "你" if s == me else label(s)

    card = info.get("card")
    n = info.get("n")
    return {
        "user": who("user"),
        "about": who("about"),
        "source": who("source"),
        "victim": who("victim"),
        "cname": f"【{pack.cards[card].name}】" if isinstance(card, str) and card in pack.cards else "牌",
        "dmg": f"{n}点{info.get('attribute') or ''}伤害" if isinstance(n, int) else "伤害",
    }


def _phase_trigger(t: str, about: str) -> str | None:
    """A timing at a phase's edge or between two phases (None when ``t`` is no such timing)."""
    if t.startswith("phase.between."):
        _p, _b, a, b = t.split(".")
        return f"{about}的{PHASE_NAMES.get(a, a)}与{PHASE_NAMES.get(b, b)}间"
    parts = t.split(".")
    if parts[0] == "phase" and len(parts) == 3 and parts[1] in PHASE_NAMES:
        return f"{about}的{PHASE_NAMES[parts[1]]}{_PHASE_EDGE.get(parts[2], '')}"
    return None


def describe_trigger(pack: Pack, info: dict[str, Any], me: int, label: Any) -> str:
    """Why an optional effect is offered, e.g. ``2号小明对你使用了【攻击】``.  ``label(seat)``
    names a seat; ``me`` is the seat asked (named 你).  The sentences are a table from timing
    to template (:data:`_TRIGGERS`)."""
    t = str(info.get("timing", ""))
    words = _trigger_words(pack, info, me, label)
    about = words["about"]
    if t in _TRIGGERS:
        return _TRIGGERS[t].format(**words)
    if t == "respond.need":
        names = "、".join(f"【{pack.cards[k].name}】" for k in info.get("names", []) if k in pack.cards)
        return f"{about}需要使用{names or '牌'}"
    phase = _phase_trigger(t, about)
    if phase is not None:
        return phase
    if t in _TURN:
        return f"{about}的{_TURN[t]}"
    return f"时机：{t}" if t else ""
