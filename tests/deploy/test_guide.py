"""docs/guide/ is what the bot answers now: the generator runs every scene again and the
committed pages and pictures must match (``python scripts/gen_guide.py`` rewrites them).

The drift check runs the generator in its own interpreter, as a developer does: the order of
``.help``'s list follows the order the services were imported in, which a test session changes."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_guide", ROOT / "scripts" / "gen_guide.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_guide"] = module
    spec.loader.exec_module(module)
    return module


gen = _generator()


def test_guide_pages_and_pictures_are_what_the_bot_answers() -> None:
    res = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_guide.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]


async def test_every_mode_has_a_player_and_a_gm_page_and_every_command_is_shown() -> None:
    built = await gen.build()
    pages = {p for p in gen.files_of(built) if p.endswith(".md")}
    for mode in ("coc7", "dnd5e", "timeline", "moe", "tick20", "pool10"):
        assert {f"{mode}-player.md", f"{mode}-gm.md"} <= pages, mode
    assert {"README.md", "getting-started.md", "group-admin.md"} <= pages
    assert {"img/timeline-player-sheet.png", "img/timeline-gm-bat.png"} <= set(built)
    from chronodice.core.commands import REGISTRY
    from chronodice.services import load_all

    load_all()  # every command the bot has (the one way commands are found)
    missing = {spec.name for spec in REGISTRY.specs.values()} - gen.commands_shown(built)
    assert not missing, f"commands with no example in docs/guide: {sorted(missing)}"


def test_a_changed_reply_is_named_with_its_page_and_line() -> None:
    want = {"a.md": "一\n二\n三\n".encode(), "img/x.png": b"1"}
    have = {"a.md": "一\n二改\n三\n".encode(), "img/x.png": b"1", "old.md": b""}
    assert gen.compare(want, have) == [
        "docs/guide/a.md line 2: committed '二改', the bot now gives '二'",
        "docs/guide/old.md is no longer generated: delete it",
    ]
