"""萌E scenarios T01–T20 of moe-engine.md §3 (glossary §1–§5), with the exact numbers."""

from __future__ import annotations

import pytest

from chronodice.rules.moe.base import Ctx
from chronodice.rules.moe.cards import VirtualCard, colour_of
from chronodice.rules.moe.expr import evaluate
from chronodice.rules.moe.testing import Script, fired, play, scenario


def effects(g, seat, effs, target=None, script=None):  # type: ignore[no-untyped-def]
    return play(g, g.run_effects(Ctx(me=seat, target=target), effs), script)


# ---------------------------------------------------------------- T01 [2.1, 2.2, 8.11]
def test_t01_colours_and_virtual_cards() -> None:
    g = scenario(["blank", "blank"])
    dia, hea, spa, clu = (
        g.card(c)
        for c in g.give_cards(0, ["defend/diamond/4", "defend/heart/2", "defend/spade/1", "defend/club/3"])
    )
    assert [dia.colour, hea.colour, spa.colour, clu.colour] == ["red", "red", "black", "black"]
    bare = VirtualCard.as_if("attack")
    assert (bare.suit, bare.rank, bare.colour) == (None, None, None)
    scope = g.scope(Ctx(me=0, card=bare))
    assert (
        evaluate("card_colour == 'red'", scope) is False
        and evaluate("card_colour == 'black'", scope) is False
    )
    # 视为使用 a physical ♠7 攻击: a virtual card with its face info, the physical card does not move
    (seven,) = g.give_cards(0, ["attack/club/7"])
    like = VirtualCard.as_if("attack", like=g.card(seven))
    assert (like.suit, like.rank, like.colour, like.subcards) == ("club", 7, "black", ())
    play(g, g.use_card(0, like, [1]))
    assert seven in g.hand(0) and g.p(1).hp == 3
    assert colour_of("spade") == "black"


# ---------------------------------------------------------------- T02 [4.1, 8.13]
@pytest.mark.parametrize(
    ("a", "b", "winner"),
    [
        ("attack/spade/1", "attack/heart/10", 1),
        ("attack/club/11", "attack/diamond/12", 1),
        ("attack/diamond/12", "attack/spade/13", 1),
        ("attack/spade/13", "attack/diamond/12", 0),
    ],
)
def test_t02_pindian_ranks(a: str, b: str, winner: int) -> None:
    g = scenario(["blank", "blank"])
    g.give_cards(0, [a])
    g.give_cards(1, [b])
    assert play(g, g.pindian(0, 1)) == (winner, 1 - winner)
    assert len(g.zone("discard")) == 2 and not g.hand(0) and not g.hand(1)


def test_t02_pindian_tie() -> None:
    g = scenario(["blank", "blank"])
    g.give_cards(0, ["attack/spade/5"])
    g.give_cards(1, ["defend/spade/5"])
    assert play(g, g.pindian(0, 1)) == (None, None)


def test_t02_the_group_is_told_who_won_the_pindian() -> None:
    """Spectators saw both cards but not the outcome (found reading a 6-player transcript)."""
    from chronodice.render.moe import render_events

    names = ["甲", "乙"]
    for a, b, told in (
        ("attack/spade/13", "attack/diamond/12", "拼点结果：13点对12点，1号甲(白板)赢"),
        ("attack/spade/5", "defend/spade/5", "拼点结果：5点对5点，平局（没有人赢）"),
    ):
        g = scenario(["blank", "blank"])
        g.give_cards(0, [a])
        g.give_cards(1, [b])
        play(g, g.pindian(0, 1))
        public, _private = render_events(g, g.events, names)
        assert told in public, public


# ---------------------------------------------------------------- T03 [4.2]
def test_t03_max_hp_loss_clamps_without_hp_loss() -> None:
    g = scenario(["blank", "blank"])
    g.p(1).hp = 2
    play(g, g.change_max_hp(0, -1))
    play(g, g.change_max_hp(1, -1))
    assert (g.p(0).hp, g.p(0).max_hp) == (3, 3)
    assert (g.p(1).hp, g.p(1).max_hp) == (2, 3)
    assert fired(g, "hp.lost") == 0 and g.p(0).faith == 0


# ---------------------------------------------------------------- T04 [4.2.1]
def test_t04_faith_from_damage_capped() -> None:
    g = scenario(["blank", "blank"])
    g.p(1).faith = 2
    play(g, g.damage(0, 1, 1))
    assert (g.p(0).faith, g.p(1).faith) == (1, 2)
    play(g, g.damage(0, 1, 1))
    assert g.p(0).faith == 2
    play(g, g.damage(0, 1, 1))
    assert g.p(0).faith == 2 and g.p(0).max_faith == 2


def test_t04_prevented_damage_gives_no_faith() -> None:
    g = scenario(["blank", "blank"])
    g.equip_cards(1, ["holy_armour"])
    assert play(g, g.damage(0, 1, 1, attribute="暗")) == 0
    assert (g.p(0).faith, g.p(1).faith, g.p(1).hp) == (0, 0, 4)


# ---------------------------------------------------------------- T05 [4.3, 4.4, 4.6]
def test_t05_hp_below_zero() -> None:
    g = scenario(["blank", "blank", "blank"])
    g.p(1).hp = 1
    play(g, g.damage(0, 1, 3))
    p = g.p(1)
    assert (p.hp, p.hp_value, p.lost_hp) == (-2, 0, 4)


# ---------------------------------------------------------------- T06 [4.5]
def test_t06_hand_limit_is_hp_value_min_zero() -> None:
    g = scenario(["blank", "blank"])
    b = g.p(1)
    b.hp = 3
    assert g.hand_limit(1) == 3
    b.hp = -2
    assert g.hand_limit(1) == 0
    b.hp = 3
    b.hand_limit_mods.append(["加", -5])
    assert g.hand_limit(1) == 0


def test_t06_discard_phase_discards_down_to_the_limit() -> None:
    g = scenario(["blank", "blank"])
    g.p(1).hp = 3
    g.give_cards(1, ["attack", "defend", "recover", "steal", "break"])
    g.state.turn.seat = 1
    play(g, g._body_discard(1))
    assert len(g.hand(1)) == 3 and len(g.zone("discard")) == 2


# ---------------------------------------------------------------- T07 [4.10]
def test_t07_wei_vs_shiwei() -> None:
    g = scenario(["blank", "blank"])
    effects(g, 0, [{"hand_limit": {"op": "为", "n": 5}}, {"hand_limit": {"op": "加", "n": -1}}])
    effects(g, 1, [{"hand_limit": {"op": "视为", "n": 5}}, {"hand_limit": {"op": "加", "n": -1}}])
    assert (g.hand_limit(0), g.hand_limit(1)) == (4, 5)
    # recorded reading: a later HP change does not undo a 为 (it replaced the HP-based base)
    g.p(0).hp = 1
    assert g.hand_limit(0) == 4


# ---------------------------------------------------------------- T08 [4.8, 1.3.2]
def test_t08_attack_range() -> None:
    g = scenario(["blank"] * 7)
    assert g.attack_range(0) == 1
    (wand,) = g.equip_cards(0, ["wand"])
    assert g.attack_range(0) == 3
    g.add_skill(0, "t_range")
    assert g.attack_range(0) == 4  # weapon and skill stack
    assert g.distance(0, 3) == 3 and g.in_range(0, 3) and g.in_range(0, 4)
    g.state.zones["equip:0"].remove(wand)
    g.zone("discard").append(wand)
    g.equip_cards(0, ["magic_mirror"])
    assert g.attack_range(0) is None
    assert all(g.in_range(0, s) for s in range(1, 7)) and not g.in_range(0, 0)
    g.p(5).alive = False
    assert not g.in_range(0, 5)


def test_t08_in_range_iff_range_at_least_distance() -> None:
    g = scenario(["blank"] * 6)
    assert g.distance(0, 1) == 1 and g.distance(0, 3) == 3 and g.distance(0, 5) == 1
    assert g.in_range(0, 1) and not g.in_range(0, 2)
    g.equip_cards(0, ["silver_sword"])
    assert g.in_range(0, 2) and g.in_range(0, 4) and not g.in_range(0, 3)


# ---------------------------------------------------------------- T09 [4.12, 6.2]
def test_t09_dead_are_skipped() -> None:
    g = scenario(["blank"] * 5)
    g.p(2).alive = False
    assert g.next_alive(1) == 3 and g.distance(1, 3) == 1 and g.alive_count() == 4
    assert evaluate("alive_count()", g.scope(Ctx(me=0))) == 4
    h = scenario(["blank", "blank"])
    assert h.next_alive(0) == 1 and h.prev_alive(0) == 1 and h.next_alive(1) == 0 and h.prev_alive(1) == 0


# ---------------------------------------------------------------- T10 [4.9]
def test_t10_zero_variable_still_invokes() -> None:
    g = scenario(["blank", "blank"])
    inst = g.add_skill(0, "t_x")
    g.state.turn.phase = "play"
    opts = [o for o in g.play_options(0) if o["a"] == "skill"]
    assert [o["uid"] for o in opts] == [inst.uid]
    play(g, g.run_skill(0, inst, Ctx(me=0, skill=inst)))
    assert inst.used_turn == 1 and fired(g, "skill.used", 0) == 1
    assert g.hand(0) == [] and fired(g, "cards.obtained") == 0
    assert not [o for o in g.play_options(0) if o["a"] == "skill"]


# ---------------------------------------------------------------- T11 [4.11, 4.13, 4.14]
def test_t11_most_least_and_difference() -> None:
    g = scenario(["blank"] * 4)
    assert g.most("hand") == []
    g.p(1).hp = 2
    g.p(3).hp = 2
    assert g.most("hp_value", least=True) == [1, 3]
    g.give_cards(2, ["attack"])
    assert g.most("hand") == [2]
    assert evaluate("diff(2, 5)", g.scope(Ctx(me=0))) == 3


# ---------------------------------------------------------------- T12 [4.16]
@pytest.mark.parametrize(("cards", "discarded"), [(5, 2), (1, 0), (4, 2)])
def test_t12_half_rounds_down(cards: int, discarded: int) -> None:
    g = scenario(["blank", "blank"])
    g.give_cards(0, ["attack"] * cards)
    inst = g.add_skill(0, "t_half")
    play(g, g.run_skill(0, inst, Ctx(me=0, skill=inst)))
    assert len(g.hand(0)) == cards - discarded and inst.used_game == 1


# ---------------------------------------------------------------- T13 [3.5]
def test_t13_one_secret_per_name() -> None:
    g = scenario(["blank", "blank"])
    g.set_secret(0, ["mirror"])
    g.give_cards(0, ["mirror", "thorn"])
    assert not g.can_use_card(0, "mirror") and g.can_use_card(0, "thorn")
    keys = {g.card(o["card"]).key for o in g.play_options(0) if o["a"] == "card"}
    assert keys == {"thorn"}


# ---------------------------------------------------------------- T14 [3.7, 8.8]
def test_t14_shuffle_before_blind_pick() -> None:
    g = scenario(["blank", "blank"])
    g.give_cards(1, ["attack", "defend", "recover"])
    before = g.rng_draws
    effects(g, 0, [{"discard_other": {"of": "target", "n": 1, "zones": ["hand"]}}], target=1)
    assert g.rng_draws == before + 1 and len(g.hand(1)) == 2
    h = scenario(["blank", "blank"])
    h.give_cards(1, ["attack"])
    effects(h, 0, [{"discard_other": {"of": "target", "n": 1, "zones": ["hand"]}}], target=1)
    assert h.rng_draws == 0 and h.hand(1) == []


# ---------------------------------------------------------------- T15 [3.10]
def test_t15_owned_cards_exclude_secrets_and_processing() -> None:
    g = scenario(["blank", "blank"])
    g.give_cards(1, ["attack", "defend"])
    (bow,) = g.equip_cards(1, ["bow"])
    g.set_secret(1, ["mirror"])
    s = Script()
    effects(g, 0, [{"discard_other": {"of": "target", "n": 1}}], target=1, script=s)
    (ask,) = s.asks
    assert ask.options == ["h1", "h2", f"e{bow}"]
    # a card in the processing area belongs to nobody: moving it fires no lose timing
    (cid,) = g.give_cards(0, ["attack"])
    play(g, g.move([cid], "processing"))
    n = fired(g, "cards.lost")
    play(g, g.move([cid], "discard"))
    assert fired(g, "cards.lost") == n


# ---------------------------------------------------------------- T16 [1.3.2]
def test_t16_weapon_cannot_pay_its_own_skill() -> None:
    g = scenario(["blank", "blank"])
    (blade,) = g.equip_cards(0, ["t_blade"])
    (card,) = g.give_cards(0, ["attack"])
    (opt,) = [o for o in g.play_options(0) if o["a"] == "skill"]
    assert opt["cost_from"] == [card]
    s = Script()
    effects(g, 1, [{"discard_other": {"of": "target", "n": 1, "zones": ["equip"]}}], target=0, script=s)
    assert s.asks[0].options == [f"e{blade}"] and blade in g.zone("discard")


# ---------------------------------------------------------------- T17 [5.1]
def test_t17_passive_fires_without_prompt() -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(1, "t_target_draw")
    (atk,) = g.give_cards(0, ["attack"])
    s = Script()
    play(g, g.use_card(0, VirtualCard.of(g.card(atk)), [1]), s)
    assert "invoke" not in s.kinds(1) and len(g.hand(1)) == 1 and g.p(1).hp == 3


# ---------------------------------------------------------------- T18 [5.2, 2.4]
def test_t18_limited_once_per_game_per_copy() -> None:
    g = scenario(["blank", "blank"])
    inst = g.add_skill(0, "t_limited")
    play(g, g.run_skill(0, inst, Ctx(me=0, target=1, skill=inst)))
    assert g.p(1).hp == 3
    g.state.turn_no += 5
    assert not [o for o in g.play_options(0) if o["a"] == "skill"]
    second = g.add_skill(0, "t_limited")
    (opt,) = [o for o in g.play_options(0) if o["a"] == "skill"]
    assert opt["uid"] == second.uid and second.uid != inst.uid


# ---------------------------------------------------------------- T19 [5.3]
def test_t19_awakening() -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(0, "t_awaken")
    g.p(0).hp = 1
    s = Script(lambda a: {"a": "end"} if a.kind == "play" else ...)
    seen: list[list[str]] = []

    def spy(ask):  # type: ignore[no-untyped-def]
        if ask.kind == "play":
            seen.append([o.get("key", "") for o in ask.options])
        return s(ask)

    play(g, g.turn(0, False), spy)
    p = g.p(0)
    assert (p.max_hp, p.hp) == (3, 3)
    assert "invoke" not in s.kinds(0)
    assert "t_gained" in seen[0]  # usable in the same turn
    p.hp = 1
    play(g, g.turn(0, False), spy)
    assert (p.max_hp, p.hp) == (3, 1)
    assert [s.key for s in p.skills].count("t_gained") == 1


# ---------------------------------------------------------------- T20 [5.4, 2.5]
def _surge(character: str, faith: int, pay: bool = True) -> tuple[int, int, list[str]]:
    g = scenario([character, "blank"])
    g.p(0).faith = faith
    (c,) = g.give_cards(0, ["mana_surge"])
    s = Script(lambda a: pay if a.kind == "invoke" else ...)
    play(g, g.use_card(0, VirtualCard.of(g.card(c)), []), s)
    return len(g.hand(0)), g.p(0).faith, s.kinds(0)


def test_t20_talent_bonus_and_faith_top_up() -> None:
    assert _surge("sage", 0) == (3, 0, [])  # talent 智慧3 meets the need
    assert _surge("blank", 2) == (3, 0, ["invoke"])  # shortfall 2 paid in faith
    assert _surge("blank", 2, pay=False) == (2, 2, ["invoke"])
    assert _surge("blank", 1) == (2, 1, [])  # cannot pay: not offered


def test_t20_faith_skill_needs_its_cost() -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(0, "t_faith2")
    g.p(0).faith = 1
    assert not [o for o in g.play_options(0) if o["a"] == "skill"]
    g.p(0).faith = 2
    (_opt,) = [o for o in g.play_options(0) if o["a"] == "skill"]
    inst = g.p(0).skills[0]
    play(g, g.run_skill(0, inst, Ctx(me=0, skill=inst)))
    assert g.p(0).faith == 0 and len(g.hand(0)) == 1
    with pytest.raises(Exception, match="信仰值不足"):
        g.pay_faith(0, 1)
