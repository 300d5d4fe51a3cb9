"""The TimeLine battle timeline: ``.bat`` (actions, show, log, out, end, cancel, 先攻, 推进;
``开始`` is in :mod:`.opening`, ``控制`` in :mod:`.control`, whom ``>目标`` names in :mod:`.targets`).

The battle is the session ``(scope, "timeline")`` holding a
:class:`~chronodice.rules.timeline.battle.BattleState`; every change goes through
``apply_battle`` (a command that can settle actions through :func:`.feed.move_clock`, which lists
what settled) so ``.undo`` reverts the last timeline command.  Replies are compact (issue 25:
at most six lines, :mod:`chronodice.render.timeline_feed`); bare ``.bat`` and ``.bat 记录`` keep
the long form, and ``.bat 详细 开`` (:mod:`.options`) brings it back everywhere.  ``.bat end``
gives the battle's summary.  Artillery ammunition is kept in the battle while it runs and written
back to the character on ``.bat out`` / ``.bat end``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chronodice.core.args import Choice, Int, Mention, Name, OneOf, Prefixed, arg, flag, opt, rest
from chronodice.core.commands import Call, define
from chronodice.core.errors import ChronoDiceError, IllegalAction
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.render.timeline_feed import fit, kind_tag, summary_lines
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import battle_actions as ba
from chronodice.rules.timeline.character import TLCharacter, set_ammo
from chronodice.rules.timeline.rounding import fmt
from chronodice.rules.timeline.secrecy import is_secret, public
from chronodice.rules.timeline.summary import summarize
from chronodice.store import CharacterRecord

from ._common import (
    SYS_CN,
    SYSTEM,
    display_of,
    mutate_tl,
    require_unless_open,
    running_battle,
    unseen_unless_gm,
    who_acts,
)
from .debuffs import record_weakened
from .declare import (
    RELOAD,
    enlisting,
    in_secret,
    noted,
    one_at_a_time,
    overload_gate,
    weapon_action,
)
from .feed import apply_battle, battle_reply, fit_replies, move_clock
from .kinds import ACTION_REF, Action, ActionKind, ActionRef, Amount, AmountKind, Number
from .secrets import group_view
from .targets import TARGET, aim
from .views import battle_vitals

# ====================================================================== .bat
ACTOR_AFTER = opt("actor", OneOf(Prefixed(), Name(label="角色名")), label="角色名")
WHO = opt("who", Mention())
OUT_WORDS = ("out", "退出")
CANCEL_WORDS = ("取消", "cancel")
SECRET = flag("secret", "暗", label="暗")
WP_ARG = OneOf(Choice({"re": RELOAD, "reload": RELOAD, "装填": RELOAD, "换弹": RELOAD}), AmountKind())


async def _write_back_ammo(
    call: Call, participants: list[bt.Participant]
) -> list[tuple[CharacterRecord, int]]:
    """Battle ammunition → the characters' weapons (on leaving or ending); returns each changed
    card as it was with its version after, so ``.undo`` of the same command puts it back."""
    undo: list[tuple[CharacterRecord, int]] = []
    for p in participants:
        if not p.ammo:
            continue
        rec = await call.app.store.characters.get_character(p.character_id)
        if rec is None or rec.system != SYSTEM:
            continue

        def transition(c: TLCharacter, ammo: dict[str, int] = p.ammo) -> tuple[TLCharacter, None]:
            for w in c.weapons:
                if str(w.uid) in ammo and w.load is not None:
                    c = set_ammo(c, w.uid, min(ammo[str(w.uid)], w.load))
            return c, None

        box: dict[str, Any] = {}
        try:
            old, new, _ = await mutate_tl(call, rec, transition, box)
        except ChronoDiceError:
            continue
        if old != new and "before" in box:
            undo.append(box["before"])
    return undo


async def _show(
    call: Call, display: view.Display, *, picture: bool = False, page: int | None = None, full: bool = False
) -> list[Reply]:
    """The timeline as the group may see it; the GM asking from private chat (``.gm 私聊``) sees
    everything, hidden NPCs and secret actions included, and only the GM gets it."""
    state = await running_battle(call)
    if not call.ctx.screen:
        state, display = group_view(state, display)
    vitals = await battle_vitals(call, state)
    if full or display.verbose:
        text = view.timeline_text(state, display, vitals=vitals)
    else:
        text = view.roster_text(state, display, vitals=vitals)
    long = len(state.participants) > view.MAX_TEXT_BLOCKS or len(text) > 1400
    private = call.ctx.screen
    if picture or long:
        image = view.timeline_image(state, display, vitals=vitals, page=page)
        return [Reply(text="" if picture else text[:1400], image=image, private=private)]
    return [Reply(text=text, private=private)]


bat = define(
    "bat",
    aliases=("ba",),
    summary="战斗时间轴：开始、行动、查看、退出、结束、取消、先攻",
    detail=(
        "行动从自己上一个行动结算时开始。战斗时间=最早一个还没有宣言下一个行动的角色的时刻，"
        "在此之前结算的行动已发生，之后的仍可取消（.bat 取消 #编号）。开场时所有角色同时宣言，"
        "谁先打字都不算晚到：新加入者从0t开始，直到GM .bat 开始（可列出参战角色，未宣言者让战斗时间停在0t）"
        "或第一个行动结算（GM带#编号记伤害/控制，或推进），此后从当前战斗时间开始。"
        ">目标 指定行动对象（也可以是尚未宣言的本群角色），结算时若对方正在前摇会判定交互；"
        "备注说明行动是什么，骰娘读出种类（伤害、精神伤害、治疗、护盾、闪避、招架、打断、控制、减益、增益、移动、交涉、其他）"
        "并按种类结算：闪避/招架/护盾抵消打向自己的影响（大者减小者），打断只对目标前摇中的行动有效，"
        "治疗回复体力，控制在备注写抵抗属性即自动生效，增益/移动/交涉不改体力意志；读不出时打对面算伤害、"
        "打自己人算其他，.bat 类型 #N 种类 可改；"
        "推进N：到N为止没有行动的角色等待到N。"
        "每条推动时间的指令列出结算的行动（谁、做什么、影响、目标、交互结果），命中附 .crd 指令；"
        ".bat 自动伤害 开 则由骰娘直接记体力意志。回复不超过6行，.bat 每人一行，.bat 全 看完整时间轴（.bat 详细 开 每次都附）；"
        ".bat end 给出战斗总结。\n"
        "代行动：.bat 角色名:力量 150 或 .bat @玩家 力量 150（默认仅GM，.tlconf open 开放）；"
        ".undo 撤销最近一条时间轴操作。"
    ),
    system=SYS_CN,
    group_only=True,
)


@bat.sub(
    params=[
        opt("actor", Prefixed()),
        WHO,
        arg(
            "action",
            OneOf(Choice({w: "out" for w in OUT_WORDS} | {w: "cancel" for w in CANCEL_WORDS}), ActionKind()),
            label="属性 影响数值|前摇t",
        ),
        opt("target", TARGET),
        rest("note"),
    ],
    flags=[SECRET],
    help="宣言行动（属性与数值顺序不限，>目标 指定对象，可加备注，备注说明行动是什么：治疗、打断、闪避、眩晕 意志……）；角色名:/@玩家 代他人行动",
)
async def bat_action(
    call: Call,
    actor: str | None,
    who: str | None,
    action: Action | str,
    target: str | None,
    note: str,
    secret: bool = False,
) -> list[Reply]:
    if action == "out":
        return await bat_out(call, actor, who)
    if action == "cancel":
        return await bat_cancel(call, None, actor, who)
    assert isinstance(action, Action)
    display = await display_of(call)
    _rec, char, ref = await who_acts(call, actor, who)
    named = bool(actor) or who is not None
    overridden = await overload_gate(call, char, named=named)
    allowed = named and await call.app.is_gm(call.ctx)
    value = char.check(action.attr)
    whom, note = await aim(call, target, note)
    key = whom.key if whom else None

    def fn(s: bt.BattleState) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
        new, act, events = ba.attribute_action(
            s, ref, action.attr, value, impact=action.impact, time=action.time, note=note[:60], target=key
        )
        return new, (new, act, events)

    fn = one_at_a_time(ref, in_secret(ref, fn, secret), allowed)
    replies = await record_weakened(call, ref, enlisting(whom, fn), display, _record)
    return fit_replies(noted(replies, overridden), display)


@bat.sub("show", "显示", "查看", help="查看时间轴（每人一行）", when_empty=True)
async def bat_show(call: Call) -> list[Reply]:
    return await _show(call, await display_of(call))


@bat.sub("全", "完整", "full", help="查看时间轴（每人最近行动的完整信息）")
async def bat_full(call: Call) -> list[Reply]:
    return await _show(call, await display_of(call), full=True)


@bat.sub(
    "图",
    "图片",
    "pic",
    "img",
    params=[opt("page", Int(label="页", min=1))],
    help="时间轴图片（可加页码，默认当前时刻所在页）",
)
async def bat_picture(call: Call, page: int | None) -> list[Reply]:
    return await _show(call, await display_of(call), picture=True, page=page)


@bat.sub("记录", "log", params=[opt("page", Int(label="页", min=1))], help="全部行动记录（分页）")
async def bat_log(call: Call, page: int | None) -> list[Reply]:
    state, display = await running_battle(call), await display_of(call)
    if call.ctx.screen:
        return [Reply.whisper(view.log_page(state, display, page or 10**9))]
    state, display = group_view(state, display)
    return [Reply.say(view.log_page(state, display, page or 10**9))]


@bat.sub(
    "wp",
    params=[
        opt("actor", Prefixed()),
        WHO,
        arg("arg", WP_ARG, label="影响数值|前摇t|发数|re"),
        opt("target", TARGET),
        rest("note"),
    ],
    flags=[SECRET],
    help="用当前武器行动（增幅：影响数值或前摇t；火力：发数或 re 装填；>目标 指定对象）",
)
async def bat_weapon(
    call: Call,
    actor: str | None,
    who: str | None,
    arg: float | str | Amount,
    target: str | None,
    note: str,
    secret: bool = False,
) -> list[Reply]:
    display = await display_of(call)
    _rec, char, ref = await who_acts(call, actor, who)
    named = bool(actor) or who is not None
    overridden = await overload_gate(call, char, named=named)
    allowed = named and await call.app.is_gm(call.ctx)
    whom, note = await aim(call, target, note)
    fn = weapon_action(call, char, ref, arg, note[:60], whom.key if whom else None)
    fn = one_at_a_time(ref, in_secret(ref, fn, secret), allowed)
    replies = await record_weakened(call, ref, enlisting(whom, fn), display, _record)
    return fit_replies(noted(replies, overridden), display)


@bat.sub(*OUT_WORDS, params=[ACTOR_AFTER, WHO], help="退出战斗")
async def bat_out(call: Call, actor: str | None, who: str | None) -> list[Reply]:
    _rec, _char, ref = await who_acts(call, actor, who)
    try:
        before = await running_battle(call)
        p = before.participant(ref.key)
        bt.leave(before, ref.key)  # refused before any card is written
    except IllegalAction:
        return [Reply.say(f"角色[{ref.name}]没有参与战斗×")]
    # as for `.bat end`: the ammunition goes to the card in the same logged command, so that
    # `.undo` takes both back
    cards = await _write_back_ammo(call, [p] if p else [])

    def fn(s: bt.BattleState) -> tuple[bt.BattleState, None]:
        return bt.leave(s, ref.key)[0], None

    moved = await move_clock(call, fn, characters_before=cards)
    return await battle_reply(call, [f"角色[{ref.name}]退出战斗√"], moved, await display_of(call))


@bat.sub(
    *CANCEL_WORDS,
    params=[opt("ref", ACTION_REF), ACTOR_AFTER, WHO],
    help="取消尚未结算的行动：默认自己最近的一个，#编号 取消自己更早的（GM可取消任何人的）",
)
async def bat_cancel(call: Call, ref: ActionRef | None, actor: str | None, who: str | None) -> list[Reply]:
    display = await display_of(call)
    key: str | None
    if ref is not None and actor is None and who is None:
        state0 = await running_battle(call)
        owner = state0.participant(state0.action(ref.id).key)
        mine = await call.app.store.characters.active_character(call.ctx.user_id, call.ctx.scope)
        if owner is not None and (mine is None or owner.key != f"c{mine.id}"):
            await unseen_unless_gm(call, state0, state0.action(ref.id))
            await require_unless_open(call, "取消其他角色的行动")
        key = None
        name = owner.name if owner else "?"
    else:
        _rec, _char, pref = await who_acts(call, actor, who)
        key, name = pref.key, pref.name
    moved = await move_clock(call, lambda s: _cancel(s, key, ref.id if ref else None))
    state, action = moved.after, moved.result
    when = (
        "（尚未开始）"
        if action.cancelled_at == action.start
        else f"于{display.windup(action.cancelled_at or 0)}t"
    )
    head = f"[{name}]取消行动#{action.id}{when}√ 下一个行动从{display.windup(state.free_at(action.key))}t开始"
    return await battle_reply(call, [head], moved, display)


@bat.sub("end", "结束", help="结束战斗，时间轴归位，并给出战斗总结（默认仅GM）")
async def bat_end(call: Call) -> list[Reply]:
    await require_unless_open(call, "结束战斗")
    # The ammunition goes back to the cards first, then the battle ends in one logged command
    # that carries those cards: `.undo` brings the battle back and the cards' ammunition too.
    state = await running_battle(call)
    cards = await _write_back_ammo(call, list(state.participants))

    # issue 25: the summary of the battle as it ended (a group reply: a recording .log keeps it);
    # a hidden NPC that never acted stays unknown, as do actions still secret
    summary = await apply_battle(call, lambda s: (None, summarize(public(s).state)), characters_before=cards)
    return [Reply.say("\n".join(fit(summary_lines(summary, await display_of(call)))))]


@bat.sub(
    "推进",
    "advance",
    params=[arg("to", Number(label="时间", signed=False))],
    help="推进战斗时间：到该时刻为止没有行动的角色等待到该时刻（默认仅GM）",
)
async def bat_advance(call: Call, to: float) -> list[Reply]:
    await require_unless_open(call, "推进战斗时间")
    display = await display_of(call)
    moved = await move_clock(call, lambda s: bt.advance(s, to))
    before, state = moved.before, moved.after
    shown = public(state).state  # who waited, as far as the group knows
    waited = [p.name for p in shown.living() if before.free_at(p.key) < state.clock]
    text = f"战斗时间推进到{display.windup(state.clock)}t，结算{len(moved.resolutions)}个行动"
    if waited:
        text += f"；{'、'.join(waited)}等待到{display.windup(state.clock)}t"
    return await battle_reply(call, [text], moved, display)


@bat.sub("先攻", "init", params=[ACTOR_AFTER, WHO], help="设定先攻者，被动方从其前摇过半时开始（默认仅GM）")
async def bat_init(call: Call, actor: str | None, who: str | None) -> list[Reply]:
    await require_unless_open(call, "设定先攻")
    _, _, ref = await who_acts(call, actor, who)
    passive = await apply_battle(call, lambda s: _drop_events(bt.set_initiative(s, ref.key)))
    return [Reply.say(f"[{ref.name}]先攻√ 其他角色从{fmt(passive)}t开始行动")]


async def _record(
    call: Call,
    ref: bt.ParticipantRef,
    fn: Callable[[bt.BattleState], tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]],
    display: view.Display,
) -> list[Reply]:
    moved = await move_clock(call, fn, create=True)
    state, (_, action, events) = moved.after, moved.result
    lines = []
    known = {p.key for p in public(moved.before).state.participants}  # joined as a secret's target
    if any(e.kind == "join" and e.key == ref.key for e in events) or ref.key not in known:
        lines.append(f"[{ref.name}]{'（NPC）' if ref.npc else ''}在{display.windup(action.start)}t加入战斗")
    for e in events:
        if e.kind == "join" and e.key != ref.key:  # the target, brought in by this action
            lines.append(
                f"[{_name(state, e.key)}]作为目标在{display.windup(e.time)}t加入战斗（尚未宣言行动，战斗时间等其宣言）"
            )
    label = "整备中..." if action.kind == "reload" else f"影响 {fmt(action.impact)}"
    if action.weapon:
        w = action.weapon
        label += f" {w['name']}" + (f"[{w['after']}/{w['load']}]" if w["type"] == "artillery" else "")
    lines.append(
        f"行动#{action.id} {ref.name}：{display.windup(action.start)}t → {display.windup(action.end)}t"
        f"（前摇{display.windup(action.windup)}t）{label}"
        + (f" →{_name(state, action.target)}" if action.target else "")
        + (f" {action.note}" if action.note else "")
        + kind_tag(action)
    )
    if is_secret(state, action):  # the GM alone learns of it; the group only what it moved
        whisper = Reply.whisper("〔暗〕" + "\n".join(lines))
        return [whisper, *await battle_reply(call, [], moved, display, quiet=True)]
    if not state.started and len(state.actions_of(ref.key)) == 2:
        # issue 25: a second declaration no longer ends the opening; say so once, where it did
        lines.append("（开场中：还没宣言的角色仍从0t开始；GM .bat 开始 后按战斗时间结算）")
    # not fitted here: the overload and debuff notes come first, then the whole reply is fitted
    return await battle_reply(call, lines, moved, display, fitted=False)


def _drop_events(result: tuple[bt.BattleState, float, list[bt.Event]]) -> tuple[bt.BattleState, float]:
    return result[0], result[1]


def _cancel(s: bt.BattleState, key: str | None, action_id: int | None) -> tuple[bt.BattleState, bt.Action]:
    new, action, _ = bt.cancel_action(s, key, action_id)
    return new, action


def _name(state: bt.BattleState, key: str | None) -> str:
    p = state.participant(key or "")
    return p.name if p else "?"
