"""Seeded games with a controller per seat (random, 托管, AI) and a tally of who harmed whom.

Used by the 托管/AI tests (``tests/rules/moe/test_ai*.py``) and ``benchmarks/bench_moe_ai.py``.
A controller is ``"random"`` (:func:`~.auto.auto_answer`, a random legal player), ``"takeover"``
(a seat on 托管) or ``"ai"`` (an AI seat: its user id is ``ai:N``).  The :class:`Tally` counts,
per controlled seat, damage dealt to allies and enemies, kills, card or skill uses whose reading
harms an ally, and gifts — read from the game's output events as they are emitted.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .ai import AI_PREFIX
from .ai_judge import card_effects, friends, impact
from .auto import auto_answer, takeover_answer
from .base import Ctx
from .cards import VirtualCard
from .engine import Game
from .record import new_record, start

CONTROLLERS = ("random", "takeover", "ai")
MAX_INPUTS = 20_000


@dataclass
class Tally:
    """What each seat did to its own side and to the others (keys: seat)."""

    ally_damage: Counter[int] = field(default_factory=Counter)
    enemy_damage: Counter[int] = field(default_factory=Counter)
    ally_kills: Counter[int] = field(default_factory=Counter)
    enemy_kills: Counter[int] = field(default_factory=Counter)
    ally_harmful_uses: Counter[int] = field(default_factory=Counter)
    gifts_to_allies: Counter[int] = field(default_factory=Counter)
    gifts_to_others: Counter[int] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            getattr(self, name).update(getattr(other, name))


@dataclass
class SimResult:
    seed: int
    winners: list[int]
    result: str
    inputs: int
    tally: Tally
    teams: list[int]


def ally_of(g: Game, a: int, b: int) -> bool:
    """``b`` is on ``a``'s side and is not ``a``."""
    return a != b and b in friends(g, a)


def watch(g: Game, tally: Tally) -> None:
    """Count harm and gifts from the game's events as they are emitted."""

    def on_emit(g: Game, ev: dict[str, Any]) -> None:
        t = ev["t"]
        if t == "damage" and isinstance(ev.get("source"), int):
            src, victim = ev["source"], ev["victim"]
            if src != victim:
                (tally.ally_damage if ally_of(g, src, victim) else tally.enemy_damage)[src] += ev["n"]
        elif t == "death" and isinstance(ev.get("killer"), int) and ev["killer"] != ev["who"]:
            k = ev["killer"]
            (tally.ally_kills if ally_of(g, k, ev["who"]) else tally.enemy_kills)[k] += 1
        elif t == "give":
            (tally.gifts_to_allies if ally_of(g, ev["by"], ev["to"]) else tally.gifts_to_others)[
                ev["by"]
            ] += 1
        elif t == "use" and not ev.get("response"):
            user, key = ev["user"], ev["card"]["key"]
            for target in ev.get("targets", []):
                if ally_of(g, user, target) and _harms(g, user, key, target):
                    tally.ally_harmful_uses[user] += 1

    g.on_emit = on_emit


def _harms(g: Game, user: int, key: str, target: int) -> bool:
    imp = impact(
        g, card_effects(g, key), Ctx(me=user, target=target, card=VirtualCard(key=key), data={"user": user})
    )
    return target in imp.harm or imp.unknown_harm


def play(seed: int, controllers: list[str], *, map_key: str | None, pack: str = "demo") -> SimResult:
    """One seeded game to its end, each seat answered by its controller."""
    users = [f"{AI_PREFIX}{i + 1}" if c == "ai" else str(10000 + i) for i, c in enumerate(controllers)]
    rec = new_record(pack, users, seed=seed, map_key=map_key)
    tally = Tally()
    _rec, g, _ev = start(rec)
    watch(g, tally)
    rng = random.Random(seed * 7919 + len(controllers))
    n = 0
    while g.pending is not None:
        ask = g.pending
        seat = ask.waiting[0]
        view = ask.for_seat(seat)
        answer = auto_answer(g, view, rng) if controllers[seat] == "random" else takeover_answer(g, view, rng)
        g.submit(seat, answer, source="auto")
        g.drain_events()
        n += 1
        if n >= MAX_INPUTS:
            raise AssertionError(f"game {seed} does not end")
    return SimResult(
        seed, list(g.state.winners or []), g.state.result, n, tally, [p.team for p in g.state.players]
    )
