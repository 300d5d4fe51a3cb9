"""Live read-only pages of a group's table, served by the bot itself (issue 28).

``.bat 网页`` / ``.init 网页`` / ``.moe 网页`` / ``.log 网页`` answer with a link holding a
per-session token (:mod:`.tokens`); the page (:mod:`.routes`) draws the page data (:mod:`.views`,
one pure function per kind) and follows each change over server-sent events, fed by one watcher
per session (:mod:`.hub`) that reads the store as the commands do (:mod:`.sources`).

The NoneBot side calls :func:`install` once at start-up, after every plugin is loaded.
"""

from __future__ import annotations

from typing import Any

from .commands import Site, attach
from .config import (
    MAKE_TOKEN,
    MIN_TOKEN_CHARS,
    WebSettings,
    WebSettingsError,
    banner_line,
    check_exposure,
    read_public_url,
    settings_from,
    token_strength,
)
from .edge import EdgePolicy, install_edge
from .hub import Hub
from .routes import make_router, mount, streams_stop_on_exit
from .server import TrustedProxies, redact_access_log, server_options


def install(fastapi_app: Any, app: Any, settings: WebSettings) -> Site:
    """Mount the pages on ``fastapi_app`` (NoneBot's own), make them answer the ``网页`` sub-commands
    (declared by :mod:`chronodice.services.web_links`) and
    tie the site to ``app`` (a :class:`chronodice.app.App`); returns the site (its hub is closed
    by :func:`uninstall`)."""
    site = Site(app.store, settings, Hub(app.store, interval=settings.interval, clock=app.clock.monotonic))
    attach(app, site)
    mount(fastapi_app, make_router(site, clock=app.clock.monotonic))
    streams_stop_on_exit(site.hub.stop_streams)
    return site


async def uninstall(site: Site) -> None:
    """Stop the site's watchers (the bot is shutting down)."""
    site.hub.stop_streams()
    await site.hub.close()


__all__ = [
    "MAKE_TOKEN",
    "MIN_TOKEN_CHARS",
    "EdgePolicy",
    "Site",
    "TrustedProxies",
    "WebSettings",
    "WebSettingsError",
    "banner_line",
    "check_exposure",
    "install",
    "install_edge",
    "read_public_url",
    "redact_access_log",
    "server_options",
    "settings_from",
    "token_strength",
    "uninstall",
]
