"""The server's door (:mod:`chronodice.web.edge`), the pages' limits (:mod:`chronodice.web.limits`)
and the connection guard (:mod:`chronodice.web.server`), each on its own with injected clocks."""

from __future__ import annotations

import hashlib
import hmac
import logging
from typing import Any

import pytest

from chronodice.core.text import clean_text
from chronodice.web.edge import Edge, EdgePolicy, RefusalLog
from chronodice.web.limits import Buckets, FailureLimit, Known, KnownTokens, StreamSlots, stream_budget
from chronodice.web.server import ConnectionGuard, RedactTokens, TrustedProxies, server_options


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class App:
    """The app behind the door: records what reached it and the body it read."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, bytes]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = b""
        if scope["type"] == "http":
            while True:
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body"):
                    break
        self.seen.append((scope["type"], scope["path"], body))
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})


async def call(
    edge: Edge,
    method: str,
    path: str,
    chunks: list[bytes] = (),  # type: ignore[assignment]
    headers: list[tuple[bytes, bytes]] | None = None,
    kind: str = "http",
) -> tuple[int, bytes]:
    queue = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)
    ]
    queue = queue or [{"type": "http.request", "body": b"", "more_body": False}]
    if kind == "websocket":
        queue = [{"type": "websocket.connect"}]
    got: dict[str, Any] = {"status": 0, "body": b""}

    async def receive() -> dict[str, Any]:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            got["status"] = message["status"]
        elif message["type"] == "http.response.body":
            got["body"] += message.get("body", b"")
        elif message["type"] == "websocket.close":
            got["status"] = 1008

    scope = {
        "type": kind,
        "method": method,
        "path": path,
        "headers": headers or [],
        "client": ("127.0.0.2", 5000),
    }
    await edge(scope, receive, send)
    return got["status"], got["body"]


def door(**policy: Any) -> tuple[Edge, App, list[str]]:
    lines: list[str] = []
    app = App()
    return Edge(app, EdgePolicy(refusals=RefusalLog(lines.append, Clock()), **policy)), app, lines


# ---------------------------------------------------------------------- the door
async def test_onebot_over_http_is_refused_without_a_secret() -> None:
    edge, app, lines = door()
    for path in ("/onebot/v11/", "/onebot/v11/http", "/onebot/v11/http/"):
        status, body = await call(edge, "POST", path, [b'{"post_type":"message"}'])
        assert status == 403 and "ONEBOT_SECRET" in body.decode()
    assert (
        app.seen == []
        and len(lines) == 3
        and all(line.startswith("拒绝 127.0.0.2 POST /onebot/") for line in lines)
    )


async def test_with_a_secret_the_body_is_read_whole_and_capped() -> None:
    edge, app, _lines = door(onebot_http=True, max_body=100)
    body = b'{"post_type":"meta_event"}'
    sig = hmac.new(b"s", body, hashlib.sha1).hexdigest()
    status, _ = await call(
        edge, "POST", "/onebot/v11/http", [body[:5], body[5:]], [(b"x-signature", f"sha1={sig}".encode())]
    )
    assert status == 204 and app.seen == [("http", "/onebot/v11/http", body)]  # replayed in one piece
    assert (await call(edge, "POST", "/onebot/v11/http", [b"x" * 101]))[0] == 413  # chunked, too long
    assert (await call(edge, "POST", "/onebot/v11/http", [b"x"], [(b"content-length", b"10000000")]))[
        0
    ] == 413
    assert len(app.seen) == 1


async def test_the_pages_take_get_and_head_without_a_body() -> None:
    edge, app, _lines = door()
    assert (await call(edge, "GET", "/web/static/app.js"))[0] == 204
    assert (await call(edge, "HEAD", "/web/static/app.js"))[0] == 204
    assert (await call(edge, "POST", "/web/static/app.js"))[0] == 405
    assert (await call(edge, "GET", "/web/x", headers=[(b"content-length", b"5")]))[0] == 413
    assert (await call(edge, "GET", "/web/x", headers=[(b"transfer-encoding", b"chunked")]))[0] == 413
    assert len(app.seen) == 2


async def test_standalone_serves_only_its_routes_and_a_plugin_leaves_the_hosts_alone() -> None:
    edge, app, _lines = door(closed=True)
    assert (await call(edge, "GET", "/docs"))[0] == 404
    assert (await call(edge, "GET", "/", kind="websocket"))[0] == 1008
    assert (await call(edge, "GET", "/onebot/v11/ws", kind="websocket"))[0] == 0  # to the adapter
    assert app.seen == [("websocket", "/onebot/v11/ws", b"")]
    hosted, host_app, _ = door(closed=False)
    assert (await call(hosted, "POST", "/telegram/webhook", [b"{}"]))[0] == 204
    assert host_app.seen == [("http", "/telegram/webhook", b"{}")]


def test_refusals_are_one_line_each_until_a_flood_then_counted() -> None:
    lines: list[str] = []
    clock = Clock()
    refusals = RefusalLog(lines.append, clock, per_window=3, window=10.0)
    for _ in range(50):
        refusals("127.0.0.2", "POST /onebot/v11/http", "未开启")
    assert len(lines) == 3
    clock.now += 10
    refusals("127.0.0.2", "GET /x", "不是")
    assert lines[3] == "另有 47 次拒绝未逐条记录（10 秒内）" and lines[4].startswith("拒绝 127.0.0.2 GET /x")


# ---------------------------------------------------------------------- limits
def test_buckets_refill_with_the_clock() -> None:
    clock = Clock()
    b = Buckets(3, 2.0, clock)
    assert [b.take("k") for _ in range(4)] == [True, True, True, False]
    assert b.wait("k") == pytest.approx(0.5) and b.take("other")
    clock.now += 0.5
    assert b.take("k") and not b.take("k")


def test_failures_block_after_a_burst_and_refill() -> None:
    clock = Clock()
    limit = FailureLimit(clock)
    for _ in range(20):
        assert not limit.blocked("a")
        limit.failed("a")
    assert limit.blocked("a") and not limit.blocked("b")
    clock.now += 3.0
    assert not limit.blocked("a")


def test_known_tokens_are_dropped_with_their_session_key() -> None:
    known = KnownTokens(limit=2)
    known.add("tl", "1", "t1", Known("tl", "s", False))
    known.add("log", "1", "t2", Known("log:3", "s", False))
    known.add("log", "2", "t3", Known("log:3", "s", False))
    assert known.get("tl", "1", "t1") is None  # the oldest went past the limit
    known.drop("1", "log:3")
    assert known.get("log", "1", "t2") is None and known.get("log", "2", "t3") is not None


def test_stream_slots_per_client_and_in_all() -> None:
    slots = StreamSlots(total=3, per_client=2)
    assert [slots.acquire("a"), slots.acquire("a"), slots.acquire("a")] == [None, None, "client"]
    assert slots.acquire("b") is None and slots.acquire("c") == "all"
    slots.release("a")
    assert slots.acquire("c") is None and slots.open == 3
    assert stream_budget(1024) == 384 and stream_budget(300) == 22 and stream_budget(10**6) == 5000


# ---------------------------------------------------------------------- connections
class Conn:
    def __init__(self, busy: bool = False) -> None:
        self.busy, self.dropped = busy, False

    def idle(self) -> bool:
        return not self.busy

    def drop(self) -> None:
        self.dropped = True


def test_connections_are_capped_per_address_and_the_oldest_idle_makes_room() -> None:
    guard = ConnectionGuard(total=4, per_address=2, trusted=TrustedProxies.parse("127.0.0.1"))
    a1, a2, a3 = Conn(busy=True), Conn(), Conn()
    assert guard.admit(a1, "10.0.0.1") and guard.admit(a2, "10.0.0.1") and not guard.admit(a3, "10.0.0.1")
    proxy = [Conn(busy=True), Conn(busy=True)]
    assert all(guard.admit(c, "127.0.0.1") for c in proxy)  # a listed proxy is not capped per address
    napcat = Conn()
    assert guard.admit(napcat, "127.0.0.9") and a2.dropped and not a1.dropped  # the oldest idle went
    napcat.busy = True  # its upgrade request arrived
    assert not guard.admit(Conn(), "127.0.0.9")  # nothing idle left: refused
    guard.release(napcat)
    assert guard.by_address == {"10.0.0.1": 1, "127.0.0.1": 2}


def test_trusted_proxies_parse_and_match() -> None:
    trusted = TrustedProxies.parse(" 127.0.0.1, 10.0.0.0/8 ,::1")
    assert (
        "127.0.0.1" in trusted and "10.2.3.4" in trusted and "::1" in trusted and "127.0.0.2" not in trusted
    )
    assert "not-an-ip" not in trusted and not TrustedProxies.parse("")
    with pytest.raises(ValueError, match="nginx"):
        TrustedProxies.parse("127.0.0.1, nginx")


def test_server_options_trust_only_listed_proxies() -> None:
    none = server_options(TrustedProxies(), open_files=lambda: (1024, 4096))
    assert none["proxy_headers"] is False and none["forwarded_allow_ips"] == []
    listed = server_options(
        TrustedProxies.parse("127.0.0.1"), header_seconds=3, open_files=lambda: (1024, 4096)
    )
    assert listed["proxy_headers"] is True and listed["forwarded_allow_ips"] == ["127.0.0.1/32"]
    protocol = listed["http"]
    assert protocol.header_seconds == 3 and protocol.guard.total == 896


def test_the_access_log_never_shows_a_token() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "",
        0,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/web/tick20/20002/AbCdEfGhIjKlMnOpQrStUv/events", "1.1", 200),
        None,
    )
    assert RedactTokens().filter(record)
    assert record.getMessage() == '127.0.0.1:5 - "GET /web/tick20/20002/…/events HTTP/1.1" 200'


def test_bidi_controls_are_stripped_at_the_edge() -> None:
    assert clean_text("名字\u202e反过来\u2066x\u2069\u200f") == "名字反过来x"
