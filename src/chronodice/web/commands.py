"""``.bat 网页``, ``.init 网页``, ``.moe 网页``, ``.log 网页``: the link to the live page.

The sub-commands are added to the commands their families declare (:func:`register`), from
here, once every family is loaded (the bot's start-up calls :func:`chronodice.web.install`;
tests call :func:`register`).  The group gets the player link; a GM asking about a battle or a
combat also gets, by private message only, the GM link that shows what only the GM may see.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from chronodice.core.commands import REGISTRY, Call, CommandRegistry
from chronodice.core.reply import Reply
from chronodice.rules.tick20.model import Combat
from chronodice.store import Store

from . import tokens
from .config import HOW_TO_SET, WebSettings
from .hub import Hub
from .sources import SOURCES, Read, Where, log_session
from .views import TITLES

WORDS = ("网页", "web", "页面")
COMMANDS: dict[str, str] = {"bat": "tl", "init": "tick20", "moe": "moe", "log": "log"}
"""Command root → the page kind its ``网页`` links to."""
NOTHING: dict[str, str] = {
    "tl": "本群没有进行中的战斗×（.bat 宣言行动即开始）",
    "tick20": "本群没有进行中的D20战斗（.init 添加参战者开始）",
    "moe": "本群没有进行中的萌E对局（.moe new 开局）",
    "log": "本群还没有日志（.log new 名字 开始记录）",
}
GM_NOTE = "（含只有GM可见的内容，请勿转发）"


@dataclass
class Site:
    """What the pages and the link command of one bot share."""

    store: Store
    settings: WebSettings
    hub: Hub


_SITES: weakref.WeakKeyDictionary[Any, Site] = weakref.WeakKeyDictionary()


def attach(app: Any, site: Site) -> None:
    """Make ``site`` the web view of ``app`` (a :class:`chronodice.app.App`)."""
    _SITES[app] = site


def site_of(app: Any) -> Site | None:
    return _SITES.get(app)


async def _tl_gm(call: Call, read: Read) -> bool:
    return bool(await call.app.is_gm(call.ctx))


async def _tick20_gm(call: Call, read: Read) -> bool:
    state: Combat | None = read.loaded.state if read.loaded is not None else None
    extra = [*state.gms, *([state.owner] if state.owner else [])] if state is not None else []
    return bool(await call.app.is_gm(call.ctx, extra=extra))


GM_KINDS: dict[str, Callable[[Call, Read], Awaitable[bool]]] = {"tl": _tl_gm, "tick20": _tick20_gm}
"""Kinds with a GM view of their own, and who counts as a GM there (萌E and logs hold nothing
only a GM may see: everyone gets the same page)."""


async def _session_key(call: Call, kind: str) -> tuple[str, str, Read | None] | None:
    """The settings key of the session the link is for, its session id and (for kinds with a GM
    view) its read; None when there is none."""
    store: Store = call.app.store
    scope = call.ctx.scope
    if kind == "log":  # the log itself, not its lines
        rec = await store.find_log(scope)
        return (f"log:{rec.id}", log_session(rec), None) if rec is not None else None
    read = await SOURCES[kind](store, Where(scope, kind), None)
    return (kind, read.session, read) if read.loaded is not None else None


async def link(call: Call, kind: str) -> list[Reply]:
    """The reply to ``.<cmd> 网页``."""
    site = site_of(call.app)
    if site is None or site.settings.public_url is None:
        return [Reply.say(HOW_TO_SET)]
    found = await _session_key(call, kind)
    if found is None:
        return [Reply.say(NOTHING[kind])]
    key, session, read = found
    store: Store = call.app.store
    scope = call.ctx.scope
    links = tokens.Links.from_settings((await store.get_group(scope)).settings)
    if not links.current(key, session):  # none yet, or an earlier session's
        links = tokens.Links.from_settings(
            await store.update_group_settings(
                scope, lambda s: tokens.ensure(s, key, session), claim=call.claim
            )
        )
    player, gm = links.token(key, "player"), links.token(key, "gm")
    assert player is not None and gm is not None
    title = TITLES[kind]
    replies = [
        Reply.say(
            f"{title}实时网页（只读，手机可看，结束后失效）：\n{site.settings.link(kind, scope, player)}"
        )
    ]
    gm_check = GM_KINDS.get(kind)
    if gm_check is not None and read is not None and await gm_check(call, read):
        replies.append(
            Reply.whisper(
                f"{title} GM网页{GM_NOTE}：\n{site.settings.link(kind, scope, gm)}",
                fallback="（GM链接私聊失败，请先加骰娘为好友）",
            )
        )
    return replies


def _handler(kind: str) -> Callable[[Call], Awaitable[list[Reply]]]:
    async def handler(call: Call) -> list[Reply]:
        return await link(call, kind)

    handler.__name__ = f"web_link_{kind}"
    handler.__doc__ = f"``网页``: the live page of this group's {TITLES[kind]}."
    return handler


def register(registry: CommandRegistry = REGISTRY) -> list[str]:
    """Add ``网页`` to each command family present in ``registry`` (once); the roots it added to."""
    added = []
    for root, kind in COMMANDS.items():
        spec = registry.get(root)
        if spec is None or spec.find_sub(WORDS[0]) is not None:
            continue
        gm_note = "；GM另收私聊的GM链接" if kind in GM_KINDS else ""
        spec.sub(*WORDS, help=f"{TITLES[kind]}的实时网页链接（手机可看{gm_note}）", group_only=True)(
            _handler(kind)
        )
        added.append(root)
    return added


def unregister(registry: CommandRegistry = REGISTRY) -> None:
    """Take the ``网页`` sub-commands out again (tests that must leave the registry as found)."""
    for root in COMMANDS:
        spec = registry.get(root)
        if spec is not None:
            spec.subs[:] = [s for s in spec.subs if WORDS[0] not in s.words]


__all__ = [
    "COMMANDS",
    "GM_KINDS",
    "NOTHING",
    "WORDS",
    "Site",
    "attach",
    "link",
    "register",
    "site_of",
    "unregister",
]
