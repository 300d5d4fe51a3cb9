"""Seeded fuzzing of every command (issue 23): thousands of generated messages — realistic
forms of each command mixed with hostile text — from GMs and players, in private and in groups
of every mode.  None may raise out of ``App.dispatch``, answer with the generic error
(``处理「.x」时出错了``) or take more than 50 ms (best of three tries).

The generator is :mod:`command_fuzz`; ``python scripts/fuzz_commands.py`` runs it longer and
prints the figures.
"""

from __future__ import annotations

import random
from pathlib import Path

from command_fuzz import CommandGrammar, fuzz

from chronodice.app import App
from chronodice.core.commands import REGISTRY
from chronodice.core.ratelimit import FloodSettings
from chronodice.datadir import DataDir
from chronodice.store import Store

COMMANDS = 8_000
SEED = 23


async def test_fuzzed_commands_never_break_or_stall(store: Store, tmp_path: Path) -> None:
    app = App(store, random.Random(1234), flood=FloodSettings(enabled=False), data_dir=DataDir(tmp_path))
    report = await fuzz(app, COMMANDS, SEED)
    figures = "\n".join(report.lines())
    print(figures)  # shown with ``pytest -s`` / ``-rP``
    assert report.run == COMMANDS
    assert not report.findings, figures
    every_root = {root for spec in REGISTRY.specs.values() for root in spec.roots}
    assert set(report.per_root) == every_root, figures


def test_the_grammar_is_reproducible() -> None:
    """The same seed gives the same commands (a finding can be replayed from its seed)."""
    a, b = CommandGrammar(5), CommandGrammar(5)
    assert [a.case() for _ in range(300)] == [b.case() for _ in range(300)]
