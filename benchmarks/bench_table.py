"""Issue 40: a table-shaped load — many players in their own groups, each waiting for its reply.

Starts ``python bot.py`` (flood control off: CHRONODICE_FLOOD_ENABLED=false) on a fresh SQLite
and/or PostgreSQL database and drives it over the real reverse WebSocket with the e2e tests'
fake OneBot client.  ``--players`` virtual players (default 200), each with a group and a user
of its own: 75 % CoC players, 12.5 % GMs of a 20-combatant D20 tick combat, 12.5 % GMs of a
TimeLine battle (one battle pre-grown to 1,000 actions).  Each sends a command, waits for the
bot's first group message in its group, records the latency under its kind and thinks an
exponential 1 s; the timed phase lasts ``--seconds``.  Setup (untimed), per group:

* CoC: ``.set coc7`` (as group owner), ``.st 力量50 侦查60``; then, uniformly, ``.r 1d100`` (coc_r),
  ``.ra 侦查`` (coc_ra), ``.st 力量+1`` / ``.st 力量-1`` (coc_st), as a member;
* D20: ``.set tick20``, ``.init begin``, ``.ri =1 怪1, …, =10 怪10``, ``.ri =11 怪11, …, =20 怪20``,
  ``.init start``; then the GM (group owner) sends ``.init next`` (init_next);
* TimeLine: ``.set tl``, four ``.TLsetup 姓名:N0…N3,…`` by the GM, ``.bat 开始 N0 N1 N2 N3``; then
  the GM declares for its NPCs in turn, ``.bat N{k%4}:力量 {10..200} [>N{k+1}] 第k招`` (every
  other one aimed), one new action each (bat; bat_big for the battle pre-grown to 1,000).

After the timed phase, the growth target: the median of 50 more ``.bat`` at c=1 (nothing else
running, no ``.undo``: a ``.undo`` makes the next ``.bat`` reload the battle) on a fresh battle
of 25 actions and on the big one (by then 1,000 plus its timed-phase actions).  Before the timed
phase, the big battle's bytes in the database right after its growth: the lengths of its
``sessions.state``, ``session_rows`` items and ``session_log`` rows (command, patch, before,
characters_before) on SQLite, ``pg_column_size`` of those rows on PostgreSQL (table rows only:
no indexes, no free pages).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_table.py [--db sqlite|postgres|both]
        [--seconds 60] [--players 200] [--seed 40]

Prints Markdown tables with PASS/MISS per target; exits non-zero only on errors.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_targets import Databases, pct  # noqa: E402
from onebot_client import BotProcess, OneBotClient  # noqa: E402

SHEET = (
    ".TLsetup 姓名:{name},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
    "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
)
KINDS = ("coc_r", "coc_ra", "coc_st", "init_next", "bat", "bat_big")
# what a reply that did the command's work holds (anything else is counted as wrong)
EXPECT = {
    "coc_r": re.compile(r"掷骰: 1d100=\d+$"),
    "coc_ra": re.compile(r"的侦查检定：D100=\d+/\d+ "),
    "coc_st": re.compile(r"^已录入 <.+>：力量[+-]1→\d+$"),
    "init_next": re.compile(r"▶ 怪\d+ 的回合"),
    "bat": re.compile(r"(^|\n)行动#\d+ N\d："),
    "bat_big": re.compile(r"(^|\n)行动#\d+ N\d："),
}
LATE_S = 10.0
GIVE_UP_S = 30.0
BIG_ACTIONS = 1000
SMALL_ACTIONS = 25
GROWTH_RUNS = 50
GROUP0, USER0 = 810000, 910000
ACTIONS_RE = re.compile(r"行动(\d+)个")


class SetupError(RuntimeError):
    pass


class Router:
    """Hands each group message to the one message waiting in that group (one player per group,
    one message in flight per player)."""

    def __init__(self, client: OneBotClient) -> None:
        self.client = client
        self.waiting: dict[int, asyncio.Future[tuple[float, str]]] = {}
        self.extra = 0  # group messages nobody waited for (a second message for one command)
        self.private = 0
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            call = await self.client.calls.get()
            now = time.perf_counter()
            if call.is_private:
                self.private += 1
            elif call.to_group:
                fut = self.waiting.pop(int(call.params.get("group_id", 0)), None)
                if fut is None or fut.done():
                    self.extra += 1
                else:
                    fut.set_result((now, call.text))

    async def ask(self, group: int, user: int, role: str, text: str) -> tuple[float | None, str, bool]:
        """Send ``text``; (latency in ms or None when no reply came in GIVE_UP_S, the reply's
        text, whether it came later than LATE_S)."""
        fut: asyncio.Future[tuple[float, str]] = asyncio.get_running_loop().create_future()
        self.waiting[group] = fut
        t0 = time.perf_counter()
        await self.client.post(text, user=user, group=group, role=role)
        try:
            t1, reply = await asyncio.wait_for(asyncio.shield(fut), GIVE_UP_S)
        except asyncio.TimeoutError:
            self.waiting.pop(group, None)
            return None, "", True
        ms = (t1 - t0) * 1000
        return ms, reply, ms > LATE_S * 1000

    async def say(self, group: int, user: int, text: str, want: str, role: str = "owner") -> str:
        """A setup step: its reply must hold ``want``."""
        ms, reply, _ = await self.ask(group, user, role, text)
        if ms is None or want not in reply:
            raise SetupError(f"group {group}: {text[:40]!r} → {reply[:200]!r} (wanted {want!r})")
        return reply

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


@dataclass
class Player:
    kind: str  # coc, d20, tl
    group: int
    user: int
    big: bool = False
    k: int = 0

    def next(self, rng: random.Random) -> tuple[str, str, str]:
        """(kind, text, role) of the next command."""
        if self.kind == "coc":
            kind, text = rng.choice((("coc_r", ".r 1d100"), ("coc_ra", ".ra 侦查"), ("coc_st", "")))
            return kind, text or f".st 力量{rng.choice('+-')}1", "member"
        if self.kind == "d20":
            return "init_next", ".init next", "owner"
        self.k += 1
        return ("bat_big" if self.big else "bat"), bat_text(self.k, rng), "owner"


def bat_text(k: int, rng: random.Random) -> str:
    aim = f" >N{(k + 1) % 4}" if k % 2 else ""
    return f".bat N{k % 4}:力量 {rng.randint(10, 200)}{aim} 第{k}招"


@dataclass
class Stats:
    lat: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    wrong: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    late: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    missing: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    samples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    wrong_samples: list[str] = field(default_factory=list)

    def record(self, kind: str, ms: float | None, reply: str, late: bool) -> None:
        if ms is None:
            self.missing[kind] += 1
            return
        self.lat[kind].append(ms)
        self.late[kind] += late
        if not EXPECT[kind].search(reply):
            self.wrong[kind] += 1
            if len(self.wrong_samples) < 5:
                self.wrong_samples.append(f"{kind}: {reply[:160]!r}")
        elif not self.samples[kind]:
            self.samples[kind].append(reply)


# ------------------------------------------------------------------ setup
async def setup_tl(r: Router, group: int, user: int, actions: int, rng: random.Random) -> None:
    await r.say(group, user, ".set tl", "时间线")
    for i in range(4):
        await r.say(group, user, SHEET.format(name=f"N{i}"), "设置完成")
    await r.say(group, user, ".bat 开始 N0 N1 N2 N3", "战斗开始")
    for k in range(actions):
        await r.say(group, user, bat_text(k, rng), f"行动#{k + 1} ")


async def setup(r: Router, p: Player, rng: random.Random) -> None:
    g, u = p.group, p.user
    if p.kind == "coc":
        await r.say(g, u, ".set coc7", "CoC7")
        await r.say(g, u, ".st 力量50 侦查60", "已录入", role="member")
    elif p.kind == "d20":
        await r.say(g, u, ".set tick20", "D20")
        await r.say(g, u, ".init begin", "新战斗")
        await r.say(g, u, ".ri " + ", ".join(f"={i} 怪{i}" for i in range(1, 11)), "共10名参战者")
        await r.say(g, u, ".ri " + ", ".join(f"={i} 怪{i}" for i in range(11, 21)), "共20名参战者")
        await r.say(g, u, ".init start", "的回合")
    else:
        await setup_tl(r, g, u, BIG_ACTIONS if p.big else 0, rng)
        p.k = BIG_ACTIONS if p.big else 0


def make_players(n: int) -> list[Player]:
    d20 = tl = max(1, round(n * 0.125))
    kinds = ["coc"] * (n - d20 - tl) + ["d20"] * d20 + ["tl"] * tl
    players = [Player(kind, GROUP0 + i, USER0 + i) for i, kind in enumerate(kinds)]
    next(p for p in players if p.kind == "tl").big = True
    return players


async def growth(r: Router, big: Player, rng: random.Random) -> tuple[float, float, int, int]:
    """Median ms of GROWTH_RUNS more ``.bat`` (c=1, nothing else running) on a fresh battle of
    SMALL_ACTIONS and on the big battle; the action counts each started at."""
    small = Player("tl", GROUP0 - 1, USER0 - 1, k=SMALL_ACTIONS)
    await setup_tl(r, small.group, small.user, SMALL_ACTIONS, rng)
    medians, starts = [], []
    for p in (small, big):
        times = []
        for j in range(GROWTH_RUNS):
            p.k += 1
            ms, reply, _ = await r.ask(p.group, p.user, "owner", bat_text(p.k, rng))
            if ms is None or not EXPECT["bat"].search(reply):
                raise SetupError(f"growth .bat in group {p.group}: {reply[:200]!r}")
            times.append(ms)
            if j == 0:
                m = ACTIONS_RE.search(reply)
                starts.append(int(m.group(1)) - 1 if m else -1)  # the count includes this one
        medians.append(statistics.median(times))
    return medians[0], medians[1], starts[0], starts[1]


# ------------------------------------------------------------------ measuring
def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def battle_bytes(kind: str, url: str, scope: str) -> int:
    tables = (
        ("sessions", "CAST(state AS BLOB)"),
        ("session_rows", "CAST(item AS BLOB)"),
        (
            "session_log",
            "CAST(command AS BLOB)) + coalesce(length(CAST(patch AS BLOB)), 0)"
            " + coalesce(length(CAST(before AS BLOB)), 0)"
            " + coalesce(length(CAST(characters_before AS BLOB)), 0",
        ),
    )
    if kind == "sqlite":
        con = sqlite3.connect(url.split("///", 1)[1])
        try:
            return sum(
                con.execute(
                    f"SELECT coalesce(sum(length({expr})), 0) FROM {t} WHERE scope = ?", (scope,)
                ).fetchone()[0]
                for t, expr in tables
            )
        finally:
            con.close()
    import asyncpg

    conn = await asyncpg.connect(url.replace("+asyncpg", ""))
    try:
        q = "SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {} t WHERE scope = $1"
        return sum([int(await conn.fetchval(q.format(t), scope)) for t, _ in tables])
    finally:
        await conn.close()


async def play(r: Router, p: Player, stats: Stats, end: float, rng: random.Random) -> None:
    await asyncio.sleep(rng.expovariate(1.0))
    while time.perf_counter() < end:
        kind, text, role = p.next(rng)
        ms, reply, late = await r.ask(p.group, p.user, role, text)
        stats.record(kind, ms, reply, late)
        think = rng.expovariate(1.0)
        if time.perf_counter() + think >= end:
            return
        await asyncio.sleep(think)


def mark(ok: bool) -> str:
    return "PASS" if ok else "MISS"


async def run_backend(kind: str, seconds: float, n: int, seed: int, tmp: Path) -> None:
    dbs = Databases(kind, tmp)
    try:
        url = await dbs.make("table", 0, 0)
        (tmp / kind).mkdir(exist_ok=True)
        env = {"LOG_LEVEL": "WARNING", "CHRONODICE_FLOOD_ENABLED": "false"}
        bot = BotProcess(workdir=tmp / kind, database_url=url, extra_env=env)
        bot.start()
        try:
            await asyncio.sleep(1.0)
            async with OneBotClient(bot.url) as client:
                r = Router(client)
                try:
                    await measure(kind, seconds, n, seed, r, bot, url)
                finally:
                    await r.close()
        finally:
            bot.stop()
    finally:
        await dbs.drop()


async def measure(kind: str, seconds: float, n: int, seed: int, r: Router, bot: BotProcess, url: str) -> None:
    assert bot.proc is not None
    rng = random.Random(seed)
    players = make_players(n)
    big = next(p for p in players if p.big)
    t0 = time.perf_counter()
    gate = asyncio.Semaphore(8)

    async def one(p: Player) -> None:
        if p.big:  # the long one, alone, sequential: starts at once, beside the others
            await setup(r, p, random.Random(seed + 1))
            return
        async with gate:
            await setup(r, p, random.Random(seed + p.user))

    await asyncio.gather(*(one(p) for p in players))
    setup_s = time.perf_counter() - t0
    disk = await battle_bytes(kind, url, str(big.group))
    rss_before = rss_mb(bot.proc.pid)
    r.extra = r.private = 0

    stats = Stats()
    end = time.perf_counter() + seconds
    t0 = time.perf_counter()
    await asyncio.gather(*(play(r, p, stats, end, random.Random(seed * 1000 + p.user)) for p in players))
    wall = time.perf_counter() - t0
    await asyncio.sleep(0.5)  # any second message of the last commands
    rss_after = rss_mb(bot.proc.pid)
    extra, private = r.extra, r.private
    small_ms, big_ms, small_n, big_n = await growth(r, big, rng)

    p99_target = 50.0 if kind == "sqlite" else 100.0
    total = sum(len(stats.lat[k]) + stats.missing[k] for k in KINDS)
    late = sum(stats.late.values())
    missing = sum(stats.missing.values())
    many = {k: sum(p.kind == k for p in players) for k in ("coc", "d20", "tl")}
    print(
        f"\n### {kind}: {n} players ({many['coc']} CoC, {many['d20']} D20 GMs, {many['tl']} TimeLine"
        f" GMs), {seconds:g} s, setup {setup_s:.0f} s\n"
    )
    head = "| kind | count | p50 ms | p95 ms | p99 ms | max ms | wrong | >10 s | missing | p50 ≤ 10 "
    print(head + f"| p99 ≤ {p99_target:g} |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|:-:|:-:|")
    rows = [(k, stats.lat[k], stats.wrong[k], stats.late[k], stats.missing[k]) for k in KINDS]
    every = [x for k in KINDS for x in stats.lat[k]]
    for k, v, wrong, lt, miss in [*rows, ("all", every, sum(stats.wrong.values()), late, missing)]:
        p50, p99 = pct(v, 0.5), pct(v, 0.99)
        ok = f"{mark(p50 <= 10)} | {mark(p99 <= p99_target)}" if k != "all" else " | "
        ms = f"{p50:.1f} | {pct(v, 0.95):.1f} | {p99:.1f} | {max(v, default=float('nan')):.1f}"
        print(f"| {k} | {len(v)} | {ms} | {wrong} | {lt} | {miss} | {ok} |")
    ratio = big_ms / small_ms
    figures = [
        (f"commands/s (sent in {seconds:g} s, end at {wall:.1f} s)", f"{total / seconds:.0f}", "≈ 180", ""),
        (f"replies > 10 s / none in {GIVE_UP_S:g} s", f"{late} / {missing}", "0", mark(late + missing == 0)),
        ("bot RSS after setup, MB", f"{rss_before:.0f}", "", ""),
        ("bot RSS after the run, MB", f"{rss_after:.0f}", "≤ 150", mark(rss_after <= 150)),
        (f".bat median from {small_n} actions (c=1, {GROWTH_RUNS} runs), ms", f"{small_ms:.1f}", "", ""),
        (f".bat median from {big_n} actions (c=1, {GROWTH_RUNS} runs), ms", f"{big_ms:.1f}", "", ""),
        (f"ratio {big_n} / {small_n} actions", f"{ratio:.2f}", "≤ 1.5", mark(ratio <= 1.5)),
        (f"big battle's rows at {BIG_ACTIONS} actions, MB", f"{disk / 1e6:.2f}", "≤ 2", mark(disk <= 2e6)),
        ("group messages beyond the first / private messages", f"{extra} / {private}", "", ""),
    ]
    print("\n| figure | value | target | |\n|---|--:|--:|:-:|")
    for row in figures:
        print("| " + " | ".join(row) + " |")
    print("\nSample replies:")
    for k in KINDS:
        for s in stats.samples[k][:1]:
            print(f"- {k}: `{s[:150].replace(chr(10), ' ⏎ ')}`")
    for s in stats.wrong_samples:
        print(f"- WRONG {s}")


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--seed", type=int, default=40)
    args = ap.parse_args()
    print(f"bot: {ROOT / 'bot.py'}")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("sqlite", "postgres") if args.db == "both" else (args.db,):
            await run_backend(kind, args.seconds, args.players, args.seed, Path(tmp))


if __name__ == "__main__":
    asyncio.run(main())
