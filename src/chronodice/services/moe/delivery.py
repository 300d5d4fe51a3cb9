"""At-least-once delivery of the ``outbox``: the group part of commands typed in private chat.

Each entry of a session's ``outbox`` is ``{"id": n, "text": …}``; ``n`` comes from the session's
``outbox_seq`` (carried over to the group's next game), so an id names one text for good.  The
sweeper delivers a group's entries in order and removes from the session exactly the ids that
went out — only after they went out:

1. **claim** (one transaction): every entry about to be sent gets ``tries`` + 1 and a
   ``retry_at`` (:func:`backoff`) *before* it is sent, so the database knows it may have gone;
2. **send** the entries one by one; the first failure stops the group (entry k+1 never goes
   before entry k), the entries after it get their ``tries`` back;
3. **remove** exactly the ids sent (compare-and-set through ``apply_session``: entries queued
   meanwhile stay).

A kill between commit and send leaves the entry in the session: the next process sends it.  A
kill between send and removal makes the next process send it again — then with ``tries`` > 0,
so the text starts with :data:`RESENT` and readers can tell a possible repeat (after a kill the
whole claimed batch is marked: the database knows it was claimed, not how far sending got).  A
failed send marks its own retry the same way (the API may fail after the group got the text).
Within one process the ids sent but not yet removed are remembered per app
(:func:`sent_record`): when the removal fails, the next sweep removes them without sending them
twice.  A delivery problem is logged, never taken for a broken game.
"""

from __future__ import annotations

import base64
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from ._common import SYSTEM, log

Send = Callable[..., Awaitable[bool]]
"""``send(group id, text)``, or ``send(group id, text, image)`` for an entry with a picture (PNG
bytes: the table at a round start): ``True`` once the group has it; ``False`` or an exception
leaves it in the outbox for a later sweep."""

RESENT = "（补发，如已看到请忽略）"
"""First line of a text sent again: an earlier attempt failed or was cut off, so the group may
have it already."""
RETRY_CAP = 300.0
"""Longest wait, in seconds, before a group whose sends keep failing is tried again."""

_records: weakref.WeakKeyDictionary[Any, dict[str, dict[int, str]]] = weakref.WeakKeyDictionary()


def sent_record(app: Any) -> dict[str, dict[int, str]]:
    """This process's record for ``app``: group → {id: text} sent but not yet removed from the
    session.  Lives as long as the app (a fresh app after a restart starts empty)."""
    rec = _records.get(app)
    if rec is None:
        rec = _records[app] = {}
    return rec


def backoff(tries: int) -> float:
    """Seconds to wait before attempt ``tries`` + 1: the next sweep after one failure, then
    1, 3, 7… up to :data:`RETRY_CAP` (a group that cannot be told is not hammered)."""
    return min(RETRY_CAP, 2.0 ** (tries - 1) - 1)


def entries(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The session's ``outbox`` as entries with ids (set back into ``state``); texts queued as
    plain strings by an older version, or anything malformed, get the next ids here."""
    box = state.get("outbox") or []
    seq = int(state.get("outbox_seq") or 0)
    out: list[dict[str, Any]] = []
    for e in box:
        if isinstance(e, dict) and isinstance(e.get("id"), int) and isinstance(e.get("text"), str):
            out.append(e)
        else:
            seq += 1
            text = e.get("text") if isinstance(e, dict) else e
            out.append({"id": seq, "text": text if isinstance(text, str) else str(text)})
    state["outbox"] = out
    if seq != int(state.get("outbox_seq") or 0):
        state["outbox_seq"] = seq
    return out


def queue(state: dict[str, Any], text: str, image: bytes | None = None) -> None:
    """Append ``text`` (and a picture, kept as base64 until sent) to the session's outbox under
    the next id (inside the transaction that saves what caused it)."""
    box = entries(state)
    seq = int(state.get("outbox_seq") or 0) + 1
    state["outbox_seq"] = seq
    entry: dict[str, Any] = {"id": seq, "text": text}
    if image is not None:
        entry["image"] = base64.b64encode(image).decode("ascii")
    box.append(entry)


def image_of(entry: dict[str, Any]) -> bytes | None:
    """An entry's picture, if it has a readable one."""
    raw = entry.get("image")
    if not isinstance(raw, str):
        return None
    try:
        return base64.b64decode(raw.encode("ascii"), validate=True)
    except (ValueError, UnicodeError):
        return None


async def deliver(app: Any, scope: str, at: float, send: Send, *, claim: bool = True) -> None:
    """Send the group's due outbox entries in order and remove those that went out.

    ``claim=False`` skips step 1 (for a ``send`` that cannot fail: the caller takes the texts).
    Never raises: a store or send failure is logged and the entries wait for the next sweep."""
    sent = sent_record(app).setdefault(scope, {})

    def take(st: Any) -> tuple[Any, tuple[list[int], list[dict[str, Any]], set[int]]]:
        if not isinstance(st, dict) or not st.get("outbox"):
            return st, ([], [], set())
        box = entries(st)
        done = [e["id"] for e in box if sent.get(e["id"]) == e["text"]]
        todo: list[dict[str, Any]] = []
        for e in box:
            if e["id"] in done:
                continue
            if not todo and float(e.get("retry_at") or 0) > at:
                break  # the first one waits: so do those behind it
            todo.append(dict(e))
            if claim:
                e["tries"] = int(e.get("tries") or 0) + 1
                e["retry_at"] = at + backoff(e["tries"])
        return st, (done, todo, {e["id"] for e in box})

    try:
        # the sweep's own write, no delivered event's
        done, todo, present = await app.store.sessions.apply_session(
            scope, SYSTEM, take, command=".moe (outbox)", claim=None
        )
    except Exception as exc:  # the database: the next sweep tries again
        log.warning("萌E: group %s: reading the outbox failed: %s", scope, repr(exc)[:200])
        return
    for stale in set(sent) - present:  # removed meanwhile (or another game): forget
        del sent[stale]
    went, untried = await _send_in_order(scope, todo, send, sent)
    if done or went or untried:
        await _remove(app, scope, {*done, *went}, untried, sent)
    if not sent:
        sent_record(app).pop(scope, None)


async def _send_in_order(
    scope: str, todo: list[dict[str, Any]], send: Send, sent: dict[int, str]
) -> tuple[list[int], list[dict[str, Any]]]:
    """Send ``todo`` in order up to the first failure: (ids sent, entries not tried)."""
    went: list[int] = []
    for i, e in enumerate(todo):
        again = int(e.get("tries") or 0) > 0
        text = f"{RESENT}\n{e['text']}" if again and e["text"] else e["text"]
        image = image_of(e)
        try:
            if image is not None:
                ok = await send(scope, text, image)
            else:
                ok = not text or await send(scope, text)
        except Exception as exc:
            log.warning("萌E: group %s: sending outbox #%s failed: %s", scope, e["id"], repr(exc)[:200])
            ok = False
        if not ok:
            return went, todo[i + 1 :]
        if again:
            log.info("萌E: group %s: outbox #%s sent again (attempt %s)", scope, e["id"], e["tries"] + 1)
        sent[e["id"]] = e["text"]
        went.append(e["id"])
    return went, []


async def _remove(
    app: Any, scope: str, acked: set[int], untried: list[dict[str, Any]], sent: dict[int, str]
) -> None:
    """Remove exactly the ``acked`` ids (still holding the text sent) and give the ``untried``
    entries their claim back; on success forget the acked ids."""
    before = {e["id"]: e for e in untried}

    def fn(st: Any) -> tuple[Any, None]:
        if not isinstance(st, dict) or not st.get("outbox"):
            return st, None
        keep = []
        for e in entries(st):
            if e["id"] in acked and sent.get(e["id"]) == e["text"]:
                continue
            old = before.get(e["id"])
            if old is not None:
                e = {k: v for k, v in e.items() if k not in ("tries", "retry_at")}
                e.update({k: old[k] for k in ("tries", "retry_at") if k in old})
            keep.append(e)
        return {**st, "outbox": keep}, None

    try:
        await app.store.sessions.apply_session(scope, SYSTEM, fn, command=".moe (outbox sent)", claim=None)
    except Exception as exc:  # sent already: remembered in ``sent``, not sent again here
        log.warning(
            "萌E: group %s: removing %d sent outbox texts failed: %s", scope, len(acked), repr(exc)[:200]
        )
        return
    for i in acked:
        sent.pop(i, None)


def forget_except(app: Any, scopes: set[str]) -> None:
    """Drop the record of groups that have no session any more."""
    rec = sent_record(app)
    for scope in set(rec) - scopes:
        del rec[scope]


__all__ = [
    "RESENT",
    "RETRY_CAP",
    "Send",
    "backoff",
    "deliver",
    "entries",
    "forget_except",
    "image_of",
    "queue",
    "sent_record",
]
