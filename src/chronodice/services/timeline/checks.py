"""TimeLine checks and group options: ``.tar`` (目标数值), ``.ex`` (属性检定), ``.neg`` (交涉),
``.pre`` (前摇/影响数值), the additions ``.coop`` (协同), ``.opp`` (对抗), ``.clash`` (交互) and
``.tlconf`` (group settings).

The target value, the negotiation counterpart and the options live in the group settings
under ``"timeline"`` (see :mod:`._common`).
"""

from __future__ import annotations

from chronodice.core.args import Flag, Mention, OneOf, arg, many, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.permissions import Perm, become_gm
from chronodice.core.reply import CheckNote, Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import interactions as ix
from chronodice.rules.timeline.attributes import CN, lookup_attribute
from chronodice.rules.timeline.character import TLCharacter
from chronodice.rules.timeline.checks import (
    check_rate,
    cooperative_rate,
    impact_for,
    interaction,
    negotiation_rate,
    negotiation_success,
    opposed_winner,
    ratio,
    roll_check,
    sheet_windup,
    target_value,
    windup,
)
from chronodice.rules.timeline.rounding import fmt, r0
from chronodice.services.card_access import member_card

from ._common import (
    SYS_CN,
    SYSTEM,
    active_tl,
    display_of,
    find_named,
    load_tl,
    require_unless_open,
    running_battle,
    tl_settings,
    tl_target,
    update_tl_settings,
)
from .kinds import (
    ACTION_REF,
    RANDOM_LEVEL,
    RATIO,
    Action,
    ActionKind,
    ActionRef,
    Attribute,
    Number,
    OnOff,
    RandomLevel,
    Ratio,
    Token,
)

# ====================================================================== .tar / .ex / .neg / .pre
ATTR = arg("attr", Attribute())

tar = define(
    "tar",
    aliases=("ta",),
    summary="查看或设定本群目标数值（设定默认仅GM）",
    detail="设定：.tar 目标数值 | .tar 等级 难度 | .tar 等级d（随机难度1d20）",
    system=SYS_CN,
)


@tar.sub("查看", "show", help="查看本群目标数值", when_empty=True)
async def tar_show(call: Call) -> list[Reply]:
    target = (await tl_settings(call)).get("target")
    return [Reply.say(f"目标数值: {target}" if target else "未设定目标数值×")]


@tar.sub(
    params=[
        arg("level", OneOf(RANDOM_LEVEL, Number()), label="目标数值或等级"),
        opt("difficulty", Number(label="难度")),
    ],
    help="设定目标数值：目标数值 | 等级 难度 | 等级d（随机难度1d20）",
)
async def tar_set(call: Call, level: float | RandomLevel, difficulty: float | None) -> list[Reply]:
    await require_unless_open(call, "设定目标数值")
    prefix = ""
    if isinstance(level, RandomLevel):
        if level.level <= 0 or difficulty is not None:
            raise call.usage_error("指令错误× 请正确输入.tar指令!")
        roll = call.app.rng.randint(1, 20)
        prefix = f"随机难度：{roll}\n"
        value = target_value(level.level, roll)
    else:
        if level <= 0 or (difficulty is not None and difficulty <= 0):
            raise call.usage_error("指令错误× 目标数值、等级和难度应为正数")
        value = round(level) if difficulty is None else target_value(level, difficulty)
    if not 0 < value <= 10**9:
        raise IllegalAction("目标数值应为正数（最多10亿）")
    await update_tl_settings(call, lambda s: {**s, "target": value})
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


ex = define("ex", summary="属性检定（成功率=属性/(5×目标数值)）", system=SYS_CN)


@ex.sub(params=[ATTR], help="属性检定（需先由GM用 .tar 设定目标数值）")
async def cmd_ex(call: Call, attr: str) -> list[Reply]:
    target = await tl_target(call)
    _, char = await active_tl(call)
    value = char.check(attr)
    rate = check_rate(value, target)
    result = roll_check(rate, call.app.rng)
    lines = _check_lines(
        char.name, attr, value, bool(char.buffs), target, rate, result.roll, await display_of(call)
    )
    ok = result.roll <= rate
    note = CheckNote(
        CN[attr], "成功" if ok else "失败", ok, rule=SYSTEM, items=(("D100", CN[attr], result.roll),)
    )
    return [Reply(text="\n".join(lines), check=note)]


neg = define(
    "neg",
    aliases=("ne",),
    summary="交涉检定（RP评分 + 交涉加成，对象等级和智力%）",
    detail=".neg RP：检定；.neg 对象等级 对象智力%：设定交涉对象；.neg RP 对象等级 对象智力%：设定并检定",
    system=SYS_CN,
)


@neg.sub(
    params=[
        opt("a", Number(), label="RP"),
        opt("b", Number(), label="对象等级"),
        opt("c", Number(), label="对象智力%"),
    ],
    help="交涉检定，或设定交涉对象",
    when_empty=True,
)
async def cmd_neg(call: Call, a: float | None, b: float | None, c: float | None) -> list[Reply]:
    nums = [n for n in (a, b, c) if n is not None]
    stored = (await tl_settings(call)).get("neg")
    if len(nums) in (2, 3):
        level, intel = r0(nums[-2]), r0(nums[-1])
        if level <= 0 or intel <= 0:
            raise IllegalAction("交涉对象的等级和智力%都应大于0")
        stored = {"level": level, "int": intel}
        await update_tl_settings(call, lambda s: {**s, "neg": stored})
        if len(nums) == 2:
            return [Reply.say("已设定交涉对象！")]
    if not stored:
        raise IllegalAction("没有交涉对象！ 请先用 .neg 对象等级 对象智力% 设定")
    if not nums:
        raise call.usage_error("请正确输入.ne指令！")
    rp = nums[0]
    _, char = await active_tl(call)
    rate = negotiation_rate(rp, char.derived().negotiation_bonus, char.level, stored["level"], stored["int"])
    roll = call.app.rng.randint(1, 100)
    ok = negotiation_success(roll, rate)
    return [
        Reply(
            text=f"[{char.name}]进行交涉检定\nRP：{r0(rp):.0f}\n成功率：{rate:.0f}%\n检定：{roll}/{rate:.0f}\n"
            + ("🎉成功！" if ok else "❗️失败！"),
            check=CheckNote(
                "交涉", "成功" if ok else "失败", ok, rule=SYSTEM, items=(("D100", "交涉", roll),)
            ),
        )
    ]


pre = define("pre", aliases=("pr",), summary="前摇/影响数值计算（不记录）", system=SYS_CN)


@pre.sub(params=[arg("action", ActionKind())], help="属性 影响数值 → 前摇；属性 前摇t → 影响数值（顺序不限）")
async def cmd_pre(call: Call, action: Action) -> list[Reply]:
    attr, impact, time = action
    _, char = await active_tl(call)
    value = char.check(attr)
    display = await display_of(call)
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
async def _participant_chars(call: Call, who: list[str], names: list[str]) -> list[tuple[str, TLCharacter]]:
    """Characters named by @ mentions (their active one) and by name (own or in the battle)."""
    store = call.app.store
    out: list[tuple[str, TLCharacter]] = []
    for uid in who:
        rec = await member_card(call, uid, "用别人的角色检定", write=False)
        if rec is None or rec.system != SYSTEM:
            chars = await store.characters.list_characters(uid, system=SYSTEM)
            if len(chars) != 1:
                raise NotFound(f"{uid}没有可用的时间线角色")
            rec = chars[0]
        out.append((rec.name, load_tl(rec)))
    for name in names:
        rec = await find_named(call, name)
        out.append((rec.name, load_tl(rec)))
    return out


coop = define(
    "coop",
    aliases=("协同",),
    summary="协同检定：相关属性相加后 /(5×目标数值)",
    detail="发起者的当前角色自动参加；@玩家 用其当前角色；也可写角色名或直接写数值（如NPC的 80）。",
    system=SYS_CN,
)


@coop.sub(
    params=[
        ATTR,
        many("who", Mention(), required=False),
        many(
            "others",
            OneOf(Number(label="数值"), Token(label="角色名", max_len=20)),
            required=False,
            label="角色名或数值",
        ),
    ],
    help="协同检定（至少两个参与者）",
)
async def cmd_coop(call: Call, attr: str, who: list[str], others: list[float | str]) -> list[Reply]:
    target = await tl_target(call)
    _, own = await active_tl(call)
    parts: list[tuple[str, float]] = [(own.name, own.check(attr))]
    names = [o for o in others if isinstance(o, str)]
    parts += [(n, c.check(attr)) for n, c in await _participant_chars(call, who, names)]
    parts += [("数值", float(o)) for o in others if not isinstance(o, str)]
    if len(parts) < 2:
        raise call.usage_error("协同检定至少需要两个参与者")
    total = sum(v for _, v in parts)
    rate = cooperative_rate([v for _, v in parts], target)
    roll = roll_check(rate, call.app.rng)
    display = await display_of(call)
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
    label = f"协同{CN[attr]}"
    note = CheckNote(
        label,
        "成功" if roll.success else "失败",
        bool(roll.success),
        rule=SYSTEM,
        items=(("D100", label, roll.roll),),
    )
    return [Reply(text="\n".join(lines), check=note)]


opp = define(
    "opp",
    aliases=("对抗",),
    summary="对抗检定：双方以同一目标数值检定，骰值/成功率比值小者胜",
    system=SYS_CN,
)
OPP_WORD = OneOf(RATIO, Token(label="角色名或属性", max_len=20))


@opp.sub(
    params=[
        arg("first", OneOf(RATIO, Attribute()), label="属性或骰值/成功率"),
        many("who", Mention(), required=False),
        many("rest", OPP_WORD, required=False, label="对手 [对手属性]"),
    ],
    help="属性 @对手|角色名 [对手属性]：双方检定；骰值/成功率 骰值/成功率：只比较",
)
async def cmd_opp(call: Call, first: str | Ratio, who: list[str], rest: list[str | Ratio]) -> list[Reply]:
    if isinstance(first, Ratio):
        if who or len(rest) != 1 or not isinstance(rest[0], Ratio):
            raise call.usage_error("请给出两个 骰值/成功率")
        a, b = ratio(first.roll, first.rate), ratio(rest[0].roll, rest[0].rate)
        winner = opposed_winner(a, b)
        verdict = {"a": "前者胜出", "b": "后者胜出", "tie": "比值相同，平局，由主持人裁定"}[winner]
        return [Reply.say(f"对抗：{first.text} = {a:g}，{rest[0].text} = {b:g}\n比值小者胜 → {verdict}")]
    target = await tl_target(call)
    attr = first
    names = [r.text if isinstance(r, Ratio) else r for r in rest]
    other_attr = attr
    if names and lookup_attribute(names[-1]) is not None and (len(names) > 1 or who):
        other_attr = lookup_attribute(names[-1]) or attr
        names = names[:-1]
    if len(who) + len(names) != 1:
        raise call.usage_error("请用@或角色名指定一个对手")
    _, me = await active_tl(call)
    others = await _participant_chars(call, who, names)
    other_name, other = others[0]
    display = await display_of(call)
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


clash = define(
    "clash",
    aliases=("交互",),
    summary="交互（打断/闪避/招架）：大者的影响数值减去小者",
    system=SYS_CN,
)
CLASH_ARG = OneOf(ACTION_REF, Number(label="影响数值", signed=False))


@clash.sub(
    params=[arg("a", CLASH_ARG, label="影响数值或#行动"), arg("b", CLASH_ARG, label="影响数值或#行动")],
    help="两个影响数值，或时间轴上的两个 #行动编号",
)
async def cmd_clash(call: Call, a: float | ActionRef, b: float | ActionRef) -> list[Reply]:
    if isinstance(a, ActionRef) and isinstance(b, ActionRef):
        state = await running_battle(call)
        acts = [state.action(r.id) for r in (a, b)]
        names = [(state.participant(x.key) or bt.Participant(x.key, x.key, "", 0)).name for x in acts]
        values = [x.impact for x in acts]
        why = ix.why_not(acts[0], acts[1])
        if why is not None:  # the rule book's interaction needs the actions to overlap
            return [
                Reply.say(f"行动#{acts[0].id}（{names[0]}）与#{acts[1].id}（{names[1]}）不构成交互：{why}")
            ]
        winner, left = interaction(values[0], values[1])
        lines = [
            f"交互：{names[0]}#{acts[0].id} {fmt(values[0])} vs {names[1]}#{acts[1].id} {fmt(values[1])}"
        ]
    elif isinstance(a, ActionRef) or isinstance(b, ActionRef):
        raise call.usage_error("需要两个影响数值或两个行动编号")
    else:
        values = [float(a), float(b)]
        names = ["前者", "后者"]
        winner, left = interaction(values[0], values[1])
        lines = [f"交互：{fmt(values[0])} vs {fmt(values[1])}"]
    if winner == "tie":
        lines.append("影响数值相同，相互抵消（影响 0）")
    else:
        lines.append(f"→ {names[0 if winner == 'a' else 1]}胜出，最终造成 {fmt(left)}")
    return [Reply.say("\n".join(lines))]


tlconf = define(
    "tlconf",
    summary="时间线群设置：open=设目标/结束战斗/代他人行动对所有人开放；sheet=按人物卡显示（整数前摇、成功率封顶100%）",
    system=SYS_CN,
)


async def _tlconf_text(call: Call) -> list[Reply]:
    s = await tl_settings(call)
    return [
        Reply.say(
            f"时间线设置：\nopen（设目标/结束战斗/代他人行动对所有人开放）：{'开' if s.get('open') else '关'}\n"
            f"sheet（按人物卡显示：整数前摇、成功率封顶100%）：{'开' if s.get('sheet') else '关'}\n"
            f"详细（战斗指令附完整时间轴，.bat 详细 开/关）：{'开' if s.get('verbose') else '关'}"
        )
    ]


@tlconf.sub("查看", "show", help="查看本群时间线设置", when_empty=True)
async def tlconf_show(call: Call) -> list[Reply]:
    return await _tlconf_text(call)


@tlconf.sub(
    flags=[
        Flag("open", OnOff(words=("open", "开放"), label="open 开/关")),
        Flag("sheet", OnOff(words=("sheet", "表格", "人物卡"), label="sheet 开/关")),
    ],
    help="修改设置",
    perm=Perm.GM,
    what="修改时间线设置" + become_gm(),
)
async def tlconf_set(call: Call, open: bool | None, sheet: bool | None) -> list[Reply]:
    changes = {k: v for k, v in (("open", open), ("sheet", sheet)) if v is not None}
    if not changes:
        raise call.usage_error("无法理解的设置")
    await update_tl_settings(call, lambda s: {**s, **changes})
    return await _tlconf_text(call)
