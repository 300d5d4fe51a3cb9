"""Per-user flood control: more than N commands in a window → one warning, then silence.

Kept in process memory on purpose: it guards this process's replies and losing it on restart
loses nothing a user stored.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .limits import RATE_LIMIT_COMMANDS, RATE_LIMIT_MUTE, RATE_LIMIT_WINDOW

Verdict = Literal["ok", "warn", "muted"]


@dataclass
class RateLimiter:
    """Sliding-window limiter.

    >>> t = [0.0]
    >>> rl = RateLimiter(limit=2, window=10, mute=30, clock=lambda: t[0])
    >>> [rl.check("u") for _ in range(4)]
    ['ok', 'ok', 'warn', 'muted']
    >>> t[0] = 31.0; rl.check("u")
    'ok'
    """

    limit: int = RATE_LIMIT_COMMANDS
    window: float = RATE_LIMIT_WINDOW
    mute: float = RATE_LIMIT_MUTE
    clock: Callable[[], float] = field(default=__import__("time").monotonic)
    _hits: dict[str, deque[float]] = field(default_factory=dict)
    _muted_until: dict[str, float] = field(default_factory=dict)

    def check(self, key: str) -> Verdict:
        now = self.clock()
        until = self._muted_until.get(key)
        if until is not None:
            if now < until:
                return "muted"
            del self._muted_until[key]
            self._hits.pop(key, None)
        hits = self._hits.setdefault(key, deque())
        while hits and now - hits[0] > self.window:
            hits.popleft()
        hits.append(now)
        if len(hits) > self.limit:
            self._muted_until[key] = now + self.mute
            return "warn"
        if len(self._hits) > 10_000:  # forget idle users now and then
            for k in [k for k, v in self._hits.items() if not v or now - v[-1] > self.window]:
                del self._hits[k]
        return "ok"
