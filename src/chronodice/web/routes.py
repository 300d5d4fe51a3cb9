"""The pages' HTTP side: a FastAPI router mounted on NoneBot's own app (no second server).

``/web/{kind}/{group}/{token}``          the page (a small shell with the data embedded)
``/web/{kind}/{group}/{token}/data``     the page data as JSON
``/web/{kind}/{group}/{token}/events``   server-sent events: the data again at each change
``/web/static/app.js`` · ``app.css``     the script and style (two named files, no listing)

GET and HEAD only.  Every response carries a strict Content-Security-Policy (scripts and styles
from this origin only, nothing else loaded, no framing) and ``Referrer-Policy: no-referrer``
(the token is in the address).  What a client may take (:mod:`.limits`): a malformed or unknown
token counts against its address, which past a burst gets 429 for unknown tokens only; a valid
link is rate-limited per client and per link; live streams are capped per client and in all.
Page data comes from the hub's snapshot of the session (:meth:`.hub.Hub.snapshot`), never a
read per request.  A stream ends when its link is reset or its session is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import math
import signal
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from chronodice.core.clock import SYSTEM

from . import tokens
from .commands import Site
from .config import PREFIX
from .hub import ENDED
from .limits import (
    FAILURES_BURST,
    LINK_BURST,
    LINK_RATE,
    MAX_TRACKED,
    TOKEN_BURST,
    TOKEN_RATE,
    Buckets,
    FailureLimit,
    Known,
    StreamSlots,
)
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
METHODS = ["GET", "HEAD"]
RECHECK_SECONDS = 5.0
"""How long an open stream's check that its link still opens is shared with the others."""
ROUTE_PREFIX = "chronodice_web_"
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
STREAMS_FULL = {"client": "这个地址打开的实时网页已达上限", "all": "实时网页总数已达上限"}
REFUSALS = {
    429: "请求过多，请稍后再试",
    503: "打开的页面太多，请稍后再试",
}


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


def _gone(status: int = 404, retry_after: float | None = None) -> Response:
    text = REFUSALS.get(status, "链接无效或这场已经结束")
    headers = dict(HEADERS)
    if retry_after is not None:
        headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return Response(text, status_code=status, media_type="text/plain; charset=utf-8", headers=headers)


def _client(request: Request) -> str:
    """The client address as the server resolved it (behind a listed proxy, the address it saw)."""
    return request.client.host if request.client else "?"


def make_router(
    site: Site,
    *,
    limit: FailureLimit | None = None,
    clock: Callable[[], float] = SYSTEM.monotonic,
    slots: StreamSlots | None = None,
) -> APIRouter:
    """The router serving ``site``'s pages (see the module doc)."""
    router = APIRouter()
    files = _static_files()
    version = hashlib.sha256(b"".join(files.values())).hexdigest()[:10]
    limit = limit or FailureLimit(clock)
    per_link = Buckets(LINK_BURST, LINK_RATE, clock)
    per_token = Buckets(TOKEN_BURST, TOKEN_RATE, clock)
    slots = slots or StreamSlots()
    site.slots = slots
    store, hub, known = site.store, site.hub, site.known
    offset = site.settings.utc_offset_hours

    async def lookup(kind: str, group: str, token: str) -> Known | None:
        """What the store says ``token`` opens (the authority: a reset link stops at once)."""
        links = tokens.Links.from_settings((await store.groups.get_group(group)).settings)
        keys = [k for k in links.entries if k == kind or (kind == "log" and k.startswith("log:"))]
        for key in keys:
            role = links.role_of(key, token)
            session = links.session(key)
            if role is not None and session is not None:
                return Known(key, session, role == "gm")
        return None

    rechecked: OrderedDict[tuple[str, str, str], tuple[float, Known | None]] = OrderedDict()

    async def recheck(kind: str, group: str, token: str) -> Known | None:
        """:func:`lookup` for open streams' idle ticks, shared for :data:`RECHECK_SECONDS`: 5,000
        pages on one link cost one read per tick, not 5,000."""
        key = (kind, group, token)
        kept = rechecked.get(key)
        if kept is not None and clock() - kept[0] < RECHECK_SECONDS:
            return kept[1]
        found = await lookup(kind, group, token)
        rechecked[key] = (clock(), found)
        rechecked.move_to_end(key)
        while len(rechecked) > MAX_TRACKED:
            rechecked.popitem(last=False)
        return found

    async def resolve(request: Request, kind: str, group: str, token: str) -> tuple[Where, bool] | Response:
        who = _client(request)
        shaped = kind in TITLES and group.isascii() and group.isdigit() and len(group) <= 20
        if not shaped or not tokens.well_formed(token):
            if limit.blocked(who):
                return _gone(429, limit.buckets.wait(who))
            limit.failed(who)
            return _gone()
        if limit.blocked(who):  # a guesser: no lookups, but a link this process knows still works
            found = known.get(kind, group, token)
            if found is None:
                return _gone(429, limit.buckets.wait(who))
        else:
            found = await lookup(kind, group, token)
            if found is None:
                limit.failed(who)
                return _gone()
            known.add(kind, group, token, found)
        if not per_link.take((who, token)):
            return _gone(429, per_link.wait((who, token)))
        if not per_token.take(token):
            return _gone(429, per_token.wait(token))
        return Where(group, found.key, offset, found.session), found.gm

    async def first_data(where: Where, gm: bool) -> bytes | None:
        data = await hub.snapshot(where, gm)
        if data is None:
            await forget(where)
        return data

    async def forget(where: Where) -> None:
        """The session is over: its tokens go (a later session of the group gets new ones; its
        tokens, if already drawn, stay)."""
        site.known.drop(where.scope, where.key)
        await store.groups.update_group_settings(  # a page's, no delivered event's
            where.scope, lambda s: tokens.forget(s, where.key, where.session), claim=None
        )

    hub.on_end = forget

    @router.api_route(PREFIX + "/static/{name}", methods=METHODS, name=ROUTE_PREFIX + "static")
    async def static(name: str) -> Response:
        body = files.get(name)
        if body is None:
            return _gone()
        headers = {**HEADERS, "Cache-Control": "public, max-age=86400"}
        return Response(body, media_type=STATIC[name], headers=headers)

    @router.api_route(PREFIX + "/{kind}/{group}/{token}", methods=METHODS, name=ROUTE_PREFIX + "page")
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

    @router.api_route(PREFIX + "/{kind}/{group}/{token}/data", methods=METHODS, name=ROUTE_PREFIX + "data")
    async def data(request: Request, kind: str, group: str, token: str) -> Response:
        got = await resolve(request, kind, group, token)
        if isinstance(got, Response):
            return got
        body = await first_data(*got)
        if body is None:
            return _gone(410)
        return Response(body, media_type="application/json", headers=HEADERS)

    @router.api_route(
        PREFIX + "/{kind}/{group}/{token}/events", methods=METHODS, name=ROUTE_PREFIX + "events"
    )
    async def events(request: Request, kind: str, group: str, token: str) -> Response:
        got = await resolve(request, kind, group, token)
        if isinstance(got, Response):
            return got
        where, gm = got
        if await first_data(where, gm) is None:
            return _gone(410)
        if request.method == "HEAD":
            return Response(media_type="text/event-stream", headers=HEADERS)
        who = _client(request)
        full = slots.acquire(who)
        if full is not None:
            site.refusals(who, f"GET {PREFIX}/{kind}/{group}/…/events", STREAMS_FULL[full])
            return _gone(503, 5.0)

        async def still_valid() -> bool:
            return await recheck(kind, group, token) == Known(where.key, where.session or "", gm)

        stop = site.stopper(where.scope, where.key)
        body = _sse(_guarded(hub.stream(where, gm), stop, still_valid), lambda: slots.release(who))
        return StreamingResponse(
            body, media_type="text/event-stream", headers={**HEADERS, "X-Accel-Buffering": "no"}
        )

    return router


def mount(fastapi_app: Any, router: APIRouter) -> None:
    """Include ``router``, replacing the routes an earlier :func:`make_router` put there (a test
    harness that starts the bot twice in one process would otherwise serve the old site)."""
    fastapi_app.router.routes[:] = [
        r for r in fastapi_app.router.routes if not str(getattr(r, "name", "")).startswith(ROUTE_PREFIX)
    ]
    fastapi_app.include_router(router)


async def _guarded(
    stream: AsyncIterator[bytes | None], stop: asyncio.Event, still_valid: Callable[[], Any]
) -> AsyncIterator[bytes | None]:
    """``stream``'s items until its link is reset: at once when this process reset it (``stop``),
    else at the next idle tick when the store no longer knows the token (another process).

    When the page goes away (this generator is cancelled or closed), the pending read of
    ``stream`` is cancelled and awaited, so the hub's stream ends then and there (its count of
    open streams with it), and no task is left waiting on ``stop``."""
    items = stream.__aiter__()
    halt = asyncio.ensure_future(stop.wait())
    step: asyncio.Future[Any] | None = None
    try:
        while True:
            step = asyncio.ensure_future(items.__anext__())
            await asyncio.wait({step, halt}, return_when=asyncio.FIRST_COMPLETED)
            if halt.done():
                yield ENDED
                return
            try:
                item = step.result()
            except StopAsyncIteration:
                return
            step = None
            if item is None and not await still_valid():
                yield ENDED
                return
            yield item
    finally:
        halt.cancel()
        if step is not None and not step.done():
            step.cancel()
            with contextlib.suppress(BaseException):
                await step
        with contextlib.suppress(Exception):
            await items.aclose()  # type: ignore[attr-defined]


async def _sse(stream: AsyncIterator[bytes | None], done: Callable[[], None]) -> AsyncIterator[bytes]:
    """Server-sent events: ``retry`` first (reconnect after 1 s), a message per change, a
    comment when idle, ``event: end`` when the session is over; ``done()`` once it stops."""
    try:
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
    finally:
        done()


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


__all__ = [
    "CSP",
    "FAILURES_BURST",
    "HEADERS",
    "FailureLimit",
    "make_router",
    "mount",
    "page_html",
    "streams_stop_on_exit",
]
