"""The rule book's battle clock: the battle is at the earliest moment at which some living
participant has no declared action; what resolves by then is settled, the rest is open."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronodice.core.errors import IllegalAction
from chronodice.rules.timeline import battle as b
from chronodice.rules.timeline.rounding import r2

P = [
    b.ParticipantRef(i, n, str(10000 + i), npc=i > 3)
    for i, n in enumerate(("甲", "乙", "丙", "Goblin", "狼"), 1)
]
WINDUPS = {
    P[0].key: [4.36, 5.0],
    P[1].key: [9.58, 2.0],
    P[2].key: [7.71, 3.3],
    P[3].key: [12.0, 1.0],
    P[4].key: [3.0, 8.0],
}


def act(
    state: b.BattleState, who: b.ParticipantRef, t: float, impact: float = 10.0, **kw: object
) -> b.BattleState:
    state, _, _ = b.record_action(state, who, windup=t, impact=impact, attribute="strength", **kw)  # type: ignore[arg-type]
    return state


def start(state: b.BattleState) -> b.BattleState:
    """The GM's ``.bat 开始`` with whoever has declared: the opening's end (issue 25 — before,
    anybody's second declaration ended it, and these tests relied on that)."""
    return b.open_battle(state, [])[0]


def shape(state: b.BattleState) -> dict[str, list[tuple[float, float, float | None]]]:
    """The timeline without the action numbers (those follow typing order)."""
    return {
        p.key: [(a.start, a.end, a.cancelled_at) for a in state.actions_of(p.key)] for p in state.participants
    }


def test_five_participants_every_typing_order_gives_the_same_timeline() -> None:
    """First actions typed in all 120 orders, then the second actions in all 120 orders."""
    results = set()
    for first in itertools.permutations(P):
        s = b.new_battle()
        for ref in first:
            s = act(s, ref, WINDUPS[ref.key][0])
        assert s.clock == 0.0 and not s.started  # the opening: nothing has happened yet
        results.add((json.dumps(shape(s), sort_keys=True), s.clock))
    assert len(results) == 1
    finals = set()
    base = b.new_battle()
    for ref in P:
        base = act(base, ref, WINDUPS[ref.key][0])
    base = start(base)
    for second in itertools.permutations(P):
        s = base
        for ref in second:
            s = act(s, ref, WINDUPS[ref.key][1])
        finals.add((json.dumps(shape(s), sort_keys=True), s.clock))
    assert len(finals) == 1
    (timeline, clock), *_ = finals
    # chains: 甲 0 → 4.36 → 9.36, 乙 0 → 9.58 → 11.58, 丙 0 → 7.71 → 11.01, Goblin 0 → 12 → 13, 狼 0 → 3 → 11
    assert clock == 9.36
    assert json.loads(timeline)[P[0].key] == [[0.0, 4.36, None], [4.36, 9.36, None]]


def test_now_moves_to_the_earliest_undecided_moment() -> None:
    s = act(act(b.new_battle(), P[0], 4.36), P[1], 9.58)
    s = act(start(s), P[0], 5.0)  # the GM started the battle; 甲's second
    assert s.started and s.clock == 9.36 and b.next_up(s) == (9.36, [s.participant(P[0].key)])
    assert s.settled(s.actions[0]) and s.settled(s.actions[2]) and not s.settled(s.actions[1])
    # issue 11: 乙's action 0 → 9.58 was "already resolved" when 甲 typed ahead; now it is open
    s, c, _ = b.cancel_action(s, P[1].key)
    assert c.cancelled_at == 9.36


def test_cancel_any_open_own_action_and_the_gm_cancels_anybodys() -> None:
    s2 = act(start(act(act(b.new_battle(), P[0], 2), P[1], 20)), P[0], 2)
    s2 = act(act(s2, P[0], 10), P[0], 3)
    s2 = act(s2, P[1], 30)  # 乙 20 → 50; clock = 甲's 17
    assert s2.clock == 17.0
    with pytest.raises(IllegalAction, match="行动#4已在14t结算"):
        b.cancel_action(s2, P[0].key, 4)
    s2 = act(s2, P[0], 10)  # #7 甲 17 → 27
    s2 = act(s2, P[0], 5)  # #8 甲 27 → 32; clock 32 (乙 is busy until 50)
    s2 = act(s2, P[2], 40)  # 丙 joins at 32 → 72
    assert s2.clock == 32.0
    s2 = act(s2, P[0], 4)  # #10 甲 32 → 36
    s2 = act(s2, P[0], 6)  # #11 甲 36 → 42
    assert s2.clock == 42.0
    with pytest.raises(IllegalAction, match="不是你的行动"):
        b.cancel_action(s2, P[0].key, 6)
    _, c, events = b.cancel_action(s2, P[1].key, 6)  # not the latest-typed: 乙's only open one
    assert c.cancelled_at == 42.0 and events[0].ref == 6
    # an older own action of 甲 is settled; the GM cancels 丙's (anybody's)
    s4, c, _ = b.cancel_action(s2, None, 9)
    assert c.cancelled_at == 42.0 and s4.free_at(P[2].key) == 42.0


def test_cancel_of_an_older_queued_action_rechains() -> None:
    s = act(act(b.new_battle(), P[0], 2), P[1], 3)
    s = act(start(s), P[1], 1)  # 乙 3 → 4; clock 2
    s = act(s, P[0], 10)  # #4 甲 2 → 12
    s = act(s, P[0], 5)  # #5 甲 12 → 17
    s = act(s, P[0], 1)  # #6 甲 17 → 18; clock = 乙's 4
    assert s.clock == 4.0
    s, c, _ = b.cancel_action(s, P[0].key, 5)  # queued, not started: void; #6 moves up
    assert (c.cancelled_at, c.start) == (12.0, 12.0)
    assert s.action(6).start == 12.0 and s.action(6).end == 13.0
    s, c, _ = b.cancel_action(s, P[0].key, 4)  # in its windup: stops at 4; #5 (void) and #6 move up
    assert c.cancelled_at == 4.0
    assert (s.action(5).start, s.action(5).cancelled_at) == (4.0, 4.0)
    assert (s.action(6).start, s.action(6).end) == (4.0, 5.0)
    assert s.clock == 4.0 and s.free_at(P[0].key) == 5.0


def test_late_joiner_enters_at_the_clock_not_the_latest_declared_moment() -> None:
    s = act(act(b.new_battle(), P[0], 5), P[1], 8)
    s = act(act(act(start(s), P[0], 20), P[0], 20), P[0], 20)  # 甲 typed far ahead: 5 → 65
    assert s.clock == 8.0
    s, action, events = b.record_action(s, P[3], windup=2, impact=5)
    assert action.start == 8.0 and events[0].time == 8.0  # not 45 (the latest start)


def test_a_hit_is_recorded_when_the_hitting_action_resolved_and_death_cuts_there() -> None:
    s = act(act(b.new_battle(), P[0], 4.36, 200), P[1], 9.58)
    s = act(act(start(s), P[0], 6.89), P[0], 2)  # 甲 4.36 → 11.25 → 13.25; clock 9.58
    s = act(s, P[1], 3)  # 乙 9.58 → 12.58; clock 12.58
    s = act(s, P[2], 10)  # 丙 joins at 12.58 → 22.58
    assert s.clock == 12.58 and s.action(6).start == 12.58
    s, events = b.resource_event(s, P[1].key, "hp", -200, 0.0, 150.0, hit=1)  # recorded at 4.36t
    assert [e.time for e in events] == [4.36, 4.36] and events[1].kind == "death"
    assert s.action(2).cancelled_at == 4.36  # 乙's 0 → 9.58 never resolved
    assert s.action(5).cancelled_at == s.action(5).start  # and the next one is void
    assert s.clock == 13.25  # 乙 no longer holds the clock
    with pytest.raises(IllegalAction, match="尚未发生"):
        b.resource_event(s, P[0].key, "hp", -1, 1.0, 2.0, hit=6)  # 丙's #6 resolves at 22.58


def test_advance_then_now_and_next_agree() -> None:
    s = act(act(b.new_battle(), P[0], 7.71), P[1], 50)
    s, done = b.advance(s, 40)
    assert s.clock == 40.0 and [a.id for a in done] == [1]
    assert b.next_up(s) == (40.0, [s.participant(P[0].key)])  # 甲 waited from 7.71 to 40
    s = act(s, P[0], 5)
    assert s.actions[-1].start == 40.0 and s.clock == 45.0
    with pytest.raises(IllegalAction, match="只能向前推进"):
        b.advance(s, 44)
    s, done = b.advance(s, 60)
    assert [a.id for a in done] == [2] and s.clock == 60.0  # #3 resolved at 45


def test_old_schema_state_loads_on_the_new_clock() -> None:
    fixture = Path(__file__).parents[2] / "store" / "fixtures" / "main_b61d402.expected.json"
    raw = json.loads(fixture.read_text())[0]["state"]
    assert raw["schema_version"] == 1 and raw["clock"] == 75.32  # the latest start anybody declared
    s = b.BattleState.from_dict(raw)
    assert s.started and s.schema_version == 2
    free = {p.key: s.free_at(p.key) for p in s.living()}
    assert s.clock == min(free.values()) == b.next_up(s)[0]
    assert b.BattleState.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    v1 = {"clock": 3.0, "participants": [], "actions": [], "events": [], "schema_version": 1}
    assert b.BattleState.from_dict(v1).clock == 0.0


def test_rechain_never_breaks_a_chain() -> None:
    s = act(start(act(act(b.new_battle(), P[0], 1), P[1], 1)), P[1], 1)  # 乙 decides again at 2
    for t in (1, 2, 3, 4):
        s = act(s, P[0], t)  # #4 1 → 2, #5 2 → 4, #6 4 → 7, #7 7 → 11
    assert s.clock == 2.0
    for aid in (6, 5):
        s = b.cancel_action(s, P[0].key, aid)[0]
    own = s.actions_of(P[0].key)
    for prev, nxt in itertools.pairwise(own):
        assert nxt.start == r2(prev.effective_end)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(1, 40).map(lambda x: x / 4), min_size=1, max_size=4), min_size=5, max_size=5
    ),
    st.randoms(use_true_random=False),
)
def test_any_interleaving_after_the_first_declarations_gives_the_same_timeline(
    chains: list[list[float]], rnd: random.Random
) -> None:
    """Every participant's own order kept, the first actions before anybody's second (the
    opening), the rest typed in any order: the same timeline and the same clock."""

    def play(order: list[int]) -> tuple[str, float]:
        s = b.new_battle()
        seen = [0] * 5
        for n, who in enumerate(order):
            if n == len(chains):  # everybody declared: the GM starts the battle
                s = start(s)
            s = act(s, P[who], chains[who][seen[who]])
            seen[who] += 1
        return json.dumps(shape(s), sort_keys=True), s.clock

    firsts = list(range(5))
    rest = [who for who, chain in enumerate(chains) for _ in chain[1:]]
    reference = play(firsts + rest)
    for _ in range(3):
        rnd.shuffle(firsts)
        rnd.shuffle(rest)
        assert play(firsts + rest) == reference


def _newly_settled_by_definition(before: b.BattleState, after: b.BattleState) -> list[b.Action]:
    was = {a.id for a in before.actions if before.settled(a)}
    done = [a for a in after.actions if a.id not in was and after.settled(a)]
    return sorted(done, key=lambda a: (a.end, a.id))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(("act", "act", "act", "cancel", "advance", "start")),
            st.integers(0, 4),
            st.integers(1, 40),
        ),
        max_size=25,
    )
)
def test_newly_settled_is_the_definition(ops: list[tuple[str, int, int]]) -> None:
    """``newly_settled`` judges unchanged actions in place (it runs after every ``.bat``); what it
    returns is still: settled after the transition and not before, under the same id."""
    state = b.new_battle()
    for op, who, n in ops:
        before = state
        try:
            if op == "act":
                state = act(state, P[who], n / 4)
            elif op == "cancel" and state.actions:
                state, _, _ = b.cancel_action(state, None, state.actions[n % len(state.actions)].id)
            elif op == "advance":
                state, _ = b.advance(state, state.clock + n / 4)
            elif op == "start":
                state = start(state)
        except IllegalAction:
            continue
        assert b.newly_settled(before, state) == _newly_settled_by_definition(before, state)
        assert b.newly_settled(state, state) == []


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(("act", "act", "cancel", "undo")), st.integers(0, 4), st.integers(1, 40)),
        max_size=30,
    )
)
def test_each_participants_actions_are_indexed_right_when_extended(ops: list[tuple[str, int, int]]) -> None:
    """The per-participant index of a state's actions is extended from the last few states'
    (a ``.bat`` appends to the tuple the command before left); cancelling rewrites actions, and
    ``.undo`` goes back to an older tuple: each state's index is still its own actions, in order."""
    state = b.new_battle()
    history = [state]
    for op, who, n in ops:
        try:
            if op == "act":
                state = act(state, P[who], n / 4)
            elif op == "cancel" and state.actions:
                state, _, _ = b.cancel_action(state, None, state.actions[n % len(state.actions)].id)
            elif op == "undo":
                state = history[n % len(history)]
                state = b.BattleState(
                    **{f: getattr(state, f) for f in state.__dataclass_fields__}
                )  # a new object
        except IllegalAction:
            continue
        history.append(state)
        for p in P:
            assert state.actions_of(p.key) == [a for a in state.actions if a.key == p.key]
