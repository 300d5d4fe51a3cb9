"""One watcher per open session, shared by every page that shows it.

A page's event stream subscribes to the :class:`Watch` of its session; the watch (one task per
session and process, whatever the number of pages) reads the session every ``interval`` seconds
through its source (:mod:`.sources`), and only when the source's marker moved builds the page
data of each role someone watches, once, and hands the same bytes to every page.  So 200 pages
on one battle cost one cheap read per interval, not 200; an idle page costs a waiting coroutine.

The read goes to the store, not to this process's memory: a change made by another bot process
on the same database (PostgreSQL) is seen at the next read, as the commands see it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from chronodice.core.clock import SYSTEM
from chronodice.store import Store

from .sources import SOURCES, Read, Where
from .views import DELTAS, Loaded, build

log = logging.getLogger("chronodice.web")

DEFAULT_INTERVAL = 0.35
"""Seconds between two reads of a watched session (a change shows within this plus the build)."""
KEEPALIVE = 15.0
"""Seconds of silence after which a stream sends a comment line (proxies close idle streams)."""
ENDED = b""
"""What :meth:`Hub.stream` yields once the session is over (its links stop working)."""
MAX_SNAPSHOTS = 512
"""Page data kept for one-off reads (pages and ``/data``) of sessions nobody streams."""


def encode(data: dict[str, Any]) -> bytes:
    """Compact JSON; ``<``, ``>`` and ``&`` escaped so the text is inert wherever it lands."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").encode()


@dataclass(eq=False)
class Watch:
    """One session's watcher (see the module doc)."""

    where: Where
    roles: dict[bool, int] = field(default_factory=dict)
    """Subscribers per role (``True``: GM)."""
    latest: dict[bool, bytes] = field(default_factory=dict)
    plain: dict[bool, dict[str, Any]] = field(default_factory=dict)
    """The page data behind ``latest`` (for a delta to the next)."""
    delta: dict[bool, tuple[bytes, bytes]] = field(default_factory=dict)
    """Per role, (the data before the last change, the delta from it to ``latest``)."""
    seq: int = 0
    ended: bool = False
    marker: Any = None
    kept: Loaded | None = None
    """The last state read (keeps a marker's object alive, see :func:`.sources.read_timeline`)."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    def publish(self) -> None:
        self.seq += 1
        old, self.changed = self.changed, asyncio.Event()
        old.set()


@dataclass
class Snapshot:
    """The page data of one role, as read at ``at`` (the hub's clock) with ``marker``."""

    at: float
    marker: Any
    data: bytes
    pins: Any = None
    """Keeps the object an identity marker names alive (:attr:`.sources.Read.pins`)."""


class Hub:
    """The process's watches; ``on_end(where)`` is called once when a watched session is over.

    One-off reads (the page itself and ``/data``) share the watch's bytes when the session is
    streamed, else a :class:`Snapshot` younger than ``interval``; an older one is checked with
    the source's marker (a log's head row, a battle's cached state) and rebuilt only when the
    session changed.  Concurrent reads of one session wait for the same read.  So a client
    hammering ``/data`` costs at most one cheap read per ``interval``, never a whole log each.
    """

    def __init__(
        self,
        store: Store,
        *,
        interval: float = DEFAULT_INTERVAL,
        keepalive: float = KEEPALIVE,
        on_end: Callable[[Where], Awaitable[None]] | None = None,
        clock: Callable[[], float] = SYSTEM.monotonic,
    ) -> None:
        self.store = store
        self.interval = interval
        self.clock = clock
        self.snapshots: OrderedDict[tuple[Where, bool], Snapshot] = OrderedDict()
        self.reading: dict[tuple[Where, bool], asyncio.Future[bytes | None]] = {}
        self.keepalive = keepalive
        self.on_end = on_end
        self.watches: dict[Where, Watch] = {}
        """By link target: the session id is part of it, so an old link never shares a watch
        with a later session's."""
        self.closing = False
        self.open_streams = 0
        self.reads = 0
        """Source reads made (for the idle-cost measurement)."""
        self.builds = 0

    # ------------------------------------------------------------------ one-off reads
    async def snapshot(self, where: Where, gm: bool) -> bytes | None:
        """The page data now (``None``: the session is over), from the watch when it has it."""
        w = self.watches.get(where)
        if w is not None and not w.ended and gm in w.latest:
            return w.latest[gm]
        key = (where, gm)
        kept = self.snapshots.get(key)
        if kept is not None and self.clock() - kept.at < self.interval:
            return kept.data
        pending = self.reading.get(key)
        if pending is None:
            pending = self.reading[key] = asyncio.ensure_future(self._read_once(key, kept))
            pending.add_done_callback(lambda _f: self.reading.pop(key, None))
        return await asyncio.shield(pending)

    async def _read_once(self, key: tuple[Where, bool], kept: Snapshot | None) -> bytes | None:
        where, gm = key
        got = await SOURCES[where.kind](self.store, where, kept.marker if kept is not None else None)
        self.reads += 1
        if got.unchanged and kept is not None:
            kept.at = self.clock()
            return kept.data
        if got.loaded is None:
            self.snapshots.pop(key, None)
            return None
        self.builds += 1
        data = encode(build(where.kind, got.loaded, gm))
        self.snapshots[key] = Snapshot(self.clock(), got.marker, data, got.pins)
        self.snapshots.move_to_end(key)
        while len(self.snapshots) > MAX_SNAPSHOTS:
            self.snapshots.popitem(last=False)
        return data

    def drop(self, scope: str, key: str) -> None:
        """Forget the kept page data of ``scope``'s session ``key`` (its links were reset)."""
        for k in [k for k in self.snapshots if k[0].scope == scope and k[0].key == key]:
            del self.snapshots[k]

    # ------------------------------------------------------------------ streams
    async def stream(self, where: Where, gm: bool) -> AsyncIterator[bytes | None]:
        """Page data for one page: the current data first, then each change; ``None`` after
        ``keepalive`` seconds without one; :data:`ENDED` once the session is over (then stops)."""
        w = self.watches.get(where)
        if w is None or w.ended:
            w = self.watches[where] = Watch(where)
        w.roles[gm] = w.roles.get(gm, 0) + 1
        self.open_streams += 1
        if gm not in w.latest:
            w.marker = None  # build this role at the next read
            w.wake.set()
        if w.task is None or w.task.done():
            w.task = asyncio.get_running_loop().create_task(self._run(w))
        last: bytes | None = None
        try:
            while not self.closing:
                if w.ended:
                    yield ENDED
                    return
                data = w.latest.get(gm)
                if data is not None and data is not last:  # a new bytes object only when it changed
                    step = w.delta.get(gm)
                    sent, last = last, data
                    yield step[1] if step is not None and step[0] is sent else data
                    continue
                waiting = w.changed
                try:
                    await asyncio.wait_for(waiting.wait(), self.keepalive)
                except asyncio.TimeoutError:
                    yield None
        finally:
            self.open_streams -= 1
            w.roles[gm] -= 1
            if w.roles[gm] <= 0:
                del w.roles[gm]
                for kept in (w.latest, w.plain, w.delta):
                    kept.pop(gm, None)
            if not w.roles:
                w.wake.set()  # the task sees nobody is left and ends

    async def _run(self, w: Watch) -> None:
        try:
            while w.roles:
                try:
                    await self._step(w)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("web: reading %s of %s failed", w.where.key, w.where.scope)
                if w.ended:
                    break
                w.wake.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(w.wake.wait(), self.interval)
        finally:
            if self.watches.get(w.where) is w and (w.ended or not w.roles):
                del self.watches[w.where]

    async def _step(self, w: Watch) -> None:
        got: Read = await SOURCES[w.where.kind](self.store, w.where, w.marker)
        self.reads += 1
        if got.unchanged:
            return
        if got.loaded is None:
            w.ended = True
            w.publish()
            if self.on_end is not None:
                await self.on_end(w.where)
            return
        moved = False
        delta = DELTAS.get(w.where.kind)
        for gm in list(w.roles):
            self.builds += 1
            plain = build(w.where.kind, got.loaded, gm)
            data = encode(plain)
            before = w.latest.get(gm)
            if before != data:
                small = delta(w.plain[gm], plain) if delta is not None and before is not None else None
                if small is not None and before is not None:
                    w.delta[gm] = (before, encode(small))
                else:
                    w.delta.pop(gm, None)
                w.latest[gm], w.plain[gm] = data, plain
                moved = True
        w.marker, w.kept = got.marker, got.loaded
        if moved:
            w.publish()

    def stop_streams(self) -> None:
        """End every open stream now, without an end event (the pages reconnect to whichever
        process serves next): the server is stopping."""
        self.closing = True
        for w in self.watches.values():
            w.publish()

    async def close(self) -> None:
        """Stop every watch (the bot is shutting down); open streams end with it."""
        for w in list(self.watches.values()):
            if w.task is not None:
                w.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await w.task
        self.watches.clear()


__all__ = ["DEFAULT_INTERVAL", "ENDED", "KEEPALIVE", "MAX_SNAPSHOTS", "Hub", "Snapshot", "Watch", "encode"]
