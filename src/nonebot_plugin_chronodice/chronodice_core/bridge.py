"""Adapter-aware edges: event → Context, Reply → platform messages."""

from __future__ import annotations

import asyncio
import base64
import itertools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from nonebot import get_driver
from nonebot.adapters import Bot, Event
from nonebot.exception import ActionFailed
from nonebot.log import logger

from chronodice.core.context import Context, Role
from chronodice.core.reply import Reply, ReplyFile
from chronodice.front_end import ContextView

GroupSent = Callable[
    [Bot, str, Any, Any, "tuple[Context, Reply] | None", "ContextView | None"], Awaitable[None]
]
GROUP_SENT: list[GroupSent] = []
"""Called after each message the bot sent to a group (the ``.log`` recorder): bot, group id,
message, the API's result, the (command context, reply) it answered when there is one, and the
command's view when it holds for the reply (its log in progress and the sender's nickname; None:
read them).
Explicit calls at our send sites rather than NoneBot's ``Bot.on_called_api``: that hook runs an
anyio task group on every API call (measured ≈0.45 ms per call), which every reply would pay."""


async def group_sent(
    bot: Bot,
    group_id: str,
    message: Any,
    result: Any,
    answering: tuple[Context, Reply] | None = None,
    seen: ContextView | None = None,
) -> None:
    for hook in GROUP_SENT:
        await hook(bot, group_id, message, result, answering, seen)


async def send_group_msg(
    bot: Bot, group_id: str, message: Any, answering: tuple[Context, Reply] | None = None
) -> Any:
    """``send_group_msg`` that the ``.log`` recorder sees (background messages use it too;
    ``answering``: the command and reply it answers, see :func:`group_sent`)."""
    result = await bot.call_api("send_group_msg", group_id=int(group_id), message=message)
    await group_sent(bot, group_id, message, result, answering)
    return result


def describe_error(exc: BaseException) -> str:
    """One line: what failed and why, e.g. ``ActionFailed retcode=1200：不是好友``.

    OneBot's ActionFailed carries the implementation's retcode and message (NapCat puts the
    human reason in ``wording``); other exceptions give their type and text.
    """
    if isinstance(exc, ActionFailed):
        info: dict[str, Any] = dict(getattr(exc, "info", {}) or {})
        reason = info.get("wording") or info.get("message") or info.get("msg") or ""
        code = info.get("retcode")
        head = f"ActionFailed retcode={code}" if code is not None else "ActionFailed"
        return f"{head}：{reason}" if reason else f"{head} {info or ''}".rstrip()
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _superusers() -> set[str]:
    return {str(s) for s in get_driver().config.superusers}


MAX_MENTIONS = 20
"""@-mentions read from one message (a command names a few; 20,000 @ segments cost nothing)."""
_MENTION_SCAN = 200
"""Message segments looked at for them."""


_SUPPORTED: dict[type, bool] = {}
"""Event type → whether it comes from an adapter we answer (decided once per type)."""
_CONSOLE_MODULE = "nonebot.adapters.console"


def is_supported(event: Event) -> bool:
    """Whether ``event`` comes from an adapter ChronoDice answers: OneBot v11 or the console.

    Any other adapter's event (QQ's official API, Kook, Telegram…) is ignored, never taken for a
    private chat; the first of each event type is logged with one DEBUG line.  The console
    adapter is recognised by its module, so a bot that never enables it never imports it.
    """
    kind = type(event)
    known = _SUPPORTED.get(kind)
    if known is None:
        from nonebot.adapters.onebot.v11 import Event as OneBotV11Event

        known = issubclass(kind, OneBotV11Event) or any(
            base.__module__.startswith(_CONSOLE_MODULE) for base in kind.__mro__
        )
        _SUPPORTED[kind] = known
        if not known:
            logger.debug(f"忽略不支持的适配器的事件：{kind.__module__}.{kind.__qualname__}")
    return known


def build_context(event: Event) -> Context | None:
    """Who said it and where, or None for a message we never answer:

    * OneBot v11 group and private messages (the bot's own account speaking excepted, and an
      anonymous group member, who has no QQ id of their own: all of them share 80000000);
    * the console adapter's terminal, a private chat;
    * nothing else: a OneBot ``discuss``/``guild`` message (it would be judged as a private chat
      and answered in the group), or another adapter's event (:func:`is_supported`).
    """
    from nonebot.adapters.onebot.v11 import GroupMessageEvent, PrivateMessageEvent

    if not is_supported(event):
        return None
    roles: set[Role] = set()
    user_id = str(event.get_user_id())
    if user_id in _superusers():
        roles.add("superuser")
    if isinstance(event, GroupMessageEvent):
        if event.anonymous is not None or user_id == str(event.self_id):
            return None
        sender = event.sender
        role = sender.role or "member"
        if role in ("owner", "admin"):
            roles.add(role)  # type: ignore[arg-type]
        ats: list[str] = []
        for seg in itertools.islice(event.original_message, _MENTION_SCAN):
            if seg.type == "at" and len(ats) < MAX_MENTIONS:
                qq = str(seg.data.get("qq"))
                if qq not in (str(event.self_id), "all"):
                    ats.append(qq)
        return Context(
            user_id=user_id,
            group_id=str(event.group_id),
            sender_name=(sender.card or sender.nickname or "").strip(),
            roles=frozenset(roles),
            self_id=str(event.self_id),
            at_ids=tuple(ats),
        )
    if isinstance(event, PrivateMessageEvent):
        if user_id == str(event.self_id):
            return None
        return Context(
            user_id=user_id,
            group_id=None,
            sender_name=(event.sender.nickname or "").strip(),
            roles=frozenset(roles),
            self_id=str(event.self_id),
        )
    if type(event).__module__.startswith(_CONSOLE_MODULE):
        user = getattr(event, "user", None)
        name = getattr(user, "nickname", "") or "" if user is not None else ""
        return Context(user_id=user_id, group_id=None, sender_name=name, roles=frozenset(roles))
    return None  # a OneBot discuss/guild message, or another OneBot event


async def send_replies(
    bot: Bot, event: Event, ctx: Context, replies: list[Reply], seen: ContextView | None = None
) -> None:
    """Send a command's replies where each goes; ``seen``: the command's view when it holds for
    the replies sent to ``ctx``'s group (see :func:`group_sent`)."""
    is_onebot = bot.adapter.get_name() == "OneBot V11"
    for reply in replies:
        try:
            if reply.private and is_onebot:
                await _send_private(bot, ctx, reply)
            elif reply.group is not None and is_onebot:  # the GM screen: public part to the group
                msg = _message(bot, reply)
                if msg is not None:
                    await send_group_msg(bot, reply.group, msg, (ctx, reply))
            else:
                msg = _message(bot, reply)
                if msg is not None:
                    result = await bot.send(event, msg)
                    if ctx.group_id is not None and is_onebot:
                        await group_sent(bot, ctx.group_id, msg, result, (ctx, reply), seen)
            for f in reply.files:
                await _send_file(bot, event, ctx, reply, f, is_onebot=is_onebot)
            if reply.group_card is not None and ctx.group_id is not None and is_onebot:
                await _set_group_card(bot, ctx.group_id, *reply.group_card)
            if reply.leave_group and ctx.group_id is not None and is_onebot:
                await bot.call_api("set_group_leave", group_id=int(ctx.group_id))
        except ActionFailed as exc:
            where = f"群 {ctx.group_id}" if ctx.group_id is not None else f"用户 {ctx.user_id}"
            logger.warning(f"向{where}发送回复失败：{describe_error(exc)}")
        except Exception as exc:
            logger.opt(exception=exc).error(f"发送回复失败：{describe_error(exc)}")


async def _set_group_card(bot: Bot, group_id: str, user_id: str, card: str) -> None:
    """OneBot ``set_group_card`` (``.sn``); a failure (the bot is no admin, the API is missing)
    is logged, never raised: the command's replies were sent already."""
    if not (group_id.isdigit() and user_id.isdigit()):
        return
    try:
        await bot.call_api("set_group_card", group_id=int(group_id), user_id=int(user_id), card=card)
    except Exception as exc:
        logger.warning(f"设置群 {group_id} 成员 {user_id} 的群名片失败：{describe_error(exc)}")


BASE64_UPLOAD_MAX_BYTES = 30 * 1024 * 1024
"""The largest file :func:`_send_file` sends again as ``base64://`` when the upload by path
fails: the whole file travels inside one WebSocket frame (a third larger than the file), which
NapCat and Lagrange take at this size; a bigger file goes on to the private upload / the note
where it lies.  The default export limit (20MB a part) is below it."""


def _base64_file(path: str) -> str | None:
    """``base64://<data>`` of the file at ``path``, or None when it is over
    :data:`BASE64_UPLOAD_MAX_BYTES` or cannot be read."""
    try:
        file = Path(path)
        if file.stat().st_size > BASE64_UPLOAD_MAX_BYTES:
            return None
        return "base64://" + base64.b64encode(file.read_bytes()).decode("ascii")
    except OSError:
        return None


async def _upload_group_file(bot: Bot, group_id: str, f: ReplyFile) -> bool:
    """Upload ``f`` to the group by its path; when that fails — a OneBot implementation in
    another container cannot read our disk — once more with the file's content as
    ``base64://`` (files up to :data:`BASE64_UPLOAD_MAX_BYTES`).  Whether one of them worked."""
    try:
        await bot.call_api("upload_group_file", group_id=int(group_id), file=f.path, name=f.name)
        return True
    except Exception as exc:
        logger.warning(f"向群 {group_id} 按路径上传文件 {f.name} 失败：{describe_error(exc)}")
    data = await asyncio.to_thread(_base64_file, f.path)
    if data is None:
        return False
    try:
        await bot.call_api("upload_group_file", group_id=int(group_id), file=data, name=f.name)
        return True
    except Exception as exc:
        logger.warning(f"向群 {group_id} 以 base64 上传文件 {f.name} 也失败：{describe_error(exc)}")
    return False


async def _send_file(
    bot: Bot, event: Event, ctx: Context, reply: Reply, f: ReplyFile, *, is_onebot: bool
) -> None:
    """Upload ``f`` to the group (``upload_group_file`` by path, then as ``base64://`` when
    the implementation cannot read the path); when that fails, privately to ``reply.to_user``
    or the sender (``upload_private_file``); when that fails too, say in the chat where the
    file lies on the server."""
    if is_onebot:
        if ctx.group_id is not None and await _upload_group_file(bot, ctx.group_id, f):
            return
        target = reply.to_user or ctx.user_id
        try:
            await bot.call_api("upload_private_file", user_id=int(target), file=f.path, name=f.name)
            if ctx.group_id is not None:
                await send_group_msg(bot, ctx.group_id, f"群文件上传失败，已把「{f.name}」私聊发给你")
            return
        except Exception as exc:
            logger.warning(f"向用户 {target} 私聊上传文件 {f.name} 失败：{describe_error(exc)}")
        if ctx.group_id is not None:
            await send_group_msg(bot, ctx.group_id, f"文件「{f.name}」无法上传，已保存在服务器：{f.path}")
            return
    await bot.send(event, f"文件「{f.name}」无法上传，已保存在服务器：{f.path}")


async def _send_private(bot: Bot, ctx: Context, reply: Reply) -> None:
    target = reply.to_user or ctx.user_id
    msg = _message(bot, reply)
    if msg is None:
        return
    try:
        await bot.call_api("send_private_msg", user_id=int(target), message=msg)
    except Exception as exc:
        logger.warning(f"私聊 {target} 发送失败：{describe_error(exc)}")
        if ctx.group_id is not None and reply.fallback:
            await send_group_msg(bot, ctx.group_id, reply.fallback)


def _message(bot: Bot, reply: Reply) -> Any:
    if bot.adapter.get_name() == "OneBot V11":
        from nonebot.adapters.onebot.v11 import Message, MessageSegment

        msg = Message()
        if not reply.private:
            for uid in reply.mentions:
                if uid.isdigit():
                    msg += MessageSegment.at(int(uid))
                    msg += MessageSegment.text(" ")
        if reply.text:
            msg += MessageSegment.text(reply.text)
        if reply.image is not None:
            msg += MessageSegment.image(reply.image)
        return msg if len(msg) else None
    text = reply.text
    if reply.private:
        text = "（私密）" + text
    if reply.image is not None:
        text += "\n[图片]"
    return text or None
