"""Reply text for dice rolls: ``U1 掷骰 侦查: 3d6+2=[1,2,3]+2=8``."""

from __future__ import annotations

from fractions import Fraction

from chronodice.dice import RollOutcome

MAX_REASON_CHARS = 60
"""Longest reason echoed back; longer ones are cut with "…"."""


def format_roll(name: str, out: RollOutcome) -> str:
    """The group reply for ``out``, rolled by ``name``; one line per repeat.

    >>> import random
    >>> from chronodice.dice import roll_command
    >>> format_roll("U1", roll_command("4d6k3", random.Random(7)))
    'U1 掷骰: 4d6k3=[3,(2),4,6]=13'
    >>> print(format_roll("U1", roll_command("2#d20 攻击", random.Random(1))))
    U1 掷骰 攻击: 2#1d20
    1d20=5
    1d20=19
    """
    reason = out.reason
    if len(reason) > MAX_REASON_CHARS:
        reason = reason[:MAX_REASON_CHARS] + "…"
    head = f"{name} 掷骰" + (f" {reason}" if reason else "")
    if len(out.results) == 1:
        return f"{head}: {out.results[0].detail}"
    lines = [f"{head}: {out.repeats}#{out.expression}"]
    lines.extend(r.detail for r in out.results)
    return "\n".join(lines)


def percent(p: Fraction) -> str:
    """A probability as players read it: ``61.6%``, ``<0.1%``, ``0%``, ``100%``."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


ODDS_ROWS = 12
"""A distribution with at most this many values is shown value by value; a wider one by six
thresholds spread evenly between its minimum and maximum."""


def format_odds(name: str, expression: str, dist: dict[int, Fraction]) -> str:
    """Mean, range and odds of an exact distribution (``.r 4d6k3 ?``).

    >>> from chronodice.dice import distribution
    >>> print(format_odds("U1", "1d4", distribution("1d4")))
    U1 1d4 的分布：均值 2.5，最小 1，最大 4
    =1:25.0% ≥1:100%
    =2:25.0% ≥2:75.0%
    =3:25.0% ≥3:50.0%
    =4:25.0% ≥4:25.0%
    """
    values = sorted(dist)
    mean = sum((v * p for v, p in dist.items()), Fraction(0))
    mean_text = f"{float(mean):.2f}".rstrip("0").rstrip(".")
    head = f"{name} {expression} 的分布：均值 {mean_text}，最小 {values[0]}，最大 {values[-1]}"
    at_least: dict[int, Fraction] = {}
    acc = Fraction(0)
    for v in reversed(values):
        acc += dist[v]
        at_least[v] = acc
    if len(values) <= ODDS_ROWS:
        rows = [f"={v}:{percent(dist[v])} ≥{v}:{percent(at_least[v])}" for v in values]
        return "\n".join([head, *rows])
    lo, hi = values[0], values[-1]
    marks = sorted({lo + (hi - lo) * i // 6 for i in range(1, 7)})
    cells = []
    for m in marks:
        p = next((at_least[v] for v in values if v >= m), Fraction(0))
        cells.append(f"≥{m}:{percent(p)}")
    return head + "\n" + " ".join(cells)


__all__ = ["MAX_REASON_CHARS", "ODDS_ROWS", "format_odds", "format_roll", "percent"]
