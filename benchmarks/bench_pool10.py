"""Benchmark of the 无限恐怖 pool engine and its command path.

Prints: engine rolls per second (pools of 5, 10 and 30 dice; 10-again and 8-again), the time to
compute exact odds (pools of 10, 100 and 300 dice), and the latency of ``.ww 敏捷+潜行`` and of an
opposed ``.ww … vs @…`` through ``App.dispatch`` on a temporary SQLite file.

    .venv/bin/python benchmarks/bench_pool10.py [N]
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from helpers import run  # noqa: E402

from chronodice.app import App  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.rules.pool10 import pool_odds, resolve, roll_pool  # noqa: E402
from chronodice.services import load_all  # noqa: E402
from chronodice.store import Store  # noqa: E402


def bench_engine(n: int) -> None:
    rng = random.Random(1)
    for size, again in ((5, 10), (10, 10), (30, 10), (30, 8)):
        t = time.perf_counter()
        for _ in range(n):
            resolve(roll_pool(size, rng, again=again), bonus=1, dc=2)
        dt = time.perf_counter() - t
        print(f"engine  {size:>3} dice a{again:<2}: {n / dt:>10,.0f} rolls/s ({dt / n * 1e6:6.1f} µs/roll)")
    for size, again in ((10, 10), (100, 10), (300, 8)):
        t = time.perf_counter()
        pool_odds(size, again)
        print(f"odds    {size:>3} dice a{again:<2}: {(time.perf_counter() - t) * 1000:8.1f} ms")


async def bench_commands(n: int) -> None:
    load_all()
    with tempfile.TemporaryDirectory() as d:
        store = Store(f"sqlite+aiosqlite:///{Path(d) / 'bench.db'}")
        await store.migrate()
        app = App(store, random.Random(2), flood=FloodSettings(enabled=False))
        await run(app, ".st 敏捷4潜行3", user="1")
        await run(app, ".st 感知3调查2", user="2")
        for label, text, kw in (
            (".ww 敏捷+潜行", ".ww 敏捷+潜行", {}),
            (".ww … vs @…", ".ww 敏捷+潜行 vs 感知+调查", {"at": ("2",)}),
            (".ww 5 ?", ".ww 5 dc2 ?", {}),
        ):
            times = []
            for _ in range(n):
                t = time.perf_counter()
                await run(app, text, user="1", **kw)
                times.append(time.perf_counter() - t)
            times.sort()
            p50 = statistics.median(times) * 1000
            p99 = times[int(len(times) * 0.99) - 1] * 1000
            print(f"command {label:<14}: p50 {p50:6.2f} ms, p99 {p99:6.2f} ms, {n / sum(times):7.0f}/s")
        await store.close()


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    bench_engine(n)
    asyncio.run(bench_commands(max(50, n // 100)))


if __name__ == "__main__":
    main()
