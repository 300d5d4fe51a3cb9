"""End to end (issue 6): a D20 tick combat through ``python bot.py`` over a real reverse WebSocket.

A GM begins a combat, three players and two NPCs join; two full rounds with a delay, an effect
that expires on the right tick, AP spent, a wound and an undo; the bot is SIGKILLed in the middle
of round 2 and continues exactly there after a restart; two people sending ``.init next`` at the
same moment advance the turn once.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict, deque

import pytest
from onebot_client import ApiCall, BotProcess, OneBotClient

pytestmark = pytest.mark.e2e

GM = {"user": 10001, "role": "admin", "card": "主持人"}
AILIN = {"user": 10002, "card": "艾琳"}
BRUNO = {"user": 10003, "card": "布鲁诺"}
KARA = {"user": 10004, "card": "卡拉"}


_sent: dict[int, deque[float]] = defaultdict(deque)


async def pace(user: int, client: OneBotClient) -> None:
    """Stay under the bot's flood limit (10 commands in 10 s per user), as a real GM would — by
    moving the bot's clock past the window rather than waiting it out."""
    times = _sent[user]
    while times and time.monotonic() - times[0] > 10.5:
        times.popleft()
    if len(times) >= 8:
        client.advance_clock(10.6)  # every bucket refills: the window is behind everyone
        _sent.clear()
    _sent[user].append(time.monotonic())


async def say(client: OneBotClient, text: str, who: dict) -> str:
    await pace(who["user"], client)
    return await client.group(text, expect=1, **who)


async def burst(client: OneBotClient, sends: list[tuple[str, dict]], wait: float = 3.0) -> list[ApiCall]:
    """Send several messages without waiting in between; collect every call they cause."""
    for _, who in sends:
        await pace(who["user"], client)
    client.take_calls()  # what came before the burst
    await asyncio.gather(
        *(
            client.post(text, user=who["user"], role=who.get("role", "member"), card=who.get("card", ""))
            for text, who in sends
        )
    )
    if client.acks:  # the bot says when it has handled each: no waiting for silence
        await client.settled()
        return client.take_calls()
    got: list[ApiCall] = []
    while True:
        try:
            got.append(await asyncio.wait_for(client.calls.get(), wait))
        except asyncio.TimeoutError:
            return got


async def test_tick20_combat_survives_restart_and_races(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as c:
        c.bot = bot_process
        assert "新战斗（基础规则）" in await say(c, ".init begin", GM)
        assert "艾琳 的先攻：=17" in await say(c, ".ri =17", AILIN)
        assert "布鲁诺 的先攻：=12" in await say(c, ".ri =12", BRUNO)
        assert "卡拉 的先攻：=12" in await say(c, ".ri =12", KARA)
        text = await say(c, ".ri =15 哥布林, =8 狼", GM)
        assert "哥布林 的先攻：=15" in text and "狼 的先攻：=8" in text
        await pace(GM["user"], c)
        (start,) = await c.send(".init start", expect=1, **GM)
        text = start.text
        assert "⚔ 第1轮 · 第17刻（基础）" in text and "▶ 艾琳 的回合 @艾琳　AP 3/3" in text
        # a real QQ @ of the player whose turn it is, so the phone buzzes
        first = start.params["message"][0]
        assert first["type"] == "at" and str(first["data"]["qq"]) == "10002"

        # R1 t17 艾琳: spends AP; the GM slows the goblin for 3 ticks (G4 → ends at the t14 start),
        # crediting 艾琳's spell (without -源 a GM's effect is the GM's, not the current actor's)
        assert "艾琳 AP 1/3" in await say(c, ".ap -2 攻击", AILIN)
        reply = await say(c, ".init eff 哥布林 迟缓 3刻 -源 艾琳", GM)
        assert "哥布林 获得「迟缓」（3刻，来源：艾琳）" in reply
        text = await say(c, ".ed", AILIN)
        assert "▶ 哥布林 的回合" in text and "第15刻" in text and "结束" not in text
        bot_process.advance_clock(1.1)  # a GM advancing right after a player would count as a duplicate
        text = await say(c, ".init next", GM)  # t14 start ends 迟缓, then t12 布鲁诺
        assert "结束：哥布林的迟缓（艾琳）" in text and "▶ 布鲁诺 的回合" in text

        # R1 t12: 布鲁诺 delays to t11; 卡拉 (tied at 12) acts first
        text = await say(c, ".延后", BRUNO)
        assert "布鲁诺 延后（先攻11）" in text and "▶ 卡拉 的回合" in text
        text = await say(c, ".ed", KARA)
        assert "⚔ 第1轮 · 第11刻" in text and "▶ 布鲁诺 的回合" in text
        text = await say(c, ".ed", BRUNO)
        assert "▶ 狼 的回合" in text

        # a wound, undone, then dealt again
        assert "<负伤:腿部>" in await say(c, ".wound 狼 腿部 擦伤x4", GM)
        assert "已撤销1步" in await say(c, ".init undo", GM)
        assert "腿部" not in await say(c, ".init status 狼", GM)
        # the group is told the wound is recorded; the GM gets what the wolf's leg holds
        await pace(GM["user"], c)
        calls = await c.send(".wound 狼 腿部 轻伤x1", expect=2, **GM)
        assert [x.text for x in calls if x.to_group] == ["狼：伤势已记录（详情已私聊GM）"]
        assert [x.text for x in calls if x.is_private] == ["狼：腿部 1/4：轻伤\n  狼 腿部 新增轻伤×1"]
        text = await say(c, ".init next", GM)
        assert "—— 第2轮开始 ——" in text and "⚔ 第2轮 · 第17刻" in text and "▶ 艾琳 的回合" in text

        # R2: 艾琳 17, 哥布林 15, 卡拉 12, 布鲁诺 11 (delay carried), 狼 8
        await say(c, ".ed", AILIN)
        bot_process.advance_clock(1.1)
        text = await say(c, ".init next", GM)
        assert "▶ 卡拉 的回合" in text and "第12刻" in text
        assert "接下来：第11刻 布鲁诺 → 第8刻 狼 → 第3轮 第17刻 艾琳" in text
        bot_process.kill()  # mid-round, during 卡拉's turn

    bot_process.start()
    async with OneBotClient(bot_process.url) as c:
        c.bot = bot_process
        text = await say(c, ".init", KARA)
        assert text.splitlines()[0] == "第2轮 · 第12刻（基础）　当前：卡拉"
        await pace(GM["user"], c)
        calls = await c.send(".init status 狼", expect=2, **GM)
        assert not any("腿部" in x.text for x in calls if x.to_group)
        assert any("腿部:轻伤" in x.text for x in calls if x.is_private)
        text = await say(c, ".ed", KARA)
        assert "⚔ 第2轮 · 第11刻" in text and "▶ 布鲁诺 的回合" in text

        # two people advance at the same moment: exactly one END_TURN, whichever is processed first
        bot_process.advance_clock(1.1)
        calls = await burst(c, [(".init next", BRUNO), (".init next", GM)])
        texts = [x.text for x in calls if x.to_group]
        assert len(texts) == 2, texts
        assert sum("▶ 狼 的回合" in t for t in texts) == 1, texts
        assert sum("没有重复推进" in t for t in texts) == 1, texts
        text = await say(c, ".init", GM)
        assert text.splitlines()[0] == "第2轮 · 第8刻（基础）　当前：狼"

        bot_process.advance_clock(1.1)  # past the grace in which a second .init next is a repeat
        text = await say(c, ".init next", GM)
        assert "—— 第3轮开始 ——" in text and "▶ 艾琳 的回合" in text and "AP 3/3" in text
        text = await say(c, ".init end 确认", GM)
        assert text.startswith("战斗结束：共3轮")
        assert "艾琳×2" in text and "布鲁诺×2" in text and "卡拉×2" in text and "狼×2" in text
