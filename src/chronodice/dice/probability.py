"""Exact probabilities of a dice expression, where they are cheap to compute.

:func:`distribution` gives ``{value: probability}`` as exact :class:`~fractions.Fraction`s;
:func:`expected_value` its mean.  Supported: numbers, attributes, ``+ - * /`` (rounded toward zero),
``NdM`` sums (by convolution, counts kept as integers until the end), ``k/q/dh/dl`` (by
enumerating the sorted outcomes — only while there are few of them), counts and faces that are
themselves dice (a mixture), pools without added dice (``Xa11``, a binomial) Fate dice ``NdF`` (a convolution) and CoC bonus/penalty dice ``bN``/``pN`` (closed form).  Explosions
(``!``) and pools with 加骰 have unbounded outcomes: they raise :class:`DiceValueError`.  Work
is bounded; anything bigger raises :class:`DiceLimitError` rather than taking long.

>>> expected_value("4d6k3")
Fraction(15869, 1296)
>>> distribution("2d6")[7]
Fraction(1, 6)
>>> float(expected_value("2d20k1"))
13.825
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, factorial, prod

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
from .errors import DiceLimitError, DiceValueError, UnknownVariable, where
from .evaluate import MAX_FORMULA_DEPTH, POOL_FACES, POOL_NO_AGAIN, POOL_SUCCESS, coc_d100, divide, lookup
from .parser import parse

MAX_SUPPORT = 20_000
"""Most distinct values a distribution may have."""
MAX_WORK = 400_000
"""Rough bound on elementary steps for one computation."""
MAX_ENUMERATED = 60_000
"""Most sorted outcomes enumerated for a keep/drop term."""

Dist = dict[int, Fraction]


class _Calculator:
    def __init__(self, default_faces: int, variables: Mapping[str, int | Expr]) -> None:
        self.default_faces = default_faces
        self.variables = variables
        self.work = 0
        self.depth = 0

    def spend(self, steps: int) -> None:
        self.work += steps
        if self.work > MAX_WORK:
            raise DiceLimitError("表达式太复杂，无法精确计算概率", position=0)

    def dist(self, node: Expr) -> Dist:
        if isinstance(node, Num):
            return {node.value: Fraction(1)}
        if isinstance(node, Var):
            value = lookup(self.variables, node.name)
            if value is None:
                raise UnknownVariable(node.name, position=node.pos)
            if isinstance(value, EXPR_TYPES):  # a formula attribute (``&手枪=1d10``)
                if self.depth >= MAX_FORMULA_DEPTH:
                    raise DiceValueError(
                        f"属性公式套用超过{MAX_FORMULA_DEPTH}层（或引用了自己）", position=node.pos
                    )
                self.depth += 1
                try:
                    return self.dist(value)
                finally:
                    self.depth -= 1
            return {int(value): Fraction(1)}
        if isinstance(node, Unary):
            inner = self.dist(node.operand)
            return inner if node.op == "+" else {-v: p for v, p in inner.items()}
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, Dice):
            return self.dice(node)
        if isinstance(node, Pool):
            return self.pool(node)
        if isinstance(node, Fate):
            return self.fate(node)
        if isinstance(node, Bonus):
            return self.bonus(node)
        raise TypeError(f"not a dice expression node: {node!r}")

    def binary(self, node: Binary) -> Dist:
        left, right = self.dist(node.left), self.dist(node.right)
        self.spend(len(left) * len(right))
        if node.op == "/" and 0 in right:
            raise DiceValueError(f"{where(node.pos)}：可能除以0", position=node.pos)
        out: Dist = {}
        for a, pa in left.items():
            for b, pb in right.items():
                if node.op == "+":
                    v = a + b
                elif node.op == "-":
                    v = a - b
                elif node.op == "*":
                    v = a * b
                else:
                    v = divide(a, b)
                out[v] = out.get(v, Fraction(0)) + pa * pb
        self._check_support(out)
        return out

    def _check_support(self, dist: Dist) -> None:
        if len(dist) > MAX_SUPPORT:
            raise DiceLimitError("可能的结果太多，无法精确计算概率", position=0)

    def _mixture(
        self, count: Expr | None, faces: Expr | None, default: int
    ) -> list[tuple[int, int, Fraction]]:
        counts = self.dist(count) if count is not None else {1: Fraction(1)}
        faces_d = self.dist(faces) if faces is not None else {default: Fraction(1)}
        return [(n, m, pn * pm) for n, pn in counts.items() for m, pm in faces_d.items()]

    def dice(self, node: Dice) -> Dist:
        if node.explode:
            raise DiceValueError(f"{where(node.pos)}：爆炸骰（!）无法精确计算概率", position=node.pos)
        out: Dist = {}
        for n, m, weight in self._mixture(node.count, node.faces, self.default_faces):
            if not 1 <= n <= MAX_DICE_PER_COMMAND or not 1 <= m <= MAX_FACES:
                raise DiceValueError(f"{where(node.pos)}：骰子个数或面数超出范围", position=node.pos)
            counts = self.sum_counts(n, m) if node.select is None else self.select_counts(n, m, node.select)
            total = m**n
            for v, c in counts.items():
                out[v] = out.get(v, Fraction(0)) + weight * Fraction(c, total)
        self._check_support(out)
        return out

    def sum_counts(self, n: int, m: int) -> dict[int, int]:
        """Number of ways ``n`` dice of ``m`` faces make each sum (sliding-window convolution)."""
        if n * (m - 1) + 1 > MAX_SUPPORT:
            raise DiceLimitError("可能的结果太多，无法精确计算概率", position=0)
        self.spend(n * n * (m - 1) // 2)  # refuse up front what the loop below would cost
        ways = [1]  # ways[s] for sums offset by the number of dice so far
        for _ in range(n):
            new = [0] * (len(ways) + m - 1)
            window = 0
            for s in range(len(new)):
                if s < len(ways):
                    window += ways[s]
                if s - m >= 0:
                    window -= ways[s - m]
                new[s] = window
            ways = new
        return {n + s: c for s, c in enumerate(ways) if c}

    def select_counts(self, n: int, m: int, select: Select) -> dict[int, int]:
        """Ways to get each kept sum, enumerating sorted outcomes with their multiplicities."""
        if comb(m + n - 1, n) > MAX_ENUMERATED:
            raise DiceLimitError("取舍骰的组合太多，无法精确计算概率", position=select.pos)
        c = select.count
        if (select.kind in ("k", "q") and not 1 <= c <= n) or (
            select.kind in ("dh", "dl") and not 1 <= c < n
        ):
            raise DiceValueError(f"{where(select.pos)}：取舍个数超出范围", position=select.pos)
        self.spend(comb(m + n - 1, n) * n)
        n_fact = factorial(n)
        out: dict[int, int] = {}
        for outcome in combinations_with_replacement(range(1, m + 1), n):  # ascending
            if select.kind == "k":
                kept = outcome[n - c :]
            elif select.kind == "q":
                kept = outcome[:c]
            elif select.kind == "dh":
                kept = outcome[: n - c]
            else:
                kept = outcome[c:]
            ways = n_fact // prod(factorial(k) for k in Counter(outcome).values())
            s = sum(kept)
            out[s] = out.get(s, 0) + ways
        return out

    def fate(self, node: Fate) -> Dist:
        counts = self.dist(node.count) if node.count is not None else {FATE_DEFAULT_COUNT: Fraction(1)}
        out: Dist = {}
        for n, weight in counts.items():
            if not 1 <= n <= MAX_DICE_PER_COMMAND:
                raise DiceValueError(f"{where(node.pos)}：骰子个数超出范围", position=node.pos)
            self.spend(n * (2 * n + 1))
            ways = [1]  # ways[s] for the sum s - (dice so far)
            for _ in range(n):
                ways = [
                    (ways[s] if s < len(ways) else 0)
                    + (ways[s - 1] if 0 <= s - 1 < len(ways) else 0)
                    + (ways[s - 2] if 0 <= s - 2 < len(ways) else 0)
                    for s in range(len(ways) + 2)
                ]
            total = 3**n
            for s, c in enumerate(ways):
                out[s - n] = out.get(s - n, Fraction(0)) + weight * Fraction(c, total)
        self._check_support(out)
        return out

    def bonus(self, node: Bonus) -> Dist:
        """For each units digit the ten results are distinct: the best (worst) of k tens dice is
        the j-th lowest (highest) with probability ((10-j)^k - (9-j)^k) / 10^k."""
        counts = self.dist(node.count) if node.count is not None else {1: Fraction(1)}
        out: Dist = {}
        for n, weight in counts.items():
            if not 1 <= n <= MAX_DICE_PER_COMMAND:
                raise DiceValueError(f"{where(node.pos)}：骰子个数超出范围", position=node.pos)
            self.spend(100 + n)
            k = n + 1
            for units in range(10):
                ranked = sorted(coc_d100(t, units) for t in range(10))
                if node.kind == "p":
                    ranked.reverse()
                for j, value in enumerate(ranked):
                    p = Fraction((10 - j) ** k - (9 - j) ** k, 10**k * 10)
                    out[value] = out.get(value, Fraction(0)) + weight * p
        return out

    def pool(self, node: Pool) -> Dist:
        out: Dist = {}
        p = Fraction(POOL_FACES - POOL_SUCCESS + 1, POOL_FACES)
        for n, y, weight in self._mixture(node.count, node.threshold, POOL_NO_AGAIN):
            if y < POOL_NO_AGAIN:
                raise DiceValueError(f"{where(node.pos)}：有加骰的骰池无法精确计算概率", position=node.pos)
            if not 1 <= n <= MAX_DICE_PER_COMMAND:
                raise DiceValueError(f"{where(node.pos)}：骰子个数超出范围", position=node.pos)
            self.spend(n)
            for k in range(n + 1):
                out[k] = out.get(k, Fraction(0)) + weight * comb(n, k) * p**k * (1 - p) ** (n - k)
        return out


def distribution(
    expr: str | Expr, *, default_faces: int = 100, variables: Mapping[str, int | Expr] | None = None
) -> Dist:
    """Exact ``{value: probability}`` of ``expr`` (text or tree); values sorted ascending."""
    tree = parse(expr, known=variables or ()) if isinstance(expr, str) else expr
    dist = _Calculator(default_faces, variables or {}).dist(tree)
    return {v: dist[v] for v in sorted(dist) if dist[v]}


def expected_value(
    expr: str | Expr, *, default_faces: int = 100, variables: Mapping[str, int | Expr] | None = None
) -> Fraction:
    """The exact mean of ``expr``."""
    dist = distribution(expr, default_faces=default_faces, variables=variables)
    return sum((v * p for v, p in dist.items()), Fraction(0))


__all__ = ["MAX_ENUMERATED", "MAX_SUPPORT", "MAX_WORK", "distribution", "expected_value"]
