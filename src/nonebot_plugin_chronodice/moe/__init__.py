"""NoneBot plugin for 萌E: runs the timeout sweeper (``.moe`` is registered with every other service).

The sweeper (every ``SWEEP_SECONDS``, ``CHRONODICE_MOE_SWEEP_SECONDS``) applies default answers
to requests past their deadline —
deadlines live in the database, so this also works after a restart — and delivers group texts
caused by commands typed in private chat: through :func:`_deliver`, which tells the service
whether the group got the text, so a text is removed from the database only once sent (at least
once, in order; see ``chronodice.services.moe.delivery``).  Deadlines are read on the app's
clock (``app.clock``), so an end-to-end test that moves the bot's clock
(``CHRONODICE_CLOCK_SHIFT_FILE``) moves them too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import nonebot
from nonebot import get_driver, get_plugin_config

import chronodice.services.moe as moe_service  # (.moe is registered by load_all, with every service)
from chronodice.app import App
from chronodice.core.reply import Reply

from .. import chronodice_core as core
from ..config import Config, plugin_meta

__plugin_meta__ = plugin_meta(
    "萌E",
    "萌战Evolution 卡牌对战：群内开局，手牌与私密选择私聊发送，超时托管，重启不丢局",
    ".moe new / join / start / hand / play 序号 目标 / resp 序号 / pass / end / auto / help",
)

SWEEP_SECONDS = get_plugin_config(Config).chronodice_moe_sweep_seconds
log = logging.getLogger("chronodice.moe")
driver = get_driver()
_tasks: list[asyncio.Task[None]] = []


def _app() -> App | None:
    """The core's App once it has started (None before its start-up hook ran)."""
    try:
        return core.get_app()
    except KeyError:
        return None


def group_message(text: str, image: bytes | None) -> Any:
    """What goes to the group: the text alone, or the text with its picture (the table at a
    round start) as one OneBot message."""
    if image is None:
        return text
    from nonebot.adapters.onebot.v11 import MessageSegment

    return MessageSegment.text(text) + MessageSegment.image(image)


async def send_sweep_replies(group_id: str, replies: list[Reply]) -> None:
    """Send what a sweep answered for one group (a timeout's outcome, a broken game's note):
    private lines by private message (the group hears the content-free fallback when that
    fails), group texts with their picture — a round start flushed by a timeout carries the
    table picture like any other."""
    bot = await core.bot_for(group_id)  # the account serving that group
    if bot is None:
        return
    for r in replies:
        if not r.text and r.image is None:
            continue
        try:
            if r.private and r.to_user:
                try:
                    await bot.call_api("send_private_msg", user_id=int(r.to_user), message=r.text)
                except Exception as exc:
                    log.warning("萌E: 私聊 %s 发送失败：%r", r.to_user, exc)
                    if r.fallback and not group_id.startswith("p"):
                        await core.send_group_msg(bot, group_id, r.fallback)
            elif not group_id.startswith("p"):
                await core.send_group_msg(bot, group_id, group_message(r.text, r.image))  # seen by .log
        except Exception:
            log.exception("萌E: sending to %s failed", group_id)


async def _deliver(group_id: str, text: str, image: bytes | None = None) -> bool:
    """Send one outbox text (and its picture: the table at a round start) to the group: ``True``
    once sent, ``False`` (or an exception) when it must wait for a later sweep."""
    if group_id.startswith("p"):
        return True  # no group to tell
    bot = await core.bot_for(group_id)  # the account serving that group
    if bot is None:
        return False
    await core.send_group_msg(bot, group_id, group_message(text, image))  # seen by .log
    return True


async def _loop() -> None:
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        app = _app()
        if app is None or not nonebot.get_bots():
            continue
        try:
            for group_id, replies in await moe_service.sweep(app, send=_deliver):
                await send_sweep_replies(group_id, replies)
        except Exception:
            log.exception("萌E sweeper failed")


@driver.on_startup
async def _start_sweeper() -> None:
    _tasks.append(asyncio.get_running_loop().create_task(_loop()))


@driver.on_shutdown
async def _stop_sweeper() -> None:
    for t in _tasks:
        t.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await t
    _tasks.clear()
