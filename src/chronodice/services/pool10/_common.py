"""Helpers shared by the pool commands: whose card, group defaults, hidden replies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chronodice.core.commands import Call
from chronodice.core.errors import InputSyntaxError, NotFound
from chronodice.core.permissions import Perm, require
from chronodice.core.reply import Reply
from chronodice.rules.pool10 import (
    DEFAULT_AGAIN,
    Pool10Card,
    PoolArgs,
    ResolvedPool,
    TieRule,
    check_again,
    evaluate_pool,
)
from chronodice.rules.pool10.check import MAX_BONUS
from chronodice.rules.pool10.expr import Term
from chronodice.rules.pool10.state import npc_key
from chronodice.services.hidden import hidden_result
from chronodice.store import CharacterRecord

from ..card_access import member_card
from ..characters import numeric_attributes
from ..npc_cards import find_npc_card
from ..views import group_of

SYSTEM = "pool10"
SYSTEM_LABEL = "无限恐怖"
SETTINGS_KEY = "pool10"


@dataclass(frozen=True)
class Mode:
    """What the root asked for: ``.w`` result only, ``.ww`` every die, ``.wh`` hidden."""

    detailed: bool
    hidden: bool


@dataclass(frozen=True)
class Side:
    """Who rolls and with which card (``char`` is ``None`` for a plain-number NPC pool)."""

    name: str
    char: CharacterRecord | None


NPC_LABEL = "NPC"
"""Who an attack is by when a GM with no card here rolls it (a GM rolling for an NPC)."""


async def attacker_label(call: Call, side: Side) -> str:
    """The attacker's name in an attack reply: :data:`NPC_LABEL` when a GM with no active card
    here rolls (the GM rolling for an NPC, not attacking as themself); otherwise the sender's
    card or name as before."""
    if side.char is None and await call.app.is_gm(call.ctx):
        return NPC_LABEL
    return side.name


def key_of(char: CharacterRecord) -> str:
    return f"c{char.id}"


@dataclass(frozen=True)
class Attacker:
    """Who attacks: the side whose card gives the pool, the label in the reply, and the session
    key whose action this is (its spent defence comes back), ``None`` when not tracked."""

    side: Side
    label: str
    key: str | None


async def attacker_of(call: Call, actor: str | None) -> Attacker:
    """The sender (their card, or :data:`NPC_LABEL` for a GM without one), or with ``守卫:`` the
    NPC a GM rolls for: labelled with its name, its pool read from the group's NPC card of that
    name when there is one (issue 26, :mod:`chronodice.services.npc_cards`), and the attack is
    the NPC's action."""
    if actor is not None:
        await require_gm(call, "以NPC的名义掷骰")
        return Attacker(Side(actor, await find_npc_card(call, actor)), actor, npc_key(actor))
    me = await side_of(call, None)
    return Attacker(me, await attacker_label(call, me), key_of(me.char) if me.char else None)


def pool_args(
    pool: tuple[Term, ...],
    *,
    again: int | None = None,
    dc: int | None = None,
    bonus: list[int] | None = None,
    lost: list[int] | None = None,
    odds: bool = False,
    reason: str = "",
) -> PoolArgs:
    """The typed values of a pool form as the engine's :class:`PoolArgs`."""
    agains = {t.again for t in pool if t.again is not None}
    if again is not None:
        agains.add(again)
    if len(agains) > 1:
        raise InputSyntaxError("一个骰池只能有一个加骰阈值")
    total_bonus, total_lost = sum(bonus or ()), sum(lost or ())
    if total_bonus > MAX_BONUS or total_lost > MAX_BONUS:
        raise InputSyntaxError(f"附加成功或扣除的成功最多{MAX_BONUS}")
    return PoolArgs(
        terms=pool,
        again=agains.pop() if agains else None,
        dc=dc,
        bonus=total_bonus,
        lost=total_lost,
        odds=bool(odds),
        reason=reason,
    )


async def settings_of(call: Call) -> dict[str, Any]:
    """The group's pool defaults (from the dispatcher's snapshot when there is one)."""
    return dict((await group_of(call)).settings.get(SETTINGS_KEY, {}))


async def require_gm(call: Call, what: str) -> None:
    """The one permission policy, with this group's appointed GMs."""
    gms = (await group_of(call)).gms if call.ctx.group_id is not None else ()
    require(call.ctx, Perm.GM, what, gms=gms)


async def side_of(call: Call, user_id: str | None) -> Side:
    """The active character of ``user_id`` (default: the sender) in this group."""
    ctx = call.ctx
    if (user_id is None or user_id == ctx.user_id) and call.view is not None:
        char = call.view.character
        return Side(name=call.player_name, char=char)
    uid = user_id or ctx.user_id
    char = await member_card(call, uid, "对别人的角色掷骰", write=False)
    name = char.name if char else await call.app.display_name(ctx, uid)
    return Side(name=name, char=char)


def resolve_pool(args: PoolArgs, side: Side, *, whose: str = "你") -> tuple[ResolvedPool, Pool10Card]:
    if args.names and side.char is None:
        raise NotFound(f"{whose}还没有角色卡，无法读取「{args.names[0][:20]}」：先用 .st 敏捷4潜行3 录入")
    card = Pool10Card.of(side.char.data if side.char else None)
    values = numeric_attributes(side.char)
    owner = f"<{side.char.name}>的角色卡" if side.char else "角色卡"
    return evaluate_pool(args, values, card.term_bonus, owner=owner), card


def bonus_note(pool: ResolvedPool, extra: int, card_bonus: int = 0, card_label: str = "") -> str:
    bits = [f"{p.label}{p.bonus}" for p in pool.parts if p.sign > 0 and p.bonus]
    if card_bonus:
        bits.append(f"{card_label}{card_bonus}")
    if extra:
        bits.append(f"指令{extra}")
    if not bits:
        return ""
    total = pool.term_bonus + extra + card_bonus
    return "+".join(bits) + (f"={total}" if len(bits) > 1 else "")


def again_of(args: PoolArgs, settings: dict[str, Any]) -> int:
    if args.again is not None:
        return args.again
    return check_again(int(settings.get("again", DEFAULT_AGAIN)))


def tie_of(settings: dict[str, Any]) -> TieRule:
    return TieRule(settings.get("tie", TieRule.AT_LEAST.value))


def hide(call: Call, text: str, mode: Mode) -> list[Reply]:
    """``.wh``: the group hears that a hidden pool was rolled; the result goes privately."""
    if not mode.hidden:
        return [Reply.say(text)]
    return hidden_result(call, text, "暗骰池")
