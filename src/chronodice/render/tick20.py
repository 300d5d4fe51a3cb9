"""Chinese text for the D20 tick system: turn cards, the combat list, event lines, checks.

Everything the group sees is the *player view*: hidden combatants are left out altogether (not
listed, not counted, their turns not announced: issue 39) and hidden durations are "?"; the GM
view (private messages) shows them.  Cards stay short (tick20.md §4.4).
"""

from __future__ import annotations

from collections.abc import Iterable

from chronodice.core.text import safe_name
from chronodice.render.tick20_events import event_lines, wound_line
from chronodice.render.tick20_health import conditions, name_of
from chronodice.rules.tick20.checks import D20Roll, Judgement
from chronodice.rules.tick20.durations import format_duration
from chronodice.rules.tick20.engine import first_round_order, forecast
from chronodice.rules.tick20.health import LEVEL_NAMES, gauge_total, in_crisis, part_status
from chronodice.rules.tick20.model import Combat, Combatant, Event, InitMod, Phase, Variant
from chronodice.rules.tick20.modifiers import GENERAL, Modifier
from chronodice.rules.tick20.two_die import TwoDieRoll
from chronodice.rules.tick20.variants import rules_for

VARIANT_NAMES = {Variant.BASE: "基础", Variant.SPD: "速度"}
MAX_LIST_LINES = 30


def value_text(st: Combat, c: Combatant) -> str:
    """BASE: the main initiative, with the current one when it matters: ``25(当前8)`` for a split
    combatant (主要先攻 above 20); ``14(主要先攻15)`` when her current initiative moved in the
    1~20 range (a delay, or the carried 当前先攻 of a later round) — led by the tick she acts at,
    so that it no longer reads like a split initiative (issue 26); SPD: the 先攻值 I."""
    if st.variant is Variant.SPD:
        return str(c.cur)
    if st.phase is Phase.SETUP:
        return str(c.main)
    if c.main > 20:
        return f"{c.main}(当前{c.cur})"
    if c.cur != c.main and 1 <= c.cur <= 20:
        return f"{c.cur}(主要先攻{c.main})"
    return str(c.main)


def health_text(st: Combat, c: Combatant, gm: bool) -> str:
    h = c.health
    parts: list[str] = []
    for p in h.parts:
        status = part_status(p)
        if status:
            parts.append(f"<{status}:{p.name}>")
        elif p.wounds and (gm or c.controller is not None or st.options.hp_display == "show"):
            counts = [LEVEL_NAMES[w.level] for w in p.wounds]
            parts.append(f"{p.name}:{'/'.join(counts)}")
    shown = conditions(c, gm or c.controller is not None or st.options.hp_display == "show")
    if coma_effect(st, c):  # her [昏迷 …] effect already says it: <昏迷> once (issue 39)
        shown = [x for x in shown if x != "<昏迷>"]
    parts += shown
    if h.hg:
        cur, cap = gauge_total(h.hg, h.mp_debt)
        show = gm or c.controller is not None or st.options.hp_display == "show"
        if show:
            parts.append(f"HP{cur}/{cap}")
        elif st.options.hp_display == "fuzzy":
            parts.append(
                "HP"
                + "▮" * round(5 * cur / cap if cap else 0)
                + "▯" * (5 - round(5 * cur / cap if cap else 0))
            )
        if in_crisis(h):
            parts.append("危机")
    return " ".join(parts)


def coma_effect(st: Combat, c: Combatant) -> bool:
    """Whether an effect named 昏迷 (or <昏迷>) is on ``c``: the list and the status show her
    <昏迷> by that effect then, not a second time as a condition."""
    return any(e.bearer == c.id and e.name.strip("<>") == "昏迷" for e in st.effects)


def parts_text(c: Combatant) -> str:
    """Every wounded part with what it holds (the GM's / the owner's view):
    ``躯干 2/4：重伤、轻伤；左臂 4/4：轻伤×4 <残障>``."""
    out = []
    for p in c.health.parts:
        if not p.wounds:
            continue
        counts: dict[int, int] = {}
        for w in sorted(p.wounds, key=lambda w: -w.level):
            counts[w.level] = counts.get(w.level, 0) + 1
        held = "、".join(LEVEL_NAMES[lv] + (f"×{n}" if n > 1 else "") for lv, n in counts.items())
        status = part_status(p)
        out.append(f"{p.name} {len(p.wounds)}/4：{held}" + (f" <{status}>" if status else ""))
    return "；".join(out)


def effects_text(st: Combat, cid: str, gm: bool) -> str:
    out = []
    for e in st.effects:
        if e.bearer != cid:
            continue
        dur = format_duration(
            e.duration.model_copy(update={"hidden": e.duration.hidden and not gm}), e.remaining, e.end_round
        )
        mod = ""
        if e.init_mod is not None:
            mod = f"先攻{e.init_mod.value:+d}{e.init_mod.type}"
            # ``.init mod`` names its effect after the modifier: list it once
            mod = "" if mod in e.name else f" {mod}"
        out.append(f"[{e.name}{mod}{effect_check_text((e.check_mod, e.edge))} {dur}]")
    return "".join(out)


def effect_check_text(what: tuple[InitMod | None, str | None]) -> str:
    """What an effect does to its bearer's checks: ``，检定-2状态、劣势`` (empty: nothing)."""
    mod, edge = what
    bits = [f"{mod.value:+d}{'' if mod.type == GENERAL else mod.type}"] if mod is not None else []
    bits += [edge] if edge else []
    return f" 检定{'、'.join(bits)}" if bits else ""


def list_order(st: Combat, combatants: Iterable[Combatant]) -> list[Combatant]:
    """The list's order, the round as it goes (tick20.md §4.4's example): those who have acted
    this round (in the round's order), the current actor, then everyone still to act by the
    tick they act at now, then those who act from the next round or cannot act, by value.

    Computed from the values now, so a mid-round change (``.init set``, ``.init mod``) moves a
    combatant to where it will act; in setup it is the order the first round will start in.
    Equal ticks keep the round's tie order (modifier, LV, GM-played, join order)."""
    running = st.phase is Phase.ACTIVE
    order = {cid: i for i, cid in enumerate(st.round_order if running else first_round_order(st))}
    rules = rules_for(st.variant)

    def value(c: Combatant) -> int:
        return c.cur if st.variant is Variant.SPD else c.main

    def key(c: Combatant) -> tuple[int, ...]:
        idx = order.get(c.id, 10_000)
        by_value = (-value(c), -c.init_mod, -c.lv, idx, c.join_seq)
        if not running:
            return (0, idx, c.join_seq)  # setup: exactly the order round 1 will run in
        pos = rules.tick_position(c)
        upcoming = pos is not None and not c.pending and (st.waiting or pos <= st.tick)
        if c.id == st.current:
            return (1,)
        if upcoming and pos is not None:
            return (2, -pos, idx, c.join_seq)
        if c.turns_this_round:
            return (0, idx, c.join_seq)
        return (3, *by_value)

    return sorted(combatants, key=key)


def combat_list(st: Combat, *, gm: bool = False) -> str:
    """``.init``: header, then one line per combatant in initiative order.  The count in setup
    is the combatants this view lists (the GM view: every one; hidden ones counted apart)."""
    shown = list_order(st, [c for c in st.combatants if gm or not c.hidden])
    lines = [_list_head(st, shown, gm)]
    lines += [_list_row(st, c, gm) for c in shown[:MAX_LIST_LINES]]
    if len(shown) > MAX_LIST_LINES:
        lines.append(f"……另有{len(shown) - MAX_LIST_LINES}名")
    if st.variant is Variant.SPD and st.advantage:
        lines.append("优势点：" + "，".join(f"{k}{v}" for k, v in st.advantage.items()))
    return "\n".join(lines)


def _list_head(st: Combat, shown: list[Combatant], gm: bool) -> str:
    """The list's first line: setting up, a hidden turn, waiting, or the round, tick and turn."""
    title = f"（{st.options.name}）" if st.options.name else ""
    variant = VARIANT_NAMES[st.variant]
    if st.phase is Phase.SETUP:
        hidden = sum(1 for c in shown if c.hidden)
        extra = f"（含暗中{hidden}名）" if gm and hidden else ""
        return f"战斗准备中{title}（{variant}）：{len(shown)}名参战者{extra}，GM 发送 .init start 开战"
    if hidden_turn(st) and not gm:  # a hidden combatant's turn: the group only waits for the GM
        return f"第{st.round}轮{title}（{variant}）　GM处理中，请稍候"
    if st.waiting:
        return f"第{st.round}轮开始前（已连续{st.empty_rounds}轮无人行动）：GM 发送 .init next 继续"
    return f"第{st.round}轮 · 第{st.tick}刻{title}（{variant}）　当前：{name_of(st, st.current, gm)}"


def _list_row(st: Combat, c: Combatant, gm: bool) -> str:
    """One combatant's line: value and name, AP or SPD, 全力动作, effects, health, then status."""
    mark = "▶" if c.id == st.current else " "
    bits = [f"{mark}{value_text(st, c):>3}  {name_of(st, c.id, gm)}"]
    if st.variant is Variant.BASE:
        bits.append(f"AP {c.ap}/{c.ap_max}")
    elif c.spd_base:
        bits.append(f"SPD{c.spd_base}")
    if c.ta is not None:
        bits.append(f"全力:{c.ta.name} {c.ta.paid}/{c.ta.total}")
    bits += [effects_text(st, c.id, gm), health_text(st, c, gm), *_row_status(st, c)]
    if c.note:
        bits.append(f"备注:{safe_name(c.note)}" if gm or not c.gm_played else "")
    return "　".join(b for b in bits if b)


def _row_status(st: Combat, c: Combatant) -> list[str]:
    """Where a combatant stands this round (joining, waiting in this tick, done) and 突袭."""
    out: list[str] = []
    active = st.phase is Phase.ACTIVE and c.id != st.current
    if c.pending:
        out.append("下轮加入")
    elif active and c.id in st.queue:
        out.append("本刻待行动")
    elif active and c.turns_this_round:
        out.append("已行动")
    if c.surprised and st.phase is Phase.SETUP:
        out.append("被突袭")
    elif c.surprised and st.round == 1:  # 004 突袭 / 002: −20 in round 1 — say why (issue 26)
        out.append("被突袭（第1轮先攻−20）")
    return out


def hidden_turn(st: Combat) -> bool:
    """Whether the turn now is a hidden combatant's: the group is shown nothing of it (the GM
    gets its turn prompt privately) until a visible combatant's turn begins."""
    c = st.maybe(st.current)
    return st.phase is Phase.ACTIVE and not st.waiting and c is not None and c.hidden


def turn_line(st: Combat) -> str:
    c = st.maybe(st.current)
    if c is None:
        return ""
    name = name_of(st, c.id)
    ping = f" @{c.name}" if c.controller and not c.hidden else ""
    if c.hidden:
        ap = ""
    elif st.variant is Variant.BASE:
        ap = f"　AP {c.ap}/{c.ap_max}" + (f"　Mov {c.mov}" if c.speed else "")
    else:
        ap = f"　动作 {c.actions_left}/{st.options.actions_per_turn}"
    hint = "　（可 .延后）" if c.controller else ""
    if c.health.coma or coma_effect(st, c):  # <昏迷> in her own turn (she fell into it just now)
        hint = "　<昏迷>" + hint
    return f"▶ {name} 的回合{ping}{ap}{hint}"


def forecast_line(st: Combat, n: int = 3, *, consume: bool = False, ready: list[str] | None = None) -> str:
    """The next ``n`` turns; a hidden NPC's turns are left out (when it acts is the GM's).
    ``consume``: the turns are simulated on ``st`` itself (see :func:`forecast`).

    ``ready``: filled with the player to ping 「请准备」 (issue 26): the one whose turn comes
    right after this one, when another player than the current one controls it (and the
    combat's reminders are on); the line then says so."""
    hidden = {c.id for c in st.combatants if c.hidden}
    names = {c.id: name_of(st, c.id) for c in st.combatants}
    owners = {c.id: c.controller for c in st.combatants if not c.hidden}
    current_owner = owners.get(st.current or "")
    remind = st.options.remind
    now = st.round
    raw = forecast(st, n + 2 * len(hidden), consume=consume)
    nxt = [x for x in raw if x[2] not in hidden][:n]
    bits = []
    for r, t, cid in nxt:
        where = f"第{t}刻" if r == now else f"第{r}轮 第{t}刻"
        bits.append(f"{where} {names.get(cid, cid)}")
    line = "  接下来：" + " → ".join(bits) if bits else ""
    after = owners.get(nxt[0][2]) if nxt else None  # the next turn the group is shown
    if ready is not None and remind and after and after != current_owner:
        ready.append(after)
        line += f"\n  请准备：{names.get(nxt[0][2])}（下一个回合）"
    return line


def turn_card(
    st: Combat, events: Iterable[Event], *, consume: bool = False, ready: list[str] | None = None
) -> str:
    """The card posted after every advance (player view), laid out as tick20.md §4.4::

    —— 第2轮开始 ——            (round starts and their reminders, when any)
    ⚔ 第2轮 · 第12刻（基础）
    ▶ 哥布林a 的回合　AP 3/3
      结束：哥布林a的迟缓（艾琳）
      接下来：第8刻 X → 第3轮 第20刻 X

    ``consume``: ``st`` is the caller's to throw away: the forecast simulates on it, no copy.
    ``ready``: gets the player to ping 「请准备」 (see :func:`forecast_line`).
    """
    before: list[str] = []
    after: list[str] = []
    for line in event_lines(st, [*st.released, *events]):  # released: held back by a hidden turn
        (after if line.startswith("  结束") or line.startswith("  （") else before).append(line)
    lines = before[-8:]
    if st.phase is Phase.ACTIVE and not st.waiting and st.current is not None and not hidden_turn(st):
        lines.append(f"⚔ 第{st.round}轮 · 第{st.tick}刻（{VARIANT_NAMES[st.variant]}）")
        lines.append(turn_line(st))
        lines += after[-4:]
        fc = forecast_line(st, consume=consume, ready=ready)
        if fc:
            lines.append(fc)
    else:
        lines += after[-4:]
    return "\n".join(lines)


def summary(st: Combat, ev: Event, *, gm: bool = False) -> str:
    """The end-of-combat summary; a hidden combatant is left out unless ``gm``."""
    d = ev.data
    lines = [f"战斗结束：共{d['rounds']}轮"]
    hidden = set() if gm else {c.id for c in st.combatants if c.hidden}
    turns = {cid: n for cid, n in d.get("turns", {}).items() if cid not in hidden}
    names = dict(d.get("names", {}))
    if turns:
        lines.append("回合数：" + "，".join(f"{names.get(cid, cid)}×{n}" for cid, n in turns.items()))
    effects = [(b, n) for b, n in d.get("effects", []) if b not in hidden]
    if effects:
        lines.append("仍在的效果（已清除）：" + "，".join(f"{names.get(b, b)}的{n}" for b, n in effects[:10]))
    return "\n".join(lines)


def mods_text(mods: Iterable[Modifier]) -> str:
    """``+2运动+5状态+3状态(不叠加)``: each modifier with its source and, unless 通用, its type;
    a typed bonus (penalty) below the largest of its type is marked as not counted.

    >>> mods_text([Modifier(2, source="运动"), Modifier(5, "状态"), Modifier(3, "状态"), Modifier(-1)])
    '+2运动+5状态+3状态(不叠加)-1'
    """
    shown = [m for m in mods if m.value]
    counted: set[int] = set()
    best: dict[tuple[str, bool], int] = {}
    for i, m in enumerate(shown):
        if m.type == GENERAL:
            counted.add(i)
            continue
        key = (m.type, m.value > 0)
        if key not in best or abs(m.value) > abs(shown[best[key]].value):
            best[key] = i
    counted |= set(best.values())
    return "".join(
        f"{m.value:+d}{m.source}{'' if m.type == GENERAL else m.type}{'' if i in counted else '(不叠加)'}"
        for i, m in enumerate(shown)
    )


def roll_sum(dice: str, roll: D20Roll) -> str:
    """``dice`` (what was rolled) with the modifier, an N1/N20's ±10 apart, and the total:
    ``D20=1+5-10(N1)=-4`` (the same sum in a check, ``.ri`` and ``.init add``)."""
    nat = f"{roll.nat_bonus:+d}({roll.nat})" if roll.nat else ""
    return f"{dice}{roll.modifier - roll.nat_bonus:+d}{nat}={roll.total}"


def d20_expr(roll: D20Roll) -> str:
    """A d20 roll as the SealDice log export writes its dice (``D20+4``; ``D20`` without
    modifiers): the die and every modifier, N1/N20 and passive ±5 included.

    >>> from chronodice.rules.tick20.checks import D20Roll
    >>> d20_expr(D20Roll((13,), 13, 17, 4)), d20_expr(D20Roll((9,), 9, 9, 0))
    ('D20+4', 'D20')
    """
    return f"D20{roll.modifier:+d}" if roll.modifier else "D20"


def d20_dice(roll: D20Roll) -> str:
    """What was rolled, and with 优势/劣势 which die was kept: ``D20=[6,15]优势→15``,
    ``D20=12``, ``被动10``."""
    if roll.passive:
        return "被动10"
    if len(roll.dice) > 1:
        return f"D20=[{','.join(map(str, roll.dice))}]{roll.edge}→{roll.die}"
    return f"D20={roll.die}"


def d20_text(name: str, what: str, roll: D20Roll, judgement: Judgement | None, mods: str = "") -> str:
    """``艾琳 的运动检定：D20=[6,15]优势→15+2=17/15 成功（成功度2）``."""
    text = f"{name} 的{what}检定：{roll_sum(d20_dice(roll), roll)}"
    if mods:
        text += f"\n修正：{mods}"
    if judgement is not None:
        text += f"\n检定：{judgement.total}/{judgement.target} {judgement.outcome}"
        if judgement.success_degree is not None:
            text += f"（成功度{judgement.success_degree}）"
        else:
            text += f"（失败度{judgement.failure_degree}）"
    return text


def two_die_text(name: str, what: str, roll: TwoDieRoll, target: int | None) -> str:
    a, b = roll.sizes
    x, y = roll.dice
    text = (
        f"{name} 的［{what}］检定：d{a}+d{b}=[{x},{y}]{roll.modifier:+d}={roll.total}（HR{roll.high_roll}）"
    )
    if roll.doubles is not None:
        extra = "，获得1点物语点" if roll.story_point else "，获得1个机会" if roll.opportunity else ""
        text += f"\n双{roll.doubles}{extra}"
    if target is not None:
        ok = roll.total >= target
        text += f"\n检定：{roll.total}/{target} {'成功' if ok else '失败'}"
    return text


__all__ = [
    "combat_list",
    "d20_text",
    "event_lines",
    "forecast_line",
    "hidden_turn",
    "list_order",
    "name_of",
    "parts_text",
    "summary",
    "turn_card",
    "turn_line",
    "two_die_text",
    "wound_line",
]
