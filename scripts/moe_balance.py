"""Balance table of a 萌E pack: win rates per character over seeded auto-played games.

    nice -n 10 python scripts/moe_balance.py --games 2000 --pack lantern

Game ``i`` has seed ``i`` and ``counts[i % len(counts)]`` players (default 2..8).  Prints the
time per game first (from the first 20 games), then the table of
:mod:`chronodice.rules.moe.balance`, the results by map and by player count.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from chronodice.datadir import DataDir
from chronodice.rules.moe.balance import play_stats, render, table
from chronodice.rules.moe.pack import load_pack, use_pack_dir

_DATA_PACKS = DataDir.resolve(os.environ.get("CHRONODICE_DATA_DIR")).packs
if _DATA_PACKS.is_dir():
    use_pack_dir(_DATA_PACKS)  # packs a group added, as the bot sees them


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--pack", default="lantern")
    ap.add_argument("--players", default="2,3,4,5,6,7,8", help="player counts, comma-separated")
    ap.add_argument("--band", type=float, default=10.0)
    ap.add_argument("--first-seed", type=int, default=0)
    args = ap.parse_args()
    counts = [int(x) for x in args.players.split(",")]
    pack = load_pack(args.pack)
    t0 = time.perf_counter()
    stats = []
    for i in range(args.games):
        seed = args.first_seed + i
        stats.append(play_stats(seed, counts[seed % len(counts)], args.pack))
        if i + 1 == min(20, args.games):
            per = (time.perf_counter() - t0) / (i + 1)
            print(f"每局约 {per:.3f} 秒，预计共 {per * args.games / 60:.1f} 分钟", flush=True)
    took = time.perf_counter() - t0
    names = {k: c.name for k, c in pack.characters.items()}
    rows = table(stats, names)
    print(f"{pack.name}：{args.games} 局，人数 {args.players}，用时 {took:.0f} 秒")
    print(render(rows, args.band))
    for lo, hi in ((2, 3), (4, 5), (6, 8)):
        part = [s for s in stats if lo <= s.players <= hi]
        if part:
            sub = table(part, names)
            worst = max(sub, key=lambda r: abs(r.delta))
            print(
                f"{lo}–{hi}人：{len(part)} 局，每角色约 {sum(r.games for r in sub) / len(sub):.0f} 次出场，"
                f"最大偏差 {worst.delta:+.1f}（{worst.name}）"
            )
    print("结果：", dict(Counter(s.result for s in stats)))
    print("地图：", dict(Counter(s.map for s in stats)))
    by_n = Counter((s.players, s.result) for s in stats)
    print("人数×结果：", dict(sorted(by_n.items())))
    print("平均输入数：", round(sum(s.inputs for s in stats) / len(stats), 1))
    return 0 if max(abs(r.delta) for r in rows) <= args.band else 1


if __name__ == "__main__":
    raise SystemExit(main())
