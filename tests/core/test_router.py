"""Router, normalisation, limits and the README command list."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chronodice.core.args import Pattern, opt
from chronodice.core.commands import REGISTRY, CommandRegistry, define
from chronodice.core.text import normalize

ROOT = Path(__file__).resolve().parents[2]


async def _h(call):  # pragma: no cover - never called
    return []


def _reg(*names: str) -> CommandRegistry:
    reg = CommandRegistry()
    for n in names:
        define(n, summary=n, registry=reg).sub(params=[opt("x", Pattern(regex=r"[0-9]\S*", label="x"))])(_h)
    return reg


@pytest.mark.parametrize(
    ("text", "name", "args"),
    [
        (".r 3d6+2 侦查", "r", "3d6+2 侦查"),
        (".r3d6", "r", "3d6"),
        ("。R3D6", "r", "3D6"),
        ("．r d20", "r", "d20"),
        ("  . r 1d20", "r", "1d20"),
        (".rh", "rh", ""),
        (".RH 3d6", "rh", "3d6"),
        (".TLsetup 力量：60，", "TLsetup", "力量:60,"),
        (".tlSETUP a:1", "TLsetup", "a:1"),
        (".ww10a8", "ww", "10a8"),
        (".w 5", "w", "5"),
    ],
)
def test_longest_match_case_insensitive(text: str, name: str, args: str) -> None:
    reg = _reg("r", "rh", "TLsetup", "w", "ww")
    routed = reg.route(text)
    assert routed is not None and routed.name == name and routed.args == args


@pytest.mark.parametrize("text", ["hello", "", ".", "。", ".x", "r 3d6", "..."])
def test_not_ours(text: str) -> None:
    assert _reg("r", "rh").route(text) is None


def test_duplicate_root_is_refused() -> None:
    reg = _reg("r")
    with pytest.raises(ValueError):
        define("roll", summary="", aliases=("R",), registry=reg)


def test_normalize() -> None:
    assert normalize("ＳＴ　力量：６０") == "ST 力量:60"
    assert normalize("a\u202eb\x07c") == "abc"


def test_every_command_has_help() -> None:
    for spec in REGISTRY.specs.values():
        assert spec.usage.startswith("."), spec.name
        assert spec.summary, spec.name


def test_readme_command_list_is_current() -> None:
    res = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_commands.py"), "--check"], capture_output=True, text=True
    )
    assert res.returncode == 0, res.stdout + res.stderr
