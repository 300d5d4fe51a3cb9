"""TimeLine modifiers on the active character: ``.buff`` (属性修饰) and ``.dr`` (资源变化修饰)."""

from __future__ import annotations

from collections.abc import Callable

from chronodice.core.commands import Call, command
from chronodice.core.errors import InputSyntaxError, NotFound
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline.attributes import GROUPS, lookup_range, range_covers
from chronodice.rules.timeline.character import (
    TLCharacter,
    add_buff,
    add_reduction,
    delete_buff,
    delete_reduction,
)
from chronodice.rules.timeline.modifiers import (
    BUFF_TYPE_CN,
    BUFF_USAGE,
    DR_USAGE,
    make_buff,
    make_reduction,
    parse_dr_range,
)
from chronodice.store import CharacterRecord

from ._common import SYS_CN, _active, _glued_alias, _index, _mutate


# ====================================================================== .buff / .dr
async def _delete(
    call: Call,
    rec: CharacterRecord,
    tokens: list[str],
    delete: Callable[[TLCharacter, int | None], TLCharacter],
    label: str,
) -> list[Reply]:
    """``del 序号/all`` of ``.buff`` and ``.dr``."""
    if len(tokens) < 2:
        raise call.usage_error("请给出序号或 all")
    which = None if tokens[1].lower() in ("all", "所有", "全部") else _index(tokens[1])
    await _mutate(call, rec, lambda c: (delete(c, which), None))
    return [Reply.say(f"删除所有{label}√" if which is None else f"删除{label} [{which}]√")]


@command(
    "buff",
    aliases=("bu", "buf"),
    usage=BUFF_USAGE + " | .buff [属性或范围] | .buff del 序号/all",
    summary="属性修饰：添加、列表、筛选、删除（叠加公式 F17）",
    detail="范围：11项属性之一，或 物理/思维/领域/所有；类型：1直接加算 2直接乘算 3最终加算 4最终乘算。",
    system=SYS_CN,
)
async def cmd_buff(call: Call) -> list[Reply]:
    if _glued_alias(call, ("del",)):
        return []
    rec, char = await _active(call)
    tokens = call.args.split()
    if not tokens:
        if not char.buffs:
            raise NotFound(f"{char.name}还没有buff×")
        rows = list(enumerate(char.buffs, 1))
        return [Reply.say(view.buff_rows(char.name, rows, f"{char.name}共有{len(rows)}个属性修饰"))]
    if tokens[0].lower() in ("del", "删除"):
        return await _delete(call, rec, tokens, delete_buff, "buff")
    if len(tokens) == 1:
        key = lookup_range(tokens[0])
        if key is None:
            raise InputSyntaxError(
                f"属性错误× 不存在属性[{tokens[0][:12]}] 属性范围可选：物理，思维，领域，所有"
            )
        members = GROUPS.get(key, (key,))
        rows = [
            (k, b)
            for k, b in enumerate(char.buffs, 1)
            if b.range == key or any(range_covers(b.range, m) for m in members)
        ]
        name = view.range_name(key)
        if not rows:
            return [Reply.say(f"{char.name}的[{name}]没有属性修饰")]
        return [Reply.say(view.buff_rows(char.name, rows, f"{char.name}的[{name}]共有{len(rows)}个属性修饰"))]
    if len(tokens) == 2:
        raise call.usage_error("参数不足")
    source, rng, value = tokens[0], tokens[1], tokens[2]
    kind = tokens[3] if len(tokens) > 3 else None
    buff = make_buff(source, rng, value, kind, char.level)
    await _mutate(call, rec, lambda c: (add_buff(c, buff), None))
    return [
        Reply.say(
            f"{char.name}增加buff[{buff.source}]√\n⚙{view.range_name(buff.range)} [{view.buff_value(buff)}] "
            f"{BUFF_TYPE_CN[buff.type]}"
        )
    ]


@command(
    "dr",
    aliases=("d",),
    usage=DR_USAGE + " | .dr [±范围] | .dr del 序号/all",
    summary="资源变化修饰（减伤、防御、治疗加成）：添加、列表、筛选、删除",
    detail="数值 n 为固定值，n% 为百分比，nd 为防御值（减免 D/(D+10×等级)）；伤害类型默认“所有”，对任何伤害生效。",
    system=SYS_CN,
)
async def cmd_dr(call: Call) -> list[Reply]:
    if _glued_alias(call, ("del", "hp", "mp", "all")):
        return []
    rec, char = await _active(call)
    tokens = call.args.split()
    if not tokens:
        if not char.reductions:
            raise NotFound(f"{char.name}没有资源变化修饰×")
        rows = list(enumerate(char.reductions, 1))
        return [Reply.say(view.reduction_rows(rows, f"{char.name}共有{len(rows)}个资源变化修饰"))]
    if tokens[0].lower() in ("del", "删除"):
        return await _delete(call, rec, tokens, delete_reduction, "资源变化修饰")
    if len(tokens) == 1:
        key = parse_dr_range(tokens[0])
        if key is None:
            raise InputSyntaxError(f"范围错误× 不存在范围 [{tokens[0][:10]}] 范围可选：(+/-)(hp/mp/all)")
        sign, res = key[0], key[1:]
        rows = [
            (k, r)
            for k, r in enumerate(char.reductions, 1)
            if r.range[0] == sign and (res == "all" or r.range[1:] in (res, "all"))
        ]
        if not rows:
            return [Reply.say(f"{char.name}的[{key}]没有资源变化修饰")]
        return [Reply.say(view.reduction_rows(rows, f"{char.name}的[{key}]共有{len(rows)}个资源变化修饰"))]
    if len(tokens) == 2:
        raise call.usage_error("参数不足")
    row = make_reduction(tokens[0], tokens[1], tokens[2], tokens[3] if len(tokens) > 3 else None)
    await _mutate(call, rec, lambda c: (add_reduction(c, row), None))
    return [Reply.say(f"{char.name}增加资源变化修饰 [{row.source}]√\n{view.reduction_line(row)}")]
