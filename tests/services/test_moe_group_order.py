"""Issue 27: every group-visible text of a 萌E game goes out in the order things happened,
whichever chat caused it — a group command answered while the public part of a private command
still waits in the outbox is queued behind it (at-least-once delivery unchanged); a response
window some seats answered is not announced again."""

from __future__ import annotations

from helpers import moe_game as game
from helpers import moe_started as started
from helpers import run

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.core.reply import Reply

G = "20002"


def public(replies: list[Reply]) -> list[str]:
    return [r.text for r in replies if not r.private]


async def delivered(app: App) -> list[str]:
    """What the sweeper sends the group now, in order (through a ``send`` that always works)."""
    got: list[str] = []

    async def send(_scope: str, text: str) -> bool:
        got.append(text)
        return True

    await moe.sweep(app, moe.clock(), send=send)
    return got


async def test_group_reply_goes_behind_a_private_commands_public_part(app: App) -> None:
    await started(app)  # the last character was chosen in private: 游戏开始 waits in the outbox
    state, g = await game(app)
    assert any("游戏开始" in e["text"] for e in state["outbox"])
    user = state["players"][g.pending.seat]["user"]
    while g.pending.kind != "play":  # answer in the group what comes before the play phase
        await run(app, ".moe pass", user=user, group=G)
        state, g = await game(app)
        user = state["players"][g.pending.seat]["user"]
    replies = await run(app, ".moe end", user=user, group=G)
    assert public(replies) == []  # not answered ahead of what is still in the outbox
    texts = await delivered(app)
    assert [t.split("\n")[0] for t in texts] == [
        "等待2号PL02私聊选择角色",
        "等待3号PL03私聊选择角色",
        "游戏开始！座次：1号PL01(睡美人)，2号PL02(爱丽丝)，3号PL03(白雪公主)",
        "1号PL01(睡美人)摸了2张牌",  # the group's .moe pass (奇境), after what came before it
        "等待1号PL01(睡美人)做出选择",  # the group's .moe end: the discard phase, last
    ]
    state, _g = await game(app)
    assert state["outbox"] == []
    # with the outbox empty a group command is answered at once again
    _state, g = await game(app)
    user = state["players"][g.pending.seat]["user"]
    answer = ".moe end" if g.pending.kind == "play" else ".moe pass"
    assert public(await run(app, answer, user=user, group=G))
    assert await delivered(app) == []


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
            hand = g.hand(ask.seat)
            cmd = f".moe play {hand.index(opt['card']) + 1} {opt['targets'][0] + 1}号" if opt else ".moe end"
        elif ask.optional or ask.kind in ("invoke", "respond"):
            cmd = ".moe pass"
        else:
            cmd = ".moe choose " + " ".join(str(i + 1) for i in range(max(ask.lo, 1)))
        await run(app, cmd, user=user, group=G)
    else:
        raise AssertionError("no window of several seats")
    first, second = ask.waiting[0], ask.waiting[1]
    deadline = state["deadline"]
    moe.clock, was = (lambda: deadline - 1), moe.clock
    try:
        got = await run(app, ".moe pass", user=state["players"][first]["user"], group=None)
    finally:
        moe.clock = was
    assert [r.text for r in got] == ["已记下你的回应，等其他角色回应后一起结算"]
    state, g = await game(app)
    assert g.pending.serial == ask.serial and g.pending.waiting == ask.waiting[1:]
    assert state["deadline"] == deadline  # the window keeps the deadline it opened with
    assert state["outbox"] == []  # nothing for the group while the window is open
    assert second in g.pending.waiting
