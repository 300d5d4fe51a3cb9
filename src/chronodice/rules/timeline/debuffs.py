"""Debuffs (减益) that reduce an impact number (rule book 控制效果: "对于任何减益效果，例如虚弱、减速等，
效果为削减目标的影响数值。以虚弱为例，施术者的影响数值相当于被影响者在未来几次攻击中少输出的伤害和少移动的距离").

Reading: a debuff is a pool equal to the caster's impact.  Each later action of the target
outputs its impact minus what is left of the pool, never below 0, and uses the pool up by what
it removed — "in the next few attacks" the target outputs the pool's amount less in total.  The
windup stays that of the declared impact (the effort is made; less comes out).  Weakness 100,
then actions of 60 and 80 → 0 (40 left) and 40 (spent).  Reloads (impact 0) use nothing.

The pool lives in the battle, as events of kind ``"debuff"`` on the target (``delta`` > 0: a
debuff put on; < 0: what an action used, ``ref`` = that action), so ``.undo`` of an action gives
the pool back and the end of the battle ends its debuffs.
"""

from __future__ import annotations

from dataclasses import replace

from chronodice.core.errors import IllegalAction

from .battle import Action, BattleState, Event
from .rounding import r1

KIND = "debuff"
MAX_DEBUFF = 1e9


def consume(pool: float, impact: float) -> tuple[float, float]:
    """(impact after the pool, pool left).

    >>> consume(100.0, 60.0), consume(40.0, 80.0), consume(0.0, 50.0)
    ((0.0, 40.0), (40.0, 0.0), (50.0, 0.0))
    """
    used = min(max(pool, 0.0), max(impact, 0.0))
    return r1(impact - used), r1(pool - used)


def pool(state: BattleState, key: str) -> float:
    """What is left of ``key``'s debuffs in this battle."""
    return max(0.0, r1(sum(e.delta for e in state.events if e.kind == KIND and e.key == key)))


def _add(state: BattleState, key: str, delta: float, ref: int | None = None) -> BattleState:
    ev = Event(id=state.next_event, key=key, time=state.clock, kind=KIND, delta=r1(delta), ref=ref)  # type: ignore[arg-type]
    return replace(state, events=(*state.events, ev), next_event=state.next_event + 1)


def put_on(state: BattleState, key: str, value: float, ref: int | None = None) -> BattleState:
    """A debuff of ``value`` on ``key`` (a participant, or a character yet to act); ``ref``: the
    减益 action that put it on (so the feed knows it landed)."""
    if not 0 < value <= MAX_DEBUFF:
        raise IllegalAction("减益数值应大于0")
    return _add(state, key, value, ref=ref)


def clear(state: BattleState, key: str) -> BattleState:
    left = pool(state, key)
    return _add(state, key, -left) if left > 0 else state


def weaken_action(state: BattleState, action_id: int) -> tuple[BattleState, Action, float]:
    """The recorded action with its impact reduced by its actor's pool; returns what it used."""
    action = state.action(action_id)
    left = pool(state, action.key)
    if action.kind == "reload" or action.impact <= 0 or left <= 0:
        return state, action, 0.0
    impact, rest = consume(left, action.impact)
    new = replace(action, impact=impact)
    state = replace(state, actions=tuple(new if a.id == action_id else a for a in state.actions))
    return _add(state, action.key, -(left - rest), ref=action_id), new, r1(left - rest)


__all__ = ["KIND", "clear", "consume", "pool", "put_on", "weaken_action"]
