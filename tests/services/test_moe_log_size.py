"""The session log keeps a reverse patch per command, never a copy of the game (issue 13):
measured on a game played by chat commands (``benchmarks/bench_moe_log.py``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_moe_log.py"


def test_log_bytes_per_command_are_a_small_part_of_the_state() -> None:
    spec = importlib.util.spec_from_file_location("bench_moe_log", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    r = bench.measure(players=3, seed=1, limit=80)
    assert r["commands"] >= 80 and r["inputs"] >= 70
    assert r["whole_states"] == 0  # no row holds a copy of the game
    assert r["per_command"] * 20 < r["state_bytes"], r  # on average under 5% of the state
    assert r["largest_row"] * 3 < r["state_bytes"], r  # even a turn boundary (new snapshot)
