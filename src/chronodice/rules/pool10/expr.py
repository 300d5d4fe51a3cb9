"""The argument language of ``.w``/``.ww``: a pool expression over card values, plus options.

Grammar (spaces allowed around operators; full-width text is normalised before this)::

    args    := expr option* [reason]
    expr    := ["+"|"-"] term (("+"|"-") term)*
    term    := number ["a" number]        # 10a8: ten dice, 8-again (Dice!/SealDice XaY)
             | name                       # a value on the active character's card
             | "(" expr ")"               # at most MAX_DEPTH deep
    option  := "a" number                 # add threshold for the whole pool (a8, a9, a10, a11)
             | ("dc" | "难度") number       # target
             | ("+" | "-") number ("s" | "成功")   # bonus successes / successes lost
             | ("附加" | "+附加") number      # bonus successes, Chinese spelling
             | "?" | "？" | "概率"           # exact odds instead of a roll
    reason  := any text after a space

A name is a run of characters other than digits, spaces, ``+ - ( ) ? ？``; it stops before an
option written right after it (``潜行dc3``, ``潜行a9``).  A number or a name glued to another term
without an operator is refused (``潜行2``: did you mean 潜行+2?).

>>> a = parse_pool_args("敏捷+潜行-2 dc3 +1s 偷偷靠近")
>>> [t.to_text(i == 0) for i, t in enumerate(a.terms)], a.dc, a.bonus, a.reason
(['敏捷', '+潜行', '-2'], 3, 1, '偷偷靠近')
>>> parse_pool_args("10a8").again, parse_pool_args("6 a9 ?").odds
(8, True)
>>> evaluate_pool(parse_pool_args("敏捷+潜行-2"), {"敏捷": 4, "潜行": 3}).text
'敏捷4+潜行3-2=5'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from chronodice.core.errors import InputSyntaxError, LimitExceeded, NotFound
from chronodice.core.limits import MAX_DICE_PER_COMMAND, MAX_EXPRESSION_CHARS

from .check import MAX_BONUS, MAX_DC
from .pool import check_again

USAGE = ".ww <骰池> [a8/a9] [dcN] [+Ns] [-Ns] [?] [理由]（骰池如 7、10a8、敏捷+潜行-2）"
MAX_DEPTH = 5
MAX_TERMS = 30
MAX_NUMBER = 10**6
MAX_REASON = 60

_STOP = set(" \t\n+-()?？")
_VS_AHEAD = re.compile(r"(?i)vs(?![a-z])|对抗")
"""Where an opposed roll's second pool starts (``敏捷+潜行vs感知``): a name stops before it."""
_OPTION_AHEAD = re.compile(r"(?i)(dc|难度)\s*[0-9]|a[0-9]|概率")
_BONUS_AHEAD = re.compile(r"(?i)[+-]\s*[0-9]+\s*(s(?![a-z])|成功)|\+?\s*附加\s*[0-9]")
_OPTIONS: list[tuple[str, re.Pattern[str]]] = [
    ("dc", re.compile(r"(?i)(?:dc|难度)\s*([0-9]+)")),
    ("again", re.compile(r"(?i)a\s*([0-9]+)")),
    ("bonus", re.compile(r"([+-])\s*([0-9]+)\s*(?:s(?![a-z])|成功)", re.IGNORECASE)),
    ("bonus_cn", re.compile(r"\+?\s*附加\s*([0-9]+)")),
    ("odds", re.compile(r"[?？]|概率")),
]


@dataclass(frozen=True)
class Term:
    """One signed term: a number (``value``, maybe with its own ``again``) or a card ``name``."""

    sign: int
    value: int | None = None
    name: str | None = None
    again: int | None = None

    def to_text(self, first: bool = False) -> str:
        op = "-" if self.sign < 0 else ("" if first else "+")
        body = self.name if self.name is not None else str(self.value)
        if self.again is not None:
            body += f"a{self.again}"
        return op + body

    def __repr__(self) -> str:
        return f"Term(sign={self.sign}, value={self.value!r}, name={self.name!r}, again={self.again!r})"


@dataclass(frozen=True)
class PoolArgs:
    """Parsed ``.ww`` arguments (names not yet looked up)."""

    terms: tuple[Term, ...]
    again: int | None = None
    dc: int | None = None
    bonus: int = 0
    lost: int = 0
    odds: bool = False
    reason: str = ""

    def to_text(self) -> str:
        parts = ["".join(t.to_text(i == 0) for i, t in enumerate(self.terms))]
        if self.again is not None and not any(t.again for t in self.terms):
            parts.append(f"a{self.again}")
        if self.dc is not None:
            parts.append(f"dc{self.dc}")
        if self.bonus:
            parts.append(f"+{self.bonus}s")
        if self.lost:
            parts.append(f"-{self.lost}s")
        if self.odds:
            parts.append("?")
        if self.reason:
            parts.append(self.reason)
        return " ".join(parts)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.terms if t.name is not None)


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.terms: list[Term] = []

    def error(self, message: str) -> InputSyntaxError:
        return InputSyntaxError(message, usage=USAGE, position=self.pos)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_ws(self) -> None:
        while self.peek() in (" ", "\t", "\n") and self.peek():
            self.pos += 1

    def expr(self, sign: int, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise self.error(f"括号嵌套太深（最多{MAX_DEPTH}层）")
        self.skip_ws()
        term_sign = sign
        if self.peek() in ("+", "-") and not _BONUS_AHEAD.match(self.text, self.pos):
            term_sign = -sign if self.peek() == "-" else sign
            self.pos += 1
            self.skip_ws()
        self.term(term_sign, depth)
        while True:
            save = self.pos
            self.skip_ws()
            ch = self.peek()
            if ch in ("+", "-") and not _BONUS_AHEAD.match(self.text, self.pos):
                self.pos += 1
                self.skip_ws()
                self.term(-sign if ch == "-" else sign, depth)
                continue
            self.pos = save
            return

    def term(self, sign: int, depth: int) -> None:
        ch = self.peek()
        if len(self.terms) >= MAX_TERMS:
            raise self.error(f"骰池最多{MAX_TERMS}项")
        if ch == "(":
            self.pos += 1
            self.expr(sign, depth + 1)
            self.skip_ws()
            if self.peek() != ")":
                raise self.error("括号没有闭合")
            self.pos += 1
            self.glued()
            return
        if "0" <= ch <= "9":
            m = re.compile(r"[0-9]+").match(self.text, self.pos)
            assert m is not None
            if len(m.group()) > 7 or int(m.group()) > MAX_NUMBER:
                raise LimitExceeded(
                    f"数值 {m.group()[:12]} 太大：一条指令最多掷{MAX_DICE_PER_COMMAND}颗骰子（含加骰）"
                )
            self.pos = m.end()
            value = int(m.group())
            again = None
            a = re.compile(r"[aA]([0-9]+)").match(self.text, self.pos)
            if a:
                if len(a.group(1)) > 3:
                    raise self.error(f"加骰阈值 a{a.group(1)[:6]} 无效")
                again = check_again(int(a.group(1)))
                self.pos = a.end()
                if re.compile(r"[kKqQmM][0-9]").match(self.text, self.pos):
                    raise self.error("无限恐怖骰池固定为D10、8以上成功，不支持 k/q/m 参数")
            elif re.compile(r"[dD][0-9]").match(self.text, self.pos):
                raise self.error("骰池里不能写 d 骰（请用 .r 掷普通骰）")
            self.terms.append(Term(sign=sign, value=value, again=again))
            self.glued()
            return
        if _OPTION_AHEAD.match(self.text, self.pos) or _BONUS_AHEAD.match(self.text, self.pos):
            raise self.error("缺少骰池（一个数或角色卡上的属性名）")
        start = self.pos
        while self.pos < len(self.text):
            c = self.text[self.pos]
            if c in _STOP or c.isdigit() or c in "（）":
                break
            if self.pos > start and _OPTION_AHEAD.match(self.text, self.pos):
                break
            if self._vs_ahead():
                break
            self.pos += 1
        name = self.text[start : self.pos]
        if not name:
            if ch == ")":
                raise self.error("多余的右括号")
            if ch and not ch.isspace():
                raise self.error(f"「{ch}」不是有效的骰池（一个数或角色卡上的属性名）")
            raise self.error("缺少骰池（一个数或角色卡上的属性名）")
        self.terms.append(Term(sign=sign, name=name))
        self.glued()

    def _vs_ahead(self) -> bool:
        """``vs`` not glued to a Latin name before it (``敏捷vs感知`` yes, ``canvs`` no), or ``对抗``."""
        before = self.text[self.pos - 1 : self.pos]
        if before.isascii() and before.isalpha() and self.text[self.pos : self.pos + 1] in "vV":
            return False
        return _VS_AHEAD.match(self.text, self.pos) is not None

    def glued(self) -> None:
        """A term must be followed by an operator, a space, an option or the end."""
        ch = self.peek()
        if not ch or ch in _STOP or _OPTION_AHEAD.match(self.text, self.pos) or self._vs_ahead():
            return
        last = self.terms[-1].to_text(first=True).lstrip("-")
        raise self.error(f"「{last}{self.text[self.pos : self.pos + 4]}」中间缺少+或-（理由请用空格隔开）")


def scan_pool(text: str, pos: int = 0) -> tuple[tuple[Term, ...], int]:
    """Read the pool expression of ``text`` from ``pos``: its terms and where it ends (before the
    options, the reason or ``vs``).  Raises :class:`InputSyntaxError` (or :class:`LimitExceeded`).

    >>> terms, end = scan_pool("敏捷+潜行vs感知")
    >>> [t.to_text(i == 0) for i, t in enumerate(terms)], end
    (['敏捷', '+潜行'], 5)
    """
    sc = _Scanner(text)
    sc.pos = pos
    sc.expr(1, 0)
    if sc.peek() == ")":
        raise sc.error("多余的右括号")
    term_agains = {t.again for t in sc.terms if t.again is not None}
    if len(term_agains) > 1:
        raise InputSyntaxError("一个骰池只能有一个加骰阈值", usage=USAGE)
    return tuple(sc.terms), sc.pos


def _match_option(text: str, pos: int) -> tuple[str, re.Match[str]] | None:
    for kind, pattern in _OPTIONS:
        m = pattern.match(text, pos)
        if m:
            return kind, m
    return None


def parse_pool_args(text: str) -> PoolArgs:
    """Parse ``.ww`` arguments; raises :class:`InputSyntaxError` with the usage on bad input."""
    text = text.strip()
    if len(text) > MAX_EXPRESSION_CHARS:
        raise LimitExceeded(f"表达式太长（最多{MAX_EXPRESSION_CHARS}个字符）")
    if not text:
        raise InputSyntaxError("请给出骰池", usage=USAGE)
    sc = _Scanner(text)
    sc.expr(1, 0)
    again: int | None = None
    dc: int | None = None
    bonus = lost = 0
    odds = False
    while True:
        sc.skip_ws()
        if sc.pos >= len(text):
            break
        if text[sc.pos] == ")":
            raise sc.error("多余的右括号")
        found = _match_option(text, sc.pos)
        if found is None:
            break
        kind, m = found
        sc.pos = m.end()
        if kind == "odds":
            odds = True
            continue
        digits = m.group(m.lastindex or 1)
        if len(digits) > 4:
            raise sc.error(f"数值 {digits[:8]} 太大")
        n = int(digits)
        if kind == "dc":
            if not 1 <= n <= MAX_DC:
                raise sc.error(f"DC应为1到{MAX_DC}")
            dc = n
        elif kind == "again":
            again = check_again(n)
        elif kind == "bonus_cn" or (kind == "bonus" and m.group(1) == "+"):
            bonus += n
        else:
            lost += n
    if bonus > MAX_BONUS or lost > MAX_BONUS:
        raise sc.error(f"附加成功或扣除的成功最多{MAX_BONUS}")
    reason = text[sc.pos :].strip()[:MAX_REASON]
    term_agains = {t.again for t in sc.terms if t.again is not None}
    if again is not None:
        term_agains.add(again)
    if len(term_agains) > 1:
        raise InputSyntaxError("一个骰池只能有一个加骰阈值", usage=USAGE)
    return PoolArgs(
        terms=tuple(sc.terms),
        again=term_agains.pop() if term_agains else None,
        dc=dc,
        bonus=bonus,
        lost=lost,
        odds=odds,
        reason=reason,
    )


@dataclass(frozen=True)
class PoolPart:
    """One term with its value looked up, and the bonus successes it brings."""

    sign: int
    label: str
    value: int
    bonus: int = 0
    is_name: bool = False


@dataclass(frozen=True)
class ResolvedPool:
    """A pool expression with every name looked up: ``size`` dice and where they came from."""

    parts: tuple[PoolPart, ...]

    @property
    def size(self) -> int:
        return sum(p.sign * p.value for p in self.parts)

    @property
    def term_bonus(self) -> int:
        """Bonus successes brought by the attributes and skills used (positive terms only)."""
        return sum(p.bonus for p in self.parts if p.sign > 0)

    @property
    def text(self) -> str:
        """``敏捷4+潜行3-2=5`` — the values a card holds appear, so players see the source."""
        out = []
        for i, p in enumerate(self.parts):
            op = "-" if p.sign < 0 else ("" if i == 0 else "+")
            out.append(f"{op}{p.label}{p.value if p.is_name else ''}")
        body = "".join(out)
        if len(self.parts) == 1 and not self.parts[0].is_name and self.parts[0].sign > 0:
            return body
        return f"{body}={self.size}"


def evaluate_pool(
    args: PoolArgs,
    values: Mapping[str, int],
    bonus_of: Callable[[str, int], int] | None = None,
    *,
    owner: str = "角色卡",
) -> ResolvedPool:
    """Look every name up in ``values``; ``bonus_of(name, value)`` gives its bonus successes.

    Unknown names are reported all at once.
    """
    missing = [n for n in args.names if n not in values]
    if missing:
        uniq = list(dict.fromkeys(missing))
        raise NotFound(f"{owner}上没有「{'」「'.join(m[:20] for m in uniq[:5])}」，请先用 .st 录入")
    parts = []
    for t in args.terms:
        if t.name is not None:
            v = int(values[t.name])
            b = bonus_of(t.name, v) if bonus_of is not None and t.sign > 0 else 0
            parts.append(PoolPart(t.sign, t.name, v, b, is_name=True))
        else:
            assert t.value is not None
            parts.append(PoolPart(t.sign, str(t.value), t.value))
    return ResolvedPool(tuple(parts))


__all__ = [
    "USAGE",
    "PoolArgs",
    "PoolPart",
    "ResolvedPool",
    "Term",
    "evaluate_pool",
    "parse_pool_args",
    "scan_pool",
]
