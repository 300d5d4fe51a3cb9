"""The limits of README "Limits", in one place."""

from __future__ import annotations

from dataclasses import dataclass

MAX_EXPRESSION_CHARS = 300
"""Longest dice expression accepted."""
MAX_DICE_PER_COMMAND = 1000
"""Most dice rolled by one command, pools and explosions included."""
MAX_FACES = 1_000_000
"""Most faces a die may have."""
MAX_REPEATS = 20
"""Most repeats of ``N#expr``."""
MAX_REPLY_CHARS = 1500
"""Longest reply text; longer output is cut with a note (or becomes an image)."""
MAX_MESSAGE_CHARS = 2000
"""Longest command message the router looks at; longer ones get a short error."""


def clip_reply(text: str, limit: int = MAX_REPLY_CHARS) -> str:
    """Cut ``text`` to ``limit`` characters with a note saying so.

    >>> clip_reply("a" * 10, limit=8)
    'a…（已截断）'
    >>> clip_reply("abc")
    'abc'
    """
    if len(text) <= limit:
        return text
    note = "…（已截断）"
    return text[: max(0, limit - len(note) - 1)] + note


@dataclass(frozen=True)
class LogLimits:
    """Limits of ``.log`` (``CHRONODICE_LOG_*`` in ``.env.example``)."""

    max_lines: int = 20_000
    """Most lines (messages and replies) one log keeps; recording stops there with a note."""
    max_logs: int = 100
    """Most logs a group keeps (``.log del`` frees a place)."""
    max_export_bytes: int = 20 * 1024 * 1024
    """Largest exported file (text or HTML)."""
    max_line_chars: int = 4000
    """Longest text kept for one message (longer ones are cut with a note)."""
    utc_offset_hours: float = 8.0
    """Time zone of the times in the exports (China: UTC+8)."""
