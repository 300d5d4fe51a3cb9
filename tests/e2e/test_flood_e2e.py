"""End to end (issue 9): flood control that fits play, over the real WebSocket.

An appointed GM (an ordinary member, not a group admin) runs a D20 tick combat and a TimeLine
battle at 20 commands in 6 seconds while a spammer in the same group fires 300 commands as fast
as the socket takes them and another player keeps rolling.  The GM is never muted and every
command of hers is answered; the spammer gets one warning and far fewer replies than he sent;
the other player's replies stay prompt.
"""

from __future__ import annotations

import asyncio
import statistics
import time

import pytest
from onebot_client import BotProcess, OneBotClient

pytestmark = pytest.mark.e2e

OWNER = {"user": 10001, "role": "owner", "card": "群主"}
GM = {"user": 10002, "role": "member", "card": "主持人"}
PLAYER = {"user": 10003, "role": "member", "card": "艾琳"}
PLAYER2 = {"user": 10004, "role": "member", "card": "布鲁诺"}
SPAMMER = 10666
SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:,职业:,"
    "等级:5,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GM_SCENE = [
    ".init begin",
    ".ri +2 哥布林",
    ".ri +1 狼",
    ".ri =15 巨魔",
    ".init start",
    ".bat 哥布林:力量 100",
    ".init next",
    ".bat 狼人:敏捷 50",
    ".init next",
    ".bat",
    ".init next",
    ".bat 哥布林:力量 50",
    ".init",
    ".init next",
    ".bat 狼人:力量 30",
    ".init next",
    ".bat 记录 1",
    ".init next",
    ".bat",
    ".init",
]


def _texts_since(client: OneBotClient, start: int) -> list[str]:
    return [c.text for c in client.all_calls[start:] if c.to_group]


async def _wait_for(client: OneBotClient, marker: str, start: int, timeout: float = 10.0) -> float:
    """Seconds until a group message containing ``marker`` arrives (after call index ``start``)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if any(marker in t for t in _texts_since(client, start)):
            return time.monotonic() - t0
        await asyncio.sleep(0.003)
    raise AssertionError(f"no reply with {marker!r} within {timeout} s")


async def _player_latencies(
    client: OneBotClient, who: dict[str, object], n: int, tag: str, gap: float
) -> list[float]:
    """A player rolling at a human pace (one roll every ``gap`` s plus the reply time)."""
    out = []
    for i in range(n):
        marker = f"{tag}{i}号"
        start = len(client.all_calls)
        await client.post(f".r d20 {marker}", **who)  # type: ignore[arg-type]
        out.append(await _wait_for(client, marker, start))
        await asyncio.sleep(gap)
    return out


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


async def test_gm_at_combat_speed_is_never_muted_while_a_spammer_is_limited(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as c:
        # the owner appoints an ordinary member as GM; the GM brings two TimeLine NPCs
        at = [{"type": "text", "data": {"text": ".gm add "}}, {"type": "at", "data": {"qq": str(GM["user"])}}]
        assert "已任命为GM" in await c.group(at, expect=1, **OWNER)  # type: ignore[arg-type]
        for name in ("哥布林", "狼人"):
            assert f"[{name}] 的TL属性设置完成√" in await c.group(SHEET.format(name=name), expect=1, **GM)

        idle = await _player_latencies(c, PLAYER, 12, "静", gap=0.3)

        # the flood, the GM's scene and the player's rolls, all at once
        start = len(c.all_calls)

        async def spam() -> None:
            for i in range(300):
                await c.post(f".r 1d100 刷屏{i}", user=SPAMMER, card="刷屏机")
                if i % 25 == 0:
                    await asyncio.sleep(0)

        async def gm_scene() -> float:
            t0 = time.monotonic()
            for text in GM_SCENE:
                await c.post(text, **GM)
                await asyncio.sleep(0.3)
            return time.monotonic() - t0

        spam_task = asyncio.create_task(spam())
        player_task = asyncio.create_task(_player_latencies(c, PLAYER2, 12, "忙", gap=0.4))
        gm_seconds = await gm_scene()
        busy = await player_task
        await spam_task
        await asyncio.sleep(2.0)

        calls = c.all_calls[start:]
        texts = [x.text for x in calls if x.to_group]
        spam_replies = [t for t in texts if "刷屏" in t]
        warnings = [t for t in texts if "太快" in t]
        gm_replies = [t for t in texts if "刷屏" not in t and "忙" not in t and "太快" not in t]
        assert gm_seconds <= 6.5
        # the GM: 20 commands in about 6 s, every one answered, never warned
        assert len(gm_replies) == len(GM_SCENE), gm_replies
        assert not any("主持人" in w for w in warnings)
        assert any("新战斗" in t for t in gm_replies) and any("行动#" in t for t in gm_replies)
        # the spammer: one warning, then limited (15 at once + 1.5/s for the few seconds it lasted)
        assert len(warnings) == 1 and "刷屏机" in warnings[0], warnings
        assert len(spam_replies) <= 15 + 1.5 * (gm_seconds + 3), len(spam_replies)
        # the other player: prompt replies during the flood
        assert len(busy) == 12
        idle_p95, busy_p95 = _p95(idle), _p95(busy)
        print(
            f"player latency idle p50 {statistics.median(idle) * 1000:.1f} ms p95 {idle_p95 * 1000:.1f} ms; "
            f"during flood p50 {statistics.median(busy) * 1000:.1f} ms p95 {busy_p95 * 1000:.1f} ms; "
            f"spam replies {len(spam_replies)}/300"
        )
        assert busy_p95 <= max(2 * idle_p95, idle_p95 + 0.15), (idle, busy)
