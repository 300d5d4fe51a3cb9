"""cProfile of ``App.dispatch`` for the hot commands (no WebSocket): where a command's time goes.

    .venv/bin/python benchmarks/profile_dispatch.py [N] [URL]

Prints per-command mean time in ``App.dispatch`` and the top entries (by own time) of a profile
of ``.r 1d100``, ``.st 力量+1`` and ``.init next`` in a D20 combat of 20 combatants (sent by its
GM, one at a time).
"""

from __future__ import annotations

import asyncio
import cProfile
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from chronodice.app import App  # noqa: E402
from chronodice.core.context import Context  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.services import load_all  # noqa: E402
from chronodice.store import Store  # noqa: E402

load_all()


def ctx(user: str, *roles: str) -> Context:
    return Context(user_id=user, group_id="20002", sender_name="PL", self_id="1", roles=frozenset(roles))


async def main(n: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(url or f"sqlite+aiosqlite:///{Path(tmp) / 'p.db'}")
        await store.migrate()
        app = App(store, random.Random(1), flood=FloodSettings(enabled=False))
        await app.dispatch(ctx("7"), ".st 力量60敏捷50")
        gm = ctx("8", "admin")
        await app.dispatch(gm, ".init begin")
        for i in range(20):
            await app.dispatch(gm, f".init add 怪{i} {i}")
        await app.dispatch(gm, ".init start")
        for text, who in ((".r 1d100", ctx("7")), (".st 力量+1", ctx("7")), (".init next", gm)):
            for _ in range(50):
                await app.dispatch(who, text)
            t0 = time.perf_counter()
            for _ in range(n):
                await app.dispatch(who, text)
            mean = (time.perf_counter() - t0) / n * 1000
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(n):
                await app.dispatch(who, text)
            prof.disable()
            print(f"\n=== {text}: {mean:.3f} ms per App.dispatch ===")
            pstats.Stats(prof).sort_stats("tottime").print_stats(14)
        await store.close()


if __name__ == "__main__":
    asyncio.run(
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, sys.argv[2] if len(sys.argv) > 2 else None)
    )
