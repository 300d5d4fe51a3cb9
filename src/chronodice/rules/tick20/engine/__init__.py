"""The tick-initiative tracker: pure transitions over :class:`Combat` (tick20.md §2).

Every public function takes a state and returns an :class:`Outcome` (a *new* state plus the
events that happened); the given state is never modified.  A transition runs the flow until a
human must act again (a turn in progress, a stall, or the end) and appends its events to the
combat log.  Undo is not the engine's business: the bot undoes through the store's session log
(``.init undo``, the common ``.undo``).

Readings taken on top of tick20.md's recommendations (which are the defaults):

* ``delay_rule="next_tick"`` (A7/A8: a delayed turn moves to tick t−1); ``"literal"`` is 002's
  +1, which loses the round (the A5 fall-back brings her back at the main value).
* ``carry_rule="carry"`` (A4a: C += 20, falling back to min(M, 20) above 20); ``"reset"`` is
  A4b (C := min(M, 20) every round).
* Ties: 002/004 put GM-played characters first only between *hostile* characters.  Applied per
  tie group to keep the order total: when a fully tied group (same key, 先攻修正, LV) holds more
  than one side, its GM-played members go first; then ``.init first/swap`` ranks; then join
  order.  (Pairwise application can be cyclic with three sides.)
* 焦点 created before round 1 lasts to the end of round 1 (“next round” seen from setup).
* An effect born while the tracker is stalled between rounds counts like one born in setup.
* Effects are compared for the no-stacking rule by their approximate remaining ticks (a 回合
  counts as 20 ticks).
* 004 优势点 is granted only against a gauge of a combatant of another side.
* A <昏迷> combatant's turn is skipped when it comes (``coma_skip``; it counts as no turn taken),
  and a round of nothing but such skips waits for the GM (:meth:`.loop.Engine.pick_next`).
* An attack (``.atk``) costs :data:`ATTACK_AP` as a 主要动作, or the AP paid for it just before
  with ``.ap -n 攻击`` in the same turn — never both (:func:`.ap.prepaid_attack`).

No I/O, no clock; randomness (hidden durations, rolls) is decided by the caller or passed in.

Where things live:

* :mod:`._base` — limits, :class:`Outcome`, the working copy (:class:`._base.EngineBase`: order
  within a tick, effect bookkeeping, placement);
* :mod:`.loop` — the tick loop (:class:`.loop.Engine`) and the :func:`.loop.transition` decorator;
* :mod:`.joining` — new_combat, find, add_combatant;
* :mod:`.turns` — start, end_turn (next/skip), jump_to, delay, end, forecast, g_of;
* :mod:`.gm` — place, remove, surprise, first, swap, edit, set_options, add_gm, set_defeated;
* :mod:`.effects` — add_effect, remove_effect, focus;
* :mod:`.ap` — spend_ap, attack_ap (``.atk``'s AP), set_ap, start_ta, pay_ta; 004 set_actions,
  use_action; 002 spend_mov;
* :mod:`.wounds` — wound, heal_wound, set_temp, set_traits, dying_check, set_sp, set_gauges,
  hit_gauges, spend_mp, self_heal, rest, new_unit (单元), exhaust (<力竭> by an effect);
* :mod:`.persona` — lose_attribute (002 属性 to 0), full_move (【全力移动】 at 速度 0).
"""

from __future__ import annotations

from ._base import LOG_DEPTH, MAX_COMBATANTS, MAX_EFFECTS, Outcome
from .ap import (
    ACTION_KINDS,
    ATTACK_AP,
    attack_ap,
    pay_ta,
    prepaid_attack,
    set_actions,
    set_ap,
    spend_ap,
    spend_mov,
    start_ta,
    use_action,
)
from .effects import add_effect, focus, remove_effect
from .gm import add_gm, edit, first, place, remove, set_defeated, set_options, surprise, swap
from .joining import add_combatant, find, new_combat
from .persona import full_move, lose_attribute
from .turns import delay, end, end_turn, first_round_order, forecast, g_of, jump_to, start
from .wounds import (
    dying_check,
    heal_wound,
    hit_gauges,
    new_unit,
    rest,
    self_heal,
    set_gauges,
    set_sp,
    set_temp,
    set_traits,
    spend_mp,
    wound,
)

__all__ = [
    "ACTION_KINDS",
    "ATTACK_AP",
    "LOG_DEPTH",
    "MAX_COMBATANTS",
    "MAX_EFFECTS",
    "Outcome",
    "add_combatant",
    "add_effect",
    "add_gm",
    "attack_ap",
    "delay",
    "dying_check",
    "edit",
    "end",
    "end_turn",
    "find",
    "first",
    "first_round_order",
    "focus",
    "forecast",
    "full_move",
    "g_of",
    "heal_wound",
    "hit_gauges",
    "jump_to",
    "lose_attribute",
    "new_combat",
    "new_unit",
    "pay_ta",
    "place",
    "prepaid_attack",
    "remove",
    "remove_effect",
    "rest",
    "self_heal",
    "set_actions",
    "set_ap",
    "set_defeated",
    "set_gauges",
    "set_options",
    "set_sp",
    "set_temp",
    "set_traits",
    "spend_ap",
    "spend_mov",
    "spend_mp",
    "start",
    "start_ta",
    "surprise",
    "swap",
    "use_action",
    "wound",
]
