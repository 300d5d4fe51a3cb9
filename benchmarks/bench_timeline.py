"""Benchmark: ``.bat`` with a 500-action battle timeline, as text and as a picture.

Builds a battle of N actions (default 500) among 8 characters (players and NPCs, with weapon
actions, actions aimed at somebody (interactions reported), control effects (``.bat 控制``), the
GM cancelling older actions (``.bat 取消 #N``), 体力 changes recorded at a hit's time (``.crd … #N``)
and a death) through the TimeLine commands on a temp SQLite
store, then times ``.bat`` (text), ``.bat 图`` (picture), ``.bat 记录`` (a log page) and one more
declared action (taken back with ``.undo`` each time) through ``App.dispatch``, and the renderers
and the clock alone.  Prints p50/max per command, the reply length
(must stay ≤ 1500 characters) and the picture's size in pixels and bytes.

    .venv/bin/python benchmarks/bench_timeline.py [N] [--size-only] [--growth-only]

Also prints the size of the database file the battle left (state + the compact log).

Then issue 24's growth target, each on a fresh store: a started battle of 8 characters is
declared up to 10 and to 1,000 actions (every other action aimed at somebody, nothing taken
back), and the mean cost of one more ``.bat`` declaration (over the next 100, after 10 untimed
ones) is printed at both sizes with their ratio (target ≤ 1.5), and the size on disk of the
1,000-action battle — the database file with its ``-wal`` and ``-shm`` files, the store still
open, at rest (target ≤ 2 MB) and right after the burst.  ``--growth-only`` prints only that.
"""

from __future__ import annotations

import asyncio
import io
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from PIL import Image  # noqa: E402

import chronodice.services.common  # noqa: E402
import chronodice.services.timeline  # noqa: E402, F401
from chronodice.app import App  # noqa: E402
from chronodice.core.context import Context  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.render import timeline as view  # noqa: E402
from chronodice.rules.timeline.battle import BattleState, settle  # noqa: E402
from chronodice.store import Store  # noqa: E402

SHEET = (
    ".TLsetup 姓名:{name},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
    "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
)
GM = "99999"
GROUP = "30003"


def ctx(user: str) -> Context:
    roles = frozenset({"admin"}) if user == GM else frozenset()
    return Context(user_id=user, group_id=GROUP, sender_name=f"PL{user}", roles=roles)


async def timed(app: App, user: str, text: str, runs: int) -> tuple[list[float], list]:
    times, replies = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        replies = await app.dispatch(ctx(user), text) or []
        times.append((time.perf_counter() - t0) * 1000)
    return times, replies


async def main(n: int, size_only: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}")
        await store.migrate()
        app = App(store, random.Random(7), flood=FloodSettings(enabled=False))
        players = [str(10001 + i) for i in range(5)]
        for i, user in enumerate(players):
            await app.dispatch(ctx(user), SHEET.format(name=f"角色{i + 1}"))
        for i in range(3):
            await app.dispatch(ctx(GM), SHEET.format(name=f"NPC{i + 1}"))
        await app.dispatch(
            ctx(players[0]),
            ".setupWP 名称:左轮,类型:火力,增幅属性:,伤害:3,前摇:0.5,射程:50,载弹量:6,装填时间:4,负重:1,备注:",
        )
        rng = random.Random(1)
        t0 = time.perf_counter()
        ammo = 6
        counts = {"interaction": 0, "control": 0, "cancel": 0}
        names = [f"角色{i + 1}" for i in range(5)] + [f"NPC{i + 1}" for i in range(3)]
        for k in range(n):
            actor = rng.randrange(8)
            if actor < 5:
                user, prefix = players[actor], ""
            else:
                user, prefix = GM, f"NPC{actor - 4}:"
            if actor == 0 and k % 3 == 0:
                cmd = ".bat wp re" if ammo == 0 else ".bat wp 2"
                ammo = 6 if ammo == 0 else ammo - 2
            else:
                aim = f" >{names[rng.randrange(8)]}" if k >= 16 and k % 2 else ""
                cmd = (
                    f".bat {prefix}{rng.choice(['力量', '敏捷', '智力'])} {rng.randint(10, 200)}{aim} 第{k}招"
                )
            replies = await app.dispatch(ctx(user), cmd) or []
            counts["interaction"] += sum(r.text.count("⚔ 交互") for r in replies)
            if k % 50 == 25:
                await app.dispatch(ctx(players[1 + k % 4]), f".crd hp -5 #{max(1, k - 20)}")
            if k % 40 == 30:
                replies = await app.dispatch(ctx(GM), f".bat 控制 #{k - 12} 意志") or []
                counts["control"] += any("被行动" in r.text for r in replies)
            if k % 30 == 20:
                replies = await app.dispatch(ctx(GM), f".bat 取消 #{k - 2}") or []
                counts["cancel"] += any("取消行动" in r.text for r in replies)
        build = time.perf_counter() - t0
        raw, _ = await store.sessions.load_session(GROUP, "timeline")
        state = BattleState.from_dict(raw or {})
        print(
            f"built a battle of {len(state.actions)} actions, {len(state.events)} events, "
            f"{len(state.participants)} characters in {build:.1f}s ({build / n * 1000:.1f} ms/command); "
            f"clock {state.clock:g}t, {counts['interaction']} interactions reported, "
            f"{counts['control']} controls, {counts['cancel']} GM cancels of older actions"
        )
        await store.close()  # checkpoints the WAL into the file
        db = Path(tmp) / "bench.db"
        con = sqlite3.connect(db)
        log_kb, log_rows = con.execute(
            "SELECT coalesce(sum(length(CAST(patch AS TEXT))) + sum(coalesce(length(before), 0)), 0) / 1024.0,"
            " count(*) FROM session_log"
        ).fetchone()
        state_kb = con.execute("SELECT sum(length(state)) / 1024.0 FROM sessions").fetchone()[0]
        con.close()
        files = sum(f.stat().st_size for f in Path(tmp).glob("bench.db*"))
        print(
            f"database: {files / 1024 / 1024:.2f} MB in all (log {log_kb:.0f} KB in {log_rows} rows, "
            f"about {log_kb * 1024 / max(1, log_rows):.0f} B per command; state {state_kb:.0f} KB)"
        )
        if size_only:
            return
        store = Store(f"sqlite+aiosqlite:///{db}")

        rows = []
        for label, text, runs in (
            (".bat", ".bat", 20),
            (".bat 图", ".bat 图", 5),
            (".bat 记录 1", ".bat 记录 1", 20),
        ):
            times, replies = await timed(app, players[0], text, runs)
            reply = replies[0]
            size = ""
            if reply.image:
                img = Image.open(io.BytesIO(reply.image))
                size = f" picture {img.width}×{img.height}px {len(reply.image) / 1024:.0f} KiB"
            rows.append(
                f"{label:<12} p50 {statistics.median(times):7.1f} ms  max {max(times):7.1f} ms  "
                f"text {len(reply.text)} chars{size}"
            )
            assert len(reply.text) <= 1500
        times = []
        for _ in range(10):  # one more declared action at N, then .undo (not timed)
            t0 = time.perf_counter()
            await app.dispatch(ctx(players[2]), ".bat 力量 50 >NPC1")
            times.append((time.perf_counter() - t0) * 1000)
            await app.dispatch(ctx(GM), ".undo")
        rows.append(f"{'.bat 力量 50':<12} p50 {statistics.median(times):7.1f} ms  max {max(times):7.1f} ms")
        display = view.Display()
        for label, fn in (
            ("render text", lambda: view.timeline_text(state, display)),
            ("render png", lambda: view.timeline_image(state, display)),
            ("state load", lambda: BattleState.from_dict(raw or {})),
            ("clock", lambda: settle(state)),
        ):
            times = []
            for _ in range(5):
                t0 = time.perf_counter()
                fn()
                times.append((time.perf_counter() - t0) * 1000)
            rows.append(f"{label:<12} p50 {statistics.median(times):7.1f} ms  max {max(times):7.1f} ms")
        print("\n".join(rows))
        await store.close()


GROWTH_SIZES = (10, 1000)
GROWTH_RUNS = 100
GROWTH_WARMUP = 10
GROWTH_RATIO = 1.5
GROWTH_DISK_MB = 2.0


async def declaration_cost(n: int) -> tuple[float, dict[str, int], dict[str, int]]:
    """A started battle of ``n`` declared actions on a fresh SQLite store: the mean ms of one
    more ``.bat`` declaration in steady state (no ``.undo``), and the bytes on disk of each file
    of the database (``-wal`` and ``-shm`` too) once the ``n`` actions are in, the store open:
    right after the burst that declared them (the WAL then holds up to SQLite's own checkpoint
    size, 4 MB), and at rest (the checkpoint thread caught up, the next commit started the WAL
    over and cut it back to its 1 MB limit)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "growth.db"
        store = Store(f"sqlite+aiosqlite:///{db}")
        await store.migrate()
        app = App(store, random.Random(7), flood=FloodSettings(enabled=False))
        users = [str(10001 + i) for i in range(8)]
        names = [f"角色{i + 1}" for i in range(8)]
        for user, name in zip(users, names, strict=True):
            await app.dispatch(ctx(user), SHEET.format(name=name))
        await app.dispatch(ctx(GM), ".bat 开始 " + " ".join(names))
        rng = random.Random(1)

        async def declare(k: int) -> None:
            aim = f" >{names[rng.randrange(8)]}" if k % 2 else ""
            await app.dispatch(ctx(users[k % 8]), f".bat 力量 {rng.randint(10, 200)}{aim} 第{k}招")

        for k in range(n):
            await declare(k)
        burst = {f.name: f.stat().st_size for f in sorted(Path(tmp).glob("growth.db*"))}
        store.db.sqlite_outside("PRAGMA wal_checkpoint(PASSIVE)")  # a checkpoint
        await store.groups.set_nickname(users[0], None, "甲")  # a commit: the WAL starts over
        sizes = {f.name: f.stat().st_size for f in sorted(Path(tmp).glob("growth.db*"))}
        for k in range(n, n + GROWTH_WARMUP):
            await declare(k)
        t0 = time.perf_counter()
        for k in range(n + GROWTH_WARMUP, n + GROWTH_WARMUP + GROWTH_RUNS):
            await declare(k)
        mean = (time.perf_counter() - t0) / GROWTH_RUNS * 1000
        await store.close()
        return mean, burst, sizes


async def growth() -> None:
    """Print issue 24's targets: a declaration at 1,000 actions against one at 10, and the disk."""
    small, big = GROWTH_SIZES
    cost_small, _, _ = await declaration_cost(small)
    cost_big, burst, sizes = await declaration_cost(big)
    ratio = cost_big / cost_small
    disk = sum(sizes.values()) / 1024 / 1024
    files = ", ".join(f"{name} {size / 1024:.0f} KB" for name, size in sizes.items())
    peak = ", ".join(f"{name} {size / 1024:.0f} KB" for name, size in burst.items())
    print(
        f".bat declaration (mean of {GROWTH_RUNS}, no undo): {cost_small:.2f} ms at {small} actions, "
        f"{cost_big:.2f} ms at {big} actions: ratio {ratio:.2f} "
        f"({'within' if ratio <= GROWTH_RATIO else 'over'} the target ≤ {GROWTH_RATIO})"
    )
    print(
        f"on disk after the {big}-action battle, at rest: {disk:.2f} MB ({files}) "
        f"({'within' if disk <= GROWTH_DISK_MB else 'over'} the target ≤ {GROWTH_DISK_MB:g} MB); "
        f"right after the burst: {sum(burst.values()) / 1024 / 1024:.2f} MB ({peak})"
    )


async def run_all(n: int, size_only: bool, growth_only: bool) -> None:
    if not growth_only:
        await main(n, size_only)
    if not size_only:
        await growth()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    asyncio.run(
        run_all(int(args[0]) if args else 500, "--size-only" in sys.argv, "--growth-only" in sys.argv)
    )
