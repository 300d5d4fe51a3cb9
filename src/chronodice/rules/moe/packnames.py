"""The names a 萌E pack may use: expression functions and variables, timings and the arguments
of every effect primitive.  :mod:`.packcheck` validates packs against them; tests check each
table against the engine (its functions, its ``fire(...)`` calls, its primitives).
"""

from __future__ import annotations

from itertools import pairwise

from .primitives_cards import CARD_ARGS, CARD_FUNCTIONS
from .state import PHASES

FUNCTIONS: dict[str, int] = {
    "hp": 1,
    "hp_value": 1,
    "max_hp": 1,
    "lost_hp": 1,
    "faith": 1,
    "max_faith": 1,
    "hand_count": 1,
    "owned_count": 1,
    "secret_count": 1,
    "hand_limit": 1,
    "distance": 2,
    "in_range": 2,
    "injured": 1,
    "alive": 1,
    "talent": 2,
    "damaged_this_round": 1,
    "alive_count": 0,
    "player_count": 0,
    "gender": 1,
    "half": 1,
    "diff": 2,
    "keyword": 2,
    "has_secret": 2,
    **CARD_FUNCTIONS,
}
"""Expression functions and their number of arguments (the engine's ``_functions``; a test
checks the two agree)."""

VARIABLES: frozenset[str] = frozenset(
    (
        "me target about source victim user attribute n names card card_colour phase current round"
        " winner loser judge_card skipped option discarded True False None"
    ).split()
)
"""Names every expression sees (the engine's ``scope``) and those effects set (pindian, judge…)."""

_PHASE_TIMINGS = [f"phase.{ph}.{w}" for ph in PHASES for w in ("before", "start", "end", "after")]
_BETWEEN = [f"phase.between.{a}.{b}" for a, b in pairwise(PHASES)]
TIMINGS: frozenset[str] = frozenset(
    [
        "game.start",
        "round.start",
        "round.end",
        "turn.before_start",
        "turn.start",
        "turn.end",
        "turn.after_end",
        *_PHASE_TIMINGS,
        *_BETWEEN,
        "phase.draw.count",
        "use.declared",
        "use.become_target",
        "use.before_effect",
        "use.offset",
        "use.effect",
        "use.finished",
        "play.responded",
        "skill.used",
        "cards.lost",
        "cards.obtained",
        "cards.discarded",
        "cards.shown",
        "cards.exchanged",
        "judge.before_effective",
        "judge.effective",
        "pindian.shown",
        "damage.caused",
        "damage.inflicted",
        "damage.after_dealt",
        "damage.after_received",
        "damage.finished",
        "hp.lost",
        "hp.recovered",
        "max_hp.changed",
        "dying.enter",
        "death",
        "respond.need",
    ]
)
"""Every timing the engine fires (a test checks this against the ``fire(...)`` calls)."""

_W, _N = "who", "n"
ARGS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # primitive: (allowed keys, required keys)
    "draw": (frozenset({_W, _N}), frozenset()),
    "fill_hand": (frozenset({_W, _N}), frozenset()),
    "discard_own": (frozenset({_W, _N, "zones", "var", "any"}), frozenset()),
    "discard_seq": (frozenset({_W, _N}), frozenset()),
    "discard_all": (frozenset({_W, "zones", "var"}), frozenset()),
    "discard_other": (frozenset({_W, "of", _N, "zones"}), frozenset()),
    "obtain_from": (frozenset({_W, "of", _N, "zones"}), frozenset()),
    "give": (frozenset({_W, "max", "min"}), frozenset()),
    "damage": (frozenset({"to", "from", _N, "attribute"}), frozenset()),
    "lose_hp": (frozenset({_W, _N}), frozenset()),
    "recover": (frozenset({_W, _N}), frozenset()),
    "recover_to": (frozenset({_W, _N}), frozenset()),
    "change_max_hp": (frozenset({_W, _N}), frozenset()),
    "gain_faith": (frozenset({_W, _N}), frozenset()),
    "pay_faith": (frozenset({_W, _N}), frozenset()),
    "pindian": (frozenset({_W, "with", "win", "tie"}), frozenset()),
    "exchange": (frozenset({"a", "b", "zone"}), frozenset()),
    "judge": (frozenset({_W, "red", "black"}), frozenset()),
    "arrange_top": (frozenset({_W, _N}), frozenset()),
    "cancel_target": (frozenset({_W}), frozenset()),
    "change_user": (frozenset({"to"}), frozenset()),
    "offset": (frozenset({_W}), frozenset()),
    "nullify": (frozenset({_W}), frozenset()),
    "prevent_damage": (frozenset(), frozenset()),
    "transfer_damage": (frozenset({"to"}), frozenset({"to"})),
    "modify": (frozenset({"field", "add"}), frozenset({"field"})),
    "ignore_armour": (frozenset(), frozenset()),
    "skip_phases": (frozenset({"phases"}), frozenset({"phases"})),
    "skip_turn": (frozenset({_W}), frozenset()),
    "extra_turn": (frozenset({_W}), frozenset()),
    "extra_phase": (frozenset({"phase"}), frozenset({"phase"})),
    "choose_player": (frozenset({_W, "filter", "var", "optional", "reason"}), frozenset()),
    "choose_option": (frozenset({_W, "options"}), frozenset({"options"})),
    "if": (frozenset({"cond", "then", "else"}), frozenset({"cond"})),
    "gain_skill": (frozenset({_W, "skill"}), frozenset({"skill"})),
    "lose_skill": (frozenset({_W, "skill"}), frozenset({"skill"})),
    "lose_all_skills": (frozenset({_W}), frozenset()),
    "hand_limit": (frozenset({_W, "op", _N}), frozenset({"op"})),
    "mark": (frozenset({_W, "name", _N}), frozenset({"name"})),
    "respond_as": (frozenset(), frozenset()),
    **CARD_ARGS,
}
"""Arguments of each effect primitive (``set`` takes any names, ``python`` a hook name)."""
