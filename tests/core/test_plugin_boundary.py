"""The NoneBot plugin talks to one application object (issue 24): no plugin module imports the
store or reaches through ``app.store``; what the chat edge needs is a method of the App
(:mod:`chronodice.front_end`)."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

from chronodice.app import App
from chronodice.store import Store

PLUGIN = Path(__file__).resolve().parents[2] / "src" / "nonebot_plugin_chronodice"


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("chronodice.store"):
            found.append(f"{path.name}:{node.lineno} from {node.module} import …")
        elif isinstance(node, ast.Import):
            found += [
                f"{path.name}:{node.lineno} import {a.name}"
                for a in node.names
                if a.name.startswith("chronodice.store")
            ]
        elif isinstance(node, ast.Attribute) and node.attr == "store":
            found.append(f"{path.name}:{node.lineno} ….store")
    return found


def test_no_plugin_module_touches_the_store() -> None:
    modules = sorted(PLUGIN.rglob("*.py"))
    assert len(modules) >= 9
    assert [o for m in modules for o in _offences(m)] == []


def test_the_checker_sees_an_offence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from chronodice.store.url import x\nimport chronodice.store\nasync def f(app):\n    await app.store.housekeeping.prune()\n"
    )
    assert len(_offences(bad)) == 3


async def test_the_edge_answers_from_the_store(app: App, store: Store) -> None:
    """A group with no log is known without the database; a recording one says so; closing
    lets go of the accounts it is given."""
    from helpers import run

    assert await app.active_log("20002") is None
    await run(app, ".log new 跑团")
    log = await app.active_log("20002")
    assert log is not None and log.recording and log.name == "跑团"
    await run(app, ".log off")
    assert (await app.active_log("20002")) == replace(log, recording=False)
    assert await app.serves("20002", "123456")
    assert await app.serving_account("20002") == "123456"
    assert app.first_delivery("123456", "m1") and not app.first_delivery("123456", "m1")
