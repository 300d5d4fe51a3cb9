"""Issue 28's benchmark: 200 open live pages on one TimeLine battle while the GM declares.

Starts ``python bot.py`` with ``CHRONODICE_PUBLIC_URL`` set and drives it over the real reverse
WebSocket with the e2e tests' fake OneBot client.  The GM declares NPC actions at 20 commands
per 6 s (one every 0.3 s) in three runs, each on a fresh battle (``.bat end`` between):

1. no page open;
2. ``--pages`` (200) event streams open on the battle's player link (plain HTTP/1.0 sockets,
   as a browser's ``EventSource`` reads them), each timing when every declaration shows;
3. no page open again.

Prints, for run 2, the latency from a declaration's message to its bar arriving on *every*
stream (max and p95 over all streams and declarations: each must be under 1 s), and the chat
replies' p95 (message → first reply) of each run, with the ratio of run 2 to the two runs
without pages (must stay ≤ 1.5).

    .venv/bin/python benchmarks/bench_web.py [--pages 200] [-n 40]

Flood control is off (one GM at 3.3 commands a second would be held by the group bucket).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from onebot_client import BotProcess, OneBotClient  # noqa: E402

SHEET = (
    ".TLsetup 姓名:{name},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
    "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
)
GROUP = 20002
GM = {"user": 10001, "role": "admin", "card": "主持人"}
NPCS = ("NPC1", "NPC2", "NPC3")
PERIOD = 6.0 / 20
"""Seconds between two declarations (20 commands per 6 s)."""
LINK = re.compile(r"http://127\.0\.0\.1:\d+(/web/tl/\d+/[\w-]+)")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Stream:
    """One open page's event stream: (arrival time, highest action id shown) per message."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    seen: list[tuple[float, int]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, port: int, path: str) -> Stream:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path}/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream refused: {status!r}")
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        stream = cls(reader, writer)
        stream.task = asyncio.get_running_loop().create_task(stream.read())
        return stream

    async def read(self) -> None:
        while True:
            line = await self.reader.readline()
            if not line:
                return
            if line.startswith(b"data: {"):
                bars = json.loads(line[6:]).get("bars") or []
                self.seen.append((time.monotonic(), max((b["id"] for b in bars), default=0)))

    def first_showing(self, action: int) -> float | None:
        return next((t for t, top in self.seen if top >= action), None)

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.writer.close()


async def reply_time(client: OneBotClient, text: str) -> float:
    """Post ``text`` as the GM; seconds to the first API call it causes."""
    while not client.calls.empty():
        client.calls.get_nowait()
    sent = time.monotonic()
    await client.post(text, group=GROUP, **GM)
    await asyncio.wait_for(client.calls.get(), 10)
    return time.monotonic() - sent


async def battle(client: OneBotClient, n: int, port: int, pages: int) -> dict[str, list[float]]:
    """One run on a fresh battle: ``n`` declarations at :data:`PERIOD`, with ``pages`` streams
    open; the replies' latencies and (with pages) every stream's latency per declaration."""
    await client.send(f".bat {NPCS[0]}:力量 50", group=GROUP, **GM)  # action #1: the battle begins
    streams: list[Stream] = []
    if pages:
        text = "".join(c.text for c in await client.send(".bat 网页", group=GROUP, **GM) if c.to_group)
        m = LINK.search(text)
        assert m is not None, text
        streams = [await Stream.open(port, m.group(1)) for _ in range(pages)]
        while any(not s.seen for s in streams):  # every page has drawn the battle
            await asyncio.sleep(0.05)
    replies: list[float] = []
    sent_at: list[float] = []
    start = time.monotonic() + 0.5
    for k in range(n):
        await asyncio.sleep(max(0.0, start + k * PERIOD - time.monotonic()))
        sent_at.append(time.monotonic())
        replies.append(await reply_time(client, f".bat {NPCS[k % 3]}:{['力量', '敏捷'][k % 2]} {30 + k}"))
    shows: list[float] = []
    if streams:
        await asyncio.sleep(2.0)  # the last declaration reaches every page
        for s in streams:
            for k, t in enumerate(sent_at):
                got = s.first_showing(k + 2)  # action #1 came before; the k-th declared is #k+2
                shows.append(float("inf") if got is None else got - t)
            s.close()
    await client.send(".bat end", group=GROUP, **GM)
    return {"replies": replies, "shows": shows}


async def main(pages: int, n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(
            workdir=Path(tmp),
            extra_env={"LOG_LEVEL": "WARNING", "CHRONODICE_FLOOD_ENABLED": "false"},
        )
        bot.extra_env["CHRONODICE_PUBLIC_URL"] = f"http://127.0.0.1:{bot.port}"
        bot.start()
        try:
            async with OneBotClient(bot.url) as client:
                for name in NPCS:
                    await client.send(SHEET.format(name=name), group=GROUP, **GM)
                await battle(client, 10, bot.port, 0)  # warm-up
                before = await battle(client, n, bot.port, 0)
                during = await battle(client, n, bot.port, pages)
                after = await battle(client, n, bot.port, 0)
        finally:
            bot.stop()
    shows = during["shows"]
    late = [s for s in shows if s >= 1.0]
    print(f"{pages} pages on one TimeLine battle, {n} GM declarations at 20 per 6 s")
    print(
        f"  page updates: {len(shows)} (declaration × page); max {max(shows) * 1000:.0f} ms, "
        f"p95 {pct(shows, 0.95) * 1000:.0f} ms, median {statistics.median(shows) * 1000:.0f} ms; "
        f"{len(late)} at 1 s or later"
    )
    base = [*before["replies"], *after["replies"]]
    p95 = {
        k: pct(v["replies"], 0.95) * 1000
        for k, v in (("before", before), ("during", during), ("after", after))
    }
    ratio = pct(during["replies"], 0.95) / pct(base, 0.95)
    print(
        f"  chat replies p95: no page {p95['before']:.1f} ms, {pages} pages {p95['during']:.1f} ms, "
        f"no page again {p95['after']:.1f} ms (median with pages "
        f"{statistics.median(during['replies']) * 1000:.1f} ms)"
    )
    verdict = "ok" if ratio <= 1.5 and not late else "OVER"
    print(f"  ratio p95 with pages / without: {ratio:.2f} (≤ 1.5) — {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("-n", type=int, default=40, help="declarations per run")
    args = parser.parse_args()
    asyncio.run(main(args.pages, args.n))
