"""``.debuff`` (减益): a pool that reduces the target's next impacts, and the ``.bat`` hook.

The rule and its reading are in :mod:`chronodice.rules.timeline.debuffs`.  The pool is kept in
the battle (so ``.undo`` and ``.bat end`` treat it like the rest of the battle); when a debuffed
participant acts, :func:`record_weakened` records the action with the reduced impact in the same
write.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from chronodice.core.args import Mention, Num, Prefixed, arg, opt, rest
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import debuffs as db
from chronodice.rules.timeline.rounding import fmt
from chronodice.services.timeline.codec import BATTLE_CODEC

from ._common import SYS_CN, active_tl, running_battle, who_acts

ACTOR = opt("actor", Prefixed())
WHO = opt("who", Mention())

debuff = define(
    "debuff",
    aliases=("减益",),
    summary="减益（虚弱、减速等）：削减目标此后行动的影响数值，直到用完",
    detail=(
        ".debuff 哥布林: 100 虚弱：哥布林此后的行动共少输出100（前摇不变）；.debuff 查看；"
        ".debuff 清除 哥布林:。减益记在本群战斗中，.undo 可撤销，战斗结束即消失"
    ),
    system=SYS_CN,
    group_only=True,
)


async def _change(call: Call, fn: Callable[[bt.BattleState], bt.BattleState]) -> bt.BattleState:
    def outer(state: bt.BattleState | None) -> tuple[bt.BattleState | None, bt.BattleState]:
        if state is None:
            raise IllegalAction("没有战斗数据× 减益只在战斗中生效")
        new = fn(state)
        return new, new

    return await call.app.store.sessions.apply_state(
        call.ctx.scope,
        BATTLE_CODEC,
        outer,
        user_id=call.ctx.user_id,
        command=call.command_text,
        claim=call.claim,
    )


@debuff.sub("查看", "show", "list", when_empty=True, params=[ACTOR, WHO], help="查看减益")
async def debuff_show(call: Call, actor: str | None = None, who: str | None = None) -> list[Reply]:
    if actor or who is not None:
        _, char, ref = await who_acts(call, actor, who)
        key = ref.key
    else:
        rec, char = await active_tl(call)
        key = f"c{rec.id}"
    left = db.pool(await running_battle(call), key)
    return [Reply.say(f"{char.name}的减益：剩余{fmt(left)}" if left > 0 else f"{char.name}没有减益")]


@debuff.sub("清除", "clear", params=[ACTOR, WHO], help="清除减益")
async def debuff_clear(call: Call, actor: str | None, who: str | None) -> list[Reply]:
    _, char, ref = await who_acts(call, actor, who)
    await _change(call, lambda s: db.clear(s, ref.key))
    return [Reply.say(f"已清除{char.name}的减益√")]


@debuff.sub(
    params=[ACTOR, WHO, arg("value", Num(label="减益数值", signed=False)), rest("source")],
    help="给目标加减益：数值 = 施术者的影响数值（代他人默认仅GM）",
)
async def debuff_add(
    call: Call, actor: str | None, who: str | None, value: float, source: str
) -> list[Reply]:
    _, char, ref = await who_acts(call, actor, who)
    name = (source or "减益").strip()[:12]
    state = await _change(call, lambda s: db.put_on(s, ref.key, value))
    left = db.pool(state, ref.key)
    return [
        Reply.say(
            f"{char.name}受到[{name}]减益{fmt(value)}√ 剩余减益{fmt(left)}（此后行动的影响数值依次扣减）"
        )
    ]


Recorded = tuple[bt.BattleState, bt.Action, list[bt.Event]]
Fn = Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]]


async def record_weakened(
    call: Call,
    ref: bt.ParticipantRef,
    fn: Fn,
    display: view.Display,
    record: Callable[[Call, bt.ParticipantRef, Fn, view.Display], Awaitable[list[Reply]]],
) -> list[Reply]:
    """``record(call, ref, fn, display)`` with the action's impact reduced by the actor's debuff."""
    box: dict[str, float] = {}

    def weakened(s: bt.BattleState) -> tuple[bt.BattleState, Recorded]:
        new, (_, action, events) = fn(s)
        new, action2, used = db.weaken_action(new, action.id)
        box.update(before=action.impact, after=action2.impact, used=used, left=db.pool(new, action.key))
        return new, (new, action2, events)

    replies = await record(call, ref, weakened, display)
    if box.get("used"):
        note = (
            f"（减益-{fmt(box['used'])}：影响数值 {fmt(box['before'])}→{fmt(box['after'])}，"
            f"剩余减益{fmt(box['left'])}）"
        )
        replies[0] = replace(replies[0], text=f"{note}\n{replies[0].text}")
    return replies


__all__ = ["debuff_add", "debuff_clear", "debuff_show", "record_weakened"]
