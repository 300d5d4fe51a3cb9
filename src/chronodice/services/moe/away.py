"""Leaving the table: ``auto`` (托管) and ``quit`` (投降, or handing one's seat to the AI).

``.moe quit`` in a game where the sender still has a living teammate does not concede at once:
conceding leaves the team a seat down, so the sender is told the two ways —
``.moe quit 确认`` (concede, as before) or ``.moe quit ai`` (hand the seat to the AI for the rest
of the game).  Elsewhere (1v1, free-for-all, the last of a team) ``.moe quit`` concedes at once;
``.moe quit ai`` works everywhere.

A seat handed to the AI plays on in the AI style (:mod:`chronodice.rules.moe.ai`: to win for its
team) on 托管, for good: its player can no longer act for it, nor turn 托管 off, nor concede
it, and is sent nothing more about it (:func:`.outbox.outcome` skips AI seats).  The group hears
one line naming who handed the seat over (the ``to_ai`` event); the seat's hand stays hidden.
Every change is an admin input of the engine (``ai``, ``auto``, ``concede``), logged and replayed
like any answer (:func:`chronodice.rules.moe.record.admin`).
"""

from __future__ import annotations

from chronodice.core.args import Choice, opt
from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.rules.moe.ai_judge import allies
from chronodice.store import json_codec

from ._common import SYSTEM, game_scope, load_game, moe, running, seat_of
from .kinds import AUTO
from .play import AI_SEAT, admin_op, handed_over

HOW = Choice(
    {"确认": "confirm", "confirm": "confirm", "ai": "ai", "交给ai": "ai"},
    label="确认/ai",
)
OFFER = (
    "{name}，你还有队友在场，投降会让队伍少一人。请选择：\n"
    ".moe quit 确认  投降（本局出局）\n"
    ".moe quit ai  把座位交给AI，由AI代为出牌至本局结束"
)
"""The answer to ``.moe quit`` while the sender has a living teammate (nothing hidden in it)."""
HANDED = "已将你的座位交给AI，由AI代为出牌至本局结束；之后不再私聊你本局的消息"
"""Told to a player who handed their seat over from private chat (a group hears the event line)."""


@moe.sub("auto", "托管", params=[opt("on", AUTO, default=True)], help="托管（off 取消；再次行动也会取消）")
async def moe_auto(call: Call, on: bool) -> list[Reply]:
    replies = await admin_op(call, {"admin": "auto", "on": on})
    return [Reply.say("已开启托管" if on else "已取消托管"), *replies]


async def offer_first(call: Call) -> bool:
    """Whether ``.moe quit`` should offer the two ways first: the sender's seat is alive, not
    conceded, and has a living teammate (read without a transaction: the concede checks again)."""
    scope = await game_scope(call)
    state = running(await call.app.store.sessions.load_state(scope, json_codec(SYSTEM)))
    seat = seat_of(state, call.ctx.user_id)
    g = load_game(scope, state["record"])
    if handed_over(g, seat):
        raise IllegalAction(AI_SEAT)
    p = g.p(seat)
    return p.alive and not p.flags.get("conceded") and bool(allies(g, seat))


@moe.sub(
    "quit",
    "投降",
    "surrender",
    params=[opt("how", HOW, default=None)],
    help="投降（有队友在场时先询问：确认 投降，ai 把座位交给AI代打至本局结束）",
)
async def moe_quit(call: Call, how: str | None) -> list[Reply]:
    if how == "ai":
        replies = await admin_op(call, {"admin": "ai"})
        return [Reply.say(HANDED), *replies] if call.ctx.group_id is None else replies
    if how is None and await offer_first(call):
        return [Reply.say(OFFER.format(name=call.name))]
    return await admin_op(call, {"admin": "concede"})


__all__ = ["HANDED", "OFFER", "moe_auto", "moe_quit"]
