"""Argument kinds of ``.moe``: map names, seats and players, hand indices, ``弃`` costs and
``give`` distributions.  Numbers are ASCII (full-width normalised before) only: ``¹``, ``²``,
``⑤`` are not indices.

>>> from chronodice.core.args import ParseEnv
>>> list(TARGET_TEXT.candidates("2号 x", 0, ParseEnv()))
[(Seat(no=2), 2)]
>>> list(GIVE.candidates("2号:1,2 3号:3", 0, ParseEnv()))
[(Gift(seat=2, cards=(1, 2)), 6)]
>>> list(DISCARD.candidates("弃 1,2 3", 0, ParseEnv()))
[([1, 2, 3], 7)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from chronodice.core.args import Candidates, Choice, Int, Kind, Mention, Name, OneOf, ParseEnv, word_end
from chronodice.core.errors import InputSyntaxError
from chronodice.rules.moe import catalog
from chronodice.rules.moe.pack import load_pack

PACK = "demo"
MAP_NAMES = {
    "乱斗森林": "melee",
    "乱斗": "melee",
    "双王国": "kingdoms",
    "信仰圣殿": "temple",
    "圣殿": "temple",
}
RANDOM_MAP = ("随机", "random")
RESERVED = ("当", "弃")
"""Words with a meaning in ``play``/``skill`` that are never a player's name."""


class Seat(NamedTuple):
    """A seat as typed (``2号``, ``#2``): 1-based."""

    no: int


class Player(NamedTuple):
    """A player named by their name or QQ number."""

    name: str


class Gift(NamedTuple):
    """``2号:1,2`` — give hand cards 1 and 2 to seat 2."""

    seat: int
    cards: tuple[int, ...]


def index(label: str = "序号") -> Int:
    """A 1-based index (hand card, option); ``1,2,3`` reads as three (the comma is dropped)."""
    return Int(label=label, max=999, suffix=(",",))


# ---------------------------------------------------------------------- packs and maps
@dataclass(frozen=True)
class PackName(Kind):
    """A usable pack (``demo``, its title or an ``alias``: see :func:`catalog.find`); any other
    word is not read here (it may be a map)."""

    label: str = "卡包"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        end = word_end(text, pos)
        name = catalog.find(text[pos:end])
        if name is not None:
            yield name, end


@dataclass(frozen=True)
class MapName(Kind):
    """A map (``乱斗森林``, ``乱斗``, ``melee``…, or a map of another pack by key or name) or
    ``随机`` (value ``None``); any other word is an error listing the default pack's maps.  The
    value is the map's key in the default pack, else the word: ``.moe new`` resolves it in the
    chosen pack."""

    label: str = "地图"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        end = word_end(text, pos)
        word = text[pos:end]
        if word.lower() in RANDOM_MAP:
            yield None, end
            return
        key = MAP_NAMES.get(word, word)
        if key in load_pack(PACK).maps:
            yield key, end
            return
        if catalog.pack_of_map(word):
            yield word, end
            return
        from .packs import broken_pack_text  # an invalid pack's name is not a map: say why

        raise InputSyntaxError(
            broken_pack_text(word) or f"没有地图「{word[:12]}」，可选：乱斗森林、双王国、信仰圣殿、随机"
        )


# ---------------------------------------------------------------------- players
_SEAT = re.compile(r"#([0-9]{1,3})号?|([0-9]{1,3})号")
_QQ = re.compile(r"[0-9]{5,12}(?![0-9])")


@dataclass(frozen=True)
class SeatOrPlayer(Kind):
    """``2号`` / ``#2`` (a :class:`Seat`), a QQ number or a player's name (a :class:`Player`)."""

    label: str = "座位号"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = _SEAT.match(text, pos)
        if m:
            yield Seat(int(m.group(1) or m.group(2))), m.end()
            return
        m = _QQ.match(text, pos)
        if m:
            yield Player(m.group()), m.end()
            return
        for name, end in Name(label="名字").candidates(text, pos, env):
            if name not in RESERVED and not name.startswith(RESERVED):
                yield Player(name), end


TARGET_TEXT = SeatOrPlayer()
TARGET = OneOf(Mention(), TARGET_TEXT, label="2号或@某人")
"""A player: the message's QQ @ (a ``str`` QQ number), ``@12345``, ``2号``/``#2``, a name."""

_SEAT_NO = re.compile(r"[1-8](?![0-9])")


@dataclass(frozen=True)
class SeatNumber(Kind):
    """A bare seat number (``3``) naming the target of a card or skill: ``.moe play 1 3`` and
    ``.moe skill 猎人的遗物 3`` read as a phone's bare ``1 3`` does (issue 44)."""

    label: str = "座位号"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = _SEAT_NO.match(text, pos)
        if m:
            yield Seat(int(m.group())), m.end()


USE_TARGET = OneOf(Mention(), TARGET_TEXT, SeatNumber(), label="2号或@某人")
"""The target of a card or skill: a :data:`TARGET`, or a bare seat number."""


# ---------------------------------------------------------------------- cards
_NUMS = r"[0-9]{1,3}(?![0-9])(?:\s*,\s*[0-9]{1,3}(?![0-9]))*,?"
_DISCARD = re.compile(r"弃\s*(" + _NUMS.replace(r"\s*,\s*", r"(?:\s*,\s*|\s+)") + ")")


@dataclass(frozen=True)
class Discard(Kind):
    """``弃 1 2`` / ``弃1,2``: hand cards paid for a skill (a list of 1-based indices)."""

    label: str = "弃 序号…"

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = _DISCARD.match(text, pos)
        if m:
            yield [int(n) for n in re.findall(r"[0-9]+", m.group(1))], m.end()


_GIFT = re.compile(r"#?([0-9]{1,3})号?:(" + _NUMS.replace(r"\s*,\s*", ",") + r")(?=\s|$)")


@dataclass(frozen=True)
class GiveKind(Kind):
    """``2号:1,2`` (or ``2:1,2``, ``#2:1``): a :class:`Gift`; anything else names the form."""

    label: str = "座位号:序号,序号"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = _GIFT.match(text, pos)
        if not m:
            word = text[pos : word_end(text, pos)]
            raise InputSyntaxError(f"「{word[:12]}」格式应为 座位号:序号,序号")
        cards = tuple(int(n) for n in m.group(2).split(",") if n)
        yield Gift(int(m.group(1)), cards), m.end()


def _card_name(word: str) -> str | None:
    """A card name never holds a digit (``¹``, ``②`` are not names and not indices either)."""
    return None if any(c.isdigit() for c in word) else word


CARD_REF = OneOf(Int(label="序号", max=999), Name(label="牌名", lookup=_card_name), label="序号或牌名")
"""A hand card: its 1-based number, or a card name (``攻击``)."""
GIVE = GiveKind()
DISCARD = Discard()
MAP = MapName()
PACK_NAME = PackName()

# ---------------------------------------------------------------------- switches
AUTO = Choice(
    {
        "on": True,
        "开": True,
        "开启": True,
        "off": False,
        "关": False,
        "关闭": False,
        "取消": False,
        "0": False,
    },
    label="on/off",
)
TIMEOUT_CLASS = Choice(
    {
        "出牌": "play",
        "play": "play",
        "响应": "respond",
        "respond": "respond",
        "选择": "choice",
        "choice": "choice",
    },
    label="出牌/响应/选择",
)
SECONDS = Int(label="秒数", max=1_000_000, suffix=("秒", "s"))

__all__ = [
    "AUTO",
    "CARD_REF",
    "DISCARD",
    "GIVE",
    "MAP",
    "MAP_NAMES",
    "PACK_NAME",
    "SECONDS",
    "TARGET",
    "TIMEOUT_CLASS",
    "USE_TARGET",
    "Gift",
    "Player",
    "Seat",
    "SeatNumber",
    "index",
]
