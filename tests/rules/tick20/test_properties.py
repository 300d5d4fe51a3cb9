"""Property tests of the tracker over random command sequences (issue 6).

* the engine never loops (every command returns; the engine's own step limit would raise);
* it never loses a combatant (only ``remove`` takes one out);
* every round gives each combatant the number of turns her initiative entitles her to, counted
  by an independent model of the arithmetic (delays included);
* the state survives a JSON round trip and keeps its structural invariants.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronodice.core.errors import ChronoDiceError
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.durations import parse_duration
from chronodice.rules.tick20.model import Combat, Event, InitMod, Phase, Variant
from chronodice.rules.tick20.variants import BaseRules, SpdRules


# --------------------------------------------------------------------------- the model
def entitled_base(cur: int, main: int) -> int:
    """Turns left this round for a BASE combatant at value ``cur``: C, C−K, … while ≥ 1."""
    if cur < 1:
        return 0
    return (min(cur, 20) - 1) // BaseRules.turn_cost(main) + 1


def entitled_spd(value: int, spd_base: int) -> int:
    """Turns left this round for an SPD combatant at I = ``value``."""
    n = 0
    while value >= 1:
        n += 1
        value -= 20 - SpdRules.spd(value, spd_base)
    return n


class TurnModel:
    """Counts expected and actual turns per round from the engine's events."""

    def __init__(self, state: Combat) -> None:
        self.variant = state.variant
        self.main = {c.id: c.main for c in state.combatants}
        self.spd = {c.id: c.spd_base for c in state.combatants}
        self.expected: dict[str, int] = {}
        self.done: dict[str, int] = {}
        self.rounds_checked = 0

    def count(self, cid: str, value: int) -> int:
        if self.variant is Variant.BASE:
            return entitled_base(value, self.main[cid])
        return entitled_spd(value, self.spd[cid])

    def feed(self, events: list[Event]) -> None:
        for ev in events:
            if ev.kind == "round_start":
                self.expected = {cid: self.count(cid, v) for cid, v in ev.data["values"].items()}
                self.done = dict.fromkeys(self.expected, 0)
            elif ev.kind == "turn_end":
                self.done[ev.data["cid"]] += 1
            elif ev.kind == "delay":
                cid = ev.data["cid"]
                self.expected[cid] = self.done[cid] + self.count(cid, ev.data["cur"])
            elif ev.kind == "round_end":
                assert self.done == self.expected, (ev.round, self.done, self.expected)
                self.rounds_checked += 1


def check_invariants(state: Combat, ids: set[str]) -> None:
    assert {c.id for c in state.combatants} == ids
    assert Combat.from_dict(state.to_dict()).model_dump_json() == state.model_dump_json()
    assert 1 <= state.tick <= 20
    if state.phase is Phase.ACTIVE and not state.waiting:
        assert state.current is not None and state.current in ids
        assert state.current in state.queue
    assert set(state.queue) <= ids


# --------------------------------------------------------------------------- entitlement
values = st.lists(st.integers(min_value=-30, max_value=45), min_size=1, max_size=6)
ops = st.lists(st.sampled_from(["next", "next", "next", "delay", "skip"]), min_size=10, max_size=80)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from([Variant.BASE, Variant.SPD]), vals=values, script=ops, spd=st.integers(0, 6))
def test_turns_per_round_match_initiative(
    variant: Variant, vals: list[int], script: list[str], spd: int
) -> None:
    state = E.new_combat("gm", variant=variant)
    for i, v in enumerate(vals):
        state, _ = E.add_combatant(state, f"N{i}", value=v, spd_base=spd if variant is Variant.SPD else 0)
    model = TurnModel(state)
    state, events = E.start(state)
    model.feed(events)
    ids = {c.id for c in state.combatants}
    for op in script:
        try:
            if op == "delay":
                state, events = E.delay(state)
            else:
                state, events = E.end_turn(state, skip=op == "skip")
        except ChronoDiceError:
            continue
        model.feed(events)
        check_invariants(state, ids)


SEQUENCES = int(os.environ.get("TICK20_SOAK", "1000"))
"""Random sequences in the seeded test; ``TICK20_SOAK=10000`` for a long soak run."""


def test_turns_per_round_many_seeded_sequences() -> None:
    """A thousand plain random sequences (more with TICK20_SOAK), beyond Hypothesis' examples."""
    rounds = 0
    for seed in range(SEQUENCES):
        rng = random.Random(seed)
        variant = rng.choice([Variant.BASE, Variant.SPD])
        state = E.new_combat("gm", variant=variant)
        for i in range(rng.randint(1, 5)):
            state, _ = E.add_combatant(state, f"N{i}", value=rng.randint(-25, 60), spd_base=rng.randint(0, 8))
        model = TurnModel(state)
        state, events = E.start(state)
        model.feed(events)
        for _ in range(rng.randint(5, 25)):
            try:
                if rng.random() < 0.15:
                    state, events = E.delay(state)
                else:
                    state, events = E.end_turn(state)
            except ChronoDiceError:
                continue
            model.feed(events)
        rounds += model.rounds_checked
    assert rounds > SEQUENCES


# --------------------------------------------------------------------------- chaos
def chaos_step(state: Combat, rng: random.Random, n_joined: int) -> tuple[E.Outcome, str]:
    ids = [c.id for c in state.combatants]
    op = rng.choice(
        ["next", "next", "next", "delay", "skip", "eff", "mod", "join", "rm", "set", "ap", "swap"]
    )
    who = rng.choice(ids) if ids else "nobody"
    if op == "next":
        return E.end_turn(state), op
    if op == "skip":
        return E.end_turn(state, skip=True), op
    if op == "delay":
        return E.delay(state), op
    if op == "eff":
        dur = parse_duration(
            rng.choice(["1刻", "3刻", "1轮", "2回合", "1回合开始", "本刻", "本轮", "焦点", ""])
        )
        return E.add_effect(
            state, who, rng.choice(["甲", "乙", "丙"]), dur, source=rng.choice([*ids, None])
        ), op
    if op == "mod":
        mod = InitMod(value=rng.randint(-8, 8), type=rng.choice(["通用", "状态", "环境"]))
        dur = parse_duration(rng.choice(["2刻", "1轮", "1回合", ""]))
        return E.add_effect(state, who, rng.choice(["快", "慢"]), dur, init_mod=mod), op
    if op == "join":
        return E.add_combatant(state, f"J{n_joined}", value=rng.randint(-10, 45)), op
    if op == "rm":
        return E.remove(state, who, force=rng.random() < 0.5), op
    if op == "set":
        return E.place(state, who, rng.randint(-5, 40)), op
    if op == "ap":
        return E.spend_ap(state, who, rng.randint(0, 4), rng.choice(["SA", "MA", "RA"])), op
    other = rng.choice(ids) if ids else "nobody"
    return E.swap(state, who, other), op


@pytest.mark.parametrize("variant", [Variant.BASE, Variant.SPD])
def test_chaos_sequences_keep_invariants(variant: Variant) -> None:
    for seed in range(30):
        rng = random.Random(seed * 7 + (variant is Variant.SPD))
        state = E.new_combat("gm", variant=variant)
        for i in range(rng.randint(1, 5)):
            state, _ = E.add_combatant(state, f"N{i}", value=rng.randint(-20, 50))
        state, _ = E.start(state)
        ids = {c.id for c in state.combatants}
        joined = 0
        for _ in range(50):
            before = state.model_dump_json()
            try:
                (state, _events), op = chaos_step(state, rng, joined)
            except (ChronoDiceError, KeyError):
                assert state.model_dump_json() == before
                continue
            if op == "join":
                joined += 1
            previous, ids = ids, {c.id for c in state.combatants}
            if op != "rm":
                assert ids >= previous, "a combatant vanished"
            check_invariants(state, ids)
