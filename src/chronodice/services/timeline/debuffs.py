"""``.debuff`` (减益): pools that reduce the target's next impacts, and the ``.bat`` hook.

The rule and its reading are in :mod:`chronodice.rules.timeline.debuffs`.  The pools live on the
target's card; when a debuffed participant acts, :func:`record_weakened` records the action with
the reduced impact, then takes what was used off the card.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from chronodice.core.args import Mention, Num, Prefixed, arg, opt, rest
from chronodice.core.commands import Call, define
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.character import TLCharacter
from chronodice.rules.timeline.debuffs import add_debuff, debuffs, weaken_action, with_debuffs
from chronodice.rules.timeline.rounding import fmt
from chronodice.store import CharacterRecord

from ._common import SYS_CN, _active, _actor, _mutate

ACTOR = opt("actor", Prefixed())
WHO = opt("who", Mention())

debuff = define(
    "debuff",
    aliases=("减益",),
    summary="减益（虚弱、减速等）：削减目标此后行动的影响数值，直到用完",
    detail=".debuff 哥布林: 100 虚弱：哥布林此后的行动共少输出100；.debuff 查看自己的；.debuff 清除 哥布林:",
    system=SYS_CN,
)


def _listing(char: TLCharacter) -> str:
    pools = debuffs(char.extra)
    if not pools:
        return f"{char.name}没有减益"
    rows = "\n".join(f"[{k}] {d.source} 剩余{fmt(d.value)}" for k, d in enumerate(pools, 1))
    return f"{char.name}的减益（此后行动的影响数值依次扣减）：\n{rows}"


@debuff.sub("查看", "show", "list", when_empty=True, params=[ACTOR, WHO], help="查看减益")
async def debuff_show(call: Call, actor: str | None = None, who: str | None = None) -> list[Reply]:
    if actor or who is not None:
        _, char, _ = await _actor(call, actor, who)
    else:
        _, char = await _active(call)
    return [Reply.say(_listing(char))]


@debuff.sub("清除", "clear", params=[ACTOR, WHO], help="清除减益")
async def debuff_clear(call: Call, actor: str | None, who: str | None) -> list[Reply]:
    rec, _, _ = await _actor(call, actor, who)
    _, new, _ = await _mutate(call, rec, lambda c: (replace(c, extra=with_debuffs(c.extra, [])), None))
    return [Reply.say(f"已清除{new.name}的减益√")]


@debuff.sub(
    params=[ACTOR, WHO, arg("value", Num(label="减益数值", signed=False)), rest("source")],
    help="给目标加减益：数值 = 施术者的影响数值（代他人默认仅GM）",
)
async def debuff_add(
    call: Call, actor: str | None, who: str | None, value: float, source: str
) -> list[Reply]:
    rec, _, _ = await _actor(call, actor, who)
    name = (source or "减益").strip()[:12]

    def transition(c: TLCharacter) -> tuple[TLCharacter, None]:
        return replace(c, extra=add_debuff(c.extra, name, value)), None

    _, new, _ = await _mutate(call, rec, transition)
    return [Reply.say(f"{new.name}受到[{name}]减益{fmt(value)}√\n{_listing(new)}")]


Recorded = tuple[bt.BattleState, bt.Action, list[bt.Event]]
Fn = Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]]


async def record_weakened(
    call: Call,
    rec: CharacterRecord,
    char: TLCharacter,
    ref: bt.ParticipantRef,
    fn: Fn,
    display: view.Display,
    record: Callable[[Call, bt.ParticipantRef, Fn, view.Display], Awaitable[list[Any]]],
) -> list[Any]:
    """``record(call, ref, fn, display)``, the action's impact reduced by ``char``'s debuffs."""
    pools = debuffs(char.extra)
    if not pools:
        return await record(call, ref, fn, display)
    box: dict[str, Any] = {}

    def weakened(s: bt.BattleState) -> tuple[bt.BattleState, Recorded]:
        new, (_, action, events) = fn(s)
        new, action2, left, used = weaken_action(new, action.id, pools)
        box.update(before=action.impact, after=action2.impact, left=left, used=used)
        return new, (new, action2, events)

    replies = await record(call, ref, weakened, display)
    if box.get("used"):
        await _mutate(call, rec, lambda c: (replace(c, extra=with_debuffs(c.extra, box["left"])), None))
        used = "、".join(f"{s}-{fmt(v)}" for s, v in box["used"])
        note = f"（减益{used}：影响数值 {fmt(box['before'])}→{fmt(box['after'])}）"
        first = replies[0]
        replies[0] = replace(first, text=f"{note}\n{first.text}")
    return replies


__all__ = ["debuff_add", "debuff_clear", "debuff_show", "record_weakened"]
