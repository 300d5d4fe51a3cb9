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
from chronodice.rules.pool10.state import DefenceRestored, DefenceState, close_names, find_key, npc_key, step
from chronodice.rules.pool10.state import clear as clear_defence
from chronodice.store import CharacterRecord, json_codec

from ..card_access import member_card
from ._common import (
    SYSTEM,
    Mode,
    again_of,
    attacker_of,
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
    actor: str | None,
    pool: tuple[Term, ...],
    target: str | None,
    npc: str | None,
    reason: str,
    again: int | None,
    bonus: list[int],
    lost: list[int],
    defence: int | None,
    base_zero: bool,
) -> list[Reply]:
    if target is not None and npc is not None:
        raise call.usage_error("一次攻击只能有一个目标")
    args = pool_args(pool, again=again, bonus=bonus, lost=lost, reason=reason)
    settings = await settings_of(call)
    me = await attacker_of(call, actor)
    resolved, card = resolve_pool(args, me.side, whose=me.side.name if actor else "你")
    aimed = await side_of(call, target) if target is not None else None
    if aimed is not None and aimed.char is None:
        raise NotFound(f"{aimed.name} 在本群没有使用中的角色卡")
    dice = roll_pool(resolved.size, call.app.rng, again=again_of(args, settings))
    target_key = key_of(aimed.char) if aimed and aimed.char else None

    def apply(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, tuple[int, list[Any]]]:
        s = Pool10Session.from_dict(state)
        events: list[Any] = []
        if me.key is not None:
            s, ev = new_action(s, me.key)  # attacking is the attacker's action
            events += ev
        used = 0
        key = target_key if npc is None else find_key(s, npc)
        if npc is not None and key is None and defence is None:
            # a typo'd name (``@艾拉`` for 艾琳) must not become a phantom without defence
            near = close_names(s, npc)
            if near:
                raise NotFound(
                    f"没有找到「{npc}」（可能是：{'/'.join(near)}）；确是另一个没有宣言防御的目标，请在 @{npc} 前写 防0"
                )
        if key is not None and defence is None:
            s, used, ev = take_defence(s, key, base_zero=base_zero)
            events += ev
        return step(s).to_dict(), (used, events)

    used, events = await call.app.store.sessions.apply_session(
        call.ctx.scope, SYSTEM, apply, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )
    total = resolved.term_bonus + card.attack + args.bonus
    res = resolve_attack(dice, attack_bonus=total, defence=defence if defence is not None else used)
    aimed_name = aimed.name if aimed else npc
    text = render.format_attack(
        me.label,
        resolved.text,
        res,
        target=f"<{aimed_name}>" if aimed_name else None,
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
    uid = who if who is not None else ctx.user_id
    char = await member_card(call, uid, what, write=True)
    if char is None:
        name = "你" if uid == ctx.user_id else await call.app.display_name(ctx, uid)
        raise NotFound(f"{name}在本群没有使用中的角色卡")
    return char


async def defence(
    call: Call,
    *,
    mode: Mode,
    amount: tuple[int, ...] | None,
    who: str | None,
    npc: str | None,
    legend: int | None,
    base_zero: bool,
) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    if amount is None:
        if who is not None or npc is not None or legend is not None or base_zero:
            raise call.usage_error("请给出宣言的防御附加成功数")
        state = await store.sessions.load_state(ctx.scope, json_codec(SYSTEM))
        return [Reply.say(render.format_defence_table(await _defence_rows(call, state)))]
    if who is not None and npc is not None:
        raise call.usage_error("@某人 和 NPC名 只能写一个")
    if npc is not None:
        await require_gm(call, "替NPC宣言防御")
        key, name, total, card_legend = npc_key(npc), npc, None, legend or 0
    else:
        if legend is not None:
            raise call.usage_error("传奇N 只用于NPC；角色卡用 .ww 附加 传奇防御2 录入")
        char = await _target_char(call, who, "替别人宣言防御")
        card = Pool10Card.of(char.data)
        if card.defence <= 0:
            raise IllegalAction(f"<{char.name}> 没有防御附加成功，先用 .ww 附加 防御5 录入")
        key, name, total, card_legend = key_of(char), char.name, card.defence, card.legend

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[Any]]:
        s, events = declare_defence(
            Pool10Session.from_dict(state),
            key,
            name,
            amount=amount,
            total=total,
            legend=card_legend,
            base_zero=base_zero,
        )
        return step(s).to_dict(), events

    events = await store.sessions.apply_session(
        ctx.scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text, claim=call.claim
    )
    return [Reply.say(render.format_defence_events(events))]


async def _defence_rows(call: Call, state: dict[str, Any] | None) -> list[tuple[DefenceState, int | None]]:
    """Each tracked character with its card's total defence (``None`` for an NPC)."""
    rows: list[tuple[DefenceState, int | None]] = []
    for key, d in Pool10Session.from_dict(state).defence.items():
        cid = key[1:]
        if not (key.startswith("c") and cid.isascii() and cid.isdigit()):
            rows.append((d, None))
            continue
        char = await call.app.store.characters.get_character(int(cid))
        rows.append((d, Pool10Card.of(char.data).defence if char else d.spent + sum(d.pending)))
    return rows


async def defence_clear(call: Call, *, mode: Mode) -> list[Reply]:
    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, int]:
        s = Pool10Session.from_dict(state)
        return step(clear_defence(s)[0]).to_dict(), len(s.defence)

    ctx = call.ctx
    n = await call.app.store.sessions.apply_session(
        ctx.scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text, claim=call.claim
    )
    return [Reply.say(f"已清空本群的防御记录（{n}个角色）")]


async def action(call: Call, *, mode: Mode, who: str | None) -> list[Reply]:
    char = await _target_char(call, who, "替别人开始行动")
    key, name = key_of(char), char.name

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[Any]]:
        s, events = new_action(Pool10Session.from_dict(state), key)
        return step(s).to_dict(), events

    events = await call.app.store.sessions.apply_session(
        call.ctx.scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )
    return [Reply.say(render.format_defence_events(events) or f"<{name}> 行动：没有需要恢复的防御附加成功")]
