"""萌E with AI seats end to end (issue 27): ``python bot.py`` over a real reverse WebSocket, two
humans open 双王国 with two AI seats (``.moe new 双王国 AI 1`` then ``.moe ai 2`` on a phone),
play simple legal moves to the end — and no AI hand or 奥秘 card ever appears in a group
message, nothing is ever sent to an AI seat, and the group is never told one cannot be messaged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from moe_table import MoeTable, fast_bot, load
from onebot_client import BotProcess, OneBotClient

from chronodice.render.moe import card_text
from chronodice.rules.moe.ai import is_ai_user

pytestmark = pytest.mark.e2e


@pytest.fixture
def bot_process(tmp_path: Path) -> Iterator[BotProcess]:
    """The bot without flood control (answers at machine speed)."""
    yield from fast_bot(tmp_path)


G = 20007
HOST, FRIEND = 40021, 40022


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


async def test_two_humans_and_two_ai_seats_to_the_end(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as client:
        t = MoeTable(client, bot_process, G)

        async def said(text: str, user: int) -> str:
            return "".join(c.text for c in await t.act(text, user, moves=False))

        opened = await said(".moe new 双王国 AI 1", HOST)
        assert "创建了萌E对局" in opened and "AI·1" in opened
        assert "「x」不是有效的AI人数" in await said(".moe ai x", HOST)
        assert "AI·1、AI·2" in await said(".moe ai 2", HOST)
        assert "加入了萌E对局（4人）" in await said(".moe join", FRIEND)
        await t.act(".moe start", HOST)
        t.started = True  # from now on no group message names a card hidden from anyone
        state, g = load(bot_process, G)
        ai = {p.seat for p in g.state.players if is_ai_user(p.user)}
        assert len(ai) == 2 and all(g.p(s).auto for s in ai)
        for u in (HOST, FRIEND):  # both choose at once, in private
            await t.act(".moe choose 1", u, private=True)
        await t.drained()  # the sweeper delivers the group part of the private choices
        for _ in range(600):
            state, g = load(bot_process, G)
            if state["status"] == "over":
                break
            assert g.pending is not None and not set(g.pending.waiting) & ai
            user, text = human_answer(state, g)
            calls = await t.act(text, user)
            _state, after = load(bot_process, G)
            faces = ai_hidden_faces(after)
            for c in calls:
                if c.to_group:
                    assert not [f for f in faces if f in c.text], c.text
        state, g = load(bot_process, G)
        assert state["status"] == "over" and g.state.winners
        await t.drained()  # the last texts the outbox holds
        group = [c.text for c in client.all_calls if c.to_group]
        assert any("游戏结束" in x for x in group)
        assert not any("无法私聊" in x for x in group)
        assert not any(
            c.is_private and not str(c.params.get("user_id", "")).isdigit() for c in client.all_calls
        )
        sources = {i.get("source") for i in g.inputs if i.get("seat") in ai and "admin" not in i}
        assert sources == {"auto"}
