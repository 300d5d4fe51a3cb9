"""A tiny safe expression language for pack conditions and amounts.

Parsed with :mod:`ast` and evaluated over a whitelist of node types; names come from the
evaluation scope (``me``, ``target``, ``source`` … and the functions the engine provides), so
there is no attribute access and no ``eval``.

>>> evaluate("half(n) + 1", {"n": 5, "half": lambda x: x // 2})
3
>>> evaluate("a <= 1 and not b", {"a": 1, "b": False})
True
>>> check_expr("__import__('os')") is None
True
>>> check_expr("x.y")
'不允许的语法 Attribute'
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

_BIN = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_CMP = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_ALLOWED = (
    ast.Expression,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.BinOp,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.Compare,
    ast.Call,
    ast.Name,
    ast.Load,
    ast.Constant,
    ast.List,
    ast.Tuple,
    *_BIN,
    *_CMP,
)


@cache
def _parse(text: str) -> ast.Expression:
    tree = ast.parse(text, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise SyntaxError(f"不允许的语法 {type(node).__name__}")
        if isinstance(node, ast.Call) and (node.keywords or not isinstance(node.func, ast.Name)):
            raise SyntaxError("只能调用具名函数")
    return tree


def check_expr(text: str) -> str | None:
    """``None`` when ``text`` is a valid expression, else the problem."""
    try:
        _parse(text)
    except SyntaxError as exc:
        return exc.msg if exc.msg else str(exc)
    return None


def evaluate(text: str | int | bool, scope: Mapping[str, Any]) -> Any:
    """Evaluate ``text`` in ``scope`` (numbers and booleans pass through)."""
    if isinstance(text, (int, bool)):
        return text
    return _compiled(text)(scope)


Compiled = Callable[[Mapping[str, Any]], Any]


@cache
def _compiled(text: str) -> Compiled:
    return _compile(_parse(text).body)


def _compile(node: ast.AST) -> Compiled:
    """Turn a checked tree into nested closures (evaluated many times per game)."""
    if isinstance(node, ast.Constant):
        value = node.value
        return lambda s: value
    if isinstance(node, ast.Name):
        name = node.id
        if name in ("True", "False", "None"):
            const = {"True": True, "False": False, "None": None}[name]
            return lambda s: const

        def lookup(s: Mapping[str, Any]) -> Any:
            try:
                return s[name]
            except KeyError:
                raise NameError(f"unknown name {name!r}") from None

        return lookup
    if isinstance(node, ast.BoolOp):
        parts = [_compile(v) for v in node.values]
        if isinstance(node.op, ast.And):

            def and_(s: Mapping[str, Any]) -> Any:
                result: Any = True
                for p in parts:
                    result = p(s)
                    if not result:
                        return result
                return result

            return and_

        def or_(s: Mapping[str, Any]) -> Any:
            result: Any = False
            for p in parts:
                result = p(s)
                if result:
                    return result
            return result

        return or_
    if isinstance(node, ast.UnaryOp):
        operand = _compile(node.operand)
        if isinstance(node.op, ast.Not):
            return lambda s: not operand(s)
        return lambda s: -operand(s)
    if isinstance(node, ast.BinOp):
        fn, left, right = _BIN[type(node.op)], _compile(node.left), _compile(node.right)
        return lambda s: fn(left(s), right(s))
    if isinstance(node, ast.Compare):
        first = _compile(node.left)
        chain = [(_CMP[type(op)], _compile(c)) for op, c in zip(node.ops, node.comparators, strict=True)]

        def compare(s: Mapping[str, Any]) -> bool:
            left = first(s)
            for op, comp in chain:
                right = comp(s)
                if not op(left, right):
                    return False
                left = right
            return True

        return compare
    if isinstance(node, ast.Call):
        func = _compile(node.func)
        args = [_compile(a) for a in node.args]
        return lambda s: func(s)(*(a(s) for a in args))
    if isinstance(node, (ast.List, ast.Tuple)):
        elts = [_compile(e) for e in node.elts]
        return lambda s: [e(s) for e in elts]
    raise SyntaxError(type(node).__name__)  # pragma: no cover - _parse rejects it
