"""The ``.init`` tracker flow: the ``.init`` dispatcher and its subcommand table, ``begin``,
``start``, ``next``/``skip`` (the turn advance), ``delay``, ``undo``, ``list``/``status``/``log``,
``end``; the ``.ed`` and ``.延后`` shortcuts.

``.init next`` carries the turn number the sender saw, so two people advancing at once move the
turn only once (C02).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from chronodice.core.commands import Call, command
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound, NotPermitted
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import Combat, Event, Phase, Variant
from chronodice.rules.tick20.variants import VARIANT_ALIASES

from ._glue import (
    GM_WHO,
    SYS_NAME,
    SYSTEM,
    apply,
    controls,
    find_me,
    fresh,
    gm_op,
    is_gm,
    load,
    need,
    require_control,
    require_gm,
)
from .effects import init_eff, init_focus, init_mod, init_re
from .gm_tools import (
    init_add,
    init_first,
    init_gm,
    init_meta,
    init_opt,
    init_rm,
    init_set,
    init_surprise,
    init_swap,
)

ADVANCE_GRACE = 1.0
"""Seconds after someone else advanced the turn during which a ``.init next`` from a person who
does not control the new current actor counts as a duplicate of that advance (C02: two people
pressing at once, processed one after the other)."""

MAX_UNDO = 20
"""Steps one ``.init undo n`` may take back."""

# --------------------------------------------------------------------------- .init
INIT_USAGE = ".init [begin/start/next/skip/delay/undo/set/mod/add/rm/eff/re/focus/swap/first/opt/meta/gm/surprise/log/end]"

SUB_ALIASES: dict[str, str] = {
    "": "list",
    "list": "list",
    "查看": "list",
    "begin": "begin",
    "开始战斗": "begin",
    "开启": "begin",
    "start": "start",
    "开战": "start",
    "next": "next",
    "ed": "next",
    "n": "next",
    "下一个": "next",
    "结束回合": "next",
    "skip": "skip",
    "跳过": "skip",
    "delay": "delay",
    "延后": "delay",
    "undo": "undo",
    "撤销": "undo",
    "set": "set",
    "设定": "set",
    "mod": "mod",
    "修正": "mod",
    "add": "add",
    "加入": "add",
    "rm": "rm",
    "del": "rm",
    "删除": "rm",
    "eff": "eff",
    "效果": "eff",
    "re": "re",
    "移除效果": "re",
    "focus": "focus",
    "聚焦": "focus",
    "swap": "swap",
    "交换": "swap",
    "first": "first",
    "提前": "first",
    "opt": "opt",
    "修改": "opt",
    "meta": "meta",
    "设置": "meta",
    "gm": "gm",
    "surprise": "surprise",
    "突袭": "surprise",
    "log": "log",
    "战报": "log",
    "end": "end",
    "clr": "end",
    "结束战斗": "end",
    "status": "status",
    "详情": "status",
}


@command(
    "init",
    usage=INIT_USAGE,
    summary="D20刻度战斗追踪：开战、推进刻度、延后、效果时长、AP、伤势，GM 可撤销",
    detail=(
        ".init begin [基础/速度] [-沉淀] [-名 X]　新战斗；.ri 加入；.init start 开战\n"
        ".init next（.ed）结束当前回合；.init skip 跳过；.延后；.init undo [n] 撤销\n"
        ".init set 名 值；.init mod 名 ±n [类型] [时长]；.init rm 名 [-force]\n"
        ".init eff 目标 效果 [时长] [-源 X] [-锚 X] [-先攻 ±n类型] [暗]；时长：3刻/2轮/1回合/1回合开始/本刻/本轮/焦点/永久/条件:…/1d4轮\n"
        ".init re 目标 [效果]；.init focus 目标 效果；.init swap A B；.init first A\n"
        ".init meta [-沉淀 开/关] [-延后 规则/原文] [-当前先攻 累加/重置]；.init gm @某人；.init end 确认"
    ),
    aliases=("先攻",),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_init(call: Call) -> list[Reply]:
    word, _, rest = call.args.partition(" ")
    sub = SUB_ALIASES.get(word.lower())
    if sub is None:
        # ".init 3" style or a name → status of that combatant
        sub, rest = "status", call.args
    handler = SUBCOMMANDS[sub]
    return await handler(call, rest.strip())


async def init_list(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    replies = [Reply.say(R.combat_list(state))]
    if rest in ("全", "all") and await is_gm(call, state):
        replies.append(Reply.whisper(R.combat_list(state, gm=True), fallback="（GM视图私聊失败）"))
    return replies


async def init_begin(call: Call, rest: str) -> list[Reply]:
    current = await load(call)
    if current is not None and current.phase is Phase.ACTIVE:
        raise IllegalAction(f"已有进行中的战斗（第{current.round}轮），.init end 确认 结束 / .init 查看")
    words = rest.split()
    variant = Variant.BASE
    options: dict[str, Any] = {}
    i = 0
    while i < len(words):
        w = words[i]
        if w.lower() in VARIANT_ALIASES:
            variant = VARIANT_ALIASES[w.lower()]
        elif w in ("-沉淀", "沉淀"):
            options["settle"] = True
        elif w in ("-名", "-name") and i + 1 < len(words):
            options["name"] = words[i + 1][:20]
            i += 1
        else:
            raise call.usage_error(f"不认识「{w}」；格式 .init begin [基础/速度] [-沉淀] [-名 X]")
        i += 1
    state = fresh(call.ctx.user_id, variant=variant, **options)

    def fn(st: Combat | None) -> E.Outcome:
        if st is not None and st.phase is Phase.ACTIVE:
            raise IllegalAction(f"已有进行中的战斗（第{st.round}轮）")
        return E.Outcome(state, [])

    await apply(call, fn)
    extra = "，沉淀先攻" if options.get("settle") else ""
    return [
        Reply.say(f"新战斗（{R.VARIANT_NAMES[variant]}规则{extra}）：用 .ri 加入，GM 发送 .init start 开战")
    ]


def _card(state: Combat, events: list[Event]) -> Reply:
    """The turn card, @-mentioning the player whose turn it is (QQ notifies them)."""
    current = state.maybe(state.current) if state.phase is Phase.ACTIVE else None
    ping = (current.controller,) if current is not None and current.controller and not current.hidden else ()
    return Reply(text=R.turn_card(state, events), mentions=ping)


async def init_start(call: Call, rest: str) -> list[Reply]:
    state, events = await gm_op(call, "开战", E.start)
    return [_card(state, events)]


async def init_next(call: Call, rest: str, *, skip: bool = False) -> list[Reply]:
    state = need(await load(call))
    if state.phase is not Phase.ACTIVE:
        raise IllegalAction("战斗还没有开始（GM 发送 .init start）")
    gm = await is_gm(call, state)
    if skip and not gm:
        raise NotPermitted(f"只有{GM_WHO}可以跳过回合")
    if state.waiting:
        if not gm:
            raise NotPermitted(f"战斗暂停中，只有{GM_WHO}可以继续")
    else:
        cur = state.get(state.current or "")
        if not gm and not controls(call.ctx, cur):
            raise NotPermitted(
                f"现在是 {R.name_of(state, cur.id)} 的回合（第{state.tick}刻），只有 {R.name_of(state, cur.id)} 的玩家或 GM 可以结束"
            )
    now = time.time()
    if (
        not state.waiting
        and state.advanced_by not in (None, call.ctx.user_id)
        and 0 <= now - state.advanced_at < ADVANCE_GRACE
        and not controls(call.ctx, state.get(state.current or ""))
    ):
        who = R.name_of(state, state.current)
        raise IllegalAction(f"回合已经推进到 {who} 的回合（第{state.tick}刻），没有重复推进")
    seen = state.turn_no

    def fn(st: Combat | None) -> E.Outcome:
        outcome = E.end_turn(need(st), expected_turn=seen, skip=skip)
        outcome.state.advanced_at = now
        outcome.state.advanced_by = call.ctx.user_id
        return outcome

    state, events = await apply(call, fn)
    return [_card(state, events)]


async def init_skip(call: Call, rest: str) -> list[Reply]:
    return await init_next(call, rest, skip=True)


async def init_delay(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    cur = state.maybe(state.current)
    if cur is None:
        raise IllegalAction("现在没有人在进行回合")
    await require_control(call, state, cur, "延后")
    seen = state.turn_no

    def fn(st: Combat | None) -> E.Outcome:
        st = need(st)
        if st.turn_no != seen:
            raise IllegalAction("回合已经推进，没有延后")
        return E.delay(st)

    state, events = await apply(call, fn)
    return [_card(state, events)]


async def init_undo(call: Call, rest: str) -> list[Reply]:
    """Undo the last n tracker changes through the store's session log (effects, AP, HP included)."""
    n = int(rest) if rest.isdigit() else 1
    if not 1 <= n <= MAX_UNDO:
        raise InputSyntaxError(f"一次最多撤销{MAX_UNDO}步")
    state = need(await load(call))
    await require_gm(call, state, "撤销")
    done = 0
    for _ in range(n):
        if await call.app.store.undo(call.ctx.scope, SYSTEM) is None:
            break
        done += 1
    if not done:
        raise IllegalAction("没有可以撤销的操作")
    after = await load(call)
    if after is None:
        return [Reply.say(f"已撤销{done}步：现在没有进行中的战斗")]
    body = R.turn_card(after, []) if after.phase is Phase.ACTIVE else R.combat_list(after)
    return [Reply.say(f"已撤销{done}步。\n{body}")]


async def init_log(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    n = min(int(rest), 40) if rest.isdigit() else 12
    lines = R.event_lines(state, state.log[-n * 3 :])[-n:]
    return [Reply.say("战报：\n" + ("\n".join(lines) if lines else "（暂无）"))]


async def init_status(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    c = find_me(state, call.ctx) if not rest else E.find(state, rest)
    gm = await is_gm(call, state)
    if c.hidden and not gm:
        raise NotFound(f"没有找到参战者「{rest}」")
    lines = [
        f"{c.name}：先攻 {R.value_text(state, c)}（修正{c.init_mod:+d}，LV{c.lv}，{c.side}）",
        f"AP {c.ap}/{c.ap_max}" if state.variant is Variant.BASE else f"SPD基础 {c.spd_base}",
    ]
    eff = R.effects_text(state, c.id, gm or controls(call.ctx, c))
    if eff:
        lines.append(eff)
    health = R.health_text(state, c, gm or controls(call.ctx, c))
    if health:
        lines.append(health)
    text = "\n".join(lines)
    if c.hidden:
        return [Reply.whisper(text, fallback="（私聊发送失败）")]
    return [Reply.say(text)]


async def init_end(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    await require_gm(call, state, "结束战斗")
    if "确认" not in rest and "confirm" not in rest:
        return [Reply.say(f"确定结束战斗（第{state.round}轮）吗？发送 .init end 确认")]
    state, events = await apply(call, lambda st: E.end(need(st)))
    ev = next(e for e in events if e.kind == "end")
    return [Reply.say(R.summary(state, ev))]


SUBCOMMANDS: dict[str, Callable[[Call, str], Any]] = {
    "list": init_list,
    "begin": init_begin,
    "start": init_start,
    "next": init_next,
    "skip": init_skip,
    "delay": init_delay,
    "undo": init_undo,
    "set": init_set,
    "mod": init_mod,
    "add": init_add,
    "rm": init_rm,
    "eff": init_eff,
    "re": init_re,
    "focus": init_focus,
    "swap": init_swap,
    "first": init_first,
    "opt": init_opt,
    "meta": init_meta,
    "gm": init_gm,
    "surprise": init_surprise,
    "log": init_log,
    "end": init_end,
    "status": init_status,
}


@command(
    "ed",
    usage=".ed",
    summary="结束当前回合（同 .init next）",
    aliases=("结束回合", "下一个"),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_ed(call: Call) -> list[Reply]:
    return await init_next(call, "")


@command("延后", usage=".延后", summary="延后当前回合到下一刻（行动前）", system=SYS_NAME, group_only=True)
async def cmd_delay(call: Call) -> list[Reply]:
    return await init_delay(call, "")
