"""The pages' HTTP side: a FastAPI router mounted on NoneBot's own app (no second server).

``/web/{kind}/{group}/{token}``          the page (a small shell with the data embedded)
``/web/{kind}/{group}/{token}/data``     the page data as JSON
``/web/{kind}/{group}/{token}/events``   server-sent events: the data again at each change
``/web/static/app.js`` · ``app.css``     the script and style (two named files, no listing)

Every response carries a strict Content-Security-Policy (scripts and styles from this origin
only, nothing else loaded, no framing) and ``Referrer-Policy: no-referrer`` (the token is in the
address).  A request whose token is malformed or unknown costs a cached settings lookup at most
and counts against its address: past :data:`FAILURES_BURST` such requests an address gets 429s
until its bucket refills (one every :data:`FAILURE_REFILL_SECONDS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from . import tokens
from .commands import Site
from .config import PREFIX
from .hub import ENDED
from .sources import Where
from .views import TITLES

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
MAX_STREAMS = 5_000
"""Most event streams one process keeps open (each is a waiting coroutine and a socket)."""
FAILURES_BURST = 20
FAILURE_REFILL_SECONDS = 3.0
MAX_TRACKED = 10_000
ROUTE_PREFIX = "chronodice_web_"
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}


class FailureLimit:
    """Per client address, a bucket of :data:`FAILURES_BURST` bad-token requests."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def blocked(self, who: str) -> bool:
        return self._level(who)[0] < 1

    def failed(self, who: str) -> None:
        level, _ = self._level(who)
        self.buckets[who] = (level - 1, self.clock())
        self.buckets.move_to_end(who)
        while len(self.buckets) > MAX_TRACKED:
            self.buckets.popitem(last=False)

    def _level(self, who: str) -> tuple[float, float]:
        now = self.clock()
        level, at = self.buckets.get(who, (float(FAILURES_BURST), now))
        return min(float(FAILURES_BURST), level + (now - at) / FAILURE_REFILL_SECONDS), now


def _static_files() -> dict[str, bytes]:
    folder = resources.files("chronodice.web") / "static"
    return {name: (folder / name).read_bytes() for name in STATIC}


def page_html(kind: str, gm: bool, first: bytes, version: str) -> str:
    """The page shell: header, the data embedded as inert JSON, the script.  ``first`` is
    :func:`.hub.encode`'s output (``<``, ``>``, ``&`` escaped), so it cannot end the element."""
    title = html.escape(TITLES[kind] + ("（GM）" if gm else ""))
    return (
        '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{title} · ChronoDice</title>"
        f'<link rel="stylesheet" href="{PREFIX}/static/app.css?v={version}"></head><body>'
        f'<header><b>{title}</b><span id="role"></span><span id="conn" class="off">○ 连接中</span></header>'
        '<main id="app"></main>'
        f'<script type="application/json" id="first">{first.decode()}</script>'
        f'<script src="{PREFIX}/static/app.js?v={version}"></script></body></html>'
    )


def _gone(status: int = 404) -> Response:
    text = {429: "请求过多，请稍后再试", 503: "打开的页面太多，请稍后再试"}.get(
        status, "链接无效或这场已经结束"
    )
    return Response(text, status_code=status, media_type="text/plain; charset=utf-8", headers=HEADERS)


def make_router(site: Site, *, limit: FailureLimit | None = None) -> APIRouter:
    """The router serving ``site``'s pages (see the module doc)."""
    router = APIRouter()
    files = _static_files()
    version = hashlib.sha256(b"".join(files.values())).hexdigest()[:10]
    limit = limit or FailureLimit()
    store, hub = site.store, site.hub
    offset = site.settings.utc_offset_hours

    async def resolve(request: Request, kind: str, group: str, token: str) -> tuple[Where, bool] | Response:
        who = request.client.host if request.client else "?"
        if limit.blocked(who):
            return _gone(429)
        if kind not in TITLES or not (group.isascii() and group.isdigit() and len(group) <= 20):
            limit.failed(who)
            return _gone()
        if not tokens.well_formed(token):
            limit.failed(who)
            return _gone()
        links = tokens.Links.from_settings((await store.get_group(group)).settings)
        keys = [k for k in links.entries if k == kind or (kind == "log" and k.startswith("log:"))]
        for key in keys:
            role = links.role_of(key, token)
            session = links.session(key)
            if role is not None and session is not None:
                return Where(group, key, offset, session), role == "gm"
        limit.failed(who)
        return _gone()

    async def first_data(where: Where, gm: bool) -> bytes | None:
        data = await hub.snapshot(where, gm)
        if data is None:
            await forget(where)
        return data

    async def forget(where: Where) -> None:
        """The session is over: its tokens go (a later session of the group gets new ones; its
        tokens, if already drawn, stay)."""
        if where.kind != "log":  # a log's link lasts as long as the log
            await store.update_group_settings(  # a page's, no delivered event's
                where.scope, lambda s: tokens.forget(s, where.key, where.session), claim=None
            )

    hub.on_end = forget

    @router.get(PREFIX + "/static/{name}", name=ROUTE_PREFIX + "static")
    async def static(name: str) -> Response:
        body = files.get(name)
        if body is None:
            return _gone()
        headers = {**HEADERS, "Cache-Control": "public, max-age=86400"}
        return Response(body, media_type=STATIC[name], headers=headers)

    @router.get(PREFIX + "/{kind}/{group}/{token}", name=ROUTE_PREFIX + "page")
    async def page(request: Request, kind: str, group: str, token: str) -> Response:
        got = await resolve(request, kind, group, token)
        if isinstance(got, Response):
            return got
        data = await first_data(*got)
        if data is None:
            return _gone(410)
        return Response(
            page_html(kind, got[1], data, version), media_type="text/html; charset=utf-8", headers=HEADERS
        )

    @router.get(PREFIX + "/{kind}/{group}/{token}/data", name=ROUTE_PREFIX + "data")
    async def data(request: Request, kind: str, group: str, token: str) -> Response:
        got = await resolve(request, kind, group, token)
        if isinstance(got, Response):
            return got
        body = await first_data(*got)
        if body is None:
            return _gone(410)
        return Response(body, media_type="application/json", headers=HEADERS)

    @router.get(PREFIX + "/{kind}/{group}/{token}/events", name=ROUTE_PREFIX + "events")
    async def events(request: Request, kind: str, group: str, token: str) -> Response:
        got = await resolve(request, kind, group, token)
        if isinstance(got, Response):
            return got
        if hub.open_streams >= MAX_STREAMS:
            return _gone(503)
        if await hub.snapshot(*got) is None:
            await forget(got[0])
            return _gone(410)
        return StreamingResponse(
            _sse(hub.stream(*got)),
            media_type="text/event-stream",
            headers={**HEADERS, "X-Accel-Buffering": "no"},
        )

    return router


def mount(fastapi_app: Any, router: APIRouter) -> None:
    """Include ``router``, replacing the routes an earlier :func:`make_router` put there (a test
    harness that starts the bot twice in one process would otherwise serve the old site)."""
    fastapi_app.router.routes[:] = [
        r for r in fastapi_app.router.routes if not str(getattr(r, "name", "")).startswith(ROUTE_PREFIX)
    ]
    fastapi_app.include_router(router)


async def _sse(stream: AsyncIterator[bytes | None]) -> AsyncIterator[bytes]:
    """Server-sent events: ``retry`` first (reconnect after 1 s), a message per change, a
    comment when idle, ``event: end`` when the session is over."""
    yield b"retry: 1000\n\n"
    async with contextlib.aclosing(stream) as items:  # type: ignore[type-var]
        async for item in items:
            if item is None:
                yield b": idle\n\n"
            elif item == ENDED:
                yield b"event: end\ndata: {}\n\n"
                return
            else:
                yield b"data: " + item + b"\n\n"


def streams_stop_on_exit(stop: Callable[[], Any]) -> None:
    """Call ``stop`` (from the event loop) when the server is asked to exit.

    Uvicorn waits for open responses to finish before it runs the shutdown hooks, and an event
    stream never finishes by itself: without this, a bot with a page open would not stop on
    ctrl+c or SIGTERM.  Uvicorn's own handlers stay in charge (called after ``stop``)."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue

        def handler(signum: int, frame: Any, previous: Any = previous) -> None:
            loop.call_soon_threadsafe(stop)
            previous(signum, frame)

        signal.signal(sig, handler)


__all__ = ["CSP", "HEADERS", "FailureLimit", "make_router", "mount", "page_html", "streams_stop_on_exit"]
