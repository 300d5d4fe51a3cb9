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
from chronodice.rules.timeline.interactions import DEFENCES, declared_kind
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
        kind = declared_kind(a.note)  # a defence aimed at nobody guards against anyone
        return f"{head}（{kind}）" if kind else f"{head}（无目标）"
    other = _name(state, a.target)
    if r.outcome == "guard":
        return f"{head}（{declared_kind(a.note)}，防备{other}）"
    head += f" →{other}："
    if r.outcome == "dead":
        return f"{head}目标已于{display.windup(r.dead_at or 0)}t死亡，未造成影响"
    x = r.interaction.other if r.interaction else None
    if r.outcome == "interrupt" and r.interaction is not None and x is not None:
        sums = f"{fmt(max(a.impact, x.impact))}−{fmt(min(a.impact, x.impact))}"
        if r.interaction.winner == "a":
            return (
                f"{head}打断{other}#{x.id}（{fmt(x.impact)}），{sums} → 打断成功，余下影响{fmt(r.interaction.left)}"
                f"（GM确认：.bat 取消 #{x.id}）"
            )
        return f"{head}打断{other}#{x.id}（{fmt(x.impact)}），{sums} → 打断未成功，#{x.id}照常进行"
    if r.outcome == "defence" and r.interaction is not None and x is not None:
        sums = f"{fmt(max(a.impact, x.impact))}−{fmt(min(a.impact, x.impact))}"
        rule = f"{other}#{x.id}{r.interaction.kind}{fmt(x.impact)}，{sums} → "
        if r.landed <= 0:
            return f"{head}{rule}完全挡下"
        head += f"{rule}命中{fmt(r.landed)}"
    elif x is not None and declared_kind(x.note) in DEFENCES:  # a defence against somebody else
        head += (
            f"{other}#{x.id}{declared_kind(x.note)}防备的是{_name(state, x.target)}，全额命中{fmt(r.landed)}"
        )
    elif x is not None:
        head += f"{other}#{x.id}（{fmt(x.impact)}）前摇中，非防御动作，全额命中{fmt(r.landed)}"
    else:
        head += f"全额命中{fmt(r.landed)}"
    return head + _landing(r, state, vitals)


def _landing(r: Resolution, state: BattleState, vitals: Mapping[str, Vitals] | None) -> str:
    """What became of a hit: recorded already, applied by the bot, or the ready command."""
    a, other = r.action, _name(state, r.action.target)
    if r.recorded:
        changes = "、".join(f"{'体力' if e.kind == 'hp' else '意志'}{fmt(e.delta)}" for e in r.recorded)
        return f"（已记入：{changes}）"
    if r.applied is not None:
        text = f"，已扣除：体力{fmt(r.applied.before)}→{fmt(r.applied.after)}"
        if r.died:
            text += f" ☠{other}死亡"
            if r.voided:
                text += f"，{'、'.join(f'#{k}' for k in r.voided)}作废"
        return text
    text = f"，记伤害：.crd {other}:hp -{fmt(r.landed)} #{a.id}"
    v = (vitals or {}).get(a.target or "")
    if v is not None and 0 < v.hp <= r.landed:
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


__all__ = ["COMPACT_LINES", "clock_line", "feed_lines", "fit", "resolution_line", "summary_lines"]
