"""萌E AI seats against random legal players, and 托管's harm to its own team (issue 27).

    python benchmarks/bench_moe_ai.py              # 200 games per setting (about a minute)
    python benchmarks/bench_moe_ai.py --games 50

Settings (demo pack, seeded: game ``i`` uses seed ``i``):

* **1v1 乱斗森林** (free-for-all, 2 players): one AI seat against one random legal player
  (:func:`chronodice.rules.moe.auto.auto_answer`), the AI first in even games, second in odd.
  The issue's bar: the AI wins at least 70%.
* **2v2 双王国** (4 players, teams by alternating seats): two AI seats against two random
  players, the AI team seats 0+2 in even games and 1+3 in odd.
* **托管 on 双王国**: two 托管 seats (one of each team's seats alternately) with an AI ally, against
  random players; and the same seats played randomly (today's 托管 before this change) — the
  share of their damage that hit their own team.

Prints wins, draws, win rate and games/s per setting.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from chronodice.rules.moe.ai_sim import Tally, play

BAR = 0.70


def duel(i: int) -> list[str]:
    return ["ai", "random"] if i % 2 == 0 else ["random", "ai"]


def teams(i: int) -> list[str]:
    return ["ai", "random", "ai", "random"] if i % 2 == 0 else ["random", "ai", "random", "ai"]


def takeover(i: int) -> list[str]:
    return ["takeover", "random", "ai", "random"] if i % 2 == 0 else ["random", "ai", "random", "takeover"]


def win_rate(name: str, layout, map_key: str, games: int) -> float:  # type: ignore[no-untyped-def]
    wins = draws = 0
    t0 = time.perf_counter()
    for seed in range(games):
        ctrl = layout(seed)
        r = play(seed, ctrl, map_key=map_key)
        if not r.winners:
            draws += 1
        elif any(ctrl[s] == "ai" for s in r.winners):
            wins += 1
    dt = time.perf_counter() - t0
    rate = wins / games
    print(f"{name:<16} AI wins {wins}/{games} ({rate:.1%}), draws {draws}, {games / dt:.1f} games/s")
    return rate


def ally_share(name: str, games: int, *, random_seats: bool) -> None:
    total = Tally()
    for seed in range(games):
        ctrl = takeover(seed)
        seats = [s for s, c in enumerate(ctrl) if c == "takeover"]
        played = [("random" if c == "takeover" and random_seats else c) for c in ctrl]
        r = play(seed, played, map_key="kingdoms")
        for field in Tally.__dataclass_fields__:
            getattr(total, field).update({s: getattr(r.tally, field)[s] for s in seats})
    ally, enemy = sum(total.ally_damage.values()), sum(total.enemy_damage.values())
    share = ally / (ally + enemy) if ally + enemy else 0.0
    print(
        f"{name:<16} damage to allies {ally}, to enemies {enemy} ({share:.0%} to allies), "
        f"ally kills {sum(total.ally_kills.values())}, harmful cards on allies "
        f"{sum(total.ally_harmful_uses.values())}, gifts to allies/others "
        f"{sum(total.gifts_to_allies.values())}/{sum(total.gifts_to_others.values())}"
    )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    n = ap.parse_args().games
    rate = win_rate("1v1 乱斗森林", duel, "melee", n)
    win_rate("2v2 双王国", teams, "kingdoms", n)
    ally_share("托管 (policy)", n // 2, random_seats=False)
    ally_share("托管 (random)", n // 2, random_seats=True)
    ok = rate >= BAR
    print(f"bar {BAR:.0%} on 1v1: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
