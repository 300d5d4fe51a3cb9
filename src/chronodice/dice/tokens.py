"""Tokenizer of the dice language: a lazy, context-aware scanner with positions.

Latin letters are both dice operators (``d a k q kh kl dh dl``) and attribute names (``str``),
so the scanner looks at the token before them:

* right after an operand (a number, a name, ``)``, a dice part) and with no space in between,
  letters are dice operators, read greedily (``kh`` before ``k``); any other letter there is an
  :attr:`Kind.ERROR` token, so ``d6y`` fails at ``y`` — except ``x``/``X``, which is
  multiplication there (``2x3``, ``1d6x2``, as Dice!/SealDice players write it);
* anywhere else a run of latin letters is a name, except a lone ``d`` (``d20``, ``d%``, ``d``),
  which is the dice operator, and ``dF`` (Fate dice: ``d`` then ``F``; ``f`` is an operator only
  right after ``d``), and a lone ``b``/``p`` (CoC bonus/penalty dice ``b2``, ``p``), so a name
  that is exactly ``b`` or ``p`` cannot be written either.  So ``1d20+dex`` reads ``dex`` as a name, but a name that is
  exactly ``d`` cannot be written.

A run of other letters (CJK, kana, …) is always a name.  When ``known`` names are given and the
run is not one of them, the longest known prefix is taken (``敏捷攻击`` → ``敏捷`` + ``攻击``), so an
attribute written right before the reason still works.

Whitespace between tokens is skipped but remembered (:attr:`Token.space_before`): the parser
allows it only around ``+ - * / ( )``, so the parts of a dice term must touch (``4d6k3``).

>>> [t.text for t in Lexer("4d6kh3+敏捷").tokens()]
['4', 'd', '6', 'kh', '3', '+', '敏捷', '']
>>> [t.kind.name for t in Lexer("1d20 + dex").tokens()]
['NUM', 'D', 'NUM', 'PLUS', 'NAME', 'EOF']
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterator
from dataclasses import dataclass


class Kind(enum.Enum):
    """What a token is."""

    NUM = "数字"
    NAME = "属性名"
    PLUS = "+"
    MINUS = "-"
    STAR = "*"
    SLASH = "/"
    LPAREN = "("
    RPAREN = ")"
    HASH = "#"
    BANG = "!"
    PERCENT = "%"
    D = "d"
    A = "a"
    F = "F"
    BONUS = "b/p"
    SELECT = "k/q/kh/kl/dh/dl"
    ERROR = "?"
    EOF = "结尾"


@dataclass(frozen=True)
class Token:
    """One token: its kind, its text as typed, where it starts (0-based) and ends."""

    kind: Kind
    text: str
    pos: int
    end: int
    space_before: bool = False


_SPACE = " \t\r\n"
_SINGLE = {
    "+": Kind.PLUS,
    "-": Kind.MINUS,
    "*": Kind.STAR,
    "/": Kind.SLASH,
    "(": Kind.LPAREN,
    ")": Kind.RPAREN,
    "#": Kind.HASH,
    "!": Kind.BANG,
    "%": Kind.PERCENT,
}
# After these, letters that touch are dice operators.
_OPERAND_END = frozenset(
    {
        Kind.NUM,
        Kind.NAME,
        Kind.RPAREN,
        Kind.PERCENT,
        Kind.BANG,
        Kind.D,
        Kind.A,
        Kind.SELECT,
        Kind.F,
        Kind.BONUS,
    }
)
_SELECTORS_2 = ("kh", "kl", "dh", "dl")


def is_latin(ch: str) -> bool:
    """An ASCII letter."""
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z")


def is_name_char(ch: str) -> bool:
    """A letter outside ASCII (CJK, kana, hangul, accented latin …).

    >>> is_name_char("敏"), is_name_char("a"), is_name_char("😀"), is_name_char("，")
    (True, False, False, False)
    """
    return ord(ch) > 127 and ch.isalpha()


class Lexer:
    """Hands out tokens one at a time; the kind of a letter depends on the token before it."""

    def __init__(self, text: str, *, known: Collection[str] = (), start: int = 0) -> None:
        self.text = text
        self.known = known
        self._longest_known = max((len(k) for k in known), default=0)
        self.index = start
        self._prev: Kind | None = None
        self._peeked: Token | None = None

    def peek(self) -> Token:
        """The next token, without consuming it."""
        if self._peeked is None:
            self._peeked = self._scan()
        return self._peeked

    def advance(self) -> Token:
        """Consume and return the next token."""
        tok = self.peek()
        self._peeked = None
        self._prev = tok.kind
        self.index = tok.end
        return tok

    def take_prefix(self, n: int, kind: Kind) -> Token:
        """Consume only the first ``n`` characters of the next token, as a token of ``kind``.

        For words glued to what follows (``d20优势攻击``: ``优势`` is a modifier, ``攻击`` the reason).
        """
        tok = self.peek()
        part = Token(kind, tok.text[:n], tok.pos, tok.pos + n, tok.space_before)
        self._peeked = None
        self._prev = kind
        self.index = part.end
        return part

    def tokens(self) -> Iterator[Token]:
        """All remaining tokens, the final :attr:`Kind.EOF` included (for tests and doctests)."""
        while True:
            tok = self.advance()
            yield tok
            if tok.kind is Kind.EOF:
                return

    # ------------------------------------------------------------------ scanning
    def _scan(self) -> Token:
        text, i, n = self.text, self.index, len(self.text)
        start = i
        while i < n and text[i] in _SPACE:
            i += 1
        space = i > start
        if i >= n:
            return Token(Kind.EOF, "", n, n, space)
        ch = text[i]
        if ch.isascii() and ch.isdigit():
            j = i + 1
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            return Token(Kind.NUM, text[i:j], i, j, space)
        kind = _SINGLE.get(ch)
        if kind is not None:
            return Token(kind, ch, i, i + 1, space)
        if is_latin(ch):
            if self._prev in _OPERAND_END and not space:
                return self._operator_letters(i, space)
            j = i + 1
            while j < n and is_latin(text[j]):
                j += 1
            word = text[i:j]
            if word in ("d", "D"):
                return Token(Kind.D, word, i, j, space)
            if word in ("b", "p", "B", "P"):  # CoC bonus / penalty dice: b2, p
                return Token(Kind.BONUS, word, i, j, space)
            if word.lower() == "df":  # Fate dice: the d here, the F next
                return Token(Kind.D, word[0], i, i + 1, space)
            return Token(Kind.NAME, word, i, j, space)
        if is_name_char(ch):
            j = i + 1
            while j < n and is_name_char(text[j]):
                j += 1
            j = self._known_prefix(i, j)
            return Token(Kind.NAME, text[i:j], i, j, space)
        return Token(Kind.ERROR, ch, i, i + 1, space)

    def _operator_letters(self, i: int, space: bool) -> Token:
        text = self.text
        two = text[i : i + 2].lower()
        if two in _SELECTORS_2:
            return Token(Kind.SELECT, text[i : i + 2], i, i + 2, space)
        one = text[i].lower()
        if one == "x":
            return Token(Kind.STAR, text[i], i, i + 1, space)
        if one == "d":
            return Token(Kind.D, text[i], i, i + 1, space)
        if one == "f" and self._prev is Kind.D:
            return Token(Kind.F, text[i], i, i + 1, space)
        if one == "a":
            return Token(Kind.A, text[i], i, i + 1, space)
        if one in "kq":
            return Token(Kind.SELECT, text[i], i, i + 1, space)
        return Token(Kind.ERROR, text[i], i, i + 1, space)

    def _known_prefix(self, i: int, j: int) -> int:
        """End of the name starting at ``i``: the whole run, or its longest known prefix."""
        if not self.known or self.text[i:j] in self.known:
            return j
        for k in range(min(j - 1, i + self._longest_known), i, -1):
            if self.text[i:k] in self.known:
                return k
        return j


__all__ = ["Kind", "Lexer", "Token", "is_latin", "is_name_char"]
