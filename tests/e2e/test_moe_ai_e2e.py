"""萌E with AI seats end to end (issue 27): ``python bot.py`` over a real reverse WebSocket, two
humans open 双王国 with two AI seats (``.moe new 双王国 AI 1`` then ``.moe ai 2`` on a phone),
play simple legal moves to the end — and no AI hand or 奥秘 card ever appears in a group
message, nothing is ever sent to an AI seat, and the group is never told one cannot be messaged."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import Any

import pytest
from onebot_client import ApiCall, BotProcess, OneBotClient

from chronodice.render.moe import card_text
from chronodice.rules.moe.ai import is_ai_user
from chronodice.rules.moe.record import rebuild

pytestmark = pytest.mark.e2e

G = 20007
HOST, FRIEND = 40021, 40022


def load(bot: BotProcess) -> tuple[dict[str, Any], Any]:
    con = sqlite3.connect(bot.workdir / "chronodice.db")
    try:
        (raw,) = con.execute(
            "SELECT state FROM sessions WHERE scope=? AND system='moe'", (str(G),)
        ).fetchone()
    finally:
        con.close()
    state = json.loads(raw) if isinstance(raw, str) else raw
    return state, rebuild(state["record"])


def ai_hidden_faces(g: Any) -> set[str]:
    """Faces of the AI seats' cards the group does not know (hands and 奥秘)."""
    return {
        card_text(g, c)
        for p in g.state.players
        if is_ai_user(p.user)
        for c in [*g.hand(p.seat), *g.secrets(p.seat)]
        if -1 not in g.state.known.get(c, [])
    }


def human_answer(state: dict[str, Any], g: Any) -> tuple[int, str]:
    """A simple legal answer of the human the open request waits for, typed in the group."""
    ask = g.pending
    seat = next(s for s in ask.waiting if not is_ai_user(state["players"][s]["user"]))
    mine = ask.for_seat(seat)
    user = int(state["players"][seat]["user"])
    k = mine.kind
    if k == "play":
        return user, ".moe end"
    if k == "invoke":
        return user, ".moe no"
    if k in ("respond", "distribute"):
        return user, ".moe pass"
    if k in ("choose_cards", "choose_blind", "choose_players", "arrange"):
        n = len(mine.options) if k == "arrange" else max(mine.lo, 1)
        return user, ".moe choose " + " ".join(str(i + 1) for i in range(n))
    return user, ".moe choose 1"


async def say(client: OneBotClient, text: str, user: int, *, private: bool = False) -> list[ApiCall]:
    try:
        return await client.send(
            text, user=user, group=None if private else G, card=f"玩家{user % 100}", timeout=4
        )
    except asyncio.TimeoutError:  # a step the feed holds back from the group may answer nothing
        return []


async def test_two_humans_and_two_ai_seats_to_the_end(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as client:
        opened = "".join(c.text for c in await say(client, ".moe new 双王国 AI 1", HOST))
        assert "创建了萌E对局" in opened and "AI·1" in opened
        assert "「x」不是有效的AI人数" in "".join(c.text for c in await say(client, ".moe ai x", HOST))
        assert "AI·1、AI·2" in "".join(c.text for c in await say(client, ".moe ai 2", HOST))
        assert "加入了萌E对局（4人）" in "".join(c.text for c in await say(client, ".moe join", FRIEND))
        await say(client, ".moe start", HOST)
        state, g = load(bot_process)
        ai = {p.seat for p in g.state.players if is_ai_user(p.user)}
        assert len(ai) == 2 and all(g.p(s).auto for s in ai)
        for u in (HOST, FRIEND):  # both choose at once, in private
            await say(client, ".moe choose 1", u, private=True)
        await asyncio.sleep(2.5)  # the sweeper delivers the group part of the private choices
        for _ in range(600):
            state, g = load(bot_process)
            if state["status"] == "over":
                break
            assert g.pending is not None and not set(g.pending.waiting) & ai
            user, text = human_answer(state, g)
            calls = await say(client, text, user)
            _state, after = load(bot_process)
            faces = ai_hidden_faces(after)
            for c in calls:
                if c.to_group:
                    assert not [f for f in faces if f in c.text], c.text
        state, g = load(bot_process)
        assert state["status"] == "over" and g.state.winners
        await asyncio.sleep(2.5)  # the last texts the outbox holds
        group = [c.text for c in client.all_calls if c.to_group]
        assert any("游戏结束" in t for t in group)
        assert not any("无法私聊" in t for t in group)
        assert not any(
            c.is_private and not str(c.params.get("user_id", "")).isdigit() for c in client.all_calls
        )
        sources = {i.get("source") for i in g.inputs if i.get("seat") in ai and "admin" not in i}
        assert sources == {"auto"}
