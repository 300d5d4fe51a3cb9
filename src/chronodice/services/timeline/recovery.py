"""Recovery outside the battle: ``.crd 休息`` (rest) and ``.heal`` (a 医学 check).

The rules and the readings where the book is silent are in
:mod:`chronodice.rules.timeline.recovery`.
"""

from __future__ import annotations

from typing import Any

from chronodice.core.args import Choice, Int, Mention, Num, Prefixed, arg, opt
from chronodice.core.commands import Call, define
from chronodice.core.reply import Reply
from chronodice.rules.timeline.character import TLCharacter
from chronodice.rules.timeline.recovery import healing, rest_gain
from chronodice.rules.timeline.rounding import fmt

from ._common import SYS_CN, active_tl, mutate_tl
from .characters import crd, crd_change, crd_target

ACTOR = opt("actor", Prefixed())
WHO = opt("who", Mention())
RESOURCE = Choice(
    {"体力": "hp", "hp": "hp", "体": "hp", "意志": "mp", "mp": "mp", "意": "mp"}, label="体力/意志"
)


@crd.sub(
    "休息",
    "rest",
    params=[ACTOR, WHO, opt("nights", Int(label="夜数", suffix=("夜", "晚", "天")))],
    help="休息：每夜恢复总意志的五分之一（不超过上限）",
)
async def crd_rest(call: Call, actor: str | None, who: str | None, nights: int | None) -> list[Reply]:
    rec, _ = await crd_target(call, actor, who)
    n = nights or 1

    def transition(c: TLCharacter) -> tuple[TLCharacter, tuple[float, float]]:
        from dataclasses import replace

        res = c.resources
        new = rest_gain(res.mp, res.mp_full, n)
        return replace(c, resources=replace(res, mp=new)), (res.mp, new)

    _, new, (old_v, new_v) = await mutate_tl(call, rec, transition)
    full = new.resources.mp_full
    return [
        Reply.say(
            f"{new.name}休息{n}夜：意志 {fmt(old_v)}→{fmt(new_v)}/{fmt(full)}"
            f"（每夜恢复总意志的1/5 = {fmt(round(full / 5, 1))}）"
        )
    ]


heal = define(
    "heal",
    aliases=("治疗",),
    summary="医学治疗：以需要恢复的数值为目标数值进行医学及生命科学检定，成功则恢复",
    detail=".heal 体力 30：治疗自己；.heal 甲: 体力 30 或 .heal @玩家 意志 20：治疗他人（由发送者的角色检定）",
    system=SYS_CN,
)


@heal.sub(
    params=[ACTOR, WHO, arg("resource", RESOURCE), arg("amount", Num(label="恢复数值", min=0))],
    help="医学检定治疗：目标数值 = 恢复数值，成功则恢复（不超过上限）",
)
async def cmd_heal(
    call: Call, actor: str | None, who: str | None, resource: str, amount: float
) -> list[Reply]:
    _, healer = await active_tl(call)
    rec, patient = await crd_target(call, actor, who)
    res = patient.resources
    current, full = getattr(res, resource), getattr(res, resource + "_full")
    plan = healing(healer.check("medicine"), amount, current, full)
    roll = call.app.rng.randint(1, 100)
    label = "体力" if resource == "hp" else "意志"
    lines = [
        f"{healer.name}为{patient.name}进行[医学及生命科学]治疗检定",
        f"恢复{label} {fmt(plan.amount)}（目标数值{fmt(plan.amount)}）",
        f"成功率：{plan.rate:.0f}%",
        f"检定：{roll}/{plan.rate:.0f}",
    ]
    if not plan.success(roll):
        return [Reply.say("\n".join([*lines, "❗️失败！未能恢复"]))]
    lines.append("🎉成功！")
    changed = await crd_change(call, rec, resource, plan.amount, None)
    return [Reply.say("\n".join(lines) + "\n" + "\n".join(r.text for r in changed))]


__all__: list[Any] = ["cmd_heal", "crd_rest"]
