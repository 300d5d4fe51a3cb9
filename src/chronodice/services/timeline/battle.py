"""The TimeLine battle timeline: ``.bat`` (actions, show, log, out, end, cancel, 先攻, 推进).

The battle is the session ``(scope, "timeline")`` holding a
:class:`~chronodice.rules.timeline.battle.BattleState`; every change goes through
``_apply_battle`` so ``.undo`` reverts the last timeline command.  Artillery ammunition is kept in
the battle while it runs and written back to the character on ``.bat out`` / ``.bat end``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from chronodice.core.commands import Call, command
from chronodice.core.errors import ChronoDiceError, IllegalAction, InputSyntaxError
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.character import TLCharacter, set_ammo
from chronodice.rules.timeline.rounding import fmt, r0

from ._common import (
    SYS_CN,
    SYSTEM,
    T,
    _actor,
    _amount,
    _battle,
    _display,
    _glued_alias,
    _index,
    _mutate,
    _num,
    _require_gm_unless_open,
    _split_attr_amount,
)

# ====================================================================== .bat
BAT_USAGE = ".bat 属性 影响数值|前摇t [备注] | .bat wp 影响数值|前摇t|发数|re [备注] | .bat [图|记录 页|out|end|取消|先攻|推进 t]"
BAT_WORDS = ("wp", "out", "end", "show", "pic", "img", "log", "cancel", "init", "advance")


async def _apply_battle(
    call: Call, fn: Callable[[bt.BattleState], tuple[bt.BattleState | None, T]], *, create: bool = False
) -> T:
    def outer(raw: dict[str, Any] | None) -> tuple[dict[str, Any] | None, T]:
        if raw is None and not create:
            raise IllegalAction("没有战斗数据×")
        state = bt.BattleState.from_dict(raw) if raw is not None else bt.new_battle()
        new, result = fn(state)
        return (None if new is None else new.to_dict()), result

    return await call.app.store.apply_session(
        call.ctx.scope, SYSTEM, outer, user_id=call.ctx.user_id, command=call.command_text
    )


async def _write_back_ammo(call: Call, participants: list[bt.Participant]) -> None:
    """Battle ammunition → the characters' weapons (on leaving or ending)."""
    for p in participants:
        if not p.ammo:
            continue
        rec = await call.app.store.get_character(p.character_id)
        if rec is None or rec.system != SYSTEM:
            continue

        def transition(c: TLCharacter, ammo: dict[str, int] = p.ammo) -> tuple[TLCharacter, None]:
            for w in c.weapons:
                if str(w.uid) in ammo and w.load is not None:
                    c = set_ammo(c, w.uid, min(ammo[str(w.uid)], w.load))
            return c, None

        try:
            await _mutate(call, rec, transition)
        except ChronoDiceError:
            continue


async def _show(call: Call, display: view.Display, *, picture: bool = False) -> list[Reply]:
    state = await _battle(call)
    text = view.timeline_text(state, display)
    long = len(state.participants) > view.MAX_TEXT_BLOCKS or len(text) > 1400
    if picture or long:
        return [Reply(text="" if picture else text[:1400], image=view.timeline_image(state, display))]
    return [Reply.say(text)]


@command(
    "bat",
    aliases=("ba",),
    usage=BAT_USAGE,
    summary="战斗时间轴：行动、查看、退出、结束、取消、先攻",
    detail=(
        "行动从自己上一个行动结算时开始，中途加入者从当前战斗时间开始。\n"
        ".bat 取消：取消自己仍在前摇中的最近一个行动；.bat 图：时间轴图片；.bat 记录 [页]：全部行动；\n"
        "GM：.bat end 结束；.bat 先攻 [角色名:]（被动方从先攻者前摇过半时开始）；.bat 推进 t；\n"
        "代行动：.bat 角色名:力量 150 或 .bat @玩家 力量 150（默认仅GM）；.undo 撤销最近一条时间轴操作。"
    ),
    system=SYS_CN,
    group_only=True,
)
async def cmd_bat(call: Call) -> list[Reply]:
    if _glued_alias(call, BAT_WORDS) or call.raw_args.lower().startswith("tle"):
        return []
    tokens = call.args.split()
    display = await _display(call)
    head = tokens[0].lower() if tokens else ""
    if not tokens or head in ("show", "显示", "查看"):
        return await _show(call, display)
    if head in ("图", "pic", "img", "图片"):
        return await _show(call, display, picture=True)
    if head in ("记录", "log"):
        page = _index(tokens[1]) if len(tokens) > 1 else 10**9
        return [Reply.say(view.log_page(await _battle(call), display, page))]
    if head in ("end", "结束"):
        await _require_gm_unless_open(call, "结束战斗")
        state = await _apply_battle(call, lambda s: (None, s))
        await _write_back_ammo(call, list(state.participants))
        return [Reply.say("战斗结束，时间轴归位√")]
    if head in ("推进", "advance"):
        await _require_gm_unless_open(call, "推进战斗时间")
        to = _num(tokens[1]) if len(tokens) > 1 else None
        if to is None:
            raise call.usage_error("请给出要推进到的时间，如 .bat 推进 30")
        _, done = await _apply_battle(call, lambda s: _pair(bt.advance(s, to)))
        text = f"战斗时间推进到{fmt(to)}t，结算{len(done)}个行动"
        return [
            Reply.say(text + "\n" + view.timeline_text(bt.BattleState.from_dict(await _raw(call)), display))
        ]
    if head in ("先攻", "init"):
        await _require_gm_unless_open(call, "设定先攻")
        _, _, ref, _ = await _actor(call, tokens[1:])
        passive = await _apply_battle(call, lambda s: _drop_events(bt.set_initiative(s, ref.key)))
        return [Reply.say(f"[{ref.name}]先攻√ 其他角色从{fmt(passive)}t开始行动")]
    _rec, char, ref, tokens = await _actor(call, tokens)
    head = tokens[0].lower() if tokens else ""
    if head in ("out", "退出"):
        try:
            state = await _apply_battle(call, lambda s: _with_state(bt.leave(s, ref.key)))
        except IllegalAction:
            return [Reply.say(f"角色[{ref.name}]没有参与战斗×")]
        p = state.participant(ref.key)
        await _write_back_ammo(call, [p] if p else [])
        return [Reply.say(f"角色[{ref.name}]退出战斗√")]
    if head in ("取消", "cancel"):
        state, action = await _apply_battle(call, lambda s: _cancel(s, ref.key))
        when = (
            "（尚未开始）"
            if action.cancelled_at == action.start
            else f"于{display.windup(action.cancelled_at or 0)}t"
        )
        text = f"[{ref.name}]取消行动#{action.id}{when}√ 下一个行动从{display.windup(state.free_at(ref.key))}t开始"
        return [Reply.say(text)]
    if not tokens:
        raise call.usage_error("请给出行动")
    if head == "wp":
        fn = _weapon_action(char, ref, tokens[1:])
    else:
        attr, impact, time, note = _split_attr_amount(tokens, BAT_USAGE)
        value = char.check(attr)

        def fn(s: bt.BattleState) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
            new, action, events = bt.attribute_action(
                s, ref, attr, value, impact=impact, time=time, note=note
            )
            return new, (new, action, events)

    state, action, events = await _apply_battle(call, fn, create=True)
    lines = []
    if any(e.kind == "join" for e in events):
        lines.append(f"[{ref.name}]{'（NPC）' if ref.npc else ''}在{display.windup(action.start)}t加入战斗")
    label = "整备中..." if action.kind == "reload" else f"影响 {fmt(action.impact)}"
    lines.append(
        f"行动#{action.id} {ref.name}：{display.windup(action.start)}t → {display.windup(action.end)}t"
        f"（前摇{display.windup(action.windup)}t）{label}"
    )
    lines.append(view.timeline_text(state, display))
    return [Reply.say("\n".join(lines))]


def _weapon_action(
    char: TLCharacter, ref: bt.ParticipantRef, tokens: list[str]
) -> Callable[[bt.BattleState], tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]]:
    weapon = char.weapon()
    if not tokens:
        raise InputSyntaxError("请给出影响数值、前摇t、发射弹药数或 re（装填）", usage=BAT_USAGE)
    arg, note = tokens[0], " ".join(tokens[1:])[:60]
    if weapon.type == "other":
        raise IllegalAction("战斗指令不支持[其他]类型武器×")
    if weapon.type == "artillery":
        if re.match(r"^(re(load)?|装填|换弹)$", arg.lower()):
            shots: int | None = None
        else:
            if arg[-1:] in ("t", "T"):
                raise IllegalAction("武器指令错误× 火力武器必须使用数字作为发射弹药数！")
            n = _num(arg)
            if n is None:
                raise InputSyntaxError(f"[{arg[:10]}]不是数字", usage=BAT_USAGE)
            shots = int(r0(n))

        def fire(
            s: bt.BattleState,
        ) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
            new, action, events = bt.artillery_action(s, ref, weapon, shots, note=note)
            return new, (new, action, events)

        return fire
    amount = _amount(arg)
    if amount is None:
        raise InputSyntaxError(f"[{arg[:10]}]不是数字（影响数值如 150，前摇如 10t）", usage=BAT_USAGE)
    value = char.check(weapon.attribute or "strength")
    impact, time = (None, amount[0]) if amount[1] else (amount[0], None)

    def swing(s: bt.BattleState) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
        new, action, events = bt.amplifier_action(s, ref, weapon, value, impact=impact, time=time, note=note)
        return new, (new, action, events)

    return swing


def _pair(
    result: tuple[bt.BattleState, list[bt.Action]],
) -> tuple[bt.BattleState, tuple[bt.BattleState, list[bt.Action]]]:
    return result[0], result


def _drop_events(result: tuple[bt.BattleState, float, list[bt.Event]]) -> tuple[bt.BattleState, float]:
    return result[0], result[1]


def _with_state(result: tuple[bt.BattleState, list[bt.Event]]) -> tuple[bt.BattleState, bt.BattleState]:
    return result[0], result[0]


def _cancel(s: bt.BattleState, key: str) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action]]:
    new, action, _ = bt.cancel_action(s, key)
    return new, (new, action)


async def _raw(call: Call) -> dict[str, Any]:
    raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
    return raw or bt.new_battle().to_dict()
