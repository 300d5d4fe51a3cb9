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
from .errors import NotPermitted


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


__all__ = ["GM_WHO", "Perm", "allowed", "is_gm", "require"]
