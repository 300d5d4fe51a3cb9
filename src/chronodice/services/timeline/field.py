"""The battle field: ``.dist`` (box distance, the windup to move there, the weapon's range).

The rules and the readings where the book is silent are in
:mod:`chronodice.rules.timeline.movement`.
"""

from __future__ import annotations

from chronodice.core.args import Num, many
from chronodice.core.commands import Call, define
from chronodice.core.errors import NotFound
from chronodice.core.reply import Reply
from chronodice.rules.timeline.movement import box_distance, move_windup, range_check
from chronodice.rules.timeline.rounding import fmt

from ._common import SYS_CN, SYSTEM, load_tl

dist = define(
    "dist",
    aliases=("距离",),
    summary="战斗方盒距离：√(长²+宽²+高²)，移动所需前摇与武器射程",
    detail=".dist 3 4 12 → 13.0D；有角色卡时给出以敏捷移动该距离的前摇（.bat 敏捷 13 移动）和当前武器是否够得着",
    system=SYS_CN,
)


@dist.sub(
    params=[many("sides", Num(label="边长", signed=False, max=1e6), required=True)],
    help="距离（1到3个边长，单位D）、移动前摇、射程",
)
async def cmd_dist(call: Call, sides: list[float]) -> list[Reply]:
    d = box_distance(*sides)
    shown = "²+".join(f"{s:g}" for s in sides)
    lines = [f"距离：√({shown}²) = {fmt(d)}D"]
    rec = await call.app.store.characters.active_character(call.ctx.user_id, call.ctx.scope)
    if rec is None or rec.system != SYSTEM or SYSTEM not in rec.data:
        return [Reply.say("\n".join(lines))]
    char = load_tl(rec)
    dex = char.check("dexterity")
    if dex > 0:
        lines.append(
            f"{char.name}以敏捷{fmt(dex)}移动{fmt(d)}D：前摇{fmt(move_windup(d, dex))}t（.bat 敏捷 {fmt(d)} 移动）"
        )
    try:
        weapon = char.weapon()
        name, check = weapon.name, range_check(d, weapon.range)
    except NotFound:
        name, check = "徒手", range_check(d, None)
    if check.in_range is None:
        lines.append(f"[{name}]射程「{weapon.range or '未填写'}」无法计算，由主持人判定")
    elif check.in_range:
        lines.append(f"[{name}]射程{fmt(check.reach or 0)}D，够得着√")
    else:
        lines.append(
            f"[{name}]射程{fmt(check.reach or 0)}D，够不着×（差{fmt(round(d - (check.reach or 0), 1))}D）"
        )
    return [Reply.say("\n".join(lines))]
