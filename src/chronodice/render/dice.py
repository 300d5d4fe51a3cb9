"""Reply text for dice rolls: ``U1 掷骰 侦查: 3d6+2=[1,2,3]+2=8``."""

from __future__ import annotations

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


__all__ = ["MAX_REASON_CHARS", "format_roll"]
