"""The rules engines and the core stay pure (issue 24, DESIGN): nothing in ``rules/`` or ``core/``
imports the store, the services or SQLAlchemy, and none of them holds a session codec (how a
state is kept as text lives beside its service, ``services/<system>/codec.py``, on the helpers
of :mod:`chronodice.store.texts`)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "chronodice"
FORBIDDEN = ("chronodice.store", "chronodice.services", "sqlalchemy")


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        found += [f"{path.name}:{node.lineno} imports {n}" for n in names if n.startswith(FORBIDDEN)]
        if isinstance(node, ast.ClassDef):
            body = {t.id for s in node.body if isinstance(s, ast.AnnAssign | ast.Assign) for t in _targets(s)}
            methods = {s.name for s in node.body if isinstance(s, ast.FunctionDef)}
            if "row_fields" in body and {"decode", "encode"} <= methods:
                found.append(f"{path.name}:{node.lineno} class {node.name} is a session codec")
    return found


def _targets(stmt: ast.AnnAssign | ast.Assign) -> list[ast.Name]:
    targets = [stmt.target] if isinstance(stmt, ast.AnnAssign) else stmt.targets
    return [t for t in targets if isinstance(t, ast.Name)]


def test_rules_and_core_know_nothing_of_storage() -> None:
    modules = sorted([*(SRC / "rules").rglob("*.py"), *(SRC / "core").rglob("*.py")])
    assert len(modules) > 50
    assert [o for m in modules for o in _offences(m)] == []


def test_the_checker_sees_an_offence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import sqlalchemy\nfrom chronodice.store import texts\nfrom chronodice.services.tick20 import codec\n"
        "class C:\n    row_fields: tuple[str, ...] = ()\n    def decode(self, t): ...\n"
        "    def encode(self, s, p): ...\n"
    )
    assert len(_offences(bad)) == 4
