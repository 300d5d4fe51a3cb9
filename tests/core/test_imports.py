"""How the modules of ``src/`` import each other (issue 43), read from their syntax trees:

* **arrows point down** — a module imports only its own layer or those below it, in the order of
  docs/SERVICE_API.md: core and dice < rules < render < store < services < web and app <
  the NoneBot plugin;
* **no cycles** — no two modules import each other, directly or around a loop.  Counted are the
  imports that run when a module is loaded (its top level, also inside ``if``/``try``/``with``);
  an import inside a function runs later, and one under ``if TYPE_CHECKING:`` never, so neither
  is counted (both are the usual ways to let a type or a late helper name a module that imports
  this one);
* **no private names across modules** — ``from x import _y`` (anywhere: a function body and a
  ``TYPE_CHECKING`` block too) when ``x`` is one of ours: a helper other modules use gets a public
  name.  A private *module* (``_common``, ``_glue``) is its package's own: it may be imported from
  inside that package only.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGES = ("chronodice", "nonebot_plugin_chronodice")

LAYERS: tuple[tuple[str, ...], ...] = (
    ("chronodice", "chronodice.core", "chronodice.dice", "chronodice.data", "chronodice.datadir"),
    ("chronodice.rules",),
    ("chronodice.render",),
    ("chronodice.store",),
    ("chronodice.services",),
    ("chronodice.web", "chronodice.app", "chronodice.front_end"),
    ("nonebot_plugin_chronodice",),
)
"""Lowest first; a module belongs to the layer of its longest matching prefix (``chronodice``
itself holds only the version)."""


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    """The module imported (``from pkg import sub`` names ``pkg.sub`` when that is a module)."""
    name: str | None
    """The name taken from ``target`` (``None``: the module itself)."""
    line: int
    loaded: bool
    """Runs when ``source`` is loaded (not in a function, not under ``TYPE_CHECKING``)."""


def modules(root: Path = SRC) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(body: list[ast.stmt], loaded: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, loaded
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(node.body, False)
        elif isinstance(node, ast.If) and _type_checking(node.test):
            yield from _walk(node.body, False)
            yield from _walk(node.orelse, loaded)
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    stmts = [s for s in inner if isinstance(s, ast.stmt | ast.ExceptHandler)]
                    for s in stmts:
                        if isinstance(s, ast.ExceptHandler):
                            yield from _walk(s.body, loaded)
                        else:
                            yield from _walk([s], loaded)


def imports(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """Every import of ``name`` (at ``path``) of one of the ``known`` modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node, loaded in _walk(tree.body, True):
        if isinstance(node, ast.Import):
            pairs = [(a.name, None) for a in node.names]
        else:
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            pairs = [
                (f"{target}.{a.name}", None) if f"{target}.{a.name}" in known else (target, a.name)
                for a in node.names
            ]
        found += [Import(name, t, n, node.lineno, loaded) for t, n in pairs if t in known and t != name]
    return found


def graph(root: Path = SRC) -> list[Import]:
    known = modules(root)
    return [i for name, path in known.items() for i in imports(name, path, known)]


def layer(module: str) -> int:
    best = max(
        (
            (len(prefix), rank)
            for rank, prefixes in enumerate(LAYERS)
            for prefix in prefixes
            if module == prefix or module.startswith(prefix + ".")
        ),
        default=None,
    )
    assert best is not None, f"{module} is in no layer: add it to LAYERS (and docs/SERVICE_API.md)"
    return best[1]


def upward(found: list[Import]) -> list[str]:
    return sorted(
        f"{i.source}:{i.line} imports {i.target} (a higher layer)"
        for i in found
        if layer(i.target) > layer(i.source)
    )


def cycles(found: list[Import]) -> list[list[str]]:
    """The strongly connected components (more than one module) of the load-time imports."""
    edges: dict[str, set[str]] = {}
    for i in found:
        edges.setdefault(i.source, set())
        edges.setdefault(i.target, set())
        if i.loaded:
            edges[i.source].add(i.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan; the graph is a few hundred modules deep at most
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def _private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def private_imports(found: list[Import]) -> list[str]:
    out = []
    for i in found:
        if i.name is not None and _private(i.name):
            out.append(f"{i.source}:{i.line} imports {i.name} from {i.target}")
        parts = i.target.split(".")
        for n, part in enumerate(parts):
            owner = ".".join(parts[:n])
            if _private(part) and not (i.source == owner or i.source.startswith(owner + ".")):
                out.append(f"{i.source}:{i.line} imports {i.target}, private to {owner}")
    return sorted(out)


def test_arrows_point_down() -> None:
    found = graph()
    assert len(found) > 1000
    assert upward(found) == []


def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_no_private_name_is_imported_from_another_module() -> None:
    assert private_imports(graph()) == []


def test_the_checks_see_an_offence(tmp_path: Path) -> None:
    def write(rel: str, text: str = "") -> None:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    for package in PACKAGES:
        write(f"{package}/__init__.py")
    write("chronodice/rules/__init__.py")
    write("chronodice/rules/a.py", "from chronodice.services import b\nfrom . import c\n")
    write("chronodice/rules/c.py", "from .a import _helper\nfrom typing import TYPE_CHECKING\n")
    write("chronodice/services/__init__.py", "def f():\n    from chronodice.rules import a\n")
    write("chronodice/services/b.py", "if TYPE_CHECKING:\n    from chronodice.services import d\n")
    write("chronodice/services/d.py", "import chronodice.services.b\nfrom chronodice.services.e import _x\n")
    write("chronodice/services/e/__init__.py", "from ._common import y\n")
    write("chronodice/services/e/_common.py")
    write("chronodice/web/__init__.py", "from chronodice.services.e._common import y\n")
    found = graph(tmp_path)
    assert upward(found) == ["chronodice.rules.a:1 imports chronodice.services.b (a higher layer)"]
    assert cycles(found) == [["chronodice.rules.a", "chronodice.rules.c"]]  # not b ↔ d: TYPE_CHECKING
    assert private_imports(found) == [
        "chronodice.rules.c:1 imports _helper from chronodice.rules.a",
        "chronodice.services.d:2 imports _x from chronodice.services.e",
        "chronodice.web:1 imports chronodice.services.e._common, private to chronodice.services.e",
    ]
