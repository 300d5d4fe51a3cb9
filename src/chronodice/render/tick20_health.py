"""Chinese text for D20 tick health that the rules act on: conditions (<昏迷>, <解体>, 死亡,
<疲惫>/<力竭>, <故障>, 临时生命), MP, and the lines of the bot's own checks (濒死检定, 力竭 check),
damage tags, 004 actions and Mov.

Player view unless ``gm``: a hidden combatant is "???" (:func:`.tick20.name_of`).
"""

from __future__ import annotations

from collections.abc import Iterable

from chronodice.rules.tick20.damage import sp_states
from chronodice.rules.tick20.health import LEVEL_NAMES, mp_total
from chronodice.rules.tick20.model import Combat, Combatant, Event, Health


def name_of(st: Combat, cid: str | None, gm: bool = False) -> str:
    """A combatant's name as this view may show it: "???" for a hidden one in the player view;
    "GM" for no combatant (an effect the GM added), "（已离场）" for one who left."""
    c = st.maybe(cid)
    if c is None:
        return "GM" if cid is None else "（已离场）"
    return c.name if gm else c.shown


def conditions(c: Combatant, numbers: bool) -> list[str]:
    """The states the rules act on; ``numbers``: also SP and MP values (the GM, the owner, or a
    group that shows NPC numbers).

    >>> from chronodice.rules.tick20.model import Health
    >>> conditions(Combatant(id="c1", name="坦克", health=Health(sp=-4, sp_max=4, dead=True)), True)
    ['SP-4/4', '死亡']
    """
    h = c.health
    out: list[str] = []
    if h.sp is not None and numbers:
        out.append(f"SP{h.sp}/{h.sp_max}")
    if c.defeated:
        out.append("已击败")
    if h.dead:
        out.append("死亡")
    else:
        out += [f"<{s}>" for s in sp_states(h)]
    if h.dissolved and not h.dead:
        out.append("<解体>")
    if h.coma and not h.dead:
        out.append("<昏迷>")
    if h.faults:
        out.append("<故障>")
    if "智慧" in h.zeroed:
        out.append("「无认知」")
    if h.attr_loss and numbers:
        out.append("属性" + "".join(f"{k}-{v}" for k, v in h.attr_loss.items()))
    for p in h.parts:
        if any("故障" in w.tags for w in p.wounds):
            out.append(f"<故障:{p.name}>")
        if p.temp:
            held = "/".join(LEVEL_NAMES[w.level] for w in p.temp_wounds) if numbers else ""
            out.append(f"临时生命:{p.name}{len(p.temp_wounds)}/{p.temp}" + (f"({held})" if held else ""))
    if h.mg and numbers:
        cur, cap = mp_total(h)
        out.append(f"MP{cur}/{cap}[{','.join(str(v) for v in mind_values(h))}]")
    if h.hg and numbers and (h.mp_debt or any(g.cap != 5 for g in h.hg)):
        debt = h.mp_debt
        held = ",".join(f"{max(0, g.hp - debt)}/{max(0, g.cap - debt)}" for g in h.hg)
        out.append(f"HG[{held}]" + (f"（透支{debt}MP，每条容量−{debt}）" if debt else ""))
    return out


def mind_values(h: Health) -> list[int]:
    """Each Mind Gauge's MP, an overdraw shown on the last one (004 透支精神值: "最后一条MG中的MP
    可以降至负值"; issue 26: an overdraw showed ``[0,0]`` and full-capacity Hit Gauges).

    >>> from chronodice.rules.tick20.model import Gauge
    >>> mind_values(Health(mg=[Gauge(hp=0), Gauge(hp=0)], mp_debt=2))
    [0, -2]
    """
    values = [g.hp for g in h.mg]
    if values:
        values[-1] -= h.mp_debt
    return values


def _check(d: dict) -> str:
    """A bot-rolled 强韧防御; under <昏迷> it says 劣势 and which die counted."""
    dice = "/".join(map(str, d["dice"]))
    edge = "（<昏迷>劣势，取低）" if d.get("edge") == "劣势" else ""
    return f"D20={dice}{edge}→{d['total']}/{d['target']} {d['outcome']}"


def event_lines(st: Combat, events: Iterable[Event], *, gm: bool = False) -> list[str]:
    """Lines for the health events (others are :func:`.tick20.event_lines`' business)."""
    out: list[str] = []
    for ev in events:
        d = ev.data
        who = name_of(st, d.get("cid"), gm) if "cid" in d else ""
        if ev.kind == "dying_roll":
            extra = "；".join(d.get("notes") or [])
            out.append(
                f"  {who} 濒死检定（{d['part']}）：强韧防御 {_check(d)}" + (f"：{extra}" if extra else "")
            )
        elif ev.kind == "dying_exempt":
            out.append(f"  {who} 无需濒死检定（此前大成功）")
        elif ev.kind == "dissolved":
            out.append(f"  {who} <解体>，不再进行回合")
        elif ev.kind == "defeated" and d.get("hp0"):
            out.append(f"  {who} HP降至0：倒下，不再进行回合（.init 清场 移出列表）")
        elif ev.kind == "died":
            out.append(f"  {who} 的SP降至下限：死亡，不再进行回合")
        elif ev.kind == "woke":
            out.append(f"  {who} 的伤势低于上限，从<昏迷>中醒来")
        elif ev.kind == "wound" and d.get("notes"):
            out.append(f"  {d['part']}：" + "；".join(d["notes"]))
        elif ev.kind == "mind":
            kinds = "/".join(d.get("types") or []) or "精神"
            extra = "；".join(d.get("notes") or [])
            out.append(
                f"  {who} 受到精神伤害（{kinds}）：DP{d['dp']}−DR{d['dr']}，SP−{d['loss']}"
                + (f"（{extra}）" if extra else "")
            )
        elif ev.kind == "sp":
            check = d.get("check")
            if check:
                out.append(f"  力竭检定：强韧防御 {_check(check)}")
            out += [f"  {n}" for n in d.get("notes") or [] if n != "SP降至下限：死亡"]
        elif ev.kind == "temp":
            moved = f"，原临时生命的{d['moved']}道伤势转移到部位上" if d.get("moved") else ""
            out.append(f"  {who} 的{d['part']}临时生命设为{d['amount']}{moved}")
        elif ev.kind == "mp_spend":
            out.append(f"  {who} 消耗{d['amount']}MP" + (f"（透支{d['debt']}）" if d.get("debt") else ""))
        elif ev.kind == "mp_restore":
            out.append(f"  {who} 恢复{d['amount']}MP")
        elif ev.kind == "rest":
            out.append(f"  {who} {d['word']}：SP {d['before']}→{d['sp']}/{d['sp_max']}")
            out += [f"  {n}" for n in d.get("notes") or []]
        elif ev.kind == "rest_nap":
            out.append(f"  {who} 在第{d['unit']}单元已完成过长休：这次视为小憩（SP不变）")
        elif ev.kind == "exhausted":
            out.append(f"  {who} 因其他原因陷入<力竭>：SP {d['before']}→0/{d['sp_max']}")
        elif ev.kind == "self_heal":
            out.append(f"  {who} 自愈（LV{d['lv']}）：HP+{d['hp']} MP+{d['mp']}")
        elif ev.kind == "hg_damage" and d.get("crit"):
            capped = "（非小兵最多击破2条HG）" if d["amount"] < d["asked"] else ""
            out.append(f"  重击：伤害×2={d['asked']}，造成{d['amount']}{capped}")
        elif ev.kind == "execute":
            res = f"失败，击破{d['broken']}条HG" if d["failed"] else "成功，不受影响"
            out.append(f"  斩杀：目标［DEX+MIG］{d['total']}/13 {res}")
        elif ev.kind == "action":
            label = f"：{d['label']}" if d.get("label") else ""
            tail = "；动作已用完，.ed 结束回合" if d["left"] <= 0 else ""
            out.append(f"  {who} 使用动作{label}（剩余{d['left']}）{tail}")
        elif ev.kind == "action_grant":
            out.append(f"  {who} 本回合追加{d['extra']}个动作（剩余{d['left']}）")
        elif ev.kind == "actions_per_turn":
            out.append(f"  每回合动作数：{d['per_turn']}")
        elif ev.kind == "attr":
            out.append(
                f"  {who} 的{d['name']}"
                + (f"损失{d['loss']}，现为{d['value']}" if d["loss"] else f"恢复为{d['value']}")
            )
        elif ev.kind == "attr_coma":
            out.append(f"  {who} 的{d['name']}降至0：陷入<昏迷>（属性回到1以上时醒来）")
        elif ev.kind == "no_cognition":
            out.append(f"  {who} 的智慧降至0：认知层阶变为「无认知」（对「心灵」标签的效果免疫）")
        elif ev.kind == "full_move":
            out.append(f"  {who} 全力移动1格（速度0；进入消耗{d['cost']}点Mov的区域）")
        elif ev.kind == "mov":
            out.append(f"  {who} Mov {d['mov']}（速度{d['speed']}）")
    return out


__all__ = ["conditions", "event_lines"]
