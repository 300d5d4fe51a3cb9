"""One clock (issue 43): nothing in ``src/`` reads the time but :mod:`chronodice.core.clock`.

Services read ``call.app.clock`` (``wall``, ``timestamp``, ``day``, ``monotonic``); tests move a
:class:`~chronodice.core.clock.ManualClock` instead of sleeping.  The walk looks at the syntax
tree, so a reading passed on uncalled (``default_factory=time.monotonic``) counts too.
"""

from __future__ import annotations

import ast
from datetime import datetime, timezone
from pathlib import Path

from chronodice.core.clock import SYSTEM, ManualClock, MonotonicOnly, ShiftedClock, as_clock

SRC = Path(__file__).resolve().parents[2] / "src"

READINGS = {
    ("time", "time"),
    ("time", "time_ns"),
    ("time", "monotonic"),
    ("time", "monotonic_ns"),
    ("time", "perf_counter"),
    ("time", "perf_counter_ns"),
    ("time", "localtime"),
    ("time", "gmtime"),
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
}
"""(module or class, attribute) pairs that read the real time."""

ALLOWED = {
    "chronodice/core/clock.py": "the clock itself",
}
"""Files that may read the real time, with the reason."""


def readings(path: Path) -> list[str]:
    """``name.attr`` of every reading of the real time in ``path`` (calls and references)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Attribute):
            owner = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
            if (owner, node.attr) in READINGS:
                found.append(f"{owner}.{node.attr} (line {node.lineno})")
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            found += [
                f"from time import {a.name} (line {node.lineno})"
                for a in node.names
                if ("time", a.name) in READINGS
            ]
    return found


def test_nothing_in_src_reads_the_time_but_the_clock() -> None:
    bad = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel in ALLOWED or not path.is_file():  # (a file moved away while we walk)
            continue
        if found := readings(path):
            bad[rel] = found
    assert not bad, f"read the time through chronodice.core.clock (app.clock) instead: {bad}"


def test_the_allowed_files_exist() -> None:
    assert all((SRC / rel).is_file() for rel in ALLOWED), "remove a file that is gone from ALLOWED"


def test_the_walk_finds_calls_and_references(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import time, datetime as dt\nfrom time import monotonic\n"
        "a = time.time()\nb = dt.datetime.now()\nc = field(default_factory=time.monotonic)\n",
        encoding="utf-8",
    )
    assert sorted(r.split(" (")[0] for r in readings(probe)) == [
        "datetime.now",
        "from time import monotonic",
        "time.monotonic",
        "time.time",
    ]


def test_manual_clock_moves_only_when_told() -> None:
    clock = ManualClock(datetime(2024, 5, 1, 15, 59, 30, tzinfo=timezone.utc), monotonic=50.0)
    assert clock.day() == "2024-05-01" and clock() == 50.0 == clock.monotonic()
    clock.advance(60)  # 16:00:30 UTC is past midnight in UTC+8
    assert clock.day() == "2024-05-02" and clock.monotonic() == 110.0
    assert clock.timestamp() == clock.wall().timestamp()
    clock.set(datetime(2024, 5, 1, 0, 0, tzinfo=timezone.utc))  # back in wall time: monotonic stays
    assert clock.monotonic() == 110.0 and clock.day() == "2024-05-01"


def test_shifted_clock_reads_its_file(tmp_path: Path) -> None:
    shift = tmp_path / "shift"
    base = ManualClock()
    clock = ShiftedClock(shift, base)
    assert clock.monotonic() == base.monotonic()  # no file: no shift
    shift.write_text("11.5", encoding="ascii")
    assert clock.monotonic() == base.monotonic() + 11.5
    assert (clock.wall() - base.wall()).total_seconds() == 11.5
    shift.write_text("junk", encoding="ascii")
    assert clock.timestamp() == base.timestamp()


def test_a_bare_callable_is_the_monotonic_reading() -> None:
    assert as_clock(None) is SYSTEM
    clock = as_clock(lambda: 7.0)
    assert isinstance(clock, MonotonicOnly) and clock() == 7.0 and clock.wall().tzinfo is not None
