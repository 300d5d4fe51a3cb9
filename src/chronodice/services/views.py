"""What a command reads of its group, from the view the chat edge read before it ran.

The edge reads a command's view in one statement (:meth:`chronodice.app.App.context_view`:
the group, its GMs, its log in progress, the sender's nickname and card) and hands it to the
handler as ``call.view``.  :func:`group_of` answers from it instead of reading the group again;
:func:`own_card` which card the sender uses here; :func:`update_settings` writes the group's
settings and keeps that view current, so a command that writes and then reads its settings reads
what it wrote.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from chronodice.core.commands import Call
from chronodice.store import CharacterRecord, GroupRecord


def _viewed(call: Call) -> GroupRecord | None:
    view = call.view
    if view is None or view.group is None or view.group.group_id != call.ctx.scope:
        return None
    group: GroupRecord = view.group
    return group


async def group_of(call: Call) -> GroupRecord:
    """The command's group (switch, settings, GMs): from its view, else read now (private chat,
    a call made without the edge)."""
    return _viewed(call) or await call.app.store.groups.get_group(call.ctx.scope)


async def own_card(call: Call) -> CharacterRecord | None:
    """The sender's card in use here as the command's view read it (the view is the sender's:
    a call acting as another member has none, :func:`~.card_access.as_member`), else read now.
    A snapshot from before the command: for knowing *which* card it is, not what it holds after
    the command changed it."""
    if _viewed(call) is not None:
        card: CharacterRecord | None = call.view.character
        return card
    return await call.app.store.characters.active_character(call.ctx.user_id, call.ctx.scope)


async def update_settings(call: Call, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """Apply ``fn`` to the group's settings (compare-and-set, with the command's claim) and
    keep the command's view of them current; the new settings."""
    new = await call.app.store.groups.update_group_settings(call.ctx.scope, fn, claim=call.claim)
    group = _viewed(call)
    if group is not None:
        call.view = replace(call.view, group=replace(group, settings=new, version=group.version + 1))
    return new


__all__ = ["group_of", "own_card", "update_settings"]
