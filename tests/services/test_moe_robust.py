"""萌E robustness (issue 13): abort, quit/kick, a broken game in the sweeper, timeout counting —
through ``App.dispatch`` like chat messages."""

from __future__ import annotations

import logging

import pytest
from helpers import moe_game as game
from helpers import moe_started as started
from helpers import run, say

import chronodice.services.moe as moe
from chronodice.app import App

G = "20002"
USERS = ["30001", "30002", "30003"]


async def to_play(app: App, group: str = G) -> None:
    """Answer by default until someone's play phase asks."""
    state, g = await game(app, group)
    while g.pending.kind != "play":
        await run(app, ".moe pass", user=state["players"][g.pending.seat]["user"], group=group)
        state, g = await game(app, group)


# ---------------------------------------------------------------------- 1. abort
async def test_abort_in_the_lobby_then_state_says_there_is_no_game(app: App) -> None:
    await run(app, ".moe new", user=USERS[0], group=G)
    assert await say(app, ".moe abort", user=USERS[0], group=G) == "萌E对局已解散"
    assert await say(app, ".moe state", user=USERS[0], group=G) == "本群没有萌E游戏"
    assert "创建了" in await say(app, ".moe new", user=USERS[0], group=G)


async def test_abort_a_running_game_then_state_and_hand_say_there_is_no_game(app: App) -> None:
    await started(app)
    await to_play(app)
    assert await say(app, ".moe abort", user=USERS[0], group=G) == "萌E对局已解散"
    text = await say(app, ".moe state", user=USERS[1], group=G)
    assert text == "本群没有萌E游戏"
    assert "等待" not in text and "血量" not in text
    assert "没有" in await say(app, ".moe hand", user=USERS[1], group=G)
    assert "没有" in await say(app, ".moe play 1", user=USERS[1], group=G)


# ---------------------------------------------------------------------- 2. quit / kick
def _after(g, seat: int, before: int) -> list[dict]:  # type: ignore[no-untyped-def]
    return [i for i in g.inputs[before:] if i.get("seat") == seat and "answer" in i]


async def test_quit_in_ones_play_phase_stops_at_once(app: App) -> None:
    await started(app)
    await moe.sweep(app)  # the sweeper sends the group part of the private choices first
    await to_play(app)
    state, g = await game(app)
    seat = g.pending.seat
    assert any(o["a"] != "end" for o in g.pending.options)  # something to play
    before = len(g.inputs)
    text = await say(app, ".moe quit", user=state["players"][seat]["user"], group=G)
    assert "投降" in text
    state, g = await game(app)
    mine = _after(g, seat, before)
    assert mine and mine[0]["answer"] == {"a": "end"}  # no attack after surrendering
    assert all(
        not (isinstance(i["answer"], dict) and i["answer"].get("a") in ("card", "skill")) for i in mine
    )
    assert not g.p(seat).alive and g.pending.seat != seat
    assert "使用了" not in text


async def test_kicked_player_does_not_respond_or_act(app: App) -> None:
    await started(app)
    await moe.sweep(app)  # the sweeper sends the group part of the private choices first
    await to_play(app)
    state, g = await game(app)
    seat = g.pending.seat
    before = len(g.inputs)
    host = state["host"]
    assert "投降" in await say(app, f".moe kick {seat + 1}号", user=host, group=G)
    state, g = await game(app)
    assert _after(g, seat, before)[0]["answer"] == {"a": "end"}
    assert not g.p(seat).alive


# ---------------------------------------------------------------------- 3. one broken game
G2 = "20003"
USERS2 = ["31001", "31002"]


def _corrupt_digest(st: dict) -> None:  # type: ignore[type-arg]
    st["record"] = {**st["record"], "digest": "0" * 16}  # a desync


def _corrupt_pack(st: dict) -> None:  # type: ignore[type-arg]
    st["record"] = {**st["record"], "pack": "no-such-pack"}  # a pack error


@pytest.mark.parametrize("corrupt", [_corrupt_digest, _corrupt_pack])
async def test_one_broken_game_does_not_stop_the_other_groups_timeouts(
    app: App, corrupt, caplog: pytest.LogCaptureFixture
) -> None:
    await started(app, G, USERS)  # stored first: swept first
    await started(app, G2, USERS2)
    await moe.sweep(app, app.clock.timestamp())  # the outboxes of the private character choices

    def broken(st):  # type: ignore[no-untyped-def]
        corrupt(st)
        return st, None

    await app.store.sessions.apply_session(G, "moe", broken)
    later = app.clock.timestamp() + 10_000
    with caplog.at_level(logging.ERROR, logger="chronodice"):
        out = dict(await moe.sweep(app, later))
    assert "超时" in "\n".join(r.text for r in out[G2])  # the healthy group's timeout fired
    told = [r.text for r in out[G]]
    assert len(told) == 1 and "出错" in told[0] and ".moe abort" in told[0]
    assert any(G in r.getMessage() and r.name.startswith("chronodice") for r in caplog.records)
    again = dict(await moe.sweep(app, later + 10_000))
    assert G not in again  # told once
    # the others keep going (the same AFK turn's second timeout is not announced again: issue 44)
    assert [r for r in again.get(G2, []) if not r.private]
    assert await say(app, ".moe abort", user=USERS[0], group=G) == "萌E对局已解散"
    assert "创建了" in await say(app, ".moe new", user=USERS[0], group=G)


# ---------------------------------------------------------------------- 4. timeouts
async def _sweep_due(app: App) -> list[str]:
    """Let the open request's deadline pass; the group texts of the sweep."""
    state, _g = await game(app)
    out = dict(await moe.sweep(app, state["deadline"] + 1))
    return [r.text for r in out.get(G, []) if not r.private]


async def test_one_afk_turn_counts_as_one_timeout_and_two_turns_put_on_auto(app: App) -> None:
    await started(app)
    await to_play(app)
    await moe.sweep(app, app.clock.timestamp())  # outbox
    _state, g = await game(app)
    seat, turn = g.pending.seat, g.state.turn_no
    before = len(g.inputs)
    texts: list[str] = []
    while g.pending.seat == seat and g.state.turn_no == turn:
        texts += await _sweep_due(app)
        _state, g = await game(app)
    timed_out = [i for i in g.inputs[before:] if i.get("seat") == seat and i.get("source") == "timeout"]
    assert len(timed_out) >= 2  # play phase and discard phase both waited on the AFK player
    assert not g.p(seat).auto and g.p(seat).timeouts == 1
    assert not any("托管" in t for t in texts)
    # everyone stays AFK: the player's next turn is their second timeout in a row → 托管
    for _ in range(200):
        if g.pending.seat == seat and g.state.turn_no != turn:
            break
        await _sweep_due(app)
        _state, g = await game(app)
    texts = await _sweep_due(app)
    _state, g = await game(app)
    assert g.p(seat).auto and "已进入托管" in texts[0]


async def test_timeout_applies_to_the_request_already_waiting(app: App) -> None:
    await started(app)
    await to_play(app)
    state, g = await game(app)
    assert g.pending.kind == "play"
    old = state["deadline"]
    assert "30秒" in await say(app, ".moe timeout 响应 30", user=USERS[0], group=G)
    state, _g = await game(app)
    assert state["deadline"] == old  # another class: the waiting play request keeps its time
    assert "30秒" in await say(app, ".moe timeout 出牌 30", user=USERS[0], group=G)
    state, _g = await game(app)
    assert state["deadline"] == old - 120 + 30
    out = dict(await moe.sweep(app, old - 120 + 31))
    assert any("超时" in r.text for r in out[G])
    assert "60秒" in await say(app, ".moe timeout 60", user=USERS[0], group=G)
    state, g = await game(app)
    assert state["timeouts"] == {"play": 60, "respond": 60, "choice": 60}
