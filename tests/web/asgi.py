"""A minimal ASGI client for the web tests (no httpx here): GET a path from an ASGI app and
collect the response, or read an event stream chunk by chunk until told to stop."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Got:
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    @property
    def text(self) -> str:
        return self.body.decode()


def _scope(path: str, client: str) -> dict[str, Any]:
    raw, _, query = path.partition("?")
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": raw,
        "raw_path": raw.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"test")],
        "client": (client, 50000),
        "server": ("test", 80),
        "root_path": "",
    }


async def get(app: Any, path: str, client: str = "10.0.0.1") -> Got:
    got = Got()

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            got.status = message["status"]
            got.headers = {k.decode().lower(): v.decode() for k, v in message.get("headers", [])}
        elif message["type"] == "http.response.body":
            got.body += message.get("body", b"")

    await app(_scope(path, client), receive, send)
    return got


class Stream:
    """An open GET whose body chunks arrive in ``chunks`` (an asyncio.Queue)."""

    def __init__(self, app: Any, path: str) -> None:
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue()
        self.status = 0
        self._gone = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(
            app(_scope(path, "10.0.0.2"), self._receive, self._send)
        )

    async def _receive(self) -> dict[str, Any]:
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        elif message["type"] == "http.response.body" and message.get("body"):
            await self.chunks.put(message["body"])

    async def next_event(self, timeout: float) -> bytes:
        """The next chunk that is a message or an end event (comments skipped)."""
        while True:
            chunk = await asyncio.wait_for(self.chunks.get(), timeout)
            if chunk.startswith((b"data:", b"event:")):
                return chunk

    async def close(self) -> None:
        self._gone.set()
        try:
            await asyncio.wait_for(self.task, 5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self.task.cancel()
