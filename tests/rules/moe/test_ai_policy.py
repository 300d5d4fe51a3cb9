"""托管 and AI seat decisions on fixed tables (issue 27): whom they harm, help, rescue, counter
and give to, and that an AI's answer does not depend on cards hidden from it."""

from __future__ import annotations

import random

from chronodice.rules.moe.ai import AI_PREFIX, policy_answer
from chronodice.rules.moe.ai_judge import allies, card_effects, enemies, impact, redirect_risk, skill_effects
from chronodice.rules.moe.ai_play import AI, TAKEOVER
from chronodice.rules.moe.base import Ask, Ctx
from chronodice.rules.moe.cards import VirtualCard
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.testing import scenario

CHARS = ["alice", "red_hood", "snow_white", "pinocchio"]


def teams(characters: list[str] = CHARS) -> Game:
    """双王国: seats 0 and 2 against 1 and 3; seat 0 is an AI seat."""
    g = scenario(characters, pack="demo", map_key="kingdoms")
    for p in g.state.players:
        p.team = p.seat % 2
    g.p(0).user = f"{AI_PREFIX}1"
    g.state.turn.phase = "play"
    return g


def play_ask(g: Game, seat: int = 0) -> Ask:
    return Ask("play", seat, "play", options=g.play_options(seat))


def answer(g: Game, ask: Ask, style=None) -> object:  # type: ignore[no-untyped-def]
    return policy_answer(g, ask, random.Random(1), style)


def test_sides_on_a_team_map_and_a_free_for_all() -> None:
    g = teams()
    assert allies(g, 0) == [2] and enemies(g, 0) == [1, 3]
    ffa = scenario(CHARS, map_key="melee")
    assert allies(ffa, 0) == [] and enemies(ffa, 0) == [1, 2, 3]


def test_the_reading_of_cards_and_skills() -> None:
    g = teams()

    def on(key: str, t: int | None) -> tuple[set[int], set[int]]:
        imp = impact(
            g, card_effects(g, key), Ctx(me=0, target=t, card=VirtualCard(key=key), data={"user": 0})
        )
        return imp.harm, imp.help

    assert on("attack", 1) == ({1}, set())
    assert on("recover", 0) == (set(), {0})
    assert on("duel", 3) == ({0, 3}, set())  # the loser of a 拼点 may be either side
    assert on("dark_pact", None) == ({0}, {0})
    assert on("steal", 2) == ({2}, {0})
    disguise = impact(g, skill_effects(g, "disguise"), Ctx(me=1, target=1, data={"source": 0, "victim": 1}))
    assert disguise.chosen == {"to": "harm"}


def test_ai_and_takeover_attack_the_weakest_enemy() -> None:
    """Issue 44: 托管 plays to win for its side, so it attacks an enemy too (it used to end the
    turn holding an 攻击 and lost or drew nearly every game)."""
    g = teams()
    g.give_cards(0, ["attack"])
    g.p(1).hp, g.p(3).hp = 4, 1
    g.equip_cards(0, ["magic_mirror"])  # every seat in range
    for style in (AI, TAKEOVER):
        got = answer(g, play_ask(g), style)
        assert got["a"] == "card" and got["targets"] == [3]


def test_takeover_takes_no_risk_with_its_own_hp() -> None:
    """A 拼点 (决斗) may make the seat itself the loser: the AI plays it holding a 10+, 托管 never."""
    g = teams()
    g.give_cards(0, ["duel", "defend", "defend"])
    for s in (1, 3):
        g.give_cards(s, ["defend"])
    ask = play_ask(g)
    assert any(o["a"] == "card" and g.card(o["card"]).key == "duel" for o in ask.options)
    assert answer(g, ask, TAKEOVER) == {"a": "end"}


def test_no_harmful_card_ever_targets_an_ally() -> None:
    g = teams()
    g.give_cards(0, ["attack", "break", "steal"])
    g.equip_cards(0, ["magic_mirror"])
    for s in (1, 3):
        g.p(s).alive = False  # only the ally is left to hit
    g.give_cards(2, ["defend"])
    assert answer(g, play_ask(g)) == {"a": "end"}


def test_heals_itself_before_anything_else_and_equips_an_empty_slot() -> None:
    g = teams()
    g.give_cards(0, ["recover", "attack", "bow"])
    g.p(0).hp = 1
    for style in (AI, TAKEOVER):
        got = answer(g, play_ask(g), style)
        assert g.card(got["card"]).key == "recover"
    g.p(0).hp = g.p(0).max_hp
    got = answer(g, play_ask(g), TAKEOVER)
    assert g.card(got["card"]).key == "bow"


def test_windows_counter_rescue_and_defend_by_side() -> None:
    g = teams()
    (counter,) = g.give_cards(0, ["counter"])
    (rescue,) = g.give_cards(0, ["recover"])
    (defend,) = g.give_cards(0, ["defend"])

    def window(reason: str, options: list[int], **info: object) -> object:
        return answer(g, Ask("respond", 0, reason, options=options, optional=True, info=dict(info)))

    assert window("nullify", [counter], user=1, card="fireball", target=2) == counter  # an enemy on our ally
    assert window("nullify", [counter], user=2, card="fireball", target=1) is None  # our ally's card
    assert window("nullify", [counter], user=1, card="mana_surge", target=1) is None  # harms nobody
    assert window("rescue", [rescue], dying=2) == rescue
    assert window("rescue", [rescue], dying=1) is None
    assert window("offset", [defend], user=1, card="attack") == defend
    assert window("offset", [], user=1, card="attack") is None  # a one-tap pass, holding nothing


def test_gifts_go_to_the_ally_or_nowhere() -> None:
    g = teams()
    cards = g.give_cards(0, ["attack", "defend", "recover"])
    ask = Ask("distribute", 0, "give", options=cards, lo=1, hi=2, optional=True, info={"to": [1, 2, 3]})
    got = answer(g, ask)
    assert [seat for seat, _cs in got] == [2]
    ffa = scenario(CHARS, pack="demo", map_key="melee")
    cards = ffa.give_cards(0, ["attack", "defend"])
    ask = Ask("distribute", 0, "give", options=cards, lo=1, hi=2, optional=True, info={"to": [1, 2, 3]})
    assert answer(ffa, ask) == []


def test_a_duel_from_an_ally_is_answered_with_the_lowest_card() -> None:
    g = teams()
    low, high = g.give_cards(0, ["attack/spade/2", "defend/diamond/13"])
    ask = Ask("choose_cards", 0, "pindian", options=[low, high], info={"with": 2})
    assert answer(g, ask) == [low]
    ask = Ask("choose_cards", 0, "pindian", options=[low, high], info={"with": 1})
    assert answer(g, ask) == [high]


def test_a_light_attack_is_not_aimed_where_it_can_be_turned_onto_an_ally() -> None:
    g = teams(["alice", "big_wolf", "snow_white", "pinocchio"])  # 大灰狼 伪装: 光 damage transferred
    g.equip_cards(0, ["magic_mirror"])
    g.p(1).faith = 1
    assert redirect_risk(g, 0, 1, "光") and not redirect_risk(g, 0, 1, None)
    g.give_cards(0, ["attack_light"])
    got = answer(g, play_ask(g))
    assert got["targets"] == [3]
    g.p(1).faith = 0  # no faith, no transfer
    assert not redirect_risk(g, 0, 1, "光")


def test_the_answer_does_not_depend_on_hidden_cards() -> None:
    """Swapping what the enemies hold (same counts) never changes the AI's choice."""
    seen = set()
    for swap in (False, True):
        g = teams()
        g.give_cards(0, ["attack", "steal", "break"])
        g.equip_cards(0, ["magic_mirror"])
        g.give_cards(1, ["recover", "defend"] if swap else ["attack", "counter"])
        g.give_cards(3, ["bow", "gift"] if swap else ["defend", "defend"])
        ans = answer(g, play_ask(g))
        seen.add((g.card(ans["card"]).key, tuple(ans["targets"])))
    assert len(seen) == 1
