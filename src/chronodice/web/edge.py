"""The server's door: which requests reach an app at all (an ASGI middleware on NoneBot's app).

The OneBot v11 adapter serves three HTTP routes (``/onebot/v11/``, ``/onebot/v11/http``,
``/onebot/v11/http/``) that take events with no token unless ``ONEBOT_SECRET`` is set, so a
POST from anyone who can reach the port ran any command as anyone.  ChronoDice connects by
reverse WebSocket only, so :class:`Edge`:

* refuses OneBot over HTTP unless the admin set ``ONEBOT_SECRET`` (then the adapter checks the
  signature), and reads such a body only up to :data:`MAX_BODY` within :data:`BODY_SECONDS`;
* lets only ``GET``/``HEAD`` without a body reach the pages (``/web/…``);
* in the standalone bot (``closed``), answers every other path 404 and every WebSocket but the
  OneBot ones with a close: only the routes the bot uses are served.  Inside another NoneBot
  bot the host's own routes pass untouched.

Each refusal is one log line (no traceback), at most :data:`LINES_PER_WINDOW` per
:data:`WINDOW_SECONDS`, then one line counting the rest (:class:`RefusalLog`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from chronodice.core.clock import SYSTEM

from .config import PREFIX

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("chronodice.web")

ONEBOT_PREFIX = "/onebot/"
ONEBOT_WS_PATHS = frozenset({"/onebot/v11/", "/onebot/v11/ws", "/onebot/v11/ws/"})
"""The OneBot v11 adapter's reverse-WebSocket routes (NapCat, Lagrange connect here)."""
MAX_BODY = 1 << 20
"""The largest OneBot HTTP event body read (a message event is a few KB)."""
BODY_SECONDS = 10.0
"""How long a request body may take to arrive."""
LINES_PER_WINDOW = 10
WINDOW_SECONDS = 10.0
NO_HTTP = "未开启 OneBot HTTP 上报：本骰娘用反向 WebSocket 接入（确需 HTTP 上报时设置 ONEBOT_SECRET）"
NO_PROXY_LIST = (
    "收到带 X-Forwarded-For 的请求，但 CHRONODICE_TRUSTED_PROXIES 没有列出这个代理：按连接地址限流，"
    "代理后的访客会共用一个额度（反向代理后面请把代理的地址填进 CHRONODICE_TRUSTED_PROXIES）"
)


class RefusalLog:
    """One line per refusal, at most ``per_window`` per ``window`` seconds; the lines held back
    are counted in one line when the next window starts (a flood never floods the log)."""

    def __init__(
        self,
        emit: Callable[[str], None] | None = None,
        clock: Callable[[], float] = SYSTEM.monotonic,
        per_window: int = LINES_PER_WINDOW,
        window: float = WINDOW_SECONDS,
    ) -> None:
        self.emit = emit or (lambda line: log.warning(line))
        self.clock, self.per_window, self.window = clock, per_window, window
        self.started = -window
        self.written = 0
        self.held = 0

    def __call__(self, who: str, what: str, why: str) -> None:
        now = self.clock()
        if now - self.started >= self.window:
            if self.held:
                self.emit(f"另有 {self.held} 次拒绝未逐条记录（{self.window:g} 秒内）")
            self.started, self.written, self.held = now, 0, 0
        if self.written < self.per_window:
            self.written += 1
            self.emit(f"拒绝 {who} {what[:200]}：{why}")
        else:
            self.held += 1


@dataclass
class EdgePolicy:
    """What the door lets through; ``closed`` is set by the standalone bot (``bot.py``)."""

    onebot_http: bool = False
    """``ONEBOT_SECRET`` is set: OneBot events over HTTP reach the adapter (which checks it)."""
    closed: bool = False
    """Only ChronoDice's own routes are served (the standalone bot)."""
    trusted_proxies: bool = False
    """``CHRONODICE_TRUSTED_PROXIES`` lists proxies (the server reads their X-Forwarded-For)."""
    max_body: int = MAX_BODY
    body_seconds: float = BODY_SECONDS
    refusals: RefusalLog = field(default_factory=RefusalLog)
    warned_proxy: bool = False


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value)
    return None


async def _answer(send: Send, status: int, text: str, extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Edge:
    """The ASGI middleware (see the module doc)."""

    def __init__(self, app: ASGIApp, policy: EdgePolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            await self.http(scope, receive, send)
        elif kind == "websocket":
            await self.websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def who(self, scope: Scope) -> str:
        client = scope.get("client")
        if (
            not self.policy.trusted_proxies
            and not self.policy.warned_proxy
            and _header(scope, b"x-forwarded-for")
        ):
            self.policy.warned_proxy = True
            log.warning(NO_PROXY_LIST)
        return str(client[0]) if client else "?"

    async def refuse(self, scope: Scope, send: Send, status: int, text: str, why: str) -> None:
        self.policy.refusals(self.who(scope), f"{scope.get('method', 'WS')} {scope.get('path', '')}", why)
        extra = ((b"allow", b"GET, HEAD"),) if status == 405 else ()
        await _answer(send, status, text, extra)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path, method = scope.get("path", ""), scope.get("method", "")
        if path.startswith(ONEBOT_PREFIX):
            if not self.policy.onebot_http:
                return await self.refuse(
                    scope, send, 403, NO_HTTP, "OneBot HTTP 上报未开启（未设置 ONEBOT_SECRET）"
                )
            return await self.body_then(scope, receive, send)
        if path.startswith(PREFIX + "/"):
            if method not in ("GET", "HEAD"):
                return await self.refuse(
                    scope, send, 405, "只读网页只接受 GET", f"{method} 不是网页的请求方法"
                )
            if _declared_body(scope):
                return await self.refuse(scope, send, 413, "请求不应带正文", "网页请求带了正文")
            self.who(scope)
            return await self.app(scope, receive, send)
        if self.policy.closed:
            return await self.refuse(scope, send, 404, "Not Found", "不是骰娘提供的地址")
        await self.app(scope, receive, send)

    async def body_then(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the whole body (at most ``max_body`` bytes, within ``body_seconds``), then hand the
        request on with the body replayed: the adapter never reads an unbounded body."""
        declared = _declared_body(scope)
        if declared is not None and declared > self.policy.max_body:
            return await self.refuse(scope, send, 413, "请求正文过大", f"正文 {declared} 字节超过上限")
        try:
            got = await asyncio.wait_for(_read_body(receive, self.policy.max_body), self.policy.body_seconds)
        except asyncio.TimeoutError:
            return await self.refuse(scope, send, 408, "请求正文超时", "正文没有按时传完")
        if got is None:
            return  # the client went away
        if isinstance(got, int):
            return await self.refuse(scope, send, 413, "请求正文过大", f"正文超过 {got} 字节")
        body = got
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if self.policy.closed and path not in ONEBOT_WS_PATHS:
            message = await receive()
            if message["type"] == "websocket.connect":
                self.policy.refusals(self.who(scope), f"WS {path}", "不是骰娘提供的 WebSocket 地址")
                await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)


async def _read_body(receive: Receive, limit: int) -> bytes | int | None:
    """The whole body; ``limit`` when it is longer; None when the client went away."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return limit
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _declared_body(scope: Scope) -> int | None:
    """The body a request announces: its Content-Length, a chunked body as 1 byte at least (its
    size is unknown), None when it has none."""
    length = _header(scope, b"content-length")
    if length is not None:
        try:
            n = int(length)
        except ValueError:
            return 1 << 62
        return n if n > 0 else None
    encoding = _header(scope, b"transfer-encoding")
    return 1 if encoding is not None and b"chunked" in encoding.lower() else None


def install_edge(fastapi_app: Any, policy: EdgePolicy) -> bool:
    """Put :class:`Edge` in front of ``fastapi_app`` (once; False when the app already started
    serving, as in a test harness, and cannot take middleware any more)."""
    if any(getattr(m, "cls", None) is Edge for m in fastapi_app.user_middleware):
        return True
    try:
        fastapi_app.add_middleware(Edge, policy=policy)
    except RuntimeError:
        return False
    return True


__all__ = [
    "BODY_SECONDS",
    "MAX_BODY",
    "NO_HTTP",
    "ONEBOT_WS_PATHS",
    "Edge",
    "EdgePolicy",
    "RefusalLog",
    "install_edge",
]
