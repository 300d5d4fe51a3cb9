"""The lines of what happened in a D20 tick combat (its events): the turn card's, the battle
report's (``.init log``), and those after a command (``.wound``, ``.atk``).

Player view unless ``gm``: an event about a hidden combatant is left out altogether — not shown
as ``???`` — so the group learns nothing of it, not even that something happened
(issue 39: the group saw ``???`` lines); an effect a hidden combatant is the source of is shown
without its source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class _View:
    """Who reads the lines: the combat, the GM or the players, and whether turns are told."""

    st: Combat
    gm: bool
    turns: bool

    def name(self, cid: str | None) -> str:
        return name_of(self.st, cid, self.gm)

    def sees(self, cid: str) -> bool:
        """Whether this view may see ``cid`` act (a hidden one only by the GM)."""
        c = self.st.maybe(cid)
        return self.gm or c is None or not c.hidden


def _turn(v: _View, ev: Event) -> list[str]:
    d = ev.data
    return [f"  第{ev.tick}刻 {v.name(d['cid'])} 的回合"] if v.turns and v.sees(d["cid"]) else []


def _coma_skip(v: _View, ev: Event) -> list[str]:
    d = ev.data
    return [f"  第{ev.tick}刻 {v.name(d['cid'])} 处于<昏迷>：回合自动跳过"] if v.sees(d["cid"]) else []


def _dying_check(v: _View, ev: Event) -> list[str]:
    d = ev.data
    adv = "，劣势" if d.get("disadvantage") else ""
    return [f"  {v.name(d['cid'])} 濒死检定：强韧防御 目标{d['target']}{adv}（{d['part']}）"]


def _wound(v: _View, ev: Event) -> list[str]:
    """A wound: an NPC's wounds are the GM's (hp_display), a hidden one's always; a damage's
    notes are the .wound reply's (services/tick20/resources), never these lines'."""
    d, st = ev.data, v.st
    c = st.maybe(d["cid"])
    open_wounds = c is not None and not c.hidden and (c.controller or st.options.hp_display == "show")
    return [f"  {v.name(d['cid'])} {wound_line(d)}"] if v.gm or open_wounds else []


def _stalled(v: _View, ev: Event) -> list[str]:
    if ev.data.get("coma"):
        return [f"这一轮能行动的都处于<昏迷>，暂停在第{ev.round}轮开始前；GM 发送 .init next 继续"]
    return [f"已连续{ev.data['rounds']}轮无人能行动，暂停在第{v.st.round}轮开始前；GM 发送 .init next 继续"]


def _said(template: str) -> Callable[[_View, Event], list[str]]:
    """An event said in one line: ``template`` filled with the event's data and ``{name}``, the
    name of the combatant it is about."""
    return lambda v, ev: ["  " + template.format_map({**ev.data, "name": v.name(ev.data["cid"])})]


TICK_LINES: dict[str, Callable[[_View, Event], list[str]]] = {
    "round_start": lambda v, ev: [f"—— 第{ev.round}轮开始 ——"],
    "turn": _turn,
    "coma_skip": _coma_skip,
    "dying_check": _dying_check,
    "wound": _wound,
    "dismembered": _said("{name} 的{part}<欠损>：<解体>"),
    "erosion": _said("{name} 侵蚀：{part}受到1道擦伤"),
    "stiffen": _said("{name} 僵化：失去{lost}AP（现{ap}）"),
    "lost_turn": _said("注意：{name} 的先攻升到已过的刻度，本轮失去回合（可用 .init set 重新放置）"),
    "ta_broken": _said("{name} 的全力动作「{ta}」被打断（已付{paid}/{total}）"),
    "ta_done": _said("{name} 完成全力动作「{ta}」，效果生效"),
    "settle": _said("沉淀：{name} 骰值{delta:+d}（主要先攻{main}）"),
    "stalled": _stalled,
    "delay": _said("{name} 延后（先攻{cur}）"),
    "effect_restored": lambda v, ev: [f"  （延后：{ev.data['effect']} 恢复）"],
}
"""Event kind → its lines; a kind not here is a health event (:func:`.tick20_health.event_lines`)."""


def event_lines(st: Combat, events: Iterable[Event], *, gm: bool = False, turns: bool = False) -> list[str]:
    """What happened on the way to the current turn, one short line each; ``turns``: also whose
    turn began when (the battle report; a turn card shows the current turn itself).  A hidden
    NPC's turns are left out of the player view (when it acts is the GM's).  Effects that run
    out together are gathered into one ``结束：`` line."""
    out: list[str] = []
    ended: list[str] = []
    hidden = set() if gm else {c.id for c in st.combatants if c.hidden}
    view = _View(st, gm, turns)

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
        fn = TICK_LINES.get(ev.kind)
        out += fn(view, ev) if fn is not None else health_lines(st, [ev], gm=gm)
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
