"""The battle summary ``.bat end`` gives (issue 25): how long, who acted how often, damage dealt
and taken, deaths.

Readings (the book keeps no such tally; these are the bot's):

* the length is the battle's clock when it ends (0 if the opening never closed);
* an action counts when it resolved (settled and not cancelled): what was still in its windup
  or only declared never happened;
* damage is 体力 and 意志 lost, as recorded on the timeline (``.crd …``, automatic damage): taken
  by whom it was recorded for, dealt by the owner of the action it names (``#k``); a loss
  recorded without ``#k`` has no known source and is counted apart.  Gains (healing) are not
  counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from .battle_state import BattleState
from .rounding import r1


@dataclass(frozen=True)
class Row:
    """One participant's tally."""

    name: str
    npc: bool
    acted: int
    dealt: float
    taken: float
    died_at: float | None = None


@dataclass(frozen=True)
class Summary:
    length: float
    acted: int
    """Actions that resolved, everybody's."""
    rows: tuple[Row, ...]
    unsourced: float = 0.0
    """Damage recorded without the action that caused it."""


def summarize(state: BattleState) -> Summary:
    """The tally of ``state`` (participants in the order they joined).

    >>> from .battle import advance, open_battle, resource_event
    >>> from .battle_actions import attribute_action
    >>> from .battle_state import ParticipantRef, new_battle
    >>> a, b = ParticipantRef(1, "甲", "1"), ParticipantRef(2, "乙", "2", npc=True)
    >>> s, _, _ = attribute_action(new_battle(), a, "strength", 175, time=4, target="c2")
    >>> s, _, _ = attribute_action(s, b, "strength", 87.5, time=10)
    >>> s, _ = open_battle(s, [])
    >>> s, _ = resource_event(s, "c2", "hp", -35, 40, 75, hit=1)
    >>> s, _ = resource_event(s, "c2", "hp", -40, 0, 75)
    >>> summarize(s)
    Summary(length=4.0, acted=1, rows=(Row(name='甲', npc=False, acted=1, dealt=35.0, taken=0.0, died_at=None), Row(name='乙', npc=True, acted=0, dealt=0.0, taken=75.0, died_at=4.0)), unsourced=40.0)
    """
    owner = {a.id: a.key for a in state.actions}
    dealt: dict[str, float] = {}
    taken: dict[str, float] = {}
    died: dict[str, float] = {}
    unsourced = 0.0
    for e in state.events:
        if e.kind == "death":
            died.setdefault(e.key, e.time)
        if e.kind not in ("hp", "mp") or e.delta >= 0:
            continue
        taken[e.key] = taken.get(e.key, 0.0) + -e.delta
        source = owner.get(e.ref) if e.ref is not None else None
        if source is None:
            unsourced += -e.delta
        else:
            dealt[source] = dealt.get(source, 0.0) + -e.delta
    rows = []
    total = 0
    for p in state.participants:
        acted = sum(1 for a in state.actions_of(p.key) if state.settled(a))
        total += acted
        rows.append(
            Row(p.name, p.npc, acted, r1(dealt.get(p.key, 0.0)), r1(taken.get(p.key, 0.0)), died.get(p.key))
        )
    return Summary(state.clock if state.started else 0.0, total, tuple(rows), r1(unsourced))


__all__ = ["Row", "Summary", "summarize"]
