"""The battle timeline (战斗时间轴) as a pure state machine, on the rule book's clock.

State is a frozen :class:`BattleState` (JSON via ``to_dict``/``from_dict``, ``schema_version``);
every transition returns a new state plus the :class:`Event` records it produced.  Unlike
MayuriBot (one row per character, later actions overwrite earlier ones, late joiners at t 0),
every action is kept and the battle has a clock.  Interactions and control effects are in
:mod:`.interactions`.

The clock (rule book 战斗/时间轴: 先结束准备的角色会先进行结算与判定并紧接着决定第二个行为):

* a participant's actions are chained: each starts when the previous one resolves (or was
  cancelled), the first at the moment the participant joined — typing order in the chat does
  not matter;
* **the battle is at the earliest moment at which some living participant has no declared
  action** (:attr:`BattleState.clock` = the smallest :meth:`BattleState.free_at`).  Everything
  resolving at or before the clock is *settled* (right-closed: an action resolving exactly at
  the clock has happened); everything after it is still open and can be cancelled;
* **the opening** (``started`` false): while everybody is only declaring (book 时间轴: 战斗开始时，
  所有角色同时决定行为) nothing has happened yet — the clock reads 0, nothing is settled and
  every newcomer starts at 0, however many actions others have already chained.  Typing order
  says nothing about who is at the table, so a second declaration does not close it (issue 25:
  the 3rd player to type became a late joiner).  It closes when

  - the GM starts the battle (:func:`open_battle`, ``.bat 开始 [甲 乙 …]``): the names are the
    roster, each joins at 0 even with nothing declared, and so holds the clock at 0 until they
    declare (the clock is the earliest undeclared moment);
  - the first action settles: the GM enters its result (a 体力/意志 change with ``#N``, a
    control effect) or lets time pass (``推进``).  A group that never types ``.bat 开始`` (the
    MayuriBot flow) keeps playing: everyone joins at 0 as in MayuriBot until then.

  After that a newcomer joins at the clock.  Reading where the book is silent: a participant
  who was there from the start but types their first action after the opening closed (and was
  not on the roster) joins at the clock too (the bot cannot know);
* cancelling (book: 玩家可以在前摇阶段取消一个行为): any unresolved action (``end > clock``) of
  one's own (the GM: anybody's).  In its windup it stops at the clock; one not started yet is
  void.  The participant's later actions move up so that the chain stays unbroken;
* ``推进 T`` (GM): time passes to ``T`` — every living participant with nothing declared until
  ``T`` waits until ``T`` (:attr:`Participant.ready_at`), so afterwards the clock is exactly
  ``T`` and "next action" is at ``T`` or later (never in the past).  An action declared after
  the wait keeps it (:attr:`Action.not_before`): a stun or a cancel that re-chains the
  participant's actions never moves it before ``T`` (issue 25);
* 体力/意志 changes are recorded at the clock, or at the moment a given action resolved (the
  hit of ``#3`` at 4.36t is recorded at 4.36t); one cannot be recorded after the clock.  In the
  opening (no clock yet) a change with ``#N`` is at ``#N``'s end and settles it (the opening
  closes; ``#N`` cannot be cancelled any more), one without ``#N`` is at 0 and settles nothing;
* 体力 or 意志 reaching 0 kills the participant (book 死亡) at that moment: their actions
  unresolved then are cancelled (one in its windup stops there, later ones are void) — also
  ones already settled when the death is dated earlier (:func:`voided`; the reply names them);
* 先攻 (:func:`set_initiative`): the passive side may start only when the attacker's first
  windup is half done: every other participant starts at ``start + T/2``.

Ammunition of artillery weapons lives in the battle while it runs (so ``.undo`` restores it) and
is written back to the character by the service when the battle ends or the participant leaves.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from chronodice.core.errors import IllegalAction, LimitExceeded

from . import effects
from .battle_state import (
    SCHEMA_VERSION,
    Action,
    BattleState,
    Event,
    EventKind,
    Participant,
    ParticipantRef,
    Status,
    new_battle,
    newly_settled,
    outside_stuns,
    reread_guesses,
    settle,
)
from .rounding import fmt, r2

MAX_ACTIONS = 2000
MAX_PARTICIPANTS = 60


# ---------------------------------------------------------------------- helpers
def replace_participant(state: BattleState, p: Participant) -> BattleState:
    return replace(state, participants=tuple(p if q.key == p.key else q for q in state.participants))


def replace_actions(state: BattleState, changed: dict[int, Action]) -> BattleState:
    if not changed:
        return state
    return replace(state, actions=tuple(changed.get(a.id, a) for a in state.actions))


def new_event(
    state: BattleState, key: str, kind: EventKind, *, time: float | None = None, **kw: Any
) -> tuple[BattleState, Event]:
    at = state.clock if time is None else time
    ev = Event(id=state.next_event, key=key, time=at, kind=kind, **kw)
    return replace(state, events=(*state.events, ev), next_event=state.next_event + 1), ev


def rechain(state: BattleState, key: str, after_id: int) -> BattleState:
    """Lay ``key``'s actions declared after ``after_id`` end to end again (after a cancel or a
    delay), none starting inside a stun nor before the 推进 wait it was declared after
    (:attr:`Action.not_before`: a wait the GM set stays set, issue 25).  A void action
    (cancelled before it started) moves with its place in the chain."""
    own = state.actions_of(key)
    idx = next((i for i, a in enumerate(own) if a.id == after_id), None)
    if idx is None:
        return state
    changed: dict[int, Action] = {}
    prev_end = own[idx].effective_end
    for a in own[idx + 1 :]:
        start = outside_stuns(state, key, r2(max(prev_end, a.not_before)))
        if start != a.start:
            # void stays void; one cancelled before its new start never started at all
            void = a.cancelled_at is not None and (a.cancelled_at == a.start or a.cancelled_at < start)
            a = replace(a, start=start, cancelled_at=start if void else a.cancelled_at)
            changed[a.id] = a
        prev_end = a.effective_end
    return replace_actions(state, changed)


def join_time(state: BattleState, key: str) -> float:
    """Where a newcomer starts: 0 in the opening, else the clock; not before a 先攻's passive start."""
    t = state.clock if state.started else 0.0
    if state.initiative and state.initiative["key"] != key:
        t = max(t, float(state.initiative["passive_start"]))
    return t


def ensure_participant(state: BattleState, ref: ParticipantRef) -> tuple[BattleState, list[Event]]:
    """Add ``ref`` (or bring it back after ``out``) at :func:`join_time`."""
    p = state.participant(ref.key)
    if p is not None and p.status == "active":
        if ref.npc and not p.npc:
            # entered as somebody's target, the GM now acts for it by name: it is an NPC, and
            # what unreadable notes aimed at it still to resolve read as follows suit (issue 39)
            state = replace_participant(state, replace(p, npc=True))
            return reread_guesses(state, ref.key), []
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
        state = replace_participant(state, fresh)
    state, ev = new_event(state, ref.key, "join", time=t)
    return state, [ev]


def enlist(state: BattleState, ref: ParticipantRef) -> tuple[BattleState, list[Event]]:
    """Bring ``ref`` into the battle because an action is aimed at them (``>阿星``) before they
    declared: they join like a newcomer (at 0 in the opening) and, having nothing declared, hold
    the clock there until they do — the book's 所有角色同时决定: whoever is fought is at the
    table.  One already in it (active, out or dead) is left as is (issue 25)."""
    if state.participant(ref.key) is not None:
        return state, []
    state, events = ensure_participant(state, ref)
    return settle(state), events


def _cut(state: BattleState, key: str, t: float) -> BattleState:
    """Cancel every action of ``key`` unresolved at ``t`` (death, leaving): one in its windup
    stops at ``t``, later ones are void."""
    changed = {
        a.id: replace(a, cancelled_at=max(a.start, t))
        for a in state.actions
        if a.key == key and not a.cancelled and a.end > t
    }
    return replace_actions(state, changed)


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
    target: str | None = None,
    effect: str | None = None,
    resist: str | None = None,
) -> tuple[BattleState, Action, list[Event]]:
    """Append an action at the end of ``ref``'s chain (joining first if needed).

    ``effect``: what the impact is (:mod:`.effects`); None reads it from the note, or from the
    sides when the note names none (an NPC's target is a player's character or back: 伤害).
    ``resist``: a control's resisting attribute; None reads it from the note.

    A second action does not close the opening (issue 25): whoever has not typed yet may
    still be at the table."""
    if len(state.actions) >= MAX_ACTIONS:
        raise LimitExceeded(f"本场战斗的行动已达上限{MAX_ACTIONS}个，请 .bat end 结束后重新开始")
    if target is not None:
        aim = state.participant(target)
        if aim is not None and aim.status == "dead":
            raise IllegalAction(f"目标[{aim.name}]已经死亡")
    state, events = ensure_participant(state, ref)
    start = state.free_at(ref.key)
    p = state.participant(ref.key)
    read = effects.read_kind(note) if effect is None else effect  # None: guessed from the sides
    aim = state.participant(target) if target is not None else None
    effect = read or effects.default_kind(None if target is None else aim is None or aim.npc != ref.npc)
    if resist is None:
        resist = effects.read_resist(note) if effect == "控制" else None
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
        target=target,
        not_before=p.ready_at if p is not None else 0.0,
        # aimed at nobody, naming no kind: nothing to read (kept as an old action is, no text)
        effect="" if kind != "act" or (target is None and effect == "其他") else effect,
        resist=resist or "",
        guessed=read is None and target is not None,
    )
    state = replace(state, actions=(*state.actions, action), next_id=state.next_id + 1)
    return settle(state), action, events


def cancel_action(
    state: BattleState, key: str | None, action_id: int | None = None
) -> tuple[BattleState, Action, list[Event]]:
    """Cancel an unresolved action: ``action_id`` (of ``key``, or anybody's when ``key`` is
    None — the GM), else ``key``'s latest unresolved one.

    In its windup it stops at the clock; not started yet, it is void.  The owner's later actions
    move up; unspent ammunition comes back when no later action used that weapon."""
    if action_id is not None:
        target = state.action(action_id)
        if key is not None and target.key != key:
            raise IllegalAction(f"行动#{action_id}不是你的行动×")
    else:
        own = [a for a in state.actions_of(key or "") if not a.cancelled]
        if not own:
            raise IllegalAction("没有可以取消的行动×")
        target = own[-1]
    if target.cancelled:
        raise IllegalAction(f"行动#{target.id}已经取消×")
    if state.settled(target):
        raise IllegalAction(f"行动#{target.id}已在{target.end:g}t结算，无法取消×")
    if any(e.ref == target.id and e.kind in ("hp", "mp", "stun") for e in state.events):
        # its result is on the timeline (the GM settled it, e.g. in the opening before the clock
        # reached it): cancelling would leave a change without its cause
        raise IllegalAction(f"行动#{target.id}的结果已记入时间轴，无法取消×（可 .undo 撤销那条记录）")
    now = state.clock if state.started else target.start
    cancelled = replace(target, cancelled_at=max(target.start, now))
    state = replace_actions(state, {target.id: cancelled})
    state = rechain(state, target.key, target.id)
    p = state.participant(target.key)
    snap = target.weapon or {}
    if p is not None and "before" in snap and p.ammo.get(str(snap["uid"])) == snap.get("after"):
        later = [
            a
            for a in state.actions_of(target.key)
            if a.id > target.id and not a.cancelled and (a.weapon or {}).get("uid") == snap["uid"]
        ]
        if not later:
            state = replace_participant(state, replace(p, ammo={**p.ammo, str(snap["uid"]): snap["before"]}))
    state, ev = new_event(state, target.key, "cancel", ref=target.id)
    return settle(state), cancelled, [ev]


def leave(state: BattleState, key: str) -> tuple[BattleState, list[Event]]:
    """``.bat out``: unresolved actions are cancelled; the history stays on the timeline."""
    p = state.participant(key)
    if p is None or p.status != "active":
        raise IllegalAction("没有参与战斗×")
    state = _cut(state, key, state.clock if state.started else 0.0)
    state = replace_participant(state, replace(p, status="out"))
    state, ev = new_event(state, key, "out")
    return settle(state), [ev]


def resource_event(
    state: BattleState,
    key: str,
    resource: Literal["hp", "mp"],
    delta: float,
    after: float,
    full: float,
    *,
    hit: int | None = None,
) -> tuple[BattleState, list[Event]]:
    """A 体力/意志 change at the clock, or when action ``hit`` resolved; 0 kills (book 死亡).

    A change cannot be recorded at a moment that has not come yet.  In the opening: with
    ``hit`` it is at that action's end and closes the opening (the GM settled the first action);
    a death there can move the clock forward (the dead no longer hold it).  Without ``hit`` it is
    at 0, the battle's start, and the opening goes on: a wound before anybody acted settles
    nothing (issue 25)."""
    p = state.participant(key)
    if p is None:
        return state, []
    at = hit_time(state, hit)
    if hit is not None:
        state = settle(state, start=True)
    state, ev = new_event(state, key, resource, time=at, delta=delta, after=after, full=full, ref=hit)
    events = [ev]
    if after <= 0 and p.status != "dead":
        state = _cut(state, key, at)
        state = replace_participant(state, replace(p, status="dead"))
        state, death = new_event(state, key, "death", time=at, after=after, ref=hit)
        events.append(death)
    return settle(state), events


def voided(before: BattleState, after: BattleState, key: str) -> list[Action]:
    """``key``'s actions that ``after`` cancels and ``before`` did not (a death, leaving), as they
    were in ``before`` — so one already resolved there (``before.settled``) can be told apart.

    A death entered after the fact (``.crd 哥布林:hp -200 #5``, the hit at 7.0t with the clock at
    12.69t) voids what the dead resolved after that moment, even when it had already been
    settled and its interaction announced: the book's 死亡 leaves no actions after it, and the hit
    the GM dates at 7.0t says the character was dead then.  The service names every such action,
    so nothing is voided without a word; a GM who wants them to stand records the hit at the
    clock instead (no ``#N``) after ``.undo``."""
    was = {a.id: a for a in before.actions_of(key)}
    return [
        was[a.id] for a in after.actions_of(key) if a.cancelled and a.id in was and not was[a.id].cancelled
    ]


def hit_time(state: BattleState, hit: int | None) -> float:
    """When a change caused by action ``hit`` happens: when it resolved (the clock if None, 0 in
    the opening).

    Refused for a cancelled action, and once the battle runs, for one that resolves after the
    clock.  In the opening there is no clock yet: the GM entering ``#N``'s result says it
    happened (see :func:`resource_event`)."""
    if hit is None:
        return state.clock if state.started else 0.0
    source = state.action(hit)
    if source.cancelled:
        raise IllegalAction(f"行动#{hit}已取消，不能造成影响")
    if state.started and source.end > state.clock:
        raise IllegalAction(
            f"行动#{hit}在{fmt(source.end)}t结算，尚未发生（当前战斗时间{fmt(state.clock)}t）"
        )
    return source.end


def open_battle(state: BattleState, refs: list[ParticipantRef]) -> tuple[BattleState, list[Event]]:
    """GM ``.bat 开始 [甲 乙 …]``: close the opening; ``refs`` (the roster) join now.

    Called in the opening, each listed newcomer joins at 0 with nothing declared and holds the
    clock there until they declare (book: 战斗开始时，所有角色同时决定行为); called later, they
    join at the clock.  Without names, whoever has declared is the roster.  A listed character
    who left (``out``) comes back; a dead one is refused."""
    events: list[Event] = []
    for ref in refs:
        state, joined = ensure_participant(state, ref)
        events.extend(joined)
    return settle(state, start=True), events


def set_initiative(state: BattleState, key: str) -> tuple[BattleState, float, list[Event]]:
    """先攻: others start when ``key``'s first windup is half done; returns that moment."""
    p = state.participant(key)
    own = state.actions_of(key)
    if p is None or not own:
        raise IllegalAction("先攻者需要先声明第一个行动×")
    if len(own) > 1 or state.started:
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
    state = replace(
        state,
        participants=tuple(participants),
        actions=tuple(actions),
        initiative={"key": key, "passive_start": passive},
    )
    state, ev = new_event(state, key, "initiative", after=passive)
    return settle(state), passive, [ev]


def advance(state: BattleState, to: float) -> tuple[BattleState, list[Action]]:
    """GM ``推进 T``: time passes to ``T``.  Whoever has nothing declared until ``T`` waits until
    ``T``; afterwards the clock is ``T``.  Returns the actions that resolve on the way."""
    before = state
    state = settle(state, start=True)
    to = r2(to)
    if to < state.clock:
        raise IllegalAction(f"战斗时间只能向前推进（当前{fmt(state.clock)}t）")
    parts = tuple(
        replace(p, ready_at=max(p.ready_at, to)) if p.status == "active" and state.free_at(p.key) < to else p
        for p in state.participants
    )
    state = replace(state, participants=parts)
    state, _ = new_event(state, "", "advance", time=to, after=to)
    state = settle(state)
    return state, newly_settled(before, state)


def next_up(state: BattleState) -> tuple[float, list[Participant]] | None:
    """The earliest moment a living participant decides again, and who (ties together)."""
    living = state.living()
    if not living:
        return None
    free = {p.key: state.free_at(p.key) for p in living}
    t = min(free.values())
    return t, [p for p in living if free[p.key] == t]


def pending(state: BattleState) -> list[Action]:
    """Unresolved, uncancelled actions in the order they resolve."""
    return sorted(
        (a for a in state.actions if not a.cancelled and not state.settled(a)), key=lambda a: (a.end, a.id)
    )


def interacts(a: Action, b: Action) -> bool:
    """Whether two actions can interact: one resolves inside the other's (start, end].

    The moment an action starts is its preparation and is not hit (book 时间轴)."""
    return (not a.cancelled and b.active_at(a.end)) or (not b.cancelled and a.active_at(b.end))


__all__ = [
    "MAX_ACTIONS",
    "SCHEMA_VERSION",
    "Action",
    "BattleState",
    "Event",
    "EventKind",
    "Participant",
    "ParticipantRef",
    "Status",
    "advance",
    "cancel_action",
    "enlist",
    "ensure_participant",
    "hit_time",
    "interacts",
    "join_time",
    "leave",
    "new_battle",
    "newly_settled",
    "next_up",
    "open_battle",
    "outside_stuns",
    "pending",
    "rechain",
    "record_action",
    "resource_event",
    "set_initiative",
    "settle",
    "voided",
]
