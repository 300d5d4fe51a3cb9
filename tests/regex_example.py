"""Random text that a declared ``Pattern`` regex reads, for the command fuzzer.

A kind declared by a regular expression (``hit3``, ``轻伤x2``, ``#2``) is rarely hit by picking
words from a list; walking the parsed regex gives text of the very shape it reads (look-arounds
and back-references are skipped, so the text may still be refused — a fuzzer wants that too).

>>> import random, re
>>> rng = random.Random(3)
>>> all(re.fullmatch(r"(hit|dp|dr)[0-9]{1,2}", example(r"(hit|dp|dr)([0-9]{1,2})", rng)) for _ in range(20))
True
"""

from __future__ import annotations

import random
from typing import Any

try:  # Python 3.11+
    import re._constants as sre_constants
    import re._parser as sre_parse
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

ALPHABET = (
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    " \t\n+-*/=#@:,.%()<>?!_甲乙力量轻伤治疗号刻轮对抗附加成功１２＋：，　²③😀"
)
"""The characters a class or ``.`` picks from."""
_MAX_EXTRA = 3
"""Most repeats beyond a quantifier's minimum."""


def example(regex: str, rng: random.Random) -> str:
    """One text shaped like ``regex`` (flags such as ``(?i)`` are ignored)."""
    return _walk(list(sre_parse.parse(regex)), rng)


def _walk(items: list[tuple[Any, Any]], rng: random.Random) -> str:
    out: list[str] = []
    for op, av in items:
        if op is sre_constants.LITERAL:
            out.append(chr(av))
        elif op in (sre_constants.IN, sre_constants.NOT_LITERAL, sre_constants.ANY):
            out.append(_pick(op, av, rng))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            low, high, sub = av
            high = min(high, low + _MAX_EXTRA)
            out.extend(_walk(list(sub), rng) for _ in range(rng.randint(low, high)))
        elif op is sre_constants.SUBPATTERN:
            out.append(_walk(list(av[-1]), rng))
        elif op is sre_constants.BRANCH:
            out.append(_walk(list(rng.choice(av[1])), rng))
        # AT (anchors), ASSERT / ASSERT_NOT (look-arounds), GROUPREF: nothing to write
    return "".join(out)


def _pick(op: Any, av: Any, rng: random.Random) -> str:
    """A character of ``ALPHABET`` that the class (or ``.``, or ``[^x]``) takes."""
    if op is sre_constants.ANY:
        return rng.choice(ALPHABET)
    items = (
        [(sre_constants.NEGATE, None), (sre_constants.LITERAL, av)] if op is sre_constants.NOT_LITERAL else av
    )
    fits = [ch for ch in ALPHABET if _in_class(ch, items)]
    return rng.choice(fits) if fits else ""


_CATEGORIES = {
    sre_constants.CATEGORY_DIGIT: str.isdecimal,
    sre_constants.CATEGORY_NOT_DIGIT: lambda ch: not ch.isdecimal(),
    sre_constants.CATEGORY_SPACE: str.isspace,
    sre_constants.CATEGORY_NOT_SPACE: lambda ch: not ch.isspace(),
    sre_constants.CATEGORY_WORD: lambda ch: ch.isalnum() or ch == "_",
    sre_constants.CATEGORY_NOT_WORD: lambda ch: not (ch.isalnum() or ch == "_"),
}


def _in_class(ch: str, items: list[tuple[Any, Any]]) -> bool:
    negate = False
    hit = False
    for op, av in items:
        if op is sre_constants.NEGATE:
            negate = True
        elif op is sre_constants.LITERAL:
            hit = hit or ch == chr(av)
        elif op is sre_constants.RANGE:
            hit = hit or av[0] <= ord(ch) <= av[1]
        elif op is sre_constants.CATEGORY:
            test = _CATEGORIES.get(av)
            hit = hit or (test is not None and test(ch))
    return hit != negate


__all__ = ["ALPHABET", "example"]
