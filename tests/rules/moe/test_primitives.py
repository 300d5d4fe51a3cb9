"""The pack primitives of issue 27, each through the demo-pack card or skill that uses it, with
the glossary clause it implements (seed 001, 【萌E】游戏规则及用语集)."""

from __future__ import annotations

from typing import Any

from chronodice.render import moe as R
from chronodice.rules.moe.base import Ask, Ctx
from chronodice.rules.moe.cards import VirtualCard
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.state import ALL
from chronodice.rules.moe.testing import Script, first_option, play, scenario

NAMES = ["P1", "P2", "P3", "P4", "P5"]
YES = Script(lambda a: True if a.kind == "invoke" else ..., first_option)
FILLER = "pinocchio"  # 谎言 is an active skill: it never fires by itself


def game(chars: list[str]) -> Game:
    return scenario(chars, pack="demo")


def use(g: Game, seat: int, key: str, targets: list[int], script: Any = None) -> int:
    (cid,) = g.give_cards(seat, [key])
    play(g, g.use_card(seat, VirtualCard.of(g.card(cid)), targets), script)
    return cid


def skill(g: Game, seat: int, key: str) -> Any:
    return next(s for s in g.p(seat).skills if s.key == key)


def public(g: Game) -> list[str]:
    return R.render_events(g, g.drain_events(), NAMES)[0]


# ---------------------------------------------------------------- 3.1, 8.7 cards on a character
def test_cards_on_the_character_card_are_out_of_the_game_face_up_then_bloom() -> None:
    """3.1: 角色牌上 is a zone of the character; 8.7: its cards are out of the game, face up."""
    g = game(["thumbelina", FILLER])
    a, b, c = g.give_cards(0, ["attack/spade/1", "defend/spade/4", "recover/club/9"])
    g.drain_events()
    play(g, g.run_phase("finish"), YES)  # 花种: the first hand card goes onto the character
    assert g.zone("pile:0:花") == [a] and g.hand(0) == [b, c]
    assert g.state.known[a] == [ALL]  # face up: everybody sees it (8.7)
    assert a not in g.owned(0)  # out of the game: owned by nobody (8.7)
    assert "1号P1(拇指姑娘)将♠A【攻击】置于角色牌上（花）" in public(g)
    assert not [o for o in g.play_options(0) if o["a"] == "skill"]  # 绽放 needs two 花
    play(g, g.run_phase("finish"), YES)
    assert g.zone("pile:0:花") == [a, b]
    g.p(0).hp = 1
    assert [o["key"] for o in g.play_options(0) if o["a"] == "skill"] == ["blossom"]
    inst = skill(g, 0, "blossom")
    play(g, g.run_skill(0, inst, Ctx(me=0, skill=inst)))
    assert g.zone("pile:0:花") == [] and g.zone("discard")[-2:] == [a, b]
    assert g.p(0).hp == 2 and len(g.hand(0)) == 3  # recovered 1, drew 2 (one per 花)


def test_exile_removes_an_equipment_from_the_game() -> None:
    """8.7 移出游戏: the card leaves every zone of the game (not the discard pile)."""
    g = game([FILLER, FILLER])
    (bow,) = g.equip_cards(1, ["bow"])
    g.drain_events()
    cid = use(g, 0, "exile", [1])
    assert g.zone("out") == [bow] and g.equip(1) == [] and bow not in g.zone("discard")
    assert g.zone("discard") == [cid]
    assert "1号P1(匹诺曹)将2号P2(匹诺曹)的♠10【精灵长弓】移出了游戏" in public(g)
    assert g.card_targets(0, "exile")[1] == []  # nobody has equipment left


# ---------------------------------------------------------------- 4.13, 4.14 most / least
def test_most_and_least_allow_ties_and_nobody_has_the_most_of_nothing() -> None:
    g = game([FILLER, FILLER, FILLER])
    f = g._functions()
    assert [f["least"](s, "hand") for s in range(3)] == [False, False, False]  # 4.14: none at all
    g.give_cards(0, ["attack", "attack"])
    g.give_cards(1, ["attack"])
    assert [f["least"](s, "hand") for s in range(3)] == [False, False, True]
    g.give_cards(2, ["attack"])
    assert [f["least"](s, "hand") for s in range(3)] == [False, True, True]  # 4.14: a tie
    assert [f["most"](s, "hand") for s in range(3)] == [True, False, False]
    g.p(1).hp, g.p(2).hp = 1, 1
    assert [f["least"](s, "hp_value") for s in range(3)] == [False, True, True]  # 4.13: a tie
    assert [f["most"](s, "hp_value") for s in range(3)] == [True, False, False]


def test_pea_princess_draws_when_her_hand_is_the_least() -> None:
    """娇贵 (4.14): 1 card against 1 and 2 — tied for the least, she draws 1; alone with none
    in a game where nobody has a card, nobody is least and she draws none."""
    g = game(["pea_princess", FILLER, FILLER])
    play(g, g.run_phase("finish"))
    assert len(g.hand(0)) == 0
    g.give_cards(0, ["attack"])
    g.give_cards(1, ["attack"])
    g.give_cards(2, ["attack", "attack"])
    play(g, g.run_phase("finish"))
    assert len(g.hand(0)) == 2


def test_match_girl_recovers_when_her_hp_value_is_the_least() -> None:
    """幻梦 (4.13): hp 2 against 2 and 4 is tied for the least: she recovers to 3."""
    g = game(["match_girl", FILLER, FILLER])
    g.p(0).hp, g.p(1).hp = 2, 2
    play(g, g.run_phase("finish"))
    assert g.p(0).hp == 3
    play(g, g.run_phase("finish"))  # 3 is not the least any more (2 is)
    assert g.p(0).hp == 3


# ---------------------------------------------------------------- 5.7 any number
def test_night_work_discards_any_number_and_draws_as_many() -> None:
    """5.7 任意数量: any natural number, 0 included."""
    g = game(["elf_shoemaker", FILLER])
    cards = g.give_cards(0, ["attack", "defend", "recover"])
    seen: list[Ask] = []

    def two(ask: Ask) -> Any:
        if ask.kind == "choose_cards":
            seen.append(ask)
            return cards[:2]
        return ...

    play(g, g.run_phase("finish"), Script(lambda a: True if a.kind == "invoke" else ..., two))
    assert (seen[0].hi, seen[0].optional) == (3, True)
    assert len(g.hand(0)) == 3 and g.hand(0)[0] == cards[2] and g.zone("discard") == cards[:2]
    none = Script(lambda a: True if a.kind == "invoke" else ([] if a.kind == "choose_cards" else ...))
    play(g, g.run_phase("finish"), none)
    assert len(g.hand(0)) == 3 and len(g.zone("discard")) == 2  # zero discarded, zero drawn


# ---------------------------------------------------------------- 5.8(1) target transfer
def test_sea_foam_transfers_an_attack_without_a_distance_check() -> None:
    """5.8(1): the new target passes the legality check without distance: seat 2 is 2 away
    from the attacker (range 1), still a legal new target."""
    g = game([FILLER, "mermaid", FILLER, FILLER, FILLER])
    g.p(1).faith = 1
    assert not g.in_range(0, 2)
    use(
        g,
        0,
        "attack",
        [1],
        Script(
            lambda a: True if a.kind == "invoke" else ...,
            lambda a: [2] if a.kind == "choose_players" else ...,
        ),
    )
    assert (g.p(1).hp, g.p(1).faith) == (4, 0) and g.p(2).hp == 3
    events = [e for e in g.events if e["t"] == "transfer_target"]
    assert events == [{"t": "transfer_target", "old": 1, "new": 2, "card": "attack"}]


# ---------------------------------------------------------------- 7.6 ignoring distance
def test_pipe_song_ignores_distance_for_card_targets() -> None:
    g = game(["pied_piper", FILLER, FILLER, FILLER, FILLER])
    plain = game([FILLER, FILLER, FILLER, FILLER, FILLER])
    assert plain.card_targets(0, "attack")[1] == [1, 4]
    assert g.card_targets(0, "attack")[1] == [1, 2, 3, 4]  # 7.6: no distance check
    assert g.card_targets(0, "steal")[1] == []  # still: the others need cards to be taken


# ---------------------------------------------------------------- 8.3 打出
def test_wolf_pack_asks_every_target_to_play_an_attack() -> None:
    """8.3: a played card goes to processing, then the discard pile; the target without one is
    asked all the same (the group cannot tell), and takes 1 damage."""
    g = game([FILLER, FILLER, FILLER])
    (atk,) = g.give_cards(1, ["attack_dark"])
    g.drain_events()
    script = Script(first_option)
    cid = use(g, 0, "wolf_pack", [1, 2], script)
    asked = [(a.seat, a.reason, list(a.options)) for a in script.asks if a.reason == "play_card"]
    assert asked == [(1, "play_card", [atk]), (2, "play_card", [])]
    assert g.p(1).hp == 4 and g.p(2).hp == 3
    assert g.zone("discard") == [atk, cid]
    assert "2号P2(匹诺曹)打出了♥2【暗攻击】" in public(g)


# ---------------------------------------------------------------- 8.4 置入
def test_sea_gift_puts_an_equipment_into_an_empty_slot_only() -> None:
    """8.4: an equipment put not by use goes only into the matching empty slot."""
    g = game(["mermaid", FILLER, FILLER])
    (bow,) = g.give_cards(0, ["bow"])
    g.equip_cards(2, ["wand"])
    inst = skill(g, 0, "sea_gift")
    play(g, g.run_skill(0, inst, Ctx(me=0, target=2, skill=inst)))
    assert g.hand(0) == [bow] and g.equip(2) != [bow]  # the weapon slot is taken: nothing
    inst.used_phase = 0
    play(g, g.run_skill(0, inst, Ctx(me=0, target=1, skill=inst)))
    assert g.equip(1) == [bow] and len(g.hand(0)) == 2  # put, then drew 2
    assert g.attack_range(1) == 4


# ---------------------------------------------------------------- 8.11 视为 as a locked rule
def test_finery_attack_is_only_ever_a_light_attack() -> None:
    """8.11.2: the card's name counts as 【光攻击】; no option to use it as a plain 攻击."""
    g = game(["emperor", FILLER])
    (cid,) = g.give_cards(0, ["attack"])
    opts = [o for o in g.play_options(0) if o["a"] == "card" and o["card"] == cid]
    assert [o["as"] for o in opts] == ["attack_light"]
    play(g, g.use_card(0, VirtualCard.treated("attack_light", [g.card(cid)]), [1]))
    (dmg,) = [e for e in g.events if e["t"] == "damage"]
    assert (dmg["n"], dmg["attribute"], g.p(1).hp) == (1, "光", 3)


# ---------------------------------------------------------------- 8.16 代替, 8.17 替换
def test_retune_substitutes_the_judgement_card_and_the_old_one_is_discarded() -> None:
    g = game(["pied_piper", FILLER])
    (mine,) = g.give_cards(0, ["recover/heart/5"])
    (old,) = g.stack_top(["attack/spade/1"])
    final = play(g, g.judge(1), YES)
    assert final == mine and g.hand(0) == []
    assert g.zone("discard") == [old, mine]  # 8.16: old to the discard pile, then the judge ends


def test_nimble_hands_replace_the_judgement_card_and_obtain_the_old_one() -> None:
    g = game(["elf_shoemaker", FILLER])
    (mine,) = g.give_cards(0, ["recover/heart/5"])
    (old,) = g.stack_top(["attack/spade/1"])
    final = play(g, g.judge(1), YES)
    assert final == mine and g.hand(0) == [old]  # 8.17: the old judgement card is obtained
    assert g.zone("discard") == [mine]


# ---------------------------------------------------------------- 8.18–8.20
def test_crystal_ball_views_the_hand_privately() -> None:
    """8.18: the faces go to the viewer alone; the cards stay hidden to everybody else."""
    g = game([FILLER, FILLER, FILLER])
    a, b = g.give_cards(1, ["attack/spade/1", "defend/spade/4"])
    g.drain_events()
    use(g, 0, "crystal_ball", [1])
    pub, priv = R.render_events(g, g.drain_events(), NAMES)
    assert "1号P1(匹诺曹)观看了2张牌" in pub
    assert not any("♠A" in line or "♠4" in line for line in pub)
    assert "你观看了：♠A【攻击】、♠4【防御】" in priv[0] and 2 not in priv
    assert g.state.known[a] == [0, 1] and g.state.known[b] == [0, 1] and g.hand(1) == [a, b]
    assert len(g.hand(0)) == 1  # then drew 1


def test_boast_shows_a_card_to_everybody_and_branches_on_its_colour() -> None:
    """8.19: the shown card is seen by all and stays in the hand."""
    g = game(["emperor", FILLER])
    (red,) = g.give_cards(0, ["recover/heart/5"])
    g.drain_events()
    play(g, g.fire("phase.draw.end", 0, {}), YES)
    assert g.state.known[red] == [ALL] and red in g.hand(0) and len(g.hand(0)) == 2
    assert "1号P1(皇帝)展示了♥5【恢复】" in public(g)
    g2 = game(["emperor", FILLER])
    g2.give_cards(0, ["attack/spade/1"])
    play(g2, g2.fire("phase.draw.end", 0, {}), YES)
    assert (len(g2.hand(0)), g2.p(0).faith) == (1, 1)


def test_fortune_reveals_three_and_keeps_the_red_ones() -> None:
    """8.20: cards revealed from the deck top go to processing (public), then where they go."""
    g = game([FILLER, FILLER])
    top = g.stack_top(["recover/heart/5", "attack/spade/1", "defend/diamond/6"])
    g.drain_events()
    cid = use(g, 0, "fortune", [])
    assert g.hand(0) == [top[0], top[2]] and g.zone("discard") == [top[1], cid]
    assert "亮出了♥5【恢复】、♠A【攻击】、♦6【防御】" in public(g)


def test_matches_reveal_one_and_keep_it_only_when_red() -> None:
    g = game(["match_girl", FILLER])
    inst = skill(g, 0, "matches")
    (black,) = g.stack_top(["attack/spade/1"])
    play(g, g.run_skill(0, inst, Ctx(me=0, skill=inst)))
    assert g.hand(0) == [] and g.zone("discard") == [black]
