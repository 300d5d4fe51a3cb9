"""Exactly once and the right account, over the real reverse WebSocket: an event delivered
twice is applied once (same process, after a reconnect, after a SIGKILL and restart), and with
two bot accounts in one group exactly one answers each command, another taking over when it
goes away."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from onebot_client import BotProcess, OneBotClient

pytestmark = pytest.mark.e2e

G = 20002


@pytest.fixture
def bot_env() -> dict[str, str]:
    """萌E's sweeper every 0.2 s: a timeout the test's clock passes is applied at once."""
    return {"CHRONODICE_MOE_SWEEP_SECONDS": "0.2"}


async def count(client: OneBotClient, user: int) -> int:
    text = await client.group(".st show", user=user, expect=1)
    m = re.search(r"计数:(\d+)", text)
    assert m, text
    return int(m.group(1))


async def test_event_delivered_twice_is_applied_once(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as client:
        assert "计数:0" in await client.group(".st 计数:0", user=41001, expect=1)
        assert "→1" in await client.group(".st 计数+1", user=41001, expect=1, message_id=777001)
        # the same event again on the same connection: silent, not applied
        assert await client.send(".st 计数+1", user=41001, expect=0, message_id=777001) == []
    async with OneBotClient(bot_process.url) as client:  # re-sent after a reconnect
        assert await client.send(".st 计数+1", user=41001, expect=0, message_id=777001) == []
        assert await count(client, 41001) == 1
        assert "→2" in await client.group(".st 计数+1", user=41001, expect=1, message_id=777002)
        bot_process.kill()  # right after the reply: the claim was committed with the write
    bot_process.start()
    async with OneBotClient(bot_process.url) as client:
        assert await client.send(".st 计数+1", user=41001, expect=0, message_id=777002) == []
        assert await count(client, 41001) == 2
        # another account's message with the same number is another event
        async with OneBotClient(bot_process.url, self_id=654321) as other:
            await other.send(".st 计数+1", user=41001, group=G + 1, expect=1, message_id=777002)
        assert await count(client, 41001) == 3


async def test_session_command_delivered_twice_plays_once(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as client:
        assert "新战斗" in await client.group(".init begin", user=41002, expect=1)
        assert "甲 加入" in await client.group(".init add 甲 12", user=41002, expect=1, message_id=888001)
    async with OneBotClient(bot_process.url) as client:  # the implementation re-sends it
        assert await client.send(".init add 甲 12", user=41002, expect=0, message_id=888001) == []
        assert "1名参战者" in await client.group(".init", user=41002, expect=1)
        assert "已撤销：.init add 甲 12" in await client.group(".undo", user=41002, expect=1)
        # only one was applied: the next undo reaches the command before it
        assert "已撤销：.init begin" in await client.group(".undo", user=41002, expect=1)


def _answers(*clients: OneBotClient) -> list[tuple[int, str]]:
    return [(c.self_id, call.text) for c in clients for call in c.all_calls if call.to_group]


async def _both(a: OneBotClient, b: OneBotClient, text: str, user: int) -> None:
    """A message in a group both accounts are in: each account receives it (own message id)."""
    await asyncio.gather(a.post(text, user=user), b.post(text, user=user))


async def _wait_answers(clients: tuple[OneBotClient, ...], n: int, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while len(_answers(*clients)) < n:
        assert asyncio.get_running_loop().time() < deadline, _answers(*clients)
        await asyncio.sleep(0.05)


async def test_two_accounts_in_one_process_exactly_one_answers(bot_process: BotProcess) -> None:
    a = OneBotClient(bot_process.url, self_id=111111)
    b = OneBotClient(bot_process.url, self_id=222222)
    await a.connect()
    await b.connect()
    try:
        for i in range(30):
            await _both(a, b, ".r 1d100", 42000 + i)
        await _wait_answers((a, b), 30)
        await asyncio.gather(a.settled(), b.settled())  # both accounts handled all: no late answer
        got = _answers(a, b)
        assert len(got) == 30, got
        serving = {sid for sid, _t in got}
        assert len(serving) == 1, serving
        holder, other = (a, b) if serving == {a.self_id} else (b, a)
        await holder.close()  # it goes away: the other account answers at once
        await asyncio.sleep(0.3)
        calls = await other.send(".r 1d6", user=42100, expect=1)
        assert calls[0].to_group and "1d6" in calls[0].text
    finally:
        await a.close()
        await b.close()


async def test_two_processes_two_accounts_take_over_after_a_crash(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    env = {"CHRONODICE_LEASE_SECONDS": "30", "CHRONODICE_RNG_SEED": "3"}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    pa = BotProcess(workdir=tmp_path / "a", database_url=db, extra_env=env)
    pb = BotProcess(workdir=tmp_path / "b", database_url=db, extra_env=env)
    pa.start()
    pb.start()
    a = OneBotClient(pa.url, self_id=111111)
    b = OneBotClient(pb.url, self_id=222222)
    await a.connect()
    await b.connect()
    try:
        await a.send(".r 1d100", user=43000, expect=1)  # account a serves the group first
        await asyncio.sleep(0.2)
        for _ in range(8):  # under the flood limit of one user
            await _both(a, b, ".st 计数+1", 43001)
        await _wait_answers((a, b), 9)
        await asyncio.gather(a.settled(), b.settled())  # both processes handled all: no late answer
        got = _answers(a, b)
        assert len(got) == 9 and {sid for sid, _t in got} == {a.self_id}, got
        assert any("→8" in t for _s, t in got), got
        pa.kill()  # no goodbye: b takes over at once, not after a's 30 s lease (issue 23, item 8)
        answered_at = None
        t0 = asyncio.get_running_loop().time()
        for i in range(40):
            await b.post(".r 1d6", user=43100 + i)
            await asyncio.sleep(0.25)
            if any(c.to_group and "1d6" in c.text for c in b.all_calls):
                answered_at = asyncio.get_running_loop().time() - t0
                break
        assert answered_at is not None and answered_at < 2, answered_at
        before = len(_answers(b))
        for i in range(10):  # and every message after that is answered
            await b.post(".r 1d6", user=43200 + i)
        await _wait_answers((b,), before + 10)
    finally:
        await a.close()
        await b.close()
        pa.stop()
        pb.stop()


async def test_background_messages_go_out_through_the_serving_account(bot_process: BotProcess) -> None:
    """萌E's sweeper (timeouts, the private prompts that follow) speaks through the account that
    serves the group — here the second one to connect — never through the first bot found."""
    a = OneBotClient(bot_process.url, self_id=111111)
    b = OneBotClient(bot_process.url, self_id=222222)
    await a.connect()
    await b.connect()
    try:
        await b.send(".r 1d100", user=44000, expect=1)  # b serves the group from now on
        players = (44001, 44002)
        for user, text in (
            (players[0], ".moe new"),
            (players[1], ".moe join"),
            (players[0], ".moe timeout 10"),
        ):
            await _both(a, b, text, user)
            await asyncio.gather(a.settled(), b.settled())
        await _both(a, b, ".moe start", players[0])
        await asyncio.gather(a.settled(), b.settled())
        before = len(b.all_calls)
        # nobody picks a character: after 10 s (the bot's clock moves past them) the sweeper
        # picks for them, says so in the group and sends the next prompt in private (a call of
        # its own, which may come a moment later)
        bot_process.advance_clock(11)
        deadline = asyncio.get_running_loop().time() + 10
        while not (
            any(c.to_group and "超时" in c.text for c in b.all_calls[before:])
            and any(c.is_private for c in b.all_calls[before:])
        ):
            assert asyncio.get_running_loop().time() < deadline, [c.text for c in b.all_calls]
            await asyncio.sleep(0.05)
        assert a.all_calls == [], [c.text for c in a.all_calls]
    finally:
        await a.close()
        await b.close()
