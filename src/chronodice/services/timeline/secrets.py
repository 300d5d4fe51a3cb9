"""The GM's TimeLine secrets in the group's replies (issue 39 defect 6; the rules in
:mod:`chronodice.rules.timeline.secrecy`).

* ``.bat 暗 名字:属性 数值 …`` declares a hidden NPC's action (the NPC is hidden from then on);
  ``.bat 隐藏 名字`` / ``.bat 现身 名字`` hide or show an NPC already in the battle.
* ``.bat 暗宣言 开`` keeps every NPC declaration secret until it resolves.

Every group reply is drawn from the public battle (:func:`group_view`); what is secret goes to
the GM by private message: the declaration itself, and a prompt when a secret NPC may declare
again.  From the GM's private chat (``.gm 私聊``) nothing of it reaches the group; typed in the
group, the GM's command text is the only trace (the bind reply says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.secrecy import conceal, public, set_hidden, veiled

R = TypeVar("R")
Recorded = tuple[bt.BattleState, bt.Action, list[bt.Event]]


def group_view(state: bt.BattleState, display: view.Display) -> tuple[bt.BattleState, view.Display]:
    """The battle and display a group reply may show (the public battle)."""
    pub = public(state)
    return pub.state, replace(display, busy=pub.busy) if pub.busy else display


def secretly(
    fn: Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]], key: str, hide: bool
) -> Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]]:
    """``fn`` (a declaration) with its actor hidden first when ``hide`` (``.bat 暗``), and the
    new action numbered out of the players' sight when it is secret."""

    def wrapped(s: bt.BattleState) -> tuple[bt.BattleState, Recorded]:
        new, (_, action, events) = fn(s)
        if hide:
            new = set_hidden(new, key, True)
        new, action = conceal(s, new, action)
        return new, (new, action, events)

    return wrapped


def holding(state: bt.BattleState) -> list[bt.Participant]:
    """Whom the clock waits for: free at the clock, once the battle runs (none otherwise)."""
    nxt = bt.next_up(state) if state.started else None
    if nxt is None or nxt[0] > state.clock:
        return []
    return nxt[1]


def _holding_secret(state: bt.BattleState) -> dict[str, list[str]]:
    """Secret NPCs the clock waits for, by owner (the GM who made them)."""
    out: dict[str, list[str]] = {}
    for p in holding(state):
        if p.npc and veiled(state, p):
            out.setdefault(p.owner_id, []).append(p.name)
    return out


def gm_prompts(before: bt.BattleState, after: bt.BattleState) -> list[Reply]:
    """A private line to each GM whose secret NPC must declare now and did not have to before."""
    was = _holding_secret(before) if before.clock == after.clock else {}
    out = []
    for owner, names in _holding_secret(after).items():
        new = [n for n in names if n not in was.get(owner, [])]
        if new:
            out.append(
                Reply.whisper(
                    f"〔暗〕轮到{'、'.join(new)}宣言（{after.clock:g}t）：私聊 .bat {new[0]}:属性 数值 >目标 备注",
                    to_user=owner,
                )
            )
    return out


__all__ = ["gm_prompts", "group_view", "holding", "secretly"]
