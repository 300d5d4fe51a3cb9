"""Session identities: a random id a TimeLine battle, a D20 combat and a 萌E game get when they
begin, and keep until they end.

A group's session row outlives each session (the next battle is written to the same row), so
the row alone cannot tell one battle from the next.  Anything that points at *a* session — a
live web page's link (:mod:`chronodice.web.tokens`) — keeps this id and stops working when the
row holds a session with another one, even if nobody looked in between.

The id is not drawn from the dice generator (``App.rng``): seeded and scripted dice stay as they
were.  Tests that need fixed ids replace :data:`SOURCE`.

>>> len(session_id()), session_id() != session_id()
(16, True)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable


def _draw() -> str:
    return secrets.token_hex(8)


SOURCE: Callable[[], str] = _draw
"""Where :func:`session_id` draws from (a test may replace it with ``monkeypatch.setattr``)."""


def session_id() -> str:
    """A fresh 16-hex-digit session id."""
    return SOURCE()


__all__ = ["SOURCE", "session_id"]
