"""End-to-end benchmark over the real reverse WebSocket.

Starts ``python bot.py`` (SQLite in a temp dir) and, in the same run, a bare NoneBot echo bot
(benchmarks/echo_bot/echo_bot.py); sends ``.r 1d100`` as group messages from a fake OneBot v11
client and measures round trips (event sent → send_msg received): sequential throughput with
p50/p99 latency, and throughput with 8 concurrent senders.  Prints both and their ratio.

    .venv/bin/python benchmarks/bench_e2e.py [N]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from onebot_client import TOKEN, BotProcess, OneBotClient, free_port  # noqa: E402


def start_echo(workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {
        **os.environ,
        "ENVIRONMENT": "bench",
        "DRIVER": "~fastapi",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "ONEBOT_ACCESS_TOKEN": TOKEN,
        "LOG_LEVEL": "WARNING",
    }
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "echo_bot" / "echo_bot.py")],
        cwd=workdir,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc, port


async def measure(url: str, n: int, user_base: int) -> dict[str, float]:
    async with OneBotClient(url) as client:
        for i in range(20):  # warm-up
            await client.send(".r 1d100", user=user_base + i % 50, expect=1, quiet=0)
        lat: list[float] = []
        t0 = time.perf_counter()
        for i in range(n):
            t = time.perf_counter()
            # a different user each time: the flood limit is per user
            await client.send(".r 1d100", user=user_base + 1000 + i, expect=1, quiet=0)
            lat.append((time.perf_counter() - t) * 1000)
        seq = n / (time.perf_counter() - t0)

        # concurrent: 8 senders, answers counted as they come
        total = n
        sent = 0
        got_before = len(client.all_calls)
        t0 = time.perf_counter()
        for i in range(total):
            await client.post(".r 1d100", user=user_base + 5000 + i)
            sent += 1
            if sent % 8 == 0:
                while len(client.all_calls) - got_before < sent - 8:
                    await asyncio.sleep(0.0005)
        while len(client.all_calls) - got_before < total:
            await asyncio.sleep(0.0005)
        conc = total / (time.perf_counter() - t0)
    lat.sort()
    return {
        "seq_rps": seq,
        "p50_ms": statistics.median(lat),
        "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))],
        "conc_rps": conc,
    }


async def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(workdir=Path(tmp), extra_env={"LOG_LEVEL": "WARNING"})
        bot.start()
        echo, port = start_echo(Path(tmp))
        try:
            await asyncio.sleep(1.0)
            ours = await measure(bot.url, n, 100000)
            base = await measure(f"ws://127.0.0.1:{port}/onebot/v11/ws", n, 200000)
        finally:
            bot.stop()
            echo.terminate()
            echo.wait(10)
    print(f"end-to-end .r 1d100 over reverse WebSocket, {n} messages each, {os.cpu_count()} CPUs")
    print(f"{'':22}{'seq rt/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'8-way rt/s':>12}")
    for name, r in (("ChronoDice", ours), ("bare NoneBot echo", base)):
        print(f"{name:22}{r['seq_rps']:>10.0f}{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}{r['conc_rps']:>12.0f}")
    print(
        f"ratio ChronoDice/echo: sequential {ours['seq_rps'] / base['seq_rps']:.2f}, "
        f"8-way {ours['conc_rps'] / base['conc_rps']:.2f}, p50 latency x{ours['p50_ms'] / base['p50_ms']:.2f}"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
