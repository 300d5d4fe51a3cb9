"""What the services know of the live web pages (:mod:`chronodice.web`), without importing them.

The ``网页`` sub-commands are declared by the services (:mod:`.web_links`), below the web layer;
the pages themselves, their links and tokens, live in :mod:`chronodice.web`.  When the web
view starts it hands each :class:`chronodice.app.App` its link maker (:func:`provide`, called
by :func:`chronodice.web.commands.attach`); a bot without pages answers :data:`HOW_TO_SET`.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from chronodice.core.commands import Call
from chronodice.core.reply import Reply

WORDS = ("网页", "web", "页面")
RESET_WORDS = ("重置", "reset")
COMMANDS: dict[str, str] = {"bat": "tl", "init": "tick20", "moe": "moe", "log": "log"}
"""Command root → the page kind its ``网页`` links to."""
TITLES: dict[str, str] = {"tl": "时间线战斗", "tick20": "D20刻度战斗", "moe": "萌E对局", "log": "跑团日志"}
GM_VIEWS = frozenset({"tl", "tick20"})
"""Kinds with a GM view of their own (萌E and logs hold nothing only a GM may see)."""
HOW_TO_SET = (
    "网页视图未开启：请骰主在 .env 中设置 CHRONODICE_PUBLIC_URL=玩家能访问到的地址"
    "（如 https://dice.example.org，反向代理到本机的 HOST:PORT），同时设置 ONEBOT_ACCESS_TOKEN，然后重启"
)

Linker = Callable[[Call, str, bool], Awaitable[list[Reply]]]
"""``linker(call, kind, reset)``: the reply to ``.<cmd> 网页 [重置]`` (:func:`chronodice.web.commands.link`)."""

_LINKERS: weakref.WeakKeyDictionary[Any, Linker] = weakref.WeakKeyDictionary()


def provide(app: Any, linker: Linker) -> None:
    """Make ``linker`` answer the ``网页`` sub-commands of ``app`` (a :class:`chronodice.app.App`)."""
    _LINKERS[app] = linker


async def link(call: Call, kind: str, reset: bool = False) -> list[Reply]:
    """The reply to ``.<cmd> 网页``: from the app's web view, else how to turn it on."""
    linker = _LINKERS.get(call.app)
    if linker is None:
        return [Reply.say(HOW_TO_SET)]
    return await linker(call, kind, reset)


__all__ = [
    "COMMANDS",
    "GM_VIEWS",
    "HOW_TO_SET",
    "RESET_WORDS",
    "TITLES",
    "WORDS",
    "Linker",
    "link",
    "provide",
]
