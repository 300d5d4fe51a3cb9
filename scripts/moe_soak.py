"""Random-play soak of a 萌E pack: seeded 2–8-player auto-played games, every invariant checked.

    nice -n 10 python scripts/moe_soak.py --games 1000 --pack lantern

Game ``i`` has seed ``i`` and ``2 + i % 7`` players.  After every input: card conservation (each
card in exactly one zone), HP ≤ max HP, 0 ≤ faith ≤ max faith, every open request answerable.
At the end of every game: replay equality — rebuilding from the whole input log and from the last
turn-start snapshot gives the same state digest.  Every ``--cut``-th game is also rebuilt from its
log every 37 inputs mid-game (digest and pending request compared).  Prints the figures and
exits 1 when a game fails.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the soak harness

from moe_soak_harness import play_game  # tests/moe_soak_harness.py

from chronodice.datadir import DataDir
from chronodice.rules.moe.pack import use_pack_dir

_DATA_PACKS = DataDir.resolve(os.environ.get("CHRONODICE_DATA_DIR")).packs
if _DATA_PACKS.is_dir():
    use_pack_dir(_DATA_PACKS)  # packs a group added, as the bot sees them


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--pack", default="lantern")
    ap.add_argument("--cut", type=int, default=10, help="rebuild mid-game in every N-th game (0: never)")
    ap.add_argument("--first-seed", type=int, default=0)
    args = ap.parse_args()
    t0 = time.perf_counter()
    results: Counter[str] = Counter()
    by_players: Counter[int] = Counter()
    inputs = 0
    failures: list[tuple[int, str]] = []
    for i in range(args.games):
        seed = args.first_seed + i
        players = 2 + seed % 7
        cut = 37 if args.cut and seed % args.cut == 0 else 0
        try:
            res = play_game(seed, players, pack=args.pack, cut_every=cut)
        except Exception as exc:  # report every failing seed, then go on
            failures.append((seed, f"{type(exc).__name__}: {exc}"))
            traceback.print_exc(limit=3)
            continue
        results[res.result] += 1
        by_players[players] += 1
        inputs += res.inputs
        if i + 1 == min(20, args.games):
            per = (time.perf_counter() - t0) / (i + 1)
            print(f"每局约 {per:.3f} 秒，预计共 {per * args.games / 60:.1f} 分钟", flush=True)
    took = time.perf_counter() - t0
    done = sum(results.values())
    print(
        f"卡包 {args.pack}：{args.games} 局（2–8 人），通过 {done}，失败 {len(failures)}，用时 {took:.0f} 秒"
    )
    print(f"输入共 {inputs} 条（每局平均 {inputs / max(done, 1):.0f}）；每局检查守恒与重放一致")
    print("结果：", dict(results))
    print("人数：", dict(sorted(by_players.items())))
    for seed, err in failures[:20]:
        print(f"失败 seed={seed}: {err}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
