"""``.bat 控制``: a control effect (眩晕 and the like) on the battle timeline.

The rule book (控制效果, 构筑基本法 第二条): the duration is the windup the target needs to resist
the caster's impact with the attribute named for it, ``T = 20·I/A``.  The engine
(:mod:`chronodice.rules.timeline.interactions`) pauses the target's windup for ``T`` from the
moment the controlling action resolved and lets nothing of the target start inside it.
"""

from __future__ import annotations

from chronodice.core.args import arg, opt
from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import interactions as ix
from chronodice.rules.timeline.attributes import CN
from chronodice.rules.timeline.rounding import fmt

from ._common import display_of, load_tl, require_own_action, running_battle
from .battle import bat
from .feed import battle_reply, move_clock
from .kinds import ACTION_REF, ActionRef, Attribute
from .targets import TARGET, target_key


@bat.sub(
    "控制",
    "眩晕",
    "stun",
    params=[arg("ref", ACTION_REF), arg("attr", Attribute(label="抵抗属性")), opt("target", TARGET)],
    help="行动#N结算时控制目标（默认该行动的 >目标）：持续=目标以抵抗属性抵抗其影响数值的前摇",
)
async def bat_control(call: Call, ref: ActionRef, attr: str, target: str | None) -> list[Reply]:
    display = await display_of(call)
    before = await running_battle(call)
    source = await require_own_action(call, before, ref.id, "为其他角色的行动施加控制")
    key = await target_key(call, target) if target else source.target
    if key is None:
        raise call.usage_error("行动没有目标，请用 >目标 指定")
    aim = before.participant(key)
    if aim is None:
        raise IllegalAction("控制目标不在战斗中")
    rec = await call.app.store.characters.get_character(aim.character_id)
    if rec is None:
        raise IllegalAction("找不到控制目标的角色卡")
    resist = load_tl(rec).check(attr)
    duration = ix.control_duration(source.impact, resist)

    def fn(s: bt.BattleState) -> tuple[bt.BattleState, tuple[bt.Event, list[bt.Action]]]:
        new, ev, moved = ix.apply_control(s, ref.id, key, duration)
        return new, (ev, moved)

    done = await move_clock(call, fn)
    state, (ev, moved) = done.after, done.result
    lines = [
        f"💫 {aim.name}被行动#{ref.id}控制：{fmt(source.impact)} vs {CN[attr]} {fmt(resist)} → "
        f"持续{display.windup(duration)}t（{display.windup(ev.time)}→{display.windup(ev.after or 0)}t）"
    ]
    paused = [a for a in moved if a.delay and a.start < ev.time]
    if paused:
        lines.append(
            f"{aim.name}的行动#{paused[0].id}在前摇中被打断进度，推迟到{display.windup(paused[0].end)}t结算（可交互：.clash #{ref.id} #{paused[0].id}）"
        )
    # book 时间轴: 行动开始的一刻只是准备阶段，不进行交互判定（例如打断，眩晕）— say which reading
    starting = {a.id for a in before.actions_of(key) if not a.cancelled and a.start == ev.time}
    for a in moved:
        if a.id in starting and not a.cancelled:
            lines.append(
                f"ℹ 行动#{a.id}恰在控制生效的{display.windup(ev.time)}t开始：按规则书开始的一刻只是准备、"
                f"不作交互判定，本骰读作不打断但控制期间不能开始，顺延为{display.windup(a.start)}→"
                f"{display.windup(a.end)}t（若判其不受控制影响请 .undo）"
            )
    later = [a for a in moved if a not in paused and not a.cancelled and a.id not in starting]
    if later:
        lines.append("其后行动顺延：" + "、".join(f"#{a.id}→{display.windup(a.end)}t" for a in later))
    lines.append(
        f"{aim.name}最早于{display.windup(state.free_at(key))}t再次行动；当前战斗时间{display.windup(state.clock)}t"
    )
    return await battle_reply(call, lines, done, display)
