"""The battle timeline (战斗时间轴) as a pure state machine.

State is a frozen :class:`BattleState` (JSON via ``to_dict``/``from_dict``, ``schema_version``);
every transition returns a new state plus the :class:`Event` records it produced.  Unlike
MayuriBot (one row per character, later actions overwrite earlier ones, late joiners at t 0),
every action is kept and the battle has a clock.

Time model (rule book 时间轴; ``rules/timeline.md`` §6):

* a participant's actions are chained: each starts when the previous one resolves (or was
  cancelled), the first at the moment the participant joined — typing order in the chat does
  not matter, as MayuriBot's users expect;
* the battle clock (:attr:`BattleState.clock`) is the latest moment at which anybody decided an
  action (the largest start time recorded), moved on explicitly by the GM with :func:`advance`.
  Everything at or before the clock has happened: an action *resolves* when the clock reaches its
  end, actions are (left-open, right-closed] (``start < t ≤ end``);
* a late joiner starts at the clock; at the opening (nothing decided after 0) that is t 0;
* who acts next: the living participants whose chain ends earliest (:func:`next_up`);
* cancelling (the book: 玩家可以在前摇阶段取消一个行为) is allowed for a participant's latest
  action while it has not resolved: it ends at the clock (or never starts, if it starts later),
  its impact is void and unspent ammunition comes back;
* 先攻 (:func:`set_initiative`): the passive side may start only when the attacker's first
  windup is half done: every other participant starts at ``start + T/2``;
* 体力 or 意志 reaching 0 kills the participant (book 死亡): the death is recorded at the clock
  and their unresolved actions are cancelled.

Ammunition of artillery weapons lives in the battle while it runs (so ``.undo`` restores it) and
is written back to the character by the service when the battle ends or the participant leaves.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from chronodice.core.errors import IllegalAction, LimitExceeded, NotFound
from chronodice.core.plain import plain

from .character import Weapon
from .checks import amplified, artillery, impact_for, windup
from .rounding import r1, r2

SCHEMA_VERSION = 1
MAX_ACTIONS = 2000
MAX_PARTICIPANTS = 60

Status = Literal["active", "out", "dead"]
EventKind = Literal["join", "hp", "mp", "death", "out", "cancel", "initiative", "advance"]


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
    ammo: dict[str, int] = field(default_factory=dict)
    """Weapon uid → rounds left, while the battle runs."""


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
    weapon: dict[str, Any] | None = None
    cancelled_at: float | None = None

    @property
    def end(self) -> float:
        return r2(self.start + self.windup)

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None

    @property
    def effective_end(self) -> float:
        return self.cancelled_at if self.cancelled_at is not None else self.end

    def resolved(self, clock: float) -> bool:
        return not self.cancelled and self.end <= clock

    def active_at(self, t: float) -> bool:
        """(left-open, right-closed]: in its windup or resolving at ``t``."""
        return not self.cancelled and self.start < t <= self.end


@dataclass(frozen=True)
class Event:
    """Something that happened at ``time`` other than an action (join, 体力 change, death …)."""

    id: int
    key: str
    time: float
    kind: EventKind
    delta: float = 0.0
    after: float | None = None
    full: float | None = None
    ref: int | None = None
    """The action concerned (cancel)."""


@dataclass(frozen=True)
class BattleState:
    clock: float = 0.0
    participants: tuple[Participant, ...] = ()
    actions: tuple[Action, ...] = ()
    events: tuple[Event, ...] = ()
    next_id: int = 1
    """Next action number (``#1``, ``#2`` … as players see them)."""
    next_event: int = 1
    initiative: dict[str, Any] | None = None
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BattleState:
        if int(data.get("schema_version", 1)) > SCHEMA_VERSION:
            raise IllegalAction("战斗数据来自更新版本的骰娘，无法读取")
        return cls(
            clock=float(data.get("clock", 0.0)),
            participants=tuple(Participant(**p) for p in data.get("participants", [])),
            actions=tuple(Action(**a) for a in data.get("actions", [])),
            events=tuple(Event(**e) for e in data.get("events", [])),
            next_id=int(data.get("next_id", 1)),
            next_event=int(data.get("next_event", 1)),
            initiative=data.get("initiative"),
            schema_version=SCHEMA_VERSION,
        )

    # ------------------------------------------------------------------ queries
    def participant(self, key: str) -> Participant | None:
        for p in self.participants:
            if p.key == key:
                return p
        return None

    def actions_of(self, key: str) -> list[Action]:
        return [a for a in self.actions if a.key == key]

    def action(self, action_id: int) -> Action:
        for a in self.actions:
            if a.id == action_id:
                return a
        raise NotFound(f"时间轴上没有行动#{action_id}")

    def free_at(self, key: str) -> float:
        """When ``key`` decides its next action: the end of its chain (MayuriBot's 累计时间)."""
        p = self.participant(key)
        base = p.joined_at if p else self.clock
        own = self.actions_of(key)
        if own:
            base = max(base, own[-1].effective_end)
        return base

    def total_impact(self, key: str) -> float:
        """Sum of the impacts of the participant's actions that were not cancelled (r1)."""
        return r1(sum(a.impact for a in self.actions_of(key) if not a.cancelled))

    def living(self) -> list[Participant]:
        return [p for p in self.participants if p.status == "active"]


def new_battle() -> BattleState:
    return BattleState()


# ---------------------------------------------------------------------- helpers
def _replace_participant(state: BattleState, p: Participant) -> BattleState:
    return replace(state, participants=tuple(p if q.key == p.key else q for q in state.participants))


def _event(state: BattleState, key: str, kind: EventKind, **kw: Any) -> tuple[BattleState, Event]:
    ev = Event(id=state.next_event, key=key, time=state.clock, kind=kind, **kw)
    return replace(state, events=(*state.events, ev), next_event=state.next_event + 1), ev


def join_time(state: BattleState, key: str) -> float:
    """Where a newcomer starts: the clock, but not before the passive start of a 先攻."""
    t = state.clock
    if state.initiative and state.initiative["key"] != key:
        t = max(t, float(state.initiative["passive_start"]))
    return t


def ensure_participant(state: BattleState, ref: ParticipantRef) -> tuple[BattleState, list[Event]]:
    """Add ``ref`` (or bring it back after ``out``) at :func:`join_time`."""
    p = state.participant(ref.key)
    if p is not None and p.status == "active":
        return state, []
    if p is not None and p.status == "dead":
        raise IllegalAction(f"[{p.name}]已经死亡，不能再行动")
    if p is None and len(state.participants) >= MAX_PARTICIPANTS:
        raise LimitExceeded(f"一场战斗最多{MAX_PARTICIPANTS}个角色")
    t = join_time(state, ref.key)
    fresh = Participant(
        key=ref.key,
        name=ref.name,
        owner_id=ref.owner_id,
        character_id=ref.character_id,
        npc=ref.npc,
        joined_at=t,
        ammo=dict(p.ammo) if p else {},
    )
    if p is None:
        state = replace(state, participants=(*state.participants, fresh))
    else:
        state = _replace_participant(state, fresh)
    state, ev = _event(state, ref.key, "join")
    return state, [ev]


def _cancel_pending(state: BattleState, key: str) -> BattleState:
    """Cancel every unresolved action of ``key`` at the clock (death, leaving)."""
    actions = []
    for a in state.actions:
        if a.key == key and not a.cancelled and a.end > state.clock:
            a = replace(a, cancelled_at=max(a.start, state.clock))
        actions.append(a)
    return replace(state, actions=tuple(actions))


# ---------------------------------------------------------------------- transitions
def record_action(
    state: BattleState,
    ref: ParticipantRef,
    *,
    windup: float,
    impact: float,
    attribute: str = "",
    note: str = "",
    kind: Literal["act", "reload"] = "act",
    weapon: dict[str, Any] | None = None,
) -> tuple[BattleState, Action, list[Event]]:
    """Append an action at the end of ``ref``'s chain (joining first if needed)."""
    if len(state.actions) >= MAX_ACTIONS:
        raise LimitExceeded(f"本场战斗的行动已达上限{MAX_ACTIONS}个，请 .bat end 结束后重新开始")
    state, events = ensure_participant(state, ref)
    start = state.free_at(ref.key)
    action = Action(
        id=state.next_id,
        key=ref.key,
        start=start,
        windup=r2(windup),
        impact=impact,
        attribute=attribute,
        note=note,
        kind=kind,
        weapon=weapon,
    )
    state = replace(
        state,
        actions=(*state.actions, action),
        next_id=state.next_id + 1,
        clock=max(state.clock, start),
    )
    return state, action, events


def attribute_action(
    state: BattleState,
    ref: ParticipantRef,
    attribute: str,
    value: float,
    *,
    impact: float | None = None,
    time: float | None = None,
    note: str = "",
) -> tuple[BattleState, Action, list[Event]]:
    """``.bat 属性 I`` (F13) or ``.bat 属性 Tt`` (F14); MayuriBot stores impact r1."""
    if (impact is None) == (time is None):
        raise IllegalAction("请给出影响数值或前摇时间（如 150 或 10t）")
    if impact is not None:
        t, i = windup(impact, value), impact
    else:
        assert time is not None
        t, i = r2(time), impact_for(time, value)
    return record_action(state, ref, windup=t, impact=r1(i), attribute=attribute, note=note)


def amplifier_action(
    state: BattleState,
    ref: ParticipantRef,
    weapon: Weapon,
    value: float,
    *,
    impact: float | None = None,
    time: float | None = None,
    note: str = "",
) -> tuple[BattleState, Action, list[Event]]:
    """F15: windup of the unamplified impact, recorded impact r1(I·(1 + damage/100))."""
    if weapon.attribute is None:
        raise IllegalAction(f"武器[{weapon.name}]没有增幅属性")
    if impact is not None:
        t, base = windup(impact, value), impact
    elif time is not None:
        t, base = r2(time), impact_for(time, value)
    else:
        raise IllegalAction("请给出影响数值或前摇时间（如 150 或 10t）")
    snap = {"name": weapon.name, "type": weapon.type, "note": weapon.note, "uid": weapon.uid, "base": base}
    return record_action(
        state,
        ref,
        windup=t,
        impact=amplified(base, weapon.damage),
        attribute=weapon.attribute,
        note=note,
        weapon=snap,
    )


def ammo_left(state: BattleState, key: str, weapon: Weapon) -> int:
    """Rounds left in the battle (the character's stored count until first used here)."""
    p = state.participant(key)
    if p is not None and str(weapon.uid) in p.ammo:
        return p.ammo[str(weapon.uid)]
    return int(weapon.current_load if weapon.current_load is not None else weapon.load or 0)


def artillery_action(
    state: BattleState, ref: ParticipantRef, weapon: Weapon, shots: int | None, *, note: str = ""
) -> tuple[BattleState, Action, list[Event]]:
    """F16: fire ``shots`` (impact damage·n, windup cast·n) or reload (``shots`` None)."""
    load = int(weapon.load or 0)
    before = ammo_left(state, ref.key, weapon)
    snap: dict[str, Any] = {"name": weapon.name, "type": weapon.type, "note": weapon.note, "uid": weapon.uid}
    if shots is None:
        if before >= load:
            raise IllegalAction(f"武器弹药已满× 当前弹药: {before}/{load}")
        after, impact, t, kind = load, 0.0, r2(weapon.reload_time), "reload"
    else:
        if shots < 1:
            raise IllegalAction("发射弹药数至少为1")
        if shots > before:
            raise IllegalAction(f"没有足够的弹药× 当前弹药: {before}/{load}")
        impact, t = artillery(weapon.damage, weapon.cast, shots)
        after, kind = before - shots, "act"
    snap.update({"before": before, "after": after, "load": load, "shots": shots or 0})
    state, action, events = record_action(
        state,
        ref,
        windup=t,
        impact=impact,
        note=note,
        kind=kind,
        weapon=snap,  # type: ignore[arg-type]
    )
    p = state.participant(ref.key)
    assert p is not None
    state = _replace_participant(state, replace(p, ammo={**p.ammo, str(weapon.uid): after}))
    return state, action, events


def cancel_action(state: BattleState, key: str) -> tuple[BattleState, Action, list[Event]]:
    """Cancel ``key``'s latest action during its windup (or before it starts)."""
    p = state.participant(key)
    own = [a for a in state.actions_of(key) if not a.cancelled]
    if p is None or not own:
        raise IllegalAction("没有可以取消的行动×")
    last = own[-1]
    if last.end <= state.clock:
        raise IllegalAction(f"行动#{last.id}已在{last.end:g}t结算，无法取消×")
    cancelled = replace(last, cancelled_at=max(last.start, state.clock))
    state = replace(state, actions=tuple(cancelled if a.id == last.id else a for a in state.actions))
    snap = last.weapon or {}
    if "before" in snap and p.ammo.get(str(snap["uid"])) == snap.get("after"):
        state = _replace_participant(state, replace(p, ammo={**p.ammo, str(snap["uid"]): snap["before"]}))
    state, ev = _event(state, key, "cancel", ref=last.id)
    return state, cancelled, [ev]


def leave(state: BattleState, key: str) -> tuple[BattleState, list[Event]]:
    """``.bat out``: unresolved actions are cancelled; the history stays on the timeline."""
    p = state.participant(key)
    if p is None or p.status != "active":
        raise IllegalAction("没有参与战斗×")
    state = _cancel_pending(state, key)
    state = _replace_participant(state, replace(p, status="out"))
    state, ev = _event(state, key, "out")
    return state, [ev]


def resource_event(
    state: BattleState, key: str, resource: Literal["hp", "mp"], delta: float, after: float, full: float
) -> tuple[BattleState, list[Event]]:
    """Show a 体力/意志 change at the clock; 0 kills (book 死亡)."""
    p = state.participant(key)
    if p is None:
        return state, []
    state, ev = _event(state, key, resource, delta=delta, after=after, full=full)
    events = [ev]
    if after <= 0 and p.status != "dead":
        state = _cancel_pending(state, key)
        state = _replace_participant(state, replace(p, status="dead"))
        state, death = _event(state, key, "death", after=after)
        events.append(death)
    return state, events


def set_initiative(state: BattleState, key: str) -> tuple[BattleState, float, list[Event]]:
    """先攻: others start when ``key``'s first windup is half done; returns that moment."""
    p = state.participant(key)
    own = state.actions_of(key)
    if p is None or not own:
        raise IllegalAction("先攻者需要先声明第一个行动×")
    if len(own) > 1:
        raise IllegalAction("先攻只能在先攻者的第一个行动时设定×")
    first = own[0]
    passive = r2(first.start + first.windup / 2)
    participants, actions = [], list(state.actions)
    for q in state.participants:
        if q.key != key and q.joined_at < passive:
            shift = passive - q.joined_at
            actions = [
                replace(
                    a,
                    start=r2(a.start + shift),
                    cancelled_at=None if a.cancelled_at is None else r2(a.cancelled_at + shift),
                )
                if a.key == q.key
                else a
                for a in actions
            ]
            q = replace(q, joined_at=passive)
        participants.append(q)
    clock = max([first.start, *(a.start for a in actions)])
    state = replace(
        state,
        participants=tuple(participants),
        actions=tuple(actions),
        initiative={"key": key, "passive_start": passive},
        clock=clock,
    )
    state, ev = _event(state, key, "initiative", after=passive)
    return state, passive, [ev]


def advance(state: BattleState, to: float) -> tuple[BattleState, list[Action]]:
    """GM: move the clock forward to ``to``; returns the actions that resolve on the way."""
    if to < state.clock:
        raise IllegalAction(f"战斗时间只能向前推进（当前{state.clock:g}t）")
    done = [a for a in state.actions if not a.cancelled and state.clock < a.end <= to]
    state = replace(state, clock=r2(to))
    state, _ = _event(state, "", "advance", after=r2(to))
    return state, sorted(done, key=lambda a: (a.end, a.id))


def next_up(state: BattleState) -> tuple[float, list[Participant]] | None:
    """The earliest moment a living participant decides again, and who (ties together)."""
    living = state.living()
    if not living:
        return None
    t = min(state.free_at(p.key) for p in living)
    return t, [p for p in living if state.free_at(p.key) == t]


def pending(state: BattleState) -> list[Action]:
    """Unresolved, uncancelled actions in the order they resolve."""
    return sorted(
        (a for a in state.actions if not a.cancelled and a.end > state.clock), key=lambda a: (a.end, a.id)
    )


def interacts(a: Action, b: Action) -> bool:
    """Whether two actions can interact: one resolves inside the other's (start, end].

    The moment an action starts is its preparation and is not hit (book 时间轴).
    """
    return a.active_at(b.end) or b.active_at(a.end)


__all__ = [
    "MAX_ACTIONS",
    "Action",
    "BattleState",
    "Event",
    "Participant",
    "ParticipantRef",
    "advance",
    "ammo_left",
    "amplifier_action",
    "artillery_action",
    "attribute_action",
    "cancel_action",
    "ensure_participant",
    "interacts",
    "join_time",
    "leave",
    "new_battle",
    "next_up",
    "pending",
    "record_action",
    "resource_event",
    "set_initiative",
]
