"""What each settled action did: the resolution feed (issue 25 defect 6, issue 39 kinds).

Every command that moves the clock lists, in the order they resolve, the actions it settled —
who, what, the impact, its kind (:mod:`.effects`), the target, the interaction ruled
(:func:`.interactions.judge`) — and what it does, as its kind says:

* 伤害 / 精神伤害 / 治疗 change a card (体力 lost, 意志 lost, 体力 restored up to the maximum): the
  ready ``.crd 目标:hp -N #k`` (``mp -N``, ``hp +N``), or, where the GM turned automatic damage
  on for the battle (:attr:`BattleState.auto_damage`), the change applied by the bot;
* 打断 meets the target's action in its windup at that moment (左开右闭) or misses (落空, nothing);
  larger minus smaller: a won interrupt stops that action itself (as ``.bat 取消`` would) and its
  rest lands as its note says (:func:`.interactions.residual_kind`, 伤害 by default); a lost one
  takes its impact off the action it met, which lands that much less;
* 控制 holds the target for ``20·I/A`` of the resisting attribute named at declaration (the
  bot applies it; without an attribute, or in the opening, it offers ``.bat 控制 #k 属性``);
* 减益 puts its impact on the target's debuff pool (:mod:`.debuffs`): their next impacts are
  that much smaller;
* 护盾 / 闪避 / 招架 guard their owner (they subtract from hostile actions that meet them);
* 增益 / 移动 / 交涉 / 其他 change nothing: the reply says what it read and leaves it to the GM.

Timeline effects (an interrupt's stop, a control, a debuff) are the battle's own facts and are
applied whether or not automatic damage is on; card changes only with it.

Readings where the book is silent (documented here, told in the replies):

* an action aimed at somebody who was already dead when it resolved achieves nothing: 目标已死亡;
* a hit whose result is already on the timeline (``.crd 目标:hp -N #k`` typed before, e.g. in
  the opening) is reported as recorded, not offered again;
* an interrupt that ties the action it meets stops it with nothing left over (neither is larger);
* automatic damage applies a change as ``.crd`` would (the target's ``.dr`` rows for losses, no
  damage type), one after the other in the order they resolve; a death it causes may move the
  clock on (the dead no longer hold it), and what settles then is resolved in turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from . import debuffs
from .battle import resource_event, voided
from .battle_state import Action, BattleState, Event, newly_settled
from .effects import DEFENCES, ON_CARDS, RULED, Kind
from .interactions import (
    INTERRUPT,
    Interaction,
    apply_control,
    control_duration,
    effect_of,
    effective_impact,
    interactions_of,
    interrupt,
    residual_kind,
)

Outcome = Literal[
    "untargeted",
    "reload",
    "guard",
    "dead",
    "full",
    "defence",
    "interrupt",
    "miss",
    "ruled",
    "control",
    "debuff",
]
"""``untargeted``: aimed at nobody; ``reload``: a reload finished; ``guard``: a defence aimed
at whom it guards against; ``dead``: the target was dead by then; ``full`` / ``defence`` /
``interrupt``: the rule that applied (:data:`.interactions.Rule`); ``miss``: an interrupt with
nothing to interrupt; ``ruled``: a kind that changes nothing (the GM rules); ``control`` /
``debuff``: a control or debuff that landed (or is offered)."""


@dataclass(frozen=True)
class Applied:
    """A change the bot applied to a card: the resource, before and after (of ``full``)."""

    delta: float
    before: float
    after: float
    full: float
    resource: Literal["hp", "mp"] = "hp"


@dataclass(frozen=True)
class Resolution:
    """One settled action and what it did."""

    action: Action
    outcome: Outcome
    landed: float = 0.0
    """What reaches the target: the full (effective) impact, or what gets past its defence."""
    interaction: Interaction | None = None
    recorded: tuple[Event, ...] = ()
    """体力/意志 changes (or the stun, the debuff) of the target already on the timeline for it."""
    dead_at: float | None = None
    """``dead``: when the target died."""
    applied: Applied | None = None
    """Automatic damage: the change the bot made."""
    died: bool = False
    """Automatic damage: this change killed the target."""
    voided: tuple[int, ...] = ()
    """The target's actions its death voided (by number)."""
    kind: Kind = "伤害"
    """What lands (for a won 打断: what its rest does, :func:`.interactions.residual_kind`)."""
    weakened: float = 0.0
    """What lost interrupts took off this action's impact."""
    stopped: int | None = None
    """A won 打断: the action it stopped (by number)."""
    held: tuple[float, float] | None = None
    """A 控制 the bot applied: (from, until)."""

    @property
    def hit(self) -> bool:
        """Whether a card change lands that nobody has recorded yet (to apply or offer)."""
        return (
            self.kind in ON_CARDS
            and self.outcome in ("full", "defence", "interrupt")
            and self.landed > 0
            and not self.recorded
        )


def _recorded(state: BattleState, a: Action, kinds: tuple[str, ...]) -> tuple[Event, ...]:
    return tuple(e for e in state.events if e.ref == a.id and e.key == a.target and e.kind in kinds)


def resolve(state: BattleState, a: Action) -> Resolution:
    """What settled action ``a`` did, judged on ``state`` (before its timeline effects)."""
    kind = effect_of(a)
    if a.kind == "reload":
        return Resolution(a, "reload", kind=kind)
    if a.target is None:
        return Resolution(a, "untargeted", kind=kind)
    if kind in DEFENCES:
        return Resolution(a, "guard", kind=kind)
    death = next((e for e in state.events if e.kind == "death" and e.key == a.target), None)
    if death is not None and (death.time < a.end or (death.time == a.end and death.ref != a.id)):
        return Resolution(a, "dead", dead_at=death.time, kind=kind)
    if kind in RULED:
        return Resolution(a, "ruled", kind=kind)
    impact = effective_impact(state, a)
    weakened = float(a.impact) - impact
    meant = replace(a, impact=impact) if weakened else a
    if kind == INTERRUPT:
        met = interactions_of(state, meant)
        if not met:
            return Resolution(a, "miss", kind=kind)
        hit = met[0]
        rest = residual_kind(a)
        recorded = _recorded(state, a, ("hp", "mp"))
        return Resolution(a, "interrupt", hit.landed, hit, recorded, kind=rest, weakened=weakened)
    hits = interactions_of(state, meant)  # empty unless a hostile kind meets the target's windup
    rule, landed, hit_ix = "full", impact, None
    if hits:
        hit_ix = hits[0]
        rule, landed = hit_ix.rule, hit_ix.landed if hit_ix.rule != "full" else impact
    if kind == "控制":
        return Resolution(
            a, "control", landed, hit_ix, _recorded(state, a, ("stun",)), kind=kind, weakened=weakened
        )
    if kind == "减益":
        return Resolution(
            a, "debuff", landed, hit_ix, _recorded(state, a, ("debuff",)), kind=kind, weakened=weakened
        )
    recorded = _recorded(state, a, ("hp", "mp"))
    return Resolution(a, rule, landed, hit_ix, recorded, kind=kind, weakened=weakened)  # type: ignore[arg-type]


Damage = Callable[[Resolution, str], Applied | None]
"""Automatic damage: apply resolution ``r``'s card change to the participant ``key``; None when
nothing was applied (the reply then offers the ready command)."""
Resist = Callable[[str, str], float | None]
"""The resisting attribute's check value of participant ``key`` (for a control), or None."""


def _timeline_effect(
    state: BattleState, r: Resolution, resist: Resist | None
) -> tuple[BattleState, Resolution]:
    """Apply what ``r`` does to the battle itself (a won interrupt, a control, a debuff)."""
    a = r.action
    if r.outcome == "interrupt" and r.interaction is not None and r.interaction.winner != "b":
        x = state.action(r.interaction.other.id)
        if not x.cancelled and not any(
            e.ref == x.id and e.kind in ("hp", "mp", "stun") for e in state.events
        ):
            return interrupt(state, a, x), replace(r, stopped=x.id)
        return state, r
    if r.outcome == "control" and not r.recorded and a.resist and resist is not None and state.started:
        value = resist(a.target or "", a.resist)
        if value and value > 0 and r.landed > 0:
            duration = control_duration(r.landed, value)
            state, ev, _moved = apply_control(state, a.id, a.target or "", duration)
            return state, replace(r, held=(ev.time, ev.after or ev.time))
        return state, r
    if r.outcome == "debuff" and not r.recorded and r.landed > 0:
        return debuffs.put_on(state, a.target or "", r.landed, ref=a.id), r
    return state, r


def play(
    before: BattleState, state: BattleState, damage: Damage | None = None, resist: Resist | None = None
) -> tuple[BattleState, list[Resolution]]:
    """Resolve what settled between ``before`` and ``state``, in the order it resolves.

    Each action's timeline effect is applied (:func:`_timeline_effect`); with ``damage`` each
    card change on a living target too (an event at the moment the action resolved, ``#k``); a
    death it causes is recorded with the actions it voids, and what settles because an action
    stopped or the dead no longer hold the clock is resolved in turn.  Actions a death or an
    interrupt voided are left out (the line of what voided them names them)."""
    out: list[Resolution] = []
    seen: set[int] = set()
    cut: set[int] = set()  # actions voided here: only a death or a won interrupt cancels actions
    while True:
        fresh = [a for a in newly_settled(before, state) if a.id not in seen]
        if not fresh:
            break
        for a in fresh:
            seen.add(a.id)
            if state.action(a.id).cancelled:  # stopped by an interrupt resolved just before
                cut.add(a.id)
                continue
            r = resolve(state, a)
            state, r = _timeline_effect(state, r, resist)
            if r.stopped is not None:
                cut.add(r.stopped)
            aim = state.participant(a.target or "")
            if damage is not None and r.hit and aim is not None and aim.status == "active":
                applied = damage(r, aim.key)
                if applied is not None and applied.delta == 0:  # a heal on a full card, say
                    r = replace(r, applied=applied)
                elif applied is not None:
                    prev = state
                    state, events = resource_event(
                        state, aim.key, applied.resource, applied.delta, applied.after, applied.full, hit=a.id
                    )
                    died = any(e.kind == "death" for e in events)
                    gone = tuple(x.id for x in voided(prev, state, aim.key)) if died else ()
                    cut.update(gone)
                    r = replace(r, applied=applied, died=died, voided=gone)
            out.append(r)
    out = [r for r in out if r.action.id not in cut]
    return state, sorted(out, key=lambda r: (r.action.end, r.action.id))


__all__ = ["Applied", "Damage", "Outcome", "Resist", "Resolution", "play", "resolve"]
