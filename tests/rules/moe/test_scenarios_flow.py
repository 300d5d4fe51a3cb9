"""萌E scenarios T21–T40 of moe-engine.md §3 (glossary §5–§8, §1.1), with exact outcomes."""

from __future__ import annotations

import pytest

from chronodice.core.errors import IllegalAction
from chronodice.rules.moe.base import Ctx, Frame
from chronodice.rules.moe.cards import VirtualCard
from chronodice.rules.moe.record import new_record, start
from chronodice.rules.moe.state import ALL
from chronodice.rules.moe.testing import Script, fired, first_option, index_of, play, scenario


def use(g, seat, key, targets, script=None):  # type: ignore[no-untyped-def]
    (cid,) = g.give_cards(seat, [key])
    return play(g, g.use_card(seat, VirtualCard.of(g.card(cid)), targets), script)


def effects(g, seat, effs, target=None, script=None):  # type: ignore[no-untyped-def]
    return play(g, g.run_effects(Ctx(me=seat, target=target), effs), script)


# ---------------------------------------------------------------- T21 [5.5]
def test_t21_losing_character_skills_keeps_equipment_skills() -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(0, "t_faith2")
    g.add_skill(0, "t_half")
    g.equip_cards(0, ["t_blade"])
    g.give_cards(0, ["attack"])
    effects(g, 0, [{"lose_all_skills": {"who": "me"}}])
    assert g.p(0).skills == []
    (opt,) = [o for o in g.play_options(0) if o["a"] == "skill"]
    assert opt["key"] == "t_blade_skill"


# ---------------------------------------------------------------- T22 [5.8 (1)]
def test_t22_transfer_target_skips_distance_but_not_self() -> None:
    g = scenario(["blank"] * 5)
    frame = g.push(Frame("use", 0, {"user": 0, "card": VirtualCard("attack"), "targets": [1]}))
    assert not g.in_range(0, 2)
    g.transfer_target(frame, 1, 2)
    assert frame.data["targets"] == [2]
    with pytest.raises(IllegalAction):
        g.transfer_target(frame, 2, 0)


# ---------------------------------------------------------------- T23 [5.8 (2)]
def test_t23_damage_transfer() -> None:
    g = scenario(["blank", "blank", "blank"])
    g.add_skill(1, "t_transfer")
    s = Script(
        lambda a: True if a.kind == "invoke" else ...,
        lambda a: [2] if a.kind == "choose_players" else ...,
    )
    play(g, g.damage(0, 1, 2, attribute="元素", channel="fireball"), s)
    assert (g.p(1).hp, g.p(2).hp) == (4, 2)
    assert (g.p(0).faith, g.p(1).faith, g.p(2).faith) == (1, 0, 1)
    b_end = index_of(g, "damage.finished", 1)
    c_in = index_of(g, "damage.inflicted", 2)
    assert 0 <= b_end < c_in
    dmg = [e for e in g.events if e["t"] == "damage"]
    assert dmg == [{"t": "damage", "source": 0, "victim": 2, "n": 2, "attribute": "元素", "hp": 2}]


# ---------------------------------------------------------------- T24 [5.9]
@pytest.mark.parametrize(("skill", "draws"), [("t_discard_seq", 2), ("t_discard_two", 1)])
def test_t24_one_by_one_vs_at_once(skill: str, draws: int) -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(0, "t_discard_draw")
    inst = g.add_skill(0, skill)
    g.give_cards(0, ["attack", "defend", "recover"])
    play(g, g.run_skill(0, inst, Ctx(me=0, skill=inst)))
    assert fired(g, "cards.discarded", 0) == draws
    assert len(g.hand(0)) == 3 - 2 + draws


# ---------------------------------------------------------------- T25 [5.16, 5.33]
def test_t25_hp_loss_death_vs_kill() -> None:
    g = scenario(["blank"] * 4)
    g.p(1).hp = 1
    play(g, g.lose_hp(1, 1))
    assert not g.p(1).alive and fired(g, "damage.inflicted") == 0
    assert next(e for e in g.events if e["t"] == "death")["killer"] is None
    assert all(p.faith == 0 for p in g.state.players) and not [e for e in g.events if e["t"] == "reward"]
    assert len(g.hand(0)) == 0
    g.p(2).hp = 1
    play(g, g.damage(0, 2, 1))
    assert not g.p(2).alive
    assert [e for e in g.events if e["t"] == "death"][-1]["killer"] == 0
    assert len(g.hand(0)) == 3  # 乱斗森林: the killer draws three


def test_t25_rescue_from_dying() -> None:
    g = scenario(["blank", "blank", "blank"])
    g.give_cards(2, ["recover"])
    g.p(1).hp = 1
    s = Script(first_option)
    play(g, g.damage(0, 1, 1), s)
    assert g.p(1).alive and g.p(1).hp == 1 and g.hand(2) == []


# ---------------------------------------------------------------- T26 [5.22–5.24]
def test_t26_recover_rules() -> None:
    g = scenario(["blank", "blank", "blank"])
    assert play(g, g.recover(0, 1)) == 0 and fired(g, "hp.recovered") == 0
    g.p(0).hp = 2
    play(g, g.recover_to(0, 9))
    assert g.p(0).hp == 4
    g.p(1).hp = -1
    play(g, g.recover(1, 1))
    assert g.p(1).hp == 0 and g.p(1).hp_value == 0 and g.p(1).injured


# ---------------------------------------------------------------- T27 [5.25]
def _choose(hand: int, alive: int) -> Script:
    g = scenario(["blank"] * 3)
    for s in range(alive, 3):
        g.p(s).alive = False
    g.give_cards(0, ["attack"] * hand)
    inst = g.add_skill(0, "t_choose")
    script = Script()
    play(g, g.run_skill(0, inst, Ctx(me=0, skill=inst)), script)
    return script


def test_t27_choose_one_offers_only_feasible_options() -> None:
    assert _choose(0, 3).kinds() == ["choose_players"]  # only "令一名其他角色摸一张牌"
    s = _choose(1, 3)
    assert s.kinds()[0] == "choose_option" and len(s.asks[0].options) == 2
    assert _choose(0, 1).kinds() == []


# ---------------------------------------------------------------- T28 [6.1]
def test_t28_extra_turn_order() -> None:
    g = scenario(["blank"] * 5)
    g.grant_extra_turn(4)
    assert g.upcoming_turns(6) == [4, 1, 2, 3, 4, 0]
    g.grant_extra_turn(3)
    assert g.upcoming_turns(7) == [3, 4, 1, 2, 3, 4, 0]
    assert g.next_turn() == (3, True, False)
    play(
        g,
        g.turn(3, True),
        lambda a: {"a": "end"} if a.kind == "play" else [] if a.kind == "choose_cards" else False,
    )
    assert fired(g, "turn.before_start", 3) == 1 and fired(g, "turn.after_end", 3) == 1


# ---------------------------------------------------------------- T29 [6.3]
def test_t29_immediate_extra_phase_has_no_before_after() -> None:
    g = scenario(["blank", "blank"])
    end = Script(lambda a: {"a": "end"} if a.kind == "play" else ...)
    play(g, g.extra_phase("play"), end)
    assert fired(g, "phase.play.start") == 1 and fired(g, "phase.play.end") == 1
    assert fired(g, "phase.play.before") == 0 and fired(g, "phase.play.after") == 0
    play(g, g.phase("play"), end)
    assert [fired(g, f"phase.play.{x}") for x in ("before", "start", "end", "after")] == [1, 2, 2, 1]


# ---------------------------------------------------------------- T30 [6.4]
def test_t30_skip_one_phase() -> None:
    g = scenario(["blank", "blank"])
    g.state.turn.seat = 0
    assert g.skip_phases(["play"])
    assert not g.skip_phases(["play"])  # cannot be skipped twice in a turn
    play(g, g.phase("play"))
    play(g, g.between("play", "discard"))
    assert fired(g, "phase.play.start") == 0 and fired(g, "phase.play.end") == 0
    assert fired(g, "phase.between.play.discard") == 1


# ---------------------------------------------------------------- T31 [6.4]
def test_t31_skip_two_adjacent_phases_at_once() -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(0, "long_sleep")
    g.p(0).hp = 2
    play(g, g.turn(0, False), lambda a: True if a.kind == "invoke" else ...)
    assert fired(g, "phase.between.draw.play") == 0
    assert fired(g, "phase.between.cast.draw") == 1 and fired(g, "phase.between.play.discard") == 1
    assert fired(g, "phase.draw.start") == 0 and fired(g, "phase.play.start") == 0
    assert g.p(0).hp == 3 and g.hand(0) == []


# ---------------------------------------------------------------- T32 [6.4]
def test_t32_skip_turn() -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(0, "t_skip_turn")
    play(g, g.turn(0, False), lambda a: True if a.kind == "invoke" else ...)
    assert fired(g, "turn.before_start", 0) == 1
    assert (
        fired(g, "turn.start") == 0
        and fired(g, "turn.after_end") == 0
        and fired(g, "phase.prepare.start") == 0
    )


def test_t32_skip_phase_skill_is_offered_before_the_phase() -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(0, "t_skip_draw")
    s = Script(lambda a: True if a.kind == "invoke" else {"a": "end"} if a.kind == "play" else ...)
    play(g, g.turn(0, False), s)
    invoke_at = [i for i, t in enumerate(g.trace) if t[0] == "phase.draw.before"]
    assert len(invoke_at) == 1 and fired(g, "phase.draw.start") == 0 and g.hand(0) == []
    assert fired(g, "phase.between.draw.play") == 1


# ---------------------------------------------------------------- T33 [7.4]
def test_t33_inserted_settlements_nest() -> None:
    g = scenario(["blank", "blank", "blank"])
    g.add_skill(1, "t_damaged_draw")
    g.add_skill(2, "t_obtain_watch")
    use(g, 0, "attack", [1])
    i_dmg = index_of(g, "damage.after_received", 1)
    i_obt = index_of(g, "cards.obtained", 1)
    i_fin = index_of(g, "damage.finished", 1)
    i_use = index_of(g, "use.finished", 0)
    assert 0 <= i_dmg < i_obt < i_fin < i_use
    depth = {t[0]: t[2] for t in g.trace}
    assert g.trace[i_obt][2] > g.trace[i_dmg][2] - 1 and depth["use.finished"] < g.trace[i_fin][2]
    assert g.p(2).marks == {"旁观": 1} and len(g.hand(1)) == 1


# ---------------------------------------------------------------- T34 [7.5, 7.7, 7.8]
def test_t34_cancel_offset_invalidate() -> None:
    g = scenario(["blank"] * 4)
    g.add_skill(2, "t_cancel_self")
    g.add_skill(3, "t_nullify_self")
    g.give_cards(1, ["defend"])
    s = Script(lambda a: first_option(a) if a.reason == "offset" else ...)
    use(g, 0, "volley", [1, 2, 3], s)
    assert [g.p(i).hp for i in (1, 2, 3)] == [4, 4, 4]
    assert fired(g, "use.offset", 1) == 1 and fired(g, "use.before_effect", 2) == 0
    assert fired(g, "use.before_effect", 3) == 1 and fired(g, "use.effect", 3) == 0
    h = scenario(["blank"] * 4)
    h.give_cards(1, ["defend"])
    use(h, 0, "volley", [1, 2, 3])  # nobody answers: each target is settled on its own
    assert [h.p(i).hp for i in (1, 2, 3)] == [3, 3, 3]
    k = scenario(["blank"] * 3)
    for seat in (1, 2):
        k.add_skill(seat, "t_cancel_self")
    use(k, 0, "volley", [1, 2])
    assert fired(k, "use.effect") == 0 and [e["t"] for e in k.events].count("use_void") == 1


# ---------------------------------------------------------------- T35 [7.6]
def test_t35_ignore_armour_is_scoped() -> None:
    g = scenario(["blank"] * 3)
    g.equip_cards(0, ["silver_sword"])
    g.equip_cards(1, ["holy_armour"])
    g.add_skill(2, "t_dark_echo")
    use(g, 0, "attack_dark", [1])
    assert g.p(1).hp == 3  # A's 暗 damage landed; C's inserted 暗 damage was prevented
    assert [e["who"] for e in g.events if e["t"] == "prevented"] == [1]
    h = scenario(["blank"] * 2)
    h.equip_cards(1, ["holy_armour"])
    use(h, 0, "attack_dark", [1])
    assert h.p(1).hp == 4


# ---------------------------------------------------------------- T36 [8.12]
def test_t36_give_with_distribution() -> None:
    g = scenario(["blank"] * 3)
    a, b, c = g.give_cards(0, ["attack", "defend", "recover"])
    s = Script(lambda ask: [[1, [a, b]], [2, [c]]] if ask.kind == "distribute" else ...)
    effects(g, 0, [{"give": {"who": "me", "max": 3}}], script=s)
    assert g.hand(1) == [a, b] and g.hand(2) == [c] and g.hand(0) == []
    obtained = [t for t in g.trace if t[0] == "cards.obtained"]
    assert [t[1] for t in obtained] == [1, 2]
    assert index_of(g, "cards.lost", 0) < index_of(g, "cards.obtained", 1)
    with pytest.raises(IllegalAction):
        play(g, g.give(1, [[1, [a]]]))
    bad = Script(lambda ask: [[1, [a]], [1, [b]]] if ask.kind == "distribute" else ...)
    with pytest.raises(IllegalAction):
        effects(g, 1, [{"give": {"who": "me", "max": 2}}], script=bad)


# ---------------------------------------------------------------- T37 [8.15, 8.25]
def test_t37_fill_hand_and_discard_all() -> None:
    g = scenario(["blank", "blank"])
    g.give_cards(0, ["attack"])
    play(g, g.fill_hand(0, 4))
    assert len(g.hand(0)) == 4
    g.give_cards(1, ["attack"] * 5)
    n = fired(g, "cards.obtained")
    play(g, g.fill_hand(1, 4))
    assert len(g.hand(1)) == 5 and fired(g, "cards.obtained") == n
    h = scenario(["blank", "blank"])
    ctx = Ctx(me=0)
    play(h, h.run_effects(ctx, [{"discard_all": {"who": "me"}}]))
    assert ctx.vars["discarded"] == 0 and fired(h, "cards.discarded") == 0


# ---------------------------------------------------------------- T38 [8.24]
def test_t38_judge_with_retrial() -> None:
    g = scenario(["blank", "blank"])
    g.add_skill(1, "t_retrial")
    (top,) = g.stack_top(["attack/spade/5"])
    (heart,) = g.give_cards(1, ["defend/heart/6"])
    s = Script(lambda a: True if a.kind == "invoke" else ...)
    result = play(g, g.judge(0), s)
    assert result == heart and g.card(result).colour == "red"
    assert top in g.zone("discard") and heart in g.zone("discard") and g.zone("processing") == []
    plain = scenario(["blank", "blank"])
    (top2,) = plain.stack_top(["attack/spade/9"])
    assert play(plain, plain.judge(0)) == top2


# ---------------------------------------------------------------- T39 [8.19, 8.20, 8.21]
def test_t39_show_reveal_exchange() -> None:
    g = scenario(["blank", "blank"])
    (cid,) = g.give_cards(0, ["attack"])
    play(g, g.show(0, [cid]))
    assert cid in g.hand(0) and g.state.known[cid] == [ALL]
    top = g.zone("deck")[0]
    assert play(g, g.reveal_top(0, 1)) == [top] and top in g.zone("processing")
    h = scenario(["blank", "blank"])
    mine = h.give_cards(0, ["attack", "defend"])
    play(h, h.exchange(0, 1))
    assert h.hand(0) == [] and h.hand(1) == mine and fired(h, "cards.exchanged") == 1
    assert h.state.known[mine[0]] == [0, 1]


# ---------------------------------------------------------------- T40 [1.1]
def test_t40_map_revealed_at_start() -> None:
    rec = new_record("demo", ["1", "2", "3"], seed=5)
    rec, g, events = start(rec)
    assert events[0]["t"] == "map" and g.state.map == events[0]["map"] and g.state.map in ("melee", "temple")
    assert g.pending is not None and g.pending.kind == "choose_option" and g.pending.reason == "character"


def test_t40_win_ends_the_game_mid_settlement() -> None:
    g = scenario(["blank"] * 3)
    g.p(2).alive = False
    g.p(1).hp = 1
    (cid,) = g.give_cards(0, ["volley"])
    play(g, g.use_card(0, VirtualCard.of(g.card(cid)), [1]))
    assert g.state.winners == [0] and g.state.result == "last_alive"
    assert fired(g, "use.finished") == 0 and g.pending is None and g.stack == []


def test_t28_extra_turns_played_in_order_by_the_loop() -> None:
    from chronodice.rules.moe.auto import default_answer

    g = scenario(["blank"] * 5)
    g.state.cursor = 0  # A's turn is the one now ending
    g.grant_extra_turn(4)
    g.grant_extra_turn(3)
    g.run(g.loop())
    turns: list[int] = []
    while len(turns) < 7:
        turns.extend(e["seat"] for e in g.drain_events() if e["t"] == "turn")
        g.submit(g.pending.seat, default_answer(g.pending))
    assert turns[:7] == [3, 4, 1, 2, 3, 4, 0]  # D-E-B-C-D-E-A
    assert [e for e in g.state.players if not e.alive] == []
