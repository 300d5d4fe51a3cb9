"""Defence declarations tracked per character in the group's session state."""

from __future__ import annotations

import json

import pytest

from chronodice.core.errors import IllegalAction
from chronodice.rules.pool10.card import Pool10Card
from chronodice.rules.pool10.state import (
    DefenceDeclared,
    DefenceRestored,
    DefenceUsed,
    Pool10Session,
    available,
    clear,
    declare_defence,
    new_action,
    take_defence,
)


def test_declare_then_attack_spends_until_next_action() -> None:
    s = Pool10Session()
    s, ev = declare_defence(s, "c1", "艾拉", amount=3, total=5)
    assert ev == [DefenceDeclared("c1", "艾拉", 3, 0)]
    s, used, ev = take_defence(s, "c1")
    assert used == 3 and ev == [DefenceUsed("c1", "艾拉", 3)]
    assert available(s, "c1", total=5) == 2
    # a second attack this round: no declaration, no defence
    s, used, _ = take_defence(s, "c1")
    assert used == 0
    with pytest.raises(IllegalAction) as exc:
        declare_defence(s, "c1", "艾拉", amount=3, total=5)
    assert "2" in exc.value.message
    s, ev = new_action(s, "c1")
    assert ev == [DefenceRestored("c1", "艾拉", 3, 0)]
    assert available(s, "c1", total=5) == 5


def test_redeclaring_replaces() -> None:
    s, _ = declare_defence(Pool10Session(), "c1", "艾拉", amount=1, total=5)
    s, ev = declare_defence(s, "c1", "艾拉", amount=4, total=5)
    assert ev[0].replaced == 1 and s.defence["c1"].declared == 4


def test_undeclared_defence_counts_as_none() -> None:
    s, used, ev = take_defence(Pool10Session(), "c9")
    assert used == 0 and ev == [] and s == Pool10Session()


def test_unused_declaration_lapses_at_own_action() -> None:
    s, _ = declare_defence(Pool10Session(), "c1", "艾拉", amount=2, total=2)
    s, ev = new_action(s, "c1")
    assert ev == [DefenceRestored("c1", "艾拉", 0, 2)] and "c1" not in s.defence


def test_transitions_are_pure() -> None:
    s0 = Pool10Session()
    s1, _ = declare_defence(s0, "c1", "艾拉", amount=2, total=2)
    assert s0.defence == {} and s1.defence["c1"].declared == 2


def test_json_round_trip_and_clear() -> None:
    s, _ = declare_defence(Pool10Session(), "c1", "艾拉", amount=2, total=3)
    s, _ = declare_defence(s, "c2", "哨兵", amount=1, total=1)
    s, _, _ = take_defence(s, "c2")
    data = json.loads(json.dumps(s.to_dict()))
    assert Pool10Session.from_dict(data) == s
    assert Pool10Session.from_dict(None) == Pool10Session()
    s2, ev = clear(s)
    assert s2 == Pool10Session() and len(ev) == 2
    with pytest.raises(IllegalAction):
        Pool10Session.from_dict({"schema_version": 99})


def test_card_data_round_trip_and_entries() -> None:
    card = Pool10Card().with_entries([("潜行", 1), ("攻击", 2), ("防御", 3)])
    assert (card.bonus, card.attack, card.defence) == ({"潜行": 1}, 2, 3)
    assert Pool10Card.from_dict(json.loads(json.dumps(card.to_dict()))) == card
    assert Pool10Card.of({"pool10": card.to_dict()}) == card
    assert card.without(["潜行", "防御"]) == Pool10Card(attack=2)
    # a stored entry overrides an attribute's formula
    assert Pool10Card(bonus={"力量": 0}).term_bonus("力量", 11) == 0


def test_a_change_of_nothing_gives_back_the_same_state() -> None:
    # no session-log row for a command that changed nothing (store.apply_session skips equal states)
    s = Pool10Session()
    same, ev = declare_defence(s, "c1", "艾拉", amount=0, total=3)
    assert same.to_dict() == s.to_dict() and ev[0].amount == 0
    assert new_action(s, "c1") == (s, [])
    legacy = Pool10Session.from_dict(
        {"schema_version": 1, "defence": {"c1": {"name": "艾拉", "declared": 0, "spent": 0}}}
    )
    assert new_action(legacy, "c1") == (legacy, [])
    # declaring 0 over an earlier declaration does change the state: it cancels it
    s, _ = declare_defence(s, "c1", "艾拉", amount=2, total=3)
    s, ev = declare_defence(s, "c1", "艾拉", amount=0, total=3)
    assert s.defence == {} and ev[0].replaced == 2
