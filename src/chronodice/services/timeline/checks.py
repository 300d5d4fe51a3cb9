"""TimeLine checks and group options: ``.tar`` (目标数值), ``.ex`` (属性检定), ``.neg`` (交涉),
``.pre`` (前摇/影响数值), the additions ``.coop`` (协同), ``.opp`` (对抗), ``.clash`` (交互) and
``.tlconf`` (group settings).

The target value, the negotiation counterpart and the options live in the group settings
under ``"timeline"`` (see :mod:`._common`).
"""

from __future__ import annotations

import re

from chronodice.core.commands import Call, command
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.attributes import CN, lookup_attribute
from chronodice.rules.timeline.character import TLCharacter
from chronodice.rules.timeline.checks import (
    check_rate,
    cooperative_rate,
    impact_for,
    interaction,
    negotiation_rate,
    opposed_winner,
    ratio,
    roll_check,
    sheet_windup,
    target_value,
    windup,
)
from chronodice.rules.timeline.rounding import fmt, r0

from ._common import (
    SYS_CN,
    SYSTEM,
    _active,
    _attr,
    _battle,
    _display,
    _find_named,
    _glued_alias,
    _index,
    _load,
    _num,
    _require_gm_unless_open,
    _settings,
    _split_attr_amount,
    _target,
    _update_settings,
)


# ====================================================================== .tar / .ex / .neg / .pre
@command(
    "tar",
    aliases=("ta",),
    usage=".tar | .tar 目标数值 | .tar 等级 难度 | .tar 等级d（随机难度1d20）",
    summary="查看或设定本群目标数值（设定默认仅GM）",
    system=SYS_CN,
)
async def cmd_tar(call: Call) -> list[Reply]:
    if _glued_alias(call):
        return []
    tokens = call.args.split()
    if not tokens:
        target = (await _settings(call)).get("target")
        return [Reply.say(f"目标数值: {target}" if target else "未设定目标数值×")]
    await _require_gm_unless_open(call, "设定目标数值")
    prefix = ""
    if len(tokens) == 1 and tokens[0][-1:] in ("d", "D"):
        level = _num(tokens[0][:-1])
        if level is None or level <= 0:
            raise call.usage_error("指令错误× 请正确输入.tar指令!")
        roll = call.app.rng.randint(1, 20)
        prefix = f"随机难度：{roll}\n"
        value = target_value(level, roll)
    elif len(tokens) in (1, 2):
        nums = [_num(t) for t in tokens]
        if any(n is None or n <= 0 for n in nums):
            raise call.usage_error("指令错误× 目标数值、等级和难度应为正数")
        value = round(nums[0]) if len(nums) == 1 else target_value(nums[0], nums[1])  # type: ignore[arg-type]
    else:
        raise call.usage_error("指令错误× 请正确输入.tar指令!")
    if not 0 < value <= 10**9:
        raise IllegalAction("目标数值应为正数（最多10亿）")
    await _update_settings(call, lambda s: {**s, "target": value})
    return [Reply.say(f"{prefix}已设定目标数值为{value}√")]


def _check_lines(
    name: str,
    attr: str,
    value: float,
    buffed: bool,
    target: int,
    rate: float,
    roll: int,
    display: view.Display,
) -> list[str]:
    r = ratio(roll, rate)
    shown = display.rate(rate)
    return [
        f"{name}进行[{CN[attr]}]检定",
        f"目标{target} 比值{'[↑]' if buffed else ''}{fmt(value)}/{5 * target}",
        f"成功率：{shown}%",
        f"检定：{roll}/{shown} ({'∞' if r == float('inf') else f'{r:g}'})",
        "🎉成功！" if roll <= rate else "❗️失败！",
    ]


@command("ex", usage=".ex 属性", summary="属性检定（成功率=属性/(5×目标数值)）", system=SYS_CN)
async def cmd_ex(call: Call) -> list[Reply]:
    if _glued_alias(call, tuple(CN)):
        return []
    if not call.args:
        raise call.usage_error("请给出属性")
    target = await _target(call)
    _, char = await _active(call)
    attr = _attr(call.args.split()[0])
    value = char.check(attr)
    rate = check_rate(value, target)
    result = roll_check(rate, call.app.rng)
    lines = _check_lines(
        char.name, attr, value, bool(char.buffs), target, rate, result.roll, await _display(call)
    )
    return [Reply.say("\n".join(lines))]


@command(
    "neg",
    aliases=("ne",),
    usage=".neg RP | .neg 对象等级 对象智力% | .neg RP 对象等级 对象智力%",
    summary="交涉检定（RP评分 + 交涉加成，对象等级和智力%）",
    system=SYS_CN,
)
async def cmd_neg(call: Call) -> list[Reply]:
    if _glued_alias(call):
        return []
    tokens = call.args.split()
    nums = [_num(t) for t in tokens]
    if any(n is None for n in nums) or len(tokens) > 3:
        raise call.usage_error("参数应为数字")
    stored = (await _settings(call)).get("neg")
    if len(nums) in (2, 3):
        level, intel = r0(nums[-2]), r0(nums[-1])  # type: ignore[arg-type]
        if level <= 0 or intel <= 0:
            raise IllegalAction("交涉对象的等级和智力%都应大于0")
        stored = {"level": level, "int": intel}
        await _update_settings(call, lambda s: {**s, "neg": stored})
        if len(nums) == 2:
            return [Reply.say("已设定交涉对象！")]
    if not stored:
        raise IllegalAction("没有交涉对象！ 请先用 .neg 对象等级 对象智力% 设定")
    if not nums:
        raise call.usage_error("请正确输入.ne指令！")
    rp = nums[0]
    assert rp is not None
    _, char = await _active(call)
    rate = negotiation_rate(rp, char.derived().negotiation_bonus, char.level, stored["level"], stored["int"])
    roll = call.app.rng.randint(1, 100)
    return [
        Reply.say(
            f"[{char.name}]进行交涉检定\nRP：{r0(rp):.0f}\n成功率：{rate:.0f}%\n检定：{roll}/{rate:.0f}\n"
            + ("🎉成功！" if roll <= rate else "❗️失败！")
        )
    ]


@command(
    "pre",
    aliases=("pr",),
    usage=".pre 属性 影响数值 | .pre 属性 前摇t",
    summary="前摇/影响数值计算（不记录）",
    system=SYS_CN,
)
async def cmd_pre(call: Call) -> list[Reply]:
    if _glued_alias(call):
        return []
    attr, impact, time, _ = _split_attr_amount(call.args.split(), call.spec.usage if call.spec else "")
    _, char = await _active(call)
    value = char.check(attr)
    display = await _display(call)
    if impact is not None:
        t, i = windup(impact, value), impact
        shown = str(sheet_windup(impact, value)) if display.sheet else fmt(t)
    else:
        assert time is not None
        t, i = time, impact_for(time, value)
        shown = display.windup(t)
    return [
        Reply.say(
            f"{char.name}: \n{CN[attr]}: {fmt(value)}{' [↑]' if char.buffs else ''}\n"
            f"影响数值: {fmt(i)}\n时间: {shown}"
        )
    ]


# ====================================================================== new checks
async def _participant_chars(call: Call, names: list[str]) -> list[tuple[str, TLCharacter]]:
    """Characters named by @ mentions (their active one) and by name (own or in the battle)."""
    store, ctx = call.app.store, call.ctx
    out: list[tuple[str, TLCharacter]] = []
    for uid in ctx.at_ids:
        rec = await store.active_character(uid, ctx.scope)
        if rec is None or rec.system != SYSTEM:
            chars = await store.list_characters(uid, system=SYSTEM)
            if len(chars) != 1:
                raise NotFound(f"{uid}没有可用的时间线角色")
            rec = chars[0]
        out.append((rec.name, _load(rec)))
    for name in names:
        rec = await _find_named(call, name)
        out.append((rec.name, _load(rec)))
    return out


@command(
    "coop",
    aliases=("协同",),
    usage=".coop 属性 [@玩家…] [角色名…] [数值…]",
    summary="协同检定：相关属性相加后 /(5×目标数值)",
    detail="发起者的当前角色自动参加；@玩家 用其当前角色；也可写角色名或直接写数值（如NPC的 80）。",
    system=SYS_CN,
)
async def cmd_coop(call: Call) -> list[Reply]:
    tokens = call.args.split()
    if not tokens:
        raise call.usage_error("请给出属性")
    target = await _target(call)
    attr = _attr(tokens[0])
    _, own = await _active(call)
    parts: list[tuple[str, float]] = [(own.name, own.check(attr))]
    names = [t for t in tokens[1:] if _num(t) is None]
    parts += [(n, c.check(attr)) for n, c in await _participant_chars(call, names)]
    parts += [("数值", float(n)) for t in tokens[1:] if (n := _num(t)) is not None]
    if len(parts) < 2:
        raise call.usage_error("协同检定至少需要两个参与者")
    total = sum(v for _, v in parts)
    rate = cooperative_rate([v for _, v in parts], target)
    roll = roll_check(rate, call.app.rng)
    display = await _display(call)
    shown = display.rate(rate)
    lines = [
        f"协同检定[{CN[attr]}]："
        + " + ".join(f"{n} {fmt(v)}" for n, v in parts)
        + f" = {fmt(round(total, 2))}",
        f"目标{target} 比值{fmt(round(total, 2))}/{5 * target}",
        f"成功率：{shown}%",
        f"检定：{roll.roll}/{shown}",
        "🎉成功！" if roll.success else "❗️失败！",
    ]
    return [Reply.say("\n".join(lines))]


_RATIO = re.compile(r"^(\d+)/(\d+(?:\.\d+)?)%?$")


@command(
    "opp",
    aliases=("对抗",),
    usage=".opp 属性 @对手|角色名 [对手属性] | .opp 骰值/成功率 骰值/成功率",
    summary="对抗检定：双方以同一目标数值检定，骰值/成功率比值小者胜",
    system=SYS_CN,
)
async def cmd_opp(call: Call) -> list[Reply]:
    tokens = call.args.split()
    ratios = [_RATIO.match(t) for t in tokens]
    if len(tokens) == 2 and all(ratios):
        a, b = (ratio(int(m.group(1)), float(m.group(2))) for m in ratios if m)
        winner = opposed_winner(a, b)
        verdict = {"a": "前者胜出", "b": "后者胜出", "tie": "比值相同，平局，由主持人裁定"}[winner]
        return [Reply.say(f"对抗：{tokens[0]} = {a:g}，{tokens[1]} = {b:g}\n比值小者胜 → {verdict}")]
    if not tokens:
        raise call.usage_error("请给出属性和对手")
    target = await _target(call)
    attr = _attr(tokens[0])
    rest = tokens[1:]
    other_attr = attr
    if rest and lookup_attribute(rest[-1]) is not None and (len(rest) > 1 or call.ctx.at_ids):
        other_attr = _attr(rest[-1])
        rest = rest[:-1]
    _, me = await _active(call)
    others = await _participant_chars(call, rest)
    if len(others) != 1:
        raise call.usage_error("请用@或角色名指定一个对手")
    other_name, other = others[0]
    display = await _display(call)
    rows = []
    for name, char, key in ((me.name, me, attr), (other_name, other, other_attr)):
        rate = check_rate(char.check(key), target)
        res = roll_check(rate, call.app.rng)
        rows.append((name, key, rate, res))
    shown = [
        f"{n}[{CN[k]}] 成功率{display.rate(rate)}% 检定{res.roll}/{display.rate(rate)} "
        f"({'∞' if res.ratio == float('inf') else f'{res.ratio:g}'})"
        for n, k, rate, res in rows
    ]
    winner = opposed_winner(rows[0][3].ratio, rows[1][3].ratio)
    verdict = (
        "比值相同，平局，由主持人裁定" if winner == "tie" else f"{rows[0 if winner == 'a' else 1][0]}胜出"
    )
    return [Reply.say("\n".join([f"对抗检定 目标{target}", *shown, f"比值小者胜 → {verdict}"]))]


@command(
    "clash",
    aliases=("交互",),
    usage=".clash 影响数值 影响数值 | .clash #行动 #行动",
    summary="交互（打断/闪避/招架）：大者的影响数值减去小者",
    system=SYS_CN,
)
async def cmd_clash(call: Call) -> list[Reply]:
    tokens = call.args.replace("#", " #").split()
    if len(tokens) != 2:
        raise call.usage_error("需要两个影响数值或两个行动编号")
    if all(t.startswith("#") for t in tokens):
        state = await _battle(call)
        acts = [state.action(_index(t[1:])) for t in tokens]
        names = [(state.participant(a.key) or bt.Participant(a.key, a.key, "", 0)).name for a in acts]
        values = [a.impact for a in acts]
        winner, left = interaction(values[0], values[1])
        lines = [
            f"交互：{names[0]}#{acts[0].id} {fmt(values[0])} vs {names[1]}#{acts[1].id} {fmt(values[1])}"
        ]
        if not bt.interacts(acts[0], acts[1]):
            lines.append(
                f"注意：两个行动在时间上不重叠（{fmt(acts[0].start)}→{fmt(acts[0].end)}t 与 "
                f"{fmt(acts[1].start)}→{fmt(acts[1].end)}t），按规则不构成交互"
            )
    else:
        nums = [_num(t) for t in tokens]
        if any(n is None or n < 0 for n in nums):
            raise call.usage_error("影响数值应为非负数")
        values = [float(n) for n in nums if n is not None]
        names = ["前者", "后者"]
        winner, left = interaction(values[0], values[1])
        lines = [f"交互：{fmt(values[0])} vs {fmt(values[1])}"]
    if winner == "tie":
        lines.append("影响数值相同，相互抵消（影响 0）")
    else:
        lines.append(f"→ {names[0 if winner == 'a' else 1]}胜出，最终造成 {fmt(left)}")
    return [Reply.say("\n".join(lines))]


@command(
    "tlconf",
    usage=".tlconf [open 开/关] [sheet 开/关]",
    summary="时间线群设置：open=设目标/结束战斗/代他人行动对所有人开放；sheet=按人物卡显示（整数前摇、成功率封顶100%）",
    system=SYS_CN,
)
async def cmd_tlconf(call: Call) -> list[Reply]:
    tokens = call.args.split()
    names = {"open": "open", "开放": "open", "sheet": "sheet", "表格": "sheet", "人物卡": "sheet"}
    values = {"on": True, "开": True, "1": True, "off": False, "关": False, "0": False}
    if tokens:
        await call.app.require_gm(call.ctx, "修改时间线设置")
        if len(tokens) % 2 or any(names.get(k.lower()) is None for k in tokens[::2]):
            raise call.usage_error("无法理解的设置")
        if any(values.get(v.lower()) is None for v in tokens[1::2]):
            raise call.usage_error("设置值应为 开/关（on/off）")
        changes = {
            names[k.lower()]: values[v.lower()] for k, v in zip(tokens[::2], tokens[1::2], strict=True)
        }
        await _update_settings(call, lambda s: {**s, **changes})
    s = await _settings(call)
    return [
        Reply.say(
            f"时间线设置：\nopen（设目标/结束战斗/代他人行动对所有人开放）：{'开' if s.get('open') else '关'}\n"
            f"sheet（按人物卡显示：整数前摇、成功率封顶100%）：{'开' if s.get('sheet') else '关'}"
        )
    ]
