"""The one clock: every reading of the time in ``src/`` goes through a :class:`Clock`.

``App`` holds one (``app.clock``) and hands it to every service (``call.app.clock``):

* ``clock.wall()`` — now, an aware ``datetime`` in UTC (logs, stored times; convert with
  ``.astimezone(CHINA)`` for the calendar day players live by);
* ``clock.timestamp()`` — the same as seconds since the epoch (times kept in session state:
  tick20's C02 grace, 萌E deadlines);
* ``clock.day()`` — the calendar day in UTC+8 (``YYYY-MM-DD``): ``.jrrp``'s day, ``.sc``'s
  daily sanity total;
* ``clock.monotonic()`` — seconds for intervals (flood control, ``.send``'s window, caches);
  calling the clock itself (``clock()``) is the same, so a clock goes wherever a
  ``Callable[[], float]`` monotonic clock went before.

Kinds: :data:`SYSTEM` (:class:`SystemClock`, the real time), :class:`ManualClock` (tests move
it: ``clock.advance(3600)``), :class:`ShiftedClock` (the real time plus seconds read from a
file: the end-to-end tests jump the bot's time forward instead of sleeping — set by
``CHRONODICE_CLOCK_SHIFT_FILE``, never in production) and :class:`MonotonicOnly` (a bare
monotonic callable, as ``App(clock=…)`` took before).

Readings of the real time outside this module (``tests/core/test_one_clock.py`` holds the
list, with reasons): none in services.  The store (not a service, built before the ``App``)
reads :data:`SYSTEM` directly.  Pending: ``chronodice.services.moe`` keeps its own
``clock = time.time`` (its deadlines); its NoneBot plugin points it at the app's clock at
start-up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

CHINA = timezone(timedelta(hours=8))
"""UTC+8: the calendar day ``.jrrp`` and ``.sc`` count by."""

__all__ = [
    "CHINA",
    "SYSTEM",
    "Clock",
    "ManualClock",
    "MonotonicOnly",
    "ShiftedClock",
    "SystemClock",
    "as_clock",
]


class Clock:
    """What every clock offers; subclasses give :meth:`wall` and :meth:`monotonic`."""

    def wall(self) -> datetime:
        """Now, aware, in UTC."""
        raise NotImplementedError

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (only differences mean anything)."""
        raise NotImplementedError

    def timestamp(self) -> float:
        """Now as seconds since the epoch (``time.time()``)."""
        return self.wall().timestamp()

    def day(self) -> str:
        """Today in UTC+8, ``YYYY-MM-DD``."""
        return self.wall().astimezone(CHINA).date().isoformat()

    def __call__(self) -> float:
        """:meth:`monotonic`: a clock is also a ``Callable[[], float]``."""
        return self.monotonic()


class SystemClock(Clock):
    """The real time."""

    def wall(self) -> datetime:
        return datetime.now(timezone.utc)

    def monotonic(self) -> float:
        return time.monotonic()

    def timestamp(self) -> float:
        return time.time()


SYSTEM = SystemClock()
"""The real time (production's clock, and what the store reads)."""


class ManualClock(Clock):
    """A clock that stands still until the test moves it (both readings move together)."""

    def __init__(self, wall: datetime | None = None, monotonic: float = 1000.0) -> None:
        start = wall if wall is not None else datetime(2024, 5, 1, 4, 0, tzinfo=timezone.utc)
        if start.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self.now = start.astimezone(timezone.utc)
        self.mono = monotonic

    def wall(self) -> datetime:
        return self.now

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        """Move both readings ``seconds`` forward."""
        self.now += timedelta(seconds=seconds)
        self.mono += seconds

    def set(self, wall: datetime) -> None:
        """Jump to ``wall`` (aware); the monotonic reading moves by the same amount, never back."""
        step = (wall.astimezone(timezone.utc) - self.now).total_seconds()
        self.now = wall.astimezone(timezone.utc)
        self.mono += max(step, 0.0)


class ShiftedClock(Clock):
    """The real time moved forward by the seconds written in ``path`` (read at each reading;
    a missing or unreadable file is no shift).  For end-to-end tests only: the test writes
    ``11`` to make a deadline pass instead of waiting for it."""

    def __init__(self, path: Path, base: Clock = SYSTEM) -> None:
        self.path = path
        self.base = base

    def shift(self) -> float:
        try:
            return float(self.path.read_text(encoding="ascii").strip() or 0)
        except (OSError, ValueError):
            return 0.0

    def wall(self) -> datetime:
        return self.base.wall() + timedelta(seconds=self.shift())

    def monotonic(self) -> float:
        return self.base.monotonic() + self.shift()

    def timestamp(self) -> float:
        return self.base.timestamp() + self.shift()


class MonotonicOnly(Clock):
    """A bare monotonic callable (what ``App(clock=…)`` took before) with the real wall time."""

    def __init__(self, monotonic: Callable[[], float], base: Clock = SYSTEM) -> None:
        self.read = monotonic
        self.base = base

    def wall(self) -> datetime:
        return self.base.wall()

    def monotonic(self) -> float:
        return float(self.read())

    def timestamp(self) -> float:
        return self.base.timestamp()


def as_clock(clock: Clock | Callable[[], float] | None) -> Clock:
    """A :class:`Clock` from what a caller passed: a clock, a monotonic callable, or nothing."""
    if clock is None:
        return SYSTEM
    if isinstance(clock, Clock):
        return clock
    return MonotonicOnly(clock)
