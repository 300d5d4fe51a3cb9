"""Hidden information (glossary 3.7, 3.9, 3.10, 8.18): what the group may learn and what only
one player is told — checked on engine events and on the Chinese text rendered from them."""

from __future__ import annotations

import random

import pytest
from moe_soak_harness import HiddenCardLeak, PublicAudit, play_game, public_card_ids

from chronodice.render import moe as R
from chronodice.rules.moe import auto_answer
from chronodice.rules.moe.cards import VirtualCard
from chronodice.rules.moe.record import new_record, start
from chronodice.rules.moe.state import ALL
from chronodice.rules.moe.testing import Script, flip_first, play, scenario

NAMES = [f"P{i}" for i in range(8)]


def rendered(g, events):  # type: ignore[no-untyped-def]
    return R.render_events(g, events, NAMES)


def use(g, seat, key, targets, script=None):  # type: ignore[no-untyped-def]
    (cid,) = g.give_cards(seat, [key])
    play(g, g.use_card(seat, VirtualCard.of(g.card(cid)), targets), script)
    return cid


def test_3_9_placing_a_secret_names_no_card_in_public() -> None:
    g = scenario(["blank", "blank", "blank"])
    g.drain_events()
    mirror = use(g, 0, "mirror", [0])
    assert mirror in g.secrets(0)
    assert g.state.known[mirror] == [0]  # only its owner knows the face
    events = g.drain_events()
    assert not any(mirror in public_card_ids(e) for e in events)
    public, private = rendered(g, events)
    text = "\n".join(public)
    assert "放置了一张奥秘" in text and "镜之结界" not in text and R.card_text(g, mirror) not in text
    assert "使用了" not in text
    assert any(f"你放置了奥秘：{R.card_text(g, mirror)}" in line for line in private[0])
    assert set(private) == {0}
    # 3.9: flipped when triggered, it is shown to everybody
    play(
        g,
        g.use_card(1, VirtualCard.of(g.card(g.give_cards(1, ["attack"])[0])), [0]),
        Script(flip_first),
    )
    events = g.drain_events()
    flip = next(e for e in events if e["t"] == "secret_flip")
    assert flip["card"] == mirror
    assert "翻开了奥秘" in "\n".join(rendered(g, [flip])[0]) and g.state.known[mirror] == [ALL]


def test_3_7_steal_tells_the_victim_and_the_reshuffle() -> None:
    g = scenario(["blank"] * 3)
    mine = g.give_cards(1, ["recover", "defend"])
    g.drain_events()
    use(g, 0, "steal", [1], Script(lambda a: ["h1"] if a.kind == "choose_blind" else ...))
    events = g.drain_events()
    (taken,) = g.hand(0)
    assert taken in mine
    public, private = rendered(g, events)
    text = "\n".join(public)
    assert R.card_text(g, taken) not in text and "的手牌已洗混" in text
    victim = "\n".join(private[1])
    assert "你的手牌已洗混，新顺序：" in victim  # 3.7: the owner learns their new hand order
    assert f"获得了你的{R.card_text(g, taken)}" in victim
    assert f"你获得了：{R.card_text(g, taken)}" in "\n".join(private[0])
    assert 2 not in private


def test_one_hand_card_is_not_shuffled_and_equipment_taken_is_named() -> None:
    g = scenario(["blank"] * 3)
    g.give_cards(1, ["recover"])
    (bow,) = g.equip_cards(1, ["bow"])
    g.drain_events()
    draws = g.rng_draws
    use(g, 0, "steal", [1], Script(lambda a: [f"e{bow}"] if a.kind == "choose_blind" else ...))
    assert g.rng_draws == draws  # one hand card: no shuffle (3.7)
    events = g.drain_events()
    assert not any(e["t"] == "hand_shuffled" for e in events)
    public, private = rendered(g, events)
    assert f"获得了{R.card_text(g, bow)}" in "\n".join(public)  # equipment is public
    assert f"获得了你的{R.card_text(g, bow)}" in "\n".join(private[1])


def test_break_tells_the_victim_privately() -> None:
    g = scenario(["blank"] * 3)
    (rec,) = g.give_cards(2, ["recover"])
    g.drain_events()
    use(g, 0, "break", [2], Script(lambda a: ["h1"] if a.kind == "choose_blind" else ...))
    public, private = rendered(g, g.drain_events())
    assert rec in g.zone("discard")
    assert f"弃置了你的{R.card_text(g, rec)}" in "\n".join(private[2])
    assert f"弃置了{R.card_text(g, rec)}" in "\n".join(public)  # discarded face up: public


def test_audit_catches_a_secret_named_in_public() -> None:
    """The soak's audit fails when an event shows a hidden card, and when a 奥秘 named in public
    lies face down at the end of an input."""
    g = scenario(["blank", "blank"])
    (cid,) = g.give_cards(0, ["mirror"])
    audit = PublicAudit(g)
    with pytest.raises(HiddenCardLeak):
        g.emit("show", by=0, cards=[cid])
    g.set_known(cid, [ALL])
    g.emit("show", by=0, cards=[cid])  # known to all at that moment: allowed by the event check
    g.state.zones["hand:0"].remove(cid)
    g.secrets(0).append(cid)
    with pytest.raises(HiddenCardLeak):
        audit.after_step(g)


@pytest.mark.parametrize("seed", range(6))
def test_no_public_text_names_a_hidden_card_at_that_moment(seed: int) -> None:
    """Whole auto-played games (2–7 players); every event is rendered when it is emitted, and its
    public line may not contain the face of a card hidden from some player at that moment (faces
    also carried by a card everybody knows are not counted, so duplicate cards cannot mislead)."""
    players = 2 + seed
    _rec, g, _ev = start(new_record("demo", [str(i) for i in range(players)], seed=100 + seed))
    seen: list[str] = []

    def on_emit(game, ev):  # type: ignore[no-untyped-def]
        line = "\n".join(R.render_events(game, [ev], NAMES)[0])
        public = {R.card_text(game, c) for c, k in game.state.known.items() if ALL in k}
        hidden = {R.card_text(game, c) for c in game.state.cards if ALL not in game.state.known.get(c, ())}
        for face in hidden - public:
            assert face not in line, (ev, line)
        seen.append(ev["t"])

    g.on_emit = on_emit
    ai = random.Random(seed)
    while g.pending is not None:
        g.submit(g.pending.seat, auto_answer(g, g.pending, ai), source="auto")
        prompt = R.public_prompt(g, g.pending, NAMES) if g.pending is not None else ""
        assert "【" not in prompt
    assert {"use", "move", "damage"} <= set(seen)


def test_soak_runs_with_the_audit() -> None:
    res = play_game(5, 4)
    assert res.result


def test_another_players_trigger_prompt_does_not_name_a_secret_being_placed() -> None:
    """A watcher's "是否发动" prompt says what triggered it, but not which 奥秘 is being placed."""
    from chronodice.rules.moe.pack import SkillDef

    g = scenario(["blank", "blank"])
    watch = SkillDef(key="t_watch", name="旁观", kind="trigger", timing="use.declared", watch="others")
    g.pack = g.pack.model_copy(update={"skills": {**g.pack.skills, "t_watch": watch}})
    g.timings_used.add("use.declared")
    g.add_skill(1, "t_watch")
    prompts: list[str] = []

    def answer(ask):  # type: ignore[no-untyped-def]
        prompts.append(R.private_prompt(g, ask, NAMES[:2]))
        return None if ask.kind == "respond" else False

    use(g, 0, "mirror", [0], answer)
    (atk,) = g.give_cards(0, ["attack"])
    play(g, g.use_card(0, VirtualCard.of(g.card(atk)), [1]), answer)
    assert prompts[0].startswith("1号P0(白板)使用了牌，是否发动【旁观】") and "镜之结界" not in prompts[0]
    assert prompts[1].startswith("1号P0(白板)使用了【攻击】，是否发动【旁观】")


def test_exchange_tells_each_side_what_they_got() -> None:
    g = scenario(["blank", "blank", "blank"])
    mine = g.give_cards(0, ["attack"])
    theirs = g.give_cards(1, ["recover"])
    g.drain_events()
    use(g, 0, "barter", [1])
    _public, private = rendered(g, g.drain_events())
    assert f"你获得了：{R.card_text(g, theirs[0])}" in "\n".join(private[0])
    assert f"你获得了：{R.card_text(g, mine[0])}" in "\n".join(private[1])
