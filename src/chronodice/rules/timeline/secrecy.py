"""What the group may know of a TimeLine battle (issue 39 defect 6).

Two GM secrets:

* a **hidden NPC** (:attr:`Participant.hidden`, ``.bat 暗 名字:…`` or ``.bat 隐藏 名字``): the
  group learns nothing of it — name, actions, numbers, health — until one of its actions
  resolves, which the feed reports as the target lives it (who, what, how much);
* **veiled declarations** (:attr:`BattleState.veil`, ``.bat 暗宣言 开``): every NPC's action is
  secret while it winds up and revealed as it resolves.  The NPC itself stays on the roster,
  shown as busy with an action nobody knows (its health with it: a GM who hides what an NPC does
  hides how it fares too).

A secret action is numbered out of the players' sight (:data:`SECRET_BASE` upwards, see
:func:`conceal`), so the public numbers ``#1 #2 …`` never skip one and the count of actions in
the group's replies never tells a secret was declared.  The book's trait 野望 —
「能够得知任何一个单位的行动、影响数值和前摇时间」 — is what these secrets make worth having.

:func:`public` is the battle as the group sees it; every group reply and the players' web page
are drawn from it, the GM's private views from the battle itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .battle_state import Action, BattleState, Participant

SECRET_BASE = 100_000
"""Secret actions are numbered ``#100001`` upwards: the public numbers stay contiguous."""


def veiled(state: BattleState, p: Participant | None) -> bool:
    """Whether ``p``'s actions are secret while they wind up."""
    return p is not None and (p.hidden or (state.veil and p.npc))


def is_secret(state: BattleState, a: Action) -> bool:
    """A hidden NPC's action, any time; a veiled NPC's until it resolves (a cancelled one stays
    secret: it never happened for the group)."""
    p = state.participant(a.key)
    if p is not None and p.hidden:
        return True
    return veiled(state, p) and not state.settled(a)


BUSY = 1e9
"""A veiled NPC's ``ready_at`` in the public battle: busy until a moment nobody knows, so it is
never shown as the one to act next."""


@dataclass(frozen=True)
class Public:
    """The battle as the group sees it: hidden NPCs and secret actions gone; ``busy`` the NPCs
    winding up an action nobody knows; ``masked`` those whose health the group does not see."""

    state: BattleState
    busy: frozenset[str] = frozenset()
    masked: frozenset[str] = frozenset()


def public(state: BattleState) -> Public:
    """``state`` without hidden NPCs and secret actions (the same object when nothing is secret)."""
    if not state.veil and not any(p.hidden for p in state.participants):
        return Public(state)
    hidden = {p.key for p in state.participants if p.hidden}
    secret = {a.id for a in state.actions if a.key not in hidden and is_secret(state, a)}
    busy = frozenset(a.key for a in state.actions if a.id in secret and not a.cancelled)
    hidden |= _secret_targets(state, hidden, secret)
    shown = replace(
        state,
        participants=tuple(
            replace(p, ready_at=BUSY) if p.key in busy else p
            for p in state.participants
            if p.key not in hidden
        ),
        actions=tuple(a for a in state.actions if a.key not in hidden and a.id not in secret),
        events=tuple(e for e in state.events if e.key not in hidden),
    )
    masked = frozenset(p.key for p in state.participants if p.npc and state.veil)
    return Public(shown, busy, masked)


def _secret_targets(state: BattleState, hidden: set[str], secret: set[int]) -> set[str]:
    """Those brought in only as the target of a hidden NPC's or a secret action: they have not
    joined as far as anyone knows."""
    own = {a.key for a in state.actions}
    aimed = {a.target for a in state.actions if a.target and a.key not in hidden and a.id not in secret}
    unseen = (a.target for a in state.actions if a.key in hidden or a.id in secret)
    return {t for t in unseen if t is not None and t not in own | aimed}


def conceal(before: BattleState, after: BattleState, action: Action) -> tuple[BattleState, Action]:
    """``after`` with the just-declared ``action`` renumbered into the secret range when it is
    secret (the public counter stays where ``before`` had it)."""
    if not is_secret(after, action) or action.id >= SECRET_BASE or action.id != before.next_id:
        return after, action
    moved = replace(action, id=SECRET_BASE + after.next_secret)
    actions = tuple(moved if a.id == action.id else a for a in after.actions)
    return replace(after, actions=actions, next_id=before.next_id, next_secret=after.next_secret + 1), moved


def set_hidden(state: BattleState, key: str, hidden: bool) -> BattleState:
    """``state`` with participant ``key`` hidden or shown (the GM's ``.bat 隐藏/现身``)."""
    return replace(
        state,
        participants=tuple(replace(p, hidden=hidden) if p.key == key else p for p in state.participants),
    )


__all__ = ["BUSY", "SECRET_BASE", "Public", "conceal", "is_secret", "public", "set_hidden", "veiled"]
