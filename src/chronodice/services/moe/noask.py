"""``.moe 免问 本回合|本局|关``: stop being asked for 反制/恢复 (issue 44).

The rule itself — which windows, which exceptions, and why the group learns nothing of the
hand from it — is :mod:`chronodice.rules.moe.optout`; the session keeps each seat's setting
under :data:`._common.NO_ASK` and :func:`._common.run_auto` passes the covered windows at once
(logged as ``optout`` inputs).  On a phone, ``0 1`` / ``0 2`` in a 反制/救援 window passes it and
opts out for the turn / the game (:mod:`.phone`).
"""

from __future__ import annotations

import random
from typing import Any

from chronodice.core.args import Choice, opt
from chronodice.core.commands import Call
from chronodice.core.reply import Reply
from chronodice.rules.moe.optout import setting

from . import choice
from ._common import (
    NO_ASK,
    SYSTEM,
    about_hidden_cards,
    game_scope,
    load_game,
    moe,
    now,
    run_auto,
    running,
    seat_of,
)
from .outbox import commit

SPAN = Choice(
    {
        "本回合": "turn",
        "回合": "turn",
        "turn": "turn",
        "本局": "game",
        "整局": "game",
        "game": "game",
        "关": "off",
        "关闭": "off",
        "取消": "off",
        "off": "off",
    },
    label="本回合/本局/关",
)
SAID = {
    "turn": "本回合不再询问你反制/恢复，下个回合起照常询问",
    "game": "本局不再询问你反制/恢复，直到 .moe 免问 关",
    "off": "已恢复询问反制/恢复",
}
KEPT = "（你的回合和你濒死时照常询问；被攻击时的防御照常询问）"


async def set_no_ask(call: Call, span: str, *, pass_now: bool = False) -> list[Reply]:
    """Set the sender's opt-out (one transaction); a covered window waiting for the sender
    passes at once.  ``pass_now``: the sender also passes the response window waiting for it
    (the phone's ``0 1``), covered or not."""
    scope = await game_scope(call)
    seed = call.app.rng.getrandbits(32)
    at = now(call.app)
    ctx = call.ctx

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], list[Reply]]:
        state = running(state)
        seat = seat_of(state, ctx.user_id)
        rec = state["record"]
        g = load_game(scope, rec)
        g.drain_events()
        mine = state.setdefault(NO_ASK, {})
        if span == "off":
            mine.pop(str(seat), None)
        else:
            mine[str(seat)] = setting(span, g.state.turn_no)
        ask = g.pending
        if pass_now and ask is not None and ask.kind == "respond" and seat in ask.waiting:
            with about_hidden_cards(ctx):
                g.submit(seat, None, source="player")
        if not choice.choosing(g):
            run_auto(g, random.Random(seed), state)
        saved, replies = commit(state, g, rec, at, private=ctx.group_id is None, actor=seat)
        line = SAID[span] + ("" if span == "off" else KEPT)
        return saved, [Reply.say(line), *replies]

    replies: list[Reply] = await call.app.store.sessions.apply_session(
        scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text, claim=call.claim
    )
    return replies


@moe.sub(
    "免问",
    "noask",
    params=[opt("span", SPAN, default="turn")],
    help="不再询问我反制/恢复：本回合（缺省）、本局，或 关（自己的回合与濒死时照常询问）",
)
async def moe_no_ask(call: Call, span: str) -> list[Reply]:
    return await set_no_ask(call, span)


__all__ = ["SPAN", "moe_no_ask", "set_no_ask"]
