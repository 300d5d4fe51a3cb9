"""``.log`` recording at the NoneBot edge.

* Players' messages (chatter and commands alike): an event preprocessor, so every group
  message is seen before any matcher — including commands, which the command matcher blocks
  from lower-priority matchers — and is committed before the command's reply is sent (the log
  keeps message, then reply).  For a group without a log it costs the cached lookup in
  :meth:`Store.cached_active_log` (a dict); nothing is awaited.
* The bot's messages: a ``Bot.on_called_api`` hook on ``send_group_msg`` / ``send_msg``, after
  a successful call.  One place sees every group message the bot sends — replies, the group
  note of a failed private reply, upload notices, background messages of other plugins
  (萌E timeouts) — with the message id the platform gave it; the check note of a reply comes
  through :data:`bridge.SENDING`.  Private messages (hidden rolls) are never recorded.
* Only the account serving the group records (several accounts in one group: once).
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any

from nonebot import get_driver
from nonebot.adapters import Bot, Event
from nonebot.log import logger
from nonebot.message import event_preprocessor

from chronodice.app import App
from chronodice.core.text import safe_name
from chronodice.services.gamelog import recorder
from chronodice.store.gamelogs import _MISS

from .bridge import SENDING, describe_error

_names: dict[tuple[str, str], tuple[str, float]] = {}
"""(group, user) → (name seen or looked up, when): for rendering @-mentions."""
_NAME_TTL = 600.0


def bot_name() -> str:
    names = sorted(get_driver().config.nickname or ())
    return names[0] if names else "骰娘"


async def _logging(app: App, group_id: str) -> bool:
    hit = app.store.cached_active_log(group_id)
    if hit is None:
        return False
    log = await app.store.active_log(group_id) if hit is _MISS else hit
    return log is not None and log.recording  # type: ignore[union-attr]


async def _at_name(app: App, bot: Bot | None, group_id: str, qq: str) -> str:
    if qq == "all":
        return "全体成员"
    if bot is not None and qq == str(bot.self_id):
        return bot_name()
    nick = await app.store.get_nickname(qq, group_id)
    if nick:
        return safe_name(nick)
    seen = _names.get((group_id, qq))
    if seen is not None and time.monotonic() - seen[1] < _NAME_TTL:
        return seen[0]
    name = qq
    if bot is not None and bot.adapter.get_name() == "OneBot V11":
        try:
            info = await bot.call_api("get_group_member_info", group_id=int(group_id), user_id=int(qq))
            name = str(info.get("card") or info.get("nickname") or qq)
        except Exception as exc:
            logger.debug(f"查询群成员 {qq} 失败：{describe_error(exc)}")
    _remember(group_id, qq, name)
    return name


def _remember(group_id: str, qq: str, name: str) -> None:
    if len(_names) > 20_000:
        _names.clear()
    _names[(group_id, qq)] = (name, time.monotonic())


async def message_parts(app: App, bot: Bot | None, group_id: str, message: Any) -> list[list[str]]:
    """A OneBot message (Message, segment list, or text) as ``[kind, value]`` parts."""
    if isinstance(message, str):
        return [["text", message]]
    segments = [message] if hasattr(message, "type") and hasattr(message, "data") else message
    parts: list[list[str]] = []
    for seg in segments or ():
        kind = seg.get("type") if isinstance(seg, dict) else seg.type
        data = (seg.get("data") if isinstance(seg, dict) else seg.data) or {}
        if kind == "text":
            text = str(data.get("text", ""))
            if parts and parts[-1][0] == "text":
                parts[-1][1] += text
            else:
                parts.append(["text", text])
        elif kind == "at":
            parts.append(["at", await _at_name(app, bot, group_id, str(data.get("qq", "")))])
        elif kind == "image":
            url = str(data.get("url") or "")
            file = str(data.get("file") or "")
            parts.append(["image", url or ("" if file.startswith("base64://") else file)])
        elif kind == "face":
            parts.append(["face", str(data.get("id", ""))])
        elif kind == "reply":
            continue
        else:
            parts.append(["other", str(kind)])
    return parts


def install(get_app: Any) -> None:
    """Register the preprocessor and the API hook (``get_app()`` → the App or None)."""

    @event_preprocessor
    async def _record_incoming(bot: Bot, event: Event) -> None:
        app: App | None = get_app()
        group = getattr(event, "group_id", None)
        if app is None or group is None or event.get_type() != "message":
            return
        group_id = str(group)
        try:
            if not await _logging(app, group_id):
                return
            if not await app.store.serves(group_id, str(bot.self_id)):
                return
            user_id = str(event.get_user_id())
            sender = getattr(event, "sender", None)
            platform = str(getattr(sender, "card", "") or getattr(sender, "nickname", "") or "").strip()
            if platform:
                _remember(group_id, user_id, platform)
            nick = await app.store.get_nickname(user_id, group_id)
            message = getattr(event, "original_message", None) or event.get_message()
            when = getattr(event, "time", None)
            notice = await recorder.record(
                app.store,
                app.log_limits,
                group_id,
                user_id=user_id,
                nickname=safe_name(nick or platform or user_id),
                parts=await message_parts(app, bot, group_id, message),
                when=datetime.fromtimestamp(when, timezone.utc) if isinstance(when, int | float) else _now(),
                self_id=str(bot.self_id),
                message_id=str(getattr(event, "message_id", "") or "") or None,
            )
            if notice:
                await bot.call_api("send_group_msg", group_id=int(group_id), message=notice)
        except Exception as exc:
            logger.opt(exception=exc).error(f"记录群 {group_id} 的日志失败：{describe_error(exc)}")

    @Bot.on_called_api
    async def _record_sent(
        bot: Bot, exception: Exception | None, api: str, data: dict[str, Any], result: Any
    ) -> None:
        if exception is not None or api not in ("send_group_msg", "send_msg"):
            return
        app: App | None = get_app()
        group = data.get("group_id")
        if app is None or group is None or (api == "send_msg" and data.get("message_type") == "private"):
            return
        group_id = str(group)
        try:
            if not await _logging(app, group_id):
                return
            check = None
            sending = SENDING.get()
            if sending is not None and sending[1].check is not None:
                ctx, reply = sending
                check = recorder.check_dict(reply.check, ctx.user_id, await app.display_name(ctx))  # type: ignore[arg-type]
            message_id = result.get("message_id") if isinstance(result, dict) else None
            notice = await recorder.record(
                app.store,
                app.log_limits,
                group_id,
                user_id=str(bot.self_id),
                nickname=bot_name(),
                parts=await message_parts(app, None, group_id, data.get("message", "")),
                when=_now(),
                self_id=str(bot.self_id),
                message_id=None if message_id is None else f"sent:{message_id}",
                is_bot=True,
                check=check,
            )
            if notice:
                await bot.call_api("send_group_msg", group_id=int(group_id), message=notice)
        except Exception as exc:
            logger.opt(exception=exc).error(f"记录群 {group_id} 的日志失败：{describe_error(exc)}")


def _now() -> datetime:
    return datetime.now(timezone.utc)
