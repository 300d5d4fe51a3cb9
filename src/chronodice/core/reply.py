"""What a service answers: texts and pictures, to the group or privately, plus a few actions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reply:
    """One outgoing message.

    * ``private=False``: sent where the command came from (the group, or the private chat).
    * ``private=True``: sent by private message to ``to_user`` (default: the sender).  Hidden
      information (hidden rolls, card hands) must use this and nothing else.
    * ``image``: PNG bytes, sent as a picture (with ``text`` before it when non-empty).
    * ``mentions``: user ids to @ at the start of the message (a real QQ mention, so the player
      is notified), e.g. whose turn it is.
    * ``leave_group``: after sending, the bot leaves the group (``.dismiss``).
    * ``fallback``: for a private reply, the group text to send *instead* when the private message
      cannot be delivered; it must not contain the hidden content.
    """

    text: str = ""
    private: bool = False
    to_user: str | None = None
    image: bytes | None = None
    mentions: tuple[str, ...] = ()
    leave_group: bool = False
    fallback: str | None = None

    @classmethod
    def say(cls, text: str) -> Reply:
        """A reply where the command came from."""
        return cls(text=text)

    @classmethod
    def whisper(cls, text: str, to_user: str | None = None, *, fallback: str | None = None) -> Reply:
        """A private reply to ``to_user`` (default: the sender)."""
        return cls(text=text, private=True, to_user=to_user, fallback=fallback)
