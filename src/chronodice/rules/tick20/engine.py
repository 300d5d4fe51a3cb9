"""The tick-initiative tracker: pure transitions over :class:`Combat` (tick20.md §2).

Every public function takes a state and returns an :class:`Outcome` (a *new* state plus the
events that happened); the given state is never modified.  A transition runs the flow until a
human must act again (a turn in progress, a stall, or the end), pushes the previous state on
the undo stack (20 deep) and appends its events to the combat log.

Readings taken on top of tick20.md's recommendations (which are the defaults):

* ``delay_rule="next_tick"`` (A7/A8: a delayed turn moves to tick t−1); ``"literal"`` is 002's
  +1, which loses the round (the A5 fall-back brings her back at the main value).
* ``carry_rule="carry"`` (A4a: C += 20, falling back to min(M, 20) above 20); ``"reset"`` is
  A4b (C := min(M, 20) every round).
* Ties: 002/004 put GM-played characters first only between *hostile* characters.  Applied per
  tie group to keep the order total: when a fully tied group (same key, 先攻修正, LV) holds more
  than one side, its GM-played members go first; then ``.init first/swap`` ranks; then join
  order.  (Pairwise application can be cyclic with three sides.)
* 焦点 created before round 1 lasts to the end of round 1 (“next round” seen from setup).
* An effect born while the tracker is stalled between rounds counts like one born in setup.
* Effects are compared for the no-stacking rule by their approximate remaining ticks (a 回合
  counts as 20 ticks).
* 004 优势点 is granted only against a gauge of a combatant of another side.

No I/O, no clock; randomness (hidden durations, rolls) is decided by the caller or passed in.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

from chronodice.core.errors import (
    AmbiguousInput,
    IllegalAction,
    InputSyntaxError,
    LimitExceeded,
    NotFound,
)

from . import health as hp
from .model import (
    Combat,
    Combatant,
    Duration,
    DurationKind,
    Effect,
    Event,
    Health,
    InitMod,
    InitRoll,
    Options,
    Phase,
    PreTurn,
    TotalAction,
    Variant,
)
from .modifiers import Modifier, stack
from .variants import rules_for

UNDO_DEPTH = 20
LOG_DEPTH = 60
MAX_COMBATANTS = 60
MAX_EFFECTS = 400
MAX_NAME = 20
STALL_ROUNDS = 3
STEP_LIMIT = 2000
"""Processing steps one command may take; 3 empty rounds need about 200."""

COUNTED = (DurationKind.TICKS, DurationKind.ROUNDS, DurationKind.TURNS)


class Outcome(NamedTuple):
    state: Combat
    events: list[Event]


F = TypeVar("F", bound=Callable[..., Any])


# --------------------------------------------------------------------------- the working engine
class _Engine:
    """Mutates one working copy and collects events."""

    def __init__(self, st: Combat) -> None:
        self.st = st
        self.rules = rules_for(st.variant)
        self.events: list[Event] = []

    # ------------------------------------------------------------------ helpers
    def emit(self, event_kind: str, /, **data: Any) -> None:
        self.events.append(Event(kind=event_kind, round=self.st.round, tick=self.st.tick, data=data))

    def c(self, cid: str) -> Combatant:
        return self.st.get(cid)

    @property
    def active(self) -> bool:
        return self.st.phase is Phase.ACTIVE

    def base_key(self, c: Combatant) -> tuple[int, int, int]:
        return (self.rules.primary_key(c), c.init_mod, c.lv)

    def sort_within_tick(self, cs: Iterable[Combatant]) -> list[Combatant]:
        cs = list(cs)
        sides: dict[tuple[int, int, int], set[str]] = {}
        for c in cs:
            sides.setdefault(self.base_key(c), set()).add(c.side)

        def key(c: Combatant) -> tuple[int, ...]:
            k = self.base_key(c)
            multi = len(sides[k]) > 1
            gm_rank = 0 if (not multi or c.gm_played) else 1
            return (-k[0], -k[1], -k[2], gm_rank, -c.manual_rank, c.join_seq)

        return sorted(cs, key=key)

    def compute_round_order(self) -> list[str]:
        ordered = self.sort_within_tick(self.st.combatants)
        pos = {c.id: self.rules.tick_position(c) for c in ordered}
        ordered.sort(key=lambda c: (pos[c.id] is None or c.pending, -(pos[c.id] or 0)))
        return [c.id for c in ordered]

    def action_index(self) -> dict[str, int]:
        index = {cid: i for i, cid in enumerate(self.st.round_order)}
        base = len(index)
        for c in self.st.combatants:
            index.setdefault(c.id, base + c.join_seq)
        return index

    def eligible(self, c: Combatant, tick: int) -> bool:
        return not c.pending and self.rules.tick_position(c) == tick

    # ------------------------------------------------------------------ effects
    def anchor_of(self, e: Effect) -> str:
        return e.duration.anchor or e.bearer

    def end_effects(self, effects: list[Effect], reason: str) -> None:
        if not effects:
            return
        index = self.action_index()
        far = len(index) + 10_000
        ordered = sorted(effects, key=lambda e: (index.get(e.source or "", far), e.id))
        for e in ordered:
            self.drop_effect(e.id, reason)

    def drop_effect(self, eid: int, reason: str) -> None:
        e = self.st.effect(eid)
        if e is None:
            return
        self.st.effects = [x for x in self.st.effects if x.id != eid]
        self.emit(
            "effect_end",
            effect=e.name,
            eid=e.id,
            bearer=e.bearer,
            source=e.source,
            reason=reason,
            hidden=e.duration.hidden,
        )
        for child in [x for x in self.st.effects if x.parent == eid]:
            self.drop_effect(child.id, "parent")
        if e.init_mod is not None:
            self.refresh_init(e.bearer)

    def refresh_init(self, cid: str) -> None:
        c = self.st.maybe(cid)
        if c is None:
            return
        mods = [
            Modifier(e.init_mod.value, e.init_mod.type)
            for e in self.st.effects
            if e.bearer == cid and e.init_mod
        ]
        total = stack(mods)
        delta = total - c.mod_total
        if delta:
            c.mod_total = total
            self.mod_init(c, delta)

    def mod_init(self, c: Combatant, delta: int) -> None:
        old_pos = self.rules.tick_position(c)
        self.rules.mod_init(c, delta, self.active)
        self.emit("init_mod", cid=c.id, delta=delta, main=c.main, cur=c.cur)
        st = self.st
        if (
            self.active
            and not st.waiting
            and c.turns_this_round == 0
            and not c.pending
            and c.id not in st.queue
            and c.id != st.current
        ):
            new_pos = self.rules.tick_position(c)
            if new_pos is not None and new_pos > st.tick and (old_pos is None or old_pos <= st.tick):
                self.emit("lost_turn", cid=c.id, cur=c.cur)

    def remaining_ticks(self, e: Effect) -> int:
        st = self.st
        t = st.tick if self.active else 20
        r = st.round if self.active else 0
        kind = e.duration.kind
        left = e.remaining or 0
        if kind is DurationKind.TICKS:
            return left
        if kind is DurationKind.ROUNDS:
            return (left - 1) * 20 + t
        if kind is DurationKind.TURNS:
            return left * 20
        if kind is DurationKind.UNTIL_TICK_END:
            return 0
        if kind is DurationKind.UNTIL_ROUND_END:
            return t
        if kind is DurationKind.FOCUS:
            return ((e.end_round or r) - r) * 20 + t
        return 10**9

    # ------------------------------------------------------------------ flow
    def run(self, step: str) -> None:
        st = self.st
        for _ in range(STEP_LIMIT):
            if step == "round_start":
                self.round_start()
                step = "tick_start"
            elif step == "tick_start":
                self.skip_empty_ticks()
                self.tick_start()
                step = "pick"
            elif step == "pick":
                if self.pick_next():
                    return
                step = "tick_end"
            elif step == "tick_end":
                self.tick_end()
                if st.tick > 1:
                    st.tick -= 1
                    step = "tick_start"
                else:
                    step = "round_end"
            elif step == "round_end":
                if not self.round_end():
                    return
                step = "round_start"
        raise RuntimeError("tick20 engine: no progress within the step limit")  # pragma: no cover

    def skip_empty_ticks(self) -> None:
        """Jump over ticks where nothing can happen (no turn, no tick-counted expiry).

        Exactly equivalent to running them one by one: G and seq advance by the same amount and
        TICKS effects are counted down, but no effect reaches 0 inside the skipped range.
        """
        st = self.st
        t = st.tick
        if t >= 20 or t <= 1:
            return
        target = 1
        for c in st.combatants:
            if not c.pending:
                pos = self.rules.tick_position(c)
                if pos is not None and target < pos <= t:
                    target = pos
        counted = []
        for e in st.effects:
            kind = e.duration.kind
            if kind is DurationKind.UNTIL_TICK_END:
                return
            if kind is DurationKind.TICKS:
                counted.append(e)
                target = max(target, t - (e.remaining or 0) + 1)
        skipped = t - target
        if skipped <= 0:
            return
        st.g += skipped
        st.seq += skipped
        for e in counted:
            e.remaining = (e.remaining or 0) - skipped
        st.tick = target

    def round_start(self) -> None:
        st = self.st
        st.tick = 20
        r = st.round
        for c in st.combatants:
            self.rules.round_start(c, r, st.options)
            if r == 1 and c.surprised:
                self.rules.surprise(c)
            c.turns_this_round = 0
        st.round_order = self.compute_round_order()
        st.round_turns = 0
        self.emit("round_start", values={c.id: c.cur for c in st.combatants if not c.pending})
        if self.rules.has_ap:
            self.round_hooks()

    def round_hooks(self) -> None:
        st = self.st
        for cid in list(st.round_order):
            c = st.maybe(cid)
            if c is None or not c.health.parts:
                continue
            unconscious = any(e.bearer == c.id and e.name == "昏迷" for e in st.effects)
            for check in hp.dying_checks(c.health, unconscious):
                if check.dismembered:
                    self.emit("dismembered", cid=c.id, part=check.part)
                else:
                    self.emit(
                        "dying_check",
                        cid=c.id,
                        part=check.part,
                        target=check.target,
                        disadvantage=check.disadvantage,
                    )
            for part, wound in hp.tagged_wounds(c.health, "侵蚀"):
                tags = [t for t in wound.tags if t not in ("侵蚀", "僵化")]
                hp.apply_wounds(c.health, part, 1, 1, tags)
                self.emit("erosion", cid=c.id, part=part)
            stiff = len(hp.tagged_wounds(c.health, "僵化"))
            if stiff:
                before = c.ap
                c.ap = max(c.ap - stiff, -c.ap_max)
                self.emit("stiffen", cid=c.id, lost=before - c.ap, ap=c.ap)

    def tick_start(self) -> None:
        st = self.st
        st.g += 1
        st.seq += 1
        ending = []
        for e in st.effects:
            if e.duration.kind is DurationKind.TICKS and e.born_g < st.g:
                e.remaining = (e.remaining or 0) - 1
                if e.remaining <= 0:
                    ending.append(e)
        self.end_effects(ending, "expired")
        batch = self.sort_within_tick(c for c in st.combatants if self.eligible(c, st.tick))
        for c in batch:
            self.turn_start(c)
        if self.rules.rounds_step_first:
            self.rounds_step()
            for c in batch:
                self.grant(c)
        else:
            for c in batch:
                self.grant(c)
            self.rounds_step()
        st.queue = [c.id for c in batch if st.maybe(c.id) is not None]

    def rounds_step(self) -> None:
        st = self.st
        if st.tick != 20:
            return
        ending = []
        for e in st.effects:
            if e.duration.kind is DurationKind.ROUNDS and e.born_round < st.round:
                e.remaining = (e.remaining or 0) - 1
                if e.remaining <= 0:
                    ending.append(e)
        self.end_effects(ending, "expired")

    def turn_start(self, c: Combatant) -> None:
        st = self.st
        saved = [
            e.model_copy(deep=True)
            for e in st.effects
            if e.duration.kind is DurationKind.TURNS
            and e.duration.boundary == "start"
            and self.anchor_of(e) == c.id
        ]
        c.pre_turn = PreTurn(
            ap=c.ap,
            mov=c.mov,
            ma_used=c.ma_used,
            ra_used=c.ra_used,
            actions_left=c.actions_left,
            effects=saved,
        )
        st.seq += 1
        now = st.seq
        ending = []
        for e in st.effects:
            if (
                e.duration.kind is DurationKind.TURNS
                and e.duration.boundary == "start"
                and self.anchor_of(e) == c.id
                and e.born_seq < now
            ):
                e.remaining = (e.remaining or 0) - 1
                if e.remaining <= 0:
                    ending.append(e)
        self.end_effects(ending, "expired")
        c.ma_used = False
        c.ra_used = False
        c.mov = c.speed
        c.busy = False
        c.turn_started = True
        if c.ta is not None:
            c.ta.paid_this_turn = 0

    def grant(self, c: Combatant) -> None:
        if self.rules.has_ap:
            c.ap = min(c.ap + c.ap_max, c.ap_max)
        else:
            c.actions_left = self.st.options.actions_per_turn

    def pick_next(self) -> bool:
        st = self.st
        live = [st.maybe(cid) for cid in st.queue]
        ordered = self.sort_within_tick(c for c in live if c is not None)
        st.queue = [c.id for c in ordered]
        if not ordered:
            st.current = None
            return False
        c = ordered[0]
        st.current = c.id
        if not c.turn_started:
            self.turn_start(c)
            self.grant(c)
        st.turn_no += 1
        self.emit("turn", cid=c.id, ap=c.ap, ap_max=c.ap_max, cur=c.cur, main=c.main)
        return True

    def tick_end(self) -> None:
        st = self.st
        self.end_effects([e for e in st.effects if e.duration.kind is DurationKind.UNTIL_TICK_END], "expired")
        index = self.action_index()
        seen: list[str] = []
        for cid, _ in st.acted:
            if cid not in seen:
                seen.append(cid)
        seen.sort(key=lambda cid: index.get(cid, 10**6))
        for cid in seen:
            records = [s for i, s in st.acted if i == cid]
            ending = []
            for e in st.effects:
                if (
                    e.duration.kind is DurationKind.TURNS
                    and e.duration.boundary == "end"
                    and self.anchor_of(e) == cid
                ):
                    n = sum(1 for s in records if s > e.born_seq)
                    if n:
                        e.remaining = (e.remaining or 0) - n
                        if e.remaining <= 0:
                            ending.append(e)
            self.end_effects(ending, "expired")
        if st.tick == 1:
            self.end_effects(
                [
                    e
                    for e in st.effects
                    if e.duration.kind is DurationKind.UNTIL_ROUND_END
                    or (e.duration.kind is DurationKind.FOCUS and (e.end_round or 0) <= st.round)
                ],
                "expired",
            )
        st.acted = []

    def round_end(self) -> bool:
        st = self.st
        if st.options.settle and self.rules.settle_allowed:
            for c in st.combatants:
                delta = self.rules.settle(c)
                if delta:
                    self.emit(
                        "settle", cid=c.id, delta=delta, die=c.roll.die if c.roll else None, main=c.main
                    )
        st.empty_rounds = st.empty_rounds + 1 if st.round_turns == 0 else 0
        self.emit("round_end", turns=st.round_turns)
        st.round += 1
        st.tick = 20
        if st.empty_rounds >= STALL_ROUNDS:
            st.waiting = True
            self.emit("stalled", rounds=st.empty_rounds)
            return False
        return True

    # ------------------------------------------------------------------ turn ends
    def end_turn(self, kind: str) -> None:
        st = self.st
        c = self.c(st.current or "")
        cost = self.rules.end_turn(c)
        st.seq += 1
        st.acted.append((c.id, st.seq))
        c.turns_this_round += 1
        c.turns_total += 1
        st.round_turns += 1
        st.queue = [q for q in st.queue if q != c.id]
        c.turn_started = False
        c.pre_turn = None
        st.current = None
        self.emit("turn_end", cid=c.id, cost=cost, cur=c.cur, skipped=kind == "skip")
        if c.ta is not None and c.ta.paid_this_turn == 0:
            self.emit("ta_broken", cid=c.id, ta=c.ta.name, paid=c.ta.paid, total=c.ta.total)
            c.ta = None
        self.after_turn()

    def after_turn(self) -> None:
        st = self.st
        for c in st.combatants:
            if c.id not in st.queue and self.eligible(c, st.tick):
                st.queue.append(c.id)
        if not self.pick_next():
            self.run("tick_end")

    # ------------------------------------------------------------------ placement
    def place(self, c: Combatant, value: int) -> str:
        """PLACE (tick20.md §2.5); returns how the value applies."""
        st = self.st
        self.rules.set_value(c, value)
        if not self.active:
            c.cur = min(value, 20) if st.variant is Variant.BASE else value
            c.pending = False
            return "setup"
        if st.waiting:
            c.pending = True
            return "next_round"
        t = st.tick
        pos = self.rules.placed_position(value)
        acted = c.turns_this_round > 0
        base = st.variant is Variant.BASE
        if pos is None:
            c.cur = value
            c.pending = False
            return "no_turn"
        if not acted and pos < t:
            c.cur = pos if base else value
            c.pending = False
            return "this_round"
        if not acted and pos == t:
            c.cur = pos if base else value
            c.pending = False
            if c.id not in st.queue:
                st.queue.append(c.id)
            return "this_tick"
        c.pending = True
        return "next_round"


# --------------------------------------------------------------------------- transitions
def _copy(state: Combat, snapshot: str | None = None) -> Combat:
    """A working copy; ``undo`` and ``log`` are shared lists of immutable items, copied shallowly."""
    work = Combat.model_validate_json(snapshot or state.model_dump_json(exclude={"undo", "log"}))
    work.undo = list(state.undo)
    work.log = list(state.log)
    return work


def _transition(fn: F) -> F:
    """Run ``fn(engine, ...)`` on a copy; push the old state for undo; log the events."""

    @functools.wraps(fn)
    def wrapper(state: Combat, *args: Any, **kwargs: Any) -> Outcome:
        snapshot = state.model_dump_json(exclude={"undo", "log"}, exclude_defaults=True)
        work = _copy(state, snapshot)
        eng = _Engine(work)
        fn(eng, *args, **kwargs)
        depth = min(UNDO_DEPTH, work.options.undo_depth)
        work.undo = [*work.undo, snapshot][-depth:] if depth > 0 else []
        work.log = [*work.log, *eng.events][-LOG_DEPTH:]
        return Outcome(work, eng.events)

    return wrapper  # type: ignore[return-value]


def _require_phase(st: Combat, *phases: Phase) -> None:
    if st.phase in phases:
        return
    if st.phase is Phase.ENDED:
        raise IllegalAction("战斗已经结束")
    if Phase.SETUP in phases:
        raise IllegalAction("战斗已经开始，这只能在开战前进行")
    raise IllegalAction("战斗还没有开始（.init start 开战）")


def _require_current(st: Combat) -> Combatant:
    _require_phase(st, Phase.ACTIVE)
    if st.waiting or st.current is None:
        raise IllegalAction("现在没有人在进行回合（.init next 继续）")
    return st.get(st.current)


def new_combat(owner: str | None = None, *, variant: Variant = Variant.BASE, **options: Any) -> Combat:
    """A combat in SETUP (``.init begin``)."""
    opts = Options(variant=variant, **options)
    if opts.settle and variant is Variant.SPD:
        raise IllegalAction("沉淀先攻只适用于基础规则（两颗骰没有中值10）")
    if not 1 <= opts.ap_max <= 20 or not -opts.ap_max <= opts.ap_start <= opts.ap_max:
        raise InputSyntaxError("AP上限应在1~20之间，初始AP不超过上限")
    gms = [owner] if owner else []
    return Combat(options=opts, owner=owner, gms=gms)


def find(st: Combat, query: str) -> Combatant:
    """Exact name or id, else a unique substring (tick20.md §4.1)."""
    q = query.strip()
    if not q:
        raise InputSyntaxError("请写出参战者名称")
    for c in st.combatants:
        if c.name == q or c.id == q:
            return c
    low = q.lower()
    hits = [c for c in st.combatants if low in c.name.lower()]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousInput("可能是：" + "/".join(c.name for c in hits[:6]))
    raise NotFound(f"没有找到参战者「{q}」")


@_transition
def add_combatant(
    eng: _Engine,
    name: str,
    *,
    value: int | None = None,
    roll: InitRoll | None = None,
    init_mod: int | None = None,
    controller: str | None = None,
    side: str | None = None,
    lv: int = 0,
    hidden: bool = False,
    ap_max: int | None = None,
    spd_base: int = 0,
    speed: int = 0,
    surprised: bool = False,
    health: Health | None = None,
) -> None:
    """Join with a rolled (``roll``) or given (``value``) initiative."""
    st = eng.st
    _require_phase(st, Phase.SETUP, Phase.ACTIVE)
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise InputSyntaxError(f"名称应为1~{MAX_NAME}个字")
    if any(c.name == name for c in st.combatants):
        raise IllegalAction(f"已经有叫「{name}」的参战者")
    if len(st.combatants) >= MAX_COMBATANTS:
        raise LimitExceeded(f"参战者最多{MAX_COMBATANTS}名")
    if roll is None and value is None:
        raise InputSyntaxError("需要先攻值或先攻检定")
    total = roll.total if roll is not None else int(value or 0)
    if not -999 <= total <= 999:
        raise InputSyntaxError("先攻值应在−999~999之间")
    if init_mod is None:
        init_mod = total - roll.die if roll is not None and roll.die is not None else 0
    cap = ap_max if ap_max is not None else st.options.ap_max
    c = Combatant(
        id=f"c{st.next_cid}",
        name=name,
        controller=controller,
        side=side or ("我方" if controller else "敌方"),
        lv=lv,
        join_seq=st.next_join,
        roll=roll,
        init_mod=init_mod,
        spd_base=spd_base,
        speed=speed,
        hidden=hidden,
        surprised=surprised and st.phase is Phase.SETUP,
        ap_max=cap,
        ap=min(st.options.ap_start, cap),
        health=health or Health(),
    )
    st.next_cid += 1
    st.next_join += 1
    st.combatants.append(c)
    how = eng.place(c, total)
    if eng.active:
        st.round_order.append(c.id)
    eng.emit("join", cid=c.id, name=c.name, value=total, placed=how, hidden=hidden)


@_transition
def start(eng: _Engine) -> None:
    """START: round 1, run to the first turn (``.init start``)."""
    st = eng.st
    _require_phase(st, Phase.SETUP)
    if not st.combatants:
        raise IllegalAction("还没有参战者（.ri 或 .init add 加入）")
    st.phase = Phase.ACTIVE
    st.round = 1
    eng.emit("start", variant=st.variant.value)
    eng.run("round_start")


@_transition
def end_turn(eng: _Engine, *, expected_turn: int | None = None, skip: bool = False) -> None:
    """END_TURN of the current actor (``.init next``; ``skip=True`` for ``.init skip``).

    ``expected_turn`` is the ``turn_no`` the sender saw: when the turn has moved on meanwhile
    (two people advancing at once, C02), nothing happens and IllegalAction says so.
    """
    st = eng.st
    _require_phase(st, Phase.ACTIVE)
    if expected_turn is not None and expected_turn != st.turn_no:
        who = st.maybe(st.current)
        now = f"{who.name} 的回合（第{st.tick}刻）" if who else "下一阶段"
        raise IllegalAction(f"回合已经推进到 {now}，没有重复推进")
    if st.waiting:
        st.waiting = False
        st.empty_rounds = 0
        eng.emit("resume")
        eng.run("round_start")
        return
    _require_current(st)
    eng.end_turn("skip" if skip else "next")


@_transition
def delay(eng: _Engine) -> None:
    """DELAY the current actor (``.延后``), undoing her turn-start processing."""
    st = eng.st
    c = _require_current(st)
    if c.busy:
        raise IllegalAction(f"{c.name} 本回合已经行动过，不能延后")
    pre = c.pre_turn or PreTurn(ap=c.ap, mov=c.mov, actions_left=c.actions_left)
    c.ap, c.mov, c.ma_used, c.ra_used, c.actions_left = (
        pre.ap,
        pre.mov,
        pre.ma_used,
        pre.ra_used,
        pre.actions_left,
    )
    for saved in pre.effects:
        existing = st.effect(saved.id)
        if existing is not None:
            existing.remaining = saved.remaining
        elif st.maybe(saved.bearer) is not None:
            st.effects.append(saved)
            st.effects.sort(key=lambda e: e.id)
            eng.emit("effect_restored", effect=saved.name, bearer=saved.bearer)
            if saved.init_mod is not None:
                eng.refresh_init(saved.bearer)
    tick = st.tick
    eng.rules.delay(c, tick, st.options)
    st.queue = [q for q in st.queue if q != c.id]
    c.turn_started = False
    c.pre_turn = None
    st.current = None
    eng.emit(
        "delay",
        cid=c.id,
        cur=c.cur,
        lost=eng.rules.tick_position(c) is None or eng.rules.tick_position(c) >= tick,
    )
    eng.after_turn()


@_transition
def place(eng: _Engine, cid: str, value: int) -> None:
    """``.init set``: re-place a combatant (PLACE)."""
    st = eng.st
    _require_phase(st, Phase.SETUP, Phase.ACTIVE)
    c = st.get(cid)
    if st.current == c.id:
        raise IllegalAction(f"{c.name} 正在回合中：先结束回合或使用 .延后")
    if not -999 <= value <= 999:
        raise InputSyntaxError("先攻值应在−999~999之间")
    value_with_mods = value
    how = eng.place(c, value_with_mods)
    eng.emit("placed", cid=c.id, value=value, placed=how)


@_transition
def remove(eng: _Engine, cid: str, *, force: bool = False) -> None:
    """REMOVE (GM); the current actor needs ``force`` (no cost step)."""
    st = eng.st
    _require_phase(st, Phase.SETUP, Phase.ACTIVE)
    c = st.get(cid)
    was_current = st.current == c.id
    if was_current and not force:
        raise IllegalAction(f"{c.name} 正在回合中：加 -force 强制移除")
    for e in [e for e in st.effects if e.bearer == c.id]:
        eng.drop_effect(e.id, "removed")
    for e in st.effects:
        if e.duration.anchor == c.id:
            e.duration.anchor = None
    st.combatants = [x for x in st.combatants if x.id != c.id]
    st.queue = [q for q in st.queue if q != c.id]
    st.round_order = [q for q in st.round_order if q != c.id]
    eng.emit("removed", cid=c.id, name=c.name)
    if was_current:
        st.current = None
        eng.after_turn()


@_transition
def surprise(eng: _Engine, cids: list[str], on: bool = True) -> None:
    """Mark combatants surprised (SETUP only): −20 at the start of round 1."""
    st = eng.st
    _require_phase(st, Phase.SETUP)
    for cid in cids:
        st.get(cid).surprised = on
    eng.emit("surprise", cids=cids, on=on)


def _tie_group(eng: _Engine, c: Combatant) -> list[Combatant]:
    key = eng.base_key(c)
    pos = eng.rules.tick_position(c)
    group = [x for x in eng.st.combatants if eng.base_key(x) == key and eng.rules.tick_position(x) == pos]
    return eng.sort_within_tick(group)


def _rerank(eng: _Engine, order: list[Combatant]) -> None:
    before = [c.id for c in eng.sort_within_tick(order)]
    for i, c in enumerate(order):
        c.manual_rank = len(order) - i
    after = [c.id for c in eng.sort_within_tick(order)]
    if before == after and [c.id for c in order] != after:
        raise IllegalAction("敌对双方同值时由规则决定顺序（GM扮演者优先），无法调整")


@_transition
def first(eng: _Engine, cid: str) -> None:
    """``.init first``: put a combatant first among those tied with her."""
    c = eng.st.get(cid)
    group = _tie_group(eng, c)
    if len(group) < 2:
        raise IllegalAction(f"{c.name} 没有与之先攻完全相同的参战者")
    order = [c] + [x for x in group if x.id != c.id]
    _rerank(eng, order)
    eng.emit("reordered", order=[x.id for x in eng.sort_within_tick(order)])


@_transition
def swap(eng: _Engine, a: str, b: str) -> None:
    """``.init swap``: exchange two tied combatants."""
    ca, cb = eng.st.get(a), eng.st.get(b)
    group = _tie_group(eng, ca)
    if cb not in group or ca.id == cb.id:
        raise IllegalAction(f"{ca.name} 和 {cb.name} 的先攻并不相同，无法交换")
    order = list(group)
    i, j = order.index(ca), order.index(cb)
    order[i], order[j] = order[j], order[i]
    _rerank(eng, order)
    eng.emit("reordered", order=[x.id for x in eng.sort_within_tick(order)])


@_transition
def edit(eng: _Engine, cid: str, **fields: Any) -> None:
    """``.init opt``: lv, side, controller, init_mod, ap_max, spd_base, speed, hidden, name."""
    st = eng.st
    c = st.get(cid)
    allowed = {
        "lv",
        "side",
        "controller",
        "init_mod",
        "ap_max",
        "spd_base",
        "speed",
        "hidden",
        "name",
        "note",
    }
    for key, val in fields.items():
        if key not in allowed:
            raise InputSyntaxError(f"不能修改「{key}」")
        if key == "name":
            val = str(val).strip()
            if not val or len(val) > MAX_NAME or any(x.name == val and x.id != c.id for x in st.combatants):
                raise IllegalAction(f"名称「{val}」不可用")
        if key == "ap_max" and not 1 <= int(val) <= 20:
            raise InputSyntaxError("AP上限应在1~20之间")
        setattr(c, key, val)
    if "ap_max" in fields:
        c.ap = min(c.ap, c.ap_max)
    eng.emit("edited", cid=c.id, fields=sorted(fields))


@_transition
def set_options(eng: _Engine, **changes: Any) -> None:
    """``.init meta``: combat switches."""
    st = eng.st
    data = st.options.model_dump()
    data.update(changes)
    opts = Options.model_validate(data)
    if opts.variant is not st.options.variant:
        raise IllegalAction("开战后不能更换规则变体")
    if opts.settle and opts.variant is Variant.SPD:
        raise IllegalAction("沉淀先攻只适用于基础规则（两颗骰没有中值10）")
    st.options = opts
    eng.emit("options", changes=sorted(changes))


@_transition
def add_gm(eng: _Engine, user_id: str) -> None:
    if user_id not in eng.st.gms:
        eng.st.gms.append(user_id)
    eng.emit("gm_added", user=user_id)


# --------------------------------------------------------------------------- effects
@_transition
def add_effect(
    eng: _Engine,
    bearer: str,
    name: str,
    duration: Duration | None = None,
    *,
    source: str | None = None,
    init_mod: InitMod | None = None,
    parent: int | None = None,
    concentration: bool = False,
    description: str = "",
    replace: bool = False,
) -> None:
    """Give ``bearer`` an effect (tick20.md §2.6)."""
    st = eng.st
    _require_phase(st, Phase.SETUP, Phase.ACTIVE)
    target = st.get(bearer)
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise InputSyntaxError(f"效果名应为1~{MAX_NAME}个字")
    if len(st.effects) >= MAX_EFFECTS:
        raise LimitExceeded(f"效果最多{MAX_EFFECTS}个")
    duration = duration or Duration()
    if duration.anchor is not None:
        st.get(duration.anchor)
        if duration.anchor == target.id:
            duration = duration.model_copy(update={"anchor": None})
    if source is not None:
        st.get(source)
    if parent is not None and st.effect(parent) is None:
        raise NotFound("父效果不存在")
    setup = not eng.active
    st.seq += 1
    effect = Effect(
        id=st.next_eid,
        name=name,
        bearer=target.id,
        source=source,
        description=description[:100],
        duration=duration,
        remaining=duration.amount if duration.kind in COUNTED else None,
        end_round=(0 if setup else st.round) + 1 if duration.kind is DurationKind.FOCUS else None,
        born_seq=st.seq,
        born_g=1 if setup else st.g + 1 if st.waiting else st.g,
        born_round=1 if setup else st.round,
        init_mod=init_mod,
        parent=parent,
        concentration=concentration,
    )
    for old in [e for e in st.effects if e.bearer == target.id and e.name == name]:
        if not replace and eng.remaining_ticks(old) >= eng.remaining_ticks(effect):
            eng.emit("not_stacked", effect=name, bearer=target.id, kept="old")
            return
        eng.drop_effect(old.id, "replaced")
        eng.emit("not_stacked", effect=name, bearer=target.id, kept="new")
    if concentration and source is not None:
        for old in [e for e in st.effects if e.concentration and e.source == source]:
            eng.drop_effect(old.id, "concentration")
    st.next_eid += 1
    st.effects.append(effect)
    eng.emit(
        "effect_add",
        eid=effect.id,
        effect=name,
        bearer=target.id,
        source=source,
        amount=duration.amount,
        dice=duration.dice,
        hidden=duration.hidden,
    )
    if init_mod is not None:
        eng.refresh_init(target.id)


@_transition
def remove_effect(eng: _Engine, bearer: str, name: str | None = None) -> None:
    """Remove one effect by name, or all effects of ``bearer``."""
    st = eng.st
    c = st.get(bearer)
    hits = [e for e in st.effects if e.bearer == c.id and (name is None or e.name == name)]
    if name is not None and not hits:
        hits = [e for e in st.effects if e.bearer == c.id and name in e.name]
        if len(hits) > 1:
            raise AmbiguousInput("可能是：" + "/".join(e.name for e in hits[:6]))
    if not hits:
        raise NotFound(f"{c.name} 身上没有效果「{name}」" if name else f"{c.name} 身上没有效果")
    for e in hits:
        eng.drop_effect(e.id, "removed")


@_transition
def focus(eng: _Engine, bearer: str, name: str) -> None:
    """【聚焦】: a 焦点 effect now lasts to the end of the next round."""
    st = eng.st
    _require_phase(st, Phase.ACTIVE)
    c = st.get(bearer)
    hits = [
        e for e in st.effects if e.bearer == c.id and e.name == name and e.duration.kind is DurationKind.FOCUS
    ]
    if not hits:
        raise NotFound(f"{c.name} 身上没有焦点效果「{name}」")
    for e in hits:
        e.end_round = st.round + 1
        eng.emit("focused", effect=e.name, bearer=c.id, end_round=e.end_round)


# --------------------------------------------------------------------------- AP (BASE)
def _require_ap(eng: _Engine) -> None:
    if not eng.rules.has_ap:
        raise IllegalAction("速度规则（004）没有AP")


def _check_cost(c: Combatant, cost: int) -> None:
    if cost <= 0:
        return
    if c.ap <= 0:
        raise IllegalAction(f"{c.name} 的AP为{c.ap}（≤0），不能使用消耗AP的动作")
    if c.ap - cost < -c.ap_max:
        raise IllegalAction(f"AP不足：{c.ap}−{cost} 会低于下限 −{c.ap_max}")


ACTION_KINDS = {"SA": "主要", "MA": "次要", "RA": "即时", "FA": "自由"}


@_transition
def spend_ap(eng: _Engine, cid: str, cost: int, kind: str = "SA", label: str = "") -> None:
    """Use an action that costs ``cost`` AP, with the 002 AP rules checked."""
    _require_ap(eng)
    st = eng.st
    _require_phase(st, Phase.ACTIVE)
    c = st.get(cid)
    if kind not in ACTION_KINDS:
        raise InputSyntaxError("动作类型：SA/MA/RA/FA（主要/次要/即时/自由）")
    if not 0 <= cost <= 99:
        raise InputSyntaxError("AP消耗应在0~99之间")
    own_turn = st.current == c.id and not st.waiting
    if kind in ("SA", "MA") and not own_turn:
        raise IllegalAction(f"{ACTION_KINDS[kind]}动作只能在自己的回合内使用")
    if kind == "SA" and cost < 1:
        raise InputSyntaxError("主要动作至少消耗1点AP")
    if kind == "MA" and c.ma_used:
        raise IllegalAction("本回合已经用过次要动作")
    if kind == "RA" and c.ra_used:
        raise IllegalAction("用过即时动作后，要到下个回合开始才能再用")
    _check_cost(c, cost)
    if c.ta is not None and kind in ("SA", "MA"):
        eng.emit("ta_broken", cid=c.id, ta=c.ta.name, paid=c.ta.paid, total=c.ta.total)
        c.ta = None
    c.ap -= cost
    if kind == "MA":
        c.ma_used = True
    if kind == "RA":
        c.ra_used = True
    if own_turn:
        c.busy = True
    eng.emit("ap_spend", cid=c.id, cost=cost, kind=kind, label=label[:20], ap=c.ap)


@_transition
def set_ap(eng: _Engine, cid: str, *, value: int | None = None, delta: int | None = None) -> None:
    """GM tool: set (``value``) or shift (``delta``) AP, kept within [−cap, cap]."""
    _require_ap(eng)
    c = eng.st.get(cid)
    new = value if value is not None else c.ap + (delta or 0)
    c.ap = max(-c.ap_max, min(c.ap_max, new))
    eng.emit("ap_set", cid=c.id, ap=c.ap)


def _pay(c: Combatant, amount: int) -> None:
    if amount < 1:
        raise InputSyntaxError("全力动作每回合至少支付1点AP")
    if c.ap <= 0:
        raise IllegalAction(f"{c.name} 的AP为{c.ap}（≤0），无法支付")
    if c.ap - amount < 0:
        raise IllegalAction(f"自选的支付量不能使AP低于0（现有{c.ap}）")


@_transition
def start_ta(eng: _Engine, cid: str, name: str, total: int, pay: int | None = None) -> None:
    """Begin a 全力动作 of ``total`` AP, paying ``pay`` now (default: all AP or the rest)."""
    _require_ap(eng)
    st = eng.st
    c = st.get(cid)
    if st.current != c.id:
        raise IllegalAction("全力动作只能在自己的回合内开始")
    if c.ta is not None:
        raise IllegalAction(f"{c.name} 已有进行中的全力动作「{c.ta.name}」")
    if not 1 <= total <= 99:
        raise InputSyntaxError("全力动作的总消耗应在1~99之间")
    pay = pay if pay is not None else min(max(c.ap, 0), total)
    _pay(c, pay)
    pay = min(pay, total)
    c.ap -= pay
    c.busy = True
    c.ta = TotalAction(name=name[:MAX_NAME] or "全力动作", total=total, paid=pay, paid_this_turn=pay)
    eng.emit("ta_start", cid=c.id, ta=c.ta.name, paid=pay, total=total, ap=c.ap)
    if c.ta.paid >= c.ta.total:
        eng.emit("ta_done", cid=c.id, ta=c.ta.name)
        c.ta = None


@_transition
def pay_ta(eng: _Engine, cid: str, amount: int | None = None) -> None:
    """Pay towards the running 全力动作 during an own turn."""
    _require_ap(eng)
    st = eng.st
    c = st.get(cid)
    if c.ta is None:
        raise IllegalAction(f"{c.name} 没有进行中的全力动作")
    if st.current != c.id:
        raise IllegalAction("全力动作只能在自己的回合内支付")
    rest = c.ta.total - c.ta.paid
    amount = amount if amount is not None else min(max(c.ap, 0), rest)
    _pay(c, amount)
    amount = min(amount, rest)
    c.ap -= amount
    c.busy = True
    c.ta.paid += amount
    c.ta.paid_this_turn += amount
    eng.emit("ta_pay", cid=c.id, ta=c.ta.name, paid=c.ta.paid, total=c.ta.total, ap=c.ap)
    if c.ta.paid >= c.ta.total:
        eng.emit("ta_done", cid=c.id, ta=c.ta.name)
        c.ta = None


# --------------------------------------------------------------------------- health
def _require_base(eng: _Engine, what: str) -> None:
    if eng.st.variant is not Variant.BASE:
        raise IllegalAction(f"{what}只用于基础规则（002）；速度规则用 .hp")


@_transition
def wound(
    eng: _Engine,
    cid: str,
    part: str,
    *,
    level: int | None = None,
    count: int = 1,
    hit: int | None = None,
    dp: int | None = None,
    dr: int = 0,
    direct: bool = False,
    tags: list[str] | None = None,
) -> None:
    """Inflict wounds: ``level``×``count`` directly, or a damage of Hit/DP against DR."""
    _require_base(eng, "伤势")
    c = eng.st.get(cid)
    if hit is not None:
        level, count = hp.wound_count(dp if dp is not None else 1, dr, hit, direct=direct)
    if level is None:
        raise InputSyntaxError("需要伤势等级或 Hit")
    hp.find_part(c.health, part)
    report = hp.apply_wounds(c.health, part, level, count, tags)
    if report.added or report.replaced or report.worsened:
        c.health.parts = list(c.health.parts)
    eng.emit(
        "wound",
        cid=c.id,
        part=report.part,
        level=level,
        added=report.added,
        replaced=report.replaced,
        worsened=report.worsened,
        status=report.status_after,
    )
    if report.dismembered:
        eng.emit("dismembered", cid=c.id, part=report.part)


@_transition
def heal_wound(eng: _Engine, cid: str, part: str, levels: int = 1, count: int = 1) -> None:
    _require_base(eng, "伤势")
    c = eng.st.get(cid)
    if not 1 <= levels <= 3 or not 1 <= count <= 4:
        raise InputSyntaxError("治疗：等级1~3，数量1~4")
    n = hp.heal_wounds(c.health, part, levels, count)
    eng.emit("healed", cid=c.id, part=part, count=n)


@_transition
def set_sp(
    eng: _Engine, cid: str, *, value: int | None = None, delta: int | None = None, maximum: int | None = None
) -> None:
    """SP (精力值): set, shift, or give a maximum; kept within [−max, max]."""
    _require_base(eng, "SP")
    c = eng.st.get(cid)
    h = c.health
    if maximum is not None:
        if not 2 <= maximum <= 99:
            raise InputSyntaxError("SP上限应在2~99之间")
        h.sp_max = maximum
        if h.sp is None:
            h.sp = maximum
    if h.sp_max is None:
        raise IllegalAction(f"{c.name} 还没有SP上限（.hp {c.name} sp上限 N）")
    new = value if value is not None else (h.sp or 0) + (delta or 0)
    h.sp = max(-h.sp_max, min(h.sp_max, new))
    eng.emit("sp", cid=c.id, sp=h.sp, sp_max=h.sp_max, dead=h.sp <= -h.sp_max)


@_transition
def set_gauges(
    eng: _Engine, cid: str, *, hg: int | None = None, mg: int | None = None, crisis: int | None = None
) -> None:
    """SPD: give a combatant ``hg`` Hit Gauges / ``mg`` Mind Gauges of 5 (die sizes)."""
    c = eng.st.get(cid)
    if hg is not None:
        c.health.hg = hp.make_gauges(hg)
    if mg is not None:
        c.health.mg = hp.make_gauges(mg)
        c.health.mp_debt = 0
    if crisis is not None:
        c.health.crisis = crisis
    eng.emit("gauges", cid=c.id, hg=len(c.health.hg), mg=len(c.health.mg))


@_transition
def hit_gauges(
    eng: _Engine, cid: str, amount: int, *, attacker: str | None = None, heal: bool = False
) -> None:
    """SPD damage (left to right) or healing (right to left); breaking an enemy gauge gives
    the attacker's side one 优势点, once per attacker per turn."""
    st = eng.st
    c = st.get(cid)
    if not c.health.hg:
        raise IllegalAction(f"{c.name} 没有生命量谱（.hp {c.name} hg 10 设置）")
    if not 0 <= amount <= 9999:
        raise InputSyntaxError("数值应在0~9999之间")
    if heal:
        restored = hp.heal_gauges(c.health.hg, amount)
        eng.emit("hg_heal", cid=c.id, amount=restored)
        return
    crisis_before = hp.in_crisis(c.health)
    broken = hp.damage_gauges(c.health.hg, amount)
    eng.emit("hg_damage", cid=c.id, amount=amount, broken=broken)
    if broken and attacker is not None:
        a = st.get(attacker)
        if a.side != c.side and a.adv_turn != st.turn_no:
            a.adv_turn = st.turn_no
            st.advantage[a.side] = st.advantage.get(a.side, 0) + 1
            eng.emit("advantage", side=a.side, cid=a.id, total=st.advantage[a.side])
    if hp.in_crisis(c.health) and not crisis_before:
        eng.emit("crisis", cid=c.id)


@_transition
def spend_mp(eng: _Engine, cid: str, amount: int) -> None:
    c = eng.st.get(cid)
    debt = hp.spend_mp(c.health, amount)
    eng.emit("mp_spend", cid=c.id, amount=amount, debt=debt)


# --------------------------------------------------------------------------- undo, end
def undo(state: Combat, n: int = 1) -> Outcome:
    """UNDO: restore the state from before the last ``n`` changes (effects, AP, HP included)."""
    if not 1 <= n <= UNDO_DEPTH:
        raise InputSyntaxError(f"一次最多撤销{UNDO_DEPTH}步")
    if len(state.undo) < n:
        raise IllegalAction(f"只能撤销{len(state.undo)}步" if state.undo else "没有可以撤销的操作")
    restored = Combat.model_validate_json(state.undo[-n])
    restored.undo = list(state.undo[:-n])
    event = Event(kind="undo", round=restored.round, tick=restored.tick, data={"steps": n})
    restored.log = [*state.log, event][-LOG_DEPTH:]
    return Outcome(restored, [event])


@_transition
def end(eng: _Engine) -> None:
    """END: the summary (rounds, turns per combatant, remaining effects); effects are discarded."""
    st = eng.st
    _require_phase(st, Phase.SETUP, Phase.ACTIVE)
    eng.emit(
        "end",
        rounds=st.round,
        turns={c.id: c.turns_total for c in st.combatants},
        names={c.id: c.name for c in st.combatants},
        effects=[(e.bearer, e.name) for e in st.effects],
    )
    st.phase = Phase.ENDED
    st.current = None
    st.queue = []
    st.effects = []


# --------------------------------------------------------------------------- read-only
def forecast(state: Combat, n: int = 4) -> list[tuple[int, int, str]]:
    """The next ``n`` turns after the current one, as (round, tick, combatant id), assuming
    every turn simply ends (tick20.md §4.3 "接下来")."""
    if state.phase is not Phase.ACTIVE or state.current is None or state.waiting:
        return []
    work = _copy(state)
    work.undo = []
    work.log = []
    eng = _Engine(work)
    out: list[tuple[int, int, str]] = []
    for _ in range(n):
        eng.end_turn("next")
        if work.current is None or work.waiting:
            break
        out.append((work.round, work.tick, work.current))
    return out


def g_of(round_no: int, tick: int) -> int:
    """The global tick serial: round 1 tick 20 is G = 1.

    >>> g_of(2, 17)
    24
    """
    return 20 * (round_no - 1) + (21 - tick)


__all__ = [
    "ACTION_KINDS",
    "MAX_COMBATANTS",
    "MAX_EFFECTS",
    "UNDO_DEPTH",
    "Outcome",
    "add_combatant",
    "add_effect",
    "add_gm",
    "delay",
    "edit",
    "end",
    "end_turn",
    "find",
    "first",
    "focus",
    "forecast",
    "g_of",
    "heal_wound",
    "hit_gauges",
    "new_combat",
    "pay_ta",
    "place",
    "remove",
    "remove_effect",
    "set_ap",
    "set_gauges",
    "set_options",
    "set_sp",
    "spend_ap",
    "spend_mp",
    "start",
    "start_ta",
    "surprise",
    "swap",
    "undo",
    "wound",
]
