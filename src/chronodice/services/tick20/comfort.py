"""GM comfort (issue 26): ``.init 击败`` (mark defeated NPCs, skipped from then on), ``.init 清场``
(remove the defeated and fallen NPCs on request), ``.init 跳至`` (jump to a combatant's turn),
``.init note 名 文本`` (a note per combatant: on an NPC the GM's alone, on a player's combatant
everyone's, in the list; an empty text clears it) and ``.init 单元`` (a new 单元: one more 长休 each).
The 「请准备」 ping of the next player is part of every turn card (:func:`.tracker._card`)."""

from __future__ import annotations

from chronodice.core.args import Pattern, Rest, arg, flag, many, opt
from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.core.text import safe_name
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import Combat, Event

from ._glue import apply, each, find, load, must_be_gm, need, require_control, whisper_gms
from .kinds import COMBATANT, Targets
from .tracker import init
from .views import turn_replies


def _with_card(head: str, state: Combat, events: list[Event]) -> list[Reply]:
    """``head``, then the turn card when the command moved the turn on (on a hidden
    combatant's turn: nothing more in the group, its prompt to the GM, :func:`.views.turn_replies`)."""
    if not any(e.kind == "turn" for e in events):
        return [Reply.say(head)]
    card = turn_replies(state, events)
    public = [r for r in card if not r.private]
    if not public:
        return [Reply.say(head), *card]
    return [Reply(text=f"{head}\n{public[0].text}", mentions=public[0].mentions)]


@init.sub(
    "击败",
    "down",
    params=[many("names", Targets(label="名称"), label="名称")],
    flags=[flag("undo", "-取消", "取消", label="-取消")],
    help="标记参战者被击败：留在列表里、不再行动；-取消 恢复（GM）",
)
async def init_defeated(call: Call, names: list[list[str]], undo: bool) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "标记击败")
    ids = [(await find(call, state, n)).id for group in names for n in group]
    state, events = await apply(
        call, lambda st: each(need(st), ids, lambda s, cid: E.set_defeated(s, cid, not undo))
    )
    who = "，".join(R.name_of(state, cid) for cid in ids)
    head = f"已恢复：{who}（重新参与行动）" if undo else f"已击败：{who}（不再行动；.init 清场 移出列表）"
    return _with_card(head, state, events)


@init.sub("清场", "cleanup", help="移除被击败、<解体>或死亡的NPC（GM）")
async def init_cleanup(call: Call) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "清场")
    out = [
        c.id for c in state.combatants if c.gm_played and (c.defeated or c.health.dissolved or c.health.dead)
    ]
    if not out:
        raise IllegalAction("没有被击败、<解体>或死亡的NPC")
    names = {c.id: R.name_of(state, c.id) for c in state.combatants}
    state, events = await apply(
        call, lambda st: each(need(st), out, lambda s, cid: E.remove(s, cid, force=True))
    )
    text = "移出列表：" + "，".join(names[cid] for cid in out)
    return _with_card(text, state, [e for e in events if e.kind != "removed"])


@init.sub(
    "跳至",
    "jump",
    params=[arg("who", COMBATANT, label="名称")],
    help="跳到某参战者的回合（之前的回合跳过；GM）",
)
async def init_jump(call: Call, who: str) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "跳转回合")
    c = await find(call, state, who)
    state, events = await apply(call, lambda st: E.jump_to(need(st), c.id))
    ends = [e.data["cid"] for e in events if e.kind == "turn_end"]
    skipped = [R.name_of(state, cid) for cid in ends if not state.get(cid).hidden]  # issue 39
    head = "跳过：" + "，".join(skipped) if skipped else "已经是该参战者的回合"
    return _with_card(head, state, events)


MAX_NOTE = 40
"""A note is a reminder in a list line, not a document."""
NOTE_WHO = Pattern(regex=r"\S{1,20}(?!\S)", label="名称")
"""The whole first word: ``哥布林1 半血逃跑`` names 哥布林1 (a name kind would split the digit off
and read ``1 半血逃跑`` as the note)."""


@init.sub(
    "note",
    "备注",
    params=[
        arg("who", NOTE_WHO, label="名称"),
        opt("text", Rest(label="备注", max_len=MAX_NOTE), default="", label="备注"),
    ],
    help="给参战者写备注（列表里显示；NPC的备注只有GM看得到；不写内容=清除）",
)
async def init_note(call: Call, who: str, text: str) -> list[Reply]:
    """A note on one combatant (``.init note 哥布林2 想逃跑``).  Who: the GM for anyone, a player for
    her own combatant.  The note on an NPC is the GM's (how she fights, when she flees): the
    group hears only that one was written, the text goes to the GM.  Note text is the sender's
    words: kept as typed (no newlines), shown with :func:`safe_name` so a list line never starts
    like a command."""
    state = need(await load(call))
    c = await find(call, state, who)
    await require_control(call, state, c, "写备注")
    note = " ".join(text.split())
    state, _ = await apply(call, lambda st: E.edit(need(st), c.id, note=note))
    name = R.name_of(state, c.id)
    if not note:
        return [Reply.say(f"已清除 {name} 的备注")]
    if c.gm_played:
        return [
            Reply.say(f"已记下 {name} 的备注（GM可见）"),
            *whisper_gms(state, f"{c.name} 的备注：{safe_name(note)}", call.ctx.user_id),
        ]
    return [Reply.say(f"{name} 的备注：{safe_name(note)}")]


__all__ = ["MAX_NOTE", "init_cleanup", "init_defeated", "init_jump", "init_note"]


@init.sub("单元", "unit", help="进入新的单元（通常是新的一天）：每名角色可再完成1次长休（GM）")
async def init_unit(call: Call) -> list[Reply]:
    """002 休息: "角色在同一单元内最多完成1次长休" — the GM says when a 单元 (usually a day, 002
    时间) ends; until then a second ``.hp 名 长休`` is refused (:func:`~chronodice.rules.tick20.
    engine.rest`)."""
    state = need(await load(call))
    await must_be_gm(call, state, "进入新的单元")
    state, _ = await apply(call, lambda st: E.new_unit(need(st)))
    return [Reply.say(f"进入第{state.unit}单元：每名角色本单元可再完成1次长休（.hp 全体 长休）")]
