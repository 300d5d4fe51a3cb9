"""The dice expression language: parse → syntax tree → roll with an injected RNG → trace.

One module per stage: :mod:`~chronodice.dice.tokens` (scanner), :mod:`~chronodice.dice.ast`
(tree, grammar, canonical text), :mod:`~chronodice.dice.parser`, :mod:`~chronodice.dice.evaluate`
(rolling, budget, semantics), :mod:`~chronodice.dice.trace` (the text players see) and
:mod:`~chronodice.dice.command` (``.r`` arguments: repeats, expression, reason);
:mod:`~chronodice.dice.probability` gives exact distributions where they are cheap.

>>> import random
>>> out = roll_command("3d6+2 侦查", random.Random(3))
>>> out.expression, out.reason, out.results[0].detail
('3d6+2', '侦查', '3d6+2=[2,5,5]+2=14')
"""

from __future__ import annotations

from . import ast
from .ast import Binary, Bonus, Dice, Expr, Fate, Num, Pool, Select, Unary, Var, to_text
from .command import ParsedCommand, RollOutcome, RollResult, parse_command, roll_command
from .errors import DiceError, DiceLimitError, DiceValueError, UnknownVariable
from .evaluate import DiceBudget, DieRecord, Rolled, all_dice, evaluate
from .parser import parse
from .probability import distribution, expected_value
from .trace import detail

__all__ = [
    "Binary",
    "Bonus",
    "Dice",
    "DiceBudget",
    "DiceError",
    "DiceLimitError",
    "DiceValueError",
    "DieRecord",
    "Expr",
    "Fate",
    "Num",
    "ParsedCommand",
    "Pool",
    "RollOutcome",
    "RollResult",
    "Rolled",
    "Select",
    "Unary",
    "UnknownVariable",
    "Var",
    "all_dice",
    "ast",
    "detail",
    "distribution",
    "evaluate",
    "expected_value",
    "parse",
    "parse_command",
    "roll_command",
    "to_text",
]
