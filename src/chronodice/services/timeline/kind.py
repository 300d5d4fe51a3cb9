"""``.bat 类型 #N 种类 [抵抗属性]``: what an action's impact is, when the bot read it wrong.

Every declaration says what the bot read (``〔治疗〕``, ``〔控制·抵抗意志〕``, :mod:`.effects`);
the GM (or the action's owner) changes it in one command before it resolves.  After it has
resolved, its result is on the timeline: the GM ``.undo``-es first.
"""

from __future__ import annotations

from dataclasses import replace

from chronodice.core.args import Choice, arg, opt
from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.render.timeline_feed import kind_tag
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.attributes import CN
from chronodice.rules.timeline.effects import KINDS, WORDS, Kind

from ._common import require_own_action, running_battle
from .battle import bat
from .feed import apply_battle
from .kinds import ACTION_REF, ActionRef, Attribute

KIND_WORDS = "、".join(KINDS)


EFFECT_KIND = Choice({w: k for k, words in WORDS.items() for w in words}, label="种类")
"""A kind's name or any word that selects it (眩晕 → 控制)."""


def set_kind(state: bt.BattleState, action_id: int, kind: str, resist: str) -> bt.BattleState:
    """``state`` with action ``action_id`` declared as ``kind`` (a control with ``resist``)."""
    a = state.action(action_id)
    if a.kind == "reload":
        raise IllegalAction(f"行动#{action_id}是装填，没有影响数值")
    if a.cancelled:
        raise IllegalAction(f"行动#{action_id}已经取消")
    if state.settled(a):
        raise IllegalAction(f"行动#{action_id}已在{a.end:g}t结算，结果已记入：请先 .undo 再改种类")
    new = replace(a, effect=kind, resist=resist if kind == "控制" else "", guessed=False)
    return replace(state, actions=tuple(new if x.id == action_id else x for x in state.actions))


@bat.sub(
    "类型",
    "种类",
    "kind",
    params=[arg("ref", ACTION_REF), arg("kind", EFFECT_KIND), opt("resist", Attribute(label="抵抗属性"))],
    help=f"改行动#N的影响种类（{KIND_WORDS}）；控制可带抵抗属性",
)
async def bat_kind(call: Call, ref: ActionRef, kind: Kind, resist: str | None) -> list[Reply]:
    action = await require_own_action(call, await running_battle(call), ref.id, "改其他角色行动的种类")
    if resist is not None and kind != "控制":
        raise call.usage_error(f"只有控制需要抵抗属性（{CN[resist]}）")

    def fn(s: bt.BattleState) -> tuple[bt.BattleState, bt.Action]:
        new = set_kind(s, ref.id, kind, resist or action.resist)
        return new, new.action(ref.id)

    changed = await apply_battle(call, fn)
    text = f"行动#{ref.id}的种类改为{kind_tag(changed) or '〔' + kind + '〕'}"
    if kind == "控制" and not changed.resist:
        text += f"；结算时需要抵抗属性：.bat 类型 #{ref.id} 控制 意志（或其他属性）"
    return [Reply.say(text)]


__all__ = ["EFFECT_KIND", "bat_kind", "set_kind"]
