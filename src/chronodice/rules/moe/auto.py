"""Default answers (timeouts), 托管 and AI seats, and the random legal player.

* Timeout default: decline what is optional (可/需), take the first legal option of what is
  forced (须, 5.11) — except the discard phase, which discards the most recently drawn cards —
  and end the play phase.
* :func:`takeover_answer`: what a seat on 托管 plays (team-aware, to win: attack enemies,
  defend, heal, never harm an ally) and what an AI seat plays (the same, plus risks such as a
  拼点): :mod:`.ai`.
* :func:`auto_answer`: a random legal choice that prefers acting — the soak tests' and
  benchmarks' explorer, and the "random player" the AI is measured against (the name is kept
  for them; it no longer plays 托管).
* Choices are logged as inputs like any answer, so replay never re-runs this code.
* A player who conceded (投降, or kicked) stops at once: until they die at the next turn
  boundary they only give the timeout default (end the play phase, decline, the forced minimum).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .ai import policy_answer
from .engine import Ask

if TYPE_CHECKING:
    from .engine import Game

MAX_INPUTS = 20_000
"""An auto-played game (the soak's, the balance table's) that takes more inputs does not end."""


def default_answer(ask: Ask) -> Any:
    """The answer applied when the deadline of ``ask`` passes."""
    k = ask.kind
    if k == "invoke":
        return False
    if k in ("choose_cards", "choose_blind", "choose_players"):
        if ask.optional:
            return []
        if ask.reason == "discard_phase":
            return list(ask.options[-ask.lo :])
        return list(ask.options[: ask.lo])
    if k in ("choose_option", "order"):
        return 0
    if k == "respond":
        return None
    if k == "distribute":
        return [] if ask.optional else [[ask.info["to"][0], list(ask.options[: ask.lo])]]
    if k == "arrange":
        return list(ask.options)
    if k == "play":
        return {"a": "end"}
    raise ValueError(k)


def takeover_answer(game: Game, ask: Ask, rng: random.Random) -> Any:
    """The answer of a seat on 托管 or an AI seat (:mod:`.ai`); the timeout default for a
    player who conceded."""
    if game.p(ask.seat).flags.get("conceded"):
        return default_answer(ask)
    return policy_answer(game, ask, rng)


def auto_answer(game: Game, ask: Ask, rng: random.Random) -> Any:
    """A random legal answer that tends to act; the timeout default for a player who conceded."""
    if game.p(ask.seat).flags.get("conceded"):
        return default_answer(ask)
    k = ask.kind
    if k == "invoke":
        return rng.random() < 0.7
    if k in ("choose_cards", "choose_blind", "choose_players"):
        lo = ask.lo
        hi = max(lo, ask.hi)
        n = rng.randint(lo, min(hi, len(ask.options)))
        if ask.optional and rng.random() < 0.3:
            return []
        return rng.sample(list(ask.options), n)
    if k in ("choose_option", "order"):
        return rng.randrange(len(ask.options))
    if k == "respond":
        if not ask.options:  # nothing to answer with: the same one tap as declining
            return None
        return rng.choice(ask.options) if rng.random() < 0.8 else None
    if k == "distribute":
        if rng.random() < 0.4:
            return []
        n = rng.randint(ask.lo, ask.hi)
        cards = rng.sample(list(ask.options), n)
        to = rng.sample(list(ask.info["to"]), rng.randint(1, min(n, len(ask.info["to"]))))
        dist: dict[int, list[int]] = {s: [] for s in to}
        for i, c in enumerate(cards):
            dist[to[i] if i < len(to) else rng.choice(to)].append(c)
        return [[s, cs] for s, cs in dist.items()]
    if k == "arrange":
        order = list(ask.options)
        rng.shuffle(order)
        return order
    if k == "play":
        acts = [o for o in ask.options if o["a"] != "end"]
        if not acts or rng.random() < 0.05:
            return {"a": "end"}
        opt = rng.choice(acts)
        ans: dict[str, Any] = {"a": opt["a"], "targets": []}
        if opt["mode"] == "one":
            ans["targets"] = [rng.choice(opt["targets"])]
        if opt["a"] == "card":
            ans["card"], ans["as"] = opt["card"], opt.get("as")
        else:
            ans["uid"] = opt["uid"]
        if opt.get("cost_n"):
            ans["cost"] = rng.sample(list(opt["cost_from"]), opt["cost_n"])
        return ans
    raise ValueError(k)
