"""Scenario builder for tests and benchmarks: fixed seats, characters, hands and a stacked deck.

>>> g = scenario(["blank", "blank"])
>>> cid = g.give_cards(0, ["attack"])[0]
>>> g.card(cid).key, cid in g.hand(0)
('attack', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .base import Ask
from .engine import Game, Gen
from .pack import load_pack
from .record import initial_state


def scenario(characters: list[str], *, pack: str = "test", seed: int = 0, map_key: str = "melee") -> Game:
    """A started game (no generator running) with ``characters`` in seats 0.., empty hands."""
    pk = load_pack(pack)
    g = Game(pk, initial_state(pk, [str(10001 + i) for i in range(len(characters))]), random.Random(seed))
    for seat, key in enumerate(characters):
        g.assign_character(seat, key)
    g.state.map = map_key
    g.state.started = True
    g.state.round = 1
    g.state.turn.seat = 0
    g.state.cursor = 0
    return g


def _find(g: Game, key: str, suit: str | None = None, rank: int | None = None) -> int:
    for cid in g.zone("deck"):
        c = g.card(cid)
        if c.key == key and (suit is None or c.suit == suit) and (rank is None or c.rank == rank):
            return cid
    raise LookupError(f"no {key} {suit} {rank} left in the deck")


def _take(g: Game, key: str) -> int:
    spec = key.split("/")
    return _find(g, spec[0], spec[1] if len(spec) > 1 else None, int(spec[2]) if len(spec) > 2 else None)


def _place(g: Game, seat: int, keys: list[str], zone: str) -> list[int]:
    out = []
    for key in keys:
        cid = _take(g, key)
        g.state.zones["deck"].remove(cid)
        g.zone(f"{zone}:{seat}").append(cid)
        g.set_known(cid, [seat] if zone in ("hand", "secret") else [-1])
        out.append(cid)
    return out


def give_cards(g: Game, seat: int, keys: list[str]) -> list[int]:
    """Put deck cards (``key`` or ``key/suit/rank``) straight into a hand (no timings)."""
    return _place(g, seat, keys, "hand")


def equip_cards(g: Game, seat: int, keys: list[str]) -> list[int]:
    return _place(g, seat, keys, "equip")


def set_secret(g: Game, seat: int, keys: list[str]) -> list[int]:
    return _place(g, seat, keys, "secret")


def stack_top(g: Game, keys: list[str]) -> list[int]:
    """Move the named deck cards to the top, first key on top."""
    ids = [_take(g, k) for k in keys]
    deck = g.zone("deck")
    for cid in ids:
        deck.remove(cid)
    deck[0:0] = ids
    return ids


Game.give_cards = give_cards  # type: ignore[attr-defined]
Game.equip_cards = equip_cards  # type: ignore[attr-defined]
Game.set_secret = set_secret  # type: ignore[attr-defined]
Game.stack_top = stack_top  # type: ignore[attr-defined]


def play(
    g: Game, gen: Gen, answer: Callable[[Any], Any] | None = None, *, answers: list[Any] | None = None
) -> Any:
    """Run ``gen`` to the end, answering each request with ``answer(ask)`` or the next of
    ``answers`` (default: decline / first legal).  Returns the generator's return value."""
    from .auto import default_answer

    queue = list(answers or [])
    g.run(gen)
    guard = 0
    while g.pending is not None:
        guard += 1
        assert guard < 1000, "script does not end"
        ask = g.pending
        if queue:
            ans = queue.pop(0)
        elif answer is not None:
            ans = answer(ask)
        else:
            ans = default_answer(ask)
        g.submit(ask.seat, ans)
    return g.result_value


class Script:
    """Answers requests for :func:`play`: the first rule returning something other than ``...``
    wins, else the timeout default.  Every request seen is kept in ``asks``."""

    def __init__(self, *rules: Callable[[Ask], Any]) -> None:
        self.rules = list(rules)
        self.asks: list[Ask] = []

    def __call__(self, ask: Ask) -> Any:
        from .auto import default_answer

        self.asks.append(ask)
        for rule in self.rules:
            value = rule(ask)
            if value is not ...:
                return value
        return default_answer(ask)

    def kinds(self, seat: int | None = None) -> list[str]:
        return [a.kind for a in self.asks if seat is None or a.seat == seat]


def first_option(ask: Ask) -> Any:
    """A :class:`Script` rule: answer a response window or a 奥秘 pause with its first card (a
    pass when it offers none: everyone is asked, holding a card or not)."""
    if ask.kind != "respond":
        return ...
    return ask.options[0] if ask.options else None


def flip_first(ask: Ask) -> Any:
    """A :class:`Script` rule: flip the first 奥秘 a 奥秘 pause offers (pass when none)."""
    return first_option(ask) if ask.reason == "secret" else ...


def fired(g: Game, name: str, about: int | None = None) -> int:
    """How many times timing ``name`` fired (about ``about`` when given)."""
    return sum(1 for t in g.trace if t[0] == name and (about is None or t[1] == about))


def index_of(g: Game, name: str, about: int | None = None, start: int = 0) -> int:
    """Position of the first firing of ``name`` in the trace (from ``start``), -1 if none."""
    for i in range(start, len(g.trace)):
        t = g.trace[i]
        if t[0] == name and (about is None or t[1] == about):
            return i
    return -1
