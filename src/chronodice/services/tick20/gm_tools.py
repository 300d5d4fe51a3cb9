"""GM tools of the ``.init`` tracker: ``set`` (re-place), ``add`` (NPCs), ``rm``, ``swap``/``first``
(tie order), ``opt`` (edit a combatant), ``meta`` (combat switches), ``gm`` (co-GMs), ``surprise``."""

from __future__ import annotations

import re
from typing import Any

from chronodice.core.commands import Call
from chronodice.core.errors import InputSyntaxError
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import InitRoll, Variant
from chronodice.rules.tick20.modifiers import Modifier

from ._glue import (
    MAX_BATCH,
    apply,
    controls,
    each,
    gm_op,
    load,
    need,
    require_control,
    require_gm,
    whisper_gms,
)
from ._words import number, split_targets
from .joining import join_all


async def init_set(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) != 2:
        raise InputSyntaxError("格式：.init set 名称 值")
    state = need(await load(call))
    c = E.find(state, words[0])
    value = number(words[1])
    state, events = await gm_op(call, "设定先攻", lambda st: E.place(st, c.id, value))
    how = next((e.data["placed"] for e in events if e.kind == "placed"), "")
    note = {"next_round": "，从下一轮起生效", "this_tick": "，本刻行动", "no_turn": "，暂时无法行动"}.get(
        how, ""
    )
    return [Reply.say(f"{R.name_of(state, c.id)} 的先攻设为 {value}{note}")]


async def init_add(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if not words:
        raise InputSyntaxError(
            ".init add <名称> <修正> [-p 值] [-lv N] [-阵营 X] [-ap N] [-spd N] [-隐藏] [-n 3]"
        )
    state = need(await load(call))
    await require_gm(call, state, "添加NPC")
    name = words[0]
    mod = 0
    opts: dict[str, Any] = {}
    fixed: int | None = None
    count = 1
    i = 1
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if re.fullmatch(r"[+-]?\d{1,3}", w) and i == 1:
            mod = int(w)
        elif w == "-p":
            fixed = number(nxt)
            i += 1
        elif w == "-lv":
            opts["lv"] = number(nxt)
            i += 1
        elif w in ("-阵营", "-side"):
            opts["side"] = nxt[:10]
            i += 1
        elif w == "-ap":
            opts["ap_max"] = number(nxt)
            i += 1
        elif w == "-spd":
            opts["spd_base"] = number(nxt)
            i += 1
        elif w in ("-隐藏", "-h"):
            opts["hidden"] = True
        elif w == "-n":
            count = number(nxt)
            i += 1
        else:
            raise InputSyntaxError(f"不认识「{w}」")
        i += 1
    if not 1 <= count <= MAX_BATCH:
        raise InputSyntaxError(f"-n 应在1~{MAX_BATCH}之间")
    names = [name] if count == 1 else [f"{name}{chr(ord('a') + k)}" for k in range(count)]
    plan = []
    for n in names:
        kw = dict(opts)
        if fixed is not None:
            kw.update(value=fixed, init_mod=mod)
            text = f"={fixed}"
        elif state.variant is Variant.SPD:
            r2 = C.roll_two_die(call.app.rng, (6, 6), [Modifier(6, "环境"), Modifier(mod)])
            kw["roll"] = InitRoll(
                dice=list(r2.dice), die=sum(r2.dice), total=r2.total, two_die=True, doubles=r2.doubles
            )
            text = f"[{r2.dice[0]},{r2.dice[1]}]{r2.modifier:+d}={r2.total}"
        else:
            r = C.roll_d20(call.app.rng, mod)
            kw["roll"] = InitRoll(dice=list(r.dice), die=r.die, total=r.total, nat=r.nat)
            text = f"D20={r.die}{r.modifier:+d}={r.total}"
        plan.append((n, kw, text))

    state, _ = await apply(call, lambda st: join_all(need(st), plan))
    public = [
        f"{n if not kw.get('hidden') else '???'} 加入（{'暗' if kw.get('hidden') else text}）"
        for n, kw, text in plan
    ]
    replies = [Reply.say("\n".join(public))]
    secret = [f"{n}：{text}" for n, kw, text in plan if kw.get("hidden")]
    if secret:
        replies += whisper_gms(state, "\n".join(secret), call.ctx.user_id)
    return replies


async def init_rm(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    force = any(w in ("-force", "-强制") for w in words)
    names = [n for w in words if w not in ("-force", "-强制") for n in split_targets(w)]
    if not names:
        raise InputSyntaxError(".init rm <名称…> [-force]")
    state = need(await load(call))
    await require_gm(call, state, "移除参战者")
    ids = [E.find(state, n).id for n in names]

    state, events = await apply(
        call, lambda st: each(need(st), ids, lambda s, cid: E.remove(s, cid, force=force))
    )
    gone = [e.data["name"] for e in events if e.kind == "removed"]
    card = (
        R.turn_card(state, [e for e in events if e.kind != "removed"])
        if any(e.kind == "turn" for e in events)
        else ""
    )
    return [Reply.say(f"移除：{'，'.join(gone)}" + (f"\n{card}" if card else ""))]


async def init_swap(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) != 2:
        raise InputSyntaxError(".init swap <A> <B>")
    state = need(await load(call))
    a, b = E.find(state, words[0]), E.find(state, words[1])
    if not (controls(call.ctx, a) or controls(call.ctx, b)):
        await require_gm(call, state, "调整同值顺序")
    await apply(call, lambda st: E.swap(need(st), a.id, b.id))
    return [Reply.say(f"{a.name} 与 {b.name} 交换了同值顺序")]


async def init_first(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    c = E.find(state, rest)
    await require_control(call, state, c, "调整同值顺序")
    await apply(call, lambda st: E.first(need(st), c.id))
    return [Reply.say(f"{c.name} 在同值者中优先行动")]


async def init_opt(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) < 2:
        raise InputSyntaxError(
            ".init opt <名称> [-lv N] [-阵营 X] [-控制 @x] [-mod N] [-ap上限 N] [-spd N] [-速度 N] [-隐藏/-公开]"
        )
    state = need(await load(call))
    await require_gm(call, state, "修改参战者")
    c = E.find(state, words[0])
    fields: dict[str, Any] = {}
    i = 1
    keys = {"-lv": "lv", "-mod": "init_mod", "-ap上限": "ap_max", "-spd": "spd_base", "-速度": "speed"}
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w in keys:
            fields[keys[w]] = number(nxt)
            i += 1
        elif w in ("-阵营", "-side"):
            fields["side"] = nxt[:10]
            i += 1
        elif w in ("-控制", "-controller"):
            fields["controller"] = call.ctx.at_ids[0] if call.ctx.at_ids else (nxt or None)
            i += 1 if nxt and not call.ctx.at_ids else 0
        elif w in ("-隐藏", "-公开"):
            fields["hidden"] = w == "-隐藏"
        else:
            raise InputSyntaxError(f"不认识「{w}」")
        i += 1
    await apply(call, lambda st: E.edit(need(st), c.id, **fields))
    return [Reply.say(f"已修改 {c.name}：{'、'.join(sorted(fields))}")]


async def init_meta(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    state = need(await load(call))
    await require_gm(call, state, "修改战斗设置")
    changes: dict[str, Any] = {}
    table = {
        "-沉淀": ("settle", {"开": True, "关": False}),
        "-延后": ("delay_rule", {"规则": "next_tick", "原文": "literal"}),
        "-当前先攻": ("carry_rule", {"累加": "carry", "重置": "reset"}),
        "-提醒": ("remind", {"开": True, "关": False}),
        "-血量": ("hp_display", {"显示": "show", "模糊": "fuzzy", "隐藏": "hide"}),
    }
    for i in range(0, len(words) - 1, 2):
        key, val = words[i], words[i + 1]
        if key not in table or val not in table[key][1]:
            raise InputSyntaxError(
                ".init meta [-沉淀 开/关] [-延后 规则/原文] [-当前先攻 累加/重置] [-提醒 开/关] [-血量 显示/模糊/隐藏]"
            )
        changes[table[key][0]] = table[key][1][val]
    if len(words) % 2 or not changes:
        raise InputSyntaxError(
            ".init meta [-沉淀 开/关] [-延后 规则/原文] [-当前先攻 累加/重置] [-提醒 开/关] [-血量 显示/模糊/隐藏]"
        )
    state, _ = await apply(call, lambda st: E.set_options(need(st), **changes))
    o = state.options
    return [
        Reply.say(
            f"战斗设置：沉淀{'开' if o.settle else '关'}，延后={'下一刻' if o.delay_rule == 'next_tick' else '原文+1'}，"
            f"当前先攻={'累加' if o.carry_rule == 'carry' else '每轮重置'}，血量{o.hp_display}"
        )
    ]


async def init_gm(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    await require_gm(call, state, "指定副GM")
    uid = call.ctx.at_ids[0] if call.ctx.at_ids else rest.strip().lstrip("@")
    if not uid.isdigit():
        raise InputSyntaxError(".init gm @某人")
    await apply(call, lambda st: E.add_gm(need(st), uid))
    return [Reply.say(f"已添加副GM：{uid}")]


async def init_surprise(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    await require_gm(call, state, "标记突袭")
    ids = [E.find(state, n).id for n in split_targets(rest.replace(" ", ","))]
    if not ids:
        raise InputSyntaxError(".init surprise <名称…>")
    await apply(call, lambda st: E.surprise(need(st), ids))
    return [Reply.say("被突袭（第1轮开始时先攻−20）：" + "，".join(state.get(i).name for i in ids))]
