"""萌E end to end in two groups at once over the real WebSocket: both play, the bot stops, group
A's stored game gets a changed pack hash (as if its pack had been edited), the bot starts again —
group B's timeouts keep firing, group A is told once why its game cannot go on and how, the
cause is logged, ``.moe recover`` puts A back on its feet and A's timeouts fire again.  No group
message ever names a card hidden from some player at that moment."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from typing import Any

import pytest
from moe_table import load_state
from onebot_client import ApiCall, BotProcess, OneBotClient

from chronodice.render.moe import card_text
from chronodice.rules.moe.record import rebuild
from chronodice.rules.moe.state import ALL
from chronodice.services.moe.numbers import card_number as num

pytestmark = pytest.mark.e2e

GA, GB = 20011, 20012
USERS = {GA: [41001, 41002, 41003], GB: [42001, 42002, 42003]}


def load(bot: BotProcess, group: int, *, check_pack: bool = True) -> tuple[dict[str, Any], Any]:
    state = load_state(bot, group)
    if state is None:
        raise TypeError(f"no 萌E session in group {group} yet")
    return state, rebuild(state["record"], check_pack=check_pack)


def corrupt_pack_hash(bot: BotProcess, group: int) -> None:
    con = sqlite3.connect(bot.workdir / "chronodice.db")
    try:
        (raw,) = con.execute(
            "SELECT state FROM sessions WHERE scope=? AND system='moe'", (str(group),)
        ).fetchone()
        state = json.loads(raw)
        state["record"]["pack_hash"] = "f" * 16
        con.execute(
            "UPDATE sessions SET state=? WHERE scope=? AND system='moe'",
            (json.dumps(state, ensure_ascii=False), str(group)),
        )
        con.commit()
    finally:
        con.close()


def hidden_faces(g: Any) -> set[str]:
    """Faces of cards hidden from some player now, less faces also on a card all know."""
    public = {card_text(g, c) for c, k in g.state.known.items() if ALL in k}
    return {card_text(g, c) for c in g.state.cards if ALL not in g.state.known.get(c, ())} - public


class Tables:
    def __init__(self, client: OneBotClient, bot: BotProcess) -> None:
        self.client = client
        self.bot = bot
        self.checked = 0

    def group_msgs(self, group: int, since: int = 0) -> list[ApiCall]:
        return [
            c
            for c in self.client.all_calls[since:]
            if c.to_group and int(c.params.get("group_id", 0)) == group
        ]

    def check_no_leak(self) -> None:
        """Every group message not checked yet, against the cards hidden in its group now."""
        calls = self.client.all_calls
        for group in (GA, GB):
            try:
                _state, g = load(self.bot, group, check_pack=False)
            except (TypeError, AttributeError):  # no game (or no record) in that group yet
                continue
            faces = hidden_faces(g)
            for c in self.group_msgs(group, self.checked):
                leaked = [f for f in faces if f in c.text]
                assert not leaked, (group, leaked, c.text)
        self.checked = len(calls)

    async def say(self, text: str, user: int, group: int | None) -> list[ApiCall]:
        """Send ``text``; an answer may get no reply at all (its step is held for the group's
        next message and brings its sender nothing new), so a silence of 3 s is an answer."""
        try:
            calls = await self.client.send(
                text, user=user, group=group, card=f"玩家{user % 100}", timeout=3.0
            )
        except TimeoutError:
            calls = []
        self.check_no_leak()
        return calls

    async def answer(self, group: int) -> None:
        """One sensible answer to the group's open request."""
        state, g = load(self.bot, group)
        ask = g.pending
        user = int(state["players"][ask.seat]["user"])
        if ask.kind == "play":
            opt = next(
                (o for o in ask.options if o["a"] == "card" and o["mode"] == "one" and not o.get("as")), None
            )
            if opt is not None:
                name = g.cdef(g.card(opt["card"]).key).name
                await self.say(f".moe play {name} {opt['targets'][0] + 1}号", user, group)
                return
            await self.say(".moe end", user, group)
        elif ask.kind == "respond" and not ask.options:  # asked all the same: nothing to answer with
            await self.say(".moe pass", user, group)
        elif ask.kind == "respond":
            await self.say(f".moe resp {num(state, g, ask.seat, ask.options[0])}", user, group)
        elif ask.kind == "invoke":
            await self.say(".moe yes", user, group)
        elif ask.kind == "choose_players":
            await self.say(f".moe choose {ask.options[0] + 1}", user, group)
        elif ask.kind == "arrange":
            await self.say(
                ".moe choose " + " ".join(str(i + 1) for i in range(len(ask.options))), user, group
            )
        elif ask.kind in ("distribute",) or (ask.optional and ask.kind != "choose_cards"):
            await self.say(".moe pass", user, group)
        else:
            private = ask.reason in ("pindian", "character")
            await self.say(
                ".moe choose " + " ".join(str(i + 1) for i in range(ask.lo)), user, None if private else group
            )

    async def open_game(self, group: int) -> None:
        users = USERS[group]
        await self.say(".moe new 乱斗森林", users[0], group)
        for u in users[1:]:
            await self.say(".moe join", u, group)
        await self.say(".moe start", users[0], group)
        for _ in users:
            state, g = load(self.bot, group)
            assert g.pending.reason == "character"
            await self.say(".moe choose 1", int(state["players"][g.pending.seat]["user"]), None)


@pytest.fixture
def bot_env() -> dict[str, str]:
    """The sweeper every 50 ms: the test waits for what it delivers, not for its period."""
    return {"CHRONODICE_MOE_SWEEP_SECONDS": "0.05"}


async def wait_for(pred: Any, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        await asyncio.sleep(0.05)
    return pred()


async def test_two_groups_one_with_a_changed_pack_after_restart(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as client:
        t = Tables(client, bot_process)
        await t.open_game(GA)
        await t.open_game(GB)
        for _ in range(8):  # both groups play, interleaved
            await t.answer(GA)
            await t.answer(GB)
        # the sweeper delivers the group part of private commands
        assert await wait_for(
            lambda: not any((load_state(bot_process, g) or {}).get("outbox") for g in (GA, GB)), 10
        )
        t.check_no_leak()
        for group in (GA, GB):
            text = "".join(c.text for c in await t.say(".moe timeout 10", USERS[group][0], group))
            assert "已设置超时为10秒" in text
        _state, ga = load(bot_process, GA)
        digest_a = ga.state.digest()
    bot_process.stop()
    corrupt_pack_hash(bot_process, GA)  # as if group A's pack had been edited meanwhile

    bot_process.start()
    async with OneBotClient(bot_process.url) as client:
        t = Tables(client, bot_process)
        # B's timeouts keep firing; A is told once why its game cannot go on, and how
        for n in (1, 2):  # the bot's clock moves past each 10 s deadline: no waiting for it
            bot_process.advance_clock(11)
            assert await wait_for(lambda n=n: sum("超时" in c.text for c in t.group_msgs(GB)) >= n, 10)
        told = [c.text for c in t.group_msgs(GA)]
        assert len(told) == 1, told
        assert "卡包内容在对局开始后被修改" in told[0] and ".moe recover" in told[0]
        assert not any("超时" in c.text for c in t.group_msgs(GA))
        t.check_no_leak()
        assert f"group {GA} does not rebuild (pack_changed)" in bot_process.log_tail(400)
        text = "".join(c.text for c in await t.say(".moe state", USERS[GA][1], GA))
        assert "无法继续" in text and "血量" not in text
        assert "房主或GM" in "".join(c.text for c in await t.say(".moe recover", USERS[GA][1], GA))
        text = "".join(c.text for c in await t.say(".moe recover", USERS[GA][0], GA))
        assert "存档完整，已按当前卡包继续" in text
        state, ga = load(bot_process, GA)
        assert ga.state.digest() == digest_a and state["deadline"] is not None
        # A's clock runs again, B's never stopped
        before = len(client.all_calls)
        bot_process.advance_clock(11)  # past A's new 10 s deadline
        assert await wait_for(lambda: any("超时" in c.text for c in t.group_msgs(GA, before)), 10)
        t.check_no_leak()
