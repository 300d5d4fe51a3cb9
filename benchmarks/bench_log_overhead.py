"""What ``.log`` recording costs a message, in process (no WebSocket): NoneBot's whole
``handle_event`` for a group chatter message and for ``.r 1d100``, with the recording hooks
disabled (the lookup always says "no log"), in a group without a log, and in one with a log on.

    .venv/bin/python benchmarks/bench_log_overhead.py [N] [URL]

A group without a log must pay a dict lookup (issue 10: a message that is not ours costs
microseconds); a group with a log pays one committed INSERT per message.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))


def group_event(text: str, group: int, message_id: int):  # type: ignore[no-untyped-def]
    from nonebot.adapters.onebot.v11 import GroupMessageEvent

    return GroupMessageEvent.model_validate(
        {
            "time": int(time.time()),
            "self_id": 123456,
            "post_type": "message",
            "message_type": "group",
            "sub_type": "normal",
            "message_id": message_id,
            "group_id": group,
            "user_id": 10001,
            "message": [{"type": "text", "data": {"text": text}}],
            "raw_message": text,
            "font": 0,
            "sender": {"user_id": 10001, "nickname": "PL", "card": "艾拉", "role": "member"},
            "to_me": False,
        }
    )


async def main(n: int, url: str | None) -> None:
    import nonebot
    from nonebot.adapters.onebot.v11 import Adapter, Bot
    from nonebot.message import handle_event

    os.chdir(ROOT)
    nonebot.init(driver="~fastapi", log_level="WARNING", chronodice_flood_enabled=False)
    nonebot.get_driver().register_adapter(Adapter)
    nonebot.load_from_toml("pyproject.toml")
    core = nonebot.get_plugin("nonebot_plugin_chronodice:chronodice_core").module  # type: ignore[union-attr]
    from chronodice.app import App
    from chronodice.core.ratelimit import FloodSettings
    from chronodice.datadir import DataDir
    from chronodice.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(url or f"sqlite+aiosqlite:///{Path(tmp) / 'b.db'}")
        await store.migrate()
        core._state["app"] = App(
            store, random.Random(1), flood=FloodSettings(enabled=False), data_dir=DataDir(Path(tmp))
        )
        adapter = nonebot.get_adapter(Adapter)
        bot = Bot(adapter, "123456")

        async def fake_call_api(api: str, **data: object) -> object:
            return {"message_id": 1}

        adapter._call_api = lambda _bot, api, **data: fake_call_api(api, **data)  # type: ignore[method-assign]
        await store.logs.new_log(
            "30003", "bench", "10001", __import__("datetime").datetime.now().astimezone(), max_logs=9
        )
        ids = iter(range(10**9))
        real_lookup = store.cached_active_log

        async def per_message(text: str, group: int, recording: bool) -> float:
            # without recording: the lookup always says "no log" (as before .log existed)
            store.cached_active_log = real_lookup if recording else (lambda _g: None)  # type: ignore[method-assign]
            times = []
            for _ in range(n):
                ev = group_event(text, group, next(ids))
                t0 = time.perf_counter()
                await handle_event(bot, ev)
                times.append(time.perf_counter() - t0)
            return statistics.median(times) * 1e6

        print(f"median µs per message over {n} messages (NoneBot handle_event, {store.dialect})")
        for label, text in (("chatter", "今晚去图书馆"), (".r 1d100", ".r 1d100")):
            for rnd in range(2):
                off = await per_message(text, 20002, False)
                quiet = await per_message(text, 20002, True)
                logged = await per_message(text, 30003, True)
                print(
                    f"  {label:9} round {rnd}: recording off {off:8.1f}   group without log {quiet:8.1f}"
                    f"   group with log on {logged:8.1f}"
                )
        await store.close()


if __name__ == "__main__":
    asyncio.run(
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, sys.argv[2] if len(sys.argv) > 2 else None)
    )
