"""灯火与群星 (the pack of our own): its size and kinds, and the mechanisms it adds, each played
once through the engine with the exact numbers."""

from __future__ import annotations

from collections import Counter

import pytest

from chronodice.rules.moe.base import Ctx
from chronodice.rules.moe.cards import VirtualCard
from chronodice.rules.moe.pack import load_pack
from chronodice.rules.moe.testing import Script, first_option, flip_first, play, scenario

YES = Script(lambda a: True if a.kind == "invoke" else ..., flip_first)


def lantern(chars: list[str]):  # type: ignore[no-untyped-def]
    return scenario(chars, pack="lantern", map_key="harbor_brawl")


def use(g, seat, key, targets, script=None):  # type: ignore[no-untyped-def]
    (cid,) = g.give_cards(seat, [key])
    play(g, g.use_card(seat, VirtualCard.of(g.card(cid)), targets), script)
    return cid


def skill(g, seat, key):  # type: ignore[no-untyped-def]
    return next(s for s in g.p(seat).skills if s.key == key)


# ---------------------------------------------------------------- content
def test_size_of_the_pack() -> None:
    p = load_pack("lantern")
    assert len(p.characters) >= 25
    assert len(p.deck) >= 108
    assert len(p.maps) >= 3
    deck = Counter(k for k, _s, _r in p.deck)
    assert deck["counter"] >= 5 and p.rules.nullify_card == "counter"
    assert {m.win for m in p.maps.values()} == {"last_alive", "teams", "faith_temple"}


def test_skills_cover_the_glossary_kinds() -> None:
    p = load_pack("lantern")
    kinds = Counter(p.skills[s].kind for c in p.characters.values() for s in c.skills)
    # 被动 (status and non-status), 限定, 觉醒, 信仰, plus 可 triggers and active skills
    for kind in ("status", "passive", "limited", "awakening", "faith", "trigger", "active"):
        assert kinds[kind] >= 2, kind
    gained = {"searchlight", "judgement", "decree"}
    used = {s for c in p.characters.values() for s in c.skills} | {
        s for c in p.cards.values() for s in c.skills
    }
    assert set(p.skills) == used | gained  # no dead skill


def test_every_text_is_chinese_and_names_are_unique() -> None:
    p = load_pack("lantern")
    for items in (p.characters, p.cards, p.maps):
        names = [x.name for x in items.values()]
        assert len(set(names)) == len(names)
        for x in items.values():
            assert x.text and any("\u4e00" <= ch <= "\u9fff" for ch in x.text), x.key
    for c in p.characters.values():
        for s in c.skills:
            assert p.skills[s].text, s


# ---------------------------------------------------------------- mechanisms
def test_warding_cancels_an_attack_on_a_neighbour() -> None:
    g = lantern(["warder", "ferryman", "sailor"])
    g.p(0).faith = 1
    use(g, 2, "attack", [1], YES)
    assert g.p(1).hp == 5 and g.p(0).faith == 0 and len(g.hand(0)) == 1


def test_nine_lives_pays_three_faith_when_dying() -> None:
    g = lantern(["stray", "sailor"])
    g.p(0).hp, g.p(0).faith = 1, 3
    play(g, g.damage(1, 0, 1))
    # the damage gives 1 faith (3 → 4), then 九命 pays 3 and recovers 1
    assert g.p(0).alive and g.p(0).hp == 1 and g.p(0).faith == 1


def test_revelation_awakens_at_five_faith() -> None:
    g = lantern(["oracle", "sailor"])
    g.p(0).faith, g.p(0).hp = 5, 2
    play(g, g.run_phase("prepare"))
    assert (g.p(0).max_hp, g.p(0).hp) == (3, 3)
    assert [s.key for s in g.p(0).skills][-1] == "judgement"
    g.p(0).hp = 2
    play(g, g.run_phase("prepare"))
    assert g.p(0).hp == 2  # once per game


def test_crown_awakens_with_three_alive_after_a_death() -> None:
    g = lantern(["exile", "sailor", "ferryman", "knight"])
    play(g, g.run_phase("prepare"))
    assert g.p(0).max_hp == 3  # four alive
    g.p(3).alive = False
    play(g, g.run_phase("prepare"))
    assert (g.p(0).max_hp, g.p(0).hp) == (4, 4) and "decree" in [s.key for s in g.p(0).skills]
    three = lantern(["exile", "sailor", "ferryman"])
    play(three, three.run_phase("prepare"))
    assert three.p(0).max_hp == 3  # three alive, but nobody died yet


def test_lullaby_skips_the_targets_next_turn_once_per_game() -> None:
    g = lantern(["musician", "sailor", "ferryman"])
    inst = skill(g, 0, "lullaby")
    play(g, g.run_skill(0, inst, Ctx(me=0, target=2, skill=inst)))
    assert g.state.skipped_turns == [2] and len(g.hand(0)) == 1
    assert not [o for o in g.play_options(0) if o["a"] == "skill" and o["key"] == "lullaby"]


def test_meditate_skips_the_discard_phase_for_one_faith() -> None:
    g = lantern(["monk", "sailor"])
    g.give_cards(0, ["attack"] * 6)
    play(g, g.phase("discard"), YES)
    assert len(g.hand(0)) == 6 and g.p(0).faith == 1


def test_harpoon_discards_after_the_attack_is_defended() -> None:
    g = lantern(["sailor", "ferryman"])
    g.equip_cards(0, ["harpoon"])
    g.give_cards(1, ["defend", "recover"])
    script = Script(first_option, lambda a: True if a.kind == "invoke" else ...)
    use(g, 0, "attack", [1], script)
    assert g.p(1).hp == 5 and g.hand(1) == []


def test_tough_lowers_two_damage_to_one() -> None:
    g = lantern(["sailor", "ferryman"])
    play(g, g.damage(1, 0, 2), YES)
    assert g.p(0).hp == 4


def test_valor_adds_one_against_a_healthier_victim() -> None:
    g = lantern(["knight", "ferryman"])
    play(g, g.damage(0, 1, 1), YES)
    assert g.p(1).hp == 3  # 5 − (1 + 1)


def test_tide_makes_each_other_with_cards_discard_one() -> None:
    g = lantern(["sailor", "ferryman", "knight"])
    g.give_cards(1, ["attack", "defend"])
    use(g, 0, "tide", [1])
    assert len(g.hand(1)) == 1 and len(g.hand(2)) == 0


@pytest.mark.parametrize(("top", "hp"), [("defend/heart", 4), ("attack/spade", 5)])
def test_beacon_damages_on_a_red_judgement(top: str, hp: int) -> None:
    g = lantern(["sailor", "ferryman"])
    g.stack_top([top])
    use(g, 0, "beacon", [1])
    assert g.p(1).hp == hp


def test_lifeline_secret_saves_from_dying() -> None:
    g = lantern(["sailor", "night_cat"])
    g.set_secret(1, ["lifeline"])
    g.p(1).hp = 1
    play(g, g.damage(0, 1, 1), YES)
    assert g.p(1).alive and g.p(1).hp == 1 and not g.secrets(1)
