"""What one client may take from the pages: request rates, bad-token misses and live streams.

Every limit is keyed by the *client address* the server resolved (``request.client.host``:
the peer, or behind a proxy the admin listed in ``CHRONODICE_TRUSTED_PROXIES`` the address that
proxy saw, :mod:`.edge`), so one client's traffic never spends another client's allowance:

* :class:`Buckets` — token buckets: valid links are rate-limited per (client, link) and per
  link (a hostile member hammering ``/data`` with the group's link slows only themselves);
* :class:`FailureLimit` — bad tokens per client: past :data:`FAILURES_BURST` misses a client's
  *unknown* tokens get 429 without a lookup, while a token this process knows to be valid
  (:class:`KnownTokens`) is still served: behind a proxy nobody listed, where every viewer
  shares one address, a guesser does not lock the others out;
* :class:`StreamSlots` — live event streams per client and in all, the total derived from the
  process's open-files limit (:func:`stream_budget`) so that streams never starve the sockets the
  OneBot connection and the database need.

Every clock is injected (``chronodice.core.clock.SYSTEM.monotonic`` in production, a test's own in tests).
"""

from __future__ import annotations

import resource
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from chronodice.core.clock import SYSTEM

FAILURES_BURST = 20
"""Bad-token requests a client may make in a burst …"""
FAILURE_REFILL_SECONDS = 3.0
"""… and one more every this many seconds."""
MAX_TRACKED = 10_000
"""Most keys a limiter remembers (the least recently used go first)."""

LINK_BURST, LINK_RATE = 60.0, 2.0
"""Requests one client may make on one link: a burst, then this many per second (a page is
two requests, and its reconnects after a restart one or two more)."""
TOKEN_BURST, TOKEN_RATE = 300.0, 20.0
"""Requests on one link from all clients together."""

STREAMS_PER_CLIENT = 32
"""Live pages one client address may hold open (tabs, or a household behind one NAT)."""
MAX_STREAMS = 5_000
"""The most live pages one process holds whatever its open-files limit."""
FD_RESERVE = 256
"""Open files kept back from the pages: the OneBot connections, the database, logs, exports."""


class Buckets:
    """Token buckets by key: ``take(key)`` spends one token, False when the bucket is empty."""

    def __init__(
        self,
        burst: float,
        rate: float,
        clock: Callable[[], float] = SYSTEM.monotonic,
        limit: int = MAX_TRACKED,
    ) -> None:
        self.burst, self.rate, self.clock, self.limit = burst, rate, clock, limit
        self.levels: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()

    def level(self, key: Hashable) -> float:
        now = self.clock()
        level, at = self.levels.get(key, (self.burst, now))
        return min(self.burst, level + (now - at) * self.rate)

    def take(self, key: Hashable, cost: float = 1.0) -> bool:
        level = self.level(key)
        if level < cost:
            return False
        self.levels[key] = (level - cost, self.clock())
        self.levels.move_to_end(key)
        while len(self.levels) > self.limit:
            self.levels.popitem(last=False)
        return True

    def wait(self, key: Hashable, cost: float = 1.0) -> float:
        """Seconds until ``take(key, cost)`` would succeed (for ``Retry-After``)."""
        return max(0.0, (cost - self.level(key)) / self.rate)


class FailureLimit:
    """Per client address, a bucket of :data:`FAILURES_BURST` bad-token requests."""

    def __init__(self, clock: Callable[[], float] = SYSTEM.monotonic) -> None:
        self.buckets = Buckets(float(FAILURES_BURST), 1.0 / FAILURE_REFILL_SECONDS, clock)

    def blocked(self, who: str) -> bool:
        return self.buckets.level(who) < 1

    def failed(self, who: str) -> None:
        self.buckets.take(who)


@dataclass(frozen=True)
class Known:
    """A token the store confirmed: which session key and role it opens."""

    key: str
    session: str
    gm: bool


class KnownTokens:
    """Tokens this process issued or saw valid (the most recent :data:`MAX_TRACKED`).

    Consulted only for a client over its bad-token budget: the store stays the authority for
    everyone else, so a rotated or expired link stops at once for them.  Entries go when this
    process rotates or forgets a session's links (:meth:`drop`)."""

    def __init__(self, limit: int = MAX_TRACKED) -> None:
        self.limit = limit
        self.entries: OrderedDict[tuple[str, str, str], Known] = OrderedDict()

    def add(self, kind: str, scope: str, token: str, known: Known) -> None:
        self.entries[(kind, scope, token)] = known
        self.entries.move_to_end((kind, scope, token))
        while len(self.entries) > self.limit:
            self.entries.popitem(last=False)

    def get(self, kind: str, scope: str, token: str) -> Known | None:
        return self.entries.get((kind, scope, token))

    def drop(self, scope: str, key: str) -> None:
        for k in [k for k, v in self.entries.items() if k[1] == scope and v.key == key]:
            del self.entries[k]


def raise_open_files_limit(target: int = 65_536) -> tuple[int, int]:
    """Raise this process's soft open-files limit towards ``target`` (never past the hard limit);
    returns the (soft, hard) limits in force.  systemd and most shells start a process at 1,024,
    which a page per player and the OneBot connection share."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = target if hard == resource.RLIM_INFINITY else min(target, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft, hard


def stream_budget(soft_limit: int | None = None) -> int:
    """Live streams one process may hold: half of what its open-files limit leaves after
    :data:`FD_RESERVE` (the other half for page loads, idle keep-alive connections and the
    OneBot reconnect), at most :data:`MAX_STREAMS`, at least 16.

    >>> stream_budget(1024), stream_budget(65536), stream_budget(200)
    (384, 5000, 16)
    """
    if soft_limit is None:
        soft_limit, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft_limit == resource.RLIM_INFINITY:
            soft_limit = 1 << 20
    return max(16, min(MAX_STREAMS, (soft_limit - FD_RESERVE) // 2))


@dataclass
class StreamSlots:
    """Open live streams, per client address and in all."""

    total: int = field(default_factory=stream_budget)
    per_client: int = STREAMS_PER_CLIENT
    open: int = 0
    by_client: dict[str, int] = field(default_factory=dict)

    def acquire(self, who: str) -> str | None:
        """Take a slot for ``who``; the reason when none is free (``"client"`` or ``"all"``)."""
        if self.by_client.get(who, 0) >= self.per_client:
            return "client"
        if self.open >= self.total:
            return "all"
        self.by_client[who] = self.by_client.get(who, 0) + 1
        self.open += 1
        return None

    def release(self, who: str) -> None:
        left = self.by_client.get(who, 0) - 1
        if left > 0:
            self.by_client[who] = left
        else:
            self.by_client.pop(who, None)
        self.open = max(0, self.open - 1)


__all__ = [
    "FAILURES_BURST",
    "FAILURE_REFILL_SECONDS",
    "FD_RESERVE",
    "LINK_BURST",
    "LINK_RATE",
    "MAX_STREAMS",
    "STREAMS_PER_CLIENT",
    "TOKEN_BURST",
    "TOKEN_RATE",
    "Buckets",
    "FailureLimit",
    "Known",
    "KnownTokens",
    "StreamSlots",
    "raise_open_files_limit",
    "stream_budget",
]
