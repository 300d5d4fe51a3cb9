"""``.botlist``: the other bot accounts of a group, whose messages ChronoDice never answers
(SealDice's ``.botlist``, issue 42) — two bots that answer each other's messages can talk to
each other forever.

* ``.botlist add @A [@B…]`` / ``del @A`` (GM/admin, aliases ``添加``/``删除``) and ``.botlist`` /
  ``list`` (anyone).  At most :data:`MAX_BOTS` accounts a group; not the bot itself (the account
  serving the group), not the sender (they could not take it back: a listed account's commands
  are not heard) and not one of the bot's owners (``SUPERUSERS``).
* The list is the group's own settings (:data:`BOTLIST_KEY`), judged only in that group: a
  listed account's messages there — commands, keyword replies, the unknown-command hint — get
  no reply and run nothing (``App.dispatch`` reads the list from the group record it reads for
  every command anyway; plain messages ask the keyword cache, :mod:`.group_habits`).  Its
  private chats and other groups are as before.  A superuser is always heard.
"""

from __future__ import annotations

from typing import Any

from chronodice.core.args import Mention, many
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.permissions import Perm
from chronodice.core.reply import Reply

from .views import update_settings

BOTLIST_KEY = "botlist"
"""Group settings key: the listed accounts' QQ ids, in the order added."""
MAX_BOTS = 20


def listed_bots(settings: dict[str, Any] | None) -> frozenset[str]:
    """The accounts on a group's ``.botlist`` (its settings dict; ``None``: none)."""
    got = settings.get(BOTLIST_KEY) if settings else None
    return frozenset(str(x) for x in got) if isinstance(got, list) else frozenset()


def _entries(settings: dict[str, Any]) -> list[str]:
    got = settings.get(BOTLIST_KEY)
    return [str(x) for x in got] if isinstance(got, list) else []


botlist = define(
    "botlist",
    summary="登记本群的其他机器人，骰娘不回应它们：.botlist add @机器人，.botlist del @机器人，.botlist list",
    detail=(
        "群里有别的骰娘或机器人时登记它们，骰娘不再回应它们在本群发的任何消息（指令、关键词都不回应），"
        f"免得两个机器人互相回话停不下来；每群最多{MAX_BOTS}个，只在登记的群里生效。"
        "登记和删除：群主、管理员、骰主或本群GM"
    ),
    group_only=True,
    system="通用",
)

BOTS = many("who", Mention(label="@机器人"), label="@机器人")


@botlist.sub("list", "ls", "列表", help="列出本群登记的机器人", when_empty=True)
async def botlist_list(call: Call) -> list[Reply]:
    entries = _entries(call.view.group.settings if call.view.group else {})
    if not entries:
        return [Reply.say("本群没有登记机器人（.botlist add @机器人 登记后，骰娘不再回应它的消息）")]
    return [Reply.say(f"本群登记的机器人（{len(entries)}个，骰娘不回应它们）：\n" + "\n".join(entries))]


def _refuse(call: Call, who: str) -> None:
    """Accounts that may not be listed: the bot itself, the sender, the bot's owners."""
    ctx = call.ctx
    if who == ctx.self_id:
        raise IllegalAction("不能登记骰娘自己")
    if who == ctx.user_id:
        raise IllegalAction("不能登记你自己：登记后你的指令骰娘都不会回应")
    if who in call.app.owners:
        raise IllegalAction(f"{who} 是骰主，不能登记为机器人")


@botlist.sub(
    "add", "添加", params=[BOTS], perm=Perm.GM, what="登记机器人", help=f"登记机器人（每群最多{MAX_BOTS}个）"
)
async def botlist_add(call: Call, who: list[str]) -> list[Reply]:
    assert call.ctx.group_id is not None
    wanted = list(dict.fromkeys(who))
    for uid in wanted:
        _refuse(call, uid)
    before = set(_entries(call.view.group.settings if call.view.group else {}))

    def add(s: dict[str, Any]) -> dict[str, Any]:
        entries = _entries(s)
        entries += [u for u in wanted if u not in entries]
        if len(entries) > MAX_BOTS:
            raise IllegalAction(f"每群最多登记{MAX_BOTS}个机器人，请先删除不用的（.botlist del @机器人）")
        return {**s, BOTLIST_KEY: entries}

    await update_settings(call, add)
    new = [u for u in wanted if u not in before]
    lines = [f"已登记机器人：{'、'.join(new)}（骰娘不再回应它在本群的消息）"] if new else []
    if len(new) < len(wanted):
        lines.append("已经登记过：" + "、".join(u for u in wanted if u in before))
    return [Reply.say("\n".join(lines))]


@botlist.sub(
    "del", "rm", "删除", params=[BOTS], perm=Perm.GM, what="删除机器人", help="从本群的机器人列表删除"
)
async def botlist_del(call: Call, who: list[str]) -> list[Reply]:
    assert call.ctx.group_id is not None
    wanted = list(dict.fromkeys(who))
    missing = [u for u in wanted if u not in _entries(call.view.group.settings if call.view.group else {})]
    if missing:
        raise NotFound(f"{'、'.join(missing)} 不在本群的机器人列表里（.botlist list 查看）")

    def drop(s: dict[str, Any]) -> dict[str, Any]:
        return {**s, BOTLIST_KEY: [u for u in _entries(s) if u not in wanted]}

    await update_settings(call, drop)
    return [Reply.say(f"已从本群的机器人列表删除：{'、'.join(wanted)}")]


__all__ = ["BOTLIST_KEY", "MAX_BOTS", "botlist", "botlist_add", "botlist_del", "botlist_list", "listed_bots"]
