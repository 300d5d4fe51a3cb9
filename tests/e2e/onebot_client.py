"""A fake OneBot v11 implementation (as NapCat would be) and a ``python bot.py`` process.

``BotProcess`` starts the real bot on a free port with its own SQLite file (or a given database
URL) and can kill it with SIGKILL and start it again on the same database.  ``OneBotClient``
connects over a real reverse WebSocket, sends message events and answers every API call the bot
makes, recording them, so a test can check exactly what went to the group and what went by
private message.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from acking import HANDLED, HELLO

ROOT = Path(__file__).resolve().parents[2]
ACKING = Path(__file__).resolve().with_name("acking.py")
SILENCE = 0.4
"""Seconds with no call after which a bot that does not ack is taken to be done."""
TOKEN = "e2e-secret-token"
SELF_ID = 123456


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class BotProcess:
    """``python bot.py`` as an admin would run it, configured by environment variables.

    By default this repository's ``bot.py`` under this interpreter; ``python``, ``entry`` and
    ``cwd`` run another project's bot instead (a fresh NoneBot project in its own venv that
    installed our wheel: ``tests/deploy/test_wheel_install.py``).
    """

    workdir: Path
    database_url: str | None = None
    superusers: tuple[str, ...] = ("99999",)
    extra_env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    python: str = sys.executable
    entry: Path = ROOT / "bot.py"
    cwd: Path = ROOT
    acks: bool = True
    """Run the entry through ``acking.py``: the bot then says when it has handled each message
    (``OneBotClient.send`` returns then, instead of after 0.4 s of silence)."""

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/onebot/v11/ws"

    @property
    def log_path(self) -> Path:
        return self.workdir / "bot.log"

    def start(self, timeout: float = 30.0) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "CHRONODICE_"))}
        env.update(
            {
                "ENVIRONMENT": "e2e",
                "DRIVER": "~fastapi",
                "HOST": "127.0.0.1",
                "PORT": str(self.port),
                "ONEBOT_ACCESS_TOKEN": TOKEN,
                "SUPERUSERS": json.dumps(list(self.superusers)),
                "LOG_LEVEL": "INFO",
                "CHRONODICE_DATABASE_URL": self.database_url
                or f"sqlite+aiosqlite:///{self.workdir / 'chronodice.db'}",
                # a host bot's plugins (nonebot-plugin-localstore: ChronoDice without a data
                # directory) write under the workdir, never in the user's home
                "XDG_DATA_HOME": str(self.workdir / "xdg-data"),
                **self.extra_env,
            }
        )
        log = self.log_path.open("ab")
        command = [self.python, str(self.entry)]
        if self.acks:
            command.insert(1, str(ACKING))
        self.proc = subprocess.Popen(command, cwd=self.cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"bot exited with {self.proc.returncode}:\n{self.log_tail()}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2),
            ):
                # the port answers once uvicorn has started, i.e. after our startup hook migrated
                return
            time.sleep(0.1)
        raise RuntimeError(f"bot did not start in {timeout}s:\n{self.log_tail()}")

    @contextlib.contextmanager
    def running(self) -> Iterator[BotProcess]:
        """Started for the ``with`` block, stopped after it (SIGINT, SIGKILL if it hangs)."""
        self.start()
        try:
            yield self
        finally:
            self.stop()

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, as in a crash or an OOM kill."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def advance_clock(self, seconds: float) -> None:
        """Move the bot's clock ``seconds`` forward instead of waiting for them (the bot runs with
        ``CHRONODICE_CLOCK_SHIFT_FILE``, as ``conftest.bot_process`` starts it; the shift adds up
        and lasts across restarts).  The file is replaced whole: the bot never reads half of it."""
        path = Path(self.extra_env["CHRONODICE_CLOCK_SHIFT_FILE"])
        before = float(path.read_text(encoding="ascii")) if path.exists() else 0.0
        part = path.with_name(path.name + ".part")
        part.write_text(repr(before + seconds), encoding="ascii")
        os.replace(part, path)

    def log_tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"


@dataclass
class ApiCall:
    action: str
    params: dict[str, Any]

    @property
    def text(self) -> str:
        """The plain text of a send call's message (array or string form)."""
        msg = self.params.get("message", "")
        if isinstance(msg, str):
            return msg
        return "".join(seg.get("data", {}).get("text", "") for seg in msg if seg.get("type") == "text")

    @property
    def has_image(self) -> bool:
        msg = self.params.get("message", "")
        return isinstance(msg, list) and any(seg.get("type") == "image" for seg in msg)

    @property
    def to_group(self) -> bool:
        return self.action == "send_group_msg" or (
            self.action == "send_msg" and self.params.get("message_type") == "group"
        )

    @property
    def is_private(self) -> bool:
        return self.action == "send_private_msg" or (
            self.action == "send_msg" and self.params.get("message_type") == "private"
        )


class OneBotClient:
    """A reverse-WebSocket OneBot v11 client.  Use as ``async with OneBotClient(url) as c``."""

    _ids = itertools.count(int(time.time()) % 100000 * 1000)

    def __init__(self, url: str, *, self_id: int = SELF_ID, token: str = TOKEN) -> None:
        self.url = url
        self.self_id = self_id
        self.token = token
        self.calls: asyncio.Queue[ApiCall] = asyncio.Queue()
        self.all_calls: list[ApiCall] = []
        self.fail_private: set[int] = set()
        self.fail_actions: set[str] = set()
        """API actions answered with a failure (e.g. ``upload_group_file``)."""
        self.fail_path_uploads = False
        """Answer a file upload given by path with a failure, as a OneBot implementation in
        another container (which cannot read the bot's disk) does; ``base64://`` uploads pass."""
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self.acks = False
        """The bot says when it has handled a message (it runs under ``acking.py`` and said so
        when this account connected): :meth:`send` waits for that instead of for silence."""
        self._handling: dict[int, list[asyncio.Future[None]]] = {}
        """Message ids sent and not yet handled (one future per delivery, oldest first)."""
        self.bot: BotProcess | None = None
        """The bot this client talks to, when a fixture knows it (:meth:`advance_clock`)."""

    def advance_clock(self, seconds: float) -> None:
        """Move the bot's clock forward (:meth:`BotProcess.advance_clock`) instead of waiting."""
        assert self.bot is not None, "this client's bot is unknown: use the onebot fixture"
        self.bot.advance_clock(seconds)

    async def __aenter__(self) -> OneBotClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._ws = await websockets.connect(
                    self.url,
                    additional_headers={
                        "X-Self-ID": str(self.self_id),
                        "X-Client-Role": "Universal",
                        "Authorization": f"Bearer {self.token}",
                    },
                    max_size=None,
                )
                break
            except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)
        await self._ws.send(
            json.dumps(
                {
                    "time": int(time.time()),
                    "self_id": self.self_id,
                    "post_type": "meta_event",
                    "meta_event_type": "lifecycle",
                    "sub_type": "connect",
                }
            )
        )
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self._reader:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()

    async def _read(self) -> None:
        async for raw in self._ws:
            frame = json.loads(raw)
            if "action" not in frame:
                continue
            if frame["action"] in (HANDLED, HELLO):
                self._signal(frame)
                await self._ws.send(
                    json.dumps({"status": "ok", "retcode": 0, "data": None, "echo": frame.get("echo")})
                )
                continue
            call = ApiCall(frame["action"], frame.get("params") or {})
            ok = not (call.is_private and int(call.params.get("user_id", 0)) in self.fail_private)
            ok = ok and call.action not in self.fail_actions
            if self.fail_path_uploads and call.action in ("upload_group_file", "upload_private_file"):
                ok = ok and str(call.params.get("file", "")).startswith("base64://")
            data: Any = {"message_id": next(self._ids)} if ok else None
            if ok and call.action in ("upload_group_file", "upload_private_file"):
                data = None  # NapCat answers these with no data
            if call.action == "get_group_member_info":
                data = {"user_id": call.params.get("user_id"), "nickname": "PL", "card": "", "role": "member"}
            await self._ws.send(
                json.dumps(
                    {
                        "status": "ok" if ok else "failed",
                        "retcode": 0 if ok else 100,
                        "data": data,
                        # NapCat's form of a failure: a message and a human-readable wording
                        **({} if ok else {"message": "不是好友", "wording": "不是好友"}),
                        "echo": frame.get("echo"),
                    }
                )
            )
            self.all_calls.append(call)
            await self.calls.put(call)

    def _signal(self, frame: dict[str, Any]) -> None:
        """``acking.py``'s calls: the account acks from now on, or one message is handled."""
        if frame["action"] == HELLO:
            self.acks = True
            return
        waiting = self._handling.get(int((frame.get("params") or {}).get("message_id", -1)))
        if waiting:
            waiting.pop(0).set_result(None)

    def _will_handle(self, message_id: int) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._handling.setdefault(message_id, []).append(done)
        return done

    async def settled(self, timeout: float = 10.0) -> None:
        """Wait until the bot has handled every message sent so far (a burst of :meth:`post`);
        with a bot that does not ack, until 0.4 s pass with no call."""
        if not self.acks:
            await self.quiet_for(SILENCE)
            return
        pending = [f for waiting in self._handling.values() for f in waiting]
        if pending:
            await asyncio.wait_for(asyncio.gather(*pending), timeout)
        self._handling = {k: v for k, v in self._handling.items() if v}

    def take_calls(self) -> list[ApiCall]:
        """The calls received and not yet taken (``send`` takes its own)."""
        got: list[ApiCall] = []
        while not self.calls.empty():
            got.append(self.calls.get_nowait())
        return got

    async def quiet_for(self, seconds: float) -> None:
        """Wait until ``seconds`` pass with no API call (for what the bot sends by itself)."""
        seen = -1
        while seen != len(self.all_calls):
            seen = len(self.all_calls)
            await asyncio.sleep(seconds)

    # ------------------------------------------------------------------ events
    def _event(
        self,
        text: str | list[dict[str, Any]],
        user: int,
        group: int | None,
        role: str,
        card: str,
        message_id: int | None = None,
    ) -> dict:
        message = [{"type": "text", "data": {"text": text}}] if isinstance(text, str) else text
        raw = text if isinstance(text, str) else "".join(s["data"].get("text", "") for s in message)
        base: dict[str, Any] = {
            "time": int(time.time()),
            "self_id": self.self_id,
            "post_type": "message",
            "message_id": next(self._ids) if message_id is None else message_id,
            "user_id": user,
            "message": message,
            "raw_message": raw,
            "font": 0,
        }
        if group is None:
            base.update(
                message_type="private",
                sub_type="friend",
                sender={"user_id": user, "nickname": card or f"玩家{user % 100}", "sex": "unknown", "age": 0},
            )
        else:
            base.update(
                message_type="group",
                sub_type="normal",
                group_id=group,
                anonymous=None,
                sender={
                    "user_id": user,
                    "nickname": f"玩家{user % 100}",
                    "card": card,
                    "sex": "unknown",
                    "age": 0,
                    "area": "",
                    "level": "1",
                    "role": role,
                    "title": "",
                },
            )
        return base

    async def post(
        self,
        text: str | list[dict[str, Any]],
        *,
        user: int = 10001,
        group: int | None = 20002,
        role: str = "member",
        card: str = "",
        message_id: int | None = None,
    ) -> None:
        """Send one message event without waiting for anything (for bursts of simultaneous messages);
        the calls it causes arrive in ``calls`` / ``all_calls``.  ``message_id``: re-send an event
        (a OneBot implementation delivering it again after a reconnect)."""
        message_id = next(self._ids) if message_id is None else message_id
        self._will_handle(message_id)
        await self._ws.send(json.dumps(self._event(text, user, group, role, card, message_id)))

    async def post_event(self, event: dict[str, Any]) -> None:
        """Send an event made by hand (from :meth:`_event`, then edited: an anonymous sender, a
        discuss group, another account's id); :meth:`settled` waits for it like for a post."""
        if event.get("post_type") == "message" and isinstance(event.get("message_id"), int):
            self._will_handle(event["message_id"])
        await self._ws.send(json.dumps(event))

    async def send(
        self,
        text: str | list[dict[str, Any]],
        *,
        user: int = 10001,
        group: int | None = 20002,
        role: str = "member",
        card: str = "",
        expect: int | None = None,
        quiet: float | None = None,
        timeout: float = 10.0,
        message_id: int | None = None,
    ) -> list[ApiCall]:
        """Send one message event; return the API calls it caused.

        With a bot that acks (:attr:`acks`): wait until the bot has handled the message, then
        (``expect``) until that many calls came in all, then (``quiet``) until that many seconds
        pass with none.  ``expect=0``: handled, and nothing sent.

        Otherwise, with ``expect`` wait for exactly that many calls (then ``quiet`` more seconds,
        0.4 by default, to catch extras); without, wait for the first call and then until
        ``quiet`` seconds pass with none; ``expect=0`` checks that nothing comes within ``quiet``.
        """
        self.take_calls()  # what came before this message
        message_id = next(self._ids) if message_id is None else message_id
        handled = self._will_handle(message_id)
        await self._ws.send(json.dumps(self._event(text, user, group, role, card, message_id)))
        if self.acks:
            return await self._handled_calls(handled, expect, quiet, timeout)
        quiet = SILENCE if quiet is None else quiet
        got: list[ApiCall] = []
        deadline = time.monotonic() + timeout
        if expect != 0:
            got.append(await asyncio.wait_for(self.calls.get(), timeout))
        while expect is None or len(got) < expect:
            wait = quiet if expect is None else max(0.0, deadline - time.monotonic())
            try:
                got.append(await asyncio.wait_for(self.calls.get(), wait))
            except asyncio.TimeoutError:
                if expect is None:
                    break
                raise AssertionError(f"expected {expect} calls, got {len(got)}: {got}") from None
        if expect is not None:
            try:
                extra = await asyncio.wait_for(self.calls.get(), quiet)
                got.append(extra)
            except asyncio.TimeoutError:
                pass
        return got

    async def _handled_calls(
        self, handled: asyncio.Future[None], expect: int | None, quiet: float | None, timeout: float
    ) -> list[ApiCall]:
        """:meth:`send`'s wait with a bot that acks."""
        deadline = time.monotonic() + timeout
        try:
            await asyncio.wait_for(asyncio.shield(handled), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"the bot did not finish handling the message in {timeout} s") from None
        got = self.take_calls()
        while expect is not None and len(got) < expect:
            try:
                got.append(await asyncio.wait_for(self.calls.get(), max(0.0, deadline - time.monotonic())))
            except asyncio.TimeoutError:
                raise AssertionError(f"expected {expect} calls, got {len(got)}: {got}") from None
        while quiet:
            try:
                got.append(await asyncio.wait_for(self.calls.get(), quiet))
            except asyncio.TimeoutError:
                break
        return got

    async def notice(
        self, notice_type: str, *, expect: int | None = None, quiet: float = SILENCE, **fields: Any
    ) -> list[ApiCall]:
        """Send one notice event (``group_increase`` with ``group_id``, ``user_id``…); the API
        calls it caused (``expect=0``: none within ``quiet`` seconds)."""
        self.take_calls()  # what came before this message
        event = {"time": int(time.time()), "self_id": self.self_id, "post_type": "notice"}
        await self._ws.send(json.dumps({**event, "notice_type": notice_type, **fields}))
        got: list[ApiCall] = []
        while expect is None or len(got) < expect:
            try:
                got.append(await asyncio.wait_for(self.calls.get(), quiet if expect is None else 10.0))
            except asyncio.TimeoutError:
                break
        return got

    async def group(self, text: str, **kw: Any) -> str:
        """Send in a group; the text of what came back to the group (private sends excluded)."""
        calls = await self.send(text, **kw)
        return "\n".join(c.text for c in calls if c.to_group)
