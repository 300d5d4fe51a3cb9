"""End to end: ``python bot.py`` over a real reverse WebSocket, as NapCat would talk to it.

The tests share one bot (``module_bot``), each in a group of its own, but the one that kills its
bot (``fresh_bot``) and the one with two processes."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from onebot_client import BotProcess, OneBotClient

pytestmark = pytest.mark.e2e


@pytest.fixture
def bot_process(module_bot: BotProcess) -> BotProcess:
    return module_bot


async def test_group_and_private_commands(onebot: OneBotClient) -> None:
    calls = await onebot.send(".r 3d6+2 侦查", card="调查员A", expect=1)
    assert calls[0].to_group and calls[0].params["group_id"] == 20002
    m = re.search(r"3d6\+2=\[(\d),(\d),(\d)\]\+2=(\d+)", calls[0].text)
    assert m and "调查员A" in calls[0].text and "侦查" in calls[0].text
    assert sum(int(m.group(i)) for i in (1, 2, 3)) + 2 == int(m.group(4))
    # case, full-width prefix, no space
    assert "1d20=" in await onebot.group("。R1d20", expect=1)
    # private chat
    calls = await onebot.send(".r d20", group=None, expect=1)
    assert calls[0].is_private and "d20=" in calls[0].text
    # unknown commands and chatter are ignored
    assert await onebot.send("今晚跑团吗", expect=0) == []
    assert await onebot.send(".unknowncmd", expect=0) == []


async def test_hidden_roll_never_reaches_the_group(onebot: OneBotClient) -> None:
    calls = await onebot.send(".rh 1d100 偷看", user=10007, group=20102, card="潜行者", expect=2)
    group = [c for c in calls if c.to_group]
    private = [c for c in calls if c.is_private]
    assert len(group) == 1 and len(private) == 1
    assert private[0].params["user_id"] == 10007
    rolled = re.search(r"1d100=(\d+)", private[0].text)
    assert rolled
    assert "暗骰" in group[0].text and "1d100=" not in group[0].text and rolled.group(0) not in group[0].text
    # when the private message cannot be delivered the group is told, without the content
    onebot.fail_private.add(10008)
    calls = await onebot.send(".rh 1d100", user=10008, group=20102, expect=3)
    group_texts = [c.text for c in calls if c.to_group]
    assert any("无法私聊" in t for t in group_texts)
    assert not any(re.search(r"1d100=\d", t) for t in group_texts)


async def test_character_survives_sigkill(fresh_bot: BotProcess) -> None:
    async with OneBotClient(fresh_bot.url) as client:
        text = await client.group(".st 力量60敏捷55", card="艾拉", expect=1)
        assert "力量:60" in text
        fresh_bot.kill()  # right after the reply: no shutdown hook runs
    fresh_bot.start()
    async with OneBotClient(fresh_bot.url) as client:
        text = await client.group(".st show", expect=1)
        assert "力量:60" in text and "敏捷:55" in text
        text = await client.group(".r 1d20+敏捷", expect=1)
        m = re.search(r"1d20\+敏捷=\[(\d+)\]\+55=(\d+)", text) or re.search(r"=(\d+)\+55=(\d+)", text)
        assert m and int(m.group(1)) + 55 == int(m.group(2)), text


async def test_bot_off_answers_only_bot_on(onebot: OneBotClient) -> None:
    g = 20202
    assert "关闭" in await onebot.group(".bot off", group=g, role="admin", expect=1)
    assert await onebot.send(".r 1d6", group=g, expect=0) == []
    assert "开启" in await onebot.group(".bot on", group=g, role="admin", expect=1)
    assert "1d6=" in await onebot.group(".r 1d6", group=g, expect=1)


async def test_dismiss_leaves_the_group(onebot: OneBotClient) -> None:
    await onebot.send(".dismiss", group=20302, role="owner", expect=1)
    calls = await onebot.send(".dismiss 确认", group=20302, role="owner", expect=2)
    assert calls[-1].action == "set_group_leave" and calls[-1].params["group_id"] == 20302


@pytest.mark.postgres
async def test_two_processes_on_postgres_lose_no_update(tmp_path: Path, pg_url: str) -> None:
    """200 concurrent .st updates to one character from many users, across two bot processes."""
    a = BotProcess(workdir=tmp_path / "a", database_url=pg_url)
    b = BotProcess(workdir=tmp_path / "b", database_url=pg_url)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a.start()
    b.start()
    try:
        async with OneBotClient(a.url, self_id=111) as ca, OneBotClient(b.url, self_id=222) as cb:
            assert "计数:0" in await ca.group(".st 计数:0", user=50000, card="NPC主", expect=1)
            at_owner = {"type": "at", "data": {"qq": "50000"}}

            async def bump(i: int) -> None:
                # 200 different GMs (group admins) edit the same card at once: .st @50000 计数+1.
                # Each account serves its own group (two accounts in one group: only one answers).
                client, group = (ca, 20002) if i % 2 else (cb, 20003)
                message = [at_owner, {"type": "text", "data": {"text": " .st 计数+1"}}]
                await client.post(message, user=60000 + i, role="admin", group=group)

            await asyncio.gather(*(bump(i) for i in range(200)))
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 90
            while len([c for c in ca.all_calls + cb.all_calls if c.to_group]) < 201:
                assert loop.time() < deadline, "not every update was answered"
                await asyncio.sleep(0.2)
            answers = [c.text for c in ca.all_calls + cb.all_calls if c.to_group][1:]
            assert all("已录入" in t for t in answers), [t for t in answers if "已录入" not in t][:3]
            text = await ca.group(".st show", user=50000, expect=1)
            assert "计数:200" in text, text
    finally:
        a.stop()
        b.stop()
