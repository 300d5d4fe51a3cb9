"""The 无限恐怖 D10 success-pool engine (seed 003): pure, no I/O, randomness injected.

Modules, one concept each:

* :mod:`.pool` — rolling a pool round by round (again threshold, chance die, dice budget);
* :mod:`.check` — bonus successes, lost successes, DC, opposed rolls, attacks against defence;
* :mod:`.odds` — the exact distribution of successes;
* :mod:`.expr` — the ``.ww`` argument language (pool expressions over card values, options);
* :mod:`.card` — the bonus successes a character card holds;
* :mod:`.state` — per-group session state (declared and spent defence);
* :mod:`.allocation` — splitting attack bonus successes over several attacks;
* :mod:`.multiplier` — the seed's multiplier/division stacking calculator.
"""

from __future__ import annotations

from .allocation import Attack, Target, allocate, even_split, parse_targets
from .card import DEFAULT_ATTRIBUTES, Pool10Card
from .check import (
    AttackResult,
    CheckResult,
    OpposedResult,
    TieRule,
    attribute_bonus,
    opposed,
    resolve,
    resolve_attack,
)
from .expr import PoolArgs, ResolvedPool, evaluate_pool, parse_pool_args
from .multiplier import evaluate as evaluate_calculation
from .multiplier import parse_calculation
from .odds import PoolOdds, pool_odds
from .pool import DEFAULT_AGAIN, MIN_AGAIN, NO_AGAIN, DiceBudget, PoolRoll, check_again, roll_pool
from .state import Pool10Session, declare_defence, new_action, take_defence

__all__ = [
    "DEFAULT_AGAIN",
    "DEFAULT_ATTRIBUTES",
    "MIN_AGAIN",
    "NO_AGAIN",
    "Attack",
    "AttackResult",
    "CheckResult",
    "DiceBudget",
    "OpposedResult",
    "Pool10Card",
    "Pool10Session",
    "PoolArgs",
    "PoolOdds",
    "PoolRoll",
    "ResolvedPool",
    "Target",
    "TieRule",
    "allocate",
    "attribute_bonus",
    "check_again",
    "declare_defence",
    "evaluate_calculation",
    "evaluate_pool",
    "even_split",
    "new_action",
    "opposed",
    "parse_calculation",
    "parse_pool_args",
    "parse_targets",
    "pool_odds",
    "resolve",
    "resolve_attack",
    "roll_pool",
    "take_defence",
]
