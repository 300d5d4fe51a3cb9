"""GMs: ``.gm`` appoints them, and ``.gm 私聊`` lets one run a group's battle from private chat.

A GM binds their private chat to a group by typing ``.gm 私聊`` there (the only place the bot
knows their group role).  Afterwards the combat commands in :data:`SCREEN_COMMANDS`, sent to the
bot in private, act on that group as if typed there — except that the group never sees the
command text: what the command makes public is posted to the group, what is hidden (a hidden
NPC's declaration, its numbers) goes to the GM alone, and errors answer the GM privately, so a
refusal cannot tell the group anything either.  The GM also gets a copy of what went to the
group, so a phone in private chat is enough to run the scene.

The binding lives in the GM's private scope settings (``p<user id>``): the bound groups, each with
the platform roles seen when it was made (a group admin stays GM for their private commands), and
the current one.  Each private command is judged again against the group: the GM must still be
one there (appointed with ``.gm add``, or owner/admin at binding time).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from chronodice.core.args import Mention, OneOf, Pattern, many, opt
from chronodice.core.commands import Call, define
from chronodice.core.context import Context, Role
from chronodice.core.errors import NotPermitted
from chronodice.core.permissions import GM_WHO, Perm, is_gm
from chronodice.core.reply import Reply

from .views import update_settings

QQ = OneOf(Mention(), Pattern(regex=r"@?([0-9]{5,12})(?![0-9])", label="QQ号", convert=lambda m: m.group(1)))
gm = define("gm", summary="任命或撤销本群GM；绑定私聊操作")


@gm.sub("list", "ls", help="列出本群GM", when_empty=True, group_only=True)
async def gm_list(call: Call) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    assert ctx.group_id is not None
    group = await store.groups.get_group(ctx.group_id)
    if not group.gms:
        return [Reply.say("本群没有任命的GM（群主和管理员默认有GM权限）")]
    names = [await call.app.display_name(ctx, uid) for uid in group.gms]
    return [
        Reply.say(
            "本群GM："
            + "、".join(f"{n}({u})" if n != u else u for n, u in zip(names, group.gms, strict=True))
        )
    ]


@gm.sub(
    "add",
    params=[many("who", QQ, label="@某人")],
    perm=Perm.ADMIN,
    what="任命GM",
    help="任命GM",
    group_only=True,
)
async def gm_add(call: Call, who: list[str]) -> list[Reply]:
    return await _gm_change(call, who, add=True)


@gm.sub(
    "del",
    "rm",
    params=[many("who", QQ, label="@某人")],
    perm=Perm.ADMIN,
    what="撤销GM",
    help="撤销GM",
    group_only=True,
)
async def gm_del(call: Call, who: list[str]) -> list[Reply]:
    return await _gm_change(call, who, add=False)


async def _gm_change(call: Call, who: list[str], *, add: bool) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    assert ctx.group_id is not None
    done = []
    for uid in list(dict.fromkeys(who))[:10]:
        ok = (
            await store.groups.add_gm(ctx.group_id, uid, ctx.user_id, claim=call.claim)
            if add
            else await store.groups.remove_gm(ctx.group_id, uid, claim=call.claim)
        )
        if ok:
            done.append(uid)
    if not done:
        return [Reply.say("没有变化（已经是/不是GM）")]
    return [Reply.say(f"已{'任命为GM' if add else '撤销GM'}：" + "、".join(done))]


# ---------------------------------------------------------------------- .gm 私聊
SCREEN_COMMANDS = frozenset(
    {"bat", "init", "ri", "atk", "ed", "ap", "wound", "mov", "rc", "crd", "hp", "延后"}
)
"""Roots that a bound GM's private message runs in the group (TimeLine ``.bat .crd``, D20
``.init .ri .atk .ed .ap .wound .mov .rc .hp .延后``)."""

KEY = "screen"
MAX_GROUPS = 8
LIST = "、".join(f".{c}" for c in ("bat", "init", "ri", "atk", "ed", "rc", "crd", "hp"))
GROUP_WORD = Pattern(
    regex=r"([0-9]{5,12}|关|off|开|on)(?![0-9])", label="群号/关", convert=lambda m: m.group(1)
)


def screen_of(settings: dict[str, Any] | None) -> dict[str, Any]:
    """The binding stored in a private scope's settings (empty when none)."""
    got = (settings or {}).get(KEY)
    return got if isinstance(got, dict) else {}


async def enter(app: Any, ctx: Context) -> Context | None:
    """``ctx`` (``app``: the :class:`chronodice.app.App`, typed ``Any`` below it) moved into the group its sender's GM screen points at (``None``: not bound).

    Raises :class:`NotPermitted` when the sender is no longer a GM of that group."""
    private = await app.store.groups.get_group(ctx.scope)
    bound = screen_of(private.settings)
    target = bound.get("current")
    groups = bound.get("groups") or {}
    if not isinstance(target, str) or target not in groups:
        return None
    roles: frozenset[Role] = frozenset(r for r in groups[target].get("roles", ()) if r in ("owner", "admin"))
    moved = replace(ctx, group_id=target, roles=ctx.roles | roles, screen=True)
    group = await app.store.groups.get_group(target)
    if not is_gm(moved, gms=group.gms):
        raise NotPermitted(f"你已不是群{target}的GM（需{GM_WHO}），私聊操作未执行；.gm 私聊 关 解除绑定")
    return moved


def deliver(replies: list[Reply], group_id: str, *, failed: bool) -> list[Reply]:
    """A screen command's replies: public ones to the group (with a copy to the GM), private
    ones to whom they name, and an error to the GM alone."""
    if failed:
        return [replace(r, private=True, to_user=None, group=None, mentions=()) for r in replies]
    out: list[Reply] = []
    copies: list[str] = []
    for r in replies:
        if r.private or r.group is not None:
            out.append(r)
            continue
        out.append(replace(r, group=group_id))
        if r.text or r.image is not None:
            copies.append(r.text + ("\n（图片）" if r.image is not None else ""))
    if copies:
        out.append(Reply.whisper(f"[已发到群{group_id}]\n" + "\n".join(copies)))
    return out


@gm.sub(
    "私聊",
    "screen",
    params=[opt("to", GROUP_WORD)],
    help="私聊操作：在群里发 .gm 私聊 绑定本群，之后私聊骰娘发的 " + LIST + " 作用于本群；"
    "私聊 .gm 私聊 查看/切换（加群号）/关",
)
async def gm_screen(call: Call, to: str | None) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    if ctx.group_id is not None:
        if to in ("关", "off"):
            return await _unbind(call, ctx.group_id)
        await call.app.require_gm(ctx, "绑定私聊操作")
        return await _bind(call, ctx.group_id)
    bound = screen_of((await store.groups.get_group(ctx.scope)).settings)
    groups = bound.get("groups") or {}
    if to in ("关", "off"):
        return await _unbind(call, None)
    if to is None or to in ("开", "on"):
        if not groups:
            return [Reply.say("还没有绑定任何群：请在你主持的群里发 .gm 私聊")]
        lines = [f"{'▶' if g == bound.get('current') else '　'} 群{g}" for g in groups]
        return [
            Reply.say(
                "私聊操作作用于▶所示的群：\n" + "\n".join(lines) + "\n切换：.gm 私聊 群号；解除：.gm 私聊 关"
            )
        ]
    if to not in groups:
        return [Reply.say(f"没有绑定群{to}：请先在那个群里发 .gm 私聊")]

    def switch(settings: dict[str, Any]) -> dict[str, Any]:
        settings.setdefault(KEY, {})["current"] = to
        return settings

    await update_settings(call, switch)
    return [Reply.say(f"私聊操作现在作用于群{to}")]


async def _bind(call: Call, group_id: str) -> list[Reply]:
    ctx = call.ctx
    roles = sorted(r for r in ctx.roles if r in ("owner", "admin"))

    def bind(settings: dict[str, Any]) -> dict[str, Any]:
        found = settings.get(KEY)
        screen: dict[str, Any] = found if isinstance(found, dict) else {}
        groups = {g: v for g, v in (screen.get("groups") or {}).items() if g != group_id}
        groups[group_id] = {"roles": roles}
        settings[KEY] = {"groups": dict(list(groups.items())[-MAX_GROUPS:]), "current": group_id}
        return settings

    await call.app.store.groups.update_group_settings(f"p{ctx.user_id}", bind, claim=call.claim)
    return [
        Reply.say(
            f"{call.name} 已绑定私聊操作：私聊骰娘发送的 {LIST} 等将作用于本群，"
            "指令本身不会出现在群里（隐藏的NPC只私聊告诉你）。私聊 .gm 私聊 关 解除"
        )
    ]


async def _unbind(call: Call, group_id: str | None) -> list[Reply]:
    """Forget one group (typed there) or all of them (typed in private)."""
    ctx = call.ctx

    def unbind(settings: dict[str, Any]) -> dict[str, Any]:
        found = settings.get(KEY)
        screen: dict[str, Any] = found if isinstance(found, dict) else {}
        groups = {
            g: v for g, v in (screen.get("groups") or {}).items() if group_id is not None and g != group_id
        }
        current = screen.get("current")
        settings[KEY] = {
            "groups": groups,
            "current": current if current in groups else next(iter(groups), None),
        }
        return settings

    await call.app.store.groups.update_group_settings(f"p{ctx.user_id}", unbind, claim=call.claim)
    return [Reply.say("已解除本群的私聊操作" if group_id is not None else "已解除全部私聊操作绑定")]


__all__ = ["SCREEN_COMMANDS", "deliver", "enter", "screen_of"]
