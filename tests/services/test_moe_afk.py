"""Issue 44: players who are away.  Two AFK players on 托管 used to auto-play ~38 rounds in one
burst to a draw — one group message ``（略去前229条）`` and one long private message each; one
AFK turn made two ``超时，按默认处理`` lines (the play phase, then the discard)."""

from __future__ import annotations

from helpers import moe_game as game
from helpers import run

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.core.reply import Reply

G = "20002"
A, B = "30001", "30002"


async def two_players(app: App, *, choose: bool) -> None:
    await run(app, ".moe new 乱斗森林", user=A, group=G)
    await run(app, ".moe join", user=B, group=G)
    await run(app, ".moe start", user=A, group=G)
    if choose:
        for u in (A, B):
            await run(app, ".moe choose 1", user=u, group=None)
        await moe.sweep(app)  # the group part of the private choices


async def afk_until_over(app: App) -> list[Reply]:
    """Nobody answers: sweep each deadline until the game ends; every reply."""
    out: list[Reply] = []
    for _ in range(200):
        state, _g = await game(app)
        if state["status"] != "running":
            break
        assert state.get("deadline") is not None
        out += [r for _scope, rs in await moe.sweep(app, state["deadline"] + 1) for r in rs]
    return out


async def test_two_afk_players_make_no_burst_of_hundreds_of_lines(app: App) -> None:
    await two_players(app, choose=False)  # the character choice times out too
    replies = await afk_until_over(app)
    state, g = await game(app)
    assert state["status"] == "over"
    assert g.state.result != "round_cap" and g.state.winners  # 托管 attacks: someone wins
    group = [r.text for r in replies if not r.private]
    assert "游戏结束" in group[-1]
    for text in group:
        assert len(text.splitlines()) <= 60, text
        assert "略去" not in text, text
    turns = [line for text in group for line in text.splitlines() if "的回合（托管）：" in line]
    assert turns, group  # the chain is told one line per turn
    assert all(len(line) <= 160 for line in turns)
    for r in replies:  # each player's private message stays short too (a play prompt's size)
        if r.private:
            assert len(r.text.splitlines()) <= 20 and "……（略去" not in r.text, r.text


async def test_one_afk_turn_is_one_timeout_line(app: App) -> None:
    await two_players(app, choose=True)
    state, g = await game(app)
    seat = g.pending.seat
    assert g.pending.kind == "play" and not g.p(seat).auto
    texts: list[str] = []
    for _ in range(6):  # the play phase, then the discard of the same turn
        state, g = await game(app)
        if g.pending is None or g.pending.seat != seat or g.state.turn.seat != seat:
            break
        out = await moe.sweep(app, state["deadline"] + 1)
        texts += [r.text for _s, rs in out for r in rs if not r.private]
    joined = "\n".join(texts)
    assert joined.count("超时，按默认处理") == 1, joined
    _state, g = await game(app)
    assert sum(1 for i in g.inputs if i.get("source") == "timeout") >= 1
