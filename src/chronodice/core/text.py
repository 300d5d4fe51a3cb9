"""Normalisation at the edge: full-width punctuation, spaces, control characters.

Parsers only ever see normalised text; replies use one spelling.
"""

from __future__ import annotations

import unicodedata

_FULLWIDTH = str.maketrans(
    {
        "：": ":",
        "，": ",",
        "（": "(",
        "）": ")",
        "＋": "+",
        "－": "-",
        "＊": "*",
        "／": "/",
        "＃": "#",
        "＝": "=",
        "　": " ",
        "！": "!",
        "％": "%",
        "；": ";",
        "＜": "<",
        "＞": ">",
        "×": "*",
        "÷": "/",
    }
)


def normalize(text: str) -> str:
    """Map full-width punctuation and digits to ASCII, drop control characters, strip.

    >>> normalize("力量：６０，敏捷：50， ")
    '力量:60,敏捷:50,'
    >>> normalize("1d6\\x00+2\\u200b")
    '1d6+2'
    """
    out: list[str] = []
    for ch in text.translate(_FULLWIDTH):
        if "０" <= ch <= "９" or "Ａ" <= ch <= "Ｚ" or "ａ" <= ch <= "ｚ":
            ch = chr(ord(ch) - 0xFEE0)
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf") and ch not in "\n\t":
            continue
        out.append(ch)
    return "".join(out).strip()
