"""Chinese reply text for the 无限恐怖 D10 pool system (``.w``/``.ww``/``.wh``).

Engines return numbers; this module turns them into what players read.  Successful dice are
written as circled digits (⑧⑨⑩), as Dice! users know them; ``.ww`` lists the dice round by
round, ``.w`` gives only the result line.

>>> from chronodice.rules.pool10 import PoolRoll, resolve
>>> roll = PoolRoll(size=4, again=10, rounds=((10, 4, 8, 1), (9,)))
>>> format_dice(roll)
'[⑩,4,⑧,1]+[⑨]'
>>> format_result(resolve(roll, bonus=1, dc=3))
'自然成功3+附加1=4成功 ≥ DC3，成功（超出1）'
"""

from __future__ import annotations

from fractions import Fraction

from chronodice.rules.pool10 import (
    Attack,
    AttackResult,
    CheckResult,
    OpposedResult,
    PoolOdds,
    PoolRoll,
    TieRule,
)
from chronodice.rules.pool10.allocation import ActionResult
from chronodice.rules.pool10.multiplier import CalcResult
from chronodice.rules.pool10.state import DefenceDeclared, DefenceRestored, DefenceState, DefenceUsed, Event

MAX_DICE_SHOWN = 120
"""Above this many dice, ``.ww`` shows counts per round instead of every face."""
CIRCLED = {8: "⑧", 9: "⑨", 10: "⑩"}
AGAIN_LABEL = {8: "8加骰", 9: "9加骰", 10: "10加骰", 11: "不加骰"}
TIE_LABEL = {
    TieRule.AT_LEAST: "后手方成功数≥先手方即胜（规则正文「大于或等于」）",
    TieRule.STRICT: "后手方成功数须超过先手方（潜行例「超过」）",
}


def again_label(again: int) -> str:
    return AGAIN_LABEL.get(again, f"{again}加骰")


def format_dice(roll: PoolRoll) -> str:
    """Every die, round by round; successes circled.  Large pools: counts per round."""
    if roll.dice_count > MAX_DICE_SHOWN:
        parts = []
        for i, rnd in enumerate(roll.rounds):
            hits = sum(1 for f in rnd if roll.is_success_face(i, f))
            parts.append(f"第{i + 1}轮{len(rnd)}颗（成功{hits}）")
        return "，".join(parts)
    rounds = []
    for i, rnd in enumerate(roll.rounds):
        faces = [CIRCLED[f] if roll.is_success_face(i, f) else str(f) for f in rnd]
        rounds.append("[" + ",".join(faces) + "]")
    return "+".join(rounds)


def format_result(r: CheckResult) -> str:
    """The result line: successes, bonus (or why it did not apply), DC verdict."""
    roll = r.roll
    if roll.chance:
        # every chance reply states its successes; 大失败 only when it happened
        core = f"机运骰{r.natural}成功"
        if roll.dramatic_failure:
            core = f"机运骰{r.natural}成功，掷出1，大失败！"
        if r.lost:
            core += f"，扣除{r.lost}后{r.total}成功"
        if r.bonus:
            core += f"（机运骰不受{r.bonus}个附加成功影响）"
    else:
        core = f"自然成功{r.natural}"
        if r.lost:
            core += f"-{r.lost}"
        if r.bonus_applied:
            core += f"+附加{r.bonus_applied}={r.total}成功"
        elif r.lost:
            core += f"={r.total}成功"
        else:
            core = f"{r.total}成功"
        if r.bonus_blocked:
            core += f"（有效成功为0，附加成功{r.bonus}不生效）"
    if r.dc is not None:
        if r.success:
            over = f"（超出{r.margin}）" if r.margin else ""
            core += f" ≥ DC{r.dc}，成功{over}"
        else:
            core += f" < DC{r.dc}，失败" + (f"（差{-r.margin}）" if r.margin and r.total > 0 else "")
    elif not roll.dramatic_failure:
        core += "，失败" if r.total <= 0 else ""
    return core


def format_check(
    name: str,
    pool_text: str,
    r: CheckResult,
    *,
    detailed: bool,
    reason: str = "",
    bonus_note: str = "",
) -> str:
    """The reply to ``.w``/``.ww``: who, the pool and where it came from, the dice, the result."""
    roll = r.roll
    head = f"{name} 掷骰池{(' ' + reason) if reason else ''}：{pool_text}"
    if roll.chance:
        head += "，骰池不足1，改掷机运骰"
    else:
        head += f"（{again_label(roll.again)}）"
    if bonus_note:
        head += f"\n附加成功：{bonus_note}"
    lines = [head]
    if detailed:
        lines.append(format_dice(roll))
    lines.append(format_result(r))
    return "\n".join(lines)


def format_repeat(
    name: str,
    pool_text: str,
    results: list[CheckResult],
    *,
    detailed: bool,
    reason: str = "",
    bonus_note: str = "",
) -> str:
    """``.ww N#骰池``: the head once, then one line per roll."""
    roll = results[0].roll
    head = f"{name} 掷骰池{(' ' + reason) if reason else ''}×{len(results)}：{pool_text}"
    head += "，骰池不足1，改掷机运骰" if roll.chance else f"（{again_label(roll.again)}）"
    if bonus_note:
        head += f"\n附加成功：{bonus_note}"
    lines = [head]
    for i, r in enumerate(results, 1):
        dice = f"{format_dice(r.roll)} " if detailed else ""
        lines.append(f"#{i} {dice}{format_result(r)}")
    return "\n".join(lines)


def pct(p: Fraction | float) -> str:
    """A probability as players read it.

    >>> pct(Fraction(1, 3)), pct(0.0000001), pct(1.0), pct(0.99999)
    ('33.33%', '<0.01%', '100%', '>99.99%')
    """
    x = float(p) * 100
    if x >= 100 - 1e-12:
        return "100%"
    if x <= 0:
        return "0%"
    if x < 0.01:
        return "<0.01%"
    if x > 99.99:
        return ">99.99%"
    return f"{x:.2f}%"


def format_odds(
    name: str,
    pool_text: str,
    odds: PoolOdds,
    *,
    dc: int | None,
    bonus: int,
    lost: int,
) -> str:
    """Exact odds for a pool: success chance, expectation, distribution (and 大失败 for chance)."""
    head = f"{name} 的骰池概率：{pool_text}"
    head += "，机运骰" if odds.chance else f"（{again_label(odds.again)}）"
    lines = [head + "（精确计算）"]
    succ = odds.p_success(dc=dc, bonus=bonus, lost=lost)
    target = f"成功数≥DC{dc}" if dc is not None else "至少1成功"
    extra = []
    if bonus and not odds.chance:
        extra.append(f"附加{bonus}")
    if lost:
        extra.append(f"扣除{lost}")
    cond = f"（{'，'.join(extra)}）" if extra else ""
    lines.append(f"{target}{cond}：成功率：{pct(succ)}")
    lines.append(
        f"期望自然成功 {float(odds.mean):.3f}"
        + (f"，期望最终成功 {float(odds.expected_total(bonus=bonus, lost=lost)):.3f}" if extra else "")
    )
    if odds.chance:
        lines.append(f"大失败：{pct(odds.p_dramatic)}")
    rows = []
    shown = 0
    for j in range(odds.k + 1):
        p = odds.pmf(j)
        if float(p) < 0.0005 and j > float(odds.mean):
            break
        if float(p) >= 0.0005:
            rows.append(f"{j}:{pct(p)}")
            shown = j
        if len(rows) >= 16:
            break
    tail = odds.at_least(shown + 1) if shown + 1 <= odds.k + 1 else 0.0
    if float(tail) >= 0.0005:
        rows.append(f"≥{shown + 1}:{pct(tail)}")
    lines.append("自然成功分布 " + " ".join(rows))
    return "\n".join(lines)


def format_opposed(
    first_name: str,
    first_pool: str,
    second_name: str,
    second_pool: str,
    res: OpposedResult,
    *,
    detailed: bool,
) -> str:
    """An opposed exchange: the first side sets the DC, the outcome is stated."""
    a, b = res.first, res.second
    lines = [f"对抗：{first_name}（{first_pool}）对 {second_name}（{second_pool}）"]
    for who, r in ((first_name, a), (second_name, b)):
        dice = f"{format_dice(r.roll)} " if detailed else ""
        lines.append(f"{who}：{dice}{format_result(r)}")
    verdict = "≥" if res.tie_rule is TieRule.AT_LEAST else ">"
    if res.second_wins:
        lines.append(f"{second_name} 的成功数{b.total} {verdict} DC{res.dc}：{second_name} 胜出")
    else:
        why = "没有成功" if b.total <= 0 else f"成功数{b.total}未达到DC{res.dc}"
        if res.tie_rule is TieRule.STRICT and b.total == res.dc and b.total > 0:
            why = f"成功数{b.total}未超过DC{res.dc}"
        lines.append(f"{second_name} {why}：{first_name} 胜出")
    return "\n".join(lines)


def format_attack(
    name: str,
    pool_text: str,
    res: AttackResult,
    *,
    target: str | None,
    detailed: bool,
    reason: str = "",
    bonus_note: str = "",
) -> str:
    """An attack roll against declared defence bonus successes."""
    roll = res.check.roll
    head = f"{name} 攻击{(' ' + target) if target else ''}{(' ' + reason) if reason else ''}：{pool_text}"
    head += "，机运骰" if roll.chance else f"（{again_label(roll.again)}）"
    lines = [head]
    if bonus_note:
        lines.append(f"攻击附加成功：{bonus_note}")
    if detailed:
        lines.append(format_dice(roll))
    c = res.check
    if res.defence:
        lines.append(
            f"自然成功{c.natural}，{target or '目标'}宣言防御附加成功{res.defence}，抵消{res.cancelled}"
            + (f"（浪费{res.wasted_defence}）" if res.wasted_defence else "")
        )
    if roll.dramatic_failure:
        lines.append(f"机运骰{c.natural}成功，掷出1，大失败！未命中")
    elif not res.hit:
        why = "自然成功被全部抵消" if res.defence and c.natural > 0 else "没有自然成功"
        if roll.chance:
            why = f"机运骰{c.natural}成功，{why}"
        drop = "，攻击附加成功与命中效果均不生效" if c.bonus else "，命中效果不生效"
        lines.append(f"{why}：未命中{drop}")
    else:
        parts = f"{c.natural}" + (f"-{res.defence}" if res.defence else "")
        if c.bonus_applied:
            parts += f"+附加{c.bonus_applied}"
        lines.append(f"命中！攻击成功数 {parts}={res.successes}")
    return "\n".join(lines)


def format_allocation(name: str, pool_text: str, total: int, action: ActionResult) -> str:
    """A multi-attack action: each attack with its share of the attack bonus, the defence it
    met, and its result; the bonus gained at the first hit and which attack used it."""
    rows = [(r.attack, r.result) for r in action.rows]
    head = f"{name} 多次攻击：{pool_text}，攻击附加成功{total}"
    if action.gained:
        head += f"，命中时获得{action.gained}"
    lines = [head]
    for row in action.rows:
        attack, res = row.attack, row.result
        label = (
            attack.target
            if attack.hit == 1 and _single(rows, attack.target)
            else f"{attack.target}#{attack.hit}"
        )
        share = f"分配{attack.bonus}" + (f"+获得{row.gained}" if row.gained else "")
        if res.defence:
            share += f"，防御{res.defence}"
        c = res.check
        dice = format_dice(c.roll)
        minus = f"-{res.defence}" if res.defence else ""
        if res.hit:
            extra = f"+附加{c.bonus_applied}" if c.bonus_applied else ""
            lines.append(f"{label}（{share}）：{dice} 自然{c.natural}{minus}{extra}={res.successes}，命中")
        elif c.roll.chance:
            fumble = "，掷出1，大失败！" if c.roll.dramatic_failure else "，"
            lines.append(f"{label}（{share}）：{dice} 机运骰{c.natural}成功{fumble}未命中")
        elif res.defence and c.natural > 0:
            lines.append(f"{label}（{share}）：{dice} 自然{c.natural}被防御全部抵消，未命中")
        else:
            lines.append(f"{label}（{share}）：{dice} 没有自然成功，未命中")
    if action.gained and not action.gain_used:
        if action.gain_at is None:
            lines.append(f"没有命中：获得的{action.gained}个攻击附加成功没有触发")
        else:
            first = action.rows[action.gain_at].attack.target
            lines.append(f"命中后没有再攻击「{first}」：获得的{action.gained}个攻击附加成功未能使用")
    return "\n".join(lines)


def _single(rows: list[tuple[Attack, AttackResult]], target: str) -> bool:
    return sum(1 for a, _ in rows if a.target == target) == 1


def format_calc(res: CalcResult, real: bool) -> str:
    """The multiplier calculator's answer."""
    rule = (
        "现实数值，按普通四则运算"
        if real
        else "多个乘数合并为一个（每个额外乘数减1，「再/额外」不减），先基础值、再乘除、后加减，向下取整"
    )
    return f"倍率计算：{res.formula}\n（{rule}）"


def format_defence_events(events: list[Event]) -> str:
    out = []
    for ev in events:
        if isinstance(ev, DefenceDeclared):
            note = f"（取代之前宣言的{ev.replaced}）" if ev.replaced else ""
            if ev.queue:
                amounts = "/".join(str(a) for a in (ev.amount, *ev.queue))
                text = f"<{ev.name}> 宣言防御附加成功{amounts}，依次用于接下来受到的{len(ev.queue) + 1}次攻击{note}"
            else:
                text = f"<{ev.name}> 宣言防御附加成功{ev.amount}，用于下一次受到的攻击{note}"
            if ev.base_zero:
                text += "；基础防御为0，传奇防御附加成功不生效"
            out.append(text)
        elif isinstance(ev, DefenceUsed):
            lost = (
                f"（基础防御为0，其中{ev.legend_lost}个来自传奇属性，不生效，只抵消{ev.effective}）"
                if ev.legend_lost
                else ""
            )
            out.append(f"<{ev.name}> 的{ev.amount}个防御附加成功已用掉{lost}，下次行动时恢复")
        elif isinstance(ev, DefenceRestored):
            bits = []
            if ev.restored:
                bits.append(f"恢复{ev.restored}个防御附加成功")
            if ev.dropped:
                bits.append(f"未使用的宣言{ev.dropped}作废")
            out.append(f"<{ev.name}> 行动：" + ("，".join(bits) if bits else "没有需要恢复的防御附加成功"))
    return "\n".join(out)


def format_defence_table(rows: list[tuple[DefenceState, int | None]]) -> str:
    """``rows``: each tracked character's state and its total defence bonus (``None``: an NPC,
    no total known)."""
    if not rows:
        return "本群没有防御宣言记录"
    lines = ["本群防御附加成功："]
    for d, total in rows:
        declared = "/".join(str(a) for a in d.pending) or "0"
        legend = f"，其中传奇{d.legend}" if d.legend else ""
        if total is None:
            lines.append(f"<{d.name}>（NPC）宣言{declared}，已用{d.spent}{legend}")
            continue
        left = max(0, total - d.spent)
        lines.append(f"<{d.name}> 宣言{declared}，已用{d.spent}，本轮剩余{left}/{total}{legend}")
    return "\n".join(lines)


__all__ = [
    "AGAIN_LABEL",
    "TIE_LABEL",
    "again_label",
    "format_allocation",
    "format_attack",
    "format_calc",
    "format_check",
    "format_defence_events",
    "format_defence_table",
    "format_dice",
    "format_odds",
    "format_opposed",
    "format_repeat",
    "format_result",
    "pct",
]
