"""Spell slots by level (1–9): ``{level: (left, max)}``, spent and restored.

>>> s = set_slots({}, 1, 4)
>>> s = spend(s, 1)
>>> s, restore_all(s)
({1: (3, 4)}, {1: (4, 4)})
"""

from __future__ import annotations

from typing import Any

from chronodice.core.errors import IllegalAction, InputSyntaxError

Slots = dict[int, tuple[int, int]]
MAX_SLOTS = 20


def _level(level: int) -> int:
    if not 1 <= level <= 9:
        raise InputSyntaxError(f"法术环阶应为1到9（写了{level}）")
    return level


def set_slots(slots: Slots, level: int, count: int) -> Slots:
    """Level ``level`` has ``count`` slots, all unspent (0 removes the level)."""
    _level(level)
    if not 0 <= count <= MAX_SLOTS:
        raise InputSyntaxError(f"每环法术位应为0到{MAX_SLOTS}个")
    out = {k: v for k, v in slots.items() if k != level}
    if count:
        out[level] = (count, count)
    return dict(sorted(out.items()))


def spend(slots: Slots, level: int, n: int = 1) -> Slots:
    _level(level)
    left, top = slots.get(level, (0, 0))
    if top == 0:
        raise IllegalAction(f"没有{level}环法术位（先 .ss {level} 数量 设置）")
    if left < n:
        raise IllegalAction(f"{level}环法术位不够了（剩{left}/{top}）")
    return {**slots, level: (left - n, top)}


def regain(slots: Slots, level: int, n: int = 1) -> Slots:
    _level(level)
    left, top = slots.get(level, (0, 0))
    if top == 0:
        raise IllegalAction(f"没有{level}环法术位（先 .ss {level} 数量 设置）")
    return {**slots, level: (min(top, left + n), top)}


def restore_all(slots: Slots) -> Slots:
    return {k: (top, top) for k, (_, top) in slots.items()}


def from_json(data: Any) -> Slots:
    if not isinstance(data, dict):
        return {}
    return dict(sorted((int(k), (int(v[0]), int(v[1]))) for k, v in data.items()))


def to_json(slots: Slots) -> dict[str, list[int]]:
    return {str(k): [left, top] for k, (left, top) in slots.items()}


def slots_text(slots: Slots) -> str:
    """``1环3/4 2环2/2``, or 没有法术位."""
    if not slots:
        return "没有法术位"
    return " ".join(f"{k}环{left}/{top}" for k, (left, top) in slots.items())


__all__ = [
    "MAX_SLOTS",
    "Slots",
    "from_json",
    "regain",
    "restore_all",
    "set_slots",
    "slots_text",
    "spend",
    "to_json",
]
