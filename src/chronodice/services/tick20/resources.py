"""Combatant resources: ``.ap`` (AP and 全力动作), ``.wound`` (002 wounds), ``.hp`` (004 gauges, MP, SP)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from chronodice.core.commands import Call, command
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import Combat

from ._glue import (
    SYS_NAME,
    apply,
    controls,
    find_me,
    load,
    need,
    require_control,
    require_gm,
    target_of,
)
from ._words import number, tokens

# --------------------------------------------------------------------------- AP
AP_USAGE = ".ap [名称] -n [理由/主要/次要/即时/自由]、.ap [名称] +n/=n（GM）、.ap [名称] ta 总消耗 名称 [本次支付]、.ap [名称] pay [n]"
KIND_WORDS = {
    "主要": "SA",
    "次要": "MA",
    "即时": "RA",
    "自由": "FA",
    "SA": "SA",
    "MA": "MA",
    "RA": "RA",
    "FA": "FA",
}


@command(
    "ap",
    usage=AP_USAGE,
    summary="行动值：花费AP（规则检查）、全力动作分期支付；GM 可直接设定",
    aliases=("行动值",),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_ap(call: Call) -> list[Reply]:
    words = tokens(call.args)
    if not words:
        raise call.usage_error("请写出AP变化")
    state = need(await load(call))
    first = words[0]
    is_op = bool(re.fullmatch(r"[+=-]\d{1,2}", first)) or first.lower() in ("ta", "pay", "全力", "支付")
    if is_op:
        c = find_me(state, call.ctx)
    else:
        c = target_of(state, call.ctx, first)
        words = words[1:]
    if not words:
        raise call.usage_error("请写出AP变化")
    op = words[0]
    await require_control(call, state, c, "操作这名角色的AP")
    if op.lower() in ("ta", "全力"):
        if len(words) < 3:
            raise call.usage_error("格式：.ap ta 总消耗 名称 [本次支付]")
        total, name = number(words[1]), words[2]
        pay = number(words[3]) if len(words) > 3 else None
        state, events = await apply(call, lambda st: E.start_ta(need(st), c.id, name, total, pay))
    elif op.lower() in ("pay", "支付"):
        amount = number(words[1]) if len(words) > 1 else None
        state, events = await apply(call, lambda st: E.pay_ta(need(st), c.id, amount))
    elif op.startswith("-"):
        cost = -number(op)
        kind = next((KIND_WORDS[w] for w in words[1:] if w in KIND_WORDS), "SA")
        label = " ".join(w for w in words[1:] if w not in KIND_WORDS)
        state, events = await apply(call, lambda st: E.spend_ap(need(st), c.id, cost, kind, label))
    elif op.startswith(("+", "=")):
        await require_gm(call, state, "直接设定AP")
        value = number(op[1:])
        kwargs = {"value": value} if op.startswith("=") else {"delta": value}
        state, events = await apply(call, lambda st: E.set_ap(need(st), c.id, **kwargs))
    else:
        raise call.usage_error(f"不认识「{op}」")
    c2 = state.get(c.id)
    lines = [f"{c2.name} AP {c2.ap}/{c2.ap_max}"]
    if c2.ta is not None:
        lines.append(f"全力动作「{c2.ta.name}」{c2.ta.paid}/{c2.ta.total}")
    lines += R.event_lines(state, events)
    return [Reply.say("\n".join(lines))]


# --------------------------------------------------------------------------- health
WOUND_USAGE = ".wound <名称> <部位> <等级>x<数量> [侵蚀/僵化/类型…]、.wound 名 部位 hit3 dp2 dr1、.wound 名 部位 治疗 [级数]"
LEVEL_WORDS = {"擦伤": 1, "轻伤": 2, "重伤": 3, "1": 1, "2": 2, "3": 3}


@command(
    "wound",
    usage=WOUND_USAGE,
    summary="伤势（基础规则）：每部位4道，恶化规则，<负伤>/<残障>/<欠损>",
    aliases=("伤势",),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_wound(call: Call) -> list[Reply]:
    words = call.args.split()
    if len(words) < 3:
        raise call.usage_error("请写出名称、部位和伤势")
    state = need(await load(call))
    c = target_of(state, call.ctx, words[0])
    await require_control(call, state, c, "修改伤势")
    part = words[1]
    spec = words[2:]
    if spec[0] in ("治疗", "heal"):
        levels = number(spec[1]) if len(spec) > 1 else 1
        state, events = await apply(call, lambda st: E.heal_wound(need(st), c.id, part, levels))
    else:
        kwargs: dict[str, Any] = {}
        tags: list[str] = []
        for w in spec:
            m = re.fullmatch(r"(擦伤|轻伤|重伤|[123])(?:[x*](\d{1,2}))?", w)
            k = re.fullmatch(r"(hit|dp|dr)(\d{1,2})", w.lower())
            if m:
                kwargs["level"] = LEVEL_WORDS[m.group(1)]
                kwargs["count"] = int(m.group(2) or 1)
            elif k:
                kwargs[k.group(1)] = int(k.group(2))
            elif w in ("直接", "direct"):
                kwargs["direct"] = True
            else:
                tags.append(w[:6])
        if "hit" not in kwargs and "level" not in kwargs:
            raise call.usage_error("伤势写作 轻伤x2 或 hit3 dp2 dr1")
        kwargs["tags"] = tags[:4]
        state, events = await apply(call, lambda st: E.wound(need(st), c.id, part, **kwargs))
    c2 = state.get(c.id)
    lines = [f"{R.name_of(state, c2.id)}：{R.health_text(state, c2, True) or '无伤'}"]
    lines += R.event_lines(state, events)
    return [Reply.say("\n".join(lines))]


HP_USAGE = ".hp <名称> ±n [-由 攻击者]（速度规则HG）、.hp 名 hg 10 / mg 8、.hp 名 mp -3、.hp 名 sp ±n / sp上限 N（基础规则）"


@command(
    "hp",
    usage=HP_USAGE,
    summary="生命量谱（速度规则：伤害从左、治疗从右、危机、优势点）与SP",
    system=SYS_NAME,
    group_only=True,
)
async def cmd_hp(call: Call) -> list[Reply]:
    words = tokens(call.args)
    if len(words) < 2:
        raise call.usage_error("请写出名称和数值")
    state = need(await load(call))
    c = target_of(state, call.ctx, words[0])
    await require_control(call, state, c, "修改HP")
    op = words[1].lower()
    fn: Callable[[Combat], E.Outcome]
    if op in ("hg", "mg") and len(words) > 2:
        n = number(words[2])
        fn = (
            (lambda st: E.set_gauges(st, c.id, hg=n))
            if op == "hg"
            else (lambda st: E.set_gauges(st, c.id, mg=n))
        )
    elif op == "mp" and len(words) > 2:
        amount = -number(words[2])
        fn = lambda st: E.spend_mp(st, c.id, amount)  # noqa: E731
    elif op == "sp" and len(words) > 2:
        val = words[2]
        fn = (
            (lambda st: E.set_sp(st, c.id, value=number(val[1:])))
            if val.startswith("=")
            else (lambda st: E.set_sp(st, c.id, delta=number(val)))
        )
    elif op in ("sp上限", "spmax") and len(words) > 2:
        mx = number(words[2])
        fn = lambda st: E.set_sp(st, c.id, maximum=mx)  # noqa: E731
    elif re.fullmatch(r"[+-]\d{1,4}", op):
        amount = int(op)
        attacker = None
        if len(words) > 3 and words[2] in ("-由", "-by"):
            attacker = E.find(state, words[3]).id
        elif amount < 0 and state.current is not None:
            attacker = state.current
        fn = lambda st: E.hit_gauges(st, c.id, abs(amount), attacker=attacker, heal=amount > 0)  # noqa: E731
    else:
        raise call.usage_error(f"不认识「{words[1]}」")
    state, events = await apply(call, lambda st: fn(need(st)))
    c2 = state.get(c.id)
    lines = [f"{R.name_of(state, c2.id)}：{R.health_text(state, c2, controls(call.ctx, c2)) or '—'}"]
    for ev in events:
        if ev.kind == "advantage":
            lines.append(f"击破HG：{ev.data['side']}获得1点优势点（共{ev.data['total']}）")
        elif ev.kind == "crisis":
            lines.append(f"{R.name_of(state, ev.data['cid'])} 陷入危机")
    return [Reply.say("\n".join(lines))]
