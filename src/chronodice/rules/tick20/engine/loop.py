"""The tick loop: :class:`Engine` runs rounds, ticks and turns (round start, tick start with its
countdowns, picking the next actor, tick end, round end, settling, stalls) until a human must act
again; plus the :func:`transition` decorator every public transition is built with.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from chronodice.core.errors import IllegalAction

from .. import damage as dmg
from .. import health as hp
from ..model import Combat, Combatant, DurationKind, Effect, Phase, PreTurn
from ._base import LOG_DEPTH, STALL_ROUNDS, STEP_LIMIT, EngineBase, Outcome

F = TypeVar("F", bound=Callable[..., Any])


class Engine(EngineBase):
    """The working engine: :class:`EngineBase` plus the flow of a combat."""

    def take_dice(self, n: int = 2) -> tuple[int, ...] | None:
        """``n`` pre-rolled d20 faces, or None when the caller gave too few."""
        if len(self.dice) < n:
            return None
        got, self.dice = tuple(self.dice[:n]), self.dice[n:]
        return got

    def unconscious(self, c: Combatant) -> bool:
        """Whether ``c`` is <昏迷>: from a failed 濒死/力竭 check, or a <昏迷> effect on her (both
        give the 濒死检定 and the 力竭 check disadvantage, 002 "如果在<昏迷>中进行这一检定")."""
        return bool(c.health.coma) or any(
            e.bearer == c.id and e.name.strip("<>") == "昏迷" for e in self.st.effects
        )

    def fort_roll(self, c: Combatant, reason: str, part: str, target: int) -> None:
        """A 濒死检定 rolled by the bot (or its reminder when no dice were given); with
        disadvantage while she is <昏迷> (:meth:`unconscious`)."""
        h = c.health
        if h.dying_exempt:
            self.emit("dying_exempt", cid=c.id, part=part)
            return
        coma = self.unconscious(c)
        dice = self.take_dice()
        if dice is None:
            self.emit("dying_check", cid=c.id, part=part, target=target, disadvantage=coma)
            return
        roll, j = dmg.fort_check(h, dice, target, unconscious=coma)
        notes = dmg.dying_outcome(h, part, j.outcome)
        self.emit(
            "dying_roll",
            cid=c.id,
            part=part,
            target=target,
            dice=list(roll.dice),
            total=roll.total,
            outcome=j.outcome,
            notes=notes,
            reason=reason,
            edge=roll.edge,
        )
        if h.dissolved:
            self.emit("dissolved", cid=c.id)

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
            if c.health.dissolved or c.health.dead:
                continue
            unconscious = self.unconscious(c)
            for check in hp.dying_checks(c.health, unconscious):
                if check.dismembered:
                    c.health.dissolved = True
                    self.emit("dismembered", cid=c.id, part=check.part)
                else:
                    self.fort_roll(c, "濒死", check.part, check.target)
            for part, wound in hp.tagged_wounds(c.health, "侵蚀"):
                if dmg.part_gone(hp.find_part(c.health, part)):
                    continue
                tags = [t for t in wound.tags if t not in ("侵蚀", "僵化")]
                hp.apply_wounds(c.health, part, 1, 1, tags)
                c.health.dying_exempt = False  # a new wound
                self.emit("erosion", cid=c.id, part=part)
            if not c.health.dissolved and dmg.check_dissolution(c.health):
                self.emit("dissolved", cid=c.id)
            stiff = len(hp.tagged_wounds(c.health, "僵化"))
            if stiff:
                before = c.ap
                c.ap = max(c.ap - stiff, -c.ap_max)
                self.emit("stiffen", cid=c.id, lost=before - c.ap, ap=c.ap)

    def tick_start(self) -> None:
        st = self.st
        st.g += 1
        st.seq += 1
        self.count_down(lambda e: e.duration.kind is DurationKind.TICKS and e.born_g < st.g)
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
        self.count_down(lambda e: e.duration.kind is DurationKind.ROUNDS and e.born_round < st.round)

    def count_down(self, counts: Callable[[Effect], bool]) -> None:
        """Take one off every effect that ``counts``; those reaching 0 expire."""
        ending = []
        for e in self.st.effects:
            if counts(e):
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
        self.count_down(
            lambda e: (
                e.duration.kind is DurationKind.TURNS
                and e.duration.boundary == "start"
                and self.anchor_of(e) == c.id
                and e.born_seq < now
            )
        )
        c.ma_used = False
        c.ra_used = False
        c.mov = 0 if self.bound(c) else c.speed  # 002 移动: 「无法移动」 makes her 速度 0
        c.busy = False
        c.turn_started = True
        if c.ta is not None:
            c.ta.paid_this_turn = 0

    def bound(self, c: Combatant) -> bool:
        """Under an effect that makes her 「无法移动」 (its name says so): 002 移动 — "她的「速度」将
        变为0，并且使用的任何`移动`动作都会被无效"."""
        return any(e.bearer == c.id and "无法移动" in e.name for e in self.st.effects)

    def grant(self, c: Combatant) -> None:
        if self.rules.has_ap:
            c.ap = min(c.ap + c.ap_max, c.ap_max)
        else:
            c.actions_left = self.st.options.actions_per_turn

    def pick_next(self) -> bool:
        """Start the next turn of this tick (False: nobody is left to act in it).

        A <昏迷> combatant (:meth:`unconscious`) has her turn skipped on the spot, with one
        ``coma_skip`` event.  002 gives <昏迷> no rule text of its own; what it names it for (the
        濒死检定 and 力竭 check made "在<昏迷>中", 属性 at 0) is a combatant who cannot act, and a GM
        at the table passes her turn: she still starts and ends it as ``.init skip`` would (her
        AP, her turn-counted effects, her initiative −20), but it counts as no turn taken, so a
        table where everyone is <昏迷> stalls as an empty round does instead of running on."""
        st = self.st
        while True:
            live = [st.maybe(cid) for cid in st.queue]
            ordered = self.sort_within_tick(c for c in live if c is not None and not self.out(c))
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
            if not self.unconscious(c):
                self.emit("turn", cid=c.id, ap=c.ap, ap_max=c.ap_max, cur=c.cur, main=c.main)
                return True
            self.emit("coma_skip", cid=c.id)
            self.close_turn(c, "coma")
            self.requeue()

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
        # a round whose every turn was a <昏迷> skip: wait for the GM at once (the next round's
        # 濒死检定 want their dice, and nothing else will happen until someone wakes)
        coma = st.round_turns == 0 and any(e.kind == "coma_skip" and e.round == st.round for e in self.events)
        self.emit("round_end", turns=st.round_turns)
        st.round += 1
        st.tick = 20
        if st.empty_rounds >= STALL_ROUNDS or coma:
            st.waiting = True
            self.emit("stalled", rounds=st.empty_rounds, coma=coma)
            return False
        return True

    # ------------------------------------------------------------------ turn ends
    def end_turn(self, kind: str) -> None:
        self.close_turn(self.c(self.st.current or ""), kind)
        self.after_turn()

    def close_turn(self, c: Combatant, kind: str) -> None:
        """End ``c``'s turn (``kind``: next, skip, or coma — a <昏迷> skip, which counts as no
        turn taken: see :meth:`pick_next`)."""
        st = self.st
        cost = self.rules.end_turn(c)
        st.seq += 1
        st.acted.append((c.id, st.seq))
        c.turns_this_round += 1
        if kind != "coma":
            c.turns_total += 1
            st.round_turns += 1
        st.queue = [q for q in st.queue if q != c.id]
        c.turn_started = False
        c.pre_turn = None
        st.current = None
        self.emit("turn_end", cid=c.id, cost=cost, cur=c.cur, skipped=kind != "next")
        if c.ta is not None and c.ta.paid_this_turn == 0:
            self.emit("ta_broken", cid=c.id, ta=c.ta.name, paid=c.ta.paid, total=c.ta.total)
            c.ta = None

    def requeue(self) -> None:
        """Queue everyone who may act at this tick and is not queued yet."""
        st = self.st
        for c in st.combatants:
            if c.id not in st.queue and self.eligible(c, st.tick):
                st.queue.append(c.id)

    def after_turn(self) -> None:
        self.requeue()
        if not self.pick_next():
            self.run("tick_end")


# --------------------------------------------------------------------------- transitions
def copy_state(state: Combat) -> Combat:
    """A working copy; ``log`` is a list of immutable items, copied shallowly."""
    work = Combat.model_validate_json(state.model_dump_json(exclude={"log"}))
    work.log = list(state.log)
    return work


def transition(fn: F) -> F:
    """Run ``fn(engine, ...)`` on a copy (on the combat itself once it was given away, see
    :meth:`~chronodice.rules.tick20.model.Combat.give_away`); log the events.

    ``dice=[…]``: d20 faces rolled by the caller before the transaction (the store may run a
    transition twice); checks the engine makes on its own (濒死检定, the 力竭 check) take them
    in order, and fall back to a reminder when none are left."""

    @functools.wraps(fn)
    def wrapper(state: Combat, *args: Any, dice: list[int] | None = None, **kwargs: Any) -> Outcome:
        work = state if state.in_place else copy_state(state)
        eng = Engine(work)
        eng.dice = list(dice or [])
        fn(eng, *args, **kwargs)
        work.log = [*work.log, *eng.events][-LOG_DEPTH:]
        return Outcome(work, eng.events)

    return wrapper  # type: ignore[return-value]


def require_phase(st: Combat, *phases: Phase) -> None:
    if st.phase in phases:
        return
    if st.phase is Phase.ENDED:
        raise IllegalAction("战斗已经结束")
    if Phase.SETUP in phases:
        raise IllegalAction("战斗已经开始，这只能在开战前进行")
    raise IllegalAction("战斗还没有开始（.init start 开战）")


def require_current(st: Combat) -> Combatant:
    require_phase(st, Phase.ACTIVE)
    if st.waiting or st.current is None:
        raise IllegalAction("现在没有人在进行回合（.init next 继续）")
    return st.get(st.current)
