"""Handing one's seat to the AI (issue 44): ``.moe quit`` in a team game offers the two ways
(``.moe quit 确认`` concedes as before, ``.moe quit ai`` hands the seat over); a handed seat
plays on as an AI seat to the end, its player sent nothing more and its hand never named in the
group; outside team games ``.moe quit`` still concedes at once."""

from __future__ import annotations

from typing import Any

from helpers import moe_answer, moe_started, run, say
from helpers import moe_game as game

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.render.moe import card_text
from chronodice.render.moe_text import seat_label
from chronodice.rules.moe.ai import is_ai
from chronodice.rules.moe.record import rebuild, replay_full

G = "20002"
USERS = ("30001", "30002", "30003", "30004")
OFFER = (
    "PL{n}，你还有队友在场，投降会让队伍少一人。请选择：\n"
    ".moe quit 确认  投降（本局出局）\n"
    ".moe quit ai  把座位交给AI，由AI代为出牌至本局结束"
)
AI_SEAT = "你的座位已交给AI，本局由AI代为出牌"


def group_text(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if not r.private)


async def team_game(app: App) -> None:
    """Four players on 双王国 (two teams of two), characters chosen, the first turn begun."""
    await run(app, ".moe new 双王国", user=USERS[0], group=G)
    for u in USERS[1:]:
        await run(app, ".moe join", user=u, group=G)
    await run(app, ".moe start", user=USERS[0], group=G)
    for u in USERS:
        await run(app, ".moe choose 1", user=u, group=None)
    await moe.sweep(app)


def hidden_of(g: Any, seat: int) -> list[int]:
    """The seat's hand and 奥秘 cards whose face the group does not know."""
    return [c for c in [*g.hand(seat), *g.secrets(seat)] if -1 not in g.state.known.get(c, [])]


async def test_quit_in_a_team_game_offers_the_two_ways_and_concedes_nothing(app: App) -> None:
    await team_game(app)
    state, g = await game(app)
    user = state["players"][1]["user"]
    before = len(g.inputs)
    replies = await run(app, ".moe quit", user=user, group=G)
    assert [(r.text, r.private) for r in replies] == [(OFFER.format(n=user[-2:]), False)]
    assert group_text(await run(app, ".moe 投降", user=user, group=G)) == OFFER.format(n=user[-2:])
    state, g = await game(app)
    assert state["status"] == "running" and len(g.inputs) == before
    assert g.p(1).alive and not g.p(1).auto and not g.p(1).flags.get("conceded")
    # 确认: the surrender of before
    text = await say(app, ".moe quit 确认", user=user, group=G)
    assert f"2号PL{user[-2:]}" in text and "投降了" in text
    _state, g = await game(app)
    assert g.p(1).flags.get("conceded") and g.inputs[before]["admin"] == "concede"


async def test_a_seat_handed_to_the_ai_plays_on_to_the_end(app: App) -> None:
    await team_game(app)
    state, g = await game(app)
    seat = 1
    user = state["players"][seat]["user"]
    team = [s for s in range(4) if g.p(s).team == g.p(seat).team]
    assert len(team) == 2
    before = len(g.inputs)
    got = await run(app, ".moe quit ai", user=user, group=G)
    got += [r for _scope, rs in await moe.sweep(app) for r in rs]
    label = seat_label(g, seat, [p["name"] for p in state["players"]])
    assert group_text(got) == f"{label}将座位交给了AI，由AI代为出牌至本局结束"
    assert "投降" not in group_text(got)
    assert not [r for r in got if r.private and r.to_user == user]
    state, g = await game(app)
    assert g.inputs[before] == {"admin": "ai", "seat": seat}
    assert is_ai(g, seat) and g.p(seat).auto and not g.p(seat).flags.get("conceded")
    # the player can no longer act for the seat, nor take it back, nor concede it
    for text in (".moe end", ".moe auto off", ".moe auto", ".moe quit", ".moe quit 确认", ".moe quit ai"):
        assert await say(app, text, user=user, group=G) == AI_SEAT, text
    log = list(got)
    for _ in range(3000):
        state, g = await game(app)
        if state["status"] == "over":
            break
        assert g.pending is not None and seat not in g.pending.waiting, "the handed seat was waited for"
        who, text = moe_answer(state, g)
        got = await run(app, text, user=who, group=G)
        got += [r for _scope, rs in await moe.sweep(app) for r in rs]  # what the outbox held
        _state, after = await game(app)
        faces = {card_text(after, c) for c in hidden_of(after, seat)}  # still hidden now
        for r in got:
            assert not (r.private and r.to_user == user), r.text  # nothing more to its player
            if not r.private:
                assert not [f for f in faces if f in r.text], r.text
        log += got
    state, g = await game(app)
    assert state["status"] == "over" and g.state.winners
    assert "游戏结束" in group_text(log)
    mine = [i for i in g.inputs[before + 1 :] if i.get("seat") == seat and "admin" not in i]
    assert mine and {i["source"] for i in mine} == {"auto"}
    acted = [i for i in mine if isinstance(i["answer"], dict) and i["answer"].get("a") in ("card", "skill")]
    assert acted, "the AI played the seat's cards for its team"
    assert not g.p(seat).flags.get("conceded")  # the team was never a seat down by a surrender
    assert not [e for e in g.inputs if e.get("admin") == "concede"]
    rec = state["record"]
    assert rebuild(rec).state.digest() == replay_full(rec).state.digest() == g.state.digest()


async def test_outside_team_games_quit_concedes_at_once(app: App) -> None:
    await moe_started(app, G, USERS[:2])
    await moe.sweep(app)  # the sweeper sends the group part of the private choices first
    state, g = await game(app)
    assert len(g.state.players) == 2 and {p.team for p in g.state.players} == {-1}
    user = state["players"][0]["user"]
    text = await say(app, ".moe quit", user=user, group=G)
    assert "投降了" in text and "请选择" not in text
    state, g = await game(app)
    assert g.p(0).flags.get("conceded")


async def test_quit_ai_works_in_a_free_for_all_and_from_private_chat(app: App) -> None:
    await moe_started(app, G, USERS[:3])
    await moe.sweep(app)
    state, g = await game(app)
    user = state["players"][2]["user"]
    replies = await run(app, ".moe quit ai", user=user, group=None)
    assert replies[0].text == "已将你的座位交给AI，由AI代为出牌至本局结束；之后不再私聊你本局的消息"
    assert not [r for r in replies if "将座位交给了AI" in r.text]  # the group's line waits in the outbox
    public = "\n".join(r.text for _scope, rs in await moe.sweep(app) for r in rs if not r.private)
    label = seat_label(g, 2, [p["name"] for p in state["players"]])
    assert f"{label}将座位交给了AI，由AI代为出牌至本局结束" in public
    _state, g = await game(app)
    assert is_ai(g, 2) and not g.p(2).flags.get("conceded")


async def test_quit_ai_from_someone_not_in_the_game_is_refused(app: App) -> None:
    assert await say(app, ".moe quit ai", user="39999", group=G) == "没有进行中的萌E游戏"
    await moe_started(app, G, USERS[:2])
    assert await say(app, ".moe quit ai", user="39999", group=G) == "你不在这局萌E游戏中"
    assert await say(app, ".moe quit ai", user="39999", group=None) == "你没有正在进行的萌E游戏"
    assert await say(app, ".moe quit", user="39999", group=G) == "你不在这局萌E游戏中"
