"""The one exception tree of ChronoDice.

::

    ChronoDiceError            base; ``user_message`` is the short Chinese reply
    ├── InputSyntaxError       wrong form; carries ``usage`` (the right form)
    ├── IllegalAction          well-formed but not allowed now (no battle running, …)
    ├── AmbiguousInput         several characters / cards match
    ├── NotFound               a named thing does not exist
    ├── LimitExceeded          a limit of README "Limits" (dice, faces, repeats, length) was hit
    └── NotPermitted           the actor lacks a role; says who may do it

Services catch only :class:`ChronoDiceError`; anything else is a bug and is logged, while the
user gets a generic short reply.  Engines raise these (or subclasses), never build reply text
beyond the short message.
"""

from __future__ import annotations


class ChronoDiceError(Exception):
    """Base class: ``str(err)`` is a short user-facing message in Chinese."""

    def __init__(self, message: str, *, usage: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.usage = usage

    @property
    def user_message(self) -> str:
        if self.usage:
            return f"{self.message}\n格式：{self.usage}"
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, usage={self.usage!r})"


class InputSyntaxError(ChronoDiceError):
    """The input is malformed; ``position`` (0-based) points at the bad token when known."""

    def __init__(self, message: str, *, usage: str | None = None, position: int | None = None) -> None:
        super().__init__(message, usage=usage)
        self.position = position


class IllegalAction(ChronoDiceError):
    """The input is well-formed but not allowed in the current state."""


class AmbiguousInput(ChronoDiceError):
    """More than one thing matches the input."""


class NotFound(ChronoDiceError):
    """A named thing (character, attribute, card …) does not exist."""


class LimitExceeded(ChronoDiceError):
    """A limit of README "Limits" was exceeded (dice count, faces, repeats, length)."""


class NotPermitted(ChronoDiceError):
    """The actor may not do this; the message says who may."""


__all__ = [
    "AmbiguousInput",
    "ChronoDiceError",
    "IllegalAction",
    "InputSyntaxError",
    "LimitExceeded",
    "NotFound",
    "NotPermitted",
]
