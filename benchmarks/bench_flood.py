"""Flood benchmark over the real reverse WebSocket: another player's latency while a group is flooded.

Starts ``python bot.py`` (SQLite in a temp dir) and measures a player's ``.r d20`` round trip
(event sent → group message received) at a human pace:

1. idle;
2. while one user sends N commands (default 500) spread over the measurement (~50/s);
3. while fifty accounts each send one command a second into the same group (50/s), after a
   first burst of 5 each.

In scenario 3 the player measured is the group's appointed GM (ordinary members of a group
flooded by fifty accounts share its capped bucket with them), and a player in another group.
Prints p50/p95 for each and the ratio to idle (issue 9's target: within 2×), plus how many of
the flood's commands were answered.

    .venv/bin/python benchmarks/bench_flood.py [N]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from onebot_client import BotProcess, OneBotClient  # noqa: E402

PLAYER = 20001
GROUP = 30003


async def roll_latency(
    client: OneBotClient, user: int, n: int, tag: str, gap: float = 1.0, group: int = GROUP
) -> list[float]:
    """A player rolling at a human pace: one ``.r d20`` a second."""
    out = []
    for i in range(n):
        marker = f"{tag}{i}号"
        start = len(client.all_calls)
        t0 = time.perf_counter()
        await client.post(f".r d20 {marker}", user=user, group=group)
        while not any(marker in c.text for c in client.all_calls[start:]):
            if time.perf_counter() - t0 > 20:
                raise RuntimeError(f"no reply to {marker}")
            await asyncio.sleep(0.002)
        out.append((time.perf_counter() - t0) * 1000)
        await asyncio.sleep(gap)
    return out


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


async def flood(client: OneBotClient, senders: list[int], per_sender: int, tag: str, seconds: float) -> None:
    """Each sender sends ``per_sender`` commands spread evenly over ``seconds``."""
    step = seconds / per_sender
    t0 = time.perf_counter()
    for i in range(per_sender):
        for user in senders:
            await client.post(f".r 1d100 {tag}{i}", user=user, group=GROUP)
        await asyncio.sleep(max(0.0, t0 + (i + 1) * step - time.perf_counter()))


async def run(n: int) -> None:
    gm, other_group = 20077, GROUP + 1
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(workdir=Path(tmp))
        bot.start()
        try:
            async with OneBotClient(bot.url) as client:
                at = [{"type": "text", "data": {"text": ".gm add "}}, {"type": "at", "data": {"qq": str(gm)}}]
                await client.send(at, user=20000, group=GROUP, role="owner", expect=1)
                await roll_latency(client, PLAYER + 99, 10, "热", gap=0.05)  # warm-up
                await roll_latency(client, gm, 2, "热GM", gap=0.05)
                idle = await roll_latency(client, PLAYER, 12, "静")
                rows: list[tuple[str, list[float], int, int]] = [("idle (member)", idle, 0, 0)]

                await asyncio.sleep(12)  # let every bucket refill
                start = len(client.all_calls)
                task = asyncio.create_task(flood(client, [40001], n, "洪A", 12.0))
                lat = await roll_latency(client, PLAYER + 1, 12, "测A")
                await task
                await asyncio.sleep(1.0)
                answered = sum(1 for c in client.all_calls[start:] if "洪A" in c.text)
                rows.append((f"one user x {n}: member", lat, answered, n))

                await asyncio.sleep(12)
                start = len(client.all_calls)
                senders = list(range(41001, 41051))
                task = asyncio.create_task(flood(client, senders, 14, "洪B", 12.0))
                gm_lat, other_lat = await asyncio.gather(
                    roll_latency(client, gm, 12, "测B"),
                    roll_latency(client, PLAYER + 2, 12, "测C", group=other_group),
                )
                await task
                await asyncio.sleep(1.0)
                answered = sum(1 for c in client.all_calls[start:] if "洪B" in c.text)
                rows.append(("50 accounts x 14: GM", gm_lat, answered, 700))
                rows.append(("50 x 14: other group", other_lat, answered, 700))
        finally:
            bot.stop()
    base = p95(idle)
    print(f"{'scenario':<28} {'p50 ms':>8} {'p95 ms':>8} {'p95/idle':>9} {'flood answered':>15}")
    for label, lat, answered, sent in rows:
        flood_col = f"{answered}/{sent}" if sent else "-"
        print(
            f"{label:<28} {statistics.median(lat):8.1f} {p95(lat):8.1f} {p95(lat) / base:9.2f} {flood_col:>15}"
        )


if __name__ == "__main__":
    asyncio.run(run(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
