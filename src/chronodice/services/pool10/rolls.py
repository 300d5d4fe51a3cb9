"""The rolls: a pool (``.ww 敏捷+潜行 dc3``), an opposed roll (``vs``), a multi-attack
allocation (``分配``) and the multiplier calculator (``倍率``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from chronodice.core.commands import Call
from chronodice.core.errors import NotFound
from chronodice.core.limits import MAX_REPEATS
from chronodice.core.reply import Reply
from chronodice.render import pool10 as render
from chronodice.rules.pool10 import (
    DiceBudget,
    Pool10Session,
    allocate,
    evaluate_calculation,
    new_action,
    opposed,
    pool_odds,
    resolve,
    roll_pool,
    take_defence,
)
from chronodice.rules.pool10.allocation import Target, check_targets, resolve_action
from chronodice.rules.pool10.expr import Term
from chronodice.rules.pool10.multiplier import MAX_OPS, Calculation, Op
from chronodice.rules.pool10.state import DefenceRestored, find_key, step

from ._common import (
    SYSTEM,
    Mode,
    Side,
    again_of,
    attacker_of,
    bonus_note,
    hide,
    pool_args,
    resolve_pool,
    settings_of,
    side_of,
    tie_of,
)

VS_USAGE = ".ww 先手骰池 vs [@对手] 后手骰池（如 .ww 敏捷+潜行 vs @B 感知+调查）"


async def roll(
    call: Call,
    *,
    mode: Mode,
    repeat: int | None,
    pool: tuple[Term, ...],
    versus: dict[str, Any] | None,
    reason: str,
    again: int | None,
    dc: int | None,
    bonus: list[int],
    lost: list[int],
    odds: bool,
) -> list[Reply]:
    args = pool_args(pool, again=again, dc=dc, bonus=bonus, lost=lost, odds=odds, reason=reason)
    if repeat is not None:
        if not 1 <= repeat <= MAX_REPEATS:
            raise call.usage_error(f"重复次数应为1到{MAX_REPEATS}")
        if versus is not None or odds:
            raise call.usage_error("N# 不能与对抗（vs）或概率（?）一起用")
        return await _repeat(call, args, repeat, mode)
    if versus is not None:
        return hide(call, await _opposed(call, args, versus, mode.detailed), mode)
    settings = await settings_of(call)
    me = await side_of(call, None)
    resolved, _card = resolve_pool(args, me)
    again_at = again_of(args, settings)
    total_bonus = resolved.term_bonus + args.bonus
    if args.odds:
        chances = pool_odds(resolved.size, again_at, k=None)
        need = (args.dc or 0) + args.lost
        if need > chances.k:  # P(≥ DC) and E[final] need the distribution up to DC + lost
            chances = pool_odds(resolved.size, again_at, k=need)
        text = render.format_odds(
            me.name, resolved.text, chances, dc=args.dc, bonus=total_bonus, lost=args.lost
        )
        return hide(call, text, mode)
    dice = roll_pool(resolved.size, call.app.rng, again=again_at)
    result = resolve(dice, bonus=total_bonus, lost=args.lost, dc=args.dc)
    text = render.format_check(
        me.name,
        resolved.text,
        result,
        detailed=mode.detailed,
        reason=args.reason,
        bonus_note=bonus_note(resolved, args.bonus),
    )
    return hide(call, text, mode)


async def _repeat(call: Call, args: Any, times: int, mode: Mode) -> list[Reply]:
    """``.ww 3#力量+格斗``: the same pool rolled ``times`` times (one dice cap for them all)."""
    me = await side_of(call, None)
    resolved, _card = resolve_pool(args, me)
    again_at = again_of(args, await settings_of(call))
    budget = DiceBudget()
    total_bonus = resolved.term_bonus + args.bonus
    results = [
        resolve(
            roll_pool(resolved.size, call.app.rng, again=again_at, budget=budget),
            bonus=total_bonus,
            lost=args.lost,
            dc=args.dc,
        )
        for _ in range(times)
    ]
    text = render.format_repeat(
        me.name,
        resolved.text,
        results,
        detailed=mode.detailed,
        reason=args.reason,
        bonus_note=bonus_note(resolved, args.bonus),
    )
    return hide(call, text, mode)


async def _opposed(call: Call, la: Any, versus: dict[str, Any], detailed: bool) -> str:
    ra = pool_args(
        versus["pool"],
        again=versus["again"],
        dc=versus["dc"],
        bonus=versus["bonus"],
        lost=versus["lost"],
        odds=versus["odds"],
    )
    for a in (la, ra):
        if a.dc is not None or a.odds:
            raise call.usage_error("对抗时DC由先手方的成功数决定，不能再写dc或?")
    ats = call.ctx.at_ids
    npc = Side("对手", None)
    if len(ats) >= 2:
        left, right = await side_of(call, ats[0]), await side_of(call, ats[1])
    elif ats:
        left, right = await side_of(call, None), await side_of(call, ats[0])
    elif ra.names and not la.names:
        # an NPC pool goes first (e.g. a sneaking NPC), the sender's card answers
        left, right = npc, await side_of(call, None)
    elif ra.names:
        raise NotFound("两边都用了属性名：请@对手（对手的数值从其角色卡读取），或把NPC一方写成数字")
    else:
        left, right = await side_of(call, None), npc
    for side, uid in ((left, ats[0] if len(ats) >= 2 else None), (right, ats[-1] if ats else None)):
        if uid is not None and side.char is None:
            raise NotFound(f"{side.name} 在本群没有使用中的角色卡")
    settings = await settings_of(call)
    lp, _ = resolve_pool(la, left, whose=left.name)
    rp, _ = resolve_pool(ra, right, whose=right.name)
    budget = DiceBudget()
    rng = call.app.rng
    first = resolve(
        roll_pool(lp.size, rng, again=again_of(la, settings), budget=budget),
        bonus=lp.term_bonus + la.bonus,
        lost=la.lost,
    )
    second_roll = roll_pool(rp.size, rng, again=again_of(ra, settings), budget=budget)
    second = resolve(second_roll, bonus=rp.term_bonus + ra.bonus, lost=ra.lost, dc=first.total)
    res = opposed(first, second, tie_of(settings))
    return render.format_opposed(left.name, lp.text, right.name, rp.text, res, detailed=detailed)


async def multi(
    call: Call,
    *,
    mode: Mode,
    actor: str | None,
    pool: tuple[Term, ...],
    targets: list[Target],
    again: int | None,
    bonus: list[int],
    lost: list[int],
    gained: int | None,
    base_zero: bool,
) -> list[Reply]:
    """One attack action making several attacks: the bonus split (all of it, declared before
    rolling), each target's declared defence used attack by attack (a target is found by the
    name it was declared under: an NPC's, or a card's), the bonus gained at the first hit."""
    args = pool_args(pool, again=again, bonus=bonus, lost=lost)
    named = [t if t.name else Target(f"目标{i}", t.hits, t.split) for i, t in enumerate(targets, 1)]
    plan_targets = check_targets(named)
    settings = await settings_of(call)
    me = await attacker_of(call, actor)
    resolved, card = resolve_pool(args, me.side, whose=me.side.name if actor else "你")
    total = resolved.term_bonus + card.attack + args.bonus
    plan = allocate(total, plan_targets)
    budget = DiceBudget()
    again_at = again_of(args, settings)
    dice = [roll_pool(resolved.size, call.app.rng, again=again_at, budget=budget) for _ in plan]

    def apply(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, tuple[list[int], list[Any]]]:
        s = Pool10Session.from_dict(state)
        events: list[Any] = []
        if me.key is not None:
            s, ev = new_action(s, me.key)
            events += ev
        used: list[int] = []
        for attack in plan:
            key = find_key(s, attack.target)
            n = 0
            if key is not None:
                s, n, ev = take_defence(s, key, base_zero=base_zero)
                events += ev
            used.append(n)
        return step(s).to_dict(), (used, events)

    used, events = await call.app.store.sessions.apply_session(
        call.ctx.scope, SYSTEM, apply, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )
    action = resolve_action(plan, dice, used, gained=gained or 0)
    text = render.format_allocation(me.label, resolved.text, total, action)
    shown = [e for e in events if not isinstance(e, DefenceRestored) or e.restored or e.dropped]
    notes = render.format_defence_events(shown)
    return hide(call, text + (f"\n{notes}" if notes else ""), mode)


async def calc(call: Call, *, mode: Mode, base: Fraction, ops: list[Op], real: bool) -> list[Reply]:
    if len(ops) > MAX_OPS:
        raise call.usage_error(f"最多{MAX_OPS}个运算")
    calculation = Calculation(base=base, ops=tuple(ops), real=real)
    return [Reply.say(render.format_calc(evaluate_calculation(calculation), calculation.real))]
