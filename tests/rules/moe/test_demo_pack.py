"""Every card, skill and map card of the demo pack, and the remaining §8 operations."""

from __future__ import annotations

from chronodice.rules.moe.base import Ctx
from chronodice.rules.moe.cards import VirtualCard
from chronodice.rules.moe.engine import GameOver
from chronodice.rules.moe.state import ALL
from chronodice.rules.moe.testing import Script, fired, first_option, flip_first, play, scenario

YES = Script(lambda a: True if a.kind == "invoke" else ..., flip_first)


def use(g, seat, key, targets, script=None, as_key=None):  # type: ignore[no-untyped-def]
    (cid,) = g.give_cards(seat, [key])
    v = VirtualCard.treated(as_key, [g.card(cid)]) if as_key else VirtualCard.of(g.card(cid))
    play(g, g.use_card(seat, v, targets), script)
    return cid


def skill(g, seat, key):  # type: ignore[no-untyped-def]
    return next(s for s in g.p(seat).skills if s.key == key)


# ---------------------------------------------------------------- characters
def test_alice_wonderland_and_grow_shrink() -> None:
    for invoke, drawn in ((True, 3), (False, 2)):
        g = scenario(["alice", "blank"])
        play(g, g.run_phase("draw"), lambda a, invoke=invoke: invoke if a.kind == "invoke" else ...)
        assert len(g.hand(0)) == drawn
    assert g.hand_limit(0) == 5  # 4 HP + 1


def test_red_hood_relic_and_alert() -> None:
    g = scenario(["red_hood", "blank", "blank"])
    relic = skill(g, 0, "hunter_relic")
    (opt,) = [o for o in g.play_options(0) if o["a"] == "skill"]
    assert opt["targets"] == [1, 2]  # in range 1 of three seats
    play(g, g.run_skill(0, relic, Ctx(me=0, target=1, skill=relic)))
    assert g.p(1).hp == 2 and not [o for o in g.play_options(0) if o["a"] == "skill"]
    use(g, 1, "attack", [0])
    assert len(g.hand(0)) == 1 and g.p(0).hp == 3


def test_snow_white_awakening_then_kiss() -> None:
    g = scenario(["snow_white", "blank"])
    g.p(0).hp = 1
    play(g, g.run_phase("prepare"))
    p = g.p(0)
    assert (p.max_hp, p.hp) == (2, 2) and [s.key for s in p.skills] == ["poison_apple", "waking_kiss"]
    g.give_cards(1, ["defend", "recover"])
    play(g, g.damage(1, 0, 1), YES)
    assert len(g.hand(1)) == 1 and len(g.zone("discard")) == 1


def test_cinderella_midnight_and_slipper() -> None:
    g = scenario(["cinderella", "blank", "blank", "blank"])
    assert g.attack_range(0) == 2
    g.equip_cards(0, ["bow"])
    assert g.attack_range(0) == 5
    g.state.turn.phase = "play"
    assert not [o for o in g.play_options(0) if o["a"] == "skill"]  # faith 0 < 2
    g.p(0).faith = 3
    g.give_cards(0, ["attack"])
    inst = skill(g, 0, "midnight")
    play(g, g.run_skill(0, inst, Ctx(me=0, skill=inst)))
    assert len(g.hand(0)) == 3 and g.p(0).faith == 1
    assert not [o for o in g.play_options(0) if o["a"] == "skill"]  # once per phase


def test_big_wolf_greed_and_disguise() -> None:
    g = scenario(["big_wolf", "blank", "blank", "blank"])
    (own,) = g.give_cards(0, ["attack"])
    g.give_cards(1, ["defend"])
    (opt,) = [o for o in g.play_options(0) if o["a"] == "skill"]
    assert opt["targets"] == [1] and opt["cost_n"] == 1  # seat 3 owns nothing and opt["cost_from"] == [own]
    inst = skill(g, 0, "greed")
    play(g, g.run_skill(0, inst, Ctx(me=0, target=1, skill=inst), cost_cards=[own]))
    assert g.card(g.hand(0)[0]).key == "defend" and g.hand(1) == [] and own in g.zone("discard")
    g.p(0).faith = 1
    s = Script(lambda a: True if a.kind == "invoke" else [3] if a.kind == "choose_players" else ...)
    play(g, g.damage(2, 0, 1, attribute="光"), s)
    assert (g.p(0).hp, g.p(3).hp, g.p(0).faith) == (5, 3, 0)
    play(g, g.damage(2, 0, 1, attribute="元素"), s)
    assert g.p(0).hp == 4


def test_sleeping_beauty_dreamland() -> None:
    g = scenario(["sleeping_beauty", "blank", "blank"])
    g.state.turn.seat = 1
    play(g, g.fire("turn.after_end", 1, {}), YES)
    assert g.state.extra_turns == []  # not damaged this round
    play(g, g.damage(1, 0, 1))
    play(g, g.fire("turn.after_end", 1, {}), YES)
    play(g, g.fire("turn.after_end", 2, {}), YES)  # once per round
    assert g.state.extra_turns == [0]


def test_pinocchio_lie() -> None:
    for mine, theirs, hand, hp in (
        ("attack/spade/13", "attack/spade/1", 2, 4),
        ("attack/spade/1", "attack/spade/13", 0, 3),
    ):
        g = scenario(["pinocchio", "blank"])
        g.give_cards(0, [mine])
        g.give_cards(1, [theirs])
        inst = skill(g, 0, "lie")
        play(g, g.run_skill(0, inst, Ctx(me=0, target=1, skill=inst)))
        assert (len(g.hand(0)), g.p(0).hp) == (hand, hp)


def test_peter_pan_distances() -> None:
    g = scenario(["peter_pan", "blank", "blank", "blank", "blank"])
    assert g.distance(0, 2) == 1 and g.distance(0, 1) == 1  # -1, at least 1
    assert g.distance(2, 0) == 3 and g.distance(1, 0) == 2  # +1 from others


# ---------------------------------------------------------------- cards
def test_fireball_distance_offset_and_counter() -> None:
    g = scenario(["blank"] * 6)
    _mode, targets = g.card_targets(0, "fireball")
    assert targets == [1, 2, 4, 5]
    use(g, 0, "fireball", [2])
    assert g.p(2).hp == 3 and [e["attribute"] for e in g.events if e["t"] == "damage"] == ["元素"]
    g.give_cards(2, ["defend"])
    use(g, 0, "fireball", [2], Script(first_option))
    assert g.p(2).hp == 3
    g.give_cards(4, ["counter"])
    use(
        g,
        0,
        "fireball",
        [2],
        Script(lambda a: first_option(a) if a.reason == "nullify" else ...),
    )
    assert g.p(2).hp == 3 and g.hand(4) == []


def test_heal_light_dark_pact_prepare() -> None:
    g = scenario(["blank", "blank", "blank"])
    g.p(0).hp, g.p(2).hp = 2, 1
    use(g, 0, "heal_light", g.card_targets(0, "heal_light")[1])
    assert [p.hp for p in g.state.players] == [3, 4, 2]
    use(g, 1, "dark_pact", [])
    assert g.p(1).hp == 3 and len(g.hand(1)) == 3 and g.p(1).faith == 0
    g.give_cards(2, ["attack"])
    use(g, 2, "prepare", [])
    assert len(g.hand(2)) == 4


def test_steal_break_duel_barter_gift() -> None:
    g = scenario(["blank"] * 4)
    g.give_cards(2, ["defend"])
    assert 2 not in g.card_targets(0, "steal")[1]  # distance 2
    g.give_cards(1, ["recover"])
    use(g, 0, "steal", [1])
    assert g.card(g.hand(0)[0]).key == "recover" and g.hand(1) == []
    (bow,) = g.equip_cards(3, ["bow"])
    use(g, 0, "break", [3])
    assert bow in g.zone("discard")
    h = scenario(["blank", "blank"])
    h.give_cards(0, ["attack/spade/13"])
    h.give_cards(1, ["attack/heart/2"])
    use(h, 0, "duel", [1])
    assert (h.p(0).hp, h.p(1).hp, h.p(0).faith) == (4, 3, 1)
    k = scenario(["blank", "blank", "blank"])
    mine = k.give_cards(0, ["attack", "defend"])
    theirs = k.give_cards(1, ["recover"])
    use(k, 0, "barter", [1])
    assert k.hand(0) == theirs and k.hand(1) == mine
    a, b = k.hand(1)
    use(k, 1, "gift", [], Script(lambda ask: [[0, [a]], [2, [b]]] if ask.kind == "distribute" else ...))
    assert len(k.hand(0)) == 2 and k.hand(2) == [b] and len(k.hand(1)) == 1


def test_secrets_mirror_thorn_prophecy() -> None:
    g = scenario(["blank", "blank"])
    (mirror,) = g.set_secret(1, ["mirror"])
    use(g, 0, "attack", [1], YES)
    assert g.p(1).hp == 4 and len(g.hand(1)) == 1 and mirror in g.zone("discard")
    (thorn,) = g.set_secret(1, ["thorn"])
    play(g, g.damage(0, 1, 1), YES)
    assert g.p(0).hp == 3 and thorn in g.zone("discard")
    assert [e["attribute"] for e in g.events if e["t"] == "damage"][-1] == "暗"
    g.set_secret(0, ["prophecy"])
    top = g.zone("deck")[:3]
    s = Script(
        lambda a: True if a.kind == "invoke" else list(reversed(a.options)) if a.kind == "arrange" else ...,
        flip_first,
    )
    play(g, g.fire("phase.prepare.start", 0, {}), s)
    assert g.zone("deck")[:3] == list(reversed(top))
    assert all(g.is_known_to(c, 0) and not g.is_known_to(c, 1) for c in top)


def test_wand_converts_attack_and_weapons_replace() -> None:
    g = scenario(["blank", "blank"])
    (wand,) = g.equip_cards(0, ["wand"])
    (atk,) = g.give_cards(0, ["attack"])
    opts = [o for o in g.play_options(0) if o["a"] == "card"]
    assert [(o["card"], o["as"]) for o in opts] == [(atk, None), (atk, "attack_elem")]
    play(g, g.use_card(0, VirtualCard.treated("attack_elem", [g.card(atk)]), [1]))
    assert [e["attribute"] for e in g.events if e["t"] == "damage"] == ["元素"]
    use(g, 0, "bow", [0])
    assert wand in g.zone("discard") and g.attack_range(0) == 4


def test_guard_shield_judgement() -> None:
    for top, hp in (("recover/heart/2", 4), ("recover/spade/1", 3)):
        g = scenario(["blank", "blank"])
        g.equip_cards(1, ["guard_shield"])
        g.stack_top([top])
        use(g, 0, "attack", [1], YES)
        assert g.p(1).hp == hp


# ---------------------------------------------------------------- maps
def test_kingdoms_ally_kill_penalty_and_team_win() -> None:
    g = scenario(["blank"] * 4, map_key="kingdoms")
    for p in g.state.players:
        p.team = p.seat % 2
    g.give_cards(0, ["attack", "defend"])
    g.equip_cards(0, ["bow"])
    g.p(2).hp = 1
    play(g, g.damage(0, 2, 1))  # killing an ally: discard all cards
    assert g.hand(0) == [] and g.equip(0) == [] and g.state.winners is None
    g.p(1).hp = 1
    play(g, g.damage(0, 1, 1))  # killing an enemy: draw two
    assert len(g.hand(0)) == 2
    g.p(3).hp = 1
    play(g, g.damage(0, 3, 1))
    assert g.state.winners == [0, 2] and g.state.result == "team"


def test_temple_round_end() -> None:
    g = scenario(["blank", "blank", "blank"], map_key="temple")
    g.p(0).faith = g.p(1).faith = 2
    play(g, g.round_end())
    assert g.state.winners is None  # tied at the top: nobody
    g.p(1).faith = 1
    try:
        play(g, g.round_end())
    except GameOver:  # pragma: no cover - play() stops the driver on GameOver
        pass
    assert g.state.winners == [0] and g.state.result == "faith"


# ---------------------------------------------------------------- §8 operations
def test_put_remove_view_substitute_replace() -> None:
    g = scenario(["blank", "blank"])
    (bow,) = g.equip_cards(0, ["bow"])
    (wand,) = g.give_cards(0, ["wand"])
    assert play(g, g.put_equipment(0, wand)) is False and wand in g.hand(0)  # 8.4: slot occupied
    (c1, c2) = g.give_cards(0, ["attack", "defend"])
    play(g, g.put_on_character(0, [c1], "梦", face_down=True))
    assert g.zone("pile:0:梦") == [c1] and g.state.known[c1] == [0]
    play(g, g.remove_from_game([c2]))
    assert g.zone("out") == [c2] and g.state.known[c2] == [ALL]
    (h,) = g.give_cards(1, ["recover"])
    g.view(0, [h])
    assert g.is_known_to(h, 0) and h in g.hand(1)
    (new,) = g.give_cards(0, ["silver_sword"])
    play(g, g.substitute(0, new, bow))  # 8.16
    assert new in g.equip(0) and bow in g.zone("discard")
    play(g, g.replace(0, wand, new))  # 8.17
    assert wand in g.equip(0) and new in g.hand(0)
    assert fired(g, "cards.obtained", 0) >= 1


def test_weapon_whose_range_is_used_cannot_be_operated() -> None:
    g = scenario(["blank"] * 5)
    (sword,) = g.equip_cards(0, ["silver_sword"])
    g.add_skill(2, "t_break_source")
    use(g, 0, "attack", [2])  # distance 2: the sword's range is in use
    assert g.p(2).hp == 3 and sword in g.equip(0)
    play(g, g.damage(0, 2, 1))  # outside that use the sword can be discarded
    assert sword in g.zone("discard")


def test_play_card_goes_through_processing() -> None:
    g = scenario(["blank", "blank"])
    (cid,) = g.give_cards(0, ["defend"])
    play(g, g.play_card(0, cid))
    assert cid in g.zone("discard") and fired(g, "play.responded", 0) == 1 and fired(g, "cards.lost", 0) == 1


def test_change_user_and_player_count() -> None:
    g = scenario(["blank"] * 4)
    g.add_skill(2, "t_take_over")
    use(g, 0, "attack", [1])
    (dmg,) = [e for e in g.events if e["t"] == "damage"]
    assert dmg["source"] == 2 and (g.p(2).faith, g.p(0).faith) == (1, 0)  # 5.17: C is now the user
    g.p(3).alive = False
    scope = g.scope(Ctx(me=0))
    from chronodice.rules.moe.expr import evaluate

    assert evaluate("player_count()", scope) == 4 and evaluate("alive_count()", scope) == 3  # 4.15 vs 4.12
