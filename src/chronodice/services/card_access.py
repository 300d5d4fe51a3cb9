"""Another member's card, found and checked by the one rule (:func:`require_card_access`).

Every command that names a player (``.st @某人``, ``.crd @某人``, ``.ww … @某人``, a TimeLine
opposed check with @) finds that player's card here, so whose card a command may touch is
decided in one place, against the group the message came from.
"""

from __future__ import annotations

from dataclasses import replace

from chronodice.core.commands import Call
from chronodice.core.errors import NotFound
from chronodice.core.permissions import require_card_access
from chronodice.store import CharacterRecord

from .views import group_of


async def member_card(
    call: Call, who: str, what: str, *, write: bool, open_to_all: bool = False
) -> CharacterRecord | None:
    """The card ``who`` uses here, when the sender may touch it (raises otherwise).

    The sender's own: their active card (the default included).  Another member's: the card
    bound to them in this group, else their default card if they are @-mentioned for real.
    ``write``: the command changes the card or shows it whole (GM only, see the rule);
    ``open_to_all``: the group opened acting for others to everyone.
    """
    ctx, store = call.ctx, call.app.store
    if who == ctx.user_id:
        return await store.characters.active_character(who, ctx.scope)
    bound = None
    gms: tuple[str, ...] = ()
    if ctx.group_id is not None:
        gms = (await group_of(call)).gms
        bound = await store.characters.active_character(who, ctx.scope, fallback=False)
    require_card_access(
        ctx,
        who,
        what,
        gms=gms,
        in_group=bound is not None or who in ctx.at_ids,
        write=write,
        open_to_all=open_to_all,
    )
    return bound if bound is not None else await store.characters.active_character(who, ctx.scope)


async def as_member(call: Call, who: str | None, what: str = "查看或修改别人的角色卡") -> Call:
    """``call`` acting on ``who``'s card here (``.st @某人``), when the sender may change it:
    ``call`` itself for the sender's own (``who`` None or the sender), else a call as ``who``
    without the sender's view (their card and name are read for them)."""
    ctx = call.ctx
    if who is None or who == ctx.user_id:
        return call
    if await member_card(call, who, what, write=True) is None:
        raise NotFound(f"{who} 在本群没有使用中的角色")
    return replace(call, ctx=replace(ctx, user_id=who, sender_name="", at_ids=()), view=None)


__all__ = ["as_member", "member_card"]
