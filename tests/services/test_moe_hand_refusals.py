"""萌E refusals about a hand typed in the group (issue 44, defect 2): what a hidden card decides
— a card not held, a card that cannot be used now, a hand number — goes to the player by
private message, and the group hears one line that is the same whatever the hand holds.

Each test plays one game to the point of the command, then gives the player two different hands
(the same game otherwise: card identities swapped with cards at the bottom of the deck in the
turn-start snapshot) and sends the same command against each."""

from __future__ import annotations

import copy
from typing import Any

from helpers import moe_game as game
from helpers import moe_started, run

from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.record import rebuild

G = "20002"
USERS = ["30001", "30002", "30003"]
NO_DEFEND_A = ["attack", "recover", "fireball", "steal", "break", "duel", "wand", "bow"]
NO_DEFEND_B = ["heal_light", "dark_pact", "mana_surge", "attack_dark", "exile", "fortune", "gift", "prepare"]
RECOVER_A = ["recover", "attack", "steal", "break", "duel", "wand", "bow", "fireball"]
RECOVER_B = ["recover", "heal_light", "dark_pact", "mana_surge", "exile", "fortune", "gift", "prepare"]


def group_text(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if not r.private)


def whisper_to(replies: list[Reply], user: str) -> str:
    return "\n".join(r.text for r in replies if r.private and r.to_user == user)


async def play_phase(app: App) -> tuple[dict[str, Any], Game]:
    """A started game at its first play phase (everything before it passed)."""
    await moe_started(app, G, USERS)
    state, g = await game(app)
    while g.pending.kind != "play":
        await run(app, ".moe pass", user=state["players"][g.pending.seat]["user"], group=G)
        state, g = await game(app)
    return state, g


def rigged(state: dict[str, Any], g: Game, seat: int, keys: list[str]) -> dict[str, Any]:
    """``state`` with ``seat``'s hand made of the first ``len(hand)`` ``keys``: each hand card
    trades identity with a card of that key at the bottom of the deck, in the snapshot the game
    replays from; nothing else changes."""
    st = copy.deepcopy(state)
    rec = st["record"]
    cards = rec["snapshot"]["state"]["cards"]
    spare = [str(c) for c in reversed(g.zone("deck"))]  # the bottom: not drawn since
    for cid, key in zip(g.hand(seat), keys, strict=False):
        mine = str(cid)
        if cards[mine][0] == key:
            continue
        other = next(c for c in spare if cards[c][0] == key)
        spare.remove(other)
        cards[mine], cards[other] = cards[other], cards[mine]
    g2 = rebuild(rec, check=False)
    rec["digest"] = g2.state.digest()
    assert [g2.card(c).key for c in g2.hand(seat)] == keys[: len(g2.hand(seat))]
    return st


async def save(app: App, state: dict[str, Any]) -> None:
    await app.store.sessions.apply_session(G, "moe", lambda _old: (copy.deepcopy(state), None), claim=None)


async def against(
    app: App, state: dict[str, Any], g: Game, seat: int, hands: list[list[str]], cmd: str
) -> list[list[Reply]]:
    """``cmd`` sent in the group by ``seat``'s player once against each of ``hands``."""
    user = state["players"][seat]["user"]
    out = []
    for keys in hands:
        await save(app, rigged(state, g, seat, keys))
        out.append(await run(app, cmd, user=user, group=G))
    return out


def hidden(state: dict[str, Any], g: Game, seat: int, replies: list[list[Reply]]) -> None:
    """The group text of ``replies`` is the same for every hand, the one content-free line, and
    names no card and no hand number."""
    texts = {group_text(r) for r in replies}
    assert len(texts) == 1, texts
    (text,) = texts
    assert text == f"{state['players'][seat]['name']}，回复已私聊发送（出牌、响应请私聊骰娘）"
    assert not any(cd.name in text for cd in g.pack.cards.values()) and "现有" not in text, text


# ---------------------------------------------------------------------- the repros
async def test_play_a_card_not_held_in_the_group_is_told_privately(app: App) -> None:
    state, g = await play_phase(app)
    seat = g.pending.seat
    user = state["players"][seat]["user"]
    hands = [NO_DEFEND_A, NO_DEFEND_B]
    replies = await against(app, state, g, seat, hands, ".moe play 防御")
    hidden(state, g, seat, replies)
    for r in replies:
        assert whisper_to(r, user) == "你的手牌中没有【防御】"
    # typed in private chat it is answered there, as before; the game did not move
    assert "你的手牌中没有【防御】" in group_text(await run(app, ".moe play 防御", user=user, group=None))
    _state, after = await game(app)
    assert after.pending.kind == "play" and after.pending.seat == seat


async def test_play_a_card_that_cannot_be_used_now_in_the_group_is_told_privately(app: App) -> None:
    state, g = await play_phase(app)
    seat = g.pending.seat
    assert all(p.hp == p.max_hp for p in g.state.players)  # nobody injured: 恢复 has no use
    hands = [RECOVER_A, RECOVER_B]
    replies = await against(app, state, g, seat, hands, ".moe play 恢复")
    hidden(state, g, seat, replies)
    for r in replies:
        assert whisper_to(r, state["players"][seat]["user"]) == "这张牌现在不能使用"


async def test_card_by_a_number_not_held_in_the_group_is_told_privately(app: App) -> None:
    state, g = await play_phase(app)
    seat = g.pending.seat
    user = state["players"][seat]["user"]
    hands = [NO_DEFEND_A, NO_DEFEND_B]
    replies = await against(app, state, g, seat, hands, ".moe card 9")
    numbers = "、".join(str(i + 1) for i in range(len(g.hand(seat))))
    for r in replies:
        assert whisper_to(r, user) == f"你没有9号手牌（现有：{numbers}）"
    texts = {group_text(r) for r in replies}
    name = state["players"][seat]["name"]
    assert texts == {f"{name}，牌的说明请看私聊"}
    # a number that is held reads the same in the group: only the private message differs
    held = await run(app, ".moe card 1", user=user, group=G)
    assert group_text(held) == f"{name}，牌的说明请看私聊"
    _s, g2 = await game(app)
    assert R.card_text(g2, g2.hand(seat)[0]) in whisper_to(held, user)


async def test_respond_with_a_card_not_held_in_the_group_is_told_privately(app: App) -> None:
    state, g = await play_phase(app)
    seat = g.pending.seat
    target = (seat + 1) % len(USERS)
    await save(app, rigged(state, g, seat, ["attack"] * 8))
    got = await run(app, f".moe play 攻击 {target + 1}号", user=state["players"][seat]["user"], group=None)
    assert got, "the attack was played"
    state, g = await game(app)
    ask = g.pending
    assert ask.kind == "respond" and target in ask.waiting, ask
    hands = [NO_DEFEND_A, NO_DEFEND_B]
    replies = await against(app, state, g, target, hands, ".moe resp 防御")
    hidden(state, g, target, replies)
    for r in replies:
        assert whisper_to(r, state["players"][target]["user"]) == "你的手牌中没有【防御】"
    _state, after = await game(app)
    assert after.pending is not None and target in after.pending.waiting  # still asked


# ---------------------------------------------------------------------- what stays public
async def test_the_group_prompt_points_to_private_play(app: App) -> None:
    state, g = await play_phase(app)
    text = R.public_prompt(g, g.pending, [p["name"] for p in state["players"]])
    assert text.endswith("出牌（请私聊骰娘出牌）") and ".moe play" not in text


async def test_refusals_about_public_facts_are_still_said_in_the_group(app: App) -> None:
    state, g = await play_phase(app)
    other = state["players"][(g.pending.seat + 1) % len(USERS)]["user"]
    assert "现在不是在等你的回应" in group_text(await run(app, ".moe play 1", user=other, group=G))
    user = state["players"][g.pending.seat]["user"]
    assert group_text(await run(app, ".moe play 火星", user=user, group=G)) == "没有名为「火星」的牌"
    assert group_text(await run(app, ".moe resp 防御", user=user, group=G)) == "现在不需要响应"
