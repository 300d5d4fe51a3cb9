"""Durations as written in chat, 002 wounds, 004 gauges, and the state's JSON form."""

from __future__ import annotations

import random

import pytest

from chronodice.core.errors import IllegalAction, InputSyntaxError
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20 import health as H
from chronodice.rules.tick20.durations import (
    DURATION_HELP,
    format_duration,
    looks_like_duration,
    parse_duration,
)
from chronodice.rules.tick20.model import Combat, DurationKind, Health, Variant


@pytest.mark.parametrize(
    ("text", "kind", "amount", "boundary"),
    [
        ("3刻", DurationKind.TICKS, 3, "end"),
        ("2轮", DurationKind.ROUNDS, 2, "end"),
        ("1回合", DurationKind.TURNS, 1, "end"),
        ("2回合开始", DurationKind.TURNS, 2, "start"),
        ("1回合结束", DurationKind.TURNS, 1, "end"),
        ("至回合结束", DurationKind.TURNS, 1, "end"),
        ("本刻", DurationKind.UNTIL_TICK_END, 0, "end"),
        ("本轮", DurationKind.UNTIL_ROUND_END, 0, "end"),
        ("焦点", DurationKind.FOCUS, 0, "end"),
        ("永久", DurationKind.PERMANENT, 0, "end"),
        ("", DurationKind.PERMANENT, 0, "end"),
    ],
)
def test_parse_duration(text: str, kind: DurationKind, amount: int, boundary: str) -> None:
    d = parse_duration(text)
    assert (d.kind, d.amount, d.boundary) == (kind, amount, boundary)


def test_c03_bad_duration_message() -> None:
    for bad in ("三轮", "0刻", "2年", "1000轮", "2轮开始"):
        with pytest.raises(InputSyntaxError):
            parse_duration(bad)
    with pytest.raises(InputSyntaxError) as err:
        parse_duration("三轮")
    assert (
        str(err.value) == "时长格式：数字+单位（刻/轮/回合），例 .init eff 哥布林 眩晕 2轮" == DURATION_HELP
    )
    assert looks_like_duration("三轮") and not looks_like_duration("哥布林")


def test_random_duration_is_rolled_and_condition_kept() -> None:
    rolled = {parse_duration("1d4轮", random.Random(s)).amount for s in range(60)}
    assert rolled == {1, 2, 3, 4}
    assert parse_duration("条件:倒地为止").condition == "倒地为止"
    assert format_duration(parse_duration("2回合开始")) == "2回合开始"


def test_wound_rules_w01() -> None:
    h = Health(parts=H.default_parts())
    H.apply_wounds(h, "躯干", 2, 4)
    assert H.part_status(H.find_part(h, "躯干")) == "残障"
    assert H.wound_count(1, 0, 3) == (3, 1)
    assert H.wound_count(2, 1, 5) == (3, 3)
    assert H.wound_count(0, 0, 2) == (2, 0)
    rep = H.apply_wounds(h, "躯干", 1, 1)
    assert rep.worsened == 1
    checks = H.dying_checks(h, unconscious=True)
    assert [(c.part, c.target, c.disadvantage) for c in checks] == [("躯干", 20, True)]
    H.heal_wounds(h, "躯干", 1, 1)
    assert sorted(w.level for w in H.find_part(h, "躯干").wounds) == [2, 2, 2, 2]
    assert H.part_status(H.find_part(h, "中段")) == "残障"  # alias of 躯干


def test_gauges_s09_and_overdraw() -> None:
    h = Health(hg=H.make_gauges(10), mg=H.make_gauges(6))
    assert H.gauge_total(h.hg) == (50, 50)
    assert H.damage_gauges(h.hg, 7) == 1
    assert H.damage_gauges(h.hg, 4) == 1
    assert H.gauge_total(h.hg)[0] == 39
    assert H.heal_gauges(h.hg, 6) == 6
    assert [g.hp for g in h.hg[:3]] == [0, 5, 5]
    h2 = Health(hg=H.make_gauges(10), mg=H.make_gauges(6))
    H.damage_gauges(h2.hg, 34)  # 6 broken, 4 left -> not yet 危机 (crisis 3)
    assert not H.in_crisis(h2)
    H.damage_gauges(h2.hg, 1)
    assert H.in_crisis(h2)
    h3 = Health(hg=H.make_gauges(4), mg=H.make_gauges(1))
    assert H.spend_mp(h3, 7) == 2  # 5 MP, then 2 overdrawn
    assert H.gauge_total(h3.hg, h3.mp_debt) == (12, 12)
    with pytest.raises(IllegalAction):
        H.spend_mp(h3, 3)  # capacity 5 - 5 would leave nothing
    assert h3.mp_debt == 2


def test_state_json_round_trip_and_schema_version() -> None:
    st = E.new_combat("gm", variant=Variant.BASE, settle=True)
    st, _ = E.add_combatant(st, "A", value=17, controller="1")
    st, _ = E.add_effect(st, "c1", "祝福", parse_duration("2轮"))
    st, _ = E.start(st)
    data = st.to_dict()
    assert data["schema_version"] == 1
    assert Combat.from_dict(data) == st
    with pytest.raises(ValueError):
        Combat.from_dict({**data, "schema_version": 99})


def test_transitions_do_not_modify_their_input() -> None:
    st = E.new_combat("gm")
    st, _ = E.add_combatant(st, "A", value=17)
    before = st.model_dump_json()
    E.start(st)
    assert st.model_dump_json() == before


def test_settle_refused_in_spd_and_find_rules() -> None:
    with pytest.raises(IllegalAction):
        E.new_combat("gm", variant=Variant.SPD, settle=True)
    st = E.new_combat("gm")
    for name in ("哥布林a", "哥布林b", "艾琳"):
        st, _ = E.add_combatant(st, name, value=10)
    assert E.find(st, "艾").name == "艾琳"
    assert E.find(st, "哥布林a").name == "哥布林a"
    with pytest.raises(Exception, match="可能是：哥布林a/哥布林b"):
        E.find(st, "哥布林")
    with pytest.raises(Exception, match="没有找到"):
        E.find(st, "巨龙")


def test_stall_guard_stops_after_three_empty_rounds() -> None:
    st = E.new_combat("gm")
    st, _ = E.add_combatant(st, "Z", value=-90)
    st, events = E.start(st)
    assert st.waiting and st.round == 4 and st.current is None
    assert [e.kind for e in events].count("round_end") == 3
    st, _ = E.end_turn(st)  # GM resumes: R4 -30, R5 -10, R6 10
    assert not st.waiting and (st.round, st.tick, st.current) == (6, 10, "c1")
