"""The working copy every transition mutates: limits, :class:`Outcome`, and :class:`EngineBase`
(event emission, the order within a tick, effect bookkeeping, placement).

:class:`.loop.Engine` adds the tick loop on top.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from ..model import Combat, Combatant, DurationKind, Effect, Event, Phase, Variant
from ..modifiers import Modifier, stack
from ..variants import rules_for

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


class EngineBase:
    """Mutates one working copy and collects events."""

    def __init__(self, st: Combat) -> None:
        self.st = st
        self.rules = rules_for(st.variant)
        self.events: list[Event] = []
        self.dice: list[int] = []
        """Pre-rolled d20 faces for the checks the engine makes itself (see loop.transition)."""

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

    @staticmethod
    def out(c: Combatant) -> bool:
        """<解体>, dead, or marked defeated by the GM: she takes no more turns (002 伤势恶化, 精力)."""
        return c.health.dissolved or c.health.dead or c.defeated

    def eligible(self, c: Combatant, tick: int) -> bool:
        return not c.pending and not self.out(c) and self.rules.tick_position(c) == tick

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
