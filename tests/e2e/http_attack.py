"""Raw HTTP from a chosen loopback address, as an attacker next to the players would send it.

No HTTP library: the requests are written on a socket bound to ``source`` (127.0.0.2 by default,
so the bot's per-address limits see another client than the victim's 127.0.0.1), and the
answer's status line and headers are read back.  Used by the HTTP-surface e2e tests and the
soak benchmark.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

ATTACKER = "127.0.0.2"
VICTIM = "127.0.0.1"


@dataclass
class Answer:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


async def request(
    port: int,
    method: str,
    path: str,
    *,
    headers: dict[str, str] | None = None,
    body: bytes = b"",
    source: str = ATTACKER,
    timeout: float = 10.0,
    read_body: bool = True,
) -> Answer:
    """One request on a new connection (``Connection: close``); status 0 when the server closed
    the connection without answering."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), timeout
    )
    try:
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body:
            head.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        return await asyncio.wait_for(read_answer(reader, read_body), timeout)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def read_answer(reader: asyncio.StreamReader, read_body: bool = True) -> Answer:
    try:
        status_line = await reader.readline()
    except ConnectionError:
        return Answer(0)
    if not status_line:
        return Answer(0)
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = b""
    if read_body:
        length = headers.get("content-length")
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            body = await (reader.readexactly(int(length)) if length is not None else reader.read())
    return Answer(status, headers, body)


class Stream:
    """An open ``/events`` stream (status and headers read; the body left to arrive)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, status: int) -> None:
        self.reader, self.writer, self.status = reader, writer, status

    @classmethod
    async def open(cls, port: int, path: str, source: str = ATTACKER, timeout: float = 10.0) -> Stream:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), timeout
        )
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        got = await asyncio.wait_for(read_answer(reader, read_body=False), timeout)
        return cls(reader, writer, got.status)

    async def until(self, marker: bytes, timeout: float) -> bytes:
        """The stream's bytes up to and including the first line holding ``marker``."""

        async def read() -> bytes:
            seen = b""
            while marker not in seen:
                line = await self.reader.readline()
                if not line:
                    raise ConnectionError(f"stream closed before {marker!r}: {seen[-300:]!r}")
                seen += line
            return seen

        return await asyncio.wait_for(read(), timeout)

    def close(self) -> None:
        self.writer.close()


async def idle_connection(
    port: int, source: str = ATTACKER
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection that sends nothing."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def closed_by_server(reader: asyncio.StreamReader, timeout: float) -> bool:
    """Whether the server closes the connection within ``timeout`` seconds."""
    try:
        data = await asyncio.wait_for(reader.read(65536), timeout)
    except asyncio.TimeoutError:
        return False
    except ConnectionError:
        return True
    return data == b"" or data.startswith(b"HTTP/1.1 4")
