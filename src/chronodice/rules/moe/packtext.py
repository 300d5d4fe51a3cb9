"""How a pack problem is worded: values from the pack quoted briefly (a pack is user input, a
huge value must become neither a huge ``.moe packs`` answer nor a huge log line) and pydantic's
validation errors in Chinese, one message per field.

>>> brief("x" * 300)[-3:], len(brief("x" * 300))
('xx…', 201)
>>> brief_repr(["a"] * 50)
"['a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', ...]"
"""

from __future__ import annotations

import re
import reprlib
from typing import Any

from pydantic import ValidationError

PYDANTIC_MESSAGES: dict[str, str] = {
    "missing": "缺少必填字段",
    "int_parsing": "应为整数",
    "int_type": "应为整数",
    "int_from_float": "应为整数",
    "string_type": "应为文字",
    "list_type": "应为列表",
    "dict_type": "应为映射（键: 值）",
    "model_type": "应为映射（键: 值）",
    "model_attributes_type": "应为映射（键: 值）",
    "bool_parsing": "应为 true 或 false",
    "bool_type": "应为 true 或 false",
    "tuple_type": "应为列表",
}


_BRANCHES = ("int", "str", "bool", "float", "list", "dict", "none")

QUOTE_LIMIT = 200
"""Characters of a value from the pack that a problem message quotes (a pack is user input: a
huge value must become neither a huge ``.moe packs`` answer nor a huge log line)."""
LINE_LIMIT = 4 * QUOTE_LIMIT
"""A problem line is cut here whatever it holds (file, item, field and message together)."""

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxtuple = 3, 8, 8, 8
_REPR.maxstring = _REPR.maxother = QUOTE_LIMIT


def brief(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as text for a problem message: strings as they are, anything else as a bounded
    ``repr`` (never walks a whole nested value), at most ``limit`` characters then ``…``."""
    text = value if isinstance(value, str) else _REPR.repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def brief_repr(value: object) -> str:
    """Like :func:`brief`, but strings quoted as ``repr`` shows them (``实为 'x'``)."""
    return brief(_REPR.repr(value))


def _loc(parts: tuple[Any, ...] | list[Any]) -> str:
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif isinstance(p, str) and (
            p.startswith(("literal[", "function-", "list[", "dict[")) or p in _BRANCHES
        ):
            continue  # pydantic's names of union branches
        elif p == "[key]":
            continue
        else:
            out += f".{p}" if out else str(p)
    return out


def pydantic_problems(exc: ValidationError) -> list[tuple[str, str]]:
    """(field path, Chinese message) for every error of a model validation; the branches of a
    union (``range: 4`` or ``range: inf``) are merged into one message per field."""
    out: dict[str, list[str]] = {}
    for e in exc.errors():
        loc, kind, ctx = list(e["loc"]), e["type"], e.get("ctx") or {}
        if kind == "extra_forbidden":
            name = loc[-1] if loc else "?"
            msg = f"未知字段「{brief(name)}」（拼写错误？）"
        elif kind == "literal_error":
            expected = str(ctx.get("expected", "")).replace(" or ", ", ").replace("'", "")
            msg = f"取值「{brief(e.get('input'))}」无效，应为 {expected.replace(', ', '、')}"
        elif kind == "greater_than_equal":
            msg = f"应不小于 {ctx.get('ge')}"
        elif kind == "value_error":
            msg = brief(str(ctx.get("error", e["msg"])), LINE_LIMIT)
        else:
            msg = PYDANTIC_MESSAGES.get(kind, e["msg"])
        msgs = out.setdefault(_loc(loc), [])
        if msg not in msgs:
            msgs.append(msg)
    return [(loc, "；或".join(msgs)) for loc, msgs in out.items()]


_DECK_ROW = re.compile(r"^(?P<head>.*?：)牌堆第(?P<row>[0-9]+)张的 (?P<tail>.*)$")


def merge_deck_problems(problems: list[str]) -> list[str]:
    """One line for the deck rows that share a problem (a missing card in 15 rows reads
    ``牌堆第1、2…15张（共15张）的 卡牌：卡牌「attack」不存在``), at the first such row's place."""
    rows: dict[tuple[str, str], list[str]] = {}
    order: list[str | tuple[str, str]] = []
    for line in problems:
        m = _DECK_ROW.match(line)
        if m is None:
            order.append(line)
            continue
        key = (m["head"], m["tail"])
        if key not in rows:
            rows[key] = []
            order.append(key)
        rows[key].append(m["row"])
    out: list[str] = []
    for item in order:
        if isinstance(item, str):
            out.append(item)
            continue
        head, tail = item
        nums = rows[item]
        which = (
            nums[0] if len(nums) == 1 else f"{'、'.join(nums[:3])}{'…' + nums[-1] if len(nums) > 3 else ''}"
        )
        count = f"（共{len(nums)}张）" if len(nums) > 1 else ""
        out.append(f"{head}牌堆第{which}张{count}的 {tail}")
    return out
