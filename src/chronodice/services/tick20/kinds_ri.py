"""One ``.ri`` entry: ``[修正/=值/优势/劣势/被动/暗/双骰] [N#][名称][*N][:dA+dB] [同骰]``.

How numbers next to a name read (issue 26):

* a bare number *before* a name at the start of an entry is a fixed initiative — SealDice's
  ``.ri 12 巢穴`` and DicePP's glued ``.ri20巢穴`` (tick20.md §1, §4.1); a separate number
  anywhere (``.ri 暗 12 巢穴``) too;
* a number glued to the *end* of a name is part of the name (``.ri +3 哥布林2`` → 哥布林2 rolls);
* a number glued to the front of a name after other words (``.ri +3 2号哥布林``), or followed by
  「号」 anywhere (``.ri 2号哥布林``), is part of the name too: the GM asked for a roll, or named
  the second goblin;
* ``名*N`` (or ``名×N``) after a name, and ``N#`` before it, are a count (``哥布林*3``, ``3#卫兵``):
  N combatants numbered 名1, 名2, … (:func:`~.joining.expand_names`), each with a roll of its own
  unless the entry says ``同骰``;
* ``名:d8+d6`` (or ``d8+d6 名``) gives an NPC of the 速度 variant her two attribute dice (004 先攻:
  DEX+INS); without them an NPC rolls d6+d6.

>>> from chronodice.core.args import ParseEnv
>>> def ri(t): return [v for v, _ in RI_ENTRY.candidates(t, 0, ParseEnv())][0]
>>> ri("+3 哥布林2").name, ri("+3 2号哥布林").name, ri("2号哥布林").name
('哥布林2', '2号哥布林', '2号哥布林')
>>> (ri("20巢穴").name, ri("20巢穴").fixed), (ri("12 巢穴").name, ri("12 巢穴").fixed)
(('巢穴', 20), ('巢穴', 12))
>>> (ri("巨魔:d8+d6").name, ri("巨魔:d8+d6").dice), ri("d10+d8 巨魔").dice
(('巨魔', ('d8', 'd6')), ('d10', 'd8'))
>>> (ri("+2 哥布林*3").name, ri("+2 哥布林*3").count), ri("3# 哥布林 同骰").shared
(('哥布林', 3), True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chronodice.core.args import (
    Candidates,
    Flag,
    Kind,
    Mod,
    Name,
    ParseEnv,
    Pattern,
    flag,
    is_ascii_digit,
    opt,
    parse_args,
    word_end,
)
from chronodice.core.errors import InputSyntaxError
from chronodice.dice.kinds import DiceExpr

from .kinds import ADV, DIS, EDGE_WORDS, MODS, PASSIVE, NotWords

_BARE_VALUE = re.compile(r"[0-9]{1,3}(?![0-9dD%+*/()!kKqQhHlL#.=号-])")
_FIXED_VALUE = re.compile(r"-?[0-9]{1,3}(?![0-9dD%+*/()!kKqQhHlL-])")
_LEADING_NUMBER = re.compile(r"[0-9]{1,3}(?=[^\s0-9,;:])")


def _entry_start(text: str, pos: int) -> bool:
    """Whether ``pos`` is the first thing of the entry (only blanks before it)."""
    return not text[:pos].strip()


@dataclass(frozen=True)
class FixedInit(Kind):
    """``=值`` or ``=表达式`` (``=25``, ``=1d6+10``): a fixed initiative; the value is the number, or
    the expression text to roll.  A bare number (``.ri 12 巢穴``, DicePP's ``.ri20巢穴``) is
    SealDice's and DicePP's way to write a fixed value, and means ``=12`` here too (tick20.md §1:
    compatible ``.ri``; §4.1 lists ``.ri20巢穴``); a number that goes on as dice or an
    expression (``3#卫兵``, ``1d20``), that is followed by 「号」, or that is glued to a name after
    other words of the entry (module docstring) is not one."""

    label: str = "=先攻值/表达式"

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        bare = _BARE_VALUE.match(text, pos)
        if bare:
            glued = bare.end() < len(text) and not text[bare.end()].isspace()
            if not glued or _entry_start(text, pos):
                yield int(bare.group()), bare.end()
            return
        if text[pos] != "=":
            return
        m = _FIXED_VALUE.match(text, pos + 1)
        if m:
            yield int(m.group()), m.end()
            return
        found = False
        for _tree, end in DiceExpr().candidates(text, pos + 1, env):
            found = True
            yield text[pos + 1 : end], end
        if not found:
            word = text[pos : word_end(text, pos)][:12]
            raise InputSyntaxError(f"「{word}」不是有效的先攻值或骰子表达式（如 =25、=1d6+10）")

    def can_glue(self, text: str) -> bool:
        return bool(text) and (text[0] == "=" or bool(_BARE_VALUE.match(text)))


@dataclass(frozen=True)
class RiName(Kind):
    """An NPC's name in ``.ri``: the whole word up to a blank, ``,;`` or ``:`` — a number at its end
    stays in it — or a word starting with a number where that number is no fixed value
    (:class:`FixedInit`: after other words, or ``N号``)."""

    label: str = "名称"

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        start = pos
        lead = _LEADING_NUMBER.match(text, pos) if is_ascii_digit(text[pos]) else None
        if lead is not None:
            if _entry_start(text, pos) and text[lead.end()] != "号":
                return  # DicePP's ``.ri20巢穴``: the number is the fixed value
            pos = lead.end()
        words = NotWords(kind=Name(label=self.label, stop=":"), words=RI_WORDS)
        for _value, end in words.candidates(text, pos, env):
            if end < len(text) and is_ascii_digit(text[end]):
                continue  # ``哥布林2``: the number belongs to the name
            yield text[start:end], end


@dataclass(frozen=True)
class RiEntry:
    """One ``.ri`` entry: who joins (no name = your own character) and how the roll is made.

    ``dice``: the two attribute dice of a 速度-variant roll (``("d8", "d6")``), when written."""

    name: str | None = None
    count: int | None = None
    fixed: int | str | None = None
    mods: tuple[Mod, ...] = ()
    adv: bool = False
    dis: bool = False
    passive: bool = False
    hidden: bool = False
    each: bool = False
    """``-各自``: each of a batch rolls its own initiative — what a batch does anyway now (seed 002:
    "所有参与冲突的角色都需要进行1次先攻检定"); still read, so that old habits keep working."""
    dice: tuple[str, str] | None = None
    shared: bool = False
    """``同骰``: the GM asks for one roll the whole batch shares (a pack acting as one)."""


RI_WORDS = (*EDGE_WORDS, "暗", "隐藏", "-各自", "同骰", "共用先攻")
TWO_DICE = Pattern(
    regex=r"(?i):?(d[0-9]{1,3})\+(d[0-9]{1,3})(?![0-9a-z])",
    label=":dA+dB",
    convert=lambda m: (m.group(1).lower(), m.group(2).lower()),
)
"""004 initiative dice of an NPC: ``巨魔:d8+d6`` or ``d8+d6 巨魔``."""
RI_PARAMS = (
    opt("count", Pattern(regex=r"([0-9]{1,2})#", label="N#", convert=lambda m: int(m.group(1)))),
    opt("name", RiName()),
)
RI_FLAGS = (
    Flag("fixed", FixedInit()),
    MODS,
    ADV,
    DIS,
    PASSIVE,
    flag("hidden", "暗", "隐藏", label="暗"),
    flag("each", "-各自", label="-各自"),
    flag("shared", "同骰", "共用先攻", "-同骰", label="同骰"),
    Flag("dice", TWO_DICE),
)
ENTRY_SEPS = ",;"
_TIMES = re.compile(r"(.+?)\*([0-9]{1,2})")
"""``哥布林*3`` (``×`` reads as ``*``): a name and how many of it."""


@dataclass(frozen=True)
class RiEntryKind(Kind):
    """One ``.ri`` entry up to ``,``/``;``: ``[修正/=值/优势/劣势/被动/暗] [N#][名称][*N][:dA+dB] [同骰]``."""

    label: str = "[修正/=值/优势/劣势/被动/暗] [名称]"

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        end = pos
        while end < len(text) and text[end] not in ENTRY_SEPS:
            end += 1
        got = parse_args(text[pos:end].strip(), RI_PARAMS, RI_FLAGS)
        if got["count"] is not None and got["name"] is None:
            raise InputSyntaxError("「N#」后面要写名称（如 3#卫兵）")
        name, count = got["name"], got["count"]
        times = _TIMES.fullmatch(name or "")
        if times is not None:
            if count is not None:
                raise InputSyntaxError(
                    f"「{count}#」和「*{times.group(2)}」只写一个（如 {times.group(1)}*3）"
                )
            name, count = times.group(1), int(times.group(2))
        if got["shared"] and count is None:
            raise InputSyntaxError("「同骰」用于一次加入多名同名NPC（如 .ri 哥布林*3 同骰）")
        if got["shared"] and got["each"]:
            raise InputSyntaxError("「同骰」和「-各自」只写一个")
        entry = RiEntry(
            name=name,
            count=count,
            fixed=got["fixed"],
            mods=tuple(got["mods"]),
            adv=got["adv"],
            dis=got["dis"],
            passive=got["passive"],
            hidden=got["hidden"],
            each=got["each"],
            dice=got["dice"],
            shared=got["shared"],
        )
        yield entry, end + 1 if end < len(text) else end

    def can_glue(self, text: str) -> bool:
        """Glued to ``.ri`` only where a modifier, ``=值`` or ``N#`` starts (``.rihx`` is not ours)."""
        return bool(text) and (text[0] in "=+-" or bool(re.match(r"[0-9]{1,2}#", text)))

    def usage(self) -> str:
        return self.label


RI_ENTRY = RiEntryKind()

__all__ = ["RI_ENTRY", "RI_WORDS", "TWO_DICE", "FixedInit", "RiEntry", "RiEntryKind", "RiName"]
