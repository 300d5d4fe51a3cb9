"""萌E group messages per turn, before and after one-message-per-action (issue 27).

    python benchmarks/bench_moe_messages.py            # 20 seeded games each at 4 and 6 players
    python benchmarks/bench_moe_messages.py --games 100

Every seat answers with the 托管 policy (``auto_answer``), each answer one command, as the
service applies them.  **Before**: what the service sent until issue 27 — each command's public
lines plus the public prompt of a new request, one group message when not empty (the transcript
of ``tests/rules/moe/test_uniform_windows.py``).  **After**: the feed
(:mod:`chronodice.services.moe.feed`): lines held while the game waits for anything but a
play-phase action, one message when it next does.  A message counts for the turn in which it is
sent.  An *ordinary* turn is one in which the turn's player uses at most two cards or skills
(the play-phase policy here stops after ``--actions`` uses, 2 by default, so most turns are)
and that does not end the game (the last message, 游戏结束, is one more).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from chronodice.render import moe as R
from chronodice.rules.moe import auto_answer
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.record import new_record, start
from chronodice.services.moe import feed

CHARACTERS = ["alice", "red_hood", "snow_white", "cinderella", "big_wolf", "sleeping_beauty"]


def policy(g: Game, ask: Any, rng: random.Random, used: dict[int, int], cap: int) -> Any:
    """托管, except that a play phase ends after ``cap`` uses (an ordinary turn)."""
    if ask.kind == "play" and used[g.state.turn_no] >= cap:
        return {"a": "end"}
    ans = auto_answer(g, ask, rng)
    if ask.kind == "play" and ans.get("a") != "end":
        used[g.state.turn_no] += 1
    return ans


def play(
    seed: int, players: int, cap: int
) -> tuple[dict[int, list[int]], dict[int, list[int]], dict[int, int]]:
    """One game: (turn → lengths of the messages before, … after, turn → uses)."""
    names = [f"玩家{i + 1}" for i in range(players)]
    rec = new_record(
        "demo", [str(i) for i in range(players)], seed=seed, map_key="melee", characters=CHARACTERS[:players]
    )
    _rec, g, events = start(rec)
    rng = random.Random(seed)
    before: dict[int, list[int]] = defaultdict(list)
    after: dict[int, list[int]] = defaultdict(list)
    used: dict[int, int] = defaultdict(int)
    state: dict[str, Any] = {}
    last_ask: Any = None

    def step(evs: list[dict[str, Any]]) -> None:
        nonlocal last_ask
        turn = g.state.turn_no
        lines = R.render_events(g, evs, names)[0]
        ask = g.pending
        if ask is not None and ask is not last_ask:
            lines.append(R.public_prompt(g, ask, names))
        last_ask = ask
        if lines:
            before[turn].append(len(R.fit_lines(lines)))
        out = feed.advance(state, g, evs, names)
        if out.text is not None:
            after[turn].append(len(out.text))

    step(events)
    for _ in range(20_000):
        ask = g.pending
        if ask is None:
            break
        seat = ask.waiting[0]
        g.submit(seat, policy(g, ask.for_seat(seat), rng, used, cap), source="auto")
        step(g.drain_events())
    return before, after, used


def summary(label: str, per_turn: list[list[int]]) -> str:
    counts = [len(m) for m in per_turn]
    chars = [sum(m) for m in per_turn]
    return (
        f"  {label:<6} messages/turn mean {statistics.mean(counts):.2f} median {statistics.median(counts):g} "
        f"max {max(counts)} · chars/turn mean {statistics.mean(chars):.0f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--actions", type=int, default=2, help="uses per play phase at most")
    args = ap.parse_args()
    for players in (4, 6):
        rows: dict[str, dict[str, list[list[int]]]] = {
            "all": {"before": [], "after": []},
            "ordinary": {"before": [], "after": []},
        }
        for seed in range(args.games):
            before, after, used = play(seed, players, args.actions)
            for turn in sorted(set(before) | set(after)):
                if turn == 0:
                    continue  # set-up (map, characters, starting hands): not a turn
                last = turn == max(set(before) | set(after))  # its end carries 游戏结束
                kinds = ["all"] + (["ordinary"] if used[turn] <= 2 and not last else [])
                for kind in kinds:
                    rows[kind]["before"].append(before.get(turn, []))
                    rows[kind]["after"].append(after.get(turn, []))
        print(f"{players} players, {args.games} games, at most {args.actions} uses per turn:")
        for kind, got in rows.items():
            print(f" {kind} turns ({len(got['after'])}):")
            print(summary("before", got["before"]))
            print(summary("after", got["after"]))


if __name__ == "__main__":
    main()
