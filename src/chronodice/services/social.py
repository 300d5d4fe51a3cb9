""".jrrp (今日人品), .send (a message to the bot's owners) and .bot exit (leave the group).

``.jrrp``: one value 1–100 per user per calendar day (UTC+8, ``app.clock.day()``, as ``.sc``
counts its day), the same all day and across restarts without storing anything per user: it is
an HMAC-SHA256 of ``user id | date`` keyed with a per-install secret, so nobody can work out
tomorrow's value or another bot's.  The secret (32 bytes from ``call.app.rng``) is written once to
``<data dir>/jrrp.key``; where the data dir is missing or read-only it lives in memory for this
process only (values then change on restart, and the log says so once).

``.send``: the text goes by private message to every owner (``app.owners``, the bot's
SUPERUSERS); each user may send :data:`SEND_LIMIT` per :data:`SEND_WINDOW` seconds by the
app's clock (``app.clock.monotonic()``; kept in memory: a restart forgives).

``.bot exit``: the same handler, permission and confirmation as ``.dismiss``.

>>> jrrp_value(b"k" * 32, "10001", "2024-01-01"), jrrp_value(b"k" * 32, "10001", "2024-01-02")
(49, 55)
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import weakref
from pathlib import Path
from typing import Any

from chronodice.core.args import Text, arg
from chronodice.core.clock import CHINA
from chronodice.core.commands import Call, define
from chronodice.core.permissions import Perm
from chronodice.core.reply import Reply

from .common import CONFIRM, bot, cmd_dismiss

log = logging.getLogger("chronodice.social")

SECRET_FILE = "jrrp.key"
SEND_LIMIT = 3
SEND_WINDOW = 3600.0
SEND_MAX_LEN = 300

_secrets: dict[Path, bytes] = {}
"""The jrrp secret per data dir, once read or written."""
_memory_secrets: weakref.WeakKeyDictionary[Any, bytes] = weakref.WeakKeyDictionary()
"""Per App whose data dir cannot hold the secret: this process's secret."""
_sent: weakref.WeakKeyDictionary[Any, dict[str, list[float]]] = weakref.WeakKeyDictionary()
"""Per App, per user: clock times of the ``.send`` messages within the window."""


def jrrp_value(secret: bytes, user_id: str, day: str) -> int:
    """The user's value for ``day`` (``YYYY-MM-DD``): 1–100, uniform up to 2⁻⁵⁶."""
    digest = hmac.new(secret, f"{user_id}|{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % 100 + 1


def install_secret(app: Any) -> bytes:
    """The per-install jrrp key: read from, or first written to, ``<data dir>/jrrp.key``."""
    path = app.data_dir.root / SECRET_FILE
    known = _secrets.get(path)
    if known is not None:
        return known
    try:
        if app.data_dir.root.is_dir():
            if not path.exists():
                _write_new_secret(path, app.rng.getrandbits(256).to_bytes(32, "big"))
            secret = bytes.fromhex(path.read_text(encoding="ascii").strip())
            if len(secret) >= 16:
                _secrets[path] = secret
                return secret
    except (OSError, ValueError) as exc:
        log.warning("无法读写 %s（%s）：今日人品只在本次运行内稳定", path, exc.__class__.__name__)
    if app not in _memory_secrets:
        _memory_secrets[app] = app.rng.getrandbits(256).to_bytes(32, "big")
    return _memory_secrets[app]


def _write_new_secret(path: Path, secret: bytes) -> None:
    """Create the key file; O_EXCL: of two processes starting together the first one's key stays."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(secret.hex() + "\n")


# ---------------------------------------------------------------------- .jrrp
jrrp = define("jrrp", summary="今日人品：每人每天一个 1–100 的数，当天不变")


@jrrp.sub(help="查看你的今日人品", when_empty=True)
async def cmd_jrrp(call: Call) -> list[Reply]:
    day = call.app.clock.day()
    value = jrrp_value(install_secret(call.app), call.ctx.user_id, day)
    return [Reply.say(f"<{call.name}> 的今日人品为 {value}")]


# ---------------------------------------------------------------------- .send
send = define("send", summary=f"给骰主留言（每人每小时{SEND_LIMIT}条）")


@send.sub(params=[arg("text", Text(label="内容", max_len=SEND_MAX_LEN))], help=f"留言，最多{SEND_MAX_LEN}字")
async def cmd_send(call: Call, text: str) -> list[Reply]:
    text = text.strip()
    if not text:
        raise call.usage_error("请写出要转达给骰主的内容")
    owners = call.app.owners
    if not owners:
        return [Reply.say("骰主还没有设置，留言无法送出")]
    now = call.app.clock.monotonic()
    times = _sent.setdefault(call.app, {}).setdefault(call.ctx.user_id, [])
    times[:] = [t for t in times if now - t < SEND_WINDOW]
    if len(times) >= SEND_LIMIT:
        wait = int(SEND_WINDOW - (now - times[0])) // 60 + 1
        return [Reply.say(f"留言太频繁了：每人每小时最多{SEND_LIMIT}条，请{wait}分钟后再试")]
    times.append(now)
    ctx = call.ctx
    where = f"群{ctx.group_id}" if ctx.group_id else "私聊"
    note = f"收到 {call.name}({ctx.user_id}) 在{where}的留言：\n{text}"
    left = SEND_LIMIT - len(times)
    return [
        Reply.say(f"已将你的留言转达给骰主（这一小时还可以发{left}条）"),
        *(Reply.whisper(note, to_user=owner) for owner in owners),
    ]


# ---------------------------------------------------------------------- .bot exit
bot.sub(
    "exit",
    flags=[CONFIRM],
    perm=Perm.ADMIN,
    what="让骰娘退群",
    group_only=True,
    help="让骰娘退出本群，同 .dismiss（需确认）",
)(cmd_dismiss)


__all__ = ["CHINA", "cmd_jrrp", "cmd_send", "install_secret", "jrrp", "jrrp_value", "send"]
