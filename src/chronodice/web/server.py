"""The standalone bot's HTTP server settings: connections, not requests (uvicorn's protocol).

Uvicorn keeps a connection that sends nothing, or trickles its headers a byte at a time, open
for ever, and takes as many as the process may open files: 1,100 idle TCP connections from one
address made new pages fail and NapCat's reconnect fail.  ``bot.py`` runs uvicorn with
:func:`server_options`, whose protocol (:class:`GuardedProtocol`, uvicorn's httptools protocol
with a :class:`ConnectionGuard`):

* closes a connection whose request headers are not complete :data:`HEADER_SECONDS` after it
  opened or after its previous response (uvicorn's own keep-alive timer restarts at every byte);
* holds at most :data:`PER_ADDRESS` connections per peer address (a listed proxy is exempt: its
  clients are counted per forwarded address by the pages' limits);
* holds at most ``total`` connections (from the open-files limit); when full, the oldest
  connection with no request in flight makes room — so the OneBot implementation's reconnect
  always gets in, while the pages' live streams are capped below ``total`` (:mod:`.limits`).

It also names the proxies whose ``X-Forwarded-For`` the server reads (none unless the admin
lists them in ``CHRONODICE_TRUSTED_PROXIES``) and keeps link tokens out of the access log.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from .edge import RefusalLog
from .limits import FD_RESERVE, raise_open_files_limit

log = logging.getLogger("chronodice.web")

HEADER_SECONDS = 10.0
"""Time a connection has to deliver a request's headers."""
KEEP_ALIVE_SECONDS = 5
"""An idle keep-alive connection closes after this (uvicorn's default, named here)."""
PER_ADDRESS = 128
"""Connections one peer address may hold (a browser opens ~6; a NAT'd household more)."""
TOKEN_IN_PATH = re.compile(r"(/web/[a-z0-9]+/\d+/)[A-Za-z0-9_-]+")


class TrustedProxies:
    """Addresses and networks from ``CHRONODICE_TRUSTED_PROXIES`` (comma-separated)."""

    def __init__(self, items: Iterable[str] = ()) -> None:
        self.networks = [ipaddress.ip_network(i.strip(), strict=False) for i in items if i.strip()]

    @classmethod
    def parse(cls, text: str | None) -> TrustedProxies:
        """``ValueError`` naming the bad entry."""
        items = [i.strip() for i in (text or "").split(",") if i.strip()]
        for item in items:
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(
                    f"CHRONODICE_TRUSTED_PROXIES 里的「{item[:60]}」不是 IP 地址或网段"
                ) from None
        return cls(items)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __contains__(self, host: str) -> bool:
        try:
            addr = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(addr in net for net in self.networks)

    def uvicorn(self) -> list[str]:
        return [str(n) for n in self.networks]


class ConnectionGuard:
    """Open connections by peer address and in all (see the module doc)."""

    def __init__(
        self, total: int, per_address: int = PER_ADDRESS, trusted: TrustedProxies | None = None
    ) -> None:
        self.total, self.per_address = total, per_address
        self.trusted = trusted or TrustedProxies()
        self.refusals = RefusalLog()
        self.open: OrderedDict[Any, str] = OrderedDict()
        self.by_address: dict[str, int] = {}
        self.refused = 0
        self.evicted = 0

    def admit(self, conn: Any, host: str) -> bool:
        if host not in self.trusted and self.by_address.get(host, 0) >= self.per_address:
            self.refused += 1
            self.refusals(host, "连接", f"这个地址已有 {self.per_address} 个连接")
            return False
        if len(self.open) >= self.total and not self._evict_one():
            self.refused += 1
            self.refusals(host, "连接", f"连接数已达上限 {self.total}，且没有空闲连接可以关闭")
            return False
        self.open[conn] = host
        self.by_address[host] = self.by_address.get(host, 0) + 1
        return True

    def release(self, conn: Any) -> None:
        host = self.open.pop(conn, None)
        if host is None:
            return
        left = self.by_address.get(host, 0) - 1
        if left > 0:
            self.by_address[host] = left
        else:
            self.by_address.pop(host, None)

    def _evict_one(self) -> bool:
        for conn in self.open:
            if conn.idle():
                self.release(conn)
                conn.drop()
                self.evicted += 1
                return True
        return False


def _base_protocol() -> type[asyncio.Protocol] | None:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # no httptools (PyPy): uvicorn's defaults, without the guard
        return None
    return HttpToolsProtocol


_Base: Any = _base_protocol() or asyncio.Protocol


class GuardedProtocol(_Base):  # type: ignore[misc, valid-type]
    """Uvicorn's httptools protocol under a :class:`ConnectionGuard` with a header deadline."""

    guard: ClassVar[ConnectionGuard] = ConnectionGuard(1_000)
    header_seconds: ClassVar[float] = HEADER_SECONDS
    _header_timer: asyncio.TimerHandle | None = None
    _admitted = False
    _upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else "?"
        if not self.guard.admit(self, host):
            transport.abort()
            return
        self._admitted = True
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._admitted:
            self._admitted = False
            self.guard.release(self)
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._upgraded = True
        if self._admitted:  # the WebSocket protocol owns the connection from here
            self._admitted = False
            self.guard.release(self)
        super().handle_websocket_upgrade()

    def idle(self) -> bool:
        """No request in flight: waiting for headers, or kept alive after a response."""
        return not self._upgraded and (self.cycle is None or self.cycle.response_complete)

    def drop(self) -> None:
        self._disarm()
        self._admitted = False
        self.transport.abort()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_seconds, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


class RedactTokens(logging.Filter):
    """Access-log lines show ``/web/tl/20002/…`` instead of the link's token."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(isinstance(a, str) and "/web/" in a for a in record.args):
            record.args = tuple(
                TOKEN_IN_PATH.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args
            )
        elif isinstance(record.msg, str) and "/web/" in record.msg:
            record.msg = TOKEN_IN_PATH.sub(r"\1…", record.msg)
        return True


def redact_access_log() -> None:
    """Install :class:`RedactTokens` on uvicorn's access logger (once)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactTokens) for f in access.filters):
        access.addFilter(RedactTokens())


def server_options(
    trusted: TrustedProxies,
    *,
    header_seconds: float = HEADER_SECONDS,
    open_files: Callable[[], tuple[int, int]] = raise_open_files_limit,
) -> dict[str, Any]:
    """Keyword arguments for ``nonebot.run`` (uvicorn's settings) in the standalone bot; raises
    the open-files limit first (:func:`.limits.raise_open_files_limit`)."""
    soft, _hard = open_files()
    options: dict[str, Any] = {
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted.uvicorn() if trusted else [],
    }
    if _base_protocol() is not None:
        GuardedProtocol.guard = ConnectionGuard(max(64, soft - FD_RESERVE // 2), PER_ADDRESS, trusted)
        GuardedProtocol.header_seconds = header_seconds
        options["http"] = GuardedProtocol
    return options


__all__ = [
    "HEADER_SECONDS",
    "PER_ADDRESS",
    "ConnectionGuard",
    "GuardedProtocol",
    "RedactTokens",
    "TrustedProxies",
    "redact_access_log",
    "server_options",
]
