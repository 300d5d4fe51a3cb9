"""Simultaneous character choice with one deadline (issue 27: six players waited up to a minute
each, in turn).

The engine still settles the choices seat by seat (its log replays as before), but the service
asks everyone at once: at ``.moe start`` each seat gets its offer privately, answers whenever it
likes (``.moe choose 2`` or a bare ``2`` in private chat), and the answers wait in the session
(``picks``) until the engine reaches that seat.  One deadline for the whole choice
(``pick_deadline``, the 选择 timeout, 60 s by default): when it passes, everyone who has not
chosen gets the first character offered.  Seats on 托管 (AI seats) choose when the engine asks.
"""

from __future__ import annotations

import random
from typing import Any

from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.rules.moe.base import Ask
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.record import rebuild

from ._common import fallback, run_auto

OFFERS = "offers"
PICKS = "picks"
PICK_DEADLINE = "pick_deadline"
LATE = "late_picks"
LIMIT = 64


def choosing(g: Game) -> bool:
    """Whether the game still waits for character choices."""
    return g.pending is not None and g.pending.kind == "choose_option" and g.pending.reason == "character"


def offers_of(rec: dict[str, Any]) -> list[list[str]]:
    """Every seat's offer (character keys), read from a scratch copy of the new game: the offers
    are dealt before the first choice, so choosing the first each time shows them all."""
    g = rebuild(rec, check=False)
    out: list[list[str]] = [[] for _ in g.state.players]
    for _ in range(LIMIT):
        if not choosing(g):
            break
        ask = g.pending
        assert ask is not None
        out[ask.seat] = list(ask.options)
        g.submit(ask.seat, 0, source="auto")
    for p in g.state.players:
        if not out[p.seat] and p.character:
            out[p.seat] = [p.character]
    return out


def begin(state: dict[str, Any], rec: dict[str, Any], at: float) -> None:
    """Open the choice: every seat's offer, no picks yet, one deadline."""
    state[OFFERS] = offers_of(rec)
    state[PICKS] = {}
    state[PICK_DEADLINE] = at + float(state["timeouts"]["choice"])


def waiting_seats(state: dict[str, Any], g: Game) -> list[int]:
    """Seats that still have to choose (more than one offer, no pick, not on 托管)."""
    picks = state.get(PICKS) or {}
    return [
        p.seat
        for p in g.state.players
        if len((state.get(OFFERS) or [[]] * (p.seat + 1))[p.seat]) > 1
        and str(p.seat) not in picks
        and not p.auto
        and not p.character
    ]


def prompts(state: dict[str, Any], g: Game, names: list[str]) -> list[Reply]:
    """The private offer of every seat that still has to choose."""
    out = []
    secs = int(state["timeouts"]["choice"])
    for seat in waiting_seats(state, g):
        ask = Ask("choose_option", seat, "character", options=list(state[OFFERS][seat]))
        text = R.private_prompt(g, ask, names) + f"\n（回复序号即可；{secs}秒内未选择则取第一个）"
        out.append(
            Reply.whisper(text, to_user=state["players"][seat]["user"], fallback=fallback(state, seat))
        )
    return out


def announce(state: dict[str, Any]) -> str:
    secs = int(state["timeouts"]["choice"])
    return f"请各位私聊选择角色（{secs}秒内；回复序号即可，超时默认第一个）"


def settle(state: dict[str, Any], g: Game, rng: random.Random) -> None:
    """Give the engine every pick it can take now (seat order), letting 托管 seats choose."""
    picks = state.get(PICKS) or {}
    for _ in range(LIMIT):
        if not choosing(g):
            run_auto(g, rng, state)  # the game began: a seat on 托管 (an AI seat) may be first to act
            return
        ask = g.pending
        assert ask is not None
        key = str(ask.seat)
        if key in picks:
            late = ask.seat in (state.get(LATE) or [])
            g.submit(ask.seat, int(picks[key]), source="timeout" if late else "player")
        elif g.p(ask.seat).auto:
            run_auto(g, rng, state)
        else:
            return


def pick(state: dict[str, Any], g: Game, seat: int, n: int, rng: random.Random) -> str:
    """Record ``seat``'s choice of its ``n``-th character and settle what can be; returns the
    chooser's private line."""
    offer = (state.get(OFFERS) or [])[seat] if seat < len(state.get(OFFERS) or []) else []
    picks = state.setdefault(PICKS, {})
    if len(offer) <= 1 or g.p(seat).character:
        name = g.p(seat).name or (g.pack.characters[offer[0]].name if offer else "")
        raise IllegalAction(f"你的角色已确定：【{name}】")
    if str(seat) in picks:
        raise IllegalAction(f"你已经选择了【{g.pack.characters[offer[int(picks[str(seat)])]].name}】")
    if not 1 <= n <= len(offer):
        raise IllegalAction(f"请选择1到{len(offer)}之间的序号")
    picks[str(seat)] = n - 1
    settle(state, g, rng)
    name = g.pack.characters[offer[n - 1]].name
    left = len(waiting_seats(state, g))
    return f"你选择了【{name}】" + (f"，还在等{left}人选择" if left and choosing(g) else "")


def expire(state: dict[str, Any], g: Game, rng: random.Random) -> str:
    """The deadline passed: the first offer for everyone who has not chosen; the group's note."""
    late = waiting_seats(state, g)
    picks = state.setdefault(PICKS, {})
    for seat in late:  # submitted as a timeout (two AFK turns put a player on 托管)
        picks[str(seat)] = 0
    state[LATE] = sorted({*state.get(LATE, []), *late})
    settle(state, g, rng)
    who = "、".join(f"{s + 1}号{state['players'][s]['name']}" for s in late)
    return f"{who}超时未选择角色，已选第一个" if late else ""


__all__ = [
    "announce",
    "begin",
    "choosing",
    "expire",
    "offers_of",
    "pick",
    "prompts",
    "settle",
    "waiting_seats",
]
