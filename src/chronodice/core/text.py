"""Normalisation at the edge: full-width punctuation, spaces, control characters.

Parsers only ever see normalised text; replies use one spelling.
"""

from __future__ import annotations

import re
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
        if cat in ("Cc", "Cf", "Cs") and ch not in "\n\t":
            continue
        out.append(ch)
    return "".join(out).strip()


UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""What no database or encoder takes: NUL (PostgreSQL text) and lone surrogates (not UTF-8)."""
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""Unicode's Bidi_Control characters (ALM, LRM, RLM, the embeddings and overrides such as U+202E,
the isolates): invisible, they reorder the text around them, so a name or a log line holding
one can show another text than it is (a reply, a page, an export read backwards)."""
STRIPPED = re.compile(f"[\x00\ud800-\udfff{BIDI_CONTROLS}]")


def clean_text(text: str) -> str:
    """``text`` without NUL, lone surrogates and bidi controls.

    Applied at the edge (message text, sender names, log lines) so nothing downstream ever
    holds them: PostgreSQL refuses NUL in text and JSON, a lone surrogate cannot be encoded as
    UTF-8 at all (a valid pair never reaches Python as two surrogates), and a bidi control
    makes a text display as another.

    >>> clean_text("备注\\x00"), clean_text("a\\ud83db"), clean_text("好"), clean_text("abc\\u202edcba")
    ('备注', 'ab', '好', 'abcdcba')
    """
    return STRIPPED.sub("", text) if STRIPPED.search(text) else text


_COMMAND_STARTS = ".。．/!！#＃"


def safe_name(name: str) -> str:
    """A name fit to echo in a reply: never starts like a command another bot would run.

    A nickname or group card such as ``.r d20`` would make a reply that begins with a command;
    the leading prefix characters become ``·``.

    >>> safe_name(".r d20"), safe_name("。。nn x"), safe_name("阿梓")
    ('·r d20', '·nn x', '阿梓')
    """
    stripped = name.lstrip()
    if stripped[:1] and stripped[0] in _COMMAND_STARTS:
        return "·" + stripped.lstrip(_COMMAND_STARTS + " ")
    return name


def safe_reply(text: str) -> str:
    """A reply text that does not start with a command prefix (other bots would run it).

    >>> safe_reply(".r d20 掷出了 7"), safe_reply("好的")
    ('·r d20 掷出了 7', '好的')
    """
    return safe_name(text)


PREFIX_START = _COMMAND_STARTS
"""Characters a name may not start with (a reply echoing it would start like a command)."""
