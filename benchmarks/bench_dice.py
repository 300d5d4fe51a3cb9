"""Dice-evaluation throughput: rolls per second for a few typical expressions.

Run: ``.venv/bin/python benchmarks/bench_dice.py [seconds-per-case]``.  Measures the whole
``roll_command`` path (split, parse, roll, trace) and, separately, rolling an already parsed
tree, with a seeded ``random.Random``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from chronodice.dice import evaluate, parse, roll_command

CASES = ["1d100", "3d6+2", "4d6k3+2", "1d20+敏捷", "10#3d6", "20a8", "10d6!", "100d20"]
VARIABLES = {"敏捷": 55}


def rate(fn: Callable[[], object], seconds: float) -> float:
    """Calls of ``fn`` per second, measured for about ``seconds``."""
    n, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            fn()
        n += 100
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
    rng = random.Random(42)
    print(f"{'expression':<12} {'roll_command/s':>15} {'µs/command':>11} {'evaluate/s':>12}")
    for expr in CASES:
        full = rate(lambda e=expr: roll_command(e, rng, variables=VARIABLES), seconds)
        body = expr.split("#", 1)[-1]
        tree = parse(body, known=VARIABLES)
        bare = rate(lambda t=tree: evaluate(t, rng, variables=VARIABLES), seconds)
        print(f"{expr:<12} {full:>15,.0f} {1e6 / full:>11.1f} {bare:>12,.0f}")


if __name__ == "__main__":
    main()
