"""The seed's multiplier, division and rounding rules as a calculator (seed 003, «多次乘除法运算与加法»,
«除法运算», «小数的舍入»).

Rules:

* Operations on the **base value** come first: ``(基础 + 10) × 2``.
* Several multipliers on an abstract value (modifier, rolled value, successes…) merge into one:
  the first as is, each further one minus 1 — ``×2`` and ``×4`` make ``×(2 + 4 − 1) = ×5``, not
  ×8.  A multiplier marked «再» or «额外» is added whole (no −1): ``×2`` and ``再×2`` make ×4.
* Several divisions (halvings) merge the same way: two halvings make ``/(2 + 2 − 1) = /3``.
* Plain additions and subtractions come after the multipliers and are not merged.
* Rounding down (无条件舍去小数点后的部分): the multiplied/divided value is rounded down before
  the additions are made, as a GM computes it by hand (``2/(2+2−1)−1`` → 0 − 1 = −1); the total is
  rounded down again if an addition had a fraction.
* Real-world quantities (price, distance) use ordinary arithmetic instead (``real=True``):
  operations apply in the order written.

Text form (the calculator command): a base value, then operations separated by spaces::

    30 ×2 ×4 +50          →  30×(2+4−1)+50 = 200      (seed example 1, base speed 30)
    30 基础+10 ×2         →  (30+10)×2 = 80           (seed example 2)
    10 /2 /2 -1           →  10/(2+2−1)−1 = 2         (seed division example, base 10)
    30 ×2 再×2            →  30×(2+2) = 120

>>> calc = parse_calculation("30 ×2 ×4 +50")
>>> evaluate(calc).value, evaluate(calc).formula
(200, '30×(2+4-1)+50=200')
>>> evaluate(parse_calculation("30 基础+10 ×2")).formula
'(30+10)×2=80'
>>> evaluate(parse_calculation("10 /2 /2 -1")).formula
'10/(2+2-1)-1=2'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from chronodice.core.errors import InputSyntaxError

USAGE = ".ww 倍率 基础值 [基础+N] [×N] [再×N] [/N] [+N] [-N] [现实]"
MAX_OPS = 30
MAX_ABS = 10**12

_NUM = r"([0-9]+(?:\.[0-9]+)?)"
_TOKEN = re.compile(
    r"(?P<base>基础|基础值|base)\s*(?P<bop>[+-])\s*"
    + _NUM.replace("(", "(?P<bnum>", 1)
    + r"|(?P<again>再|额外)?\s*(?P<mop>[*×xX]|乘|倍)\s*"
    + _NUM.replace("(", "(?P<mnum>", 1)
    + r"|(?P<again2>再|额外)?\s*"
    + _NUM.replace("(", "(?P<mnum2>", 1)
    + r"\s*倍"
    + r"|(?P<dop>/|÷|除以)\s*"
    + _NUM.replace("(", "(?P<dnum>", 1)
    + r"|(?P<aop>[+-])\s*"
    + _NUM.replace("(", "(?P<anum>", 1)
    + r"|(?P<real>现实|真实|real)"
)


@dataclass(frozen=True)
class Op:
    """One operation: ``kind`` is ``base`` (± on the base value), ``mul``, ``div`` or ``add``.

    ``whole`` marks a multiplier said with «再»/«额外» (added whole when merging).
    """

    kind: str
    value: Fraction
    whole: bool = False

    def to_text(self) -> str:
        v = _fmt(self.value)
        if self.kind == "base":
            return f"基础{'+' if self.value >= 0 else '-'}{_fmt(abs(self.value))}"
        if self.kind == "mul":
            return f"{'再' if self.whole else ''}×{v}"
        if self.kind == "div":
            return f"/{v}"
        return f"{'+' if self.value >= 0 else '-'}{_fmt(abs(self.value))}"


@dataclass(frozen=True)
class Calculation:
    """A base value, its operations in the order written, and whether it is a real-world value."""

    base: Fraction
    ops: tuple[Op, ...]
    real: bool = False

    def to_text(self) -> str:
        parts = [_fmt(self.base), *(op.to_text() for op in self.ops)]
        if self.real:
            parts.append("现实")
        return " ".join(parts)


@dataclass(frozen=True)
class CalcResult:
    value: int
    exact: Fraction
    formula: str
    multiplier: Fraction
    divisor: Fraction


def _fmt(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):g}"


def _num(text: str) -> Fraction:
    value = Fraction(text)
    if value > MAX_ABS:
        raise InputSyntaxError(f"数值 {text[:15]} 太大", usage=USAGE)
    return value


TOKEN = re.compile(_TOKEN.pattern, re.ASCII)
"""One operation of the text form (ASCII digits only), for :func:`op_of`."""


def number(text: str) -> Fraction:
    """A value of the text form (``30``, ``1.5``), refused when too large."""
    return _num(text)


def op_of(t: re.Match[str]) -> Op | None:
    """The operation a :data:`TOKEN` match stands for; ``None`` for «现实» (real-world value)."""
    if t.group("real"):
        return None
    if t.group("bnum"):
        v = _num(t.group("bnum"))
        return Op("base", v if t.group("bop") == "+" else -v)
    if t.group("mnum") or t.group("mnum2"):
        v = _num(t.group("mnum") or t.group("mnum2"))
        return Op("mul", v, whole=bool(t.group("again") or t.group("again2")))
    if t.group("dnum"):
        v = _num(t.group("dnum"))
        if v == 0:
            raise InputSyntaxError("不能除以0", usage=USAGE)
        return Op("div", v)
    v = _num(t.group("anum"))
    return Op("add", v if t.group("aop") == "+" else -v)


def parse_calculation(text: str) -> Calculation:
    """Parse the calculator's text form (see the module docstring)."""
    text = text.strip()
    m = re.match(r"\s*" + _NUM, text)
    if not m:
        raise InputSyntaxError("请先给出基础值（一个数）", usage=USAGE)
    base = _num(m.group(1))
    pos = m.end()
    ops: list[Op] = []
    real = False
    while pos < len(text):
        if text[pos] in " ,":
            pos += 1
            continue
        t = TOKEN.match(text, pos)
        if not t:
            raise InputSyntaxError(f"无法理解「{text[pos : pos + 10]}」", usage=USAGE)
        pos = t.end()
        op = op_of(t)
        if op is None:
            real = True
            continue
        ops.append(op)
        if len(ops) > MAX_OPS:
            raise InputSyntaxError(f"最多{MAX_OPS}个运算", usage=USAGE)
    return Calculation(base=base, ops=tuple(ops), real=real)


def merge_factors(factors: list[tuple[Fraction, bool]]) -> Fraction:
    """Merge multipliers by the seed's rule: first + Σ(each further − 1), «再» ones added whole.

    >>> merge_factors([(Fraction(2), False), (Fraction(4), False)])
    Fraction(5, 1)
    >>> merge_factors([(Fraction(2), False), (Fraction(2), True)])
    Fraction(4, 1)
    >>> merge_factors([])
    Fraction(1, 1)
    """
    if not factors:
        return Fraction(1)
    total = factors[0][0]
    for value, whole in factors[1:]:
        total += value if whole else value - 1
    return total


def _merged_text(factors: list[tuple[Fraction, bool]]) -> str:
    if len(factors) == 1:
        return _fmt(factors[0][0])
    parts = [_fmt(factors[0][0])]
    parts += [f"+{_fmt(v)}" for v, _ in factors[1:]]
    minus = sum(1 for _, whole in factors[1:] if not whole)
    parts += ["-1"] * minus
    return "(" + "".join(parts) + ")"


def evaluate(calc: Calculation) -> CalcResult:
    """Compute by the seed's rules (or plain arithmetic for a real-world value); round down."""
    if calc.real:
        value = calc.base
        text = _fmt(calc.base)
        for op in calc.ops:
            if op.kind == "mul":
                value *= op.value
                text = f"{text}×{_fmt(op.value)}"
            elif op.kind == "div":
                value /= op.value
                text = f"{text}/{_fmt(op.value)}"
            else:
                value += op.value
                text = f"{text}{'+' if op.value >= 0 else '-'}{_fmt(abs(op.value))}"
        result = math.floor(value)
        return CalcResult(result, value, f"{text}={result}", Fraction(1), Fraction(1))
    base_adds = [op.value for op in calc.ops if op.kind == "base"]
    muls = [(op.value, op.whole) for op in calc.ops if op.kind == "mul"]
    divs = [(op.value, False) for op in calc.ops if op.kind == "div"]
    adds = [op.value for op in calc.ops if op.kind == "add"]
    base = calc.base + sum(base_adds, Fraction(0))
    mul, div = merge_factors(muls), merge_factors(divs)
    if div == 0:
        raise InputSyntaxError("合并后的除数为0，无法计算", usage=USAGE)
    scaled = base * mul / div
    exact = scaled + sum(adds, Fraction(0))
    if abs(exact) > MAX_ABS:
        raise InputSyntaxError("结果太大", usage=USAGE)
    # round the multiplied/divided value down first (as a GM computes it), then add
    result = math.floor(math.floor(scaled) + sum(adds, Fraction(0)))
    text = _fmt(calc.base)
    if base_adds:
        text = "(" + text + "".join(f"{'+' if v >= 0 else '-'}{_fmt(abs(v))}" for v in base_adds) + ")"
    if muls:
        text += "×" + _merged_text(muls)
    if divs:
        text += "/" + _merged_text(divs)
    text += "".join(f"{'+' if v >= 0 else '-'}{_fmt(abs(v))}" for v in adds)
    return CalcResult(result, exact, f"{text}={result}", mul, div)


__all__ = [
    "TOKEN",
    "USAGE",
    "CalcResult",
    "Calculation",
    "Op",
    "evaluate",
    "merge_factors",
    "number",
    "op_of",
    "parse_calculation",
]
