"""Chinese text for D20 tick health that the rules act on: conditions (<昏迷>, <解体>, 死亡,
<疲惫>/<力竭>, <故障>, 临时生命), MP, and the lines of the bot's own checks (濒死检定, 力竭 check),
damage tags, 004 actions and Mov.

Player view unless ``gm``: a hidden combatant is "???" (:func:`.tick20.name_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

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
    out += _state_marks(h)
    if h.attr_loss and numbers:
        out.append("属性" + "".join(f"{k}-{v}" for k, v in h.attr_loss.items()))
    out += _part_marks(h, numbers)
    if numbers:
        out += _gauge_marks(h)
    return out


def _state_marks(h: Health) -> list[str]:
    """死亡 or the SP states, then <解体>, <昏迷>, <故障> and 「无认知」."""
    out = ["死亡"] if h.dead else [f"<{s}>" for s in sp_states(h)]
    if h.dissolved and not h.dead:
        out.append("<解体>")
    if h.coma and not h.dead:
        out.append("<昏迷>")
    if h.faults:
        out.append("<故障>")
    if "智慧" in h.zeroed:
        out.append("「无认知」")
    return out


def _part_marks(h: Health, numbers: bool) -> list[str]:
    """Each part's <故障> and 临时生命 (the wounds it holds only with ``numbers``)."""
    out: list[str] = []
    for p in h.parts:
        if any("故障" in w.tags for w in p.wounds):
            out.append(f"<故障:{p.name}>")
        if p.temp:
            held = "/".join(LEVEL_NAMES[w.level] for w in p.temp_wounds) if numbers else ""
            out.append(f"临时生命:{p.name}{len(p.temp_wounds)}/{p.temp}" + (f"({held})" if held else ""))
    return out


def _gauge_marks(h: Health) -> list[str]:
    """004's MP over the Mind Gauges, and the Hit Gauges when an overdraw or a cap changed them."""
    out: list[str] = []
    if h.mg:
        cur, cap = mp_total(h)
        out.append(f"MP{cur}/{cap}[{','.join(str(v) for v in mind_values(h))}]")
    if h.hg and (h.mp_debt or any(g.cap != 5 for g in h.hg)):
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


Lines = list[str]


def _dying_roll(who: str, d: dict) -> Lines:
    extra = "；".join(d.get("notes") or [])
    return [f"  {who} 濒死检定（{d['part']}）：强韧防御 {_check(d)}" + (f"：{extra}" if extra else "")]


def _mind(who: str, d: dict) -> Lines:
    kinds = "/".join(d.get("types") or []) or "精神"
    extra = "；".join(d.get("notes") or [])
    return [
        f"  {who} 受到精神伤害（{kinds}）：DP{d['dp']}−DR{d['dr']}，SP−{d['loss']}"
        + (f"（{extra}）" if extra else "")
    ]


def _sp(who: str, d: dict) -> Lines:
    """SP changed: the bot's 力竭 check if it rolled one, then the notes (death is said apart)."""
    check = d.get("check")
    out = [f"  力竭检定：强韧防御 {_check(check)}"] if check else []
    return out + [f"  {n}" for n in d.get("notes") or [] if n != "SP降至下限：死亡"]


def _temp(who: str, d: dict) -> Lines:
    moved = f"，原临时生命的{d['moved']}道伤势转移到部位上" if d.get("moved") else ""
    return [f"  {who} 的{d['part']}临时生命设为{d['amount']}{moved}"]


def _rest(who: str, d: dict) -> Lines:
    return [f"  {who} {d['word']}：SP {d['before']}→{d['sp']}/{d['sp_max']}"] + [
        f"  {n}" for n in d.get("notes") or []
    ]


def _hg_damage(who: str, d: dict) -> Lines:
    """A critical hit on Hit Gauges (only a crit gets a line)."""
    if not d.get("crit"):
        return []
    capped = "（非小兵最多击破2条HG）" if d["amount"] < d["asked"] else ""
    return [f"  重击：伤害×2={d['asked']}，造成{d['amount']}{capped}"]


def _execute(who: str, d: dict) -> Lines:
    res = f"失败，击破{d['broken']}条HG" if d["failed"] else "成功，不受影响"
    return [f"  斩杀：目标［DEX+MIG］{d['total']}/13 {res}"]


def _action(who: str, d: dict) -> Lines:
    label = f"：{d['label']}" if d.get("label") else ""
    tail = "；动作已用完，.ed 结束回合" if d["left"] <= 0 else ""
    return [f"  {who} 使用动作{label}（剩余{d['left']}）{tail}"]


def _attr(who: str, d: dict) -> Lines:
    change = f"损失{d['loss']}，现为{d['value']}" if d["loss"] else f"恢复为{d['value']}"
    return [f"  {who} 的{d['name']}{change}"]


def _line(template: str) -> Callable[[str, dict], Lines]:
    """An event said in one line: ``template`` filled with ``who`` and the event's data."""
    return lambda who, d: ["  " + template.format_map({**d, "who": who})]


def _when(key: str, template: str) -> Callable[[str, dict], Lines]:
    """An event said in one line only when its data has a true ``key``."""
    return lambda who, d: ["  " + template.format_map({**d, "who": who})] if d.get(key) else []


HEALTH_LINES: dict[str, Callable[[str, dict], Lines]] = {
    "dying_roll": _dying_roll,
    "dying_exempt": _line("{who} 无需濒死检定（此前大成功）"),
    "dissolved": _line("{who} <解体>，不再进行回合"),
    "defeated": _when("hp0", "{who} HP降至0：倒下，不再进行回合（.init 清场 移出列表）"),
    "died": _line("{who} 的SP降至下限：死亡，不再进行回合"),
    "woke": _line("{who} 的伤势低于上限，从<昏迷>中醒来"),
    "wound": lambda who, d: [f"  {d['part']}：" + "；".join(d["notes"])] if d.get("notes") else [],
    "mind": _mind,
    "sp": _sp,
    "temp": _temp,
    "mp_spend": lambda who, d: [
        f"  {who} 消耗{d['amount']}MP" + (f"（透支{d['debt']}）" if d.get("debt") else "")
    ],
    "mp_restore": _line("{who} 恢复{amount}MP"),
    "rest": _rest,
    "rest_nap": _line("{who} 在第{unit}单元已完成过长休：这次视为小憩（SP不变）"),
    "exhausted": _line("{who} 因其他原因陷入<力竭>：SP {before}→0/{sp_max}"),
    "self_heal": _line("{who} 自愈（LV{lv}）：HP+{hp} MP+{mp}"),
    "hg_damage": _hg_damage,
    "execute": _execute,
    "action": _action,
    "action_grant": _line("{who} 本回合追加{extra}个动作（剩余{left}）"),
    "actions_per_turn": _line("每回合动作数：{per_turn}"),
    "attr": _attr,
    "attr_coma": _line("{who} 的{name}降至0：陷入<昏迷>（属性回到1以上时醒来）"),
    "no_cognition": _line("{who} 的智慧降至0：认知层阶变为「无认知」（对「心灵」标签的效果免疫）"),
    "full_move": _line("{who} 全力移动1格（速度0；进入消耗{cost}点Mov的区域）"),
    "mov": _line("{who} Mov {mov}（速度{speed}）"),
}
"""Health event kind → its lines, from the combatant's shown name and the event's data."""


def event_lines(st: Combat, events: Iterable[Event], *, gm: bool = False) -> list[str]:
    """Lines for the health events (others are :func:`.tick20.event_lines`' business), each
    kind written by its function in :data:`HEALTH_LINES`."""
    out: list[str] = []
    for ev in events:
        fn = HEALTH_LINES.get(ev.kind)
        if fn is not None:
            d = ev.data
            out += fn(name_of(st, d.get("cid"), gm) if "cid" in d else "", d)
    return out


__all__ = ["conditions", "event_lines"]
