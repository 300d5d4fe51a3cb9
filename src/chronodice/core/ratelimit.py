"""Flood control that fits play: token buckets per user and per group, decided in memory.

* Every user has a bucket of ``user_burst`` commands refilled at ``user_rate`` per second.  A
  command takes one token; with none left the user is warned once, then ignored until the
  bucket has refilled completely (a spammer who keeps typing stays limited).
* GMs (group owner, admins, superusers, appointed GMs) have a far larger bucket
  (``gm_burst``/``gm_rate``): a GM running combat (20 commands in 6 s) is never limited.
* Every group has a bucket too (``group_burst``/``group_rate``) that ordinary members draw
  from, so fifty accounts flooding one group cannot stall the bot: the group's work is capped
  at ``group_rate`` commands a second, the GMs (who do not draw from it) keep running the scene
  and can remove the accounts, and other groups are served as usual.  Flood accounts look like
  players, so while the group bucket is dry its ordinary members wait too; the group is told
  once.

The decision costs no database round trip: who is an appointed GM is remembered from the last
command this process handled in the group (:meth:`FloodControl.note_gms`).  Kept in process
memory on purpose: losing it on a restart loses nothing a user stored.  Settings come from
``.env`` (``CHRONODICE_FLOOD_*``, see ``.env.example``).

>>> t = [0.0]
>>> fc = FloodControl(FloodSettings(user_burst=2, user_rate=0.5), clock=lambda: t[0])
>>> [fc.check("u", "g") for _ in range(4)]
['ok', 'ok', 'warn', 'drop']
>>> t[0] = 2.0; fc.check("u", "g")
'drop'
>>> t[0] = 4.0; fc.check("u", "g")
'ok'
>>> [fc.check("gm", "g", privileged=True) for _ in range(20)].count("ok")
20
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from .clock import SYSTEM

Verdict = Literal["ok", "warn", "group_warn", "drop"]


@dataclass(frozen=True)
class FloodSettings:
    """Bucket sizes (commands) and refill rates (commands per second)."""

    user_burst: float = 15
    user_rate: float = 1.5
    gm_burst: float = 60
    gm_rate: float = 6.0
    group_burst: float = 40
    group_rate: float = 5.0
    enabled: bool = True

    @classmethod
    def from_mapping(cls, values: dict[str, object]) -> FloodSettings:
        """Build from ``CHRONODICE_FLOOD_*``-style keys (``user_burst`` …); bad values raise."""
        kwargs: dict[str, object] = {}
        for name in ("user_burst", "user_rate", "gm_burst", "gm_rate", "group_burst", "group_rate"):
            if values.get(name) is not None:
                value = float(str(values[name]))
                if value <= 0:
                    raise ValueError(f"CHRONODICE_FLOOD_{name.upper()} must be > 0")
                kwargs[name] = value
        if values.get("enabled") is not None:
            kwargs["enabled"] = str(values["enabled"]).lower() not in ("0", "false", "no", "off")
        return cls(**kwargs)  # type: ignore[arg-type]


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    warned: bool = False

    def take(self, now: float, burst: float, rate: float) -> bool:
        self.tokens = min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.warned and self.tokens >= burst:
            self.warned = False
        if self.warned:
            return False
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass
class FloodControl:
    settings: FloodSettings = field(default_factory=FloodSettings)
    clock: Callable[[], float] = SYSTEM.monotonic
    _users: dict[str, _Bucket] = field(default_factory=dict)
    _groups: dict[str, _Bucket] = field(default_factory=dict)
    _gms: dict[str, frozenset[str]] = field(default_factory=dict)

    def note_gms(self, group_id: str, gms: Iterable[str]) -> None:
        """Remember the appointed GMs of a group (from the view the dispatcher read)."""
        self._gms[group_id] = frozenset(gms)

    def is_known_gm(self, user_id: str, group_id: str | None) -> bool:
        return group_id is not None and user_id in self._gms.get(group_id, frozenset())

    def check(self, user_id: str, group_id: str | None, *, privileged: bool = False) -> Verdict:
        """``ok`` to handle, ``warn`` (tell the user once), ``group_warn`` (tell the group once),
        ``drop`` (stay silent)."""
        s = self.settings
        if not s.enabled:
            return "ok"
        now = self.clock()
        privileged = privileged or self.is_known_gm(user_id, group_id)
        burst, rate = (s.gm_burst, s.gm_rate) if privileged else (s.user_burst, s.user_rate)
        key = ("gm:" if privileged else "") + user_id
        bucket = self._users.get(key)
        if bucket is None:
            bucket = self._users[key] = _Bucket(burst, now)
        if not bucket.take(now, burst, rate):
            if bucket.warned:
                return "drop"
            bucket.warned = True
            return "warn"
        if group_id is not None and not privileged:
            gb = self._groups.get(group_id)
            if gb is None:
                gb = self._groups[group_id] = _Bucket(s.group_burst, now)
            if not gb.take(now, s.group_burst, s.group_rate):
                bucket.tokens += 1  # not this user's own fault: give the token back
                if gb.warned:
                    return "drop"
                gb.warned = True
                return "group_warn"
        if len(self._users) > 20_000:
            self._forget(now)
        return "ok"

    def _forget(self, now: float) -> None:
        """Drop buckets that have refilled (they would start full anyway)."""
        s = self.settings
        for table, burst, rate in (
            (self._users, s.user_burst, s.user_rate),
            (self._groups, s.group_burst, s.group_rate),
        ):
            for k in [k for k, b in table.items() if b.tokens + (now - b.stamp) * rate >= burst]:
                del table[k]


__all__ = ["FloodControl", "FloodSettings", "Verdict"]
