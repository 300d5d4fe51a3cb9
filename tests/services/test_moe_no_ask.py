"""Issue 44: ``.moe 免问`` — a seat says once that it does not want to be asked for 反制/恢复,
this turn or this game, and the windows close at a moment that does not depend on its hand.

The hidden-information test plays one game to a play phase, then gives two seats that opted out
different hands (one or the other holds the pack's 【反制】, or neither: card identities swapped with cards at the bottom
of the deck in the turn-start snapshot, as in ``test_moe_hand_refusals``) and plays the same
【火球术】 against each: the group hears the same lines, and the game waits for the same seats with
the same deadlines at every step."""

from __future__ import annotations

import copy
from typing import Any

from helpers import moe_game as game
from helpers import moe_started, run

from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.rules.moe.base import Ask
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.optout import active, covers, setting, skips
from chronodice.rules.moe.record import rebuild
from chronodice.rules.moe.testing import scenario
from chronodice.services.moe._common import NO_ASK
from chronodice.services.moe.numbers import number_map

G = "20002"
USERS = ["30001", "30002", "30003", "30004"]
FIREBALL = ["fireball", "attack", "defend", "attack", "defend", "recover", "recover", "recover"]
WITH_COUNTER = ["counter", "attack", "defend", "recover", "recover", "recover"]
WITHOUT = ["attack", "attack", "defend", "recover", "recover", "recover"]
"""Hands that differ only in one hidden card (the pack has one 【反制】)."""

Step = tuple[str, str, tuple[int, ...], tuple[int, ...], Any, tuple[str, ...]]
"""(kind, reason, seats waited for, seats answered, deadline) of the open request, and the
group texts waiting in the outbox (a game's group texts queue there once one did)."""


def group_text(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if not r.private)


def whisper_to(replies: list[Reply], user: str) -> str:
    return "\n".join(r.text for r in replies if r.private and r.to_user == user)


def answer(state: dict[str, Any], g: Game) -> tuple[str, str]:
    """(user, command): the first seat waited for passes, or takes the first legal choice."""
    seat = g.pending.waiting[0]
    ask = g.pending.for_seat(seat)
    cmd = ".moe pass"
    if ask.kind == "choose_cards" and not ask.optional:
        nums = number_map(state, g, seat)
        cmd = ".moe choose " + " ".join(str(nums[c]) for c in ask.options[: ask.lo])
    elif ask.kind in ("choose_players", "choose_option", "order", "choose_blind") and not ask.optional:
        first = [o + 1 for o in ask.options[: ask.lo]] if ask.kind == "choose_players" else [1]
        cmd = ".moe choose " + " ".join(map(str, first))
    return state["players"][seat]["user"], cmd


async def play_phase(app: App) -> tuple[dict[str, Any], Game]:
    """A started 4-player game at its next play phase (everything before it answered)."""
    state, g = await game(app)
    for _ in range(40):
        if g.pending.kind == "play":
            return state, g
        user, cmd = answer(state, g)
        await run(app, cmd, user=user, group=G)
        state, g = await game(app)
    raise AssertionError("no play phase")


def rigged(state: dict[str, Any], g: Game, hands: dict[int, list[str]]) -> dict[str, Any]:
    """``state`` with each seat's hand made of the first cards of its ``hands`` entry (identities
    swapped with deck cards in the snapshot the game replays from); nothing else changes."""
    st = copy.deepcopy(state)
    rec = st["record"]
    cards = rec["snapshot"]["state"]["cards"]
    spare = [str(c) for c in reversed(g.zone("deck"))]
    for seat, keys in hands.items():
        for cid, key in zip(g.hand(seat), keys, strict=False):
            mine = str(cid)
            if cards[mine][0] == key:
                continue
            other = next(c for c in spare if cards[c][0] == key)
            spare.remove(other)
            cards[mine], cards[other] = cards[other], cards[mine]
    g2 = rebuild(rec, check=False)
    rec["digest"] = g2.state.digest()
    for seat, keys in hands.items():
        assert [g2.card(c).key for c in g2.hand(seat)] == keys[: len(g2.hand(seat))]
    return st


async def save(app: App, state: dict[str, Any]) -> None:
    await app.store.sessions.apply_session(G, "moe", lambda _old: (copy.deepcopy(state), None), claim=None)


def step_of(state: dict[str, Any], g: Game) -> Step:
    ask = g.pending
    queued = tuple(e["text"] for e in state.get("outbox") or [])
    return (
        ask.kind,
        ask.reason,
        tuple(ask.waiting),
        tuple(sorted(ask.answers)),
        state.get("deadline"),
        queued,
    )


async def drive(app: App, first: str, user: str) -> tuple[list[str], list[Step]]:
    """Send ``first`` in the group as ``user``, then pass every request until the next play
    prompt: the group texts and the open request after each command."""
    texts = [group_text(await run(app, first, user=user, group=G))]
    state, g = await game(app)
    steps = [step_of(state, g)]
    for _ in range(40):
        if g.pending.kind == "play":
            return texts, steps
        who, cmd = answer(state, g)
        texts.append(group_text(await run(app, cmd, user=who, group=G)))
        state, g = await game(app)
        steps.append(step_of(state, g))
    raise AssertionError("the turn does not get back to a play prompt")


async def setup(app: App) -> tuple[dict[str, Any], Game, int, list[int]]:
    """The first play phase; the current seat and the others in 下家 order."""
    await moe_started(app, G, USERS)
    state, g = await play_phase(app)
    me = g.pending.seat
    return state, g, me, [(me + i) % 4 for i in (1, 2, 3)]


async def no_ask(app: App, state: dict[str, Any], seat: int, span: str) -> list[Reply]:
    return await run(app, f".moe 免问 {span}", user=state["players"][seat]["user"], group=G)


# ---------------------------------------------------------------------- hidden information
async def test_opted_out_holders_and_non_holders_close_the_window_alike(app: App) -> None:
    state, g, me, (o1, o2, o3) = await setup(app)
    for seat in (o1, o2):
        said = group_text(await no_ask(app, state, seat, "本局"))
        assert said.startswith("本局不再询问你反制/恢复"), said
    state, g = await game(app)
    assert set(state[NO_ASK]) == {str(o1), str(o2)}
    fire = f".moe play 火球术 {o3 + 1}号"
    deals = {
        "o1 holds 反制": {o1: WITH_COUNTER, o2: WITHOUT},
        "o2 holds 反制": {o1: WITHOUT, o2: WITH_COUNTER},
        "nobody": {o1: WITHOUT, o2: WITHOUT},
    }
    runs = {}
    for name, hands in deals.items():
        await save(app, rigged(state, g, {me: FIREBALL, **hands}))
        runs[name] = await drive(app, fire, state["players"][me]["user"])
    texts, steps = runs["nobody"]
    for name, got in runs.items():
        assert got == runs["nobody"], name
    heard = "\n".join([*texts, *steps[-1][5]])
    assert "火球术" in heard, heard
    # the 反制 window waited for o3 alone, the opted-out seats passed at once, answers recorded
    assert steps[0][:4] == ("respond", "nullify", (o3,), tuple(sorted((o1, o2))))
    assert "【反制】" not in heard  # nobody countered, holder or not


async def test_without_the_opt_out_a_holder_is_asked(app: App) -> None:
    """The contrast: the same deal, nobody opted out: the window waits for all three."""
    state, g, me, (o1, o2, o3) = await setup(app)
    await save(app, rigged(state, g, {me: FIREBALL, o1: WITH_COUNTER}))
    replies = await run(app, f".moe play 火球术 {o3 + 1}号", user=state["players"][me]["user"], group=G)
    state, g = await game(app)
    assert (g.pending.reason, g.pending.waiting) == ("nullify", [o1, o2, o3])
    prompt = whisper_to(replies, state["players"][o1]["user"])
    assert R.NO_ASK_HINT in prompt and "反制" in prompt


# ---------------------------------------------------------------------- how long it lasts
async def test_the_turn_opt_out_expires_at_the_next_turn(app: App) -> None:
    state, g, me, (o1, o2, o3) = await setup(app)
    await no_ask(app, state, o2, "本回合")
    state, g = await game(app)
    await save(app, rigged(state, g, {me: FIREBALL}))
    await run(app, f".moe play 火球术 {o3 + 1}号", user=state["players"][me]["user"], group=G)
    state, g = await game(app)
    assert o2 not in g.pending.waiting and o2 in g.pending.answers
    _texts, _steps = await drive(app, ".moe pass", state["players"][g.pending.waiting[0]]["user"])
    await run(app, ".moe end", user=state["players"][me]["user"], group=G)
    state, g = await play_phase(app)
    assert g.pending.seat == o1  # the next turn: o2's 本回合 has run out
    assert not active(g, state[NO_ASK][str(o2)])
    await save(app, rigged(state, g, {o1: FIREBALL}))
    await run(app, f".moe play 火球术 {o3 + 1}号", user=state["players"][o1]["user"], group=G)
    state, g = await game(app)
    assert (g.pending.reason, g.pending.waiting) == ("nullify", [o2, o3, me])


async def test_the_game_opt_out_lasts_until_off_and_the_own_turn_still_prompts(app: App) -> None:
    state, g, me, (o1, o2, o3) = await setup(app)
    await no_ask(app, state, o1, "本局")
    await run(app, ".moe end", user=state["players"][me]["user"], group=G)
    state, g = await play_phase(app)
    assert g.pending.seat == o1  # its own turn: asked to play as usual
    await save(app, rigged(state, g, {o1: FIREBALL}))
    replies = await run(app, ".moe hand", user=state["players"][o1]["user"], group=None)
    assert "火球术" in whisper_to(replies, state["players"][o1]["user"])
    await run(app, ".moe end", user=state["players"][o1]["user"], group=G)
    state, g = await play_phase(app)
    assert g.pending.seat == o2  # two turns later, still opted out
    await save(app, rigged(state, g, {o2: FIREBALL}))
    await run(app, f".moe play 火球术 {o3 + 1}号", user=state["players"][o2]["user"], group=G)
    state, g = await game(app)
    assert (g.pending.reason, g.pending.waiting) == ("nullify", [o3, me])
    assert o1 in g.pending.answers
    assert group_text(await no_ask(app, state, o1, "关")) == "已恢复询问反制/恢复"
    state, g = await game(app)
    assert str(o1) not in state[NO_ASK]


async def test_phone_zero_one_passes_and_opts_out_for_the_turn(app: App) -> None:
    state, g, me, (o1, o2, o3) = await setup(app)
    await save(app, rigged(state, g, {me: FIREBALL, o1: WITH_COUNTER}))
    await run(app, f".moe play 火球术 {o3 + 1}号", user=state["players"][me]["user"], group=G)
    replies = await run(app, "0 1", user=state["players"][o1]["user"], group=None)
    assert "本回合不再询问你反制/恢复" in replies[0].text  # said in the private chat
    state, g = await game(app)
    assert g.pending.waiting == [o2, o3] and g.pending.answers == {o1: None}
    assert state[NO_ASK][str(o1)] == setting("turn", g.state.turn_no)


# ---------------------------------------------------------------------- the rule (public facts)
def test_the_rule_reads_public_facts_only() -> None:
    g = scenario(["alice", "red_hood", "snow_white"], pack="demo")
    window = Ask("respond", 1, "nullify", seats=[1, 2], choices={1: [], 2: []})
    assert skips(g, window, 1, setting("turn", g.state.turn_no))
    assert not skips(g, window, 1, None)
    assert not covers(g, Ask("respond", 0, "nullify", seats=[0], choices={0: []}), 0)  # own turn
    assert not covers(g, Ask("respond", 1, "offset", seats=[1], choices={1: []}), 1)  # 防御: asked
    assert not covers(g, Ask("respond", 1, "rescue", info={"dying": 1}, seats=[1, 2], choices={}), 1)
    assert covers(g, Ask("respond", 2, "rescue", info={"dying": 1}, seats=[1, 2], choices={}), 2)
    turn, whole = setting("turn", g.state.turn_no), setting("game", g.state.turn_no)
    g.state.turn_no += 1
    assert not active(g, turn) and active(g, whole)
