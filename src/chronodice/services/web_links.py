"""``.bat 网页``, ``.init 网页``, ``.moe 网页``, ``.log 网页``: registered with every other command.

They are sub-commands of four families, so they are added here, after importing those families,
whenever the services are loaded (the bot's plugin and the tests through
:func:`chronodice.services.load_all`, the command table, the guide).  Registering them only when
the pages were mounted made the registry — ``.help``, the command table and the sub-command
lists tests pin — depend on whether a web server had started.  What they answer comes from the
web view the app was given (:mod:`.web_pages`; :mod:`chronodice.web.commands` makes the links);
without ``CHRONODICE_PUBLIC_URL`` the commands say how to set it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from chronodice.core.args import flag
from chronodice.core.commands import REGISTRY, Call, CommandRegistry
from chronodice.core.reply import Reply
from chronodice.services import gamelog, moe, tick20, timeline  # noqa: F401  (the four families first)

from .web_pages import COMMANDS, GM_VIEWS, RESET_WORDS, TITLES, WORDS, link


def _handler(kind: str) -> Callable[..., Awaitable[list[Reply]]]:
    async def handler(call: Call, reset: bool = False) -> list[Reply]:
        return await link(call, kind, reset)

    handler.__name__ = f"web_link_{kind}"
    handler.__doc__ = f"``网页 [重置]``: the live page of this group's {TITLES[kind]}."
    return handler


def register(registry: CommandRegistry = REGISTRY) -> list[str]:
    """Add ``网页`` to each command family present in ``registry`` (once); the roots it added to."""
    added = []
    for root, kind in COMMANDS.items():
        spec = registry.get(root)
        if spec is None or spec.find_sub(WORDS[0]) is not None:
            continue
        gm_note = "；GM另收私聊的GM链接" if kind in GM_VIEWS else ""
        spec.sub(
            *WORDS,
            flags=[flag("reset", *RESET_WORDS)],
            help=f"{TITLES[kind]}的实时网页链接（手机可看{gm_note}；加「重置」由GM换新链接，旧的立即失效）",
            group_only=True,
        )(_handler(kind))
        added.append(root)
    return added


def unregister(registry: CommandRegistry = REGISTRY) -> None:
    """Take the ``网页`` sub-commands out again (tests that must leave the registry as found)."""
    for root in COMMANDS:
        spec = registry.get(root)
        if spec is not None:
            spec.subs[:] = [s for s in spec.subs if WORDS[0] not in s.words]


ADDED = register()
"""The roots that gained ``网页`` (all four, unless something registered them before)."""

__all__ = ["ADDED", "register", "unregister"]
