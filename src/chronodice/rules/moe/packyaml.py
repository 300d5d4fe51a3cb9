"""Reading a pack's YAML safely, and the error a bad pack raises.

A pack is user input (a group's admin drops files into the data folder, ``.moe 卡包``): the text is
refused before PyYAML builds anything when its brackets nest too deep, and after composing when
its nodes, aliases expanded, are too many (an alias bomb) — each in a few milliseconds, with a
one-line :class:`PackError`.  :mod:`.pack` reads files through :func:`parse_yaml`, and so do
decks (:mod:`chronodice.rules.decks`).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from .packtext import brief

MAX_YAML_NODES = 50_000
"""YAML nodes a pack may have, each alias counted as the nodes it stands for (the largest
shipped pack has about 3,500)."""
MAX_PROBLEMS = 50
"""Problems a :class:`PackError` keeps (the rest are counted in a last line)."""
OMITTED = "……另有{n}处问题未列出"
"""The last line of a :class:`PackError` that kept only :data:`MAX_PROBLEMS` problems."""


class PackError(ValueError):
    """A pack failed validation; ``problems`` lists the problems found (in Chinese, each naming
    the file, the card/skill/character/map and the field): at most :data:`MAX_PROBLEMS` of them,
    then a line counting the others (:func:`problem_count` reads it back)."""

    def __init__(self, problems: list[str], *, hidden: bool = False) -> None:
        if len(problems) > MAX_PROBLEMS:
            problems = [*problems[:MAX_PROBLEMS], OMITTED.format(n=len(problems) - MAX_PROBLEMS)]
        super().__init__("\n".join(problems))
        self.problems = problems
        self.hidden = hidden
        """The file says ``hidden: true`` (the test pack): ``.moe packs`` does not list it even
        when it is invalid."""


def problem_count(problems: list[str]) -> int:
    """How many problems a :class:`PackError`'s ``problems`` stand for (its last line may count
    those it left out)."""
    head, tail = OMITTED.split("{n}")
    last = problems[-1] if problems else ""
    digits = last[len(head) : -len(tail)] if last.startswith(head) and last.endswith(tail) else ""
    return len(problems) - 1 + int(digits) if digits.isdigit() else len(problems)


def parse_yaml(text: str, file: str = "<卡包>") -> Any:
    """``yaml.safe_load`` for packs: the document is composed first and refused when its nodes,
    aliases expanded, exceed :data:`MAX_YAML_NODES` (or an alias contains itself), so an alias
    bomb costs a few thousand steps instead of building millions of objects."""
    if flow_depth(text) > MAX_FLOW_DEPTH:
        raise PackError([f"{file}：YAML 嵌套过深，已拒绝"])
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if expanded_nodes(node, MAX_YAML_NODES) is None:
            why = f"别名 &/* 展开后超过 {MAX_YAML_NODES} 个节点，或别名引用了自身"
            raise PackError([f"{file}：YAML 内容过大（{why}），已拒绝"])
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"第{mark.line + 1}行" if mark is not None else ""
        why = brief(getattr(exc, "problem", "") or str(exc))
        raise PackError([f"{file}：YAML 格式错误{at}（{why}）"]) from None
    except RecursionError:
        raise PackError([f"{file}：YAML 嵌套过深，已拒绝"]) from None
    finally:
        loader.dispose()


MAX_FLOW_DEPTH = 64
"""Brackets nested deeper than this are refused before YAML reads them (a pack nests a few levels;
``[[[…]]]`` 50,000 deep took PyYAML's composer seconds to fail by recursion)."""
_BRACKETS = re.compile(r"[\[\]{}]")


def flow_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text`` (brackets inside quotes counted too: an
    over-estimate, so a real pack never comes near the limit).

    >>> flow_depth("a: [1, {b: [2]}]"), flow_depth("no brackets")
    (3, 0)
    """
    depth = deepest = 0
    for m in _BRACKETS.finditer(text):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(0, depth - 1)
    return deepest


def expanded_nodes(root: yaml.Node, limit: int) -> int | None:
    """How many nodes ``root`` stands for with every alias expanded (a shared node counted each
    time it is used); ``None`` once that exceeds ``limit`` or an alias contains itself.  Each
    distinct node is visited once, without recursion."""
    sizes: dict[int, int] = {}
    open_: set[int] = set()  # on the path from the root: met again, an alias contains itself
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        kids = _children(node)
        if done:
            open_.discard(key)
            total = 1 + sum(sizes[id(k)] for k in kids)
            if total > limit:
                return None
            sizes[key] = total
        elif key in open_:
            return None
        elif key not in sizes:
            open_.add(key)
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in sizes)
    return sizes[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


__all__ = [
    "MAX_FLOW_DEPTH",
    "MAX_PROBLEMS",
    "MAX_YAML_NODES",
    "OMITTED",
    "PackError",
    "expanded_nodes",
    "flow_depth",
    "parse_yaml",
    "problem_count",
]
