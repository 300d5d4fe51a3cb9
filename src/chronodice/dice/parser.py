"""Precedence-climbing parser: tokens → :mod:`chronodice.dice.ast` tree with positions.

The grammar is in :mod:`chronodice.dice.ast`.  The parser never recurses more than
:data:`MAX_DEPTH` levels of parentheses and signs (a clear :class:`DiceLimitError`, never
``RecursionError``) and never consumes a token that ends past :data:`MAX_EXPRESSION_CHARS`.

:func:`parse` wants the whole text to be one expression.  :class:`Parser` can also stop early
(the command splits ``3d6+2 侦查`` into expression and reason): after :meth:`Parser.expression`
the token that stopped it is :meth:`Parser.peek`.

>>> parse("1d20+敏捷")
Binary(op='+', left=Dice(count=Num(value=1, pos=0), faces=Num(value=20, pos=2), explode=False, select=None, pos=1), right=Var(name='敏捷', pos=5), pos=4)
>>> parse("3d6y")
Traceback (most recent call last):
...
chronodice.dice.errors.DiceError: 第4个字符附近无法理解 "y"
"""

from __future__ import annotations

from collections.abc import Collection

from chronodice.core.limits import MAX_EXPRESSION_CHARS

from .ast import Binary, Bonus, Dice, Expr, Fate, Num, Pool, Select, Unary, Var
from .errors import DiceError, DiceLimitError, snippet, where
from .tokens import Kind, Lexer, Token

MAX_DEPTH = 50
"""Deepest nesting of parentheses and signs."""
MAX_MAGNITUDE = 10**15
"""Largest absolute value of a literal or of any intermediate result."""

_BINARY = {Kind.PLUS: ("+", 1), Kind.MINUS: ("-", 1), Kind.STAR: ("*", 2), Kind.SLASH: ("/", 2)}
_SELECT_CANON = {"k": "k", "kh": "k", "q": "q", "kl": "q", "dh": "dh", "dl": "dl"}


_ADVANTAGE = {"优势": "k", "劣势": "q"}


def _is_plain_d20(count: Expr | None, faces: Expr | None, explode: bool, select: Select | None) -> bool:
    """``d20`` or ``1d20`` with no modifier: the die that 优势/劣势 may follow."""
    one = count is None or (isinstance(count, Num) and count.value == 1)
    return one and isinstance(faces, Num) and faces.value == 20 and not explode and select is None


class Parser:
    """One pass over ``text`` from ``start``; ``known`` names help split ``敏捷攻击``."""

    def __init__(
        self,
        text: str,
        *,
        known: Collection[str] = (),
        start: int = 0,
        max_chars: int = MAX_EXPRESSION_CHARS,
    ) -> None:
        self.text = text
        self.lexer = Lexer(text, known=known, start=start)
        self.max_chars = max_chars
        self.depth = 0
        self.last_end = start

    # ------------------------------------------------------------------ tokens
    def peek(self) -> Token:
        """The next token (the one that stopped the parse, after :meth:`expression`)."""
        return self.lexer.peek()

    def _advance(self) -> Token:
        tok = self.lexer.advance()
        self.last_end = tok.end
        if tok.end > self.max_chars and tok.kind is not Kind.NAME:
            raise self.too_long(tok.pos)
        return tok

    def too_long(self, position: int) -> DiceLimitError:
        """The error for an expression longer than ``max_chars``."""
        return DiceLimitError(f"表达式太长（最多{self.max_chars}个字符）", position=position)

    def check_length(self) -> None:
        """Raise if the consumed expression ends past ``max_chars``.

        A long name is let through :meth:`expression` (a lone unknown name is a reason, and a
        reason may be long); call this once the text is known to be an expression.
        """
        if self.last_end > self.max_chars:
            raise self.too_long(self.max_chars)

    def unexpected(self, tok: Token) -> DiceError:
        """The error for a token that cannot stand here."""
        if tok.kind is Kind.EOF:
            if not self.text.strip():
                return DiceError("表达式为空", position=0)
            return DiceError(f"表达式在{where(tok.pos - 1)}后不完整", position=tok.pos)
        if tok.kind is Kind.RPAREN:
            return DiceError(f'{where(tok.pos)}附近多了一个 ")"', position=tok.pos)
        return DiceError(f'{where(tok.pos)}附近无法理解 "{snippet(tok.text)}"', position=tok.pos)

    def _enter(self, tok: Token) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise DiceLimitError(f"表达式嵌套太深（最多{MAX_DEPTH}层）", position=tok.pos)

    # ------------------------------------------------------------------ grammar
    def expression(self) -> Expr:
        """Parse one expression, stopping before the first token that cannot continue it."""
        return self._binary(0)

    def _binary(self, min_prec: int) -> Expr:
        left = self._unary()
        while True:
            tok = self.peek()
            entry = _BINARY.get(tok.kind)
            if entry is None or entry[1] <= min_prec:
                return left
            self._advance()
            right = self._binary(entry[1])
            left = Binary(entry[0], left, right, tok.pos)

    def _unary(self) -> Expr:
        tok = self.peek()
        if tok.kind in (Kind.PLUS, Kind.MINUS):
            self._advance()
            self._enter(tok)
            operand = self._unary()
            self.depth -= 1
            return Unary(tok.text, operand, tok.pos)
        return self._dice()

    def _dice(self) -> Expr:
        tok = self.peek()
        if tok.kind is Kind.D:
            return self._dice_tail(None, self._advance())
        if tok.kind is Kind.BONUS:
            self._advance()
            return Bonus(tok.text.lower(), self._part(), tok.pos)
        atom = self._atom()
        nxt = self.peek()
        if nxt.space_before:
            if nxt.kind is Kind.D and not isinstance(atom, Var):
                # "1 d20": the count cut off from its die (not "1", reason "d20")
                raise DiceError(
                    f'{where(nxt.pos)}附近的 "{nxt.text}" 要紧跟在骰子个数后面，不能有空格', position=nxt.pos
                )
            return atom
        if nxt.kind is Kind.D:
            return self._dice_tail(atom, self._advance())
        if nxt.kind is Kind.A:
            self._advance()
            threshold = self._part()
            return Pool(atom, threshold if threshold is not None else Num(10, nxt.pos), nxt.pos)
        return atom

    def _part(self) -> Expr | None:
        """Faces or threshold touching the operator: a number or a parenthesised expression."""
        nxt = self.peek()
        if not nxt.space_before and nxt.kind in (Kind.NUM, Kind.LPAREN):
            return self._atom()
        return None

    def _dice_tail(self, count: Expr | None, d_tok: Token) -> Dice | Fate:
        nxt = self.peek()
        faces: Expr | None
        if nxt.kind is Kind.F and not nxt.space_before:
            self._advance()
            return Fate(count, d_tok.pos)
        if nxt.kind is Kind.PERCENT and not nxt.space_before:
            self._advance()
            faces = Num(100, nxt.pos)
        else:
            faces = self._part()
            if faces is None and nxt.kind is Kind.NUM and nxt.space_before:
                # "1d 20": the faces cut off from the die (not 1d100, reason "20")
                raise DiceError(
                    f'{where(nxt.pos)}附近的 "{snippet(nxt.text)}" 要紧跟在 "d" 后面，不能有空格',
                    position=nxt.pos,
                )
        explode = False
        select: Select | None = None
        while True:
            tok = self.peek()
            if tok.space_before:
                break
            if tok.kind is Kind.BANG:
                if explode:
                    raise DiceError(f'{where(tok.pos)}：一个骰子只能写一个 "!"', position=tok.pos)
                self._advance()
                explode = True
            elif tok.kind is Kind.SELECT:
                if select is not None:
                    raise DiceError(
                        f"{where(tok.pos)}：一个骰子只能写一个取舍（k/q/kh/kl/dh/dl）", position=tok.pos
                    )
                self._advance()
                n = 1
                num = self.peek()
                if num.kind is Kind.NUM and not num.space_before:
                    self._advance()
                    n = self._int(num)
                select = Select(_SELECT_CANON[tok.text.lower()], n, tok.pos)
            else:
                break
        if _is_plain_d20(count, faces, explode, select):
            word = self.peek()
            if word.kind is Kind.NAME and not word.space_before and word.text[:2] in _ADVANTAGE:
                # "d20优势" → 2d20k1, "d20劣势" → 2d20q1 (SealDice); the rest stays the reason
                adv = self.lexer.take_prefix(2, Kind.SELECT)
                self.last_end = adv.end
                return Dice(
                    Num(2, adv.pos), faces, False, Select(_ADVANTAGE[adv.text], 1, adv.pos), d_tok.pos
                )
        return Dice(count, faces, explode, select, d_tok.pos)

    def _atom(self) -> Expr:
        tok = self.peek()
        if tok.kind is Kind.NUM:
            self._advance()
            return Num(self._int(tok), tok.pos)
        if tok.kind is Kind.NAME:
            self._advance()
            return Var(tok.text, tok.pos)
        if tok.kind is Kind.LPAREN:
            self._advance()
            self._enter(tok)
            inner = self._binary(0)
            close = self.peek()
            if close.kind is not Kind.RPAREN:
                if close.kind is Kind.EOF:
                    raise DiceError(f"{where(tok.pos)}的括号没有闭合", position=tok.pos)
                raise self.unexpected(close)
            self._advance()
            self.depth -= 1
            return inner
        raise self.unexpected(tok)

    def _int(self, tok: Token) -> int:
        if len(tok.text) > 16 or int(tok.text) > MAX_MAGNITUDE:
            raise DiceLimitError(f"{where(tok.pos)}的数字太大", position=tok.pos)
        return int(tok.text)


def parse(text: str, *, known: Collection[str] = ()) -> Expr:
    """Parse ``text`` as one whole dice expression (no reason, no ``N#``).

    Raises :class:`DiceError` (or a subclass) pointing at the first bad token.

    >>> str(parse("2d20k + 1d%"))
    '2d20k1+1d100'
    """
    parser = Parser(text, known=known)
    tree = parser.expression()
    tok = parser.peek()
    if tok.kind is not Kind.EOF:
        raise parser.unexpected(tok)
    parser.check_length()
    return tree


__all__ = ["MAX_DEPTH", "MAX_MAGNITUDE", "Parser", "parse"]
