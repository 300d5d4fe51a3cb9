"""Recording a message into the group's ``.log`` (platform-free; the NoneBot plugin calls it for
players' messages and for every message the bot sends to a group).

Every text a line stores — the message's parts, the speaker's name, the check note, the ids —
goes through :func:`~chronodice.core.text.clean_text` here: a NUL or a lone surrogate (a
half emoji some clients send) is removed instead of failing the write, so ``.log`` never loses
a line to it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from chronodice.core.limits import LogLimits
from chronodice.core.reply import CheckNote
from chronodice.core.text import clean_text
from chronodice.store import LogInProgress, LogLine, Store

UNREAD: Any = object()
"""``log=`` of :func:`record` when the caller has not read the group's log in progress (it is
read then); None or a :class:`~chronodice.store.LogInProgress` when it has (the chat edge reads
it with the rest of the message's view: :meth:`chronodice.store.groups.Groups.view`)."""


async def in_progress(store: Store, group_id: str) -> LogInProgress | None:
    """The log in progress in ``group_id`` (recording or paused), as the chat edge needs it."""
    log = await store.logs.active_log(group_id)
    return None if log is None else LogInProgress(log.id, log.name, log.recording)


def clip_parts(parts: list[list[str]], max_chars: int) -> list[list[str]]:
    """``parts`` with their text cut to ``max_chars`` in all (a note marks the cut).

    >>> clip_parts([["text", "abcdef"], ["image", "u"]], 4)
    [['text', 'abcd'], ['text', '…（已截断）']]
    """
    out: list[list[str]] = []
    left = max_chars
    for kind, value in parts:
        if kind == "text":
            if len(value) > left:
                out.append([kind, value[:left]])
                out.append(["text", "…（已截断）"])
                return out
            left -= len(value)
        out.append([kind, value])
    return out


def clean_parts(parts: list[list[str]]) -> list[list[str]]:
    """``parts`` with every value through :func:`clean_text` (the same list when nothing changes).

    >>> clean_parts([["text", "a\\ud83db"], ["at", "名\\x00"]])
    [['text', 'ab'], ['at', '名']]
    """
    cleaned = [[kind, clean_text(value)] for kind, value in parts]
    return parts if cleaned == parts else cleaned


def clean_value(value: Any) -> Any:
    """A JSON-like value (a check note) with every string in it through :func:`clean_text`."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_text(str(k)): clean_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_value(v) for v in value]
    return value


def check_dict(note: CheckNote, user_id: str, name: str) -> dict[str, Any]:
    """What a line stores of a reply's check: the note and the player it was for."""
    out: dict[str, Any] = {
        "label": note.label,
        "outcome": note.outcome,
        "success": note.success,
        "user_id": user_id,
        "name": name,
    }
    if note.rule:
        out["rule"] = note.rule
        out["items"] = [list(item) for item in note.items]
    return out


async def record(
    store: Store,
    limits: LogLimits,
    group_id: str,
    *,
    user_id: str,
    nickname: str,
    parts: list[list[str]],
    when: datetime,
    self_id: str = "",
    message_id: str | None = None,
    is_bot: bool = False,
    check: dict[str, Any] | None = None,
    log: LogInProgress | None = UNREAD,
) -> str | None:
    """Record one message if ``group_id`` has a log recording.  Returns a notice for the group
    when this message filled the log (recording stops), else None.  ``log``: the group's log in
    progress as the caller read it (:data:`UNREAD`: read it here); a group without a log costs
    that one read.  The write checks again that the log still records."""
    if log is UNREAD:
        log = await in_progress(store, group_id)
    if log is None or not log.recording:
        return None
    line = LogLine(
        user_id=clean_text(user_id),
        nickname=clean_text(nickname),
        parts=clip_parts(clean_parts(parts), limits.max_line_chars),
        created_at=when,
        is_bot=is_bot,
        check=None if check is None else clean_value(check),
        self_id=clean_text(self_id),
        message_id=None if message_id is None else clean_text(message_id),
    )
    result = await store.logs.record_line(group_id, log.id, line, max_lines=limits.max_lines)
    if result == "full":
        return (
            f"日志「{log.name}」已达上限{limits.max_lines}条，已暂停记录。"
            f"请 .log end 结束并导出，再 .log new 开始下一段"
        )
    return None
