"""The one permission policy: who may do what, for every system.

Levels, from least to most trusted:

* ``ANYONE``;
* ``GM`` — the group's owner and admins, the bot's owners (superusers), whoever they appointed
  with ``.gm add``, and the GMs a running session names (``extra``: the D20 tick combat's
  opener and ``.init gm`` appointees, a card game's creator);
* ``ADMIN`` — group owner, admins and superusers (appointing GMs, dismissing the bot);
* ``SUPERUSER`` — the bot's owners.

In a private chat the sender is the GM of that chat's own scope (their private rolls, private
test combats) — but a private message that acts on a *group* (``.moe kick`` sent privately) is
judged against that group: pass its :class:`~chronodice.store.GroupRecord` and ``private=False``
context, see :func:`is_gm`.

>>> from chronodice.core.context import Context
>>> member, owner = Context("1", "9"), Context("2", "9", roles=frozenset({"owner"}))
>>> is_gm(member, gms=()), is_gm(member, gms=("1",)), is_gm(owner, gms=()), is_gm(Context("1"), gms=())
(False, True, True, True)
>>> allowed(member, Perm.ADMIN, gms=("1",)), allowed(owner, Perm.ADMIN, gms=())
(False, True)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from .context import Context
from .errors import NotFound, NotPermitted


class Perm(enum.Enum):
    """A declared permission level; the value is who may, as shown in help and refusals."""

    ANYONE = ""
    GM = "群主、管理员、骰主或本群GM"
    ADMIN = "群主、管理员或骰主"
    SUPERUSER = "骰主"

    @property
    def tag(self) -> str:
        """Short tag for help lines: ``（GM）``."""
        return {"ANYONE": "", "GM": "（GM）", "ADMIN": "（群管理）", "SUPERUSER": "（骰主）"}[self.name]


GM_WHO = Perm.GM.value


def is_gm(
    ctx: Context, *, gms: Iterable[str] = (), extra: Iterable[str] = (), group_scope: bool = False
) -> bool:
    """Superuser, group owner/admin, an appointed GM (``gms``), a session GM (``extra``); in a
    private chat the sender rules their own scope unless ``group_scope`` (acting on a group)."""
    if ctx.is_superuser or ctx.is_group_admin:
        return True
    if ctx.group_id is None and not group_scope:
        return True
    return ctx.user_id in set(gms) or ctx.user_id in set(extra)


def allowed(
    ctx: Context, perm: Perm, *, gms: Iterable[str] = (), extra: Iterable[str] = (), group_scope: bool = False
) -> bool:
    if perm is Perm.ANYONE:
        return True
    if perm is Perm.SUPERUSER:
        return ctx.is_superuser
    if perm is Perm.ADMIN:
        return ctx.is_group_admin or (ctx.group_id is None and not group_scope)
    return is_gm(ctx, gms=gms, extra=extra, group_scope=group_scope)


def require(
    ctx: Context,
    perm: Perm,
    what: str,
    *,
    gms: Iterable[str] = (),
    extra: Iterable[str] = (),
    who: str | None = None,
    group_scope: bool = False,
) -> None:
    """Raise :class:`NotPermitted` (``只有…可以<what>``) unless ``ctx`` has ``perm``.

    ``who`` overrides the wording of who may (``本场战斗的GM（开战者、.init gm 指定者）或群管理``).
    """
    if not allowed(ctx, perm, gms=gms, extra=extra, group_scope=group_scope):
        raise NotPermitted(f"只有{who or perm.value}可以{what}")


def become_gm(open_switch: str = "") -> str:
    """How a member comes to be allowed what a GM-only refusal refused, to put after it: the
    group's owner or an admin appoints them with ``.gm add``; where the system has a switch
    that opens such actions to everyone (TimeLine's ``.tlconf open``), a GM can turn it on.

    >>> become_gm(".tlconf open")
    '（群主或管理员可用 .gm add @你 设你为本群GM；或请GM用 .tlconf open 向所有人开放）'
    """
    also = f"；或请GM用 {open_switch} 向所有人开放" if open_switch else ""
    return f"（群主或管理员可用 .gm add @你 设你为本群GM{also}）"


PRIVATE_OWN_ONLY = "私聊里只能查看或修改你自己的角色卡；别人的角色卡请GM在那位玩家所在的群里操作"


def require_card_access(
    ctx: Context,
    owner_id: str,
    what: str,
    *,
    gms: Iterable[str] = (),
    in_group: bool,
    write: bool,
    open_to_all: bool = False,
) -> None:
    """The one rule for whose character card a command may touch; raises when it may not.

    * One's own card: always.
    * Anyone else's in a private chat: never — there is no group to judge a GM against, and a
      private chat's own scope (where the sender rules) holds only the sender's things.
    * Another member's in a group: only a card that is theirs *in this group* (``in_group``:
      bound here, or their default card with a real QQ @ of them, which shows they are a
      member — a typed ``@12345`` shows nothing), so a GM of one group never reaches a card
      used in another; writing it, or reading it whole, needs GM rights in this group
      (``open_to_all``: a group that opened such actions to everyone, TimeLine's ``.tlconf open``).

    >>> from chronodice.core.context import Context
    >>> require_card_access(Context("1"), "2", "修改别人的角色卡", in_group=True, write=False)
    Traceback (most recent call last):
    ...
    chronodice.core.errors.NotPermitted: 私聊里只能查看或修改你自己的角色卡；别人的角色卡请GM在那位玩家所在的群里操作
    >>> require_card_access(Context("1", "9"), "2", "修改别人的角色卡", in_group=True, write=True)
    Traceback (most recent call last):
    ...
    chronodice.core.errors.NotPermitted: 只有群主、管理员、骰主或本群GM可以修改别人的角色卡
    >>> require_card_access(Context("1", "9"), "2", "修改别人的角色卡", gms=("1",), in_group=True, write=True)
    """
    if owner_id == ctx.user_id:
        return
    if ctx.group_id is None:
        raise NotPermitted(PRIVATE_OWN_ONLY)
    if write and not open_to_all and not is_gm(ctx, gms=gms, group_scope=True):
        raise NotPermitted(f"只有{GM_WHO}可以{what}")
    if not in_group:
        raise NotFound(
            f"{owner_id} 在本群没有绑定角色卡（在消息里 @ 他，或请他在本群用 .pc tag 角色名 绑定）"
        )


__all__ = [
    "GM_WHO",
    "PRIVATE_OWN_ONLY",
    "Perm",
    "allowed",
    "become_gm",
    "is_gm",
    "require",
    "require_card_access",
]
