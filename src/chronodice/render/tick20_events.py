"""The lines of what happened in a D20 tick combat (its events): the turn card's, the battle
report's (``.init log``), and those after a command (``.wound``, ``.atk``).

Player view unless ``gm``: an event about a hidden combatant is left out altogether — not shown
as ``???`` — so the group learns nothing of it, not even that something happened
(issue 39: the group saw ``???`` lines); an effect a hidden combatant is the source of is shown
without its source.
"""

from __future__ import annotations

from collections.abc import Iterable

from chronodice.render.tick20_health import event_lines as health_lines
from chronodice.render.tick20_health import name_of
from chronodice.rules.tick20.health import LEVEL_NAMES
from chronodice.rules.tick20.model import Combat, Event

SUBJECTS = ("cid", "bearer")
"""The keys of an event's data that name the combatant it is about."""


def concealed(st: Combat, ev: Event) -> bool:
    """Whether ``ev`` is about a hidden combatant (the player view leaves it out)."""
    hidden = {c.id for c in st.combatants if c.hidden}
    return any(ev.data.get(k) in hidden for k in SUBJECTS)


def event_lines(st: Combat, events: Iterable[Event], *, gm: bool = False, turns: bool = False) -> list[str]:
    """What happened on the way to the current turn, one short line each; ``turns``: also whose
    turn began when (the battle report; a turn card shows the current turn itself).  A hidden
    NPC's turns are left out of the player view (when it acts is the GM's)."""
    out: list[str] = []
    ended: list[str] = []
    hidden = set() if gm else {c.id for c in st.combatants if c.hidden}

    def flush() -> None:
        if ended:
            out.append("  结束：" + "，".join(ended))
            ended.clear()

    for ev in events:
        d = ev.data
        if any(d.get(k) in hidden for k in SUBJECTS):
            continue
        if ev.kind == "effect_end" and d.get("reason") in ("expired", "parent"):
            src = name_of(st, d.get("source"), gm) if d.get("source") and d["source"] not in hidden else ""
            bearer = name_of(st, d["bearer"], gm)
            ended.append(f"{bearer}的{d['effect']}" + (f"（{src}）" if src else ""))
            continue
        flush()
        if ev.kind == "round_start":
            out.append(f"—— 第{ev.round}轮开始 ——")
        elif ev.kind == "turn":
            c = st.maybe(d["cid"])
            if turns and (gm or c is None or not c.hidden):
                out.append(f"  第{ev.tick}刻 {name_of(st, d['cid'], gm)} 的回合")
        elif ev.kind == "coma_skip":
            c = st.maybe(d["cid"])
            if gm or c is None or not c.hidden:
                out.append(f"  第{ev.tick}刻 {name_of(st, d['cid'], gm)} 处于<昏迷>：回合自动跳过")
        elif ev.kind == "dying_check":
            adv = "，劣势" if d.get("disadvantage") else ""
            out.append(
                f"  {name_of(st, d['cid'], gm)} 濒死检定：强韧防御 目标{d['target']}{adv}（{d['part']}）"
            )
        elif ev.kind == "wound":
            c = st.maybe(d["cid"])
            open_wounds = c is not None and not c.hidden and (c.controller or st.options.hp_display == "show")
            if gm or open_wounds:  # an NPC's wounds are the GM's (hp_display), a hidden one's always
                out.append(f"  {name_of(st, d['cid'], gm)} {wound_line(d)}")
        elif ev.kind == "dismembered":
            out.append(f"  {name_of(st, d['cid'], gm)} 的{d['part']}<欠损>：<解体>")
        elif ev.kind == "erosion":
            out.append(f"  {name_of(st, d['cid'], gm)} 侵蚀：{d['part']}受到1道擦伤")
        elif ev.kind == "stiffen":
            out.append(f"  {name_of(st, d['cid'], gm)} 僵化：失去{d['lost']}AP（现{d['ap']}）")
        elif ev.kind == "lost_turn":
            out.append(
                f"  注意：{name_of(st, d['cid'], gm)} 的先攻升到已过的刻度，本轮失去回合（可用 .init set 重新放置）"
            )
        elif ev.kind == "ta_broken":
            out.append(
                f"  {name_of(st, d['cid'], gm)} 的全力动作「{d['ta']}」被打断（已付{d['paid']}/{d['total']}）"
            )
        elif ev.kind == "ta_done":
            out.append(f"  {name_of(st, d['cid'], gm)} 完成全力动作「{d['ta']}」，效果生效")
        elif ev.kind == "settle":
            out.append(f"  沉淀：{name_of(st, d['cid'], gm)} 骰值{d['delta']:+d}（主要先攻{d['main']}）")
        elif ev.kind == "stalled" and d.get("coma"):
            out.append(f"这一轮能行动的都处于<昏迷>，暂停在第{ev.round}轮开始前；GM 发送 .init next 继续")
        elif ev.kind == "stalled":
            out.append(
                f"已连续{d['rounds']}轮无人能行动，暂停在第{st.round}轮开始前；GM 发送 .init next 继续"
            )
        elif ev.kind == "delay":
            out.append(f"  {name_of(st, d['cid'], gm)} 延后（先攻{d['cur']}）")
        elif ev.kind == "effect_restored":
            out.append(f"  （延后：{d['effect']} 恢复）")
        elif ev.kind != "wound":  # a damage's notes are the .wound reply's (services/tick20/resources)
            out += health_lines(st, [ev], gm=gm)
    flush()
    return out


def wound_line(d: dict[str, object]) -> str:
    """What one ``wound`` event did to its part: ``躯干 新增重伤×1，进入<负伤>``."""
    level = LEVEL_NAMES.get(int(d.get("level") or 0), "伤势")  # type: ignore[call-overload]
    added, replaced, worsened = (int(d.get(k) or 0) for k in ("added", "replaced", "worsened"))  # type: ignore[call-overload]
    bits = []
    if added:
        bits.append(f"新增{level}×{added}")
    if replaced:
        bits.append(f"{replaced}道较轻的伤势升为{level}（已满4道）")
    if worsened:
        bits.append(f"{worsened}道最轻的伤势恶化一级（已满4道）")
    text = f"{d.get('part')} " + ("，".join(bits) if bits else "没有新的伤势")
    if d.get("status"):
        text += f"，现为<{d['status']}>"
    return text


__all__ = ["SUBJECTS", "concealed", "event_lines", "wound_line"]
