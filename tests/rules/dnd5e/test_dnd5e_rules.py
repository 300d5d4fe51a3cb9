"""D&D 5e rules: proficiency, saves, HP and death saves, generation, initiative, spell slots."""

from __future__ import annotations

import pytest
from helpers import Scripted

from chronodice.core.errors import IllegalAction, InputSyntaxError
from chronodice.rules.dnd5e import Sheet, proficiency_bonus, save_name
from chronodice.rules.dnd5e.generation import point_buy_cost, roll_set
from chronodice.rules.dnd5e.health import Health, damage, death_save, heal
from chronodice.rules.dnd5e.initiative import Entry, Tracker
from chronodice.rules.dnd5e.slots import regain, restore_all, set_slots, spend


def test_proficiency_bonus_by_level() -> None:
    assert [proficiency_bonus(lv) for lv in (1, 4, 5, 8, 9, 13, 17, 20)] == [2, 2, 3, 3, 4, 5, 6, 6]


def test_skills_and_saves() -> None:
    s = Sheet(
        {"敏捷": 14, "感知": 8, "等级": 9, "说服": 7, "魅力": 12}, {"隐匿": 2, "感知豁免": 1, "说服": 1}
    )
    assert s.target("隐匿").modifier == 2 + 8  # expertise: twice PB 4
    assert s.target("感知", save=True).modifier == -1 + 4
    assert s.target("说服").modifier == 7  # a written total wins
    assert [save_name(n) for n in ("敏捷豁免", "dex save", "豁免 感知", "察觉")] == [
        "敏捷",
        "敏捷",
        "感知",
        None,
    ]
    v = Sheet({"敏捷": 15, "力量": 8}).variables()
    assert (v["dex"], v["DEX"], v["str"], v["熟练"], v["隐匿"]) == (2, 2, -1, 2, 2)


def test_damage_heal_and_death() -> None:
    h, note = damage(Health(hp=10, max_hp=10, temp=5), 3)
    assert (h.hp, h.temp, note.absorbed) == (10, 2, 3)
    h, note = damage(Health(hp=4, max_hp=10), 13)
    assert (h.hp, note.down, note.dead) == (0, True, False)
    h2, note = damage(h, 10)  # at 0: damage ≥ max kills
    assert note.massive and h2.dead
    h2, note = damage(h, 2)
    assert (h2.failures, note.failures_added) == (1, 1)
    h = heal(h2, 3)
    assert (h.hp, h.failures) == (3, 0)
    h, s = death_save(Health(hp=0, successes=2), 10)
    assert h.stable and s.outcome == "success"


def test_generation() -> None:
    scores = roll_set(Scripted([1, 2, 3, 4] * 6, faces=6))
    assert [s.total for s in scores] == [9] * 6
    assert point_buy_cost([8, 8, 8, 8, 8, 8]) == 0
    with pytest.raises(InputSyntaxError):
        point_buy_cost([15, 14, 13])


def test_initiative_ties_turns_and_conditions() -> None:
    t = Tracker().add(Entry("甲", 10, dex=12)).add(Entry("乙", 10, dex=16)).add(Entry("丙", 10, dex=16))
    assert [e.name for e in t.entries] == ["乙", "丙", "甲"]
    t, _ = t.next()
    t = t.condition("乙", "目盲", 2)
    t, ev = t.next()
    assert ev.expired == () and t.find("乙").conditions == (("目盲", 1),)  # type: ignore[union-attr]
    t, ev = t.next()
    t, ev = t.next()
    assert ev.new_round and t.round == 2 and t.current.name == "乙"  # type: ignore[union-attr]
    t, ev = t.next()
    assert ev.expired == (("乙", "目盲"),)
    assert Tracker.from_dict(t.to_dict()) == t
    t = t.remove("丙")
    assert t.turn == "甲"


def test_slots() -> None:
    s = set_slots({}, 3, 2)
    s = spend(spend(s, 3), 3)
    with pytest.raises(IllegalAction):
        spend(s, 3)
    assert regain(s, 3) == {3: (1, 2)} and restore_all(s) == {3: (2, 2)}
