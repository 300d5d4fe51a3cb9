"""Issue 10's targets, each as a ratio to a bare NoneBot2 bot measured in the same run.

Starts ``python bot.py`` (ChronoDice) and benchmarks/echo_bot (a bare NoneBot2 + OneBot v11 bot
that echoes every message) and drives both over the real reverse WebSocket with the fake OneBot
client of the e2e tests, on SQLite and/or PostgreSQL:

* ``.r 1d100``: throughput one at a time and 16 in flight; p99 latency at 64 in flight (it
  touches no session: the one command held to a ratio to the bare bot; card and session writes
  are held to latencies under a table-shaped load instead, ``bench_table.py``);
* flat: ``.r 1d20+力量`` and ``.st 力量+1`` with 100,000 characters and 10,000 live sessions
  against 1,000 characters;
* ignored messages: another user's p95 during a 500-message burst from one user (flood-limited)
  against idle.

    .venv/bin/python benchmarks/bench_targets.py [--db sqlite|postgres|both] [-n N] [--burst-rate R]

The throughput and flat phases send many commands into one group, so those bots run with flood
control off (CHRONODICE_FLOOD_ENABLED=false); the burst phase runs a bot with the default
buckets (the burst is what flood control drops).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_e2e import start_echo  # noqa: E402
from onebot_client import BotProcess, OneBotClient  # noqa: E402

PG_ADMIN = os.environ.get("CHRONODICE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
SHEET = (
    ".TLsetup 姓名:{name},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
    "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
)
GROUP = 20002
USER0 = 700000  # pre-stored characters belong to users USER0 … USER0+count-1 (bound by default)
TOKEN_RE = re.compile(r"第(\d+)次")


# ------------------------------------------------------------------ driving
async def window(
    client: OneBotClient, msgs: list[tuple[str, int, str]], k: int, group: int = GROUP
) -> tuple[float, list[float]]:
    """Send ``msgs`` keeping ``k`` unanswered; (messages/s, latencies in ms where the reply
    carries the ``第N次`` token of its message)."""
    while not client.calls.empty():
        client.calls.get_nowait()
    sent: dict[int, float] = {}
    lat: list[float] = []
    i = answered = 0
    t0 = time.perf_counter()
    while answered < len(msgs):
        while i < len(msgs) and i - answered < k:
            text, user, role = msgs[i]
            m = TOKEN_RE.search(text)
            if m:
                sent[int(m.group(1))] = time.perf_counter()
            await client.post(text, user=user, role=role, group=group)
            i += 1
        call = await asyncio.wait_for(client.calls.get(), 30)
        answered += 1
        m = TOKEN_RE.search(call.text)
        if m and int(m.group(1)) in sent:
            lat.append((time.perf_counter() - sent.pop(int(m.group(1)))) * 1000)
    return len(msgs) / (time.perf_counter() - t0), lat


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * q))] if s else float("nan")


def rolls(n: int, start: int, users: int = 50) -> list[tuple[str, int, str]]:
    """``.r 1d100`` from ``users`` members taking turns (a group's active players)."""
    return [(f".r 1d100 第{start + i}次", 300000 + i % users, "member") for i in range(n)]


async def burst(client: OneBotClient, n: int, rate: float, samples: int, rnd: int = 0) -> tuple[float, float]:
    """p95 of user B's ``.r`` idle, then while user A sends ``n`` messages at ``rate``/s.

    Each sample comes from a new user in a group of its own: the samples follow one another
    faster than any player types, and must not be limited by flood control themselves.  Round
    ``rnd`` has users and groups of its own."""
    idle: list[float] = []
    for i in range(samples):
        t = time.perf_counter()
        who = 1000 * rnd + i
        await client.send(f".r 1d100 第{i}次", user=510000 + who, group=610000 + who, expect=1, quiet=0)
        idle.append((time.perf_counter() - t) * 1000)

    async def flood() -> None:
        t0 = time.perf_counter()
        for j in range(n):
            await client.post(f".r 1d100 第{900000 + j}次", user=520001 + rnd)
            delay = t0 + (j + 1) / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)

    task = asyncio.create_task(flood())
    busy: list[float] = []
    i = 0
    while not task.done():
        i += 1
        tok = f"第{5000 + i}次"
        t = time.perf_counter()
        await client.post(f".r 1d100 {tok}", user=530000 + 10000 * rnd + i, group=620000 + 10000 * rnd + i)
        while True:
            call = await asyncio.wait_for(client.calls.get(), 30)
            if tok in call.text:
                break
        busy.append((time.perf_counter() - t) * 1000)
        await asyncio.sleep(0.01)
    await task
    await asyncio.sleep(0.5)
    return pct(idle, 0.95), pct(busy, 0.95)


# ------------------------------------------------------------------ databases
def prefill_sqlite(path: Path, characters: int, sessions: int) -> None:
    con = sqlite3.connect(path)
    now = "2026-11-23 10:00:00.000000"
    attrs = json.dumps({"力量": 60, "敏捷": 50}, ensure_ascii=False)
    con.executemany(
        "INSERT INTO characters (owner_id, system, name, attributes, data, version, created_at, updated_at)"
        " VALUES (?, 'generic', ?, ?, '{}', 1, ?, ?)",
        ((str(USER0 + i), f"卡{i}", attrs, now, now) for i in range(characters)),
    )
    con.executemany(
        "INSERT INTO bindings (user_id, scope, character_id) SELECT owner_id, '', id FROM characters"
        " WHERE owner_id = ?",
        ((str(USER0 + i),) for i in range(characters)),
    )
    state = json.dumps({"clock": 1.5, "actions": [{"n": i, "text": "一招" * 10} for i in range(20)]})
    con.executemany(
        "INSERT INTO sessions (scope, system, state, version, created_at, updated_at) VALUES (?, 'timeline', ?, 1, ?, ?)",
        ((f"s{i}", state, now, now) for i in range(sessions)),
    )
    con.commit()
    con.close()


async def prefill_pg(dsn: str, characters: int, sessions: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        attrs = json.dumps({"力量": 60, "敏捷": 50}, ensure_ascii=False)
        await conn.execute(
            "INSERT INTO characters (owner_id, system, name, attributes, data, version, created_at, updated_at)"
            " SELECT ($1 + g)::text, 'generic', '卡' || g, $2::json, '{}'::json, 1, now(), now()"
            " FROM generate_series(0, $3 - 1) g",
            USER0,
            attrs,
            characters,
        )
        await conn.execute(
            "INSERT INTO bindings (user_id, scope, character_id) SELECT owner_id, '', id FROM characters"
        )
        state = json.dumps({"clock": 1.5, "actions": [{"n": i, "text": "一招" * 10} for i in range(20)]})
        await conn.execute(
            "INSERT INTO sessions (scope, system, state, version, created_at, updated_at)"
            " SELECT 's' || g, 'timeline', $1::json, 1, now(), now() FROM generate_series(0, $2 - 1) g",
            state,
            sessions,
        )
        # settle the new rows now: an autovacuum of 100k fresh rows would otherwise run on the
        # same cores during the measurements that follow
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


class Databases:
    """Fresh databases for one backend: a URL per name, migrated and pre-filled."""

    def __init__(self, kind: str, tmp: Path) -> None:
        self.kind = kind
        self.tmp = tmp
        self.pg_names: list[str] = []

    async def make(self, name: str, characters: int, sessions: int) -> str:
        from chronodice.store import Store

        if self.kind == "sqlite":
            url = f"sqlite+aiosqlite:///{self.tmp / (name + '.db')}"
        else:
            import asyncpg

            db = f"chronodice_bench_{name}_{uuid.uuid4().hex[:8]}"
            admin = await asyncpg.connect(PG_ADMIN)
            await admin.execute(f'CREATE DATABASE "{db}"')
            await admin.close()
            self.pg_names.append(db)
            url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{db}"
        store = Store(url)
        await store.migrate()
        await store.close()
        if self.kind == "sqlite":
            prefill_sqlite(self.tmp / (name + ".db"), characters, sessions)
        else:
            await prefill_pg(url.replace("+asyncpg", ""), characters, sessions)
        return url

    async def drop(self) -> None:
        if not self.pg_names:
            return
        import asyncpg

        admin = await asyncpg.connect(PG_ADMIN)
        for db in self.pg_names:
            await admin.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        await admin.close()


# ------------------------------------------------------------------ phases
async def hot_phases(url: str, n: int, bare: bool, rnd: int) -> dict[str, Any]:
    """Throughput/latency of ``.r`` (one bot, already connected at ``url``); round ``rnd`` uses
    its own group."""
    out: dict[str, Any] = {}
    group = GROUP + 10 * rnd
    base = 100000 * rnd
    async with OneBotClient(url) as c:
        await window(c, rolls(30, base), 1, group)  # warm-up
        out["r_seq"], _ = await window(c, rolls(n, base + 1000), 1, group)
        out["r_16"], _ = await window(c, rolls(n, base + 10000), 16, group)
        _rps, lat = await window(c, rolls(n * 2, base + 20000), 64, group)
        out["r_64_p99"] = pct(lat, 0.99)
    return out


BEST_LOW = ("r_64_p99",)


def best(*runs: dict[str, Any]) -> dict[str, Any]:
    return {k: (min if k in BEST_LOW else max)(r[k] for r in runs) for k in runs[0]}


async def flat_phase(url: str, n: int, rnd: int = 0) -> dict[str, float]:
    """``.r 1d20+力量`` and ``.st 力量+1`` by stored characters' owners (round ``rnd`` uses its own
    users where there are enough: each user once per round)."""
    out: dict[str, float] = {}
    off = (rnd * n) % 500 if n < 500 else 0
    async with OneBotClient(url) as c:
        rr = [(f".r 1d20+力量 第{i}次", USER0 + (off + i) % 500, "member") for i in range(n)]
        await window(c, rr[:30], 1)
        out["r_attr_16"], _ = await window(c, rr, 16)
        st = [(".st 力量+1", USER0 + 500 + (off + i) % 500, "member") for i in range(n)]
        out["st_flat_16"], _ = await window(c, st, 16)
    return out


def run_bot(url: str, tmp: Path, name: str, flood: int | None) -> BotProcess:
    (tmp / name).mkdir(exist_ok=True)
    env = {"LOG_LEVEL": "WARNING"}
    if flood:
        env["CHRONODICE_FLOOD_ENABLED"] = "false"
    bot = BotProcess(workdir=tmp / name, database_url=url, extra_env=env)
    bot.start()
    return bot


async def run_backend(kind: str, n: int, rate: float | None, echo_url: str, tmp: Path, rounds: int) -> None:
    dbs = Databases(kind, tmp)
    try:
        small = await dbs.make("small", 1000, 0)
        big = await dbs.make("big", 100_000, 10_000)
        bot = run_bot(small, tmp, f"{kind}-small", flood=10**9)
        big_bot = run_bot(big, tmp, f"{kind}-big", flood=10**9)
        try:
            await asyncio.sleep(1.0)
            # alternate ``rounds`` times and keep each side's best: the machine is shared, and a
            # side's best is its speed when nothing else got in its way
            o_runs, b_runs, fs_runs, fb_runs = [], [], [], []
            for rnd in range(rounds):
                o_runs.append(await hot_phases(bot.url, n, bare=False, rnd=rnd))
                b_runs.append(await hot_phases(echo_url, n, bare=True, rnd=rnd))
                fs_runs.append(await flat_phase(bot.url, n, rnd))
                fb_runs.append(await flat_phase(big_bot.url, n, rnd))
            ours, base = best(*o_runs), best(*b_runs)
            flat_small, flat_big = best(*fs_runs), best(*fb_runs)
        finally:
            bot.stop()
            big_bot.stop()
        bot = run_bot(big, tmp, f"{kind}-big-flood", flood=None)  # default flood control
        bursts: list[tuple[float, float, float, float]] = []
        try:
            await asyncio.sleep(1.0)
            # a burst the bare bot absorbs (half its measured rate): what ignoring costs
            rate = rate or base["r_16"] / 2
            for rnd in range(2):
                async with OneBotClient(bot.url) as c:
                    idle, busy = await burst(c, 500, rate, 40, rnd)
                async with OneBotClient(echo_url) as c:
                    e_idle, e_busy = await burst(c, 500, rate, 40, rnd)
                bursts.append((idle, busy, e_idle, e_busy))
        finally:
            bot.stop()
        # each side's calmer burst (the lower busy/idle), as for the throughputs
        idle95, busy95 = min(((b[0], b[1]) for b in bursts), key=lambda x: x[1] / x[0])
        e_idle95, e_busy95 = min(((b[2], b[3]) for b in bursts), key=lambda x: x[1] / x[0])
    finally:
        await dbs.drop()

    def row(label: str, key: str, target: str, higher: bool = True) -> str:
        o, b = ours[key], base[key]
        ratio = o / b if higher else b / o
        return f"  {label:<40}{o:>9.0f}{b:>9.0f}{ratio:>8.2f}   {target}"

    print(f"\n=== {kind}: {n} messages per phase, best of {rounds} rounds, {os.cpu_count()} CPUs ===")
    print(f"  {'':<40}{'ours/s':>9}{'bare/s':>9}{'ratio':>8}   target")
    print(row(".r 1d100, one at a time", "r_seq", "≥ 0.9"))
    print(row(".r 1d100, 16 in flight", "r_16", "≥ 0.9"))
    o, b = ours["r_64_p99"], base["r_64_p99"]
    print(f"  {'.r p99 at 64 in flight (ms)':<40}{o:>9.1f}{b:>9.1f}{o / b:>8.2f}   ≤ 2 (ours/bare)")
    for key, label in (
        ("r_attr_16", ".r 1d20+力量, 16 in flight"),
        ("st_flat_16", ".st 力量+1, 16 in flight"),
    ):
        s, g = flat_small[key], flat_big[key]
        print(
            f"  flat {label:<35}{s:>9.0f}{g:>9.0f}{s / g:>8.2f}   ≤ 1.2 (1k chars / 100k chars+10k sessions)"
        )
    print(
        f"  burst of 500 at {rate:.0f}/s, other user p95 ms: ours idle {idle95:.1f} busy {busy95:.1f}"
        f" → {busy95 / idle95:.2f}× (target ≤ 2); bare idle {e_idle95:.1f} busy {e_busy95:.1f}"
        f" → {e_busy95 / e_idle95:.2f}×"
    )


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3, help="ours and the bare bot alternate this many times")
    ap.add_argument("--burst-rate", type=float, default=None, help="default: half the bare bot's rate")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        echo, echo_port = start_echo(Path(tmp))
        echo_url = f"ws://127.0.0.1:{echo_port}/onebot/v11/ws"
        try:
            await asyncio.sleep(1.5)
            for kind in ("sqlite", "postgres") if args.db == "both" else (args.db,):
                await run_backend(kind, args.n, args.burst_rate, echo_url, Path(tmp), args.rounds)
        finally:
            echo.terminate()
            echo.wait(10)


if __name__ == "__main__":
    asyncio.run(main())
