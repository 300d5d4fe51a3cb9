"""Issue 38's soak: one address takes every page slot it can and hammers ``/data``; the players
in other groups, a player's own page and NapCat's reconnect are measured meanwhile.

Issue 38 found that one client could stall the whole bot through the log pages: 8 connections
on a 3,000-line log's ``/data`` took ``.r`` in another group from 7 ms to 1.19 s median, and idle
connections from one address starved NapCat's reconnect.  The fixes (per-client stream slots,
per-link rate limits, one ``/data`` snapshot per session version, per-address connection caps)
are each tested on their own in ``tests/e2e/test_http_surface_e2e.py``; this soak runs them all
at once, for longer, and prints what the rest of the bot feels.

Against ``python bot.py`` (SQLite in a temp dir, flood control off, a public URL set):

1. a log of ``--lines`` lines in group 20021 (``.log new 长夜``, then plain messages), and its
   page link (``.log 网页``);
2. baseline: ``.r 1d100`` from a new user in a new group every 0.1 s for 5 s (round trip from
   the event sent to the group reply received), and the link's ``/data`` from 127.0.0.1 once a
   second;
3. the attack, from 127.0.0.2 in a separate process (so its CPU use does not delay this
   process's clock readings, only the bot's): up to ``--streams`` live streams on the link's
   ``/events``, held open, and ``--hammers`` loops requesting ``/data`` back to back, for
   ``--seconds``.  Meanwhile the same ``.r`` probes (unanswered if no reply within 2 s), the
   victim's ``/data`` from 127.0.0.1 once a second, and every 5 s a OneBot reconnect: the
   client closes its WebSocket and a new one connects, timed until a ``.r 1d6`` is answered
   through it;
4. the bot's RSS (``VmRSS``) before the attack, its peak during it, and 2 s after.

Prints a table and the same figures as one JSON line (for a note).  Every loop is bounded in
time; all traffic stays on 127.0.0.x.

    .venv/bin/python benchmarks/soak_web.py [--lines 3000] [--seconds 20] [--streams 400]
        [--hammers 8] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import websockets  # noqa: E402
from http_attack import ATTACKER, VICTIM, Stream, request  # noqa: E402
from onebot_client import BotProcess, OneBotClient  # noqa: E402

LOG_GROUP = 20021
OWNER = 10001
LINK = re.compile(r"http://127\.0\.0\.1:\d+(/web/log/\d+/[\w-]+)")
BASELINE_SECONDS = 5.0
PROBE_GAP = 0.1
"""Seconds between two ``.r`` probes (about 10 a second)."""
PROBE_TIMEOUT = 2.0
"""A probe with no reply in this long counts as unanswered."""
RECONNECT_EVERY = 5.0
RECONNECT_TIMEOUT = 15.0
"""The most a reconnect may take (connect and the first reply) before it counts as failed."""
VICTIM_EVERY = 1.0
STREAM_BATCH = 50
"""Streams opened at once by the attacker."""
WIDTH = 40
"""The table's first column."""
SETUP_TIMEOUT = 60.0
"""The most the log may take to be recorded, and the attacker to open its streams."""


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f}"


def rss_mb(pid: int) -> float | None:
    """The process's resident set (``VmRSS``) in MB, None when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


# ---------------------------------------------------------------------- the attacker (own process)
@dataclass
class AttackResult:
    streams: dict[str, int] = field(default_factory=dict)
    """Stream opens by outcome: an HTTP status, ``closed`` (no answer) or ``refused``."""
    streams_held: int = 0
    """Streams answered 200 still open when the attack ended."""
    data: dict[str, int] = field(default_factory=dict)
    """``/data`` requests by outcome, as for streams (and ``timeout``)."""
    seconds: float = 0.0
    """How long the hammers ran."""


async def open_stream(port: int, path: str) -> tuple[str, Stream | None]:
    try:
        stream = await Stream.open(port, path, source=ATTACKER, timeout=5.0)
    except (OSError, asyncio.TimeoutError):
        return "refused", None
    except (ValueError, IndexError):  # a garbled status line
        return "garbled", None
    if stream.status != 200:
        stream.close()  # refused pages are let go; the attacker holds what it got
        return str(stream.status) if stream.status else "closed", None
    return "200", stream


async def drain(stream: Stream, deadline: float) -> bool:
    """Read a held stream until ``deadline``; False if the server closed it first."""
    while (left := deadline - time.monotonic()) > 0:
        try:
            chunk = await asyncio.wait_for(stream.reader.read(65536), left)
        except asyncio.TimeoutError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
    return True


async def hammer(port: int, path: str, deadline: float, counts: Counter[str]) -> None:
    while time.monotonic() < deadline:
        try:
            got = await request(port, "GET", path, source=ATTACKER, timeout=5.0)
            counts[str(got.status) if got.status else "closed"] += 1
        except asyncio.TimeoutError:
            counts["timeout"] += 1
        except OSError:
            counts["refused"] += 1
            await asyncio.sleep(0.01)  # no busy loop on an address that is refused at once


async def attack(port: int, path: str, streams: int, hammers: int, seconds: float, ready: EventType) -> dict:
    result = AttackResult()
    held: list[Stream] = []
    opened: Counter[str] = Counter()
    until = time.monotonic() + SETUP_TIMEOUT
    while sum(opened.values()) < streams and time.monotonic() < until:
        batch = min(STREAM_BATCH, streams - sum(opened.values()))
        for outcome, stream in await asyncio.gather(
            *(open_stream(port, path + "/events") for _ in range(batch))
        ):
            opened[outcome] += 1
            if stream is not None:
                held.append(stream)
    result.streams = dict(opened)
    ready.set()
    start = time.monotonic()
    deadline = start + seconds
    counts: Counter[str] = Counter()
    readers = [asyncio.create_task(drain(s, deadline)) for s in held]
    await asyncio.gather(*(hammer(port, path + "/data", deadline, counts) for _ in range(hammers)))
    result.seconds = time.monotonic() - start
    result.streams_held = sum(await asyncio.gather(*readers))
    for s in held:
        s.close()
    result.data = dict(counts)
    return asdict(result)


def run_attacker(
    port: int, path: str, streams: int, hammers: int, seconds: float, ready: EventType, out: Any
) -> None:
    """The attacker process's entry: its result goes to ``out`` (a queue)."""
    out.put(asyncio.run(attack(port, path, streams, hammers, seconds, ready)))


# ---------------------------------------------------------------------- the players
async def ask(client: OneBotClient, text: str, user: int, group: int, timeout: float) -> float | None:
    """Seconds from ``text`` sent in ``group`` to the bot's reply there; None if none came."""
    while not client.calls.empty():
        client.calls.get_nowait()
    sent = time.monotonic()
    try:
        await client.post(text, user=user, group=group)
    except websockets.WebSocketException:
        return None
    while (left := sent + timeout - time.monotonic()) > 0:
        try:
            call = await asyncio.wait_for(client.calls.get(), left)
        except asyncio.TimeoutError:
            return None
        if call.to_group and int(call.params.get("group_id", 0)) == group:
            return time.monotonic() - sent
    return None


@dataclass
class Players:
    """The ``.r`` probes and reconnects, through whichever OneBot client is current."""

    client: OneBotClient
    url: str
    probes: int = 0
    reconnects: int = 0

    async def probe(self) -> float | None:
        n = self.probes
        self.probes += 1
        return await ask(self.client, ".r 1d100", 10100 + n, 30100 + n, PROBE_TIMEOUT)

    async def reconnect(self) -> float | None:
        """NapCat's reconnect: close, connect anew, roll; seconds until the roll's reply."""
        k = self.reconnects
        self.reconnects += 1
        started = time.monotonic()
        await self.client.close()
        self.client = OneBotClient(self.url)
        try:
            await asyncio.wait_for(self.client.connect(), RECONNECT_TIMEOUT)
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
            return None
        left = RECONNECT_TIMEOUT - (time.monotonic() - started)
        if await ask(self.client, ".r 1d6", 10050, 30050 + k, left) is None:
            return None
        return time.monotonic() - started

    async def run(self, seconds: float, reconnect: bool) -> tuple[list[float], int, list[float | None]]:
        """Probes every :data:`PROBE_GAP` for ``seconds`` (with a reconnect every
        :data:`RECONNECT_EVERY` if asked): answered latencies, unanswered count, reconnects."""
        start = time.monotonic()
        deadline = start + seconds
        next_reconnect = start + RECONNECT_EVERY if reconnect else float("inf")
        waits: list[float] = []
        unanswered = 0
        reconnects: list[float | None] = []
        while (now := time.monotonic()) < deadline:
            if now >= next_reconnect:
                reconnects.append(await self.reconnect())
                next_reconnect += RECONNECT_EVERY
                continue
            wait = await self.probe()
            if wait is None:
                unanswered += 1
            else:
                waits.append(wait)
            await asyncio.sleep(max(0.0, PROBE_GAP - (wait if wait is not None else PROBE_TIMEOUT)))
        return waits, unanswered, reconnects


async def victim(port: int, path: str, seconds: float) -> tuple[Counter[str], list[float]]:
    """A player's page on 127.0.0.1 reloading its ``/data`` once a second."""
    statuses: Counter[str] = Counter()
    waits: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            got = await request(port, "GET", path, source=VICTIM, timeout=5.0)
            statuses[str(got.status) if got.status else "closed"] += 1
            if got.status == 200:
                waits.append(time.monotonic() - started)
        except asyncio.TimeoutError:
            statuses["timeout"] += 1
        except OSError:
            statuses["refused"] += 1
        await asyncio.sleep(max(0.0, VICTIM_EVERY - (time.monotonic() - started)))
    return statuses, waits


async def peak_rss(pid: int, stop: asyncio.Event) -> float:
    peak = 0.0
    while not stop.is_set():
        peak = max(peak, rss_mb(pid) or 0.0)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)
    return peak


# ---------------------------------------------------------------------- the soak
async def fill_log(client: OneBotClient, port: int, lines: int) -> tuple[str, float]:
    """The log of ``lines`` lines and its page path; seconds until ``/data`` showed them all."""
    reply = await client.send(".log new 长夜", user=OWNER, group=LOG_GROUP, role="owner", expect=1, quiet=0)
    if "开始记录" not in reply[0].text:
        raise RuntimeError(f".log new: {reply[0].text!r}")
    started = time.monotonic()
    for n in range(lines):
        await client.post(
            f"第{n}句：我们沿着走廊往前走，手电的光在墙上晃。", user=10002 + n % 3, group=LOG_GROUP
        )
    calls = await client.send(
        ".log 网页", user=OWNER, group=LOG_GROUP, expect=1, quiet=0, timeout=SETUP_TIMEOUT
    )
    m = LINK.search(calls[0].text)
    if m is None:
        raise RuntimeError(f".log 网页: {calls[0].text!r}")
    path = m.group(1)
    total = -1
    while time.monotonic() - started < SETUP_TIMEOUT:
        got = await request(port, "GET", path + "/data", source=VICTIM)
        if got.status == 200:
            total = json.loads(got.body)["total"]
            if total >= lines:
                return path, time.monotonic() - started
        await asyncio.sleep(0.5)
    raise RuntimeError(f"the log holds {total} of {lines} lines after {SETUP_TIMEOUT:.0f} s")


async def soak(proc: BotProcess, args: argparse.Namespace) -> dict[str, Any]:
    pid = proc.proc.pid if proc.proc else 0
    out: dict[str, Any] = {"lines": args.lines, "seconds": args.seconds, "db": args.db}
    players = Players(await _connected(proc.url), proc.url)
    try:
        path, out["log_fill_s"] = await fill_log(players.client, proc.port, args.lines)
        for _ in range(3):  # warm-up: the first rolls load what a roll needs
            await players.probe()
        base, base_victim = await asyncio.gather(
            players.run(BASELINE_SECONDS, reconnect=False),
            victim(proc.port, path + "/data", BASELINE_SECONDS),
        )
        out["baseline"] = _latencies(base[0]) | {"n": len(base[0]), "unanswered": base[1]}
        out["victim_baseline"] = _victim(*base_victim)
        out["rss_before_mb"] = rss_mb(pid)

        ctx = multiprocessing.get_context("spawn")
        ready, results = ctx.Event(), ctx.Queue()
        attacker = ctx.Process(
            target=run_attacker,
            args=(proc.port, path, args.streams, args.hammers, args.seconds, ready, results),
            daemon=True,
        )
        stop_rss = asyncio.Event()
        rss_task = asyncio.create_task(peak_rss(pid, stop_rss))
        attacker.start()
        try:
            if not await asyncio.to_thread(ready.wait, SETUP_TIMEOUT + 30):
                raise RuntimeError("the attacker did not open its streams in time")
            during, during_victim = await asyncio.gather(
                players.run(args.seconds, reconnect=True),
                victim(proc.port, path + "/data", args.seconds),
            )
            attack_result: dict = await asyncio.to_thread(results.get, True, 30)
        finally:
            attacker.join(5)
            if attacker.is_alive():
                attacker.terminate()
                attacker.join(5)
        stop_rss.set()
        out["rss_peak_mb"] = await rss_task
        out["attack"] = _latencies(during[0]) | {"n": len(during[0]), "unanswered": during[1]}
        out["victim_attack"] = _victim(*during_victim)
        data = attack_result["data"]
        out["streams"] = attack_result["streams"] | {"held_to_end": attack_result["streams_held"]}
        out["attacker_data"] = data | {
            "req_per_s": round(sum(data.values()) / max(attack_result["seconds"], 1e-9), 1)
        }
        reconnects = during[2]
        out["reconnects"] = {
            "n": len(reconnects),
            "ok": sum(r is not None for r in reconnects),
            "max_s": round(max((r for r in reconnects if r is not None), default=0.0), 3),
            "each_s": [None if r is None else round(r, 3) for r in reconnects],
        }
        after = await players.probe()
        out["after_probe_ms"] = None if after is None else round(after * 1000, 1)
        await asyncio.sleep(2.0)
        out["rss_after_mb"] = rss_mb(pid)
    finally:
        await players.client.close()
    return out


async def _connected(url: str) -> OneBotClient:
    client = OneBotClient(url)
    await client.connect()
    return client


def _latencies(waits: list[float]) -> dict[str, float | None]:
    return {
        "p50_ms": None if not waits else round(statistics.median(waits) * 1000, 1),
        "p95_ms": None if (p := pct(waits, 0.95)) is None else round(p * 1000, 1),
        "max_ms": None if not waits else round(max(waits) * 1000, 1),
    }


def _victim(statuses: Counter[str], waits: list[float]) -> dict[str, Any]:
    return {"statuses": dict(statuses)} | _latencies(waits)


def log_findings(log: str) -> dict[str, int]:
    """Counts of what should not be in the bot's log after a soak."""
    return {
        "tracebacks": log.count("Traceback"),
        "errors": sum(" ERROR " in line or "[ERROR]" in line for line in log.splitlines()),
        "warnings": sum(" WARNING " in line or "[WARNING]" in line for line in log.splitlines()),
        "too_many_open_files": log.count("Too many open files"),
        "task_exception_never_retrieved": log.count("Task exception was never retrieved"),
    }


def print_table(r: dict[str, Any], args: argparse.Namespace) -> None:
    def row(name: str, lat: dict[str, Any], extra: str = "") -> None:
        cells = [ms(None if lat[k] is None else lat[k] / 1000) for k in ("p50_ms", "p95_ms", "max_ms")]
        print(f"  {name:<{WIDTH}}{cells[0]:>8}{cells[1]:>8}{cells[2]:>8}  {extra}")

    def line(name: str, text: str) -> None:
        print(f"  {name:<{WIDTH}}{text}")

    def counts(d: dict[str, int]) -> str:
        return "  ".join(f"{k}: {v}" for k, v in sorted(d.items()))

    print(
        f"soak: a {args.lines}-line log (filled in {r['log_fill_s']:.1f} s), {args.streams} streams + "
        f"{args.hammers} /data hammers from {ATTACKER} for {args.seconds:g} s ({args.db})"
    )
    print(f"  {'':<{WIDTH}}{'p50':>8}{'p95':>8}{'max':>8}  (ms)")
    row(f".r baseline (n={r['baseline']['n']})", r["baseline"], f"unanswered {r['baseline']['unanswered']}")
    row(f".r under attack (n={r['attack']['n']})", r["attack"], f"unanswered {r['attack']['unanswered']}")
    row(
        f"victim /data baseline ({VICTIM})",
        r["victim_baseline"],
        counts(r["victim_baseline"]["statuses"]),
    )
    row(f"victim /data under attack ({VICTIM})", r["victim_attack"], counts(r["victim_attack"]["statuses"]))
    s = dict(r["streams"])
    held = s.pop("held_to_end")
    line(f"streams opened ({ATTACKER})", f"{counts(s)}  (200s held to the end: {held})")
    d = dict(r["attacker_data"])
    rate = d.pop("req_per_s")
    line(f"/data from {ATTACKER}", f"{counts(d)}  ({rate:.0f} req/s)")
    rc = r["reconnects"]
    verdict = "all succeeded" if rc["ok"] == rc["n"] else f"{rc['n'] - rc['ok']} FAILED"
    line("OneBot reconnects", f"{rc['n']}, max {rc['max_s']:.2f} s, {verdict} {rc['each_s']}")
    line(
        "bot RSS MB",
        f"before {r['rss_before_mb']:.0f}, peak {r['rss_peak_mb']:.0f}, after {r['rss_after_mb'] or 0:.0f}",
    )
    line(".r after the attack", f"{r['after_probe_ms']} ms")
    line("bot log", counts(r["log"]))
    print(json.dumps(r, ensure_ascii=False, separators=(",", ":")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=3000, help="lines in the attacked log")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the attack runs")
    parser.add_argument("--streams", type=int, default=400, help="live streams the attacker tries to open")
    parser.add_argument("--hammers", type=int, default=8, help="concurrent /data loops of the attacker")
    parser.add_argument("--db", choices=("sqlite",), default="sqlite", help="the store (SQLite only)")
    parser.add_argument("--workdir", type=Path, help="keep the bot's database and log here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        proc = BotProcess(
            workdir=workdir,
            extra_env={"CHRONODICE_RNG_SEED": "20261128", "CHRONODICE_FLOOD_ENABLED": "false"},
        )
        proc.extra_env["CHRONODICE_PUBLIC_URL"] = f"http://127.0.0.1:{proc.port}"
        mark = proc.log_path.stat().st_size if proc.log_path.exists() else 0
        proc.start()
        try:
            result = asyncio.run(soak(proc, args))
        finally:
            proc.stop()
        with proc.log_path.open("rb") as f:
            f.seek(mark)
            log = f.read().decode(errors="replace")
        result["log"] = log_findings(log)
        result["exit_code"] = proc.proc.returncode if proc.proc else None
    print_table(result, args)


if __name__ == "__main__":
    main()
