"""Rolling a parsed expression: an injected ``random.Random``, a dice budget, a rolled tree.

Pure: the only randomness is ``rng.randint(1, faces)`` on the injected generator (unbiased), the
only state the :class:`DiceBudget` shared by one command.  The result is a :class:`Rolled` tree
that mirrors the syntax tree and keeps every die (:class:`DieRecord`), so the trace is shown
without rolling again.

Semantics, where the rules of other bots differ or are silent:

* ``k``/``kh`` keep the highest N dice, ``q``/``kl`` the lowest N, ``dh``/``dl`` drop the highest
  or lowest N (the Dice!/SealDice meaning: ``4d6k3`` keeps the three best).  N must be between 1
  and the number of dice (at most one less for drops).  Ties keep the earlier die.
* ``!`` explodes: each die showing its maximum adds one more die of the same size, which may
  explode again; the added dice sit right after the die that made them and take part in
  ``k``/``q``/``dh``/``dl`` like any other die (``4d6!k3`` keeps the best three of all).  A ``d1``
  cannot explode (it would never stop); every other runaway is stopped by the dice budget.
* ``XaY``: X ten-sided dice; each die >= Y adds one more die, recursively; the value is the
  number of dice (added ones included) showing 8 or more.  ``Xa`` is ``Xa10``.  Y must be 8, 9 or
  10 — 无限恐怖: "加骰的最低值为8" — or 11 for no added dice at all (as Dice! allows).
  X of 0 or less rolls the chance die (机运骰) exactly as ``.ww 0`` does: one die that succeeds
  only on a 10 and adds a die on a 10 (always 10-again, whatever Y); the added dice are ordinary
  (8 or more succeeds).  ``0a10=[10,{8}]=2``.
* ``/`` is integer division rounded toward zero (``7/2`` = ``3``, ``-7/2`` = ``-3``), as OneDice
  (OlivaDice) and C-style integer division in Dice! do: for the non-negative values players
  divide (``力量/5``, ``(体质+体型)/10``) this is the "向下取整" they expect, and a negative value
  halves to the mirror image of the positive one (``-(7/2)`` = ``-7/2``) rather than Python's
  floor (``-4``).  Division by zero is an error.
* ``NdF`` (Fate/Fudge): N dice of -1, 0 or +1, summed; ``dF`` alone is ``4dF``, the Fate Core
  roll, as in OneDice and SealDice.  No modifiers attach to it.
* ``bN``/``pN`` (CoC 7th bonus/penalty dice, ``b``/``p`` = one): one units die and N+1 tens
  dice (each 0-9; rolled in that order); each tens die makes a d100 with the units die, ``00``
  with ``0`` being 100 (Keeper Rulebook: "00 and 0 is 100"), and ``b`` keeps the lowest of those
  results, ``p`` the highest.  So with a units 0 a tens 0 is the worst die, not the best: it is
  the result that is compared, never the bare digit.
* Every literal, attribute and intermediate result must stay within ±10^15.
* An attribute may be a formula (a syntax tree, ``.st &手枪=1d10``): it is rolled where the name
  stands, and may name other attributes, formulas too, :data:`MAX_FORMULA_DEPTH` deep (so a
  formula that names itself stops there with an error).
* Dice counts and faces may be expressions (``(1d4)d6``, ``敏捷d6``); they must come out between
  1 and 1000 dice and 1 and 1,000,000 faces.

>>> import random
>>> from chronodice.dice.parser import parse
>>> evaluate(parse("2d6+3"), random.Random(1)).value
10
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from chronodice.core.limits import MAX_DICE_PER_COMMAND, MAX_FACES

from .ast import (
    EXPR_TYPES,
    FATE_DEFAULT_COUNT,
    Binary,
    Bonus,
    Dice,
    Expr,
    Fate,
    Num,
    Pool,
    Select,
    Unary,
    Var,
)
from .errors import DiceLimitError, DiceValueError, UnknownVariable, snippet, where
from .parser import MAX_MAGNITUDE

MAX_FORMULA_DEPTH = 5
"""Formula attributes rolled inside formula attributes, at most (a cycle stops here)."""
POOL_FACES = 10
POOL_SUCCESS = 8
"""A pool die showing this or more is a success."""
POOL_MIN_AGAIN = 8
"""Lowest add ("again") threshold: 无限恐怖 "加骰的最低值为8"."""
POOL_NO_AGAIN = 11
"""Threshold meaning "no added dice"."""
POOL_CHANCE_AT = 10
"""The chance die (pool of 0 or less) succeeds only on a 10 and always adds on a 10."""
FATE_FACES = 3
"""A Fate die is a d3 read as -1, 0, +1 (``randint(1, 3) - 2``)."""


@dataclass(frozen=True)
class DieRecord:
    """One die as rolled.

    ``kept``: counts toward its term (False for dice dropped by ``k``/``q``/``dh``/``dl``).
    ``exploded``: it met the add threshold (max face for ``!``, >= Y for ``XaY``) and made the
    next die.  ``added``: it was made by such a die rather than rolled as part of the count.
    """

    value: int
    faces: int
    kept: bool = True
    exploded: bool = False
    added: bool = False


@dataclass(frozen=True)
class Rolled:
    """A syntax node after rolling: its value, the rolled children and its own dice.

    ``parts`` follows the node: ``(operand,)`` for :class:`Unary`, ``(left, right)`` for
    :class:`Binary`, ``(count, faces)`` for :class:`Dice` (None where omitted), ``(count,
    threshold)`` for :class:`Pool`.  ``count``/``faces`` are the resolved numbers of a dice or
    pool term (for a pool, ``faces`` is 10 and ``threshold`` the add threshold).
    """

    node: Expr
    value: int
    parts: tuple[Rolled | None, ...] = ()
    dice: tuple[DieRecord, ...] = ()
    count: int = 0
    faces: int = 0
    threshold: int = 0


class DiceBudget:
    """Counts every die of one command (repeats, explosions and pools included)."""

    def __init__(self, limit: int = MAX_DICE_PER_COMMAND) -> None:
        self.limit = limit
        self.used = 0

    def take(self, n: int, position: int) -> None:
        """Reserve ``n`` dice before rolling them, or raise :class:`DiceLimitError`."""
        if self.used + n > self.limit:
            raise DiceLimitError(f"一次最多掷{self.limit}个骰子（含加骰与重复）", position=position)
        self.used += n


def lookup(variables: Mapping[str, int | Expr], name: str) -> int | Expr | None:
    """The value of attribute ``name``: exact match first, then ignoring case (``STR`` = ``str``)."""
    if name in variables:
        return variables[name]
    folded = name.casefold()
    for key, value in variables.items():
        if key.casefold() == folded:
            return value
    return None


def check_magnitude(value: int, position: int) -> int:
    """``value`` if within ±10^15, else :class:`DiceLimitError`."""
    if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        return value
    raise DiceLimitError("结果超出范围（绝对值最大10^15）", position=position)


def coc_d100(tens: int, units: int) -> int:
    """A d100 read from its tens digit and units digit (each 0-9): ``00`` and ``0`` make 100.

    >>> coc_d100(4, 7), coc_d100(0, 5), coc_d100(0, 0), coc_d100(9, 0)
    (47, 5, 100, 90)
    """
    return tens * 10 + units or 100


def divide(a: int, b: int) -> int:
    """Integer division rounded toward zero (``b`` non-zero).

    >>> divide(7, 2), divide(-7, 2), divide(7, -2), divide(-8, 2)
    (3, -3, -3, -4)
    """
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class Evaluator:
    """Rolls syntax trees with one RNG, one set of attributes and one budget."""

    def __init__(
        self,
        rng: random.Random,
        *,
        default_faces: int = 100,
        variables: Mapping[str, int | Expr] | None = None,
        budget: DiceBudget | None = None,
    ) -> None:
        self.rng = rng
        self.default_faces = default_faces
        self.variables: Mapping[str, int | Expr] = variables if variables is not None else {}
        self.budget = budget if budget is not None else DiceBudget()
        self.depth = 0
        """Formula attributes being rolled inside one another."""
        self._dispatch: dict[type, Callable[[Any], Rolled]] = {
            Num: self._num,
            Var: self._var,
            Unary: self._unary,
            Binary: self._binary,
            Dice: self._dice,
            Pool: self._pool,
            Fate: self._fate,
            Bonus: self._bonus,
        }

    def roll(self, node: Expr) -> Rolled:
        """Roll ``node`` and everything under it."""
        return self._dispatch[type(node)](node)

    # ------------------------------------------------------------------ arithmetic
    def _num(self, node: Num) -> Rolled:
        return Rolled(node, check_magnitude(node.value, node.pos))

    def _var(self, node: Var) -> Rolled:
        raw = lookup(self.variables, node.name)
        if raw is None:
            raise UnknownVariable(node.name, position=node.pos)
        if isinstance(raw, EXPR_TYPES):
            if self.depth >= MAX_FORMULA_DEPTH:
                raise DiceValueError(
                    f'属性 "{snippet(node.name)}" 的公式套用超过{MAX_FORMULA_DEPTH}层（或引用了自己）',
                    position=node.pos,
                )
            self.depth += 1
            try:
                inner = self.roll(raw)
            finally:
                self.depth -= 1
            return Rolled(node, inner.value, (inner,))
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw != int(raw):
            raise DiceValueError(f'属性 "{snippet(node.name)}" 不是整数', position=node.pos)
        return Rolled(node, check_magnitude(int(raw), node.pos))

    def _unary(self, node: Unary) -> Rolled:
        operand = self.roll(node.operand)
        value = -operand.value if node.op == "-" else operand.value
        return Rolled(node, value, (operand,))

    def _binary(self, node: Binary) -> Rolled:
        left = self.roll(node.left)
        right = self.roll(node.right)
        a, b = left.value, right.value
        if node.op == "+":
            value = a + b
        elif node.op == "-":
            value = a - b
        elif node.op == "*":
            value = a * b
        else:
            if b == 0:
                raise DiceValueError(f"{where(node.pos)}：除数为0", position=node.pos)
            value = divide(a, b)
        return Rolled(node, check_magnitude(value, node.pos), (left, right))

    # ------------------------------------------------------------------ dice
    def _dice(self, node: Dice) -> Rolled:
        count_r = self.roll(node.count) if node.count is not None else None
        faces_r = self.roll(node.faces) if node.faces is not None else None
        n = count_r.value if count_r is not None else 1
        m = faces_r.value if faces_r is not None else self.default_faces
        pos = node.pos
        self._check_count(n, pos)
        if m < 1:
            raise DiceValueError(f"{where(pos)}：骰子面数至少为1", position=pos)
        if m > MAX_FACES:
            raise DiceLimitError(f"骰子面数最多为{MAX_FACES}", position=pos)
        if node.explode and m == 1:
            raise DiceValueError(f"{where(pos)}：1面骰不能爆炸（会无限加骰）", position=pos)
        if node.select is not None:
            _check_select(node.select, n)
        records = self._roll_chains(n, m, m if node.explode else None, pos)
        if node.select is not None:
            records = _apply_select(records, node.select)
        value = sum(d.value for d in records if d.kept)
        return Rolled(node, value, (count_r, faces_r), tuple(records), count=n, faces=m)

    def _pool(self, node: Pool) -> Rolled:
        count_r = self.roll(node.count)
        thr_r = self.roll(node.threshold)
        n, y = count_r.value, thr_r.value
        if n > 0:
            self._check_count(n, node.pos)
        if y < POOL_MIN_AGAIN:
            raise DiceValueError(f"{where(node.pos)}：加骰值最低为{POOL_MIN_AGAIN}", position=node.pos)
        if y > POOL_NO_AGAIN:
            raise DiceValueError(f"{where(node.pos)}：加骰值应为8到10（11为不加骰）", position=node.pos)
        if n <= 0:  # 机运骰, as .ww 0: one die, 10-again; only a 10 succeeds on the die itself
            records = self._roll_chains(1, POOL_FACES, POOL_CHANCE_AT, node.pos)
            value = sum(
                1 for i, d in enumerate(records) if d.value >= (POOL_CHANCE_AT if i == 0 else POOL_SUCCESS)
            )
            return Rolled(
                node,
                value,
                (count_r, thr_r),
                tuple(records),
                count=n,
                faces=POOL_FACES,
                threshold=POOL_CHANCE_AT,
            )
        records = self._roll_chains(n, POOL_FACES, y, node.pos)
        value = sum(1 for d in records if d.value >= POOL_SUCCESS)
        return Rolled(node, value, (count_r, thr_r), tuple(records), count=n, faces=POOL_FACES, threshold=y)

    def _fate(self, node: Fate) -> Rolled:
        count_r = self.roll(node.count) if node.count is not None else None
        n = count_r.value if count_r is not None else FATE_DEFAULT_COUNT
        self._check_count(n, node.pos)
        self.budget.take(n, node.pos)
        randint = self.rng.randint
        records = tuple(DieRecord(randint(1, FATE_FACES) - 2, FATE_FACES) for _ in range(n))
        value = sum(d.value for d in records)
        return Rolled(node, value, (count_r,), records, count=n, faces=FATE_FACES)

    def _bonus(self, node: Bonus) -> Rolled:
        count_r = self.roll(node.count) if node.count is not None else None
        n = count_r.value if count_r is not None else 1
        self._check_count(n, node.pos)
        self.budget.take(n + 2, node.pos)
        randint = self.rng.randint
        units = randint(1, 10) - 1
        tens = [randint(1, 10) - 1 for _ in range(n + 1)]
        values = [coc_d100(t, units) for t in tens]
        pick = min if node.kind == "b" else max
        best = values.index(pick(values))  # ties keep the earlier die
        records = (DieRecord(units, 10), *(DieRecord(t, 10, kept=i == best) for i, t in enumerate(tens)))
        return Rolled(node, values[best], (count_r,), records, count=n, faces=100)

    def _check_count(self, n: int, pos: int) -> None:
        if n < 1:
            raise DiceValueError(f"{where(pos)}：骰子个数至少为1", position=pos)
        if n > self.budget.limit:
            raise DiceLimitError(f"一次最多掷{self.budget.limit}个骰子", position=pos)

    def _roll_chains(self, n: int, faces: int, trigger: int | None, pos: int) -> list[DieRecord]:
        """``n`` dice; a die >= ``trigger`` adds the next one (budget-checked), in a chain."""
        self.budget.take(n, pos)
        randint = self.rng.randint
        out: list[DieRecord] = []
        for _ in range(n):
            value = randint(1, faces)
            added = False
            while trigger is not None and value >= trigger:
                out.append(DieRecord(value, faces, exploded=True, added=added))
                self.budget.take(1, pos)
                value = randint(1, faces)
                added = True
            out.append(DieRecord(value, faces, added=added))
        return out


def _check_select(select: Select, n: int) -> None:
    pos = select.pos
    if select.kind in ("k", "q"):
        if not 1 <= select.count <= n:
            raise DiceValueError(f"{where(pos)}：保留的个数应在1到{n}之间", position=pos)
    elif n < 2:
        raise DiceValueError(f"{where(pos)}：只有1个骰子，不能再去掉", position=pos)
    elif not 1 <= select.count <= n - 1:
        raise DiceValueError(f"{where(pos)}：去掉的个数应在1到{n - 1}之间", position=pos)


def _apply_select(records: list[DieRecord], select: Select) -> list[DieRecord]:
    """Mark dice dropped by ``select``; ties keep the earlier die."""
    idx = range(len(records))
    highest = sorted(idx, key=lambda i: (-records[i].value, i))
    lowest = sorted(idx, key=lambda i: (records[i].value, i))
    c = select.count
    if select.kind == "k":
        kept = set(highest[:c])
    elif select.kind == "q":
        kept = set(lowest[:c])
    elif select.kind == "dh":
        kept = set(idx) - set(highest[:c])
    else:
        kept = set(idx) - set(lowest[:c])
    return [
        d if i in kept else DieRecord(d.value, d.faces, False, d.exploded, d.added)
        for i, d in enumerate(records)
    ]


def evaluate(
    tree: Expr,
    rng: random.Random,
    *,
    default_faces: int = 100,
    variables: Mapping[str, int | Expr] | None = None,
    budget: DiceBudget | None = None,
) -> Rolled:
    """Roll ``tree`` once.  Pass one ``budget`` to several calls to share the dice limit."""
    return Evaluator(rng, default_faces=default_faces, variables=variables, budget=budget).roll(tree)


def all_dice(rolled: Rolled) -> Iterator[DieRecord]:
    """Every die of ``rolled`` in the order rolled (counts and faces before their term)."""
    for part in rolled.parts:
        if part is not None:
            yield from all_dice(part)
    yield from rolled.dice


__all__ = [
    "FATE_FACES",
    "MAX_FORMULA_DEPTH",
    "POOL_FACES",
    "POOL_MIN_AGAIN",
    "POOL_NO_AGAIN",
    "POOL_SUCCESS",
    "DiceBudget",
    "DieRecord",
    "Evaluator",
    "Rolled",
    "all_dice",
    "check_magnitude",
    "coc_d100",
    "divide",
    "evaluate",
    "lookup",
]
