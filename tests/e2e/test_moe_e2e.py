"""萌E end to end: ``python bot.py`` over a real reverse WebSocket, three players, a SIGKILL in
the middle of a settlement, then everyone on 托管 until a winner is announced in the group —
and no hand content ever sent to the group; four players whose every attack opens the same
response window whoever holds 防御 (issue 27)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from moe_table import load_state
from onebot_client import BotProcess, OneBotClient

from chronodice.render.moe import card_text
from chronodice.rules.moe.record import rebuild
from chronodice.services.moe.numbers import card_number as num

pytestmark = pytest.mark.e2e

G = 20002
USERS = [40001, 40002, 40003]


@pytest.fixture
def bot_env() -> dict[str, str]:
    """The sweeper every 50 ms: the test waits for what it delivers, not for its period."""
    return {"CHRONODICE_MOE_SWEEP_SECONDS": "0.05"}


async def until(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Poll ``check`` until it holds (what the sweeper does) instead of a fixed wait."""
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"{what}: not after {timeout}s"
        await asyncio.sleep(0.05)


def drained(bot: BotProcess) -> bool:
    """The sweeper delivered the outbox (the group part of commands typed in private)."""
    return not (load_state(bot, G) or {}).get("outbox")


def load(bot: BotProcess) -> tuple[dict[str, Any], Any]:
    state = load_state(bot, G)
    assert state is not None
    return state, rebuild(state["record"])


def hidden_faces(g: Any) -> set[str]:
    return {
        card_text(g, c)
        for p in g.state.players
        for c in [*g.hand(p.seat), *g.secrets(p.seat)]
        if -1 not in g.state.known.get(c, [])
    }


class Table:
    def __init__(self, client: OneBotClient, bot: BotProcess) -> None:
        self.client = client
        self.bot = bot

    async def say(self, text: str, user: int, *, private: bool = False, silent: bool = False) -> list[Any]:
        """Send ``text``; ``silent``: an answer that may get no reply at all (a pass in a
        window: no bare acknowledgement), so wait only briefly."""
        try:
            calls = await self.client.send(
                text,
                user=user,
                group=None if private else G,
                card=f"玩家{user % 100}",
                timeout=3.0 if silent else 10.0,
            )
        except TimeoutError:
            if not silent:
                raise
            calls = []
        if self.started:
            self.check_no_leak(calls)
        return calls

    started = False

    def check_no_leak(self, calls: list[Any]) -> None:
        _state, g = load(self.bot)
        faces = hidden_faces(g)
        for c in calls:
            if c.to_group:
                leaked = [f for f in faces if f in c.text]
                assert not leaked, (leaked, c.text)

    def answer_for(self, state: dict[str, Any], g: Any) -> tuple[int, str, bool]:
        """A sensible chat answer to the open request: (user, text, in private?)."""
        ask = g.pending
        user = int(state["players"][ask.seat]["user"])
        hand = g.hand(ask.seat)
        k = ask.kind
        if k == "play":
            return user, ".moe end", False
        if k == "respond":  # everyone who could answer is asked: pass when nothing fits
            if not ask.options or ask.reason == "secret":
                return user, ".moe pass", False
            return user, f".moe resp {num(state, g, ask.seat, ask.options[0])}", False
        if k == "invoke":
            return user, ".moe no", False
        if k == "choose_cards":
            pos = (
                [num(state, g, ask.seat, c) for c in ask.options[: ask.lo]]
                if all(c in hand for c in ask.options)
                else []
            )
            return (
                user,
                ".moe choose " + " ".join(map(str, pos or range(1, ask.lo + 1))),
                ask.reason == "pindian",
            )
        if k == "choose_players":
            return user, f".moe choose {ask.options[0] + 1}", False
        if k == "choose_blind":
            return user, ".moe choose " + " ".join(str(i + 1) for i in range(ask.lo)), False
        if k == "arrange":
            return user, ".moe choose " + " ".join(str(i + 1) for i in range(len(ask.options))), False
        if k == "distribute":
            return user, ".moe pass", False
        return user, ".moe choose 1", ask.reason == "character"


async def test_three_players_restart_and_autoplay_to_a_winner(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as client:
        t = Table(client, bot_process)
        assert "创建了萌E对局" in "".join(c.text for c in await t.say(".moe new 乱斗森林", USERS[0]))
        for u in USERS[1:]:
            assert any("加入了" in c.text for c in await t.say(".moe join", u))
        calls = await t.say(".moe start", USERS[0])
        assert any(c.to_group and "地图机制牌：【乱斗森林】" in c.text for c in calls)
        t.started = True
        # characters are chosen in private, one after another
        for _ in USERS:
            state, g = load(bot_process)
            assert g.pending.reason == "character"
            user = int(state["players"][g.pending.seat]["user"])
            await t.say(".moe choose 1", user, private=True)
        await until(lambda: drained(bot_process), "the group part of private commands")
        got = [c for c in client.all_calls if c.is_private and "你获得了" in c.text]
        assert {int(c.params["user_id"]) for c in got} == set(USERS)

        # play until a card is used on someone who is asked to answer it
        asked = None
        for _ in range(80):
            state, g = load(bot_process)
            ask = g.pending
            if ask.kind == "respond" and ask.options and ask.reason != "secret":
                asked = (state, g)
                break
            if ask.kind == "play":
                user = int(state["players"][ask.seat]["user"])
                opt = next((o for o in ask.options if o["a"] == "card" and o["mode"] == "one"), None)
                if opt is not None:
                    n = num(state, g, ask.seat, opt["card"])
                    calls = await t.say(
                        f".moe play {n}{' 当' if opt.get('as') else ''} {opt['targets'][0] + 1}号", user
                    )
                    assert any("使用了" in c.text for c in calls)  # the group, or the actor at once
                    continue
            user, text, private = t.answer_for(state, g)
            await t.say(text, user, private=private, silent=True)
        assert asked is not None, "no card was answered"
        state, g = asked
        responder = int(state["players"][g.pending.seat]["user"])
        digest = g.state.digest()
        serial = g.pending.serial
        bot_process.kill()  # in the middle of a settlement: a use waits for its answer

    bot_process.start()
    async with OneBotClient(bot_process.url) as client:
        t = Table(client, bot_process)
        t.started = True
        state, g = load(bot_process)
        assert g.state.digest() == digest and g.pending.serial == serial
        assert "已设置超时为10秒" in "".join(c.text for c in await t.say(".moe timeout 10", USERS[0]))
        _u, text, _p = t.answer_for(state, g)
        calls = await t.say(text, responder)
        assert any("使用了" in c.text for c in calls), [c.text for c in calls]
        state, g = load(bot_process)
        assert g.pending is None or g.pending.serial != serial
        # nobody answers the next request: the sweeper applies the default after its deadline
        before = len(client.all_calls)
        bot_process.advance_clock(11)  # past the 10 s deadline, without waiting for it
        await until(
            lambda: any(c.to_group and "超时" in c.text for c in client.all_calls[before:]), "a timeout"
        )
        state, g = load(bot_process)
        assert any(i.get("source") == "timeout" for i in g.inputs)
        # a player whose private messages fail: the group is told, without content
        client.fail_private.add(USERS[1])
        calls = await t.say(".moe hand", USERS[1])
        assert any(c.to_group and "无法私聊" in c.text for c in calls)
        assert not any(c.to_group and "手牌：" in c.text for c in calls)
        client.fail_private.clear()
        # everyone on 托管: the game runs to a winner announced in the group
        for u in USERS:
            state, g = load(bot_process)
            if g.finished:
                break
            await t.say(".moe auto", u)
        await until(
            lambda: (
                load(bot_process)[0]["status"] == "over"
                and any(c.to_group and "游戏结束" in c.text for c in client.all_calls)
            ),
            "the game over, announced in the group",
        )
        state, g = load(bot_process)
        assert state["status"] == "over" and g.state.winners is not None


USERS4 = [40011, 40012, 40013, 40014]


async def test_four_players_every_attack_opens_the_same_window(bot_process: BotProcess) -> None:
    """Issue 27 over the WebSocket, read as a spectator: every card with a response opens the
    same window whether or not anybody holds the answer, everyone asked declines in private,
    and the group hears nothing until the window is decided — then one text for what followed."""
    async with OneBotClient(bot_process.url) as client:
        t = Table(client, bot_process)
        await t.say(".moe new 乱斗森林", USERS4[0])
        for u in USERS4[1:]:
            await t.say(".moe join", u)
        await t.say(".moe start", USERS4[0])
        t.started = True
        for _ in USERS4:
            state, g = load(bot_process)
            await t.say(".moe choose 1", int(state["players"][g.pending.seat]["user"]), private=True)
        await until(lambda: drained(bot_process), "the group part of the private choices")
        windows = {"held": 0, "empty": 0}
        for _ in range(150):
            state, g = load(bot_process)
            if g.pending is None or sum(windows.values()) >= 6:
                break
            ask = g.pending
            user = int(state["players"][ask.seat]["user"])
            if ask.kind == "play":
                opt = next((o for o in ask.options if o["a"] == "card" and o["mode"] == "one"), None)
                if opt is None or g.cdef(g.card(opt["card"]).key).offset_by == []:
                    await t.say(".moe end", user, silent=True)
                    continue
                target = opt["targets"][0]
                holds = any(
                    g.card(c).key in g.cdef(g.card(opt["card"]).key).offset_by for c in g.hand(target)
                )
                n = num(state, g, ask.seat, opt["card"])
                calls = await t.say(f".moe play {n} {target + 1}号", user)
                # the same whether or not the target holds 防御: the window always opens, and
                # the group hears the card with its outcome (one message per action)
                assert not [c.text for c in calls if c.to_group]
                assert any("使用了" in c.text for c in calls if not c.to_group)  # the actor
                windows["held" if holds else "empty"] += 1
                while True:  # everyone asked declines in private: the group hears nothing
                    state, g = load(bot_process)
                    if g.pending is None or g.pending.kind != "respond":
                        break
                    *first, last = g.pending.waiting
                    before = len(client.all_calls)
                    for seat in first:
                        await t.say(
                            ".moe pass", int(state["players"][seat]["user"]), private=True, silent=True
                        )
                    assert not any(c.to_group for c in client.all_calls[before:])
                    await t.say(".moe pass", int(state["players"][last]["user"]), private=True, silent=True)
                    await until(lambda: drained(bot_process), "the outcome, through the outbox")
                continue
            _u, text, private = t.answer_for(state, g)
            await t.say(text, user, private=private, silent=True)
        assert windows["empty"] >= 1, windows
        # group messages per turn: a turn's messages run from the one that starts it to the next
        group = [c.text for c in client.all_calls if c.to_group and "萌E" not in c.text[:4]]
        per_turn: list[int] = []
        for text in group:
            if "的回合" in text:
                per_turn.append(0)
            if per_turn:
                per_turn[-1] += 1
        assert len(per_turn) >= 4 and max(per_turn[:-1]) <= 3, per_turn  # the last may be open
