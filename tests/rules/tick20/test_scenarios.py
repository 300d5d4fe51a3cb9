"""Every scenario test of shared/rules/tick20.md §3, as data (scenarios.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from .scenario_runner import run_scenario

SCENARIOS: dict[str, dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "scenarios.yaml").read_text("utf-8")
)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario(name: str) -> None:
    run_scenario(SCENARIOS[name])


def test_every_spec_scenario_is_covered() -> None:
    ids = {name.split("-")[0] for name in SCENARIOS}
    expected = {f"B{i:02d}" for i in range(1, 27)} - {"B07", "B26"} | {f"S{i:02d}" for i in range(1, 11)} - {
        "S08"
    }
    # B07 and S08's roll arithmetic live in test_checks.py; S08's tie is here too.  B26 (undo) is
    # the store's session log, not the engine: tests/services/test_tick20.py tests it.
    assert expected <= ids | {"S08"}, sorted(expected - ids)
    assert {"W01", "C02"} <= ids
