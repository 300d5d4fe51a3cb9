"""Hand numbers that hold for the whole turn (issue 27: on a phone ``.moe play 3`` twice played
two different cards, because the numbers shifted after each play).

Each seat's numbers live in the session (``numbers``): at a new turn they are the hand's order;
within a turn a card keeps its number, a card that left leaves a gap, and a card that arrived
takes the next new number.  Every command that names a hand card by number reads them, and every
prompt and hand view shows them.

>>> slots = renumber_one([7, 8, 9], [])
>>> slots
[7, 8, 9]
>>> renumber_one([9, 7, 12], slots)
[7, None, 9, 12]
"""

from __future__ import annotations

from typing import Any

from chronodice.core.errors import IllegalAction
from chronodice.rules.moe.engine import Game

NUMBERS = "numbers"
"""Session key: ``{"turn": turn_no, "seats": {seat: [card id or None, …]}}``."""


def renumber_one(hand: list[int], slots: list[int | None]) -> list[int | None]:
    """``slots`` (number i+1 → card id) brought up to ``hand``: kept cards keep their number,
    gone ones leave ``None``, new ones are appended."""
    now = set(hand)
    out: list[int | None] = [c if c in now else None for c in slots]
    have = {c for c in out if c is not None}
    out += [c for c in hand if c not in have]
    while out and out[-1] is None:
        out.pop()
    return out


def renumber(state: dict[str, Any], g: Game) -> None:
    """Bring every seat's numbers up to date (a new turn starts them afresh)."""
    book = state.get(NUMBERS)
    turn = g.state.turn_no
    fresh = not isinstance(book, dict) or book.get("turn") != turn
    seats: dict[str, list[int | None]] = {} if fresh else dict(book["seats"])  # type: ignore[index]
    for p in g.state.players:
        key = str(p.seat)
        seats[key] = renumber_one(list(g.hand(p.seat)), [] if fresh else list(seats.get(key) or []))
    state[NUMBERS] = {"turn": turn, "seats": seats}


def slots_of(state: dict[str, Any], g: Game, seat: int) -> list[int | None]:
    """The seat's numbers now (brought up to date first)."""
    renumber(state, g)
    return list(state[NUMBERS]["seats"][str(seat)])


def card_number(state: dict[str, Any], g: Game, seat: int, card: int) -> int:
    """The number ``card`` in ``seat``'s hand goes by this turn (``state`` is not changed)."""
    return number_map(dict(state), g, seat)[card]


def number_map(state: dict[str, Any], g: Game, seat: int) -> dict[int, int]:
    """Card id → its number, for the renderers."""
    return {c: i + 1 for i, c in enumerate(slots_of(state, g, seat)) if c is not None}


def card_at(state: dict[str, Any], g: Game, seat: int, n: int) -> int:
    """The seat's hand card numbered ``n``."""
    slots = slots_of(state, g, seat)
    cid = slots[n - 1] if 1 <= n <= len(slots) else None
    if cid is None:
        left = "、".join(str(i + 1) for i, c in enumerate(slots) if c is not None)
        raise IllegalAction(f"你没有{n}号手牌（现有：{left or '无'}）")
    return cid


__all__ = ["NUMBERS", "card_at", "number_map", "renumber", "renumber_one", "slots_of"]
