"""NoneBot glue for ChronoDice: one matcher routes every command to ``chronodice.app.App``.

Builds a :class:`~chronodice.core.context.Context` from the OneBot v11 (or console) event,
calls ``App.dispatch`` and sends the replies: group text where the command came from, hidden
content only by private message (with a content-free note in the group when that fails).

At start it resolves the settings (data directory, database URL), migrates the store and logs
a banner with what an admin needs: the WebSocket URL for NapCat, the database, the token.
The library logs with the standard ``logging`` module (logger ``chronodice``); that logger is
routed into NoneBot's loguru logger here, so every line has a time and a level and
``LOG_LEVEL`` applies.

Exactly once, and the right account: an event delivered twice (same ``self_id`` and
``message_id``, e.g. re-sent after a reconnect) is dropped — in memory, and across processes and
restarts by the claim the store writes with the command's first write.  When several bot
accounts are in one group, only the account holding the group's lease answers
(:meth:`Store.serves`); background messages go out through it too (:func:`bot_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nonebot
from nonebot import get_driver, get_plugin_config, on_message, on_notice
from nonebot.adapters import Bot, Event
from nonebot.log import LoguruHandler, logger
from nonebot.matcher import current_bot, current_event, current_matcher

from chronodice import web
from chronodice.app import App
from chronodice.core.clock import SYSTEM, ShiftedClock
from chronodice.core.commands import REGISTRY
from chronodice.core.context import Context
from chronodice.core.ratelimit import Verdict
from chronodice.datadir import DataDir
from chronodice.front_end import (
    ContextView,
    display_database_url,
    normalize_database_url,
    open_store,
)
from chronodice.rules.moe import pack as moe_pack

from ..config import Config, plugin_meta
from . import gamelog
from .bridge import build_context, describe_error, is_supported, send_replies
from .bridge import send_group_msg as send_group_msg  # for other plugins: a group send .log sees

__plugin_meta__ = plugin_meta(
    "ChronoDice 核心",
    "指令路由、角色卡与数据库、跑团日志（.log）、刷屏控制；各规则系统的指令由同级子插件登记",
    ".help",
    config=Config,
)

config = get_plugin_config(Config)
driver = get_driver()
REGISTRY.set_prefixes(config.command_starts(driver.config.command_start))
_state: dict[str, App] = {}
_tasks: list[asyncio.Task[None]] = []
_sites: list[web.Site] = []


def _onebot_config() -> Any:
    from nonebot.adapters.onebot.v11.config import Config as OneBotConfig

    return get_plugin_config(OneBotConfig)


def trusted_proxies() -> web.TrustedProxies:
    """``CHRONODICE_TRUSTED_PROXIES`` (the environment winning); ``ValueError`` naming a bad entry."""
    return web.TrustedProxies.parse(
        os.environ.get("CHRONODICE_TRUSTED_PROXIES") or config.chronodice_trusted_proxies
    )


def _edge_policy() -> web.EdgePolicy:
    try:
        trusted = bool(trusted_proxies())
    except ValueError:
        trusted = False  # bot.py refuses to start on it; inside another bot, the host's server decides
    return web.EdgePolicy(onebot_http=bool(_onebot_config().onebot_secret), trusted_proxies=trusted)


EDGE = _edge_policy()
"""The door in front of NoneBot's app (:mod:`chronodice.web.edge`); ``bot.py`` sets ``closed``."""
with contextlib.suppress(AssertionError, ValueError, RuntimeError):  # a driver without an ASGI app
    web.install_edge(nonebot.get_app(), EDGE)
web.redact_access_log()


def route_stdlib_logging() -> None:
    """Send the library's ``logging.getLogger("chronodice")`` records to NoneBot's logger.

    loguru's documented recipe (NoneBot ships it as ``LoguruHandler``); the level filter is
    NoneBot's (``LOG_LEVEL``), so the stdlib logger lets everything through.
    """
    std = logging.getLogger("chronodice")
    if not any(isinstance(h, LoguruHandler) for h in std.handlers):
        std.addHandler(LoguruHandler())
    std.setLevel(logging.DEBUG)
    std.propagate = False


route_stdlib_logging()


@dataclass(frozen=True)
class Settings:
    data_dir: DataDir
    database_url: str
    """Normalised (``postgresql+asyncpg://…`` or ``sqlite+aiosqlite://…``)."""


def load_settings() -> Settings:
    """The data directory and database URL; ``DatabaseURLError`` (one line) for a bad URL.

    The environment wins over ``.env`` files also for variables set after NoneBot read them.
    The data directory: ``CHRONODICE_DATA_DIR``, else localstore's folder for the plugin
    (:data:`nonebot_plugin_chronodice.LOCALSTORE_DATA_DIR`: inside another bot that sets none).
    """
    from .. import LOCALSTORE_DATA_DIR

    data_dir = DataDir.resolve(
        os.environ.get("CHRONODICE_DATA_DIR") or config.chronodice_data_dir or LOCALSTORE_DATA_DIR
    )
    url = os.environ.get("CHRONODICE_DATABASE_URL") or config.chronodice_database_url or data_dir.sqlite_url()
    return Settings(data_dir=data_dir, database_url=normalize_database_url(url))


def describe_database(url: str) -> str:
    """``sqlite /abs/path.db`` or the PostgreSQL URL with the password masked."""
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if not path or path == ":memory:":
            return "sqlite（内存，重启后数据丢失）"
        return f"sqlite {os.path.abspath(path)}"
    return f"postgresql {display_database_url(url)}"


TOKEN_LINES = {
    "ok": "访问令牌：已设置（NapCat / Lagrange 里填同一个值）",
    "weak": f"访问令牌：已设置但太短（少于 {web.MIN_TOKEN_CHARS} 个字符，可以被猜中；用 {web.MAKE_TOKEN} 生成）",
    "unset": (
        "访问令牌：未设置（能连上这个端口的人都能接入；端口对外开放时请设置 ONEBOT_ACCESS_TOKEN，"
        f"可以用 {web.MAKE_TOKEN} 生成）"
    ),
}


def banner_lines(settings: Settings, *, host: str, port: int, token: str, superusers: set[str]) -> list[str]:
    """What an admin needs after ``python bot.py``; logged at INFO by the startup hook."""
    shown_host = f"[{host}]" if ":" in host else host
    lines = [f"ChronoDice 已启动 · OneBot 反向 WebSocket 地址：ws://{shown_host}:{port}/onebot/v11/ws"]
    if host in ("0.0.0.0", "::", ""):
        lines.append(f"（HOST={host or '0.0.0.0'} 表示监听所有网卡：填入 NapCat 时把它换成本机的 IP 或域名）")
    lines.append(f"数据库：{describe_database(settings.database_url)}")
    lines.append(TOKEN_LINES[token])
    if superusers:
        lines.append(f"骰主：{'、'.join(sorted(superusers))}")
    else:
        lines.append('骰主：未设置（在 SUPERUSERS 里填 QQ 号，如 ["12345678"]）')
    lines.append(f"数据目录：{settings.data_dir.root}")
    return lines


def _token_strength() -> str:
    return web.token_strength(_onebot_config().onebot_access_token)


def get_app() -> App:
    return _state["app"]


@driver.on_startup
async def _startup() -> None:
    settings = load_settings()
    web_settings = web.settings_from(driver.config)
    try:  # a public page on a port anyone can connect to as the bot: refuse, inside any bot
        web.check_exposure(web_settings.public_url, _onebot_config().onebot_access_token)
    except web.WebSettingsError as exc:
        logger.error(str(exc))
        raise
    try:
        settings.data_dir.create()
    except OSError as exc:
        logger.error(f"无法创建数据目录 {settings.data_dir.root}：{describe_error(exc)}")
        raise
    moe_pack.use_pack_dir(settings.data_dir.packs)
    try:
        store = await open_store(settings.database_url, lease_seconds=config.chronodice_lease_seconds)
    except Exception as exc:
        logger.error(
            f"无法打开或迁移数据库 {describe_database(settings.database_url)}：{describe_error(exc)}"
        )
        raise
    seed = config.chronodice_rng_seed
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    shift = config.chronodice_clock_shift_file
    _state["app"] = App(
        store,
        rng,
        clock=ShiftedClock(Path(shift)) if shift else SYSTEM,
        flood=config.flood(),
        data_dir=settings.data_dir,
        log_limits=config.log_limits(),
        owners=tuple(sorted(str(s) for s in driver.config.superusers)),
    )
    _tasks.append(asyncio.get_running_loop().create_task(_upkeep(_state["app"])))
    if seed is not None:
        logger.warning(f"CHRONODICE_RNG_SEED={seed}：掷骰结果可预测，只用于测试")
    if shift:
        logger.warning(f"CHRONODICE_CLOCK_SHIFT_FILE={shift}：时钟可被该文件拨快，只用于测试")
    lines = banner_lines(
        settings,
        host=str(driver.config.host),
        port=int(driver.config.port),
        token=_token_strength(),
        superusers={str(s) for s in driver.config.superusers},
    )
    _sites.append(web.install(nonebot.get_app(), _state["app"], web_settings))
    for line in [*lines, web.banner_line(_sites[-1].settings)]:
        logger.info(line)


async def _upkeep(app: App) -> None:
    """Prune old event claims, lapsed leases and the log of long-ended sessions."""
    while True:
        await asyncio.sleep(config.chronodice_prune_seconds)
        try:
            await app.prune()
        except Exception as exc:
            logger.error(f"清理数据库失败：{describe_error(exc)}")


@driver.on_shutdown
async def _shutdown() -> None:
    for t in _tasks:
        t.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await t
    _tasks.clear()
    while _sites:
        await web.uninstall(_sites.pop())
    app = _state.pop("app", None)
    if app is not None:
        await app.close(list(nonebot.get_bots()))


@driver.on_bot_connect
async def _bot_here(bot: Bot) -> None:
    """Its groups stay its own while this process lives (see :meth:`Store.hold_account`)."""
    app = _state.get("app")
    if app is not None and bot.adapter.get_name() == "OneBot V11":
        try:
            await app.account_connected(str(bot.self_id))
        except Exception as exc:
            logger.error(f"登记账号 {bot.self_id} 失败：{describe_error(exc)}")


@driver.on_bot_disconnect
async def _bot_gone(bot: Bot) -> None:
    """Its groups are served by another account at once (not only after the lease lapses)."""
    app = _state.get("app")
    if app is not None:
        try:
            await app.account_gone(str(bot.self_id))
        except Exception as exc:
            logger.error(f"释放账号 {bot.self_id} 服务的群失败：{describe_error(exc)}")


def _onebot_bots() -> dict[str, Bot]:
    return {sid: b for sid, b in nonebot.get_bots().items() if b.adapter.get_name() == "OneBot V11"}


async def bot_for(scope: str) -> Bot | None:
    """The connected account to send background messages for ``scope`` through: the account
    serving that group; when no live lease exists, a connected account takes it; when the
    holder is connected to another process only, a local account (rather than lose the text)."""
    bots = _onebot_bots()
    if not bots:
        return None
    app = _state.get("app")
    if app is not None and not scope.startswith("p"):
        try:
            holder = await app.serving_account(scope)
            if holder in bots:
                return bots[holder]
            if holder is None:
                for self_id, bot in bots.items():
                    if await app.serves(scope, self_id):
                        return bot
        except Exception as exc:
            logger.error(f"为 {scope} 选择发送账号失败：{describe_error(exc)}")
    return next(iter(bots.values()))


@dataclass(frozen=True)
class _Admitted:
    """What the rule decided about a message, handed to the handler (see :func:`_is_command`)."""

    event: weakref.ref[Event]
    ctx: Context
    text: str
    verdict: Verdict
    routed: Any
    view: ContextView | None


_admitted: dict[int, _Admitted] = {}


def _hand_over(event: Event, admitted: _Admitted) -> None:
    if len(_admitted) > 256:  # a rule passed but its matcher never ran (shutdown): forget those
        for key in [k for k, a in _admitted.items() if a.event() is None]:
            del _admitted[key]
    _admitted[id(event)] = admitted


async def _is_command(event: Event) -> bool:
    """One of our commands, first delivery, for the account serving this group, not dropped by
    flood control — decided before a matcher starts, so ignored messages (other bots',
    duplicates, another account's, flood-limited) cost little.  In a group with a ``.log`` on,
    every message (ours or not) is recorded first (:func:`gamelog.record_incoming`).

    A group command reads its view here (:meth:`App.context_view`: group, GMs, log in
    progress, nickname and card, one statement), which tells the recorder about the log and is
    handed to :meth:`App.dispatch`; any other group message reads the group's part of it (the
    log, the keyword replies), also one statement.

    The rule and the handler take as few NoneBot parameters as they can (one and none): NoneBot
    solves and checks each parameter of a rule or handler in a task of its own, so ``bot, event,
    state`` on both cost twelve task spawns and six pydantic validations per message — more than
    the rest of a ``.r 1d100``.  What the rule found reaches the handler through
    :data:`_admitted`, keyed by the event object (the same object NoneBot hands the handler)."""
    if event.get_type() != "message" or not is_supported(event):
        return False  # another adapter's message (QQ's official API, Kook…): one DEBUG line
    app = _state.get("app")
    try:
        text: str | None = event.get_plaintext()
    except Exception:
        text = None
    private = getattr(event, "message_type", None) == "private"
    routed = None if text is None else (REGISTRY.route_private if private else REGISTRY.route)(text[:2000])
    ctx = build_context(event) if routed is not None else None
    view = await _view(app, ctx, event)
    if text is None or (routed is None and (private or not await _plain_answered(app, text, event, view))):
        return False
    ctx = ctx or build_context(event)
    if app is None or ctx is None:
        return False
    if ctx.self_id and ctx.self_id not in nonebot.get_bots():
        return False  # an event naming an account not connected here would take its groups' lease
    message_id = getattr(event, "message_id", None)
    if message_id is not None and ctx.self_id and not app.first_delivery(ctx.self_id, str(message_id)):
        return False  # delivered twice (a re-send after a reconnect): handled the first time
    if ctx.group_id is not None and ctx.self_id and not await app.serves(ctx.group_id, ctx.self_id):
        return False  # another bot account serves this group (cached: no database round trip)
    verdict = app.admit(ctx)
    if verdict == "drop":
        return False
    _hand_over(event, _Admitted(weakref.ref(event), ctx, text, verdict, routed, view))
    return True


async def _view(app: App | None, ctx: Context | None, event: Event) -> ContextView | None:
    """A group message's view, one statement: a command's whole view, any other message's
    group part (its log, its keyword replies); the message is recorded in a ``.log`` that is
    on.  None in private, or when the read failed (:meth:`App.dispatch` reads it again and
    answers its error)."""
    group = getattr(event, "group_id", None)
    if app is None or group is None:
        return None
    bot = nonebot.get_bots().get(str(getattr(event, "self_id", "")))
    if bot is None:
        return None
    view = None
    whole = ctx is not None and ctx.group_id is not None  # a command's: its sender's part too
    try:
        if ctx is not None and whole:
            view = await app.context_view(ctx)
        else:
            view = await app.group_view(str(group))
    except Exception as exc:
        logger.warning(f"读取群 {group} 的设置失败：{describe_error(exc)}")
    if view is None:
        await gamelog.record_incoming(app, bot, event)
    elif not whole:  # the group's part only: the sender's nickname is read if a log records
        await gamelog.record_incoming(app, bot, event, view.log)
    else:
        await gamelog.record_incoming(app, bot, event, view.log, view.nickname)
    return view


async def _plain_answered(app: App | None, text: str, event: Event, view: ContextView | None) -> bool:
    """Whether a group message no command reads gets a keyword reply or the unknown-command
    hint (``.reply``, ``.bot 未知指令``; never a ``.botlist`` account's), from the group in its
    view."""
    group = getattr(event, "group_id", None)
    if app is None or group is None:
        return False
    record = view.group if view is not None else None
    return await app.plain_answer(str(group), text, str(event.get_user_id()), record)


matcher = on_message(rule=_is_command, priority=config.chronodice_priority, block=config.chronodice_block)
gamelog.install(lambda: _state.get("app"))


@matcher.handle()
async def _handle() -> None:
    bot, event = current_bot.get(), current_event.get()
    got = _admitted.pop(id(event), None)
    app = _state.get("app")
    if app is None or got is None or got.event() is not event:
        current_matcher.get().block = False
        return
    ctx, text, verdict, routed, view = got.ctx, got.text, got.verdict, got.routed, got.view
    message_id = getattr(event, "message_id", None)
    claim = app.delivery(ctx.self_id, str(message_id)) if message_id is not None and ctx.self_id else None
    replies = await app.dispatch(ctx, text, verdict=verdict, routed=routed, claim=claim, view=view)
    if replies:
        await send_replies(bot, event, ctx, replies, app.replies_view(routed, view))
    else:  # nothing answered (a command silent in this group's mode): other plugins may
        current_matcher.get().block = False


async def _is_join(event: Event) -> bool:
    """A OneBot v11 ``group_increase`` notice: someone joined a group."""
    return getattr(event, "notice_type", None) == "group_increase" and is_supported(event)


welcomer = on_notice(rule=_is_join, priority=10, block=False)


@welcomer.handle()
async def _welcome() -> None:
    """``.welcome``: greet the newcomer (with an @) in a group that set a text — never the bot's
    own join, and only from the account serving the group."""
    from nonebot.adapters.onebot.v11 import MessageSegment

    bot, event = current_bot.get(), current_event.get()
    app = _state.get("app")
    user, group = str(getattr(event, "user_id", "")), str(getattr(event, "group_id", ""))
    self_id = str(getattr(event, "self_id", ""))
    if app is None or not user.isdigit() or not group.isdigit() or user == self_id:
        return
    # a join notice carries no message id: (group, user, its time) names it, so a notice
    # delivered again after a reconnect greets nobody twice
    if not app.first_delivery(self_id, f"join:{group}:{user}:{getattr(event, 'time', '')}"):
        return
    try:
        if not await app.serves(group, self_id):
            return
        text = await app.welcome_text(group)
        if text:
            await send_group_msg(bot, group, MessageSegment.at(int(user)) + MessageSegment.text(" " + text))
    except Exception as exc:
        logger.warning(f"向群 {group} 发送欢迎词失败：{describe_error(exc)}")
