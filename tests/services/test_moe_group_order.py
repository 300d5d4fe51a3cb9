"""Issue 27: every group-visible text of a 萌E game goes out in the order things happened,
whichever chat caused it — a group command answered while the public part of a private command
still waits in the outbox is queued behind it (at-least-once delivery unchanged); a response
window some seats answered is not announced again."""

from __future__ import annotations

import re

from helpers import moe_game as game
from helpers import moe_started as started
from helpers import run

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.services.moe.numbers import card_number as num

G = "20002"


def public(replies: list[Reply]) -> list[str]:
    return [r.text for r in replies if not r.private]


async def delivered(app: App) -> list[str]:
    """What the sweeper sends the group now, in order (through a ``send`` that always works;
    a picture is noted as ``[图]`` after its text)."""
    got: list[str] = []

    async def send(_scope: str, text: str, image: bytes | None = None) -> bool:
        got.append(text + ("[图]" if image else ""))
        return True

    await moe.sweep(app, app.clock.timestamp(), send=send)
    return got


async def test_group_reply_goes_behind_a_private_commands_public_part(app: App) -> None:
    await started(app)  # the last character was chosen in private
    state, g = await game(app)
    user = state["players"][g.pending.seat]["user"]
    while g.pending.kind != "play":  # 奇境 before the first play phase: held, one message later
        await run(app, ".moe pass", user=user, group=G)
        state, g = await game(app)
        user = state["players"][g.pending.seat]["user"]
    assert any("游戏开始" in e["text"] for e in state["outbox"])
    replies = await run(app, ".moe end", user=user, group=G)
    assert public(replies) == []  # not answered ahead of what is still in the outbox
    texts = await delivered(app)
    assert len(texts) == 1 and texts[0].endswith("[图]")  # one message, the table with it
    lines = [re.sub(r"\([^)]*\)", "", t) for t in texts[0].split("\n")]  # without characters
    assert lines == [
        "游戏开始！座次：1号PL01，2号PL02，3号PL03",
        "每人获得4张起始手牌",
        "—— 第1轮 ——",
        "1号PL01的回合",
        "1号PL01摸了2张牌",
        "轮到1号PL01出牌（请私聊骰娘出牌）[图]",
    ]
    state, g = await game(app)
    assert state["outbox"] == []
    # the group's .moe end said nothing yet: what follows is held until 2号's play phase
    assert g.pending.kind != "play" or g.pending.seat != 0


async def test_a_window_answered_by_some_is_not_announced_again(app: App) -> None:
    await started(app)
    await delivered(app)
    for _ in range(300):
        state, g = await game(app)
        ask = g.pending
        if ask.kind == "respond" and len(ask.waiting) > 1:
            break
        user = state["players"][ask.seat]["user"]
        if ask.kind == "play":
            opt = next((o for o in ask.options if o["a"] == "card" and o["mode"] == "one"), None)
            cmd = (
                f".moe play {num(state, g, ask.seat, opt['card'])} {opt['targets'][0] + 1}号"
                if opt
                else ".moe end"
            )
        elif ask.optional or ask.kind in ("invoke", "respond"):
            cmd = ".moe pass"
        else:
            cmd = ".moe choose " + " ".join(str(i + 1) for i in range(max(ask.lo, 1)))
        await run(app, cmd, user=user, group=G)
    else:
        raise AssertionError("no window of several seats")
    first, second = ask.waiting[0], ask.waiting[1]
    deadline = state["deadline"]
    app.clock.advance(deadline - 1 - app.clock.timestamp())  # a second before the deadline
    got = await run(app, ".moe pass", user=state["players"][first]["user"], group=None)
    assert got == []  # no bare acknowledgement (issue 27): the window's outcome comes later
    state, g = await game(app)
    assert g.pending.serial == ask.serial and g.pending.waiting == ask.waiting[1:]
    assert state["deadline"] == deadline  # the window keeps the deadline it opened with
    assert state["outbox"] == []  # nothing for the group while the window is open
    assert second in g.pending.waiting
