"""Combatant resources: ``.ap`` (AP and 全力动作), ``.wound`` (002 wounds), ``.hp`` (004 gauges, MP, SP)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chronodice.core.args import Name, arg, many, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.render.tick20_health import event_lines as health_lines
from chronodice.rules.tick20 import damage as D
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20 import two_die as T
from chronodice.rules.tick20.model import Combat, Combatant, Variant

from ._glue import (
    SYS_NAME,
    apply,
    check_dice,
    find,
    find_me,
    load,
    mind_dice,
    must_be_gm,
    need,
    require_control,
)
from .kinds import (
    AP_KIND,
    AP_LABEL,
    AP_OP,
    AP_WHO,
    COMBATANT,
    HP_OP,
    HP_VALUE,
    HP_WHO,
    WOUND_ITEM,
    num,
    option,
)
from .kinds_rules import CRIT, EXECUTE, SP_COST
from .views import hp_reply, split_view, wound_reply

# --------------------------------------------------------------------------- AP
ap = define(
    "ap",
    summary="行动值：查看AP、花费AP（规则检查）、全力动作分期支付；GM 可直接设定",
    detail=(
        "例 .ap（看自己的AP）、.ap -2 攻击、.ap -1 次要、.ap ta 9 大招 3、.ap pay 3、.ap 哥布林 +1（GM）\n"
        "攻击用 .atk 一条指令完成，AP由它扣；先 .ap -2 攻击 再 .atk 的，.atk 用已付的AP，不会重复扣"
    ),
    aliases=("行动值",),
    system=SYS_NAME,
    group_only=True,
)


@ap.sub("查看", "show", params=[opt("who", COMBATANT)], help="查看AP（不写名称=自己的）", when_empty=True)
async def ap_show(call: Call, who: str | None) -> list[Reply]:
    """``.ap`` alone: the sender's AP (issue 39: it was an error), and the AP she already paid for
    an attack that the next ``.atk`` will use (:func:`~chronodice.rules.tick20.engine.prepaid_attack`)."""
    state = need(await load(call))
    if state.variant is not Variant.BASE:
        raise IllegalAction("速度规则（004）没有AP，每回合的动作用 .动作 记录")
    c = find_me(state, call.ctx) if who is None else await find(call, state, who)
    text = ap_text(state, c)
    return await split_view(call, state, c, text, text)


def ap_text(state: Combat, c: Combatant) -> str:
    """``艾琳 AP 1/3``, her 全力动作, and AP paid for an attack not made yet."""
    lines = [f"{c.name} AP {c.ap}/{c.ap_max}"]
    if c.ta is not None:
        lines.append(f"全力动作「{c.ta.name}」{c.ta.paid}/{c.ta.total}")
    paid = E.prepaid_attack(state, c.id)
    if paid is not None:
        lines.append(f"已为攻击付了{paid}AP：下一次 .atk 直接用，不再扣")
    return "\n".join(lines)


TA_PARAMS = [
    arg("amount", num("总消耗"), label="总消耗"),
    arg("label", Name(label="名称"), label="名称"),
    opt("pay", num("本次支付"), label="本次支付"),
]


@ap.sub("ta", "全力", params=TA_PARAMS, help="开始全力动作（总消耗、名称、本次支付）")
async def ap_ta(call: Call, amount: int, label: str, pay: int | None) -> list[Reply]:
    return await _ap(call, None, "ta", amount, [label], pay, None)


@ap.sub("pay", "支付", params=[opt("amount", num("n"))], help="为全力动作支付AP")
async def ap_pay(call: Call, amount: int | None) -> list[Reply]:
    return await _ap(call, None, "pay", amount, [], None, None)


@ap.sub(
    params=[
        opt("who", AP_WHO, label="名称"),
        arg("op", AP_OP),
        opt("amount", num("n")),
        many("label", AP_LABEL, required=False, label="理由"),
        opt("pay", num("本次支付")),
    ],
    flags=[AP_KIND],
    help="花费AP（-n 理由/主要/次要/即时/自由），GM 可 +n/=n；名称 ta/pay 为他人操作",
)
async def ap_change(
    call: Call,
    who: str | None,
    op: tuple[str, int] | str,
    amount: int | None,
    label: list[str],
    pay: int | None,
    kind: str | None,
) -> list[Reply]:
    return await _ap(call, who, op, amount, label, pay, kind)


async def _ap(
    call: Call,
    who: str | None,
    op: tuple[str, int] | str,
    amount: int | None,
    label: list[str],
    pay: int | None,
    kind: str | None,
) -> list[Reply]:
    state = need(await load(call))
    c = find_me(state, call.ctx) if who is None else await find(call, state, who)
    await require_control(call, state, c, "操作这名角色的AP")
    if op == "ta":
        if amount is None or not label:
            raise call.usage_error("格式：.ap ta 总消耗 名称 [本次支付]")
        total, name = amount, label[0]
        state, events = await apply(call, lambda st: E.start_ta(need(st), c.id, name, total, pay))
    elif op == "pay":
        state, events = await apply(call, lambda st: E.pay_ta(need(st), c.id, amount))
    elif isinstance(op, tuple) and op[0] == "-":
        if amount is not None or pay is not None:
            raise call.usage_error("格式：.ap -n [理由/主要/次要/即时/自由]")
        cost, what = op[1], " ".join(label)
        state, events = await apply(call, lambda st: E.spend_ap(need(st), c.id, cost, kind or "SA", what))
    else:
        assert isinstance(op, tuple)
        if amount is not None or label or pay is not None:
            raise call.usage_error("格式：.ap [名称] +n/=n")
        await must_be_gm(call, state, "直接设定AP")
        kwargs = {"value": op[1]} if op[0] == "=" else {"delta": op[1]}
        state, events = await apply(call, lambda st: E.set_ap(need(st), c.id, **kwargs))
    c2 = state.get(c.id)
    lines = [ap_text(state, c2)]
    public = "\n".join([*lines, *R.event_lines(state, events)])
    private = "\n".join([*lines, *R.event_lines(state, events, gm=True)])
    return await split_view(call, state, c2, public, private)  # a hidden NPC's AP: the GM's


# --------------------------------------------------------------------------- health
wound = define(
    "wound",
    summary="伤势（基础规则）：每部位4道，恶化规则，<负伤>/<残障>/<欠损>",
    detail=(
        "例 .wound 哥布林 躯干 轻伤x2、.wound 名 部位 hit3 dp2 dr1 贯通、.wound 名 部位 治疗 [级数]、.wound 名 部位 临时2\n"
        "损伤：贯通/切断/处决/爆发/故障/侵蚀/僵化；伤害类型对照 .hp 名 抗性/易伤；杂兵见 .hp 名 杂兵"
    ),
    aliases=("伤势",),
    system=SYS_NAME,
    group_only=True,
)


@wound.sub(
    params=[
        arg("who", COMBATANT, label="名称"),
        arg("part", Name(label="部位"), label="部位"),
        many("items", WOUND_ITEM, label="等级x数量/hit dp dr/治疗 [级数]"),
    ],
    help="记录伤势（轻伤x2 或 hit3 dp2 dr1，可加类型）或治疗",
)
async def cmd_wound(call: Call, who: str, part: str, items: list[tuple[Any, ...]]) -> list[Reply]:
    state = need(await load(call))
    c = await find(call, state, who)
    await require_control(call, state, c, "修改伤势")
    if ("heal",) in items[1:]:  # ``hit3 治疗``: a wound and its healing are two commands
        raise call.usage_error("治疗要单独写：.wound 名 部位 治疗 [级数]")
    if items[0] == ("heal",):
        if len(items) > 2 or (len(items) == 2 and items[1][0] not in ("level", "n")):
            raise call.usage_error("格式：.wound 名 部位 治疗 [级数]")
        levels = 1 if len(items) == 1 else items[1][1]
        state, events = await apply(call, lambda st: E.heal_wound(need(st), c.id, part, levels))
    else:
        kwargs: dict[str, Any] = {}
        tags: list[str] = []
        temp = [item[1] for item in items if item[0] == "temp"]
        for item in items:
            if item[0] == "temp":
                continue
            if item[0] == "level":
                kwargs["level"], kwargs["count"] = item[1], item[2]
            elif item[0] in ("hit", "dp", "dr"):
                kwargs[item[0]] = item[1]
            elif item[0] == "direct":
                kwargs["direct"] = True
            elif item[0] == "tag":
                tags.append(item[1])
            else:
                raise call.usage_error(f"不认识「{item[-1]}」")
        D.check_wound_tags(tags)  # an unknown word, or a 精神伤害 mixed with a physical one
        if temp and (kwargs or tags or len(temp) > 1):
            raise call.usage_error("临时生命单独设定：.wound 名 部位 临时2")
        if temp:
            state, events = await apply(call, lambda st: E.set_temp(need(st), c.id, part, temp[0]))
        elif "hit" not in kwargs and "level" not in kwargs:
            raise call.usage_error("伤势写作 轻伤x2 或 hit3 dp2 dr1")
        else:
            kwargs["tags"] = tags[:6]
            # a 精神伤害 takes SP (issue 39): the 力竭 check's die, when she is <力竭> already
            dice = mind_dice(call, c, tags)
            state, events = await apply(call, lambda st: E.wound(need(st), c.id, part, dice=dice, **kwargs))
    return await wound_reply(call, state, state.get(c.id), events)


hp = define(
    "hp",
    summary="生命/精神量谱（速度规则：伤害从左、治疗从右、危机、优势点、重击/斩杀、自愈）、SP、杂兵/抗性/易伤",
    detail=(
        "例 .hp 哥布林 -7 -由 艾琳、.hp 哥布林 -4 重击、.hp 哥布林 -3 斩杀 11、.hp 名 hg 10 / mg 8（每级LV +1容量）、"
        ".hp 名 hg 6/6/5/5、.hp 名 mp -3 / mp +2、.hp 名 危机 2、.hp 全体 自愈、.hp 名 sp ±n / sp上限 N、.hp 全体 短休 / .hp 名 长休、"
        ".hp 狼 杂兵、.hp 狼 抗性 灼烧1、.hp 狼 强韧 +3"
    ),
    system=SYS_NAME,
    group_only=True,
)


@hp.sub(
    params=[arg("who", HP_WHO, label="名称"), arg("op", HP_OP), opt("value", HP_VALUE)],
    flags=[option("attacker", ("-由", "-by"), COMBATANT, "-由 攻击者"), CRIT, EXECUTE, SP_COST],
    help=(
        "±n 伤害/治疗HG（-由 攻击者，重击，斩杀 结果/d8+d10）；hg/mg 条数或 6/6/5 容量；mp ±n；"
        "危机 N；自愈（全体）；sp ±n/=n（消耗：低于下限则失败）；sp上限 N；短休（SP+1）/长休（SP+上限）（可全体）；杂兵；抗性/易伤 类型N；强韧 ±n"
    ),
)
async def cmd_hp(
    call: Call,
    who: str,
    op: str | int,
    value: int | tuple[Any, ...] | None,
    attacker: str | None,
    crit: bool = False,
    execute: tuple[Any, ...] | None = None,
    cost: bool = False,
) -> list[Reply]:
    state = need(await load(call))
    if op == "selfheal" and who in ALL_WORDS:
        await must_be_gm(call, state, "为全体自愈")
        everyone = [x.id for x in state.combatants]
        state, events = await apply(call, lambda st: E.self_heal(need(st), everyone))
        return [Reply.say("场景开始：自愈\n" + "\n".join(health_lines(state, events)))]
    if op in REST_WORDS and who in ALL_WORDS:
        word, long = REST_WORDS[op]
        await must_be_gm(call, state, f"为全体{word}")
        if value is not None:
            raise call.usage_error(f"格式：.hp 全体 {word}")
        everyone = [x.id for x in state.combatants]
        state, events = await apply(call, lambda st: E.rest(need(st), everyone, long=long))
        lines = health_lines(state, events) or ["  没有参战者设有SP上限（.hp 名 sp上限 N）"]
        return [Reply.say(f"全体{word}\n" + "\n".join(lines))]
    c = await find(call, state, who)
    await require_control(call, state, c, "修改HP")
    if (crit or execute is not None) and not (isinstance(op, int) and op < 0):
        raise call.usage_error("重击/斩杀 写在伤害后：.hp 名称 -n 重击 / 斩杀11")
    if cost and op != "sp":
        raise call.usage_error("消耗 用于SP：.hp 名称 sp -2 消耗")
    fn = await _hp_fn(call, state, c, op, value, attacker, crit, execute, cost)
    state, events = await apply(call, lambda st: fn(need(st)))
    change = f"（{op:+d}）" if isinstance(op, int) else ""
    return await hp_reply(call, state, state.get(c.id), events, change)


ALL_WORDS = ("全体", "全部", "all")
REST_WORDS: dict[str, tuple[str, bool]] = {"short_rest": ("短休", False), "long_rest": ("长休", True)}
"""002 休息 → SP (精力值: 短休 +1, 长休 + the maximum): the word and whether it is a 长休."""


async def _hp_fn(
    call: Call,
    state: Combat,
    c: Combatant,
    op: str | int,
    value: int | tuple[Any, ...] | None,
    attacker: str | None,
    crit: bool,
    execute: tuple[Any, ...] | None,
    cost: bool = False,
) -> Callable[[Combat], E.Outcome]:
    """The transition one ``.hp`` form asks for: a change of the Hit Gauges (``±n``), a word
    without a number (自愈, 休息, 杂兵), a trait with a damage type, or a number to set."""
    if isinstance(op, int):
        if value is not None:
            raise call.usage_error("格式：.hp 名称 ±n [-由 攻击者] [重击] [斩杀 结果]")
        return await _hit_fn(call, state, c, op, attacker, crit, execute)
    if op == "selfheal":
        return lambda st: E.self_heal(st, [c.id])
    if op in REST_WORDS:
        if value is not None:
            raise call.usage_error(f"格式：.hp 名称 {REST_WORDS[op][0]}")
        long = REST_WORDS[op][1]
        return lambda st: E.rest(st, [c.id], long=long)
    if op == "minion":
        on = value != 0
        return lambda st: E.set_traits(st, c.id, minion=on)
    if value is None:
        raise call.usage_error(f"「{op}」后面要写数值")
    if op in ("resist", "vuln"):
        if not (isinstance(value, tuple) and value[0] == "type"):
            raise call.usage_error(f"格式：.hp 名称 {'抗性' if op == 'resist' else '易伤'} 灼烧1")
        item = (value[1], value[2])
        return lambda st: E.set_traits(st, c.id, **{op: item})
    if op in ("hg", "mg") and isinstance(value, tuple) and value[0] == "caps":
        caps = list(value[1])
        return lambda st: E.set_gauges(st, c.id, **{op: caps})
    if isinstance(value, tuple) and not (op == "sp" and value[0] == "="):
        raise call.usage_error(f"「{op}」后面要写数值")
    return _number_fn(call, c, op, value, cost)


async def _hit_fn(
    call: Call,
    state: Combat,
    c: Combatant,
    amount: int,
    attacker: str | None,
    crit: bool,
    execute: tuple[Any, ...] | None,
) -> Callable[[Combat], E.Outcome]:
    """``.hp 名称 ±n``: damage (by the named attacker, else the one whose turn it is) or healing
    of the Hit Gauges, with 重击 and 斩杀 (its ［DEX+MIG］ written or rolled)."""
    by = (await find(call, state, attacker)).id if attacker is not None else None
    if by is None and amount < 0 and state.current is not None:
        by = state.current
    total = None
    if execute is not None:
        if execute[0] == "none":
            raise call.usage_error("斩杀要写目标的［DEX+MIG］结果或骰子：斩杀11 / 斩杀d8+d10")
        if execute[0] == "n":
            total = execute[1]
        else:
            total = T.roll_two_die(call.app.rng, (execute[1], execute[2])).total
    return lambda st: E.hit_gauges(
        st, c.id, abs(amount), attacker=by, heal=amount > 0, crit=crit, execute=total
    )


def _number_fn(
    call: Call, c: Combatant, op: str, value: int | tuple[Any, ...], cost: bool
) -> Callable[[Combat], E.Outcome]:
    """A number to set: gauges, 危机, 强韧, MP spent, SP (``=n`` sets, ``±n`` changes; a 力竭
    check is rolled ahead when SP is already at 0 or below), else the SP maximum."""
    n = value[1] if isinstance(value, tuple) else value
    if op in ("hg", "mg"):
        return lambda st: E.set_gauges(st, c.id, **{op: n})
    if op == "crisis":
        return lambda st: E.set_gauges(st, c.id, crisis=n)
    if op == "fort":
        return lambda st: E.set_traits(st, c.id, fort=n)
    if op == "mp":
        return lambda st: E.spend_mp(st, c.id, -n)
    if op == "sp":
        sp = c.health.sp
        dice = check_dice(call, None, extra=1) if sp is not None and sp <= 0 else []
        if isinstance(value, tuple):
            return lambda st: E.set_sp(st, c.id, value=n, dice=dice, cost=cost)
        return lambda st: E.set_sp(st, c.id, delta=n, dice=dice, cost=cost)
    return lambda st: E.set_sp(st, c.id, maximum=n)
