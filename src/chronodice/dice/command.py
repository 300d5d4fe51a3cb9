"""``.r`` arguments → repeats, expression and reason → rolled results.

How ``[N#][expression] [reason]`` is split (the reason is what follows the expression):

* ``2#d20 攻击``: ``N#`` at the very start repeats the roll N times (1 to 20; N is a plain
  number); the dice limit counts all repeats together.
* The expression is read as far as it goes.  What follows is the reason when it is set off by a
  space (``3d6+2 侦查``), by ``, ; :`` (``3d6,侦查`` — the caller has already turned ``，`` into
  ``,``) or starts with a non-ASCII character (``3d6侦查``, ``d20😀``).  Any other ASCII
  character touching the expression is an error that points at it (``d6y`` → ``第3个字符附近无法理解
  "y"``), and so are a stray ``) ! % #`` and a dice modifier cut off by a space (``4d6 k3``).
* No expression at all (``.r``, ``.r 侦查``, ``.r 'hi``): the default die ``1d{default_faces}``,
  and the whole text is the reason.  A lone name counts as an expression only when it is a known
  attribute (``.r 力量`` shows the value); used in arithmetic an unknown name is an error
  (``1d20+潜行`` → ``未知属性 "潜行"``).
* A name touching more CJK text is cut at the longest known attribute (``1d20+敏捷攻击`` with
  ``敏捷`` known reads ``1d20+敏捷``, reason ``攻击``).
* Latin attribute names (``str``, ``dex``) work where a letter cannot be a dice operator: at the
  start or after ``+ - * / (``; ``d`` alone is always the die.

>>> import random
>>> out = roll_command("4d6k3 属性", random.Random(7))
>>> out.expression, out.reason, out.results[0].detail
('4d6k3', '属性', '4d6k3=[3,(2),4,6]=13')
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from chronodice.core.limits import MAX_FACES, MAX_MESSAGE_CHARS, MAX_REPEATS

from .ast import Dice, Expr, Var, to_text
from .errors import DiceError, DiceLimitError, DiceValueError, snippet, where
from .evaluate import DiceBudget, DieRecord, Evaluator, Rolled, all_dice
from .parser import Parser
from .tokens import Kind
from .trace import detail

_STARTS_EXPRESSION = frozenset({Kind.NUM, Kind.NAME, Kind.D, Kind.BONUS, Kind.LPAREN, Kind.PLUS, Kind.MINUS})
_NEVER_REASON = frozenset({Kind.RPAREN, Kind.HASH, Kind.BANG, Kind.PERCENT, Kind.STAR, Kind.SLASH})
_MODIFIER_WORDS = frozenset({"k", "q", "kh", "kl", "dh", "dl", "!"})
_SEPARATORS = ",;:"
"""Punctuation that may separate the expression from the reason (``3d6,侦查`` after normalising ``，``)."""


@dataclass(frozen=True)
class ParsedCommand:
    """``.r`` arguments split up; ``expr`` None means the default die."""

    repeats: int
    expr: Expr | None
    reason: str


@dataclass(frozen=True)
class RollResult:
    """One roll (one repeat): the total, the trace line, every die in rolling order."""

    total: int
    detail: str
    dice: list[DieRecord] = field(default_factory=list)
    rolled: Rolled | None = None


@dataclass(frozen=True)
class RollOutcome:
    """A whole ``.r``: the canonical expression, the reason ("" if none), one result per repeat."""

    expression: str
    reason: str
    results: list[RollResult]
    repeats: int = 1

    @property
    def total(self) -> int:
        """The total of the first (usually only) result."""
        return self.results[0].total


def _repeat_prefix(args: str) -> tuple[int, int]:
    """``(repeats, index after '#')``, or ``(1, 0)`` without an ``N#`` prefix."""
    i, n = 0, len(args)
    while i < n and args[i] in " \t":
        i += 1
    j = i
    while j < n and args[j].isascii() and args[j].isdigit():
        j += 1
    if j == i:
        return 1, 0
    k = j
    while k < n and args[k] in " \t":
        k += 1
    if k >= n or args[k] != "#":
        return 1, 0
    digits = args[i:j]
    if len(digits) > 4 or int(digits) > MAX_REPEATS:
        raise DiceLimitError(f"最多重复{MAX_REPEATS}次", position=i)
    if int(digits) < 1:
        raise DiceValueError(f"{where(i)}：重复次数至少为1", position=i)
    return int(digits), k + 1


def _modifier_word(rest: str) -> str | None:
    word = rest.split(maxsplit=1)[0] if rest.strip() else ""
    core = word.lower().rstrip("0123456789")
    return word if core in _MODIFIER_WORDS and len(word) <= 8 else None


def parse_command(args: str, *, known: Collection[str] = ()) -> ParsedCommand:
    """Split ``.r`` arguments into repeats, expression and reason (see the module docstring).

    ``known`` are the attribute names of the character (a lone known name is an expression).
    Players roll the same few expressions again and again (``1d100``, ``3d6``, ``d20+力量``), so
    the last parses are kept: the result is immutable (frozen AST nodes) and depends only on
    the text and the known names.  Errors are not kept (they are raised again each time).

    >>> p = parse_command("2#d20 攻击")
    >>> p.repeats, str(p.expr), p.reason
    (2, '1d20', '攻击')
    >>> parse_command("侦查").expr is None
    True
    """
    if len(args) > MAX_MESSAGE_CHARS:
        raise DiceLimitError(f"输入太长（最多{MAX_MESSAGE_CHARS}个字符）", position=MAX_MESSAGE_CHARS)
    return _parse_command(args, frozenset(known))


@functools.lru_cache(maxsize=2048)
def _parse_command(args: str, known: frozenset[str]) -> ParsedCommand:
    repeats, start = _repeat_prefix(args)
    parser = Parser(args, known=known, start=start)
    first = parser.peek()
    if first.kind is Kind.EOF:
        return ParsedCommand(repeats, None, "")
    if first.kind in _NEVER_REASON:
        raise parser.unexpected(first)
    if first.kind not in _STARTS_EXPRESSION:
        return ParsedCommand(repeats, None, _reason(args[first.pos :]))
    tree = parser.expression()
    if first.kind is Kind.NAME and isinstance(tree, Var) and not _is_known(tree.name, known):
        return ParsedCommand(repeats, None, args[first.pos :].strip())
    parser.check_length()
    stop = parser.peek()
    if stop.kind is Kind.EOF:
        return ParsedCommand(repeats, tree, "")
    if stop.kind is Kind.HASH:
        raise DiceError(f"{where(stop.pos)}：重复次数（N#）只能写在最前面，且只能写一次", position=stop.pos)
    rest = args[stop.pos :]
    if stop.space_before:
        if stop.kind in _NEVER_REASON:
            raise parser.unexpected(stop)
        word = _modifier_word(rest)
        if word is not None:
            raise DiceError(
                f'{where(stop.pos)}附近的 "{snippet(word)}" 要紧跟在骰子后面，不能有空格', position=stop.pos
            )
        return ParsedCommand(repeats, tree, _reason(rest))
    if stop.kind in (Kind.NAME, Kind.ERROR) and not stop.text.isascii():
        return ParsedCommand(repeats, tree, _reason(rest))
    if stop.kind is Kind.ERROR and stop.text in _SEPARATORS:
        return ParsedCommand(repeats, tree, _reason(rest))
    raise parser.unexpected(stop)


def _reason(rest: str) -> str:
    """The reason text: ``rest`` without surrounding spaces and leading separators."""
    return rest.strip().lstrip(_SEPARATORS).strip()


def _is_known(name: str, known: Collection[str]) -> bool:
    if name in known:
        return True
    folded = name.casefold()
    return any(k.casefold() == folded for k in known)


def roll_command(
    args: str,
    rng: random.Random,
    *,
    default_faces: int = 100,
    variables: Mapping[str, int | Expr] | None = None,
) -> RollOutcome:
    """Parse and roll ``.r`` arguments; raises only :class:`chronodice.core.errors.ChronoDiceError`.

    ``default_faces`` is the group's default die (``d``, ``.r`` alone); ``variables`` are the
    character's attributes for names in the expression.
    """
    if not 1 <= default_faces <= MAX_FACES:
        raise DiceLimitError(f"默认骰面数应在1到{MAX_FACES}之间", position=0)
    variables = variables if variables is not None else {}
    parsed = parse_command(args, known=variables.keys())
    tree = parsed.expr if parsed.expr is not None else Dice(None, None, pos=0)
    expression = to_text(tree, default_faces)
    evaluator = Evaluator(rng, default_faces=default_faces, variables=variables, budget=DiceBudget())
    results: list[RollResult] = []
    for _ in range(parsed.repeats):
        rolled = evaluator.roll(tree)
        results.append(
            RollResult(
                total=rolled.value,
                detail=detail(rolled, expression),
                dice=list(all_dice(rolled)),
                rolled=rolled,
            )
        )
    return RollOutcome(expression, parsed.reason, results, parsed.repeats)


__all__ = ["ParsedCommand", "RollOutcome", "RollResult", "parse_command", "roll_command"]
