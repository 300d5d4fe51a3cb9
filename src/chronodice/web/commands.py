"""``.bat 网页``, ``.init 网页``, ``.moe 网页``, ``.log 网页``: the link to the live page.

The sub-commands are declared by the services (:mod:`chronodice.services.web_links`); they
answer through the link maker :func:`attach` hands the app (:func:`link`,
:func:`chronodice.services.web_pages.provide`).  The group gets the player link; a GM asking
about a battle or a combat also gets, by private message only, the GM link that shows what only
the GM may see.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from chronodice.core.commands import Call
from chronodice.core.reply import Reply
from chronodice.rules.tick20.model import Combat
from chronodice.services.web_pages import COMMANDS, GM_VIEWS, TITLES, WORDS, provide
from chronodice.store import Store

from . import tokens
from .config import HOW_TO_SET, WebSettings
from .edge import RefusalLog
from .hub import Hub
from .limits import Known, KnownTokens, StreamSlots
from .sources import SOURCES, Read, Where, log_session

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
    known: KnownTokens = field(default_factory=KnownTokens)
    """Links this process issued or saw valid (:class:`.limits.KnownTokens`)."""
    slots: StreamSlots | None = None
    """The live streams' slots (set by the router)."""
    refusals: RefusalLog = field(default_factory=RefusalLog)
    """Where the pages' refusals are logged (one line each, braked)."""
    stops: dict[tuple[str, str], asyncio.Event] = field(default_factory=dict)
    """Per (group, session key), set when its links are reset: its open streams end."""

    def stopper(self, scope: str, key: str) -> asyncio.Event:
        """The event that ends the open streams of ``scope``'s session ``key`` when set."""
        return self.stops.setdefault((scope, key), asyncio.Event())

    def revoke(self, scope: str, key: str) -> None:
        """The links of ``scope``'s ``key`` were reset: end their streams, forget what was kept."""
        stop = self.stops.pop((scope, key), None)
        if stop is not None:
            stop.set()
        self.known.drop(scope, key)
        self.hub.drop(scope, key)

    def issued(self, scope: str, key: str, session: str, links: tokens.Links) -> None:
        """Remember the links just handed out (a guesser behind the same address never blocks them)."""
        kind = key.split(":", 1)[0]
        for role in tokens.ROLE_KEYS:
            token = links.token(key, role)
            if token is not None:
                self.known.add(kind, scope, token, Known(key, session, role == "gm"))


_SITES: weakref.WeakKeyDictionary[Any, Site] = weakref.WeakKeyDictionary()


def attach(app: Any, site: Site) -> None:
    """Make ``site`` the web view of ``app`` (a :class:`chronodice.app.App`): its ``网页``
    sub-commands answer with ``site``'s links."""
    _SITES[app] = site
    provide(app, link)


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
assert set(GM_KINDS) == GM_VIEWS


ENDED_LOG = "日志「{name}」已经结束，网页链接随之失效（.log get 导出全文；.log new 名字 开始新的记录）"
RESET_NOTE = "已重置，旧链接（包括GM链接）都已失效。"


async def _session_key(call: Call, kind: str) -> tuple[str, str, Read | None] | str:
    """The settings key of the session the link is for, its session id and (for kinds with a GM
    view) its read; else the reply saying there is none."""
    store: Store = call.app.store
    scope = call.ctx.scope
    if kind == "log":  # the log itself, not its lines
        rec = await store.logs.find_log(scope)
        if rec is None:
            return NOTHING[kind]
        if rec.ended_at is not None:
            return ENDED_LOG.format(name=rec.name)
        return f"log:{rec.id}", log_session(rec), None
    read = await SOURCES[kind](store, Where(scope, kind), None)
    return (kind, read.session, read) if read.loaded is not None else NOTHING[kind]


async def _is_gm(call: Call, kind: str, read: Read | None) -> bool:
    """Whether the sender is a GM of this session (who gets the GM link and may reset links)."""
    gm_check = GM_KINDS.get(kind)
    if gm_check is not None and read is not None:
        return await gm_check(call, read)
    return bool(await call.app.is_gm(call.ctx))


async def link(call: Call, kind: str, reset: bool = False) -> list[Reply]:
    """The reply to ``.<cmd> 网页`` (``重置``: new tokens, the old links stop at once)."""
    site = site_of(call.app)
    if site is None or site.settings.public_url is None:
        return [Reply.say(HOW_TO_SET)]
    found = await _session_key(call, kind)
    if isinstance(found, str):
        return [Reply.say(found)]
    key, session, read = found
    store: Store = call.app.store
    scope = call.ctx.scope
    gm = (reset or kind in GM_KINDS) and await _is_gm(call, kind, read)  # who gets a GM link
    if reset and not gm:
        return [Reply.say(f"只有GM可以重置网页链接（.{call.root} 网页 重置）")]
    links = tokens.Links.from_settings((await store.groups.get_group(scope)).settings)
    if reset or not links.current(key, session):  # none yet, an earlier session's, or a reset
        change = tokens.rotate if reset else tokens.ensure
        links = tokens.Links.from_settings(
            await store.groups.update_group_settings(
                scope, lambda s: change(s, key, session), claim=call.claim
            )
        )
        if reset:
            site.revoke(scope, key)
    site.issued(scope, key, session, links)
    player, gm_token = links.token(key, "player"), links.token(key, "gm")
    assert player is not None and gm_token is not None
    title = TITLES[kind]
    head = f"{title}实时网页{RESET_NOTE}新链接" if reset else f"{title}实时网页"
    replies = [
        Reply.say(f"{head}（只读，手机可看，结束后失效）：\n{site.settings.link(kind, scope, player)}")
    ]
    if gm and kind in GM_KINDS:
        replies.append(
            Reply.whisper(
                f"{title} GM网页{GM_NOTE}：\n{site.settings.link(kind, scope, gm_token)}",
                fallback="（GM链接私聊失败，请先加骰娘为好友）",
            )
        )
    return replies


__all__ = [
    "COMMANDS",
    "ENDED_LOG",
    "GM_KINDS",
    "NOTHING",
    "WORDS",
    "Site",
    "attach",
    "link",
    "site_of",
]
