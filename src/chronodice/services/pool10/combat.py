"""Attack and defence: ``攻击`` against declared defence, ``防御`` declare/list/clear, ``行动``."""

from __future__ import annotations

from typing import Any

from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.reply import Reply
from chronodice.render import pool10 as render
from chronodice.rules.pool10 import (
    Pool10Card,
    Pool10Session,
    declare_defence,
    new_action,
    resolve_attack,
    roll_pool,
    take_defence,
)
from chronodice.rules.pool10.expr import Term
from chronodice.rules.pool10.state import DefenceRestored
from chronodice.rules.pool10.state import clear as clear_defence
from chronodice.store import CharacterRecord

from ._common import (
    SYSTEM,
    Mode,
    again_of,
    attacker_label,
    bonus_note,
    hide,
    key_of,
    pool_args,
    require_gm,
    resolve_pool,
    settings_of,
    side_of,
)


async def attack(
    call: Call,
    *,
    mode: Mode,
    pool: tuple[Term, ...],
    target: str | None,
    reason: str,
    again: int | None,
    bonus: list[int],
    lost: list[int],
    defence: int | None,
) -> list[Reply]:
    args = pool_args(pool, again=again, bonus=bonus, lost=lost, reason=reason)
    settings = await settings_of(call)
    me = await side_of(call, None)
    resolved, card = resolve_pool(args, me)
    aimed = await side_of(call, target) if target is not None else None
    if aimed is not None and aimed.char is None:
        raise NotFound(f"{aimed.name} 在本群没有使用中的角色卡")
    dice = roll_pool(resolved.size, call.app.rng, again=again_of(args, settings))
    my_key = key_of(me.char) if me.char else None
    target_key = key_of(aimed.char) if aimed and aimed.char else None

    def apply(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, tuple[int, list[Any]]]:
        s = Pool10Session.from_dict(state)
        events: list[Any] = []
        if my_key is not None:
            s, ev = new_action(s, my_key)  # attacking is the attacker's action
            events += ev
        used = 0
        if target_key is not None and defence is None:
            s, used, ev = take_defence(s, target_key)
            events += ev
        new = s.to_dict() if (state is not None or s.defence) else None
        return new, (used, events)

    used, events = await call.app.store.apply_session(
        call.ctx.scope, SYSTEM, apply, user_id=call.ctx.user_id, command=call.command_text
    )
    total = resolved.term_bonus + card.attack + args.bonus
    res = resolve_attack(dice, attack_bonus=total, defence=defence if defence is not None else used)
    text = render.format_attack(
        await attacker_label(call, me),
        resolved.text,
        res,
        target=f"<{aimed.name}>" if aimed else None,
        detailed=mode.detailed,
        reason=args.reason,
        bonus_note=bonus_note(resolved, args.bonus, card.attack, "卡上攻击"),
    )
    shown = [e for e in events if not isinstance(e, DefenceRestored) or e.restored or e.dropped]
    notes = render.format_defence_events(shown)
    return hide(call, text + (f"\n{notes}" if notes else ""), mode)


async def _target_char(call: Call, who: str | None, what: str) -> CharacterRecord:
    """The sender's active card, or (GM only) the @-mentioned player's."""
    ctx = call.ctx
    uid = ctx.user_id
    if who is not None and who != ctx.user_id:
        await require_gm(call, what)
        uid = who
    char = await call.app.store.active_character(uid, ctx.scope)
    if char is None:
        name = "你" if uid == ctx.user_id else await call.app.display_name(ctx, uid)
        raise NotFound(f"{name}在本群没有使用中的角色卡")
    return char


async def defence(call: Call, *, mode: Mode, amount: int | None, who: str | None) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    if amount is None:
        if who is not None:
            raise call.usage_error("请给出宣言的防御附加成功数")
        state, _ = await store.load_session(ctx.scope, SYSTEM)
        s = Pool10Session.from_dict(state)
        rows = []
        for key, d in s.defence.items():
            cid = key[1:]
            char = (
                await store.get_character(int(cid))
                if key.startswith("c") and cid.isascii() and cid.isdigit()
                else None
            )
            rows.append((d, Pool10Card.of(char.data).defence if char else d.spent + d.declared))
        return [Reply.say(render.format_defence_table(rows))]
    char = await _target_char(call, who, "替别人宣言防御")
    total = Pool10Card.of(char.data).defence
    if total <= 0:
        raise IllegalAction(f"<{char.name}> 没有防御附加成功，先用 .ww 附加 防御5 录入")
    key, name = key_of(char), char.name

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[Any]]:
        s, events = declare_defence(Pool10Session.from_dict(state), key, name, amount=amount, total=total)
        return s.to_dict(), events

    events = await store.apply_session(ctx.scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text)
    return [Reply.say(render.format_defence_events(events))]


async def defence_clear(call: Call, *, mode: Mode) -> list[Reply]:
    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, int]:
        s = Pool10Session.from_dict(state)
        return (None if state is None else clear_defence(s)[0].to_dict()), len(s.defence)

    ctx = call.ctx
    n = await call.app.store.apply_session(
        ctx.scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text
    )
    return [Reply.say(f"已清空本群的防御记录（{n}个角色）")]


async def action(call: Call, *, mode: Mode, who: str | None) -> list[Reply]:
    char = await _target_char(call, who, "替别人开始行动")
    key, name = key_of(char), char.name

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[Any]]:
        s, events = new_action(Pool10Session.from_dict(state), key)
        return (s.to_dict() if state is not None else None), events

    events = await call.app.store.apply_session(
        call.ctx.scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text
    )
    return [Reply.say(render.format_defence_events(events) or f"<{name}> 行动：没有需要恢复的防御附加成功")]
