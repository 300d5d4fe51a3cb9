"""``.coc`` (investigator generation), ``.ti`` / ``.li`` (bouts of madness), ``.setcoc`` (house rule)."""

from __future__ import annotations

from chronodice.core.args import Int, opt
from chronodice.core.commands import Call, define
from chronodice.core.reply import Reply
from chronodice.rules.coc7.checks import RULES
from chronodice.rules.coc7.generation import MAX_COUNT, generate
from chronodice.rules.coc7.madness import roll_bout

from ..views import update_settings
from ._common import SYS_NAME, call_settings, coc_gate, house_rule

coc = define(
    "coc",
    aliases=("coc7",),
    summary="CoC7人物作成：.coc 或 .coc 5（最多10组）",
    detail="力量 体质 敏捷 外貌 意志 幸运 3d6×5；体型 智力 教育 (2d6+6)×5；理智=意志，体力=(体质+体型)/10，魔法=意志/5",
    system=SYS_NAME,
)


@coc.sub(params=[opt("count", Int(label="组数", min=1, max=MAX_COUNT))], help="生成N组属性", when_empty=True)
async def cmd_coc(call: Call, count: int | None) -> list[Reply]:
    n = count or 1
    blocks = []
    for i in range(n):
        inv = generate(call.app.rng)
        stats = " ".join(f"{k}:{v}" for k, v in inv.values.items())
        d = inv.derived
        derived = f"理智:{d['理智']} 体力:{d['体力']} 魔法:{d['魔法']} 伤害加值:{d['伤害加值']} 体格:{d['体格']} 移动:{d['移动']}"
        prefix = f"{i + 1}. " if n > 1 else ""
        blocks.append(
            f"{prefix}{stats}\n总计:{inv.total}（含幸运{inv.total + inv.values['幸运']}） {derived}"
        )
    return [Reply.say(f"{call.name} 的CoC7人物作成：\n" + "\n".join(blocks))]


ti = define("ti", summary="临时疯狂症状（即时，1d10轮）", system=SYS_NAME)
li = define("li", summary="总结疯狂症状（略过，1d10小时）", system=SYS_NAME)


@ti.sub(help="抽取一条即时疯狂症状", when_empty=True)
async def cmd_ti(call: Call) -> list[Reply]:
    bout = roll_bout(call.app.rng, "ti")
    return [Reply.say(f"{call.name} 的疯狂发作（即时症状）：1d10={bout.entry}\n{bout.text}")]


@li.sub(help="抽取一条总结疯狂症状", when_empty=True)
async def cmd_li(call: Call) -> list[Reply]:
    bout = roll_bout(call.app.rng, "li")
    return [Reply.say(f"{call.name} 的疯狂发作（总结症状）：1d10={bout.entry}\n{bout.text}")]


setcoc = define("setcoc", summary="设置本群CoC房规（大成功/大失败范围，0-5）", system=SYS_NAME)


@setcoc.sub(
    params=[opt("rule", Int(label="房规", min=0, max=5))], help="不带参数则查看当前房规", when_empty=True
)
async def cmd_setcoc(call: Call, rule: int | None) -> list[Reply]:
    if rule is None:
        current = house_rule(await call_settings(call))
        table = "\n".join(f"{k}：{v}" for k, v in RULES.items())
        return [Reply.say(f"本群CoC房规：{current}（{RULES[current]}）\n可选：\n{table}")]
    if call.ctx.group_id is not None:
        await call.app.require_gm(call.ctx, "设置CoC房规")
    await update_settings(call, lambda s: {**s, "coc_rule": rule})
    return [Reply.say(f"已将本群CoC房规设为 {rule}：{RULES[rule]}")]


for _spec in (coc, ti, li, setcoc):
    coc_gate(_spec)

__all__ = ["coc", "li", "setcoc", "ti"]
