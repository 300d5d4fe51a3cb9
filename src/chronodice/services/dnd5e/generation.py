"""``.dnd``: ability scores for a new character — 4d6 drop the lowest, six per set (``.dnd 5``:
five sets, at most 10), the standard array (``.dnd 标准``), a point-buy check (``.dnd 购点 15 14
13 12 10 8``: 27 points, each score 8–15)."""

from __future__ import annotations

from chronodice.core.args import Int, many, opt
from chronodice.core.commands import Call, define
from chronodice.core.reply import Reply
from chronodice.rules.dnd5e.generation import (
    MAX_SETS,
    POINT_BUY_BUDGET,
    POINT_BUY_COST,
    STANDARD_ARRAY,
    point_buy_cost,
    roll_set,
)

from .common import SYS_NAME, dnd_only

dnd = dnd_only(
    define(
        "dnd",
        aliases=("dnd5e",),
        summary="DnD5e属性生成：.dnd [组数]、.dnd 标准、.dnd 购点 15 14 13 12 10 8",
        detail=(
            "4d6去掉最低的一颗，一组六个属性值；.dnd 5 生成5组（最多10组）\n"
            "标准数组 15 14 13 12 10 8；购点：每项8–15，共27点（9=1 10=2 11=3 12=4 13=5 14=7 15=9）\n"
            "DnD5e 模式（.set dnd5e）的指令：.rc 检定/豁免、.rs 豁免、.st 录卡（熟练*、体力）、.r d20+dex、"
            ".ri/.init/.ed 先攻、.atk 攻击、.ds 死亡豁免、.ss 法术位、.长休、.短休、.dnd 属性生成"
        ),
        system=SYS_NAME,
    )
)


@dnd.sub(
    params=[opt("sets", Int(label="组数", min=1, max=MAX_SETS), default=1)],
    help="4d6去低生成属性",
    when_empty=True,
)
async def cmd_dnd(call: Call, sets: int) -> list[Reply]:
    rolled = [roll_set(call.app.rng) for _ in range(sets)]
    head = f"{call.player_name} 的DnD5e属性（4d6去掉最低）："
    if sets == 1:
        scores = rolled[0]
        detail = " ".join(f"{s.total}[{','.join(map(str, s.dice))}]" for s in scores)
        return [Reply.say(f"{head}\n{detail}\n合计{sum(s.total for s in scores)}")]
    lines = [
        f"第{i}组：{' '.join(str(s.total) for s in scores)}（合计{sum(s.total for s in scores)}）"
        for i, scores in enumerate(rolled, 1)
    ]
    return [Reply.say(head + "\n" + "\n".join(lines))]


@dnd.sub("标准", "standard", "std", help="标准数组")
async def cmd_dnd_standard(call: Call) -> list[Reply]:
    return [Reply.say(f"标准数组：{' '.join(map(str, STANDARD_ARRAY))}（自行分配给六项属性）")]


@dnd.sub(
    "购点",
    "pointbuy",
    "buy",
    params=[many("scores", Int(label="属性值", min=1, max=30), required=False)],
    help="检查购点（27点，每项8–15）",
)
async def cmd_dnd_buy(call: Call, scores: list[int]) -> list[Reply]:
    if not scores:
        table = " ".join(f"{k}={v}" for k, v in POINT_BUY_COST.items())
        return [
            Reply.say(
                f"购点：每项8–15，共{POINT_BUY_BUDGET}点（{table}）；写 .dnd 购点 15 14 13 12 10 8 检查"
            )
        ]
    cost = point_buy_cost(scores)
    shown = " ".join(map(str, scores))
    if cost == POINT_BUY_BUDGET:
        verdict = f"正好{POINT_BUY_BUDGET}点，符合购点规则"
    elif cost > POINT_BUY_BUDGET:
        verdict = f"超出{cost - POINT_BUY_BUDGET}点，不符合购点规则"
    else:
        verdict = f"还剩{POINT_BUY_BUDGET - cost}点没用"
    return [Reply.say(f"购点 {shown}：共{cost}点，{verdict}")]


__all__ = ["dnd"]
