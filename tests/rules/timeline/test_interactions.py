"""Interactions (交互) and control effects (控制效果) with the rule book's numbers."""

from __future__ import annotations

import pytest

from chronodice.core.errors import IllegalAction
from chronodice.rules.timeline import battle as b
from chronodice.rules.timeline import interactions as ix

JIA = b.ParticipantRef(1, "甲", "10001")
YI = b.ParticipantRef(2, "乙", "10002")
BING = b.ParticipantRef(3, "丙", "10003")


def act(
    state: b.BattleState, who: b.ParticipantRef, t: float, impact: float = 10.0, **kw: object
) -> b.BattleState:
    state, _, _ = b.record_action(state, who, windup=t, impact=impact, attribute="strength", **kw)  # type: ignore[arg-type]
    return state


def test_book_example_qigong_200_vs_shield_150_both_at_3t() -> None:
    """双方行为前摇均在 3t 结束，气功波 200 vs 护盾 150 → 50 (right-closed: both resolve at 3)."""
    s = act(b.new_battle(), JIA, 3, 200, target=YI.key)
    s = act(s, YI, 3, 150)
    s = act(s, YI, 1)
    found = ix.interactions_of(s, s.action(1))
    assert [(i.other.id, i.winner, i.left) for i in found] == [(2, "a", 50.0)]
    assert ix.why_not(s.action(1), s.action(2)) is None
    # only a declared 护盾 subtracts (issue 25 defect 4): undeclared, the full 200 lands
    assert [(i.rule, i.landed) for i in found] == [("full", 200.0)]
    s = act(act(b.new_battle(), JIA, 3, 200, target=YI.key), YI, 3, 150, note="护盾")
    (shield,) = ix.interactions_of(s, s.action(1))
    assert (shield.rule, shield.kind, shield.landed) == ("defence", "护盾", 50.0)


def test_shield_above_200_means_no_damage() -> None:
    s = act(act(b.new_battle(), JIA, 3, 200, target=YI.key), YI, 5, 250)
    (found,) = ix.interactions_of(s, s.action(1))
    assert (found.winner, found.left) == ("b", 50.0)


def test_start_moment_is_preparation_and_does_not_interact() -> None:
    s = act(b.new_battle(), JIA, 3, 100, target=YI.key)  # resolves at 3
    s = act(act(s, YI, 3), YI, 4)  # 乙's second starts exactly at 3
    assert [i.other.id for i in ix.interactions_of(s, s.action(1))] == [2]  # only the one ending at 3
    why = ix.why_not(s.action(1), s.action(3))
    assert why is not None and "不重叠" in why and "准备" in why
    assert "同一角色" in (ix.why_not(s.action(2), s.action(3)) or "")


def test_a_cancelled_action_no_longer_interacts_after_it_stopped() -> None:
    s = act(act(b.new_battle(), JIA, 10, 100, target=YI.key), YI, 20, 50)
    s = act(act(s, BING, 4), BING, 1)  # clock 5
    s, _, _ = b.cancel_action(s, YI.key)  # 乙 stops at 5; 甲 resolves at 10
    assert ix.interactions_of(s, s.action(1)) == []
    assert ix.why_not(s.action(1), s.action(2)) is not None


def test_control_duration_is_the_targets_windup_to_resist() -> None:
    """构筑基本法 第二条 / 侵蚀: 150 against 意志 150 → 20t; the calculator's 力量 115 → 26.09t."""
    assert ix.control_duration(150, 150) == 20.0
    assert ix.control_duration(150, 115) == 26.09


def test_stun_pauses_the_windup_and_delays_the_chain() -> None:
    s = act(b.new_battle(), JIA, 4, 150, target=YI.key)  # 甲's 侵蚀 resolves at 4
    s = act(act(s, YI, 10, 80), YI, 5)  # 乙 0 → 10 → 15
    s = b.open_battle(act(s, JIA, 30), [])[0]  # the GM starts: clock 15 → 甲's #1 settled
    s, ev, moved = ix.apply_control(s, 1, YI.key, 20.0)
    assert (ev.kind, ev.time, ev.after) == ("stun", 4.0, 24.0)
    assert (s.action(2).end, s.action(2).delay) == (30.0, 20.0)  # 6 t of windup left after 24
    assert (s.action(3).start, s.action(3).end) == (30.0, 35.0)
    assert [a.id for a in moved] == [2, 3]
    assert s.clock == 34.0  # 甲 4 → 34 is now the earliest free


def test_stun_blocks_the_start_of_actions_inside_it() -> None:
    s = act(b.new_battle(), JIA, 4, 150, target=YI.key)
    s = act(act(s, YI, 4), YI, 2)  # 乙 0 → 4 (resolves at the stun: right-closed), 4 → 6
    s = b.open_battle(act(s, JIA, 10), [])[0]
    s, _ev, _ = ix.apply_control(s, 1, YI.key, 20.0)
    assert s.action(2).end == 4.0 and s.action(2).delay == 0.0
    assert (s.action(3).start, s.action(3).end) == (24.0, 26.0)
    s2 = act(act(b.new_battle(), JIA, 4, 150, target=YI.key), YI, 4)
    s2 = b.open_battle(act(s2, JIA, 1), [])[0]  # clock 4, 乙 idle at 4
    s2, _, _ = ix.apply_control(s2, 1, YI.key, 20.0)
    assert s2.free_at(YI.key) == 24.0
    s2 = act(s2, YI, 1)
    assert s2.actions[-1].start == 24.0
    s2 = b.cancel_action(s2, YI.key)[0]  # cancelled at the clock inside the stun: still 24
    assert s2.free_at(YI.key) == 24.0


def test_control_needs_a_resolved_source() -> None:
    s = act(act(b.new_battle(), JIA, 10, 150, target=YI.key), YI, 3)
    # the opening has no clock: the GM starts first (a control there could push back an action
    # whose own effect is entered); once the battle runs, an action after the clock has not happened
    with pytest.raises(IllegalAction, match="还在开场"):
        ix.apply_control(s, 1, YI.key, 5)
    s = act(b.open_battle(s, [])[0], YI, 1)  # clock 4
    with pytest.raises(IllegalAction, match="尚未发生"):
        ix.apply_control(s, 1, YI.key, 5)
