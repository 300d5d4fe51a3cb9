"""``.ob`` spectators and ``.team`` (the group's party), as SealDice players type them.

Both are lists of QQ ids kept in the group's settings (``observers``, ``team``), written with the
store's compare-and-set :meth:`update_group_settings`, so several bot processes share them.

* ``.ob`` / ``.ob join`` — watch the game; ``.ob exit`` / ``.ob leave`` — stop; ``.ob list``;
  ``.ob clr`` (GM).  Spectators are left out of ``.log stat`` (:func:`spectators`).
* ``.team add @A @B`` / ``.team del @A`` / ``.team clr`` (GM) and ``.team list``;
  ``.team call`` @-mentions every member; ``.team pick [N]`` picks N members at random;
  ``.team st 体力-1`` changes every member's card here (GM, each card through
  :func:`~chronodice.services.card_access.member_card`) as ``.st`` would, the DnD5e HP rules
  included (:func:`~chronodice.services.common.member_st`); ``.team show 体力 理智`` shows those
  attributes of every member side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chronodice.core.args import Int, Mention, OneOf, Pattern, arg, many, opt, rest
from chronodice.core.commands import Call, define
from chronodice.core.errors import ChronoDiceError, IllegalAction
from chronodice.core.permissions import Perm
from chronodice.core.reply import Reply
from chronodice.rules.coc7.derived import derive
from chronodice.store import CharacterRecord

from .card_access import member_card
from .characters import AttributePairs, Pair
from .common import member_st
from .modes import attribute_name, group_mode
from .views import group_of, update_settings

OBSERVERS_KEY = "observers"
TEAM_KEY = "team"
MAX_OBSERVERS = 50
MAX_TEAM = 30
MAX_SHOWN = 10
"""Most attributes one ``.team show`` lists."""

QQ = OneOf(Mention(), Pattern(regex=r"@?([0-9]{5,12})(?![0-9])", label="QQ号", convert=lambda m: m.group(1)))
ATTR = Pattern(regex=r"[^\s,，、;]{1,20}", label="属性名")


def spectators(settings: dict[str, Any] | None) -> list[str]:
    """The group's spectators (``.ob``) from its settings.

    >>> spectators({"observers": ["10001", "10002"]}), spectators(None)
    (['10001', '10002'], [])
    """
    return _ids(settings, OBSERVERS_KEY)


def team_members(settings: dict[str, Any] | None) -> list[str]:
    """The group's team (``.team``) from its settings, in the order they were added.

    >>> team_members({"team": ["10001", 5]}), team_members({})
    (['10001'], [])
    """
    return _ids(settings, TEAM_KEY)


def _ids(settings: dict[str, Any] | None, key: str) -> list[str]:
    value = (settings or {}).get(key)
    return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []


async def _members(call: Call, key: str) -> list[str]:
    return _ids((await group_of(call)).settings, key)


async def _change(call: Call, key: str, fn: Callable[[list[str]], list[str]]) -> list[str]:
    """Apply ``fn`` to the stored list ``key`` (compare-and-set); the new list."""

    def write(settings: dict[str, Any]) -> dict[str, Any]:
        return {**settings, key: fn(_ids(settings, key))}

    return _ids(await update_settings(call, write), key)


async def _names(call: Call, ids: list[str]) -> str:
    """``名字(QQ)`` for each id, joined by ``、``."""
    out = []
    for uid in ids:
        name = await call.app.display_name(call.ctx, uid)
        out.append(name if name == uid else f"{name}({uid})")
    return "、".join(out)


# ---------------------------------------------------------------------- .ob
ob = define(
    "ob",
    summary="旁观：.ob 加入、.ob exit 退出、.ob list 查看（旁观者不计入 .log stat）",
    group_only=True,
)


@ob.sub("join", "加入", help="加入旁观", when_empty=True)
async def ob_join(call: Call) -> list[Reply]:
    me = call.ctx.user_id
    before = await _members(call, OBSERVERS_KEY)
    if me in before:
        return [Reply.say(f"{call.name} 已经在旁观了")]
    if len(before) >= MAX_OBSERVERS:
        raise IllegalAction(f"旁观者已满（最多{MAX_OBSERVERS}人）")
    await _change(call, OBSERVERS_KEY, lambda ids: ids if me in ids else [*ids, me][:MAX_OBSERVERS])
    return [Reply.say(f"{call.name} 开始旁观")]


@ob.sub("exit", "leave", "退出", help="退出旁观")
async def ob_exit(call: Call) -> list[Reply]:
    me = call.ctx.user_id
    if me not in await _members(call, OBSERVERS_KEY):
        return [Reply.say(f"{call.name} 没有在旁观")]
    await _change(call, OBSERVERS_KEY, lambda ids: [x for x in ids if x != me])
    return [Reply.say(f"{call.name} 退出了旁观")]


@ob.sub("list", "ls", "列表", help="查看旁观者")
async def ob_list(call: Call) -> list[Reply]:
    ids = await _members(call, OBSERVERS_KEY)
    if not ids:
        return [Reply.say("本群没有旁观者")]
    return [Reply.say(f"本群旁观者（{len(ids)}人）：" + await _names(call, ids))]


@ob.sub("clr", "clear", perm=Perm.GM, what="清空旁观者", help="清空旁观者")
async def ob_clr(call: Call) -> list[Reply]:
    await _change(call, OBSERVERS_KEY, lambda ids: [])
    return [Reply.say("已清空本群旁观者")]


# ---------------------------------------------------------------------- .team
team = define(
    "team",
    summary="队伍：.team add @某人、.team call 召集、.team pick 随机抽人、.team st 体力-1、.team show 体力",
    detail="队伍按群保存；add/del/clr/st 需要GM；.team st 修改每位队员在本群使用的角色卡",
    group_only=True,
)


@team.sub("list", "ls", "列表", help="查看队伍", when_empty=True)
async def team_list(call: Call) -> list[Reply]:
    ids = await _members(call, TEAM_KEY)
    if not ids:
        return [Reply.say("本群队伍是空的（.team add @某人 添加）")]
    return [Reply.say(f"本群队伍（{len(ids)}人）：" + await _names(call, ids))]


@team.sub("add", params=[many("who", QQ, label="@某人")], perm=Perm.GM, what="管理队伍", help="加入队伍")
async def team_add(call: Call, who: list[str]) -> list[Reply]:
    want = list(dict.fromkeys(who))
    before = await _members(call, TEAM_KEY)
    new = [uid for uid in want if uid not in before]
    if not new:
        return [Reply.say("没有变化（都已在队伍中）")]
    if len(before) + len(new) > MAX_TEAM:
        raise IllegalAction(f"队伍最多{MAX_TEAM}人（现有{len(before)}人）")
    ids = await _change(call, TEAM_KEY, lambda ids: [*ids, *(u for u in want if u not in ids)][:MAX_TEAM])
    return [Reply.say(f"已加入队伍：{await _names(call, new)}（共{len(ids)}人）")]


@team.sub(
    "del", "rm", params=[many("who", QQ, label="@某人")], perm=Perm.GM, what="管理队伍", help="移出队伍"
)
async def team_del(call: Call, who: list[str]) -> list[Reply]:
    gone = [uid for uid in dict.fromkeys(who) if uid in await _members(call, TEAM_KEY)]
    if not gone:
        return [Reply.say("没有变化（都不在队伍中）")]
    ids = await _change(call, TEAM_KEY, lambda ids: [x for x in ids if x not in gone])
    return [Reply.say(f"已移出队伍：{await _names(call, gone)}（剩{len(ids)}人）")]


@team.sub("clr", "clear", perm=Perm.GM, what="清空队伍", help="清空队伍")
async def team_clr(call: Call) -> list[Reply]:
    await _change(call, TEAM_KEY, lambda ids: [])
    return [Reply.say("已清空本群队伍")]


async def _team_or_error(call: Call) -> list[str]:
    ids = await _members(call, TEAM_KEY)
    if not ids:
        raise IllegalAction("本群队伍是空的（.team add @某人 添加）")
    return ids


@team.sub("call", "召集", params=[rest("note", label="内容", max_len=100)], help="@队伍里的每个人")
async def team_call(call: Call, note: str) -> list[Reply]:
    ids = await _team_or_error(call)
    return [Reply(text=note or f"{call.name} 召集队伍！", mentions=tuple(ids))]


@team.sub(
    "pick", "抽取", params=[opt("n", Int(label="人数", min=1, max=MAX_TEAM))], help="随机抽取N名队员（默认1）"
)
async def team_pick(call: Call, n: int | None) -> list[Reply]:
    ids = await _team_or_error(call)
    count = n or 1
    if count > len(ids):
        raise IllegalAction(f"队伍只有{len(ids)}人，不能抽{count}人")
    pool = list(ids)
    for i in range(count):  # a partial Fisher–Yates shuffle: unbiased, from the injected rng
        j = call.app.rng.randint(i, len(pool) - 1)
        pool[i], pool[j] = pool[j], pool[i]
    return [Reply.say(f"从队伍中抽取{count}人：" + await _names(call, pool[:count]))]


@team.sub(
    "st",
    params=[arg("pairs", AttributePairs())],
    perm=Perm.GM,
    what="修改队员的角色卡",
    help="对每位队员在本群使用的角色卡执行 .st（如 .team st 体力-1）",
)
async def team_st(call: Call, pairs: list[Pair]) -> list[Reply]:
    ids = await _team_or_error(call)
    lines: list[str] = []
    for uid in ids:
        try:
            replies = await member_st(call, uid, pairs)
            lines.extend(r.text for r in replies)
        except ChronoDiceError as err:
            lines.append(f"{await call.app.display_name(call.ctx, uid)}：{err.message}")
    return [Reply.say("\n".join(lines))]


def _shown(char: CharacterRecord, mode: Any, name: str) -> str:
    """The value of ``name`` on ``char`` for ``.team show`` (a CoC derived value when not written)."""
    key = attribute_name(char.system, mode, name)
    if key in char.attributes:
        return str(char.attributes[key])
    found = derive(char.attributes, name) if char.system == "coc7" else None
    return str(found.value) if found is not None else "—"


@team.sub("show", params=[many("names", ATTR, label="属性")], help="并列显示每位队员的这些属性")
async def team_show(call: Call, names: list[str]) -> list[Reply]:
    ids = await _team_or_error(call)
    names = list(dict.fromkeys(names))[:MAX_SHOWN]
    mode = group_mode((await group_of(call)).settings)
    lines = []
    for uid in ids:
        who = await call.app.display_name(call.ctx, uid)
        try:
            char = await member_card(call, uid, "查看队员的属性", write=False)
        except ChronoDiceError as err:
            lines.append(f"{who}：{err.message}")
            continue
        if char is None:
            lines.append(f"{who}：没有角色卡")
            continue
        values = " ".join(f"{attribute_name(char.system, mode, w)}:{_shown(char, mode, w)}" for w in names)
        lines.append(f"{who} <{char.name}> {values}")
    return [Reply.say("\n".join(lines))]


__all__ = ["MAX_OBSERVERS", "MAX_TEAM", "ob", "spectators", "team", "team_members"]
