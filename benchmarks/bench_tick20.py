"""Time ``.init next`` with 50 combatants and 200 active effects (issue 6).

Run: ``.venv/bin/python benchmarks/bench_tick20.py [advances]``.  Prints two figures:

* engine: :func:`chronodice.rules.tick20.engine.end_turn` on the in-memory state (copy, flow,
  log) — what the pure engine costs;
* command: ``.init next`` through ``App.dispatch`` with a temp-file SQLite store — load, the
  transaction with compare-and-set, the engine, the turn card with its forecast.

Effects of every counted duration kind are active (long enough not to run out during the run).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from chronodice.app import App  # noqa: E402
from chronodice.core.context import Context  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.rules.tick20 import engine as E  # noqa: E402
from chronodice.rules.tick20.durations import parse_duration  # noqa: E402
from chronodice.rules.tick20.model import Combat, InitMod  # noqa: E402
from chronodice.services import load_all  # noqa: E402
from chronodice.store import Store  # noqa: E402

COMBATANTS = 50
EFFECTS = 200
DURATIONS = ["900刻", "99轮", "99回合", "99回合开始", "永久", "条件:倒地为止"]


def build(rng: random.Random) -> Combat:
    st = E.new_combat("10001")
    for i in range(COMBATANTS):
        controller = str(20000 + i) if i % 3 == 0 else None
        st, _ = E.add_combatant(st, f"单位{i:02d}", value=rng.randint(1, 45), controller=controller, lv=i % 5)
    st, _ = E.start(st)
    ids = [c.id for c in st.combatants]
    for k in range(EFFECTS):
        dur = parse_duration(DURATIONS[k % len(DURATIONS)])
        mod = InitMod(value=rng.choice([-2, 1, 2]), type="状态") if k % 10 == 0 else None
        st, _ = E.add_effect(st, rng.choice(ids), f"效果{k}", dur, source=rng.choice(ids), init_mod=mod)
    assert len(st.effects) == EFFECTS
    return st


def summary(label: str, samples: list[float]) -> str:
    samples = sorted(samples)
    p95 = samples[int(len(samples) * 0.95) - 1]
    return f"{label}: median {statistics.median(samples):.2f} ms, p95 {p95:.2f} ms, n={len(samples)}"


def bench_engine(st: Combat, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        st, _ = E.end_turn(st)
        out.append((time.perf_counter() - t) * 1000)
    assert len(st.effects) == EFFECTS, "an effect ran out during the benchmark"
    return out


async def bench_command(st: Combat, n: int) -> tuple[list[float], int]:
    load_all()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite+aiosqlite:///{tmp}/bench.db")
        await store.migrate()
        app = App(store, random.Random(1), flood=FloodSettings(enabled=False))
        await store.sessions.apply_session(
            "20002", "tick20", lambda _old: (st.to_dict(), None), user_id="10001", command="seed"
        )
        raw, _ = await store.sessions.load_session("20002", "tick20")
        size = len(json.dumps(raw, ensure_ascii=False).encode())
        ctx = Context(user_id="10001", group_id="20002", sender_name="GM", roles=frozenset({"admin"}))
        out = []
        for _ in range(n):
            t = time.perf_counter()
            replies = await app.dispatch(ctx, ".init next")
            out.append((time.perf_counter() - t) * 1000)
            assert replies and "的回合" in replies[0].text, replies
        await store.close()
    return out, size


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    st = build(random.Random(6))
    engine = bench_engine(st, n)
    command, size = asyncio.run(bench_command(st, n))
    print(
        f".init next with {COMBATANTS} combatants and {EFFECTS} active effects (stored state {size / 1024:.0f} KiB JSON)"
    )
    print(summary("engine                  ", engine))
    print(summary("command via App.dispatch", command))


if __name__ == "__main__":
    main()
