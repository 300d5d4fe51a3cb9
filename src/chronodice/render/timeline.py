"""TimeLine replies: Chinese text in MayuriBot's shapes, and Pillow pictures.

Text keeps the markers MayuriBot's players know (√, ×, [↑]/[↓]/[=], 🎉/❗️, "———————").  Two
pictures: the battle timeline as a time grid like the rule book's combat table (one row per
participant with 体力/意志, then each action its own bar and each 体力/意志 change or death at its
own time, in pages; :mod:`chronodice.render.battle_picture`), and the character sheet.  Pictures
use the bundled fonts only (no system font).

``Display`` carries the per-group choice between MayuriBot's numbers (default) and the Excel
sheet's (windup as whole t, success rates capped at 100 %).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from chronodice.rules.timeline.attributes import ATTRIBUTE_KEYS, CN, range_name
from chronodice.rules.timeline.battle import Action, BattleState, Event, Participant, next_up
from chronodice.rules.timeline.character import TLCharacter, Weapon
from chronodice.rules.timeline.efficiency import efficiency
from chronodice.rules.timeline.importing import WEAPON_TYPE_CN
from chronodice.rules.timeline.load import overload_note
from chronodice.rules.timeline.modifiers import BUFF_TYPE_CN, RESOURCE_CN, Buff, Reduction
from chronodice.rules.timeline.rounding import fmt, fmt_int, r0

from .battle_picture import Vitals, battle_image, vitals_from_events
from .fonts import font

LINE = "———————"
MAX_TEXT_BLOCKS = 12
"""Participants shown in the text timeline before pointing to the picture."""
LOG_PAGE = 15


@dataclass(frozen=True)
class Display:
    """Per-group display: ``sheet=True`` shows windup as whole t and caps rates at 100 %;
    ``verbose=True`` (``.bat 详细 开``) answers a battle command with the whole timeline, as
    before issue 25, instead of the compact reply."""

    sheet: bool = False
    verbose: bool = False
    busy: frozenset[str] = frozenset()
    """NPCs winding up an action the group may not know (:mod:`chronodice.rules.timeline.secrecy`)."""

    def windup(self, t: float) -> str:
        return fmt_int(t) if self.sheet else fmt(t)

    def rate(self, rate: float) -> str:
        value = min(rate, 100.0) if self.sheet else rate
        return f"{value:.0f}"


# ------------------------------------------------------------------ characters
def character_text(char: TLCharacter) -> str:
    """``.chr show`` as text (the picture has the same content)."""
    s, d, res = char.sheet, char.derived(), char.resources
    lines = [
        f"[{s.name}] Lv.{s.level:g} {s.race} {s.gender} {s.occupation}".rstrip(),
        f"外貌 {s.appearance:g}  资产 {s.wealth:g}  年龄 {s.age:g}[{s.adult_age:g}]  体型 {s.size:g}[{s.standard_size:g}]",
        f"物理 {fmt(d.revised_physical)} [{r0(d.physical / d.ability * 100):.0f}%]"
        f"  思维 {fmt(d.revised_mental)} [{r0(d.mental / d.ability * 100):.0f}%]",
        f"体力 {fmt(res.hp)}/{fmt(res.hp_full)} [{_pct(res.hp, res.hp_full)}]"
        f"  意志 {fmt(res.mp)}/{fmt(res.mp_full)} [{_pct(res.mp, res.mp_full)}]",
    ]
    for key in ATTRIBUTE_KEYS:
        base, value = d.checks[key], char.check(key)
        diff = value - base
        extra = f" ({'+' if diff > 0 else '-'}{fmt(abs(round(diff, 2)))})" if abs(diff) > 1e-9 else ""
        lines.append(f"{CN[key]}: {fmt(value)}{extra}")
    lines.append(
        f"负重 {fmt(d.carried)}/{fmt(d.max_load)}  负重修正 {r0(d.weight_rev * 100):.0f}%"
        f"  年龄修正 {r0(d.physical_age_rev * 100):.0f}%/{r0(d.mental_age_rev * 100):.0f}%"
        f"  体型修正 {r0(d.size_rev * 100):.0f}%"
    )
    lines.append(f"交涉加成 {fmt(d.negotiation_bonus)}  现金 {fmt(res.cash)}")
    if note := overload_note(d):
        lines.append(note)
    return "\n".join(lines)


def _pct(cur: float, full: float) -> str:
    return f"{r0(cur / full * 100):.0f}%" if full else "—"


def crd_text(char: TLCharacter) -> str:
    res = char.resources
    return "\n".join(
        [
            f"{char.name}: ",
            f"体力: {fmt(res.hp)}/{fmt(res.hp_full)} [{_pct(res.hp, res.hp_full)}] ({fmt(res.hp - res.hp_full)})",
            f"意志: {fmt(res.mp)}/{fmt(res.mp_full)} [{_pct(res.mp, res.mp_full)}] ({fmt(res.mp - res.mp_full)})",
            f"现金: {fmt(res.cash)}",
        ]
    )


def arrow(old: float, new: float) -> str:
    return "[↑]" if new > old else "[↓]" if new < old else "[=]"


def buff_value(b: Buff) -> str:
    if b.type in ("direct_time", "final_time"):
        return f"{r0(b.value * 100):.0f}%"
    return fmt(b.value)


def buff_rows(name: str, buffs: list[tuple[int, Buff]], title: str) -> str:
    lines = [title]
    for k, b in buffs:
        lines.append(f"[{k}]📍{b.source}|{buff_value(b)}")
        lines.append(f"---🏷{range_name(b.range)}|{BUFF_TYPE_CN[b.type]}")
    return "\n".join(lines)


def reduction_value(r: Reduction) -> str:
    if r.kind == "%":
        return f"{r.value * 100:g}%"
    if r.kind == "defence":
        return f"{r.value:g}d"
    return fmt(r.value)


def reduction_line(r: Reduction) -> str:
    mark = "🛡" if r.kind == "defence" else "📍"
    sign, res = r.range[0], r.range[1:]
    return f"{mark} {sign}{RESOURCE_CN[res]} [{reduction_value(r)}] {r.damage_type}"


def reduction_rows(rows: list[tuple[int, Reduction]], title: str) -> str:
    lines = [title]
    for k, r in rows:
        mark = "🛡" if r.kind == "defence" else "📍"
        lines.append(f"[{k}]{mark}{r.source}|{reduction_value(r)}")
        lines.append(f"---🏷{r.range[0]}{RESOURCE_CN[r.range[1:]]}|{r.damage_type}")
    return "\n".join(lines)


def weapon_show(w: Weapon, ammo: int | None = None, *, level: float | None = None) -> str:
    """``.wp show``: MayuriBot's padded rows, plus 效率 (the sheet's 绝对效率) when ``level`` is given."""
    eff = efficiency(w, level) if level is not None else None
    rows = [
        ("名称", w.name),
        ("类型", WEAPON_TYPE_CN[w.type]),
        ("增幅属性", CN.get(w.attribute or "", "")),
        ("伤害", fmt(w.damage) if w.damage or w.type != "other" else ""),
        ("前摇", fmt(w.cast) if w.cast else ""),
        ("射程", w.range),
        ("载弹量", str(w.load) if w.load is not None else ""),
        ("当前载弹", str(ammo if ammo is not None else w.current_load) if w.load is not None else ""),
        ("装填时间", fmt(w.reload_time) if w.reload_time else ""),
        ("负重", fmt(w.weight)),
        ("备注", w.note),
        ("效率", f"{eff:g}" if eff is not None else ""),
    ]
    return "\n".join(f"{k.ljust(4, '—')}: {v}" for k, v in rows if v)


# ------------------------------------------------------------------ the battle timeline
def describe_action(a: Action, display: Display) -> str:
    """MayuriBot's third line: attribute/note, weapon (amplifier), weapon + ammo (artillery)."""
    w = a.weapon
    if w is None:
        text = CN.get(a.attribute, a.attribute)
        return f"{text} : {a.note}" if a.note else text
    note = f"（{w['note']}）" if w.get("note") else ""
    if w["type"] == "artillery":
        text = f"{w['name']}{note}\n[{w['after']}/{w['load']}]"
    else:
        text = f"{w['name']} : {CN.get(a.attribute, a.attribute)}{note}"
    return f"{text}\n{a.note}" if a.note else text


def action_summary(a: Action, p: Participant | None, display: Display) -> str:
    """One log line: ``#3 甲 0.0→17.14t (17.14t) 力量 150.0 重拳``."""
    who = p.name if p else a.key
    what = "整备中..." if a.kind == "reload" else fmt(a.impact)
    label = a.weapon["name"] if a.weapon else CN.get(a.attribute, a.attribute)
    status = ""
    if a.cancelled_at is not None:
        status = f" ✖取消@{display.windup(a.cancelled_at)}t"
    line = f"#{a.id} {who} {display.windup(a.start)}→{display.windup(a.end)}t ({display.windup(a.windup)}t) {label} {what}"
    return line + (f" {a.note}" if a.note else "") + status


def event_summary(e: Event, p: Participant | None) -> str | None:
    who = p.name if p else ""
    t = fmt(e.time)
    if e.kind in ("hp", "mp"):
        sign = "+" if e.delta > 0 else ""
        return (
            f"@{t}t {who} {RESOURCE_CN[e.kind]}{sign}{fmt(e.delta)} → {fmt(e.after or 0)}/{fmt(e.full or 0)}"
        )
    if e.kind == "death":
        return f"@{t}t ☠ {who} 死亡"
    if e.kind == "join":
        return f"@{t}t {who} 加入战斗"
    if e.kind == "out":
        return f"@{t}t {who} 退出战斗"
    if e.kind == "cancel":
        return f"@{t}t {who} 取消行动#{e.ref}"
    if e.kind == "initiative":
        return f"@{t}t {who} 先攻：其他角色从{fmt(e.after or 0)}t开始行动"
    if e.kind == "debuff":  # chronodice.rules.timeline.debuffs
        if e.delta > 0:
            return f"@{t}t {who} 受到减益{fmt(e.delta)}"
        if e.ref is not None:
            return f"@{t}t {who} 行动#{e.ref}因减益少输出{fmt(-e.delta)}"
        return f"@{t}t {who} 减益清除"
    if e.kind == "advance":
        return f"战斗时间推进到{fmt(e.after or 0)}t"
    if e.kind == "stun":
        return f"@{t}t 💫 {who} 被行动#{e.ref}控制至{fmt(e.after or 0)}t"
    return None


def participant_block(
    state: BattleState, p: Participant, display: Display, vitals: Vitals | None = None
) -> str:
    """MayuriBot's four lines for a participant's latest action, with status marks.

    With ``vitals`` a line ``体力 a/b  意志 c/d`` comes before the closing ``———————``.
    """
    extra = f"{vitals.line()}\n" if vitals is not None and vitals.line() else ""
    own = state.actions_of(p.key)
    tag = "[NPC]" if p.npc else ""
    status = {"dead": " ☠死亡", "out": " (已退出)"}.get(p.status, "")
    head = f"{p.name}{tag} : {fmt(state.total_impact(p.key))}{status}"
    if p.key in display.busy:
        return f"{head}\n行动未公开 ⌛\n{extra}{LINE}"
    if not own:
        return f"{head}\n{display.windup(p.joined_at)}t 加入，尚未行动\n{extra}{LINE}"
    last = own[-1]
    impact = "整备中..." if last.kind == "reload" else fmt(last.impact)
    mark = "" if last.resolved(state.clock) or last.cancelled else " ⌛"
    if last.cancelled_at is not None:
        mark = " ✖已取消"
    cum = display.windup(state.free_at(p.key))
    return (
        f"{head}\n{cum}t ({display.windup(last.windup)}t) : {impact}{mark}\n"
        f"{describe_action(last, display)}\n{extra}{LINE}"
    )


def head_lines(state: BattleState, display: Display) -> list[str]:
    """The clock (and the opening) and who acts next: the first lines of ``.bat``."""
    lines = [f"⏱ 战斗时间 {display.windup(state.clock)}t｜行动{len(state.actions)}个"]
    if not state.started:  # issue 25: nobody is late yet; the clock runs once the GM starts it
        lines[0] += "｜开场中（GM .bat 开始 后计时）"
    nxt = next_up(state)
    if nxt is not None:
        t, who = nxt
        lines.append(f"▶ 下一个行动：{'、'.join(p.name for p in who)}（{display.windup(t)}t）")
    return lines


def roster_line(state: BattleState, p: Participant, display: Display, vitals: Vitals | None = None) -> str:
    """One participant in one line: ``哥布林[NPC]：#5 爪击 60.0 →米娅 @6.86t ⌛｜体力 150.0/150.0 …``
    (the latest action: what, impact, →target, when it resolves, whether it is still to come)."""
    tag = "[NPC]" if p.npc else ""
    status = {"dead": " ☠死亡", "out": "（已退出）"}.get(p.status, "")
    own = state.actions_of(p.key)
    if p.key in display.busy:
        text = f"{p.name}{tag}{status}：行动未公开 ⌛"
    elif not own:
        text = f"{p.name}{tag}{status}：{display.windup(p.joined_at)}t 加入，尚未行动"
    else:
        a = own[-1]
        what = a.note or (a.weapon["name"] if a.weapon else CN.get(a.attribute, a.attribute))
        impact = "整备" if a.kind == "reload" else fmt(a.impact)
        aim = state.participant(a.target or "")
        mark = " ✖取消" if a.cancelled else ("" if a.resolved(state.clock) else " ⌛")
        text = (
            f"{p.name}{tag}{status}：#{a.id} {what} {impact}"
            + (f" →{aim.name}" if aim else "")
            + f" @{display.windup(a.effective_end)}t{mark}"
        )
    extra = vitals.line() if vitals is not None else ""
    return f"{text}｜{extra}" if extra else text


def roster_text(state: BattleState, display: Display, *, vitals: Mapping[str, Vitals] | None = None) -> str:
    """The reply to a bare ``.bat``: the clock, who acts next, one line per participant (issue 39
    defect 9: MayuriBot's four-line blocks made 23–33 lines for 4–6 fighters on a phone; they stay
    one ``.bat 全`` away, and in every reply with ``.bat 详细 开``)."""
    vit = vitals_from_events(state, vitals)
    lines = head_lines(state, display)
    order = sorted(state.participants, key=lambda p: (p.status != "active", state.free_at(p.key), p.name))
    lines += [roster_line(state, p, display, vit.get(p.key)) for p in order]
    lines.append("（.bat 全 看每人的完整行动 · .bat 图 看时间轴图 · .bat 记录 看全部行动）")
    return "\n".join(lines)


def timeline_text(
    state: BattleState,
    display: Display,
    *,
    limit: int = MAX_TEXT_BLOCKS,
    vitals: Mapping[str, Vitals] | None = None,
) -> str:
    """The reply to ``.bat``: clock, who acts next, one block per participant (capped).

    Each block ends with the participant's 体力/意志 (``vitals`` from the cards, completed by the
    battle's own 体力/意志 events) when known.
    """
    vit = vitals_from_events(state, vitals)
    lines = [*head_lines(state, display), LINE]
    order = sorted(
        state.participants,
        key=lambda p: (p.status != "active", state.free_at(p.key), p.name),
    )
    for p in order[:limit]:
        lines.append(participant_block(state, p, display, vit.get(p.key)))
    if len(order) > limit:
        lines.append(f"…另有{len(order) - limit}名角色，发送 .bat 图 查看完整时间轴")
    return "\n".join(lines)


def log_page(state: BattleState, display: Display, page: int) -> str:
    """Every action and event in time order, ``LOG_PAGE`` per page (``.bat 记录 页``)."""
    entries: list[tuple[float, int, str]] = []
    names = {p.key: p for p in state.participants}
    for a in state.actions:
        entries.append((a.start, a.id, action_summary(a, names.get(a.key), display)))
    for e in state.events:
        text = event_summary(e, names.get(e.key))
        if text and e.kind != "cancel":
            entries.append((e.time, e.id, text))
    entries.sort()
    pages = max(1, -(-len(entries) // LOG_PAGE))
    page = min(max(page, 1), pages)
    chunk = entries[(page - 1) * LOG_PAGE : page * LOG_PAGE]
    head = f"战斗记录 第{page}/{pages}页（共{len(entries)}条）"
    return "\n".join([head, *(c[2] for c in chunk)]) if chunk else head + "\n（空）"


# ------------------------------------------------------------------ pictures
BG = (250, 248, 242)
INK = (40, 40, 40)
HEAD = (228, 222, 208)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=3)
    return buf.getvalue()


def timeline_image(
    state: BattleState,
    display: Display,
    *,
    vitals: Mapping[str, Vitals] | None = None,
    page: int | None = None,
) -> bytes:
    """The ``.bat 图`` picture (:mod:`chronodice.render.battle_picture`): a 1080 px page."""
    return battle_image(state, display.windup, vitals=vitals, page=page)


def sheet_image(char: TLCharacter) -> bytes:
    """The character sheet picture for ``.chr show`` (750 px wide, like MayuriBot's)."""
    text = character_text(char)
    lines = text.split("\n")
    f_title, f_body = font(28), font(22)
    width, line_h = 750, 36
    height = 40 + 50 + line_h * (len(lines) - 1) + 30
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, width, 70], fill=HEAD)
    draw.text((24, 20), lines[0], fill=INK, font=f_title)
    y = 90
    for line in lines[1:]:
        draw.text((24, y), line, fill=INK, font=f_body)
        y += line_h
    return _png(img)


__all__ = [
    "Display",
    "Vitals",
    "arrow",
    "buff_rows",
    "character_text",
    "crd_text",
    "describe_action",
    "head_lines",
    "log_page",
    "reduction_line",
    "reduction_rows",
    "roster_line",
    "roster_text",
    "sheet_image",
    "timeline_image",
    "timeline_text",
    "weapon_show",
]
