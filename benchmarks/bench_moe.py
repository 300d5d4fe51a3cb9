"""萌E engine benchmark and full soak.

    python benchmarks/bench_moe.py                 # steps/s in auto-play, rebuild after 300 inputs
    python benchmarks/bench_moe.py --soak 1000     # + the 1,000-game random-play soak (minutes)

Steps per second: seeded games of 2–8 auto-playing players on the demo pack, no invariant checks.
Rebuild: a game cut after exactly 300 inputs, rebuilt (a) by replaying the whole log and (b)
from the latest turn-start snapshot plus the inputs after it (what the bot does per command).
The soak checks card conservation and the other invariants after every input, and replay
equality (full log and snapshot) at the end of every game.
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the soak harness

from moe_soak_harness import play_game  # tests/moe_soak_harness.py

from chronodice.rules.moe import auto_answer
from chronodice.rules.moe.record import new_record, rebuild, replay_full, start, to_record


def steps_per_second(games: int) -> tuple[float, int]:
    total = 0
    elapsed = 0.0
    for seed in range(games):
        _rec, g, _ = start(new_record("demo", [str(i) for i in range(2 + seed % 7)], seed=seed))
        ai = random.Random(seed)
        t0 = time.perf_counter()
        while g.pending is not None:
            g.submit(g.pending.seat, auto_answer(g, g.pending, ai), source="auto")
            g.drain_events()
            total += 1
        elapsed += time.perf_counter() - t0
    return total / elapsed, total


def record_after(n_inputs: int) -> dict:
    for seed in range(1000):
        rec, g, _ = start(new_record("demo", [str(i) for i in range(5)], seed=seed))
        ai = random.Random(seed)
        while g.pending is not None and len(g.inputs) < n_inputs:
            g.submit(g.pending.seat, auto_answer(g, g.pending, ai), source="auto")
        if len(g.inputs) == n_inputs and g.pending is not None:
            return to_record(g, rec)
    raise RuntimeError("no game reached the input count")


def rebuild_times(rec: dict, repeats: int = 7) -> tuple[float, float]:
    full, snap = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        replay_full(rec)
        full.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        rebuild(rec)
        snap.append(time.perf_counter() - t0)
    return statistics.median(full), statistics.median(snap)


def soak(n: int) -> None:
    t0 = time.perf_counter()
    results: collections.Counter[str] = collections.Counter()
    inputs = 0
    for seed in range(n):
        res = play_game(seed, 2 + seed % 7)
        results[res.result] += 1
        inputs += res.inputs
    dt = time.perf_counter() - t0
    print(
        f"soak: {n} games, {inputs} inputs, {dt:.1f}s, results {dict(results)} — no exception, conservation and replay equality held"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40, help="games for the steps/s figure")
    ap.add_argument("--soak", type=int, default=0, help="also run this many soak games")
    args = ap.parse_args()
    sps, total = steps_per_second(args.games)
    print(f"auto-play: {sps:,.0f} engine steps/s ({total} inputs in {args.games} games)")
    rec = record_after(300)
    full, snap = rebuild_times(rec)
    print(
        f"rebuild after 300 inputs: {full * 1000:.1f} ms replaying the whole log, {snap * 1000:.1f} ms from the last turn snapshot"
    )
    if args.soak:
        soak(args.soak)


if __name__ == "__main__":
    main()
