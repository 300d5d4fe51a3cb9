"""The battle timeline state machine: every action kept, clock, joins, cancel, 先攻, death."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chronodice.core.errors import IllegalAction, LimitExceeded, NotFound
from chronodice.rules.timeline import battle as b
from chronodice.rules.timeline import battle_actions as ba
from chronodice.rules.timeline import interactions as ix
from chronodice.rules.timeline.character import Weapon
from chronodice.rules.timeline.rounding import fmt

JIA = b.ParticipantRef(1, "甲", "10001")
YI = b.ParticipantRef(2, "乙", "10002")
BING = b.ParticipantRef(3, "丙", "10003")
NPC = b.ParticipantRef(9, "哥布林", "99999", npc=True)
REVOLVER = Weapon(
    name="左轮", type="artillery", damage=3, cast=0.5, load=6, current_load=6, reload_time=4, uid=7
)
SCALPEL = Weapon(name="手术刀", type="amplifier", attribute="dexterity", damage=10, uid=3)


def act(
    state: b.BattleState, who: b.ParticipantRef, t: float, impact: float = 10.0, target: str | None = None
) -> b.BattleState:
    state, _, _ = b.record_action(state, who, windup=t, impact=impact, attribute="strength", target=target)
    return state


def start(state: b.BattleState) -> b.BattleState:
    """The GM's ``.bat 开始``: the opening ends with whoever has declared (issue 25 — before, a
    second declaration ended it, and these tests relied on that)."""
    return b.open_battle(state, [])[0]


def roundtrip(state: b.BattleState) -> b.BattleState:
    return b.BattleState.from_dict(json.loads(json.dumps(state.to_dict())))


def test_worked_session_section_4_13() -> None:
    """`.bat 力量 150 重拳` then `.bat 敏捷 5t` for 甲 (A = 175 for both)."""
    s = b.new_battle()
    s, first, events = ba.attribute_action(s, JIA, "strength", 175.0, impact=150, note="重拳")
    assert [e.kind for e in events] == ["join"]
    assert (fmt(first.end), fmt(first.windup), fmt(first.impact)) == ("17.14", "17.14", "150.0")
    assert (fmt(s.free_at(JIA.key)), fmt(s.total_impact(JIA.key))) == ("17.14", "150.0")
    s, second, _ = ba.attribute_action(s, JIA, "dexterity", 175.0, time=5)
    assert (fmt(second.windup), fmt(second.impact)) == ("5.0", "43.8")
    assert (fmt(s.free_at(JIA.key)), fmt(s.total_impact(JIA.key))) == ("22.14", "193.8")
    assert len(s.actions) == 2  # MayuriBot kept only the latest row


def test_rule_book_combat_table() -> None:
    """韩左 acts at 3 (当前时间) then 力量 50/4t → t 7; 飓风 40/3t → t 3; 夜莺 50/5t → t 5; 飓风 150 → 110."""
    hz, jf, ny = (b.ParticipantRef(i, n, str(i)) for i, n in ((1, "韩左"), (2, "飓风"), (3, "夜莺")))
    s = b.new_battle()
    s = act(s, hz, 3, 30)
    s = act(s, jf, 3, 40)
    s = act(s, ny, 5, 50)
    s = act(start(s), hz, 4, 50)
    assert [a.end for a in s.actions] == [3.0, 3.0, 5.0, 7.0]
    assert s.clock == 3.0
    s, events = b.resource_event(s, jf.key, "hp", -40, 110.0, 150.0)
    assert events[0].time == 3.0 and events[0].after == 110.0
    assert [p.name for p in b.next_up(s)[1]] == ["飓风"] and b.next_up(s)[0] == 3.0


def test_rule_book_a_12t_b_20t() -> None:
    s = act(act(b.new_battle(), YI, 12, 250), BING, 20, 310)
    assert b.next_up(s) == (12.0, [s.participant(YI.key)])
    s = act(start(s), YI, 6)  # 乙 decided again at 12: nobody needs to decide before 18
    assert s.clock == 18.0
    assert [a.end for a in b.pending(s)] == [20.0]
    assert s.settled(s.actions[0]) and s.settled(s.actions[2]) and not s.settled(s.actions[1])


def test_late_joiner_starts_at_the_battle_clock() -> None:
    s = act(act(b.new_battle(), JIA, 10), YI, 15)
    s = act(s, BING, 4)  # still the opening: joins at 0
    assert s.actions[-1].start == 0.0 and s.clock == 0.0
    s = act(s, JIA, 5)  # 甲's second action does not close the opening (issue 25) …
    assert s.clock == 0.0
    s = start(s)  # … the GM does: 丙 has nothing after 4
    assert s.clock == 4.0
    s, action, events = b.record_action(s, NPC, windup=2, impact=5)
    assert action.start == 4.0 and events[0].kind == "join" and events[0].time == 4.0


def test_cancel_during_windup() -> None:
    s = act(act(b.new_battle(), JIA, 10, 100), YI, 20, 300)
    s = act(start(s), JIA, 5)  # clock 15; 乙's action 0→20 is in its windup
    s, cancelled, events = b.cancel_action(s, YI.key)
    assert cancelled.cancelled_at == 15.0 and events[0].ref == cancelled.id
    assert s.free_at(YI.key) == 15.0 and s.total_impact(YI.key) == 0.0
    s = act(s, YI, 2)
    assert s.actions[-1].start == 15.0


def test_cancel_chained_action_then_earlier_one_is_resolved() -> None:
    s = act(act(b.new_battle(), JIA, 10), YI, 22)
    s = act(start(s), JIA, 5)  # 10 → 15, clock 15
    s = act(s, JIA, 5)  # 15 → 20, clock 20
    s = act(s, JIA, 5)  # 20 → 25, clock 22 (乙 decides at 22)
    assert s.clock == 22.0
    s, c, _ = b.cancel_action(s, JIA.key)
    assert c.cancelled_at == 22.0 and s.free_at(JIA.key) == 22.0
    with pytest.raises(IllegalAction, match="已在20t结算"):
        b.cancel_action(s, JIA.key)  # 15 → 20 resolved before the clock
    with pytest.raises(IllegalAction, match="已在22t结算"):
        b.cancel_action(s, YI.key)  # 乙 0 → 22 resolves at the clock (right-closed)


def test_cannot_cancel_resolved() -> None:
    s = act(act(b.new_battle(), JIA, 4), YI, 10)
    s = act(start(s), JIA, 4)  # 甲 4 → 8; nothing can happen before 8, so the clock is 8
    assert s.clock == 8.0
    with pytest.raises(IllegalAction, match="行动#3已在8t结算"):
        b.cancel_action(s, JIA.key)
    s, c, _ = b.cancel_action(s, YI.key)  # 乙 0 → 10 is in its windup at 8
    assert c.cancelled_at == 8.0
    with pytest.raises(IllegalAction, match="没有可以取消"):
        b.cancel_action(s, BING.key)


def test_artillery_ammo_reload_and_cancel_refund() -> None:
    s = act(act(b.new_battle(), YI, 100), BING, 1)  # 丙 decides next at 1: 甲's actions stay open
    s, fire, _ = ba.artillery_action(s, JIA, REVOLVER, 3)
    assert (fire.impact, fire.windup, ba.ammo_left(s, JIA.key, REVOLVER)) == (9.0, 1.5, 3)
    with pytest.raises(IllegalAction, match="没有足够的弹药× 当前弹药: 3/6"):
        ba.artillery_action(s, JIA, REVOLVER, 4)
    s, reload, _ = ba.artillery_action(s, JIA, REVOLVER, None)
    assert (reload.kind, reload.impact, reload.windup, ba.ammo_left(s, JIA.key, REVOLVER)) == (
        "reload",
        0.0,
        4.0,
        6,
    )
    with pytest.raises(IllegalAction, match="武器弹药已满"):
        ba.artillery_action(s, JIA, REVOLVER, None)
    s, _, _ = b.cancel_action(s, JIA.key)  # reload cancelled: magazine back to 3
    assert ba.ammo_left(s, JIA.key, REVOLVER) == 3
    s, _shot, _ = ba.artillery_action(s, JIA, REVOLVER, 1)
    s, _, _ = b.cancel_action(s, JIA.key)
    assert ba.ammo_left(s, JIA.key, REVOLVER) == 3
    assert roundtrip(s) == s


def test_amplifier_windup_from_unamplified_impact() -> None:
    s, a, _ = ba.amplifier_action(b.new_battle(), JIA, SCALPEL, 175.0, impact=100)
    assert (a.impact, a.windup, a.attribute) == (110.0, 11.43, "dexterity")
    s, a, _ = ba.amplifier_action(s, JIA, SCALPEL, 175.0, time=10)
    assert (a.impact, a.windup) == (96.3, 10.0)  # 87.5·1.1 = 96.25 → r1 half-even on binary


def test_initiative_passive_side_starts_at_half_windup() -> None:
    s = act(b.new_battle(), JIA, 10)
    s = act(s, YI, 4)
    s, passive, events = b.set_initiative(s, JIA.key)
    assert passive == 5.0 and events[0].kind == "initiative"
    assert s.actions_of(YI.key)[0].start == 5.0 and s.actions_of(YI.key)[0].end == 9.0
    s = act(s, BING, 2)  # joins after the initiative was set
    assert s.actions_of(BING.key)[0].start == 5.0
    with pytest.raises(IllegalAction):
        b.set_initiative(act(s, JIA, 1), JIA.key)


def test_death_cancels_pending_and_blocks_actions() -> None:
    s = act(act(b.new_battle(), JIA, 10), YI, 30)
    s = act(start(s), JIA, 5)  # clock 15
    s, events = b.resource_event(s, YI.key, "hp", -150, 0.0, 150.0)
    assert [e.kind for e in events] == ["hp", "death"] and events[1].time == 15.0
    assert s.participant(YI.key).status == "dead"
    assert s.actions_of(YI.key)[0].cancelled_at == 15.0
    with pytest.raises(IllegalAction, match="已经死亡"):
        act(s, YI, 1)
    assert b.next_up(s)[1] == [s.participant(JIA.key)]
    s, events = b.resource_event(s, JIA.key, "mp", -150, 0.0, 150.0)  # 意志 0 also kills
    assert events[-1].kind == "death" and b.next_up(s) is None


def test_resource_event_for_outsider_is_ignored() -> None:
    s = act(b.new_battle(), JIA, 10)
    assert b.resource_event(s, YI.key, "hp", -1, 1.0, 2.0) == (s, [])


def test_leave_and_rejoin() -> None:
    s = act(act(b.new_battle(), JIA, 10), YI, 30)
    s = act(start(s), JIA, 5)
    s, events = b.leave(s, YI.key)
    assert events[0].kind == "out" and s.actions_of(YI.key)[0].cancelled
    with pytest.raises(IllegalAction):
        b.leave(s, YI.key)
    s = act(s, YI, 1)  # back at the clock (甲 decides at 15)
    assert s.actions_of(YI.key)[-1].start == 15.0 and s.participant(YI.key).status == "active"


def test_npc_on_the_same_timeline() -> None:
    s = act(act(b.new_battle(), JIA, 10), NPC, 7)
    assert s.participant(NPC.key).npc and s.participant(NPC.key).owner_id == "99999"
    assert b.next_up(s)[1][0].name == "哥布林"


def test_interactions_left_open_right_closed() -> None:
    s = act(act(b.new_battle(), JIA, 3, 200), YI, 3, 150)
    a, c = s.actions
    assert b.interacts(a, c)  # both resolve at 3
    s = act(s, BING, 6)
    s = act(s, JIA, 3)  # 甲 3 → 6
    assert b.interacts(s.actions[-1], s.actions[2])  # 甲 resolves at 6 = 丙's end
    s2 = act(act(b.new_battle(), JIA, 3), YI, 10)
    s2 = act(s2, YI, 5)  # 乙 10 → 15
    assert not b.interacts(s2.actions[0], s2.actions[2])  # 甲 ends at 3, 乙's second starts at 10


def test_advance_resolves_and_is_monotonic() -> None:
    s = act(act(b.new_battle(), JIA, 10), YI, 20)
    s, done = b.advance(s, 12)
    assert [a.key for a in done] == [JIA.key] and s.clock == 12.0
    with pytest.raises(IllegalAction):
        b.advance(s, 11)


def test_limit_on_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(b, "MAX_ACTIONS", 3)
    s = act(act(act(b.new_battle(), JIA, 1), JIA, 1), JIA, 1)
    with pytest.raises(LimitExceeded):
        act(s, JIA, 1)


def test_json_roundtrip_and_future_schema() -> None:
    s = act(act(b.new_battle(), JIA, 10), YI, 3)
    s, _, _ = ba.artillery_action(s, NPC, REVOLVER, 2)
    assert roundtrip(s) == s
    data = s.to_dict()
    data["schema_version"] = 99
    with pytest.raises(IllegalAction):
        b.BattleState.from_dict(data)


OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["act", "cancel", "leave", "hp", "fire", "reload", "cancel_id", "stun", "aim", "advance"]
        ),
        st.integers(0, 3),
        st.floats(0, 30, allow_nan=False).map(lambda x: round(x, 2)),
    ),
    max_size=40,
)
REFS = [JIA, YI, BING, NPC]


@settings(max_examples=300, deadline=None)
@given(OPS)
@example(  # a stun pushing back an action cancelled before its new start: it never started
    [("act", 1, 1.0), *[("act", 0, 0.0)] * 7, ("advance", 0, 1.0), ("cancel_id", 0, 0.0), ("stun", 1, 1.0)]
)
@example(  # a control reaching back before a stun already on the timeline: not into that stun
    [
        ("act", 0, 0.0),
        ("act", 0, 0.0),
        ("advance", 0, 0.0),
        ("stun", 0, 22.0),
        ("act", 0, 0.0),
        ("act", 0, 0.0),
        ("act", 1, 0.0),
        ("stun", 1, 1.0),
        ("act", 0, 0.0),
        ("stun", 1, 22.5),
    ]
)
@example(  # a control pushing back an action whose own control is already on the timeline
    [("act", 1, 0.0), ("fire", 0, 0.0), ("stun", 0, 3.0), ("act", 0, 0.0), ("stun", 0, 3.0)]
)
def test_invariants_under_random_play(ops: list[tuple[str, int, float]]) -> None:
    s = b.new_battle()
    for op, who, t in ops:
        ref = REFS[who]
        try:
            if op == "act":
                s = act(s, ref, t)
            elif op == "cancel":
                s, _, _ = b.cancel_action(s, ref.key)
            elif op == "leave":
                s, _ = b.leave(s, ref.key)
            elif op == "hp":
                s, _ = b.resource_event(s, ref.key, "hp", -t, max(0.0, 10 - t), 10.0)
            elif op == "cancel_id":
                s, _, _ = b.cancel_action(s, None, 1 + int(t * 7) % max(1, len(s.actions)))
            elif op == "stun":
                s, _, _ = ix.apply_control(s, 1 + int(t * 7) % max(1, len(s.actions)), ref.key, t / 3)
            elif op == "aim":
                s = act(s, ref, t, target=REFS[(who + 1) % 4].key)
            elif op == "advance":
                s, _ = b.advance(s, s.clock + t / 5)
            elif op == "fire":
                s, _, _ = ba.artillery_action(s, ref, REVOLVER, 1 + int(t) % 3)
            else:
                s, _, _ = ba.artillery_action(s, ref, REVOLVER, None)
        except (IllegalAction, NotFound):
            pass
        # every action starts where the previous one of its owner ended, never before the join
        for p in s.participants:
            own = s.actions_of(p.key)
            for prev, nxt in itertools.pairwise(own):
                assert nxt.start >= prev.effective_end - 1e-9
            assert 0 <= ba.ammo_left(s, p.key, REVOLVER) <= 6
            assert all(a.cancelled_at is None or a.cancelled_at >= a.start for a in own)
            for ev in (e for e in s.events if e.kind == "stun" and e.key == p.key):
                assert not any(
                    ev.time <= a.start < (ev.after or 0) and a.effective_end > ev.time for a in own
                ), "started while stunned"
            if p.status == "dead":
                death = max(e.time for e in s.events if e.key == p.key and e.kind == "death")
                assert all(a.cancelled or a.end <= death for a in own)
        # now and next agree: nobody living decides before the clock, somebody decides at it
        nxt = b.next_up(s)
        if s.started and nxt is not None:
            assert nxt[0] == s.clock
        elif nxt is not None:
            assert s.clock == 0.0 and nxt[0] >= 0.0
        assert [a.id for a in s.actions] == list(range(1, len(s.actions) + 1))
        assert len({e.id for e in s.events}) == len(s.events)
    assert roundtrip(s) == s
