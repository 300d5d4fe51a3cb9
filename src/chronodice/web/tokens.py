"""The links' tokens: one random token per session, kind and role, kept in the group's settings.

Why stored rather than derived (an HMAC over the session and a secret in the data directory):

* several bot processes may serve one PostgreSQL database from different hosts, each with its
  own data directory: a token kept in the database is accepted by every one of them;
* a group's session row outlives each session (the next battle is written to the same row), so
  the tokens are bound to the *session's* id (``session_id`` in the state, drawn when it begins;
  a log's creation stamp): a link whose session is not the one in the row any more shows
  nothing, even when the old session ended and the next began with nobody looking in between.

The settings hold ``web: {key: {"p": player token, "g": GM token, "s": session id}}``; a
``.log`` link is per log (``log:<id>``), so it lasts as long as that log.  Tokens are 128-bit
``secrets`` values, compared in constant time (:func:`hmac.compare_digest`).

>>> links = Links.from_settings({"web": {"tl": {"p": "abc", "g": "xyz", "s": "b1"}}})
>>> links.role_of("tl", "abc"), links.role_of("tl", "xyz"), links.role_of("tl", "abd"), links.role_of("moe", "abc")
('player', 'gm', None, None)
>>> links.session("tl"), links.session("moe")
('b1', None)
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

Role = Literal["player", "gm"]
SETTINGS_KEY = "web"
ROLE_KEYS: dict[Role, str] = {"player": "p", "gm": "g"}
SESSION_KEY = "s"
TOKEN_BYTES = 16
MAX_LOG_LINKS = 100
"""Most ``.log`` links a group keeps (the oldest are dropped; a group keeps 100 logs)."""


def new_token(source: Callable[[int], str] = secrets.token_urlsafe) -> str:
    """A fresh unguessable token (22 URL-safe characters)."""
    return source(TOKEN_BYTES)


def well_formed(token: str) -> bool:
    """Cheap shape check before any lookup: 16–64 URL-safe characters.

    >>> well_formed("a" * 22), well_formed("<script>"), well_formed("")
    (True, False, False)
    """
    return 16 <= len(token) <= 64 and all(c.isascii() and (c.isalnum() or c in "-_") for c in token)


@dataclass(frozen=True)
class Links:
    """The tokens a group's settings hold (read-only view)."""

    entries: dict[str, dict[str, str]]

    @classmethod
    def from_settings(cls, settings: dict[str, Any] | None) -> Links:
        raw = (settings or {}).get(SETTINGS_KEY)
        if not isinstance(raw, dict):
            return cls({})
        return cls({k: v for k, v in raw.items() if isinstance(v, dict)})

    def role_of(self, key: str, token: str) -> Role | None:
        """Which role ``token`` opens for ``key`` (``tl``, ``tick20``, ``moe``, ``log:7``), or None.
        Both tokens are compared whatever the first gives, in constant time each."""
        entry = self.entries.get(key) or {}
        found: Role | None = None
        for role, short in ROLE_KEYS.items():
            want = entry.get(short)
            if isinstance(want, str) and hmac.compare_digest(want.encode(), token.encode()):
                found = role
        return found

    def token(self, key: str, role: Role) -> str | None:
        got = (self.entries.get(key) or {}).get(ROLE_KEYS[role])
        return got if isinstance(got, str) else None

    def session(self, key: str) -> str | None:
        """The id of the session the tokens of ``key`` belong to (``""`` for an entry written
        before ids existed: it matches only a session that has none either); None: no entry."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        got = entry.get(SESSION_KEY, "")
        return got if isinstance(got, str) else None

    def current(self, key: str, session: str) -> bool:
        """Whether ``key`` has both tokens and they belong to ``session``."""
        return (
            self.token(key, "player") is not None
            and self.token(key, "gm") is not None
            and self.session(key) == session
        )


def ensure(
    settings: dict[str, Any], key: str, session: str, make: Callable[[], str] = new_token
) -> dict[str, Any]:
    """``settings`` with tokens for ``key`` bound to ``session`` (kept when they already are):
    for ``update_group_settings``.  Tokens of an earlier session under ``key`` are replaced, so
    its links stop working."""
    web = settings.get(SETTINGS_KEY)
    if not isinstance(web, dict):
        web = {}
    if not Links.from_settings({SETTINGS_KEY: web}).current(key, session):
        web[key] = {**{short: make() for short in ROLE_KEYS.values()}, SESSION_KEY: session}
    logs = [k for k in web if k.startswith("log:")]
    for old in logs[: max(0, len(logs) - MAX_LOG_LINKS)]:
        del web[old]
    settings[SETTINGS_KEY] = web
    return settings


def rotate(
    settings: dict[str, Any], key: str, session: str, make: Callable[[], str] = new_token
) -> dict[str, Any]:
    """``settings`` with new tokens for ``key`` bound to ``session`` whatever it held: a reset
    (a link leaked, a GM stepped down), after which the old links open nothing."""
    web = settings.get(SETTINGS_KEY)
    if isinstance(web, dict):
        web.pop(key, None)
    return ensure(settings, key, session, make)


def forget(settings: dict[str, Any], key: str, session: str | None = None) -> dict[str, Any]:
    """``settings`` without the tokens of ``key`` (the session ended: its links stop working).
    With ``session``, only when they belong to it: a later session's links stay."""
    web = settings.get(SETTINGS_KEY)
    if isinstance(web, dict) and (session is None or Links.from_settings(settings).session(key) == session):
        web.pop(key, None)
    return settings


__all__ = [
    "MAX_LOG_LINKS",
    "ROLE_KEYS",
    "SESSION_KEY",
    "SETTINGS_KEY",
    "Links",
    "Role",
    "ensure",
    "forget",
    "new_token",
    "rotate",
    "well_formed",
]
