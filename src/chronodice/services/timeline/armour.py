"""``.armor`` (护甲): armour that gives extra 体力 above the sheet's maximum and weighs on 负重.

The rule and its reading are in :mod:`chronodice.rules.timeline.armour`.
"""

from __future__ import annotations

from dataclasses import replace

from chronodice.core.args import Int, Name, Num, arg
from chronodice.core.commands import Call, define
from chronodice.core.reply import Reply
from chronodice.rules.timeline.armour import armour_of, put_on, take_off
from chronodice.rules.timeline.character import TLCharacter
from chronodice.rules.timeline.load import overload_note
from chronodice.rules.timeline.rounding import fmt, r1
from chronodice.rules.timeline.sheet import recompute_resources

from ._common import SYS_CN, active_tl, mutate_tl

armor = define(
    "armor",
    aliases=("armour", "护甲"),
    summary="护甲：额外体力（可超过人物卡上限）与负重",
    detail=".armor 皮甲 30 20：穿上皮甲，体力+30（上限与当前都加），负重+20；.armor del 1 脱下",
    system=SYS_CN,
)


def _status(c: TLCharacter) -> list[str]:
    d, res = c.derived(), c.resources
    lines = [
        f"体力 {fmt(res.hp)}/{fmt(res.hp_full)}  负重 {fmt(d.carried)}/{fmt(d.max_load)}  敏捷 {fmt(c.check('dexterity'))}"
    ]
    if note := overload_note(d):
        lines.append(note)
    return lines


@armor.sub("list", "查看", when_empty=True, help="查看护甲")
async def armor_list(call: Call) -> list[Reply]:
    _, char = await active_tl(call)
    pieces = armour_of(char.extra)
    if not pieces:
        return [Reply.say(f"{char.name}没有护甲")]
    rows = [f"[{k}] {a.name} 体力+{fmt(a.hp)} 负重{fmt(a.weight)}" for k, a in enumerate(pieces, 1)]
    return [Reply.say("\n".join([f"{char.name}的护甲：", *rows, *_status(char)]))]


@armor.sub("del", "删除", "脱下", params=[arg("index", Int(label="序号", min=1))], help="脱下护甲")
async def armor_del(call: Call, index: int) -> list[Reply]:
    rec, _ = await active_tl(call)

    def transition(c: TLCharacter) -> tuple[TLCharacter, str]:
        extra, gone = take_off(c.extra, index)
        new = replace(c, extra=extra)
        return replace(new, resources=recompute_resources(c.resources, new.derived())), gone.name

    _, new, name = await mutate_tl(call, rec, transition)
    return [Reply.say("\n".join([f"{new.name}脱下护甲[{name}]√", *_status(new)]))]


@armor.sub(
    params=[
        arg("name", Name(label="护甲名")),
        arg("hp", Num(label="额外体力", signed=False)),
        arg("weight", Num(label="负重", signed=False)),
    ],
    help="穿上护甲：名称 额外体力 负重",
)
async def armor_add(call: Call, name: str, hp: float, weight: float) -> list[Reply]:
    rec, _ = await active_tl(call)

    def transition(c: TLCharacter) -> tuple[TLCharacter, None]:
        old = {a.name: a.hp for a in armour_of(c.extra)}.get(name[:12], 0.0)
        extra, piece = put_on(c.extra, name[:12], hp, weight)
        new = replace(c, extra=extra)
        res = recompute_resources(c.resources, new.derived())
        res = replace(res, hp=min(res.hp_full, r1(res.hp + piece.hp - old)))
        return replace(new, resources=res), None

    _, new, _ = await mutate_tl(call, rec, transition)
    return [Reply.say("\n".join([f"{new.name}穿上护甲[{name[:12]}]√ 体力+{fmt(hp)}", *_status(new)]))]
