"""AI seats through ``App.dispatch`` (issue 27): the forms a host types on a phone, what bad
forms are told, a player taking an AI seat's place, and two humans with two AI seats on 双王国
playing to the end — nothing ever sent to an AI seat and no AI hand card in the group."""

from __future__ import annotations

from typing import Any

from helpers import moe_answer, run
from helpers import moe_game as game

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.render.moe import card_text
from chronodice.rules.moe.ai import is_ai_user

G = "20002"
HOST, FRIEND, OTHER = "30001", "30002", "30003"


def group_text(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if not r.private)


async def test_new_with_ai_seats_in_every_phone_form(app: App) -> None:
    out = group_text(await run(app, ".moe new 双王国 AI 2", user=HOST, group=G))
    assert "创建了萌E对局（地图：双王国）" in out
    assert "已加入2个AI座位：AI·1、AI·2（共3人）" in out
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert [p["name"] for p in state["players"]][1:] == ["AI·1", "AI·2"]
    assert [p["user"] for p in state["players"]][1:] == ["ai:1", "ai:2"]
    await run(app, ".moe abort", user=HOST, group=G)
    out = group_text(await run(app, ".moe new ai3", user=HOST, group=G))
    assert "地图：随机" in out and "已加入3个AI座位" in out


async def test_bad_ai_forms_are_told_clearly(app: App) -> None:
    assert "AI后面写人数，如 AI 2" in group_text(await run(app, ".moe new 双王国 AI", user=HOST, group=G))
    assert "AI人数应为1到7" in group_text(await run(app, ".moe new 双王国 AI 9", user=HOST, group=G))
    assert "AI后面写人数" in group_text(await run(app, ".moe new 双王国 AI x", user=HOST, group=G))
    # nothing was opened by the bad forms
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state is None
    await run(app, ".moe new 双王国", user=HOST, group=G)
    assert "AI人数" in group_text(await run(app, ".moe ai x", user=HOST, group=G))
    assert "AI人数" in group_text(await run(app, ".moe ai 8", user=HOST, group=G))
    refused = group_text(await run(app, ".moe ai 1", user=OTHER, group=G))
    assert "房主或GM" in refused


async def test_lobby_ai_command_and_a_player_taking_an_ai_seat(app: App) -> None:
    await run(app, ".moe new 双王国", user=HOST, group=G)
    assert "已加入3个AI座位：AI·1、AI·2、AI·3（共4人）" in group_text(
        await run(app, ".moe ai 3", user=HOST, group=G)
    )
    assert "已加入4个AI座位，现有AI·1" in group_text(await run(app, ".moe ai 7", user=HOST, group=G))
    joined = group_text(await run(app, ".moe join", user=FRIEND, group=G))
    assert joined.endswith("加入了萌E对局（8人，替换了AI·7）")
    too_many = group_text(await run(app, ".moe ai 7", user=HOST, group=G))
    assert "最多8人：现有2名玩家，最多还能加6个AI" in too_many
    assert "已移除AI座位（2人）" in group_text(await run(app, ".moe ai 0", user=HOST, group=G))
    # the host leaving hands the lobby to the other player, never to an AI seat
    await run(app, ".moe ai 2", user=HOST, group=G)
    await run(app, ".moe leave", user=HOST, group=G)
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["host"] == FRIEND
    assert "对局已关闭" in group_text(await run(app, ".moe leave", user=FRIEND, group=G))


def hidden_of(g: Any, seat: int) -> list[int]:
    """The seat's hand and 奥秘 cards whose face the group does not know."""
    return [c for c in [*g.hand(seat), *g.secrets(seat)] if -1 not in g.state.known.get(c, [])]


async def test_two_humans_and_two_ai_seats_play_to_the_end(app: App) -> None:
    await run(app, ".moe new 双王国 AI 2", user=HOST, group=G)
    await run(app, ".moe join", user=FRIEND, group=G)
    log = list(await run(app, ".moe start", user=HOST, group=G))
    state, g = await game(app)
    ai = [p.seat for p in g.state.players if is_ai_user(p.user)]
    assert len(ai) == 2 and all(g.p(s).auto for s in ai)
    for u in (HOST, FRIEND):  # the humans choose at once, in private
        log += await run(app, ".moe choose 1", user=u, group=None)
    for _ in range(3000):
        state, g = await game(app)
        if state["status"] == "over":
            break
        assert g.pending is not None and not set(g.pending.waiting) & set(ai), "an AI seat was waited for"
        user, text = moe_answer(state, g)
        got = await run(app, text, user=user, group=G)
        got += [r for _scope, rs in await moe.sweep(app) for r in rs]  # what the outbox held
        _state, after = await game(app)
        faces = {card_text(after, c) for s in ai for c in hidden_of(after, s)}  # still hidden now
        for r in got:
            assert not (r.private and is_ai_user(r.to_user or "")), r.text
            if not r.private:
                assert not [f for f in faces if f in r.text], r.text
        log += got
    state, g = await game(app)
    assert state["status"] == "over" and g.state.winners
    assert "游戏结束" in "\n".join(r.text for r in log if not r.private)
    sources = {i.get("source") for i in g.inputs if i.get("seat") in ai and "admin" not in i}
    assert sources == {"auto"}
