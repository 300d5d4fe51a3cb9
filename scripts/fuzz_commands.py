"""Fuzz every command through ``App.dispatch`` and print the figures (issue 23).

    nice -n 10 python scripts/fuzz_commands.py -n 100000 --seed 1

The generator is the one the test suite runs (``tests/command_fuzz.py``, a few thousand
commands there): realistic forms of every command mixed with hostile text, from GMs and players,
in private and in groups of every mode, on a fresh SQLite file in a temporary directory.
Prints the commands run, the count per root, the exceptions, the generic errors (``时出错了``),
the commands over 50 ms (best of three tries), the maximum and 99th percentile time and the
slowest inputs; exits 1 when anything was found.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from command_fuzz import FuzzReport, fuzz  # noqa: E402

from chronodice.app import App  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.datadir import DataDir  # noqa: E402
from chronodice.services import load_all  # noqa: E402
from chronodice.store import Store  # noqa: E402


async def run(n: int, seed: int) -> FuzzReport:
    """``n`` fuzzed commands from ``seed`` on a fresh store; the report."""
    load_all()
    with tempfile.TemporaryDirectory(prefix="chronodice-fuzz-") as tmp:
        store = Store(f"sqlite+aiosqlite:///{Path(tmp) / 'fuzz.db'}")
        await store.migrate()
        try:
            app = App(
                store, random.Random(seed), flood=FloodSettings(enabled=False), data_dir=DataDir(Path(tmp))
            )
            return await fuzz(app, n, seed)
        finally:
            await store.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=100_000, help="commands to run (default 100000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the generator and of the dice")
    args = ap.parse_args()
    logging.getLogger("chronodice").propagate = False  # the report shows the tracebacks
    t0 = time.perf_counter()
    report = asyncio.run(run(args.n, args.seed))
    print(f"seed {args.seed}, {time.perf_counter() - t0:.0f} s")
    print("\n".join(report.lines()))
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
