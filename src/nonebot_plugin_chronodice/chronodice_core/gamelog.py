"""``.log`` recording at the NoneBot edge.

* Players' messages (chatter and commands alike) are recorded from the command matcher's rule
  (:func:`record_incoming`, called by ``_is_command``), which NoneBot already runs for every
  message: the message is committed before a command's reply is sent.  A command's message
  learns of the log from the view it reads anyway (:meth:`App.context_view`, one statement), a
  reply to it reuses that unless the command was ``.log`` itself, and any other message pays one
  read (``store.logs.active_log``).  A separate event
  preprocessor or matcher would have cost every message of every group
  an anyio task group and a dependency-injection call (measured: an ignored message went from
  0.75 to 1.6 ms in ``handle_event``; ``benchmarks/bench_log_overhead.py``).
* The bot's messages: :data:`bridge.GROUP_SENT`, called after each successful group send at
  our send sites — replies (with their check note), the group note of a failed private reply,
  upload notices, and background messages (萌E) sent with ``send_group_msg``.  Private
  messages (hidden rolls) are never recorded.  Not NoneBot's ``Bot.on_called_api``: that hook
  costs ≈0.45 ms per API call (an anyio task group), which every reply would pay.
* Only the account serving the group records (several accounts in one group: once).
* Texts are cleaned (:func:`~chronodice.core.text.clean_text`: NUL and lone surrogates removed)
  before they are stored — here the sender's card and nickname, so that a card of nothing but
  such characters falls back to the nickname; :func:`recorder.record` cleans everything else.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from nonebot import get_driver
from nonebot.adapters import Bot, Event
from nonebot.log import logger

from chronodice.app import App
from chronodice.core.commands import player_name
from chronodice.core.context import Context
from chronodice.core.reply import Reply
from chronodice.core.text import clean_text, safe_name
from chronodice.front_end import ContextView, LogInProgress
from chronodice.services.gamelog import recorder
from chronodice.services.gamelog.recorder import UNREAD

from .bridge import GROUP_SENT, describe_error

_names: dict[tuple[str, str], tuple[str, float]] = {}
"""(group, user) → (name seen or looked up, when): for rendering @-mentions."""
_NAME_TTL = 600.0


def bot_name() -> str:
    names = sorted(get_driver().config.nickname or ())
    return names[0] if names else "骰娘"


async def _at_name(app: App, bot: Bot | None, group_id: str, qq: str) -> str:
    if qq == "all":
        return "全体成员"
    if bot is not None and qq == str(bot.self_id):
        return bot_name()
    nick = await app.nickname(qq, group_id)
    if nick:
        return safe_name(nick)
    seen = _names.get((group_id, qq))
    if seen is not None and app.clock.monotonic() - seen[1] < _NAME_TTL:
        return seen[0]
    name = qq
    if bot is not None and bot.adapter.get_name() == "OneBot V11":
        try:
            info = await bot.call_api("get_group_member_info", group_id=int(group_id), user_id=int(qq))
            name = str(info.get("card") or info.get("nickname") or qq)
        except Exception as exc:
            logger.debug(f"查询群成员 {qq} 失败：{describe_error(exc)}")
    _remember(app, group_id, qq, name)
    return name


def _remember(app: App, group_id: str, qq: str, name: str) -> None:
    if len(_names) > 20_000:
        _names.clear()
    _names[(group_id, qq)] = (name, app.clock.monotonic())


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


def sender_name(sender: Any) -> str:
    """The name the platform shows for a message's sender: the group card, else the nickname,
    each cleaned (a card of only a NUL or a half emoji counts as no card)."""
    for attr in ("card", "nickname"):
        name = clean_text(str(getattr(sender, attr, "") or "")).strip()
        if name:
            return name
    return ""


async def record_incoming(
    app: App, bot: Bot, event: Event, log: LogInProgress | None = UNREAD, nickname: str | None = UNREAD
) -> None:
    """Record a group message if its group has a log recording (``log``, ``nickname``: the
    group's log in progress and the sender's ``.nn`` name when the caller read them with the
    message's view, else they are read here)."""
    group_id = str(getattr(event, "group_id", ""))
    try:
        if log is UNREAD:
            log = await app.active_log(group_id)
        if log is None or not log.recording:
            return
        if not await app.serves(group_id, str(bot.self_id)):
            return
        user_id = str(event.get_user_id())
        sender = getattr(event, "sender", None)
        platform = sender_name(sender)
        if platform:
            _remember(app, group_id, user_id, platform)
        nick = await app.nickname(user_id, group_id) if nickname is UNREAD else nickname
        message = getattr(event, "original_message", None) or event.get_message()
        when = getattr(event, "time", None)
        notice = await app.record_log_line(
            group_id,
            user_id=user_id,
            nickname=safe_name(nick or platform or user_id),
            parts=await message_parts(app, bot, group_id, message),
            when=datetime.fromtimestamp(when, timezone.utc)
            if isinstance(when, int | float)
            else app.clock.wall(),
            self_id=str(bot.self_id),
            message_id=str(getattr(event, "message_id", "") or "") or None,
            log=log,
        )
        if notice:
            await bot.call_api("send_group_msg", group_id=int(group_id), message=notice)
    except Exception as exc:
        logger.opt(exception=exc).error(f"记录群 {group_id} 的日志失败：{describe_error(exc)}")


async def record_outgoing(
    app: App,
    bot: Bot,
    group_id: str,
    message: Any,
    result: Any,
    answering: tuple[Context, Reply] | None,
    seen: ContextView | None = None,
) -> None:
    """Record a message the bot sent to ``group_id`` if the group has a log recording
    (``result``: the send's answer, whose message id keeps a line from being recorded twice;
    ``answering``: the command and reply it answers, whose check note is recorded with it;
    ``seen``: that command's view when it holds for the reply — its log in progress and the
    sender's nickname — else they are read here)."""
    try:
        log = seen.log if seen is not None else await app.active_log(group_id)
        if log is None or not log.recording:
            return
        check = None
        if answering is not None and answering[1].check is not None:
            ctx, reply = answering
            name = await _player_name(app, ctx, seen)
            check = recorder.check_dict(reply.check, ctx.user_id, name)  # type: ignore[arg-type]
        message_id = result.get("message_id") if isinstance(result, dict) else None
        notice = await app.record_log_line(
            group_id,
            user_id=str(bot.self_id),
            nickname=bot_name(),
            parts=await message_parts(app, None, group_id, message),
            when=app.clock.wall(),
            self_id=str(bot.self_id),
            message_id=None if message_id is None else f"sent:{message_id}",
            is_bot=True,
            check=check,
            log=log,
        )
        if notice:
            await bot.call_api("send_group_msg", group_id=int(group_id), message=notice)
    except Exception as exc:
        logger.opt(exception=exc).error(f"记录群 {group_id} 的日志失败：{describe_error(exc)}")


async def _player_name(app: App, ctx: Context, seen: ContextView | None) -> str:
    """The name a check is logged under (SealDice's ``pcName``): the sender's card in use here,
    else the ``.nn`` nickname, else the platform name — as ``.r`` and ``.ra`` name the player
    (``seen``: the command's view, else read now)."""
    return player_name(seen or await app.context_view(ctx), ctx)


def install(get_app: Any) -> None:
    """Record what the bot sends to groups (``get_app()`` → the App or None)."""

    async def record_sent(
        bot: Bot,
        group_id: str,
        message: Any,
        result: Any,
        answering: tuple[Context, Reply] | None,
        seen: ContextView | None,
    ) -> None:
        app: App | None = get_app()
        if app is not None:
            await record_outgoing(app, bot, group_id, message, result, answering, seen)

    GROUP_SENT.append(record_sent)
