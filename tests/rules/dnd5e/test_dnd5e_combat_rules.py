"""The pure 5e combat rules of issue 42: hidden turns, a monster's hit points, the attack roll."""

from __future__ import annotations

from chronodice.dice import parse, to_text
from chronodice.rules.dnd5e.attack import AttackRoll, double_dice
from chronodice.rules.dnd5e.initiative import Entry, Tracker, health_word


def _order() -> Tracker:
    t = Tracker()
    for e in (
        Entry("托林", 20),
        Entry("伏兵", 15, hidden=True),
        Entry("哥布林", 10),
        Entry("影", 5, hidden=True),
    ):
        t = t.add(e)
    return t


def test_hidden_turns_pass_at_once_and_count_their_conditions_down() -> None:
    t = _order().condition("伏兵", "隐形", 1)
    t, ev = t.next()
    assert (t.turn, t.round, ev.new_round, ev.skipped) == ("托林", 1, True, ())
    t, ev = t.next()
    assert (t.turn, ev.skipped, ev.expired) == ("哥布林", ("伏兵",), (("伏兵", "隐形"),))
    t, ev = t.next()  # 影 (hidden, last) passes and the round wraps to 托林
    assert (t.turn, t.round, ev.new_round, ev.skipped) == ("托林", 2, True, ("影",))


def test_a_hidden_entry_first_in_the_order_passes_before_round_one() -> None:
    t = Tracker().add(Entry("伏兵", 25, hidden=True)).add(Entry("托林", 20))
    t, ev = t.next()
    assert (t.turn, t.round, ev.skipped) == ("托林", 1, ("伏兵",))


def test_only_hidden_entries_stop_on_the_first() -> None:
    t = Tracker().add(Entry("伏兵", 25, hidden=True))
    t, ev = t.next()
    assert (t.turn, ev.skipped) == ("伏兵", ())


def test_a_monsters_hit_points_floor_at_zero_and_heal_up_to_the_maximum() -> None:
    t = Tracker().add(Entry("哥布林", 10, hp=7, max_hp=7))
    t, old, new = t.hurt("哥布林", 10)
    assert (old, new) == (7, 0)
    t, old, new = t.hurt("哥布林", -20)
    assert (old, new) == (0, 7)
    assert Tracker.from_dict(t.to_dict()) == t


def test_health_words() -> None:
    assert [health_word(h, 8) for h in (8, 5, 4, 2, 0)] == ["满血", "轻伤", "重伤", "垂危", "倒下"]


def test_attack_roll_outcomes() -> None:
    assert AttackRoll((20,), 20, -5, 30).hit is True
    assert AttackRoll((1,), 1, 50, 10).hit is False
    assert AttackRoll((12,), 12, 3, 15).hit is True
    assert AttackRoll((11,), 11, 3, 15).hit is False
    assert AttackRoll((11,), 11, 3, None).hit is None
    assert AttackRoll((20, 3), 20, 0, None).crit


def test_critical_damage_doubles_every_dice_term_not_the_modifiers() -> None:
    assert to_text(double_dice(parse("1d8+3"))) == "2d8+3"
    assert to_text(double_dice(parse("2d6+1d4-str"))) == "4d6+2d4-str"
    assert to_text(double_dice(parse("d8"))) == "2d8"
    assert to_text(double_dice(parse("(1+1)d6"))) == "((1+1)*2)d6"
    assert double_dice(parse("5")) == parse("5")
