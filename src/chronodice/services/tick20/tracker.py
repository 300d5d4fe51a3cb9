"""The ``.init`` tracker flow: the ``.init`` command and its flow sub-commands ``begin``, ``start``,
``next``/``skip`` (the turn advance), ``delay``, ``undo``, ``list``/``status``/``log``, ``end``;
the ``.ed`` and ``.延后`` shortcuts.  GM tools (:mod:`.gm_tools`) and effects (:mod:`.effects`)
add their sub-commands to the same :data:`init` declaration.

``.init next`` carries the turn number the sender saw, so two people advancing at once move the
turn only once (C02).
"""

from __future__ import annotations

from dataclasses import dataclass

from chronodice.core.args import Candidates, Choice, Int, Kind, ParseEnv, Pattern, flag, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound, NotPermitted
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import Combat, Phase, Variant

from ._glue import (
    GM_WHO,
    SYS_NAME,
    SYSTEM,
    apply,
    check_dice,
    controls,
    find_me,
    fresh,
    gm,
    gm_op,
    load,
    must_be_gm,
    need,
    require_control,
    target_of,
)
from .kinds import COMBATANT, CONFIRM, VARIANT, option
from .views import split_view, turn_replies

ADVANCE_GRACE = 1.0
"""Seconds after someone else advanced the turn during which a ``.init next`` from a person who
does not control the new current actor counts as a duplicate of that advance (C02: two people
pressing at once, processed one after the other)."""

HIDDEN_TURN_REFUSAL = "还没有轮到你的回合（GM处理中，请稍候）"
"""A player's ``.ed`` on a hidden combatant's turn: it must not say whose turn it is."""

MAX_UNDO = 20
"""Steps one ``.init undo n`` may take back."""

init = define(
    "init",
    summary="D20刻度战斗追踪：开战、推进刻度、延后、效果时长、AP、伤势，GM 可撤销",
    detail=(
        "时长：3刻/2轮/1回合/1回合开始/本刻/本轮/焦点/永久/条件:…/1d4轮\n"
        "GM = 开战者、.init gm 指定者、群管理；玩家可以结束、延后自己的回合"
    ),
    aliases=("先攻",),
    system=SYS_NAME,
    group_only=True,
)


# --------------------------------------------------------------------------- list and status
@init.sub(
    "list",
    "查看",
    params=[opt("full", Choice(table={"全": True, "all": True}, label="全"), default=False)],
    help="查看先攻表（GM 加「全」私聊完整视图）",
    when_empty=True,
)
async def init_list(call: Call, full: bool) -> list[Reply]:
    state = need(await load(call))
    if call.ctx.screen:  # the GM asks from private chat (.gm 私聊): his full view, to him alone
        return [Reply.whisper(R.combat_list(state, gm=True))]
    replies = [Reply.say(R.combat_list(state))]
    if full and await gm(call, state):
        replies.append(Reply.whisper(R.combat_list(state, gm=True), fallback="（GM视图私聊失败）"))
    return replies


# --------------------------------------------------------------------------- begin / start
@init.sub(
    "begin",
    "开始战斗",
    "开启",
    flags=[
        VARIANT,
        flag("settle", "-沉淀", "沉淀", label="-沉淀"),
        option("name", ("-名", "-name"), Pattern(regex=r"[^\s]{1,20}", label="名称"), "-名 X"),
        CONFIRM,
    ],
    help="新战斗（基础/速度规则），然后 .ri 加入；清空已准备的先攻表需「确认」",
)
async def init_begin(
    call: Call, variant: Variant | None, settle: bool, name: str | None, confirm: bool
) -> list[Reply]:
    current = await load(call)
    if current is not None and current.phase is Phase.ACTIVE:
        raise IllegalAction(f"已有进行中的战斗（第{current.round}轮），.init end 确认 结束 / .init 查看")
    if not confirm and current is not None and current.phase is Phase.SETUP and current.combatants:
        # as .init end: a prepared lineup is not wiped by one message (issue 30)
        return [
            Reply.say(
                f"已有准备中的战斗（{len(current.combatants)}名参战者，尚未开战），重新开始会清空先攻表。"
                "确定吗？发送 .init begin 确认"
            )
        ]
    variant = variant or Variant.BASE
    options: dict[str, object] = {}
    if settle:
        options["settle"] = True
    if name is not None:
        options["name"] = name
    state = fresh(call.ctx.user_id, variant=variant, **options)

    def fn(st: Combat | None) -> E.Outcome:
        if st is not None and st.phase is Phase.ACTIVE:
            raise IllegalAction(f"已有进行中的战斗（第{st.round}轮）")
        if not confirm and st is not None and st.phase is Phase.SETUP and st.combatants:
            raise IllegalAction("有人刚刚加入了准备中的战斗，确定清空请发送 .init begin 确认")
        return E.Outcome(state, [])

    await apply(call, fn)
    extra = "，沉淀先攻" if options.get("settle") else ""
    return [
        Reply.say(f"新战斗（{R.VARIANT_NAMES[variant]}规则{extra}）：用 .ri 加入，GM 发送 .init start 开战")
    ]


@init.sub("start", "开战", help="开战：第1轮，发出回合卡（GM）")
async def init_start(call: Call) -> list[Reply]:
    dice = check_dice(call, await load(call))
    state, events = await gm_op(call, "开战", lambda st: E.start(st, dice=dice))
    return turn_replies(state, events)


# --------------------------------------------------------------------------- turn flow
@init.sub("next", "ed", "n", "下一个", "结束回合", help="结束当前回合（当前行动者的玩家或 GM）")
async def init_next(call: Call, *, skip: bool = False) -> list[Reply]:
    state = need(await load(call))
    if state.phase is not Phase.ACTIVE:
        raise IllegalAction("战斗还没有开始（GM 发送 .init start）")
    is_gm = await gm(call, state)
    if skip and not is_gm:
        raise NotPermitted(f"只有{GM_WHO}可以跳过回合")
    _may_end(call, state, is_gm)
    now = call.app.clock.timestamp()
    if (
        not state.waiting
        and state.advanced_by not in (None, call.ctx.user_id)
        and 0 <= now - state.advanced_at < ADVANCE_GRACE
        and not controls(call.ctx, state.get(state.current or ""))
    ):
        raise IllegalAction(_already_advanced(state))
    seen = state.turn_no
    dice = check_dice(call, state)

    def fn(st: Combat | None) -> E.Outcome:
        st = need(st)
        expected: int | None = seen
        if st.turn_no != seen and st.phase is Phase.ACTIVE:
            # an advance came in between (messages sent at GM speed, read before the one before
            # was written, as on PostgreSQL).  The sender's own: each is one advance, as when
            # each is read after the one before; may she end this turn too?  Another person's:
            # not repeated (C02), in the words of a message read after it.
            if st.advanced_by == call.ctx.user_id:
                _may_end(call, st, is_gm)
                expected = None
            elif not st.waiting:
                raise IllegalAction(_already_advanced(st))
        outcome = E.end_turn(st, expected_turn=expected, skip=skip, dice=dice)
        outcome.state.advanced_at = now
        outcome.state.advanced_by = call.ctx.user_id
        return outcome

    state, events = await apply(call, fn)
    return turn_replies(state, events)


def _already_advanced(state: Combat) -> str:
    """Why a second ``.init next`` right after another person's is not repeated: who just ended
    her turn, whose turn it is now, and that nothing more is needed (issue 26: a GM's
    ``.init next`` within a second of a player's ``.ed``)."""
    if R.hidden_turn(state):  # whose turn it is now is the GM's (issue 39)
        return "刚刚已经推进过了；无需再发 .init next，没有重复推进"
    now = R.name_of(state, state.current)
    ended = next((e for e in reversed(state.log) if e.kind == "turn_end"), None)
    last = state.maybe(ended.data.get("cid")) if ended is not None else None
    if last is None or last.hidden:
        return f"刚刚已经推进过了，现在是 {now} 的回合（第{state.tick}刻）；无需再发 .init next，没有重复推进"
    who = R.name_of(state, last.id)
    return (
        f"{who} 刚刚已经结束回合，现在是 {now} 的回合（第{state.tick}刻）；无需再发 .init next，没有重复推进"
    )


def _may_end(call: Call, state: Combat, is_gm: bool) -> None:
    """Whether the sender may end the turn ``state`` is in (its actor's player, or a GM)."""
    if state.waiting:
        if not is_gm:
            raise NotPermitted(f"战斗暂停中，只有{GM_WHO}可以继续")
        return
    cur = state.get(state.current or "")
    if not is_gm and cur.hidden:  # a hidden combatant's turn: the group only waits (issue 39)
        raise NotPermitted(HIDDEN_TURN_REFUSAL)
    if not is_gm and not controls(call.ctx, cur):
        who = R.name_of(state, cur.id)
        raise NotPermitted(f"现在是 {who} 的回合（第{state.tick}刻），只有 {who} 的玩家或 GM 可以结束")


@init.sub("skip", "跳过", help="当前行动者跳过回合（GM）")
async def init_skip(call: Call) -> list[Reply]:
    return await init_next(call, skip=True)


@init.sub("delay", "延后", help="延后当前回合到下一刻（行动前；当前行动者的玩家或 GM）")
async def init_delay(call: Call) -> list[Reply]:
    state = need(await load(call))
    cur = state.maybe(state.current)
    if cur is None:
        raise IllegalAction("现在没有人在进行回合")
    await require_control(call, state, cur, "延后")
    seen = state.turn_no
    dice = check_dice(call, state)

    def fn(st: Combat | None) -> E.Outcome:
        st = need(st)
        if st.turn_no != seen:
            raise IllegalAction("回合已经推进，没有延后")
        return E.delay(st, dice=dice)

    state, events = await apply(call, fn)
    return turn_replies(state, events)


@init.sub(
    "undo",
    "撤销",
    params=[opt("n", Int(label="步数"), default=1)],
    help="撤销最近 n 步（含效果、AP、HP；GM）",
)
async def init_undo(call: Call, n: int) -> list[Reply]:
    """Undo the last n tracker changes through the store's session log (effects, AP, HP included)."""
    if not 1 <= n <= MAX_UNDO:
        raise InputSyntaxError(f"一次最多撤销{MAX_UNDO}步")
    state = need(await load(call))
    await must_be_gm(call, state, "撤销")
    done = 0
    for _ in range(n):
        if await call.app.store.history.undo(call.ctx.scope, SYSTEM, claim=call.claim) is None:
            break
        done += 1
    if not done:
        raise IllegalAction("没有可以撤销的操作")
    after = await load(call)
    if after is None:
        return [Reply.say(f"已撤销{done}步：现在没有进行中的战斗")]
    body = R.turn_card(after, []) if after.phase is Phase.ACTIVE else R.combat_list(after)
    return [Reply.say(f"已撤销{done}步。\n{body}")]


LOG_PAGE = 12
"""Lines of one ``.init log`` page."""


@init.sub(
    "log",
    "战报",
    params=[opt("page", Int(label="页码"), default=1)],
    help="战报：最近的一页；.init log 2 往前翻",
)
async def init_log(call: Call, page: int) -> list[Reply]:
    """The battle report, newest page first (issue 39: ``.init log`` after two rounds showed 13
    lines from the middle of round 1 and no way to the rest): page 1 is the last
    :data:`LOG_PAGE` lines, in order; the head says which page of how many, and the foot how to
    see the earlier ones.  The combat keeps its last :data:`~chronodice.rules.tick20.engine.LOG_DEPTH`
    events, so the last page says when older ones are gone."""
    state = need(await load(call))
    lines = R.event_lines(state, state.log, turns=True)
    pages = max(1, -(-len(lines) // LOG_PAGE))
    if not 1 <= page <= pages:
        raise IllegalAction(f"战报只有{pages}页（.init log {pages} 是最早的一页）")
    end = len(lines) - (page - 1) * LOG_PAGE
    shown = lines[max(0, end - LOG_PAGE) : end]
    head = "战报：" if pages == 1 else f"战报（第{page}/{pages}页）："
    foot = []
    if page < pages:
        foot.append(f"（更早的：.init log {page + 1}）")
    elif len(state.log) >= E.LOG_DEPTH:
        foot.append(f"（只保存最近{E.LOG_DEPTH}条事件，更早的已不在）")
    return [Reply.say("\n".join([head, *(shown or ["（暂无）"]), *foot]))]


@init.sub("end", "clr", "结束战斗", flags=[CONFIRM], help="结束战斗并总结（GM；需「确认」）")
async def init_end(call: Call, confirm: bool) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "结束战斗")
    if not confirm:
        return [Reply.say(f"确定结束战斗（第{state.round}轮）吗？发送 .init end 确认")]
    state, events = await apply(call, lambda st: E.end(need(st)))
    ev = next(e for e in events if e.kind == "end")
    replies = [Reply.say(R.summary(state, ev))]
    if any(c.hidden for c in state.combatants):
        replies.append(Reply.whisper(R.summary(state, ev, gm=True), fallback="（GM视图私聊失败）"))
    return replies


@init.sub("status", "详情", params=[opt("who", COMBATANT)], help="一名参战者的详情（不写名称=自己的）")
async def init_status(call: Call, who: str | None) -> list[Reply]:
    """One combatant's details: the player view in the group; a GM also gets the GM view (HP
    numbers, hidden durations) privately when it says more.  A hidden combatant: GM only, privately."""
    state = need(await load(call))
    is_gm = await gm(call, state)
    c = find_me(state, call.ctx) if who is None else target_of(state, call.ctx, who, hidden=is_gm)
    if c.hidden and not is_gm:
        raise NotFound(f"没有找到参战者「{who}」")
    mine = controls(call.ctx, c)

    def text(gm_view: bool) -> str:
        see = gm_view or mine
        lines = [
            f"{R.name_of(state, c.id, gm_view)}：先攻 {R.value_text(state, c)}（修正{c.init_mod:+d}，LV{c.lv}，{c.side}）",
            f"AP {c.ap}/{c.ap_max}" if state.variant is Variant.BASE else f"SPD基础 {c.spd_base}",
        ]
        eff = R.effects_text(state, c.id, see)
        if eff:
            lines.append(eff)
        health = R.health_text(state, c, see)
        if health:
            lines.append(health)
        wounds = R.parts_text(c) if see else ""
        if wounds:
            lines.append(f"伤势：{wounds}")
        return "\n".join(lines)

    if c.hidden:
        return [Reply.whisper(text(True), fallback="（私聊发送失败）")]
    return await split_view(call, state, c, text(False), text(True) if is_gm else text(False))


@init.sub("全", "all", "全部", "gm视图", help="GM：私聊完整视图（含隐藏参战者与NPC的数值）")
async def init_full(call: Call) -> list[Reply]:
    """``.init 全``: everything, to the GM by private message; nothing in the group."""
    state = need(await load(call))
    await must_be_gm(call, state, "查看完整视图")
    lines = [R.combat_list(state, gm=True)]
    for c in R.list_order(state, state.combatants):
        wounds = R.parts_text(c)
        if wounds:
            lines.append(f"{c.name} 伤势：{wounds}")
    return [Reply.whisper("\n".join(lines), fallback="（GM视图私聊失败，请先加骰娘为好友）")]


@dataclass(frozen=True)
class _StatusName(Kind):
    """A combatant's name that is not one of ``.init``'s sub-command words (``.init gm`` with its
    argument missing is the ``gm`` form's error, not the status of someone called gm)."""

    label: str = "参战者"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for value, end in COMBATANT.candidates(text, pos, env):
            if init.find_sub(value) is None:
                yield value, end


init.sub(params=[opt("who", _StatusName())], help="同 .init status <名称>")(init_status)


# --------------------------------------------------------------------------- shortcuts
ed = define(
    "ed",
    summary="结束当前回合（同 .init next）",
    aliases=("结束回合", "下一个"),
    system=SYS_NAME,
    group_only=True,
)


@ed.sub(help="结束当前回合", when_empty=True)
async def cmd_ed(call: Call) -> list[Reply]:
    return await init_next(call)


delay = define("延后", summary="延后当前回合到下一刻（行动前）", system=SYS_NAME, group_only=True)


@delay.sub(help="延后当前回合", when_empty=True)
async def cmd_delay(call: Call) -> list[Reply]:
    return await init_delay(call)
