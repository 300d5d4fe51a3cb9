"""What a service answers: texts and pictures, to the group or privately, plus a few actions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CheckNote:
    """What a check reply decided, for ``.log stat``: ``label`` (the skill or attribute checked),
    ``outcome`` (the rules' word: 成功 / 大失败 / 掷出 …) and ``success`` (``None`` when the
    check had no target, so it counts neither way)."""

    label: str
    outcome: str
    success: bool | None
    rule: str = ""
    """The rule system whose log shape the SealDice export writes (``"dnd5e"``), else ``""``."""
    items: tuple[tuple[str, str, int], ...] = ()
    """``(expression, reason, result)`` of each roll, for that shape (``("D20 + 5", "攻击哥布林", 19)``)."""


@dataclass(frozen=True)
class ReplyFile:
    """A file the bot hands to the group (``.log end``): ``path`` on this machine, ``name`` as
    the group sees it."""

    path: str
    name: str


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
    * ``check``: what a check decided (:class:`CheckNote`); ``.log`` records it with the reply
      and ``.log stat`` counts it.
    * ``files``: files uploaded after the text (OneBot ``upload_group_file``; when that fails, a
      private file to ``to_user`` or the sender, else a note where the file lies).
    * ``group_card``: ``(user_id, card)`` — set that member's group card (群名片) in this group
      (OneBot ``set_group_card``; ``.sn``).  A reply may carry it with no text.
    * ``group``: post to this group instead of where the command came from (the GM screen: a
      command typed in private chat whose public result belongs to the group it acts on).
    """

    text: str = ""
    private: bool = False
    to_user: str | None = None
    image: bytes | None = None
    mentions: tuple[str, ...] = ()
    leave_group: bool = False
    fallback: str | None = None
    check: CheckNote | None = None
    files: tuple[ReplyFile, ...] = ()
    group_card: tuple[str, str] | None = None
    group: str | None = None

    @classmethod
    def say(cls, text: str) -> Reply:
        """A reply where the command came from."""
        return cls(text=text)

    @classmethod
    def whisper(cls, text: str, to_user: str | None = None, *, fallback: str | None = None) -> Reply:
        """A private reply to ``to_user`` (default: the sender)."""
        return cls(text=text, private=True, to_user=to_user, fallback=fallback)
