"""The web view's settings: ``CHRONODICE_PUBLIC_URL`` and the rule that guards the OneBot door.

The pages are served by the bot's own server, on the port the OneBot implementation connects
to.  Giving players that address must not let strangers connect as a bot account, so a public
URL without ``ONEBOT_ACCESS_TOKEN`` is refused at start (:func:`check_exposure`, exit 2 from
``bot.py`` with one line) rather than served on a second port: one port, one process, and the
token NapCat needs anyway.

>>> WebSettings.from_values("https://dice.example.org/").link("tl", "123", "tok")
'https://dice.example.org/web/tl/123/tok'
>>> WebSettings.from_values("").public_url is None
True
>>> check_exposure("https://x.org", "")
Traceback (most recent call last):
...
chronodice.web.config.WebSettingsError: 设置了 CHRONODICE_PUBLIC_URL 却没有设置 ONEBOT_ACCESS_TOKEN：...
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from chronodice.services.web_pages import HOW_TO_SET

ENV_KEY = "CHRONODICE_PUBLIC_URL"
PREFIX = "/web"


class WebSettingsError(ValueError):
    """A web setting the bot refuses to start with (one line, for the log)."""


@dataclass(frozen=True)
class WebSettings:
    public_url: str | None = None
    """Scheme and host (and a path prefix behind a proxy), without the trailing ``/``."""
    utc_offset_hours: float = 8.0
    interval: float = 0.35

    @classmethod
    def from_values(cls, url: str | None, **kw: Any) -> WebSettings:
        url = (url or "").strip().rstrip("/")
        if url:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
                raise WebSettingsError(f"{ENV_KEY} 应为 http(s)://主机[:端口][/路径]，而不是 {url[:80]!r}")
        return cls(public_url=url or None, **kw)

    def link(self, kind: str, scope: str, token: str) -> str:
        assert self.public_url is not None
        return f"{self.public_url}{PREFIX}/{kind}/{scope}/{token}"


def read_public_url(env: Mapping[str, str] | None = None, driver_config: Any = None) -> str | None:
    """The environment wins over ``.env`` (NoneBot's config), as for the other settings."""
    env = os.environ if env is None else env
    return env.get(ENV_KEY) or getattr(driver_config, ENV_KEY.lower(), None) or None


def settings_from(driver_config: Any, env: Mapping[str, str] | None = None) -> WebSettings:
    """The settings as the bot has them (NoneBot's config, the environment winning)."""
    env = os.environ if env is None else env
    typed = env.get("CHRONODICE_LOG_UTC_OFFSET_HOURS")
    offset = float(typed) if typed else float(getattr(driver_config, "chronodice_log_utc_offset_hours", 8.0))
    return WebSettings.from_values(read_public_url(env, driver_config), utc_offset_hours=offset)


MIN_TOKEN_CHARS = 16
"""A public bot's ``ONEBOT_ACCESS_TOKEN`` needs at least this many non-blank characters."""
MAKE_TOKEN = 'python3 -c "import secrets; print(secrets.token_urlsafe(24))"'
"""The command the refusal and the banner suggest for making a token."""


def token_strength(access_token: str | None) -> str:
    """``"unset"`` (none, or only blanks), ``"weak"`` (under :data:`MIN_TOKEN_CHARS` non-blank
    characters) or ``"ok"``.

    >>> token_strength(None), token_strength("   "), token_strength("x"), token_strength("k" * 16)
    ('unset', 'unset', 'weak', 'ok')
    """
    solid = "".join((access_token or "").split())
    if not solid:
        return "unset"
    return "ok" if len(solid) >= MIN_TOKEN_CHARS else "weak"


def check_exposure(public_url: str | None, access_token: str | None) -> None:
    """:class:`WebSettingsError` when pages would be public while the OneBot endpoint is open
    or guarded by a token short enough to guess (the plugin checks this at start-up itself, so
    it holds inside another NoneBot bot too)."""
    strength = token_strength(access_token)
    if public_url and strength == "unset":
        raise WebSettingsError(
            f"设置了 {ENV_KEY} 却没有设置 ONEBOT_ACCESS_TOKEN：网页与 OneBot 接入共用一个端口，"
            "公开地址会让任何人都能以机器人身份接入。请设置 ONEBOT_ACCESS_TOKEN（NapCat 里填同一个值），"
            f"可以用 {MAKE_TOKEN} 生成"
        )
    if public_url and strength == "weak":
        raise WebSettingsError(
            f"设置了 {ENV_KEY} 时 ONEBOT_ACCESS_TOKEN 至少要有 {MIN_TOKEN_CHARS} 个非空白字符"
            f"（太短的令牌可以被猜中）。可以用 {MAKE_TOKEN} 生成，NapCat 里填同一个值"
        )
    if public_url:
        WebSettings.from_values(public_url)


def banner_line(settings: WebSettings) -> str:
    """The start-up banner's line about the web view."""
    if settings.public_url:
        return f"网页视图：{settings.public_url}{PREFIX}/…（.bat 网页 / .init 网页 / .moe 网页 / .log 网页 发链接）"
    return f"网页视图：未设置公开地址（设置 {ENV_KEY} 后 .bat 网页 等指令才能发链接）"


__all__ = [
    "ENV_KEY",
    "HOW_TO_SET",
    "MAKE_TOKEN",
    "MIN_TOKEN_CHARS",
    "PREFIX",
    "WebSettings",
    "WebSettingsError",
    "banner_line",
    "check_exposure",
    "read_public_url",
    "settings_from",
    "token_strength",
]
