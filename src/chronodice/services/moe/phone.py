"""Phone play: a bare number in private chat answers the open 萌E prompt (issue 27).

``.moe 答 …`` is what a private ``2`` (or ``2 3``, ``0``) becomes (the core's ``bare_private``
rewrite, registered here); what the numbers mean depends on the request waiting for the sender:

* 出牌: ``N`` plays card N (at its only target, if it has one), ``N M`` plays it at M号, ``0`` ends;
* 响应 / 奥秘: ``N`` answers with card N (a 奥秘 pause: the N-th 奥秘 offered), ``0`` passes;
  ``0 1`` / ``0 2`` pass and stop the 反制/恢复 questions for the turn / the game (:mod:`.noask`);
* 是否发动: ``1`` 是, ``0`` 否;
* a choice: the numbers, as ``.moe choose`` (``0`` passes what may be passed);
* 选角色: the character's number; 分配: ``0`` gives nothing.

A private number from someone with no request waiting says so; from someone with no game it is
not ours (silence).  ``.moe 答 1`` typed out from someone with no game is told so (issue 44: it
got no reply at all); the rewrite of a bare number is told apart by ``call.bare``.
"""

from __future__ import annotations

import re
from typing import Any

from chronodice.core.args import Int, many
from chronodice.core.commands import REGISTRY, Call
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply

from . import noask, play
from ._common import find_user_game, load_game, moe, seat_of
from .kinds import Seat

BARE = re.compile(r"\s*[0-9]{1,3}(?:\s+[0-9]{1,3}){0,5}\s*")
"""A private message of one to six small numbers."""


NOT_PLAYING = "你不在萌E游戏中"


def bare_answer(text: str) -> str | None:
    """The ``.moe 答`` command a bare private number stands for."""
    return f".moe 答 {text.strip()}" if BARE.fullmatch(text) else None


REGISTRY.bare_private.append(bare_answer)


async def _waiting(call: Call) -> tuple[Any, int, Any] | None:
    """(game, the sender's seat, the request as the sender sees it), or ``None`` when the sender
    has no game (the number is not for us)."""
    found = await find_user_game(call.app, call.ctx.user_id)
    if found is None:
        return None
    scope, state = found
    if state.get("status") != "running" or not state.get("record"):
        raise IllegalAction("萌E对局还没有开始")
    seat = seat_of(state, call.ctx.user_id)
    g = load_game(scope, state["record"])
    if g.pending is None or seat not in g.pending.waiting:
        if g.pending is not None and g.pending.reason == "character" and state.get("picks") is not None:
            return g, seat, g.pending  # everyone chooses at once
        raise IllegalAction("现在没有等你回答的请求（.moe hand 查看手牌）")
    return g, seat, g.pending.for_seat(seat)


@moe.sub(
    "答",
    "answer",
    params=[many("nums", Int(label="数字", max=999), label="数字")],
    help="回答当前请求（私聊直接发数字即可：出牌 序号 [座位]，0 结束/不响应/否，1 是）",
)
async def moe_answer(call: Call, nums: list[int]) -> list[Reply]:
    got = await _waiting(call)
    if got is None:  # a bare number is not ours; the command typed out is answered
        return [] if call.bare else [Reply.say(NOT_PLAYING)]
    _g, _seat, ask = got
    first, rest = nums[0], nums[1:]
    if ask.reason == "character":
        return await play.pick_character(call, first)
    k = ask.kind
    if k == "play":
        if first == 0:
            return await play.moe_end(call)
        return await play.moe_play(call, first, [Seat(n) for n in rest[:1]], False)
    if k == "respond":
        if first == 0 and rest[:1] in ([1], [2]):  # 0 1 / 0 2: pass and 免问 (the turn / the game)
            return await noask.set_no_ask(call, "turn" if rest[0] == 1 else "game", pass_now=True)
        if first == 0:
            return await play.moe_pass(call)
        return await play.moe_resp(call, first)
    if k == "invoke":
        return await (play.moe_yes(call) if first else play.moe_no(call))
    if first == 0 and (ask.optional or k == "distribute"):
        return await play.moe_pass(call)
    return await play.moe_choose(call, nums)


__all__ = ["BARE", "NOT_PLAYING", "bare_answer", "moe_answer"]
