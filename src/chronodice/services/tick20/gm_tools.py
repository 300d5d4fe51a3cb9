"""GM tools of the ``.init`` tracker: ``set`` (re-place), ``add`` (NPCs), ``rm``, ``swap``/``first``
(tie order), ``opt`` (edit a combatant), ``meta`` (combat switches), ``gm`` (co-GMs), ``surprise``."""

from __future__ import annotations

from typing import Any

from chronodice.core.args import Int, Mod, Name, arg, flag, many, opt
from chronodice.core.commands import Call
from chronodice.core.errors import InputSyntaxError
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20 import two_die as T
from chronodice.rules.tick20.model import Combat, Event, InitRoll, Phase, Variant
from chronodice.rules.tick20.modifiers import Modifier
from chronodice.services.npc_cards import find_npc_card

from ._glue import (
    MAX_BATCH,
    apply,
    controls,
    each,
    find,
    gm_op,
    load,
    must_be_gm,
    need,
    require_control,
)
from .joining import expand_names, join_all, roll_entry
from .kinds import COMBATANT, META_FLAGS, QQ_ID, WORD10, Targets, num, option
from .kinds_ri import RiEntry
from .tracker import init
from .views import hidden_whisper, turn_replies


@init.sub(
    "set",
    "设定",
    params=[arg("who", COMBATANT), arg("value", num("先攻值", signed=True))],
    help="重新设定先攻值（GM）",
)
async def init_set(call: Call, who: str, value: int) -> list[Reply]:
    """Re-place a combatant; the reply says when it acts, and says so when the change costs it
    its turn this round (the new value's tick has passed, or the value cannot act at all).  A
    hidden combatant's new value goes to the GM only."""
    state = need(await load(call))
    c = await find(call, state, who)
    before = state.phase is Phase.ACTIVE and not state.waiting and c.turns_this_round == 0 and not c.pending
    tick = state.tick
    state, events = await gm_op(call, "设定先攻", lambda st: E.place(st, c.id, value))
    how = next((e.data["placed"] for e in events if e.kind == "placed"), "")
    note = {
        "next_round": "，从下一轮起生效",
        "this_tick": "，本刻行动",
        "this_round": "，本轮按新值行动",
        "no_turn": "，先攻不在1~20刻之间，无法开始回合",
    }.get(how, "")
    if before and how == "next_round":
        note = f"：第{value}刻在本轮已经过去（现在第{tick}刻），{c.name}本轮失去回合，从下一轮起按新值行动"
    elif before and how == "no_turn":
        note = f"：先攻不在1~20刻之间，{c.name}本轮失去回合，之后也无法开始回合，直到先攻回到1以上"
    text = f"{c.name} 的先攻设为 {value}{note}"
    text += "".join(
        f"\n{line}" for line in R.event_lines(state, [e for e in events if e.kind != "placed"], gm=True)
    )
    if c.hidden:  # its initiative is the GM's: nothing in the group (issue 39)
        return [Reply.whisper(text)]
    return [Reply.say(text)]


@init.sub(
    "add",
    "加入",
    params=[
        arg("name", Name(label="名称")),
        opt("mod", Int(label="±修正", signed=True, spaced=True, min=-999, max=999), default=0),
    ],
    flags=[
        option("fixed", ("-p",), num("值", signed=True)),
        option("lv", ("-lv",), num("N")),
        option("side", ("-阵营", "-side"), WORD10, "-阵营 X"),
        option("ap_max", ("-ap",), num("N")),
        option("spd_base", ("-spd",), num("N", signed=True)),
        flag("hidden", "-隐藏", "-h", label="-隐藏"),
        option("count", ("-n",), Int(label="N")),
    ],
    help="添加NPC（GM）",
)
async def init_add(
    call: Call,
    name: str,
    mod: int,
    fixed: int | None,
    lv: int | None,
    side: str | None,
    ap_max: int | None,
    spd_base: int | None,
    hidden: bool,
    count: int | None,
) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "添加NPC")
    opts: dict[str, Any] = {
        k: v
        for k, v in (("lv", lv), ("side", side), ("ap_max", ap_max), ("spd_base", spd_base))
        if v is not None
    }
    if hidden:
        opts["hidden"] = True
    count = 1 if count is None else count
    if not 1 <= count <= MAX_BATCH:
        raise InputSyntaxError(f"-n 应在1~{MAX_BATCH}之间")
    card = await find_npc_card(call, name, extra=state.gms, exact=True)
    names = expand_names(state, name, None if count == 1 else count)
    plan = []
    for n in names:
        if card is not None:  # the group's NPC card: read as .ri 3# 哥布林 reads it (issue 26)
            entry = RiEntry(name=n, fixed=fixed, mods=(Mod(mod),), hidden=hidden)
            _n, kw, text = roll_entry(call, state, entry, card)
            kw.update(opts)
            plan.append((n, kw, text))
            continue
        kw = dict(opts)
        if fixed is not None:
            kw.update(value=fixed, init_mod=mod)
            text = f"={fixed}"
        elif state.variant is Variant.SPD:
            r2 = T.roll_two_die(call.app.rng, (6, 6), [Modifier(6, "环境"), Modifier(mod)])
            kw["roll"] = InitRoll(
                dice=list(r2.dice), die=sum(r2.dice), total=r2.total, two_die=True, doubles=r2.doubles
            )
            text = f"d6+d6=[{r2.dice[0]},{r2.dice[1]}]{r2.modifier:+d}={r2.total}"
        else:
            r = C.roll_d20(call.app.rng, mod)
            kw["roll"] = InitRoll(dice=list(r.dice), die=r.die, total=r.total, nat=r.nat)
            text = R.roll_sum(f"D20={r.die}", r)
        plan.append((n, kw, text))

    state, _ = await apply(call, lambda st: join_all(need(st), plan))
    public = [f"{n} 加入（{text}）" for n, kw, text in plan if not kw.get("hidden")]
    replies = [Reply.say("\n".join(public))] if public else []
    secret = [f"{n}：{text}" for n, kw, text in plan if kw.get("hidden")]
    if secret:  # the group learns nothing of a hidden NPC, not even that one joined (issue 39)
        replies += [Reply.whisper("暗中加入（群里看不到）：\n" + "\n".join(secret))]
    return replies


@init.sub(
    "rm",
    "del",
    "删除",
    params=[many("names", Targets(label="名称"), label="名称")],
    flags=[flag("force", "-force", "-强制", label="-force")],
    help="移除参战者（GM）",
)
async def init_rm(call: Call, names: list[list[str]], force: bool) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "移除参战者")
    ids = [(await find(call, state, n)).id for group in names for n in group]
    hidden = {c.id for c in state.combatants if c.hidden}

    state, events = await apply(
        call, lambda st: each(need(st), ids, lambda s, cid: E.remove(s, cid, force=force))
    )
    return _rm_replies(state, events, hidden)


def _rm_replies(state: Combat, events: list[Event], hidden: set[str]) -> list[Reply]:
    """Who left, told the group (visible ones, with the turn card when the turn moved on) and
    the GM (hidden ones, privately)."""
    removed = [e.data for e in events if e.kind == "removed"]
    gone = [d["name"] for d in removed if d["cid"] not in hidden]
    secret = [d["name"] for d in removed if d["cid"] in hidden]
    card = (
        turn_replies(state, [e for e in events if e.kind != "removed"])
        if any(e.kind == "turn" for e in events)
        else []
    )
    public = [r for r in card if not r.private]
    replies = [r for r in card if r.private]
    if secret:  # a hidden combatant leaves as it came: unseen (issue 39)
        replies += hidden_whisper(state, f"移除（暗）：{'，'.join(secret)}")
    if gone or public:
        head = f"移除：{'，'.join(gone)}" if gone else ""
        text = "\n".join(x for x in (head, public[0].text if public else "") if x)
        replies.insert(0, Reply(text=text, mentions=public[0].mentions if public else ()))
    return replies


@init.sub(
    "swap",
    "交换",
    params=[arg("a", COMBATANT, label="A"), arg("b", COMBATANT, label="B")],
    help="交换两名同值者的顺序（自己的角色或 GM）",
)
async def init_swap(call: Call, a: str, b: str) -> list[Reply]:
    state = need(await load(call))
    ca, cb = await find(call, state, a), await find(call, state, b)
    if not (controls(call.ctx, ca) or controls(call.ctx, cb)):
        await must_be_gm(call, state, "调整同值顺序")
    await apply(call, lambda st: E.swap(need(st), ca.id, cb.id))
    return [Reply.say(f"{R.name_of(state, ca.id)} 与 {R.name_of(state, cb.id)} 交换了同值顺序")]


@init.sub("first", "提前", params=[arg("who", COMBATANT)], help="在同值者中优先行动")
async def init_first(call: Call, who: str) -> list[Reply]:
    state = need(await load(call))
    c = await find(call, state, who)
    await require_control(call, state, c, "调整同值顺序")
    await apply(call, lambda st: E.first(need(st), c.id))
    return [Reply.say(f"{R.name_of(state, c.id)} 在同值者中优先行动")]


OPT_FLAGS = [
    option("lv", ("-lv",), num("N")),
    option("init_mod", ("-mod",), num("N", signed=True)),
    option("ap_max", ("-ap上限",), num("N")),
    option("spd_base", ("-spd",), num("N", signed=True)),
    option("speed", ("-速度",), num("N", signed=True)),
    option("side", ("-阵营", "-side"), WORD10, "-阵营 X"),
    option("controller", ("-控制", "-controller"), QQ_ID, "-控制 @x"),
    flag("hide", "-隐藏", label="-隐藏"),
    flag("reveal", "-公开", label="-公开"),
]


@init.sub("opt", "修改", params=[arg("who", COMBATANT)], flags=OPT_FLAGS, help="修改参战者（GM）")
async def init_opt(call: Call, who: str, hide: bool, reveal: bool, **values: Any) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "修改参战者")
    c = await find(call, state, who)
    fields: dict[str, Any] = {k: v for k, v in values.items() if v is not None}
    if hide or reveal:
        fields["hidden"] = hide
    if not fields:
        raise call.usage_error("请写出要修改的项目")
    state, _ = await apply(call, lambda st: E.edit(need(st), c.id, **fields))
    return [Reply.say(f"已修改 {R.name_of(state, c.id)}：{'、'.join(sorted(fields))}")]


HP_DISPLAY_WORDS = {"show": "显示", "fuzzy": "模糊", "hide": "隐藏"}
"""How ``.init meta -血量`` options read back (the words a GM types, not the stored keys)."""


@init.sub(
    "meta",
    "设置",
    flags=META_FLAGS,
    help="战斗设置：沉淀、延后规则、当前先攻、提醒、血量显示、.atk 的防御（被动/掷骰）（GM）",
)
async def init_meta(call: Call, **values: Any) -> list[Reply]:
    changes = {k: v for k, v in values.items() if v is not None}
    if not changes:
        raise call.usage_error("请写出要修改的设置")
    state = need(await load(call))
    await must_be_gm(call, state, "修改战斗设置")
    state, _ = await apply(call, lambda st: E.set_options(need(st), **changes))
    o = state.options
    return [
        Reply.say(
            f"战斗设置：沉淀{'开' if o.settle else '关'}，延后={'下一刻' if o.delay_rule == 'next_tick' else '原文+1'}，"
            f"当前先攻={'累加' if o.carry_rule == 'carry' else '每轮重置'}，血量={HP_DISPLAY_WORDS[o.hp_display]}，"
            f"防御={'被动' if o.defense == 'passive' else '掷骰'}"
        )
    ]


@init.sub("gm", params=[arg("uid", QQ_ID)], help="添加副GM（@某人 或 QQ号）")
async def init_gm(call: Call, uid: str) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "指定副GM")
    await apply(call, lambda st: E.add_gm(need(st), uid))
    return [Reply.say(f"已添加副GM：{uid}")]


@init.sub(
    "surprise",
    "突袭",
    params=[many("names", Targets(label="名称"), label="名称")],
    help="标记被突袭（开战前；GM）",
)
async def init_surprise(call: Call, names: list[list[str]]) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "标记突袭")
    ids = [(await find(call, state, n)).id for group in names for n in group]
    await apply(call, lambda st: E.surprise(need(st), ids))
    return [Reply.say("被突袭（第1轮开始时先攻−20）：" + "，".join(R.name_of(state, i) for i in ids))]
