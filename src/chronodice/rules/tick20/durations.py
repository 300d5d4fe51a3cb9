"""Effect durations as players write them (tick20.md §2.6) → :class:`Duration`.

=========================  ==========================================================
``3刻``                    TICKS 3: counts at every later tick start
``2轮``                    ROUNDS 2: counts at the tick-20 start of every later round
``1回合`` / ``至回合结束``  TURNS n, boundary END, anchored on the bearer
``1回合开始``              TURNS n, boundary START
``本刻`` / ``本轮``         until the end of this tick / of this round's tick 1
``焦点``                   FOCUS: to the end of the next round (【聚焦】 extends it)
``永久`` / nothing          PERMANENT
``条件:倒地为止``           CONDITION (removed by the GM)
``1d4轮``                  ROUNDS, amount rolled by the bot (with ``暗``: told only to the GM)
=========================  ==========================================================

>>> parse_duration("3刻").kind.value, parse_duration("3刻").amount
('ticks', 3)
>>> d = parse_duration("2回合开始"); (d.kind.value, d.amount, d.boundary)
('turns', 2, 'start')
"""

from __future__ import annotations

import random
import re

from chronodice.core.errors import InputSyntaxError

from .model import Duration, DurationKind

DURATION_HELP = "时长格式：数字+单位（刻/轮/回合），例 .init eff 哥布林 眩晕 2轮"

_UNITS = {"刻": DurationKind.TICKS, "轮": DurationKind.ROUNDS, "回合": DurationKind.TURNS}
_FIXED = {
    "本刻": DurationKind.UNTIL_TICK_END,
    "至此刻结束": DurationKind.UNTIL_TICK_END,
    "持续至此刻结束": DurationKind.UNTIL_TICK_END,
    "本轮": DurationKind.UNTIL_ROUND_END,
    "至本轮结束": DurationKind.UNTIL_ROUND_END,
    "持续至这轮结束": DurationKind.UNTIL_ROUND_END,
    "焦点": DurationKind.FOCUS,
    "永久": DurationKind.PERMANENT,
}
_AMOUNT = re.compile(r"^(?:(\d{1,3})|(\d{1,2})[dD](\d{1,3}))(刻|轮|回合)(开始|结束)?$")
MAX_AMOUNT = 999


def looks_like_duration(text: str) -> bool:
    """True when ``text`` is meant as a duration (also malformed ones such as ``三轮``)."""
    text = text.strip()
    if text in _FIXED or text in ("至回合结束", "至回合开始") or text.startswith(("条件:", "条件：")):
        return True
    return bool(re.search(r"(刻|轮|回合)(开始|结束)?$", text)) and not text.startswith("-")


def parse_duration(text: str, rng: random.Random | None = None) -> Duration:
    """Parse one duration word; dice amounts need ``rng``.

    >>> parse_duration("至回合结束").amount
    1
    >>> parse_duration("1d4轮", random.Random(3)).dice
    '1d4'
    >>> parse_duration("三轮")
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 时长格式：数字+单位（刻/轮/回合），例 .init eff 哥布林 眩晕 2轮
    """
    text = text.strip()
    if not text:
        return Duration(kind=DurationKind.PERMANENT)
    if text in _FIXED:
        return Duration(kind=_FIXED[text])
    if text == "至回合结束":
        return Duration(kind=DurationKind.TURNS, amount=1, boundary="end")
    if text == "至回合开始":
        return Duration(kind=DurationKind.TURNS, amount=1, boundary="start")
    if text.startswith(("条件:", "条件：")):
        cond = text[3:].strip()
        if not cond:
            raise InputSyntaxError("条件时长需要写明条件，例 条件:倒地为止")
        return Duration(kind=DurationKind.CONDITION, condition=cond[:60])
    match = _AMOUNT.match(text)
    if not match:
        raise InputSyntaxError(DURATION_HELP)
    fixed, count, faces, unit, boundary = match.groups()
    dice = ""
    if fixed is not None:
        amount = int(fixed)
    else:
        n, f = int(count), int(faces)
        if n < 1 or f < 1:
            raise InputSyntaxError(DURATION_HELP)
        if rng is None:
            raise InputSyntaxError("随机时长需要掷骰")
        amount = sum(rng.randint(1, f) for _ in range(n))
        dice = f"{n}d{f}"
    if not 1 <= amount <= MAX_AMOUNT:
        raise InputSyntaxError(f"时长应在1~{MAX_AMOUNT}之间")
    kind = _UNITS[unit]
    if boundary and kind is not DurationKind.TURNS:
        raise InputSyntaxError("只有「回合」可以指定开始/结束，例 1回合开始")
    return Duration(kind=kind, amount=amount, boundary="start" if boundary == "开始" else "end", dice=dice)


def format_duration(d: Duration, remaining: int | None = None, end_round: int | None = None) -> str:
    """Short Chinese form; ``remaining`` shows what is left.

    >>> format_duration(Duration(kind=DurationKind.TICKS, amount=3), remaining=2)
    '剩2刻'
    >>> format_duration(Duration(kind=DurationKind.TURNS, amount=1, boundary="start"))
    '1回合开始'
    """
    if d.hidden:
        return "剩?"
    unit = {DurationKind.TICKS: "刻", DurationKind.ROUNDS: "轮", DurationKind.TURNS: "回合"}.get(d.kind)
    if unit is not None:
        amount = remaining if remaining is not None else d.amount
        suffix = "开始" if d.kind is DurationKind.TURNS and d.boundary == "start" else ""
        prefix = "剩" if remaining is not None else ""
        return f"{prefix}{amount}{unit}{suffix}"
    if d.kind is DurationKind.UNTIL_TICK_END:
        return "至本刻结束"
    if d.kind is DurationKind.UNTIL_ROUND_END:
        return "至本轮结束"
    if d.kind is DurationKind.FOCUS:
        return f"焦点 至第{end_round}轮末" if end_round else "焦点"
    if d.kind is DurationKind.CONDITION:
        return f"直到{d.condition.removeprefix('直到')}"  # ``直到被解除`` written whole: once
    return "永久"


__all__ = ["DURATION_HELP", "format_duration", "looks_like_duration", "parse_duration"]
