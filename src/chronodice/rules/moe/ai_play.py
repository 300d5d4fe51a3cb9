"""The play phase of 托管 and AI seats: score every legal action, take the best, else end.

Scores (higher first; nothing above 0 ends the phase):

* heal an injured self or ally (more when at 1 HP), equip into an empty slot, place a 奥秘,
  draw cards, gain faith — the core both styles share;
* both styles harm enemies (issue 44: a 托管 that never attacked lost or drew nearly every
  game against a random player): damage first (the enemy with the least HP, more when it may
  die), then taking or discarding their cards;
* the risky style (AI seats) also plays a 拼点 holding a 10+ and pays its own HP for cards at
  3 HP or more; 托管 never risks its own 血量 for a player who is away;
* never an action whose reading (:mod:`.ai_judge`) may harm an ally.

Only public facts and the seat's own hand are read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .ai_judge import (
    Impact,
    card_effects,
    enemies,
    find_op,
    friends,
    harms_side,
    impact,
    ops_in,
    redirect_risk,
    skill_effects,
)
from .base import Ctx
from .cards import VirtualCard

if TYPE_CHECKING:
    from .engine import Ask, Game


@dataclass(frozen=True)
class Style:
    """How a seat plays: ``attack`` — harms enemies on its own turn; ``risk`` — may pay its own
    HP or play a 拼点 (AI seats only)."""

    name: str
    attack: bool
    risk: bool


TAKEOVER = Style("托管", attack=True, risk=False)
AI = Style("AI", attack=True, risk=True)

HEAL_OPS = frozenset({"recover", "recover_to"})
DRAW_OPS = frozenset({"draw", "fill_hand", "arrange_top"})


@dataclass
class View:
    """One decision: the game, the seat deciding, its style and the policy's rng."""

    g: Game
    seat: int
    style: Style
    rng: random.Random

    @property
    def mine(self) -> set[int]:
        return friends(self.g, self.seat)

    def card_value(self, cid: int) -> float:
        """How much the seat wants to keep one of its own cards (discards take the lowest)."""
        g = self.g
        card = g.card(cid)
        cd = g.cdef(card.key)
        rules = g.pack.rules
        if card.key == rules.rescue_card:
            v = 8.0 if g.p(self.seat).injured else 6.5
        elif card.key in (rules.defend_card, rules.nullify_card):
            v = 6.0
        elif cd.per_turn is not None:
            v = 5.0 if self.style.attack else 2.0
        elif cd.category == "equipment":
            slot_used = g.weapon(self.seat) if cd.slot == "weapon" else g.armour(self.seat)
            v = 1.0 if slot_used is not None else 4.0
        elif cd.action_kind == "secret":
            v = 0.5 if any(g.card(c).key == card.key for c in g.secrets(self.seat)) else 3.5
        else:
            v = 3.0
        return v + card.rank / 100

    def cheapest(self, cids: list[Any], n: int) -> list[Any]:
        return sorted(cids, key=self.card_value)[:n]


def play_answer(v: View, ask: Ask) -> dict[str, Any]:
    """The best scored action of ``ask``'s options, or ending the phase."""
    best: tuple[float, dict[str, Any]] | None = None
    for opt in ask.options:
        if opt["a"] == "end":
            continue
        got = score_option(v, opt)
        if got is None:
            continue
        score, ans = got
        score += v.rng.random() * 0.01
        if score > 0 and (best is None or score > best[0]):
            best = (score, ans)
    return best[1] if best is not None else {"a": "end"}


def score_option(v: View, opt: dict[str, Any]) -> tuple[float, dict[str, Any]] | None:
    """(score, answer) for one play option; ``None`` when the seat must not take it."""
    g, seat = v.g, v.seat
    ans: dict[str, Any] = {"a": opt["a"], "targets": []}
    penalty = 0.0
    if opt["a"] == "card":
        key = opt.get("as") or g.card(opt["card"]).key
        ans["card"], ans["as"] = opt["card"], opt.get("as")
        cd = g.cdef(key)
        if cd.category == "equipment":
            return _equip_score(v, key), ans
        if cd.action_kind == "secret":
            return 3.5, ans
        effects = card_effects(g, key)
        card: VirtualCard | None = VirtualCard(key=key)
        spent = [opt["card"]]
    else:
        ans["uid"] = opt["uid"]
        key, penalty = _skill_key(v, opt["uid"])
        if key is None:
            return None
        effects = skill_effects(g, key)
        card, spent = None, []
    if opt.get("cost_n"):
        cost = v.cheapest([c for c in opt["cost_from"] if c not in spent], opt["cost_n"])
        if len(cost) < opt["cost_n"]:
            return None
        ans["cost"] = cost
        spent = spent + cost
        penalty += sum(v.card_value(c) for c in cost) / 3
    ops = ops_in(effects)
    if "pindian" in ops and not _strong_pindian(v, spent):
        return None
    targets: list[int | None] = list(opt["targets"]) if opt["mode"] in ("one", "all") else [None]
    if opt["mode"] == "self":
        targets = [seat]
    scored = [(_target_score(v, effects, card, t, ops), t) for t in targets]
    if opt["mode"] == "one":
        ok = [(s, t) for s, t in scored if s is not None]
        if not ok:
            return None
        s, t = max(ok, key=lambda x: x[0])
        ans["targets"] = [t]
        return s - penalty, ans
    if any(s is None for s, _t in scored):
        return None
    return sum(s for s, _t in scored if s is not None) - penalty, ans


def _skill_key(v: View, uid: Any) -> tuple[str | None, float]:
    """The skill of a play option and what using it costs in score (faith, repeats)."""
    if isinstance(uid, str) and uid.startswith("e"):
        return uid.split(":", 1)[1], 0.0
    inst = next((s for s in v.g.p(v.seat).skills if s.uid == uid), None)
    if inst is None:
        return None, 0.0
    sd = v.g.sdef(inst.key)
    if inst.turn_stamp == v.g.state.turn_no and inst.used_turn >= 2:
        return None, 0.0  # an unlimited skill: twice a turn is enough (the phase always ends)
    return inst.key, sd.faith_cost * 0.5


def _equip_score(v: View, key: str) -> float:
    cd = v.g.cdef(key)
    used = v.g.weapon(v.seat) if cd.slot == "weapon" else v.g.armour(v.seat)
    return 5.0 if used is None else -1.0


def _strong_pindian(v: View, spent: list[int]) -> bool:
    """A 拼点 only for the attacking style holding a 10 or better besides what it spends."""
    if not v.style.risk:
        return False
    ranks = [v.g.card(c).rank for c in v.g.hand(v.seat) if c not in spent]
    return bool(ranks) and max(ranks) >= 10


def _target_score(
    v: View, effects: list[dict[str, Any]], card: VirtualCard | None, t: int | None, ops: set[str]
) -> float | None:
    """The value of the effects on target ``t`` (``None``: not allowed)."""
    g, seat = v.g, v.seat
    imp = impact(g, effects, Ctx(me=seat, target=t, card=card, data={"user": seat}))
    if harms_side(g, seat, imp, self_ok=True):
        return None
    foes = set(enemies(g, seat))
    if imp.harm - {seat} and not v.style.attack:
        return None  # a style that never attacks harms nobody on its own turn
    if seat in imp.harm and not (v.style.risk and g.p(seat).hp_value >= 3 and ops & {"lose_hp", "pindian"}):
        return None  # paying its own HP (or risking it in a 拼点): the risky style, from 3 HP
    if any(role == "harm" for role in imp.chosen.values()) and not (foes and v.style.attack):
        return None
    if any(risky(g, seat, s, effects, card) for s in imp.harm & foes):
        return None
    score = -2.0 if seat in imp.harm else 0.0
    for s in imp.harm & foes:
        score += _harm_value(v, s, ops)
    score += sum(_help_value(v, s, ops) for s in imp.help & v.mine)
    score -= sum(_help_value(v, s, ops) * 0.8 for s in imp.help & foes)
    return score if (imp.harm or imp.help) else None


def risky(g: Game, seat: int, victim: int, effects: list[dict[str, Any]], card: VirtualCard | None) -> bool:
    """Whether harm from ``effects`` (the card ``card``'s, if any) on ``victim`` may be turned
    onto the seat's side: its damage, or the card's target."""
    attrs = {arg.get("attribute") for arg in find_op(effects, "damage")} or {None}
    key = card.key if card is not None else None
    if key is not None:
        attrs = {a if a is not None else g.cdef(key).attribute for a in attrs}
    return any(redirect_risk(g, seat, victim, a, key) for a in attrs)


def _harm_value(v: View, s: int, ops: set[str]) -> float:
    p = v.g.p(s)
    if "damage" in ops or "lose_hp" in ops:
        return 5.0 + (3.0 if p.hp_value <= 1 else 0.0) + (p.max_hp - p.hp_value) * 0.2
    return 3.5 + (0.5 if len(v.g.owned(s)) > 0 else -3.5)


def _help_value(v: View, s: int, ops: set[str]) -> float:
    p = v.g.p(s)
    value = 0.0
    if ops & HEAL_OPS:
        value += (6.0 + (3.0 if p.hp_value <= 1 else 0.0)) if p.injured else 0.0
    if ops & DRAW_OPS:
        fill_only = "fill_hand" in ops and not ops & {"draw", "arrange_top"}
        value += 0.0 if fill_only and len(v.g.hand(s)) > 3 else 3.0
    if "gain_faith" in ops:
        value += 1.5 if p.faith < p.max_faith else 0.0
    if "extra_turn" in ops:
        value += 4.0
    return value


def option_impact(v: View, effects: list[dict[str, Any]], data: dict[str, Any], about: int | None) -> Impact:
    """The reading of effects run for the seat in a trigger context (``data``: who is who)."""
    return impact(v.g, effects, Ctx(me=v.seat, target=about, data=dict(data)))
