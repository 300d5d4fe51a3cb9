"""Debuffs (减益) that reduce an impact number (rule book 控制效果: "对于任何减益效果，例如虚弱、减速等，
效果为削减目标的影响数值。以虚弱为例，施术者的影响数值相当于被影响者在未来几次攻击中少输出的伤害和少移动的距离").

Reading: a debuff is a pool equal to the caster's impact, kept on the target's card
(``TLCharacter.extra["debuffs"]``).  Each later action of the target outputs its impact minus
what is left in the pools (oldest first), never below 0, and uses up the pools by what it
removed — "in the next few attacks" the target outputs the pool's amount less in total.  The
windup stays that of the declared impact (the effort is made; less comes out).  Weakness 100,
then actions of 60 and 80 → 0 (40 left) and 40 (spent).  Reloads (impact 0) use nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from chronodice.core.errors import IllegalAction

from .battle import Action, BattleState
from .rounding import r1

MAX_DEBUFFS = 20
KEY = "debuffs"


@dataclass(frozen=True)
class Debuff:
    source: str
    value: float
    """What is left of the pool."""


def debuffs(extra: dict[str, Any]) -> list[Debuff]:
    return [Debuff(str(d["source"]), float(d["value"])) for d in extra.get(KEY, [])]


def with_debuffs(extra: dict[str, Any], pools: list[Debuff]) -> dict[str, Any]:
    out = {k: v for k, v in extra.items() if k != KEY}
    if pools:
        out[KEY] = [{"source": d.source, "value": d.value} for d in pools]
    return out


def add_debuff(extra: dict[str, Any], source: str, value: float) -> dict[str, Any]:
    if value <= 0:
        raise IllegalAction("减益数值应大于0")
    pools = debuffs(extra)
    if len(pools) >= MAX_DEBUFFS:
        raise IllegalAction(f"减益最多{MAX_DEBUFFS}个")
    return with_debuffs(extra, [*pools, Debuff(source or "减益", r1(value))])


def consume(pools: list[Debuff], impact: float) -> tuple[float, list[Debuff], list[tuple[str, float]]]:
    """Impact after the pools (oldest first), the pools left, and what each one took.

    >>> out, left, used = consume([Debuff("虚弱", 100.0)], 60.0)
    >>> out, left, used
    (0.0, [Debuff(source='虚弱', value=40.0)], [('虚弱', 60.0)])
    >>> consume(left, 80.0)
    (40.0, [], [('虚弱', 40.0)])
    >>> consume([Debuff("虚弱", 30.0), Debuff("减速", 50.0)], 50.0)[0:2]
    (0.0, [Debuff(source='减速', value=30.0)])
    """
    left, used, out = impact, [], []
    for d in pools:
        take = r1(min(d.value, max(left, 0.0)))
        left = r1(left - take)
        if take > 0:
            used.append((d.source, take))
        if d.value - take > 0:
            out.append(Debuff(d.source, r1(d.value - take)))
    return max(0.0, left), out, used


def weaken_action(
    state: BattleState, action_id: int, pools: list[Debuff]
) -> tuple[BattleState, Action, list[Debuff], list[tuple[str, float]]]:
    """The recorded action ``action_id`` with its impact reduced by ``pools``."""
    action = state.action(action_id)
    if action.kind == "reload" or action.impact <= 0 or not pools:
        return state, action, pools, []
    impact, left, used = consume(pools, action.impact)
    new = replace(action, impact=impact)
    actions = tuple(new if a.id == action_id else a for a in state.actions)
    return replace(state, actions=actions), new, left, used


__all__ = ["Debuff", "add_debuff", "consume", "debuffs", "weaken_action", "with_debuffs"]
