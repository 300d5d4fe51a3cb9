"""The battle timeline's data: participants, actions, events, the state and its clock.

See :mod:`.battle` for the clock the rule book means and the transitions."""

from __future__ import annotations

import copyreg
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Literal

from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.plain import frozen, plain, same_prefix

from .effects import default_kind
from .rounding import r1, r2

SCHEMA_VERSION = 2
Status = Literal["active", "out", "dead"]
EventKind = Literal["join", "hp", "mp", "death", "out", "cancel", "initiative", "advance", "stun"]
_ID = attrgetter("id")


def frozen_mapping(value: Mapping[str, Any]) -> Mapping[str, Any]:
    """``value`` as a read-only mapping, all the way down: nested mappings read-only too, lists
    and tuples as tuples (a weapon snapshot, ammunition counts, the 先攻 record).  A value of any
    other type than JSON's raises ``TypeError``.  A read-only mapping is taken as it is (one made
    here: this function is how the battle's mappings are made).

    A battle is frozen all the way down, so an action that is the same object in the next state
    is the same action: the store hands the decoded state to the next command, keeps each
    action's stored text and writes only the actions that are new objects (see
    ``chronodice.store.session_rows``).  A rule that tried to change one in place raises
    ``TypeError`` here instead of leaving the stored battle behind what the bot shows
    (``tests/store/test_state_invariants.py`` walks the state's types and a played battle's
    values to hold this)."""
    out: Mapping[str, Any] = frozen(value)
    return out


def _reduce_mapping(value: MappingProxyType[str, Any]) -> tuple[Any, tuple[dict[str, Any]]]:
    return MappingProxyType, (dict(value),)


copyreg.pickle(MappingProxyType, _reduce_mapping)  # type: ignore[arg-type]
"""So that a battle can still be deep-copied (``copy.deepcopy``, ``dataclasses.asdict``)."""


@dataclass(frozen=True)
class ParticipantRef:
    """Who acts: a character (a player's, or a GM's NPC)."""

    character_id: int
    name: str
    owner_id: str
    npc: bool = False

    @property
    def key(self) -> str:
        return f"c{self.character_id}"


@dataclass(frozen=True)
class Participant:
    key: str
    name: str
    owner_id: str
    character_id: int
    npc: bool = False
    joined_at: float = 0.0
    status: Status = "active"
    ammo: Mapping[str, int] = field(default_factory=dict)
    """Weapon uid → rounds left, while the battle runs (read-only: change it with ``replace``)."""
    ready_at: float = 0.0
    """Not before this moment may the next action start (a GM's 推进 made them wait)."""
    hidden: bool = False
    """A hidden NPC: the group learns nothing of it until its actions resolve (:mod:`.secrecy`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ammo", frozen_mapping(self.ammo))


@dataclass(frozen=True)
class Action:
    """One declared action.  ``weapon`` is a snapshot (name, type, note, uid, ammo before/after)."""

    id: int
    key: str
    start: float
    windup: float
    impact: float
    attribute: str = ""
    note: str = ""
    kind: Literal["act", "reload"] = "act"
    weapon: Mapping[str, Any] | None = None
    """Read-only, like every part of an action (see :func:`frozen_mapping`)."""
    cancelled_at: float | None = None
    target: str | None = None
    """The participant key this action is aimed at (``.bat 力量 150 >乙``), for interactions."""
    delay: float = 0.0
    """Windup paused by control effects (眩晕): the action resolves this much later."""
    not_before: float = 0.0
    """The wait a GM's 推进 set when it was declared (its owner's ``ready_at`` then): re-chaining
    after a stun or a cancel never moves it earlier than this (issue 25)."""
    effect: str = ""
    """What the impact is (:data:`.effects.KINDS`: 伤害, 治疗, 控制 …), fixed at declaration or by
    the GM; ``""`` in actions stored before kinds existed (:func:`.interactions.effect_of`)."""
    resist: str = ""
    """A control's resisting attribute (its key), named at declaration or by the GM."""
    guessed: bool = False
    """``effect`` came from the sides (the note named no kind): it is read again when its target
    turns out to be an NPC (:func:`.battle.ensure_participant`)."""

    def __post_init__(self) -> None:
        if self.weapon is not None:
            object.__setattr__(self, "weapon", frozen_mapping(self.weapon))

    @cached_property
    def end(self) -> float:
        """Computed once per action object (actions are frozen; a battle's clock, settling and
        rendering ask each action's end many times per command)."""
        return r2(self.start + self.windup + self.delay)

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    @property
    def effective_end(self) -> float:
        return self.cancelled_at if self.cancelled_at is not None else self.end

    def resolved(self, clock: float) -> bool:
        return not self.cancelled and self.end <= clock

    def active_at(self, t: float) -> bool:
        """(left-open, right-closed]: in its windup or resolving at ``t``.  A cancelled action
        was in its windup strictly before the moment it was cancelled and never resolves."""
        if self.cancelled_at is not None:
            return self.start < t < self.cancelled_at
        return self.start < t <= self.end


@dataclass(frozen=True)
class Event:
    """Something that happened at ``time`` other than an action (join, 体力 change, death …)."""

    id: int
    key: str
    time: float
    kind: EventKind
    delta: float = 0.0
    after: float | None = None
    """The resource after a change; the moment passive sides start (先攻); a stun's end."""
    full: float | None = None
    ref: int | None = None
    """The action concerned (cancel, the hit that caused a change, the stun's source)."""


@dataclass(frozen=True)
class BattleState:
    clock: float = 0.0
    """The rule book's "now" (see the module doc); recomputed by every transition."""
    participants: tuple[Participant, ...] = ()
    actions: tuple[Action, ...] = ()
    events: tuple[Event, ...] = ()
    next_id: int = 1
    """Next action number (``#1``, ``#2`` … as players see them)."""
    next_event: int = 1
    initiative: Mapping[str, Any] | None = None
    """The 先攻 (``key``, ``passive_start``), read-only (see :func:`frozen_mapping`)."""
    schema_version: int = SCHEMA_VERSION
    started: bool = False
    """False during the opening (everybody declaring a first action; newcomers start at 0)."""
    auto_damage: bool = False
    """The GM's ``.bat 自动伤害 开``: each hit that settles is applied to its target's 体力 by the
    bot (as ``.crd 目标:hp -N #k`` would), instead of being offered as a ready command."""
    session_id: str = ""
    """Drawn when the battle begins (:func:`chronodice.core.ids.session_id`): tells this battle
    from the next one in the same row (a web link is bound to it)."""
    veil: bool = False
    """The GM's ``.bat 暗宣言 开``: NPC declarations stay secret until they resolve (:mod:`.secrecy`)."""
    next_secret: int = 1
    """Next secret action number (:data:`.secrecy.SECRET_BASE` + this)."""

    def __post_init__(self) -> None:
        if self.initiative is not None:
            object.__setattr__(self, "initiative", frozen_mapping(self.initiative))

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BattleState:
        version = int(data.get("schema_version", 1))
        if version > SCHEMA_VERSION:
            raise IllegalAction("战斗数据来自更新版本的骰娘，无法读取")
        state = cls(
            clock=float(data.get("clock", 0.0)),
            participants=tuple(Participant(**p) for p in data.get("participants", [])),
            actions=tuple(Action(**a) for a in data.get("actions", [])),
            events=tuple(Event(**e) for e in data.get("events", [])),
            next_id=int(data.get("next_id", 1)),
            next_event=int(data.get("next_event", 1)),
            initiative=data.get("initiative"),
            schema_version=SCHEMA_VERSION,
            started=bool(data.get("started", False)),
            auto_damage=bool(data.get("auto_damage", False)),
            session_id=str(data.get("session_id", "")),
            veil=bool(data.get("veil", False)),
            next_secret=int(data.get("next_secret", 1)),
        )
        return _migrate_v1(state) if version < 2 else state

    # ------------------------------------------------------------------ queries
    def participant(self, key: str) -> Participant | None:
        for p in self.participants:
            if p.key == key:
                return p
        return None

    @cached_property
    def _own(self) -> dict[str, tuple[Action, ...]]:
        """Each participant's actions in order (the rules and the reply ask for them many times
        per ``.bat``; a state is frozen, so it never goes stale), see :func:`_index`."""
        return _index(self.actions)

    def actions_of(self, key: str) -> list[Action]:
        return list(self._own.get(key, ()))

    def action(self, action_id: int) -> Action:
        """Action ``#action_id``.  Actions are appended in the order of their numbers and
        replaced in place, so it is found by bisection; a battle whose actions are not in that
        order (one built by hand) is searched from the start."""
        i = bisect_left(self.actions, action_id, key=_ID)
        if i < len(self.actions) and self.actions[i].id == action_id:
            return self.actions[i]
        for a in self.actions:
            if a.id == action_id:
                return a
        raise NotFound(f"时间轴上没有行动#{action_id}")

    def last_of(self, key: str) -> Action | None:
        own = self._own.get(key)
        return own[-1] if own else None

    def free_at(self, key: str) -> float:
        """When ``key`` decides its next action: the end of its chain (MayuriBot's 累计时间),
        not before its join, a 推进 wait, or the end of a stun it is in."""
        p = self.participant(key)
        base = max(p.joined_at, p.ready_at) if p else self.clock
        last = self.last_of(key)
        if last is not None:
            base = max(base, last.effective_end)
        return outside_stuns(self, key, base)

    def total_impact(self, key: str) -> float:
        """Sum of the impacts of the participant's actions that were not cancelled (r1)."""
        return r1(sum(a.impact for a in self._own.get(key, ()) if a.cancelled_at is None))

    def living(self) -> list[Participant]:
        return [p for p in self.participants if p.status == "active"]

    def settled(self, a: Action) -> bool:
        """Whether ``a`` has resolved: the opening is over and it ends at or before the clock."""
        return self.started and a.resolved(self.clock)


_INDEXES: OrderedDict[int, tuple[tuple[Action, ...], dict[str, tuple[Action, ...]]]] = OrderedDict()
"""The last few actions tuples indexed by :func:`_index` (by ``id``, each held: it cannot be
reused while here)."""
_INDEXES_KEPT = 16


def _index(actions: tuple[Action, ...]) -> dict[str, tuple[Action, ...]]:
    """Each participant's actions in order, per actions tuple: the states one ``.bat`` makes
    from one another (a new clock, a settled action) share theirs, and the next command's
    tuple is mostly the last one with an action appended, so an index of a prefix of it is
    extended by the rest (a 1,000-action battle is not walked twice per command)."""
    hit = _INDEXES.get(id(actions))
    if hit is not None and hit[0] is actions:
        _INDEXES.move_to_end(id(actions))
        return hit[1]
    base: tuple[tuple[Action, ...], dict[str, tuple[Action, ...]]] = ((), {})
    for old, index in reversed(_INDEXES.values()):  # the newest first
        k = len(old)
        if len(base[0]) < k <= len(actions) and actions[k - 1] is old[-1] and same_prefix(old, actions) == k:
            base = (old, index)
            break
    more: dict[str, list[Action]] = {}
    for a in actions[len(base[0]) :]:
        more.setdefault(a.key, []).append(a)
    own = dict(base[1])
    for key, added in more.items():
        own[key] = own.get(key, ()) + tuple(added)
    _INDEXES[id(actions)] = (actions, own)
    while len(_INDEXES) > _INDEXES_KEPT:
        _INDEXES.popitem(last=False)
    return own


def new_battle(session_id: str = "") -> BattleState:
    return BattleState(session_id=session_id)


def reread_guesses(state: BattleState, key: str) -> BattleState:
    """Actions aimed at ``key`` whose kind was guessed from the sides (:attr:`Action.guessed`),
    read again now that ``key``'s side is known (those already resolved keep their result)."""
    aim = state.participant(key)
    out = []
    for a in state.actions:
        actor = state.participant(a.key)
        if a.guessed and a.target == key and not a.cancelled and not state.settled(a) and actor and aim:
            a = replace(a, effect=default_kind(actor.npc != aim.npc))
        out.append(a)
    return replace(state, actions=tuple(out))


def outside_stuns(state: BattleState, key: str, t: float) -> float:
    """``t``, or the end of the stun(s) of ``key`` that hold at ``t`` (window ``[start, end)``)."""
    moved = True
    while moved:
        moved = False
        for e in state.events:
            if e.kind == "stun" and e.key == key and e.after is not None and e.time <= t < e.after:
                t, moved = e.after, True
    return t


# ---------------------------------------------------------------------- the clock
def _clock(state: BattleState) -> float:
    if not state.started:
        return 0.0
    living = state.living()
    if living:
        return r2(min(state.free_at(p.key) for p in living))
    return r2(max([state.clock, *(state.free_at(p.key) for p in state.participants)]))


def settle(state: BattleState, *, start: bool = False) -> BattleState:
    """Recompute the clock (closing the opening first when ``start``)."""
    if start and not state.started:
        state = replace(state, started=True)
    return replace(state, clock=_clock(state))


def newly_settled(before: BattleState, after: BattleState) -> list[Action]:
    """Actions that resolved with this transition, in the order they resolve: settled in
    ``after``, and not in ``before`` under the same id.

    Runs after every ``.bat``.  An action that is the same object at the same place in
    ``before`` (the unchanged prefix, nearly the whole battle) is new here only when it ends
    after the old clock and at or before the new one, so that prefix is looked at only when the
    clock moved on.  Only the others (new, changed) are compared with ``before``."""
    if not after.started:
        return []
    clock, old, n = after.clock, before.actions, len(before.actions)
    was_clock = before.clock if before.started else -1.0  # before the opening nothing settled
    k = same_prefix(old, after.actions)  # the first k actions are unchanged
    done = []
    if clock > was_clock:
        done = [a for a in after.actions[:k] if was_clock < a.end <= clock and a.cancelled_at is None]
    by_id: dict[int, Action] | None = None
    for i in range(k, len(after.actions)):
        a = after.actions[i]
        if not a.resolved(clock):
            continue  # not settled after
        if k == n:  # every old action is in its place before this one: ids are unique, so new
            done.append(a)
            continue
        if i < n and old[i].id == a.id:  # changed in its place
            prev: Action | None = old[i]
        else:
            if by_id is None:
                by_id = {b.id: b for b in old}
            prev = by_id.get(a.id)
        if prev is None or not before.settled(prev):
            done.append(a)
    return sorted(done, key=lambda a: (a.end, a.id))


def _migrate_v1(state: BattleState) -> BattleState:
    """Schema 1 (clock = the latest start anybody declared) → the rule book's clock.

    The opening is over when anybody had a second action or anything but joins happened; a
    GM's 推进 becomes a wait of whoever had nothing declared until then."""
    counts: dict[str, int] = {}
    for a in state.actions:
        counts[a.key] = counts.get(a.key, 0) + 1
    started = any(n > 1 for n in counts.values()) or any(
        e.kind in ("hp", "mp", "death", "advance") for e in state.events
    )
    advanced = max((e.after or 0.0 for e in state.events if e.kind == "advance"), default=None)
    if advanced is not None:
        parts = tuple(
            replace(p, ready_at=advanced) if p.status == "active" and state.free_at(p.key) < advanced else p
            for p in state.participants
        )
        state = replace(state, participants=parts)
    return settle(replace(state, started=started))
