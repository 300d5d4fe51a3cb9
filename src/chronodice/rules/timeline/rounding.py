"""MayuriBot's rounding: Python ``format(x, '.Nf')`` on the exact binary value (half-to-even).

``r2``/``r1``/``r0`` are what ``rules/timeline.md`` calls r2/r1/r0.  ``fmt`` prints a stored
float the way the bot does (``175.0``, ``17.14``); ``fmt_int`` is the Excel sheet's whole number.

>>> r2(0.125), r2(0.4375), r0(2.5), r1(43.75)
(0.12, 0.44, 2.0, 43.8)
>>> fmt(175.0), fmt(17.142857), fmt(-0.0)
('175.0', '17.142857', '0.0')
"""

from __future__ import annotations

import math


def _r(x: float, digits: int) -> float:
    value = float(format(x, f".{digits}f"))
    return value + 0.0  # turn -0.0 into 0.0


def r2(x: float) -> float:
    """Round to 2 decimals, half-to-even on the binary value."""
    return _r(x, 2)


def r1(x: float) -> float:
    """Round to 1 decimal, half-to-even on the binary value."""
    return _r(x, 1)


def r0(x: float) -> float:
    """Round to a whole number (still a float, as MayuriBot stores it)."""
    return _r(x, 0)


def fmt(x: float) -> str:
    """A stored value as MayuriBot prints it: Python's ``str`` of the float.

    >>> fmt(1e21)
    '1e+21'
    """
    x = float(x) + 0.0
    if math.isfinite(x) and x.is_integer() and abs(x) < 1e16:
        return f"{x:.1f}"
    return str(x)


def fmt_int(x: float) -> str:
    """The Excel sheet's integer display (``ROUND(x, 0)`` rounds half away from zero).

    >>> fmt_int(26.09), fmt_int(2.5), fmt_int(-2.5)
    ('26', '3', '-3')
    """
    value = math.floor(abs(x) + 0.5)
    return str(int(math.copysign(value, x)) if value else 0)


__all__ = ["fmt", "fmt_int", "r0", "r1", "r2"]
