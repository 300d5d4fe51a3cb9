"""TimeLine modifiers on the active character: ``.buff`` (属性修饰) and ``.dr`` (资源变化修饰)."""

from __future__ import annotations

from collections.abc import Callable

from chronodice.core.args import Choice, Int, OneOf, Param, arg, opt
from chronodice.core.commands import Call, define
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
from chronodice.rules.timeline.mayuri_order import typed_plain
from chronodice.rules.timeline.modifiers import (
    BUFF_TYPE_CN,
    BUFF_USAGE,
    DR_USAGE,
    make_buff,
    make_reduction,
    parse_dr_range,
)

from ._common import SYS_CN, active_tl, mutate_tl
from .kinds import Token

# ====================================================================== .buff / .dr
ALL = "all"
WHICH = arg(
    "which",
    OneOf(Choice({"all": ALL, "所有": ALL, "全部": ALL}), Int(label="序号")),
    label="序号或all",
)
DEL_WORDS = ("del", "删除")


async def _delete(
    call: Call,
    which: int | str,
    delete: Callable[[TLCharacter, int | None], TLCharacter],
    label: str,
) -> list[Reply]:
    """``del 序号/all`` of ``.buff`` and ``.dr``."""
    rec, _ = await active_tl(call)
    index = None if which == ALL else int(which)
    await mutate_tl(call, rec, lambda c: (delete(c, index), None))
    return [Reply.say(f"删除所有{label}√" if index is None else f"删除{label} [{index}]√")]


def _add_params(first: str, second: str, fourth: str) -> list[Param]:
    return [
        arg("source", Token(label=first, refuse=DEL_WORDS, max_len=20)),
        opt("range", Token(label=second, max_len=20)),
        opt("value", Token(label="数值", max_len=20)),
        opt("kind", Token(label=fourth, max_len=20)),
    ]


buff = define(
    "buff",
    aliases=("bu", "buf"),
    summary="属性修饰：添加、列表、筛选、删除（叠加公式 F17）",
    detail=(
        "格式：" + BUFF_USAGE + "\n"
        "范围：11项属性之一，或 物理/思维/领域/所有；类型：1直接加算 2直接乘算 3最终加算 4最终乘算。\n"
        ".buff 列出全部；.buff 属性或范围 只列出作用于它的修饰。"
    ),
    system=SYS_CN,
)


@buff.sub(
    params=_add_params("来源或范围", "属性或范围", "类型1-4"),
    help="添加：来源 属性或范围 数值(n/n%/nd) [类型]；只写属性或范围则筛选",
)
async def cmd_buff(
    call: Call, source: str, range: str | None, value: str | None, kind: str | None
) -> list[Reply]:
    rec, char = await active_tl(call)
    if range is None:
        key = lookup_range(source)
        if key is None:
            raise InputSyntaxError(
                f"属性错误× 不存在属性[{source[:12]}] 属性范围可选：物理，思维，领域，所有"
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
    if value is None:
        raise call.usage_error("参数不足")
    new = make_buff(source, range, value, kind, char.level)
    await mutate_tl(call, rec, lambda c: (add_buff(c, new, typed_plain(value)), None))
    return [
        Reply.say(
            f"{char.name}增加buff[{new.source}]√\n⚙{view.range_name(new.range)} [{view.buff_value(new)}] "
            f"{BUFF_TYPE_CN[new.type]}"
        )
    ]


@buff.sub("list", "列表", help="列出全部属性修饰", when_empty=True)
async def buff_list(call: Call) -> list[Reply]:
    _, char = await active_tl(call)
    if not char.buffs:
        raise NotFound(f"{char.name}还没有buff×")
    rows = list(enumerate(char.buffs, 1))
    return [Reply.say(view.buff_rows(char.name, rows, f"{char.name}共有{len(rows)}个属性修饰"))]


@buff.sub(*DEL_WORDS, params=[WHICH], help="删除一个或全部（all）属性修饰")
async def buff_del(call: Call, which: int | str) -> list[Reply]:
    return await _delete(call, which, delete_buff, "buff")


dr = define(
    "dr",
    aliases=("d",),
    summary="资源变化修饰（减伤、防御、治疗加成）：添加、列表、筛选、删除",
    detail=(
        "格式：" + DR_USAGE + "\n"
        "数值 n 为固定值，n% 为百分比，nd 为防御值（减免 D/(D+10×等级)）；伤害类型默认“所有”，对任何伤害生效。\n"
        ".dr 列出全部；.dr ±范围（如 -hp）只列出该范围。"
    ),
    system=SYS_CN,
)


@dr.sub(
    params=_add_params("来源或范围", "(+/-)(hp/mp/all)", "伤害类型"),
    help="添加：来源 (+/-)(hp/mp/all) 数值(n/n%/nd) [伤害类型]；只写±范围则筛选",
)
async def cmd_dr(
    call: Call, source: str, range: str | None, value: str | None, kind: str | None
) -> list[Reply]:
    rec, char = await active_tl(call)
    if range is None:
        key = parse_dr_range(source)
        if key is None:
            raise InputSyntaxError(f"范围错误× 不存在范围 [{source[:10]}] 范围可选：(+/-)(hp/mp/all)")
        sign, res = key[0], key[1:]
        rows = [
            (k, r)
            for k, r in enumerate(char.reductions, 1)
            if r.range[0] == sign and (res == "all" or r.range[1:] in (res, "all"))
        ]
        if not rows:
            return [Reply.say(f"{char.name}的[{key}]没有资源变化修饰")]
        return [Reply.say(view.reduction_rows(rows, f"{char.name}的[{key}]共有{len(rows)}个资源变化修饰"))]
    if value is None:
        raise call.usage_error("参数不足")
    row = make_reduction(source, range, value, kind)
    await mutate_tl(call, rec, lambda c: (add_reduction(c, row), None))
    return [Reply.say(f"{char.name}增加资源变化修饰 [{row.source}]√\n{view.reduction_line(row)}")]


@dr.sub("list", "列表", help="列出全部资源变化修饰", when_empty=True)
async def dr_list(call: Call) -> list[Reply]:
    _, char = await active_tl(call)
    if not char.reductions:
        raise NotFound(f"{char.name}没有资源变化修饰×")
    rows = list(enumerate(char.reductions, 1))
    return [Reply.say(view.reduction_rows(rows, f"{char.name}共有{len(rows)}个资源变化修饰"))]


@dr.sub(*DEL_WORDS, params=[WHICH], help="删除一个或全部（all）资源变化修饰")
async def dr_del(call: Call, which: int | str) -> list[Reply]:
    return await _delete(call, which, delete_reduction, "资源变化修饰")
