"""TimeLine battle replies a GM reads on a phone (issue 25): the resolution feed, the compact
reply (at most :data:`COMPACT_LINES` lines) and the ``.bat end`` summary.

A declaration answers with the action and its times, what settled (one line per action, from
:mod:`chronodice.rules.timeline.resolution`) and who acts next; the whole timeline stays one
``.bat`` away.  :func:`fit` keeps a reply within the limit by joining the middle lines with
``；`` — nothing is dropped, so a ready ``.crd`` command is never lost to the limit.
"""

from __future__ import annotations

from collections.abc import Mapping

from chronodice.rules.timeline.attributes import CN
from chronodice.rules.timeline.battle import Action, BattleState, next_up
from chronodice.rules.timeline.effects import DEFENCES
from chronodice.rules.timeline.interactions import effect_of
from chronodice.rules.timeline.resolution import Resolution
from chronodice.rules.timeline.rounding import fmt
from chronodice.rules.timeline.summary import Summary

from .battle_picture import Vitals
from .timeline import Display

COMPACT_LINES = 6
"""The most lines a compact reply has (issue 25: read on a phone)."""
JOIN = "；"


def fit(lines: list[str], limit: int = COMPACT_LINES) -> list[str]:
    """``lines`` in at most ``limit`` lines: the first and the last stay as they are, the ones
    between are joined in order, as evenly as possible, with ``；``.

    >>> fit(["a", "b", "c", "d", "e"], 4)
    ['a', 'b；c', 'd', 'e']
    >>> fit(["a", "b", "c", "d", "e", "f", "g", "h"], 4)
    ['a', 'b；c；d', 'e；f；g', 'h']
    >>> fit(["a", "b"], 4)
    ['a', 'b']
    """
    if len(lines) <= limit:
        return lines
    first, middle, last = lines[0], lines[1:-1], lines[-1]
    slots = max(1, limit - 2)
    size, extra = divmod(len(middle), slots)
    out, at = [first], 0
    for k in range(slots):
        n = size + (1 if k < extra else 0)
        out.append(JOIN.join(middle[at : at + n]))
        at += n
    return [*out, last]


def clock_line(state: BattleState, display: Display) -> str:
    """The compact reply's last line: the clock, how many actions, the opening, who is next.

    ``⏱ 战斗时间 6.0t｜行动12个｜▶ 下一个行动：乙（6.0t）``"""
    text = f"⏱ 战斗时间 {display.windup(state.clock)}t｜行动{len(state.actions)}个"
    if not state.started:
        text += "｜开场中（GM .bat 开始 后计时）"
    nxt = next_up(state)
    if nxt is not None:
        t, who = nxt
        text += f"｜▶ 下一个行动：{'、'.join(p.name for p in who)}（{display.windup(t)}t）"
    return text


def _name(state: BattleState, key: str | None) -> str:
    p = state.participant(key or "")
    return p.name if p else "?"


def _what(a: Action) -> str:
    """What an action is, in a word: its note, else its weapon or attribute."""
    if a.note:
        return a.note
    if a.weapon:
        return str(a.weapon.get("name", ""))
    return CN.get(a.attribute, a.attribute)


def kind_tag(action: Action) -> str:
    """``〔治疗〕``, ``〔控制·抵抗意志〕``: what the bot read an action as (the GM changes it with
    ``.bat 类型 #N 种类``); nothing for a reload or an action stored before kinds existed."""
    if action.kind == "reload" or not action.effect or (action.target is None and action.effect == "其他"):
        return ""  # nothing read: aimed at nobody, a note naming no kind
    resist = f"·抵抗{CN.get(action.resist, action.resist)}" if action.resist else ""
    return f"〔{action.effect}{resist}〕"


def resolution_line(
    r: Resolution, state: BattleState, display: Display, vitals: Mapping[str, Vitals] | None = None
) -> str:
    """One settled action: ``✔#2 甲 重拳 35.0 @4.0t →Goblin：全额命中35.0，记伤害：.crd …``.

    ``vitals`` (体力 now, from the cards) adds 足以致死 to a ready command that would kill."""
    a = r.action
    who = _name(state, a.key)
    at = f"@{display.windup(a.end)}t"
    if r.outcome == "reload":
        return f"✔#{a.id} {who} {_what(a)} 装填完成 {at}"
    head = f"✔#{a.id} {who} {_what(a)} {fmt(a.impact)} {at}"
    if r.outcome == "untargeted":
        if r.kind in DEFENCES:  # a defence aimed at nobody guards against anyone
            return f"{head}（{r.kind}）"
        return f"{head}（无目标）" if r.kind in ("其他", "伤害") else f"{head}（{r.kind}，无目标）"
    other = _name(state, a.target)
    if r.outcome == "guard":
        return f"{head}（{r.kind}，防备{other}）"
    head += f" →{other}："
    if r.weakened:
        head += f"（被打断削弱{fmt(r.weakened)}，余{fmt(a.impact - r.weakened)}）"
    return head + _OUTCOMES[r.outcome](r, state, display, vitals)


def _dead(r: Resolution, state: BattleState, display: Display, vitals: Vitals_) -> str:
    return f"目标已于{display.windup(r.dead_at or 0)}t死亡，未造成影响"


def _ruled(r: Resolution, state: BattleState, display: Display, vitals: Vitals_) -> str:
    return f"{r.kind}，不改变体力/意志，效果由GM裁定"


def _miss(r: Resolution, state: BattleState, display: Display, vitals: Vitals_) -> str:
    return f"打断落空（{_name(state, r.action.target)}此刻没有前摇中的行动），无影响"


def _interrupt(r: Resolution, state: BattleState, display: Display, vitals: Vitals_) -> str:
    a, ix = r.action, r.interaction
    assert ix is not None
    x, other = ix.other, _name(state, r.action.target)
    mine = a.impact - r.weakened
    sums = f"{fmt(max(mine, x.impact))}−{fmt(min(mine, x.impact))}"
    text = f"打断{other}#{x.id}（{fmt(x.impact)}），{sums} → "
    if ix.winner == "b":
        return text + f"打断未成功，#{x.id}照常进行，影响减为{fmt(ix.left)}"
    stop = f"#{x.id}已中止" if r.stopped is not None else f"#{x.id}的结果已记入，未中止"
    if ix.winner == "tie":
        return text + f"势均力敌，{stop}，无余下影响"
    return text + f"打断成功，{stop}；余下{r.kind}{fmt(r.landed)}" + _landing(r, state, vitals)


def _control(r: Resolution, state: BattleState, display: Display, vitals: Vitals_) -> str:
    a, other = r.action, _name(state, r.action.target)
    text = f"控制（影响{fmt(r.landed)}）"
    if r.interaction is not None and r.interaction.rule == "defence":
        text = f"控制，被{r.interaction.kind}抵消到{fmt(r.landed)}"
    if r.recorded:
        return text + "（已记入）"
    if r.held is not None:
        attr = CN.get(a.resist, a.resist)
        return (
            text + f"：{other}以{attr}抵抗，被控制 {display.windup(r.held[0])}→{display.windup(r.held[1])}t"
        )
    if r.landed <= 0:
        return text + "，未能控制"
    if a.resist:
        return text + f"，请GM确认：.bat 控制 #{a.id} {CN.get(a.resist, a.resist)}"
    return text + f"，宣言时未注明抵抗属性：请GM .bat 控制 #{a.id} 抵抗属性"


def _debuff(r: Resolution, state: BattleState, display: Display, vitals: Vitals_) -> str:
    other = _name(state, r.action.target)
    if r.landed <= 0:
        return "减益，被抵消，无影响"
    return f"减益{fmt(r.landed)}：{other}之后的影响数值共少{fmt(r.landed)}" + (
        "（已记入）" if r.recorded else ""
    )


def _hit(r: Resolution, state: BattleState, display: Display, vitals: Vitals_) -> str:
    """伤害 / 精神伤害 / 治疗, in full or past a defence."""
    a, ix, other = r.action, r.interaction, _name(state, r.action.target)
    x = ix.other if ix else None
    what = LANDS[r.kind]
    if r.outcome == "defence" and ix is not None and x is not None:
        mine = a.impact - r.weakened
        sums = f"{fmt(max(mine, x.impact))}−{fmt(min(mine, x.impact))}"
        rule = f"{other}#{x.id}{ix.kind}{fmt(x.impact)}，{sums} → "
        if r.landed <= 0:
            return f"{rule}完全挡下"
        text = f"{rule}{PAST_DEFENCE.get(r.kind, what)}{fmt(r.landed)}"
    elif x is not None and effect_of(x) in DEFENCES:  # a defence against somebody else
        text = f"{other}#{x.id}{effect_of(x)}防备的是{_name(state, x.target)}，{what}{fmt(r.landed)}"
    elif x is not None:
        text = f"{other}#{x.id}（{fmt(x.impact)}）前摇中，非防御动作，{what}{fmt(r.landed)}"
    else:
        text = f"{what}{fmt(r.landed)}"
    return text + _landing(r, state, vitals)


Vitals_ = Mapping[str, Vitals] | None
LANDS: dict[str, str] = {"伤害": "全额命中", "精神伤害": "精神伤害", "治疗": "治疗"}
"""How a card-changing kind is said in the feed."""
PAST_DEFENCE: dict[str, str] = {"伤害": "命中"}
"""… and what gets past a defence (not 全额)."""
_OUTCOMES = {
    "dead": _dead,
    "ruled": _ruled,
    "miss": _miss,
    "interrupt": _interrupt,
    "control": _control,
    "debuff": _debuff,
    "full": _hit,
    "defence": _hit,
}
"""Outcome → the rest of its line (after ``→目标：``)."""
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "伤害": ("记伤害", "hp", "-"),
    "精神伤害": ("记精神伤害", "mp", "-"),
    "治疗": ("记治疗", "hp", "+"),
}
_APPLIED: dict[tuple[str, int], str] = {
    ("hp", -1): "已扣除：体力",
    ("mp", -1): "已扣除：意志",
    ("hp", 1): "已恢复：体力",
}


def _landing(r: Resolution, state: BattleState, vitals: Vitals_) -> str:
    """What became of a card change: recorded already, applied by the bot, or the ready command."""
    a, other = r.action, _name(state, r.action.target)
    if r.recorded:
        changes = "、".join(f"{'体力' if e.kind == 'hp' else '意志'}{fmt(e.delta)}" for e in r.recorded)
        return f"（已记入：{changes}）"
    if r.landed <= 0 or r.kind not in _COMMANDS:
        return ""
    if r.applied is not None and r.applied.delta == 0:
        word = "体力" if r.applied.resource == "hp" else "意志"
        return f"，{word}{fmt(r.applied.after)}，{'已满' if r.kind == '治疗' else '未变'}"
    if r.applied is not None:
        sign = 1 if r.applied.delta > 0 else -1
        text = f"，{_APPLIED[(r.applied.resource, sign)]}{fmt(r.applied.before)}→{fmt(r.applied.after)}"
        if r.died:
            text += f" ☠{other}死亡"
            if r.voided:
                text += f"，{'、'.join(f'#{k}' for k in r.voided)}作废"
        return text
    command, resource, op = _COMMANDS[r.kind]
    text = f"，{command}：.crd {other}:{resource} {op}{fmt(r.landed)} #{a.id}"
    v = (vitals or {}).get(a.target or "")
    if v is not None and op == "-" and resource == "hp" and v.hp is not None and 0 < v.hp <= r.landed:
        text += f"（现体力{fmt(v.hp)}，足以致死）"
    return text


def feed_lines(
    resolutions: list[Resolution],
    state: BattleState,
    display: Display,
    vitals: Mapping[str, Vitals] | None = None,
) -> list[str]:
    """The resolution feed: one line per settled action, in the order they resolved."""
    return [resolution_line(r, state, display, vitals) for r in resolutions]


def summary_lines(s: Summary, display: Display) -> list[str]:
    """``.bat end``: the head, then one line per participant (deaths inline)."""
    head = f"战斗结束，时间轴归位√ 历时{display.windup(s.length)}t，完成行动{s.acted}个"
    if s.unsourced:
        head += f"（另有未注明来源的伤害{fmt(s.unsourced)}）"
    rows = []
    for row in s.rows:
        dead = f"☠{display.windup(row.died_at)}t" if row.died_at is not None else ""
        rows.append(
            f"{row.name}{'[NPC]' if row.npc else ''}{dead}：行动{row.acted} 造成{fmt(row.dealt)} 承受{fmt(row.taken)}"
        )
    if not rows:
        return [head]
    return [head, *rows]


__all__ = [
    "COMPACT_LINES",
    "LANDS",
    "clock_line",
    "feed_lines",
    "fit",
    "kind_tag",
    "resolution_line",
    "summary_lines",
]
