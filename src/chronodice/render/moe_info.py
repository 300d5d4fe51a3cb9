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


def describe_trigger(pack: Pack, info: dict[str, Any], me: int, label: Any) -> str:
    """Why an optional effect is offered, e.g. ``2号小明对你使用了【攻击】``.  ``label(seat)``
    names a seat; ``me`` is the seat asked (named 你)."""
    t = str(info.get("timing", ""))

    def who(key: str) -> str:
        s = info.get(key)
        if not isinstance(s, int):
            return "（无来源）" if key == "source" else "某角色"
        return "你" if s == me else label(s)

    card = info.get("card")
    cname = f"【{pack.cards[card].name}】" if isinstance(card, str) and card in pack.cards else "牌"
    n = info.get("n")
    dmg = f"{n}点{info.get('attribute') or ''}伤害" if isinstance(n, int) else "伤害"
    about = who("about")
    if t == "use.become_target":
        return f"{who('user')}对{about}使用了{cname}"
    if t in ("use.declared", "use.finished"):
        return f"{who('user')}使用了{cname}" + ("（结算完毕）" if t == "use.finished" else "")
    if t in ("use.before_effect", "use.effect"):
        return f"{who('user')}的{cname}即将对{about}生效"
    if t == "use.offset":
        return f"{who('user')}的{cname}被抵消"
    if t == "damage.caused":
        return f"{who('source')}即将对{who('victim')}造成{dmg}"
    if t == "damage.inflicted":
        return f"{who('victim')}即将受到{who('source')}造成的{dmg}"
    if t == "damage.after_dealt":
        return f"{who('source')}对{who('victim')}造成了{dmg}"
    if t == "damage.after_received":
        return f"{who('victim')}受到了{who('source')}造成的{dmg}"
    if t == "damage.finished":
        return f"{who('victim')}的伤害结算结束"
    if t == "respond.need":
        names = "、".join(f"【{pack.cards[k].name}】" for k in info.get("names", []) if k in pack.cards)
        return f"{about}需要使用{names or '牌'}"
    if t == "phase.draw.count":
        return f"{about}的摸牌阶段摸牌时"
    if t.startswith("phase.between."):
        _p, _b, a, b = t.split(".")
        return f"{about}的{PHASE_NAMES.get(a, a)}与{PHASE_NAMES.get(b, b)}间"
    if t.startswith("phase."):
        parts = t.split(".")
        if len(parts) == 3 and parts[1] in PHASE_NAMES:
            return f"{about}的{PHASE_NAMES[parts[1]]}{_PHASE_EDGE.get(parts[2], '')}"
    if t in _TURN:
        return f"{about}的{_TURN[t]}"
    if t == "dying.enter":
        return f"{about}进入濒死状态"
    if t == "death":
        return f"{about}阵亡"
    if t == "hp.lost":
        return f"{about}流失了血量"
    if t == "hp.recovered":
        return f"{about}回复了血量"
    if t == "cards.obtained":
        return f"{about}获得了牌"
    if t == "cards.lost":
        return f"{about}失去了牌"
    if t == "cards.discarded":
        return f"{about}的牌被弃置"
    if t == "judge.before_effective":
        return f"{about}的判定牌生效前"
    if t == "judge.effective":
        return f"{about}的判定牌生效后"
    if t == "pindian.shown":
        return "拼点牌亮出后"
    if t == "skill.used":
        return f"{about}发动了技能"
    if t in ("round.start", "round.end"):
        return "一轮开始时" if t == "round.start" else "一轮结束时"
    if t == "game.start":
        return "游戏开始时"
    return f"时机：{t}" if t else ""
