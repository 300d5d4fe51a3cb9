"""What each settled action did: the resolution feed (issue 25 defect 6).

Every command that moves the clock lists, in the order they resolve, the actions it settled —
who, what, the impact, the target, the interaction ruled (:func:`.interactions.judge`) — and
what lands: for each hit, the ready ``.crd 目标:hp -N #k``, or, where the GM turned automatic
damage on for the battle (:attr:`BattleState.auto_damage`), the hit applied by the bot.

Readings where the book is silent (documented here, told in the replies):

* an action aimed at somebody who was already dead when it resolved (a death at an earlier
  moment, or at the same moment from another hit) achieves nothing: 目标已死亡;
* a 打断 gives no damage command: whether anything of a winning interrupt lands is the GM's
  call (the book compares the impacts only); the GM confirms the interrupt with ``.bat 取消``;
* a hit whose result is already on the timeline (``.crd 目标:hp -N #k`` typed before, e.g. in
  the opening) is reported as recorded, not offered again;
* a hit lands on 体力 (the ready command and automatic damage alike); an action meant for
  意志 (侵蚀 and the like) is the GM's to record with ``.crd 目标:mp -N #k``;
* automatic damage applies the hit as ``.crd 目标:hp -N #k`` would (the target's ``.dr`` rows,
  no damage type), one hit after the other in the order they resolve; a death it causes may
  move the clock on (the dead no longer hold it), and what settles then is resolved in turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from .battle import resource_event, voided
from .battle_state import Action, BattleState, Event, newly_settled
from .interactions import DEFENCES, Interaction, declared_kind, interactions_of

Outcome = Literal["untargeted", "reload", "guard", "dead", "full", "defence", "interrupt"]
"""``untargeted``: aimed at nobody; ``reload``: a reload finished; ``guard``: a defence aimed
at whom it guards against; ``dead``: the target was dead by then; ``full`` / ``defence`` /
``interrupt``: the rule that applied (:data:`.interactions.Rule`)."""


@dataclass(frozen=True)
class Applied:
    """A hit the bot applied itself: the target's 体力 change, before and after (of ``full``)."""

    delta: float
    before: float
    after: float
    full: float


@dataclass(frozen=True)
class Resolution:
    """One settled action and what it did."""

    action: Action
    outcome: Outcome
    landed: float = 0.0
    """What reaches the target: the full impact, or what gets past its defence."""
    interaction: Interaction | None = None
    recorded: tuple[Event, ...] = ()
    """体力/意志 changes of the target already on the timeline for this action."""
    dead_at: float | None = None
    """``dead``: when the target died."""
    applied: Applied | None = None
    """Automatic damage: the change the bot made."""
    died: bool = False
    """Automatic damage: this hit killed the target."""
    voided: tuple[int, ...] = ()
    """The target's actions its death voided (by number)."""

    @property
    def hit(self) -> bool:
        """Whether something lands that nobody has recorded yet (a damage to apply)."""
        return self.outcome in ("full", "defence") and self.landed > 0 and not self.recorded


def resolve(state: BattleState, a: Action) -> Resolution:
    """What settled action ``a`` did, judged on ``state``."""
    if a.kind == "reload":
        return Resolution(a, "reload")
    if a.target is None:
        return Resolution(a, "untargeted")
    if declared_kind(a.note) in DEFENCES:
        return Resolution(a, "guard")
    death = next((e for e in state.events if e.kind == "death" and e.key == a.target), None)
    if death is not None and (death.time < a.end or (death.time == a.end and death.ref != a.id)):
        return Resolution(a, "dead", dead_at=death.time)
    recorded = tuple(
        e for e in state.events if e.ref == a.id and e.key == a.target and e.kind in ("hp", "mp")
    )
    hits = interactions_of(state, a)
    if hits:
        hit = hits[0]
        return Resolution(a, hit.rule, hit.landed, hit, recorded)
    return Resolution(a, "full", float(a.impact), None, recorded)


Damage = Callable[[Action, str, float], Applied | None]
"""Automatic damage: apply ``amount`` to the participant ``key`` for action ``a``; None when
nothing was applied (the reply then offers the ready command)."""


def play(
    before: BattleState, state: BattleState, damage: Damage | None = None
) -> tuple[BattleState, list[Resolution]]:
    """Resolve what settled between ``before`` and ``state``, in the order it resolves.

    With ``damage`` each hit on a living target is applied (a 体力 event at the moment the
    hit resolved, ``#k``); a death it causes is recorded with the actions it voids, and what
    settles because the dead no longer hold the clock is resolved in turn.  Actions a death
    voided are left out (the resolution of the hit names them).  Returns the final state."""
    out: list[Resolution] = []
    seen: set[int] = set()
    cut: set[int] = set()  # actions a death applied here voided: only a death cancels actions
    while True:
        fresh = [a for a in newly_settled(before, state) if a.id not in seen]
        if not fresh:
            break
        for a in fresh:
            seen.add(a.id)
            r = resolve(state, a)
            aim = state.participant(a.target or "")
            if damage is not None and r.hit and aim is not None and aim.status == "active":
                applied = damage(a, aim.key, r.landed)
                if applied is not None and applied.delta != 0:
                    prev = state
                    state, events = resource_event(
                        state, aim.key, "hp", applied.delta, applied.after, applied.full, hit=a.id
                    )
                    died = any(e.kind == "death" for e in events)
                    gone = tuple(x.id for x in voided(prev, state, aim.key)) if died else ()
                    cut.update(gone)
                    r = replace(r, applied=applied, died=died, voided=gone)
            out.append(r)
    out = [r for r in out if r.action.id not in cut]
    return state, sorted(out, key=lambda r: (r.action.end, r.action.id))


__all__ = ["Applied", "Damage", "Outcome", "Resolution", "play", "resolve"]
