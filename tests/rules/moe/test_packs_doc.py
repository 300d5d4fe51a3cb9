"""docs/PACKS.md: its complete example loads and plays; it names every primitive and timing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from helpers import pack_dir_first
from moe_soak_harness import play_game

from chronodice.rules.moe.pack import validate_pack
from chronodice.rules.moe.packcheck import ARGS, FUNCTIONS, TIMINGS

DOC = Path(__file__).resolve().parents[3] / "docs" / "PACKS.md"


def example() -> str:
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    (text,) = [b for b in blocks if b.startswith("pack: mini\n")]
    return text


@pytest.fixture
def mini_dir(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "mini.yaml").write_text(example(), encoding="utf-8")
    with pack_dir_first(tmp_path):
        yield tmp_path


def test_the_example_is_valid() -> None:
    pack = validate_pack(yaml.safe_load(example()), "mini.yaml")
    assert set(pack.characters) == {"bee", "mole"}
    assert len(pack.deck) == 28 and pack.cards["counter"].name == "反制"
    kinds = {pack.skills[s].kind for c in pack.characters.values() for s in c.skills}
    assert kinds == {"passive", "limited", "status"}


@pytest.mark.parametrize("seed", range(3))
def test_the_example_plays_to_a_result(mini_dir: Path, seed: int) -> None:
    res = play_game(seed, 2, pack="mini", cut_every=11)
    assert res.result in ("last_alive", "round_cap", "draw_empty_deck")


def test_the_doc_names_every_primitive_timing_and_function() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in [*ARGS, "set", "python"]:
        assert f"`{name}`" in text or f"{name}`" in text, name
    for t in TIMINGS:
        if t.startswith("phase.") and t != "phase.draw.count":
            continue  # written as phase.<阶段>.before/start/end/after
        assert f"`{t}`" in text, t
    for fn in FUNCTIONS:
        assert re.search(rf"\b{fn}\b", text), fn
