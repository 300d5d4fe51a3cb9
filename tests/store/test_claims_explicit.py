"""Exactly once is passed, not ambient: every store write made outside the store names the
delivered event it belongs to (``claim=call.claim``), or says it has none (``claim=None``: a
timer's or a web page's write).  A write that forgot would apply a second delivery again."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import chronodice
from chronodice.store import Store

SRC = Path(chronodice.__file__).parent
PARTS = ("sessions", "history", "characters", "groups", "logs", "leases", "housekeeping")
WRITES = sorted(
    name
    for part in PARTS
    for name, fn in inspect.getmembers(
        getattr(Store("sqlite+aiosqlite:///unused/x.db"), part), inspect.iscoroutinefunction
    )
    if not name.startswith("_") and "claim" in inspect.signature(fn).parameters
)


def _store_writes_without_claim(tree: ast.AST) -> list[int]:
    missing = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in WRITES or not ast.unparse(node.func.value).split(".")[-2:][0] == "store":
            continue
        if not any(k.arg == "claim" for k in node.keywords):
            missing.append(node.lineno)
    return missing


def test_the_store_writes_that_take_a_claim_are_the_commands_writes() -> None:
    assert {"apply_state", "apply_session", "update_character", "create_character", "bind", "undo"} <= set(
        WRITES
    )
    assert "record_line" not in WRITES  # a .log line is not a command's write


def test_every_store_write_outside_the_store_names_its_claim() -> None:
    missing = [
        f"{path.relative_to(SRC)}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        if "store" not in path.relative_to(SRC).parts[:1]
        for line in _store_writes_without_claim(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert missing == []


def test_the_check_finds_a_write_that_forgot() -> None:
    tree = ast.parse("async def h(call):\n    await call.app.store.characters.update_character(1, f)\n")
    assert _store_writes_without_claim(tree) == [2]
    tree = ast.parse(
        "async def h(call):\n    await call.app.store.characters.update_character(1, f, claim=call.claim)\n"
    )
    assert _store_writes_without_claim(tree) == []
