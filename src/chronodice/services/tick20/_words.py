"""Reading command arguments: words (also without spaces), 优势/劣势/被动, typed ``±N`` modifiers,
target lists and plain numbers."""

from __future__ import annotations

import re

from chronodice.core.errors import InputSyntaxError
from chronodice.rules.tick20.modifiers import Modifier, parse_mod_type


def parse_edge_words(words: list[str]) -> tuple[bool, bool, bool, list[str]]:
    adv = dis = passive = False
    rest = []
    for w in words:
        if w in ("优势", "adv"):
            adv = True
        elif w in ("劣势", "dis"):
            dis = True
        elif w in ("被动", "passive", "DC", "dc"):
            passive = True
        else:
            rest.append(w)
    return adv, dis, passive, rest


MOD_RE = re.compile(r"^([+-]\d{1,3})(通用|环境|内在|状态|通|环|内|状)?$")


def parse_mods(words: list[str]) -> tuple[list[Modifier], list[str]]:
    mods, rest = [], []
    for w in words:
        m = MOD_RE.match(w)
        if m:
            mods.append(Modifier(int(m.group(1)), parse_mod_type(m.group(2) or ""), source="加值"))
        else:
            rest.append(w)
    return mods, rest


def tokens(args: str) -> list[str]:
    """Split arguments into words, also where players leave out spaces (``运动15``, ``+2环境``);
    a ``=表达式`` (fixed initiative or a dice expression) stays one word.

    >>> tokens("运动15 优势"), tokens("=1d6+10巨魔 暗")
    (['运动', '15', '优势'], ['=1d6+10', '巨魔', '暗'])
    """
    out: list[str] = []
    for word in args.split():
        expr = re.match(r"^(=[0-9dD+\-*/()]+)(.*)$", word)
        if expr:
            out.append(expr.group(1))
            word = expr.group(2)
            if not word:
                continue
        spaced = re.sub(r"(?<=[^\s+\-=\d])(?=[+\-]\d)|(?<=\d)(?=[^\d\s])|(?<=[^\s\d+\-=])(?=\d)", " ", word)
        out.extend(spaced.split())
    return out


def split_targets(text: str) -> list[str]:
    return [t for t in re.split(r"[;/,，；、]", text) if t.strip()]


def number(word: str) -> int:
    if not re.fullmatch(r"[+-]?\d{1,3}", word):
        raise InputSyntaxError(f"「{word}」不是数值")
    return int(word)
