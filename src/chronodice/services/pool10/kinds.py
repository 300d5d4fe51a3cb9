"""Argument kinds of the 无限恐怖 pool commands (``.w .ww .wh``).

* :class:`PoolExpr` — the pool: numbers, names on the card, ``+ - ( )``, ``10a8``
  (:func:`chronodice.rules.pool10.expr.scan_pool` reads it, ASCII digits only);
* :data:`AGAIN`, :data:`DC`, :data:`BONUS`, :data:`LOST`, :data:`ODDS` — the options (``a9``
  ``dc3`` ``+2s``/``附加2`` ``-1s`` ``?``), free position after the pool;
* :class:`Reason` — the free text after them (never starting like an option or ``vs``);
* :class:`Versus` — ``vs`` and the second side of an opposed roll, with its own options;
* :data:`TARGET`, :data:`CALC_BASE`, :data:`CALC_OP`, :data:`INLINE_DEFENCE`, :data:`SET_AGAIN`.
"""

from __future__ import annotations

import re
from typing import Any

from chronodice.core.args import (
    Candidates,
    Choice,
    Flag,
    Keyword,
    Kind,
    ParseEnv,
    Pattern,
    arg,
    is_ascii_digit,
    is_ascii_letter,
    opt,
    parse_args,
)
from chronodice.core.errors import InputSyntaxError, LimitExceeded
from chronodice.core.limits import MAX_EXPRESSION_CHARS
from chronodice.rules.pool10 import TieRule, check_again
from chronodice.rules.pool10.allocation import target_of
from chronodice.rules.pool10.check import MAX_DC
from chronodice.rules.pool10.expr import MAX_REASON, Term, scan_pool
from chronodice.rules.pool10.multiplier import TOKEN, number, op_of

# The sub-command keywords: a pool that is only one of these words is not a pool (``.ww 防御 x``
# is a bad 防御 form, not a roll of a card value called 防御).
SET = ("set",)
BONUS_WORDS = ("附加", "bonus")
DEFENCE_WORDS = ("防御", "def")
ACTION_WORDS = ("行动", "act")
ATTACK_WORDS = ("攻击", "atk")
MULTI_WORDS = ("分配", "multi")
CALC_WORDS = ("倍率", "calc")
HELP_WORDS = ("help", "帮助")
KEYWORDS = frozenset(
    w.lower()
    for w in (
        *SET,
        *BONUS_WORDS,
        *DEFENCE_WORDS,
        *ACTION_WORDS,
        *ATTACK_WORDS,
        *MULTI_WORDS,
        *CALC_WORDS,
        *HELP_WORDS,
    )
)

_VS = re.compile(r"(?i)vs(?![a-z])|对抗")


def _vs_at(text: str, pos: int) -> re.Match[str] | None:
    """``vs`` (not the end of a Latin word such as ``canvs``) or ``对抗`` at ``pos``."""
    if pos > 0 and is_ascii_letter(text[pos - 1]) and text[pos : pos + 1] in "vV":
        return None
    return _VS.match(text, pos)


class PoolExpr(Kind):
    """The pool: ``7``, ``10a8``, ``敏捷+潜行-2``, ``(力量+格斗)-1`` → a tuple of
    :class:`~chronodice.rules.pool10.expr.Term`.  Glued to ``.ww`` only by a digit or ``(``."""

    label = "骰池"

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        if len(text) - pos > MAX_EXPRESSION_CHARS:
            raise InputSyntaxError(f"表达式太长（最多{MAX_EXPRESSION_CHARS}个字符）")
        if text[pos] in "+-" and _option_at(text, pos):
            return
        try:
            terms, end = scan_pool(text, pos)
        except LimitExceeded as err:
            raise InputSyntaxError(err.message) from None
        if len(terms) == 1 and terms[0].name is not None and terms[0].sign > 0:
            if terms[0].name.lower() in KEYWORDS:
                return
        yield terms, end

    def can_glue(self, text: str) -> bool:
        return bool(text) and (is_ascii_digit(text[0]) or text[0] == "(")


def _digits(m: re.Match[str], limit: int = 4) -> int:
    digits = next(g for g in m.groups() if g is not None)
    if len(digits) > limit:
        raise InputSyntaxError(f"数值 {digits[:8]} 太大")
    return int(digits)


def _again(m: re.Match[str]) -> int:
    digits = m.group(1)
    if len(digits) > 3:
        raise InputSyntaxError(f"加骰阈值 a{digits[:6]} 无效")
    return check_again(int(digits))


def _dc(m: re.Match[str]) -> int:
    n = _digits(m)
    if not 1 <= n <= MAX_DC:
        raise InputSyntaxError(f"DC应为1到{MAX_DC}")
    return n


AGAIN = Pattern(regex=r"(?i)a\s*([0-9]+)", label="a8/a9", convert=_again)
DC = Pattern(regex=r"(?i)(?:dc|难度)\s*([0-9]+)", label="dcN", convert=_dc)
BONUS = Pattern(
    regex=r"(?i)\+\s*([0-9]+)\s*(?:s(?![a-z])|成功)|\+?\s*附加\s*([0-9]+)", label="+Ns", convert=_digits
)
LOST = Pattern(regex=r"(?i)-\s*([0-9]+)\s*(?:s(?![a-z])|成功)", label="-Ns", convert=_digits)
ODDS = Keyword("?", "？", "概率", label="?")
_BASE_ZERO = Keyword("基础防御0", "无基础防御", "破防", label="破防")
_GAINED_AT = Pattern(regex=r"(?:命中|途中)\s*\+\s*[0-9]", label="命中+N")
_OPTIONS = (AGAIN, DC, BONUS, LOST, ODDS)
_ATTACK_OPTIONS = (_BASE_ZERO, _GAINED_AT)
"""Words only the attack forms read (``破防``, ``命中+2``): elsewhere they may start a reason."""


def _attack_option_at(text: str, pos: int) -> bool:
    env = ParseEnv()
    return any(any(True for _ in kind.candidates(text, pos, env)) for kind in _ATTACK_OPTIONS)


def _option_at(text: str, pos: int) -> bool:
    env = ParseEnv()
    for kind in _OPTIONS:
        try:
            if any(True for _ in kind.candidates(text, pos, env)):
                return True
        except InputSyntaxError:
            return True
    return False


def pool_flags(*, dc: bool = True, odds: bool = True) -> list[Flag]:
    """The options after a pool: add threshold, DC, bonus and lost successes, odds."""
    flags = [Flag("again", AGAIN)]
    if dc:
        flags.append(Flag("dc", DC))
    flags += [Flag("bonus", BONUS, many=True), Flag("lost", LOST, many=True)]
    if odds:
        flags.append(Flag("odds", ODDS, default=False))
    return flags


class Reason(Kind):
    """The reason: free text to the end that does not start like an option or ``vs`` (those
    before it are options), cut to 60 characters."""

    label = "理由"
    glue = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        if _option_at(text, pos) or _vs_at(text, pos):
            return
        yield text[pos:].strip()[:MAX_REASON], len(text)


class AttackReason(Reason):
    """The reason of an attack: also not starting with ``破防`` (the attack's own flag)."""

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        if _attack_option_at(text, pos):
            return
        yield from super().candidates(text, pos, env)


def reason(*, attack: bool = False) -> Any:
    return opt("reason", AttackReason() if attack else Reason(), default="", label="理由")


SIDE_PARAMS = (arg("pool", PoolExpr()), reason())
SIDE_FLAGS = tuple(pool_flags())


class Versus(Kind):
    """``vs <骰池> [选项]`` (or ``对抗``): the second side of an opposed roll, read to the end
    into ``{"pool", "reason", "again", "dc", "bonus", "lost", "odds"}``."""

    label = "vs 骰池"
    glue = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = _vs_at(text, pos)
        if m is None:
            return
        rest = text[m.end() :]
        if not rest.strip():
            raise InputSyntaxError("对抗需要两边的骰池")
        try:
            got = parse_args(rest.strip(), SIDE_PARAMS, SIDE_FLAGS)
        except InputSyntaxError as err:
            raise _versus_hint(rest.strip(), err) from None
        yield got, len(text)


_GLUED_VALUE = re.compile(r"([^\s0-9+\-()（）@]+?)([0-9]{1,3})(?=\s|$)")


def _versus_hint(side: str, err: InputSyntaxError) -> InputSyntaxError:
    """``vs 感知5``: an NPC's 感知 written as a name glued to its value (issue 39: the reply only said
    「感知5」中间缺少+或-).  The second side is a number when it has no card here, or @ its player
    and the names on that card: the error names both forms, with the number written."""
    m = _GLUED_VALUE.match(side)
    if m is None or "中间缺少" not in err.message:
        return err
    name, value = m.group(1), m.group(2)
    return InputSyntaxError(
        f"「{name}{value}」中间缺少+或-：对手没有角色卡就只写数字（vs {value}）；用对手卡上的{name}请 @对手",
        usage=err.usage,
        position=err.position,
    )


class _Target(Kind):
    """One target of a multi-attack: ``乙×3=2/1`` (``×`` is normalised to ``*``)."""

    label = "目标"
    glue = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        if text[pos] in "+-" or _option_at(text, pos) or _attack_option_at(text, pos):
            return
        end = pos
        while end < len(text) and text[end] not in " \t\n,":
            end += 1
        after = end
        while after < len(text) and text[after] == ",":  # ``甲,乙×2`` as before
            after += 1
        yield target_of(text[pos:end], 0), after


TARGET = _Target()
CALC_BASE = Pattern(
    regex=r"[0-9]+(?:\.[0-9]+)?(?![0-9])", label="基础值", convert=lambda m: number(m.group())
)
CALC_OP = Pattern(regex=TOKEN.pattern, label="运算", convert=op_of)
"""``基础+10`` ``*2`` ``再*2`` ``2倍`` ``/2`` ``+50`` (``×`` is normalised to ``*``)."""
INLINE_DEFENCE = Pattern(
    regex=r"(?i)(?:防御?|def)\s*([0-9]{1,4})(?![0-9])", label="防N", convert=lambda m: int(m.group(1))
)
"""``防2``: the target's declared defence given inline (no declaration is used up)."""


def _amounts(m: re.Match[str]) -> tuple[int, ...]:
    return tuple(int(x) for x in m.group().split("/"))


DEFENCE_AMOUNTS = Pattern(
    regex=r"[0-9]{1,4}(?:/[0-9]{1,4})*(?![0-9/])", label="防御附加成功数", convert=_amounts
)
"""``2`` or ``2/1``: defence bonus successes for the next attack (and the ones after it)."""
NPC_TARGET = Pattern(regex=r"@([^\s0-9@][^\s@]{0,19})", label="@NPC名", convert=lambda m: m.group(1))
"""``@守卫``: an NPC (no card, no QQ account) as the target of an attack."""
NPC_NAME = Pattern(regex=r"[^\s0-9@+\-/][^\s@/]{0,19}", label="NPC名")
"""``守卫``: the NPC a GM declares defence for."""
LEGEND = Pattern(regex=r"传奇\s*([0-9]{1,4})(?![0-9])", label="传奇N", convert=lambda m: int(m.group(1)))
"""``传奇2``: how many of an NPC's declared defence points come from 传奇敏捷/传奇感知."""
BASE_ZERO_WORDS = ("基础防御0", "无基础防御", "破防")
"""The defender's base defence is 0 for this attack: its 传奇 defence bonus is lost."""
GAINED = Pattern(
    regex=r"(?i)(?:命中|途中)\s*\+\s*([0-9]{1,4})(?:\s*(?:s(?![a-z])|成功))?",
    label="命中+N",
    convert=lambda m: int(m.group(1)),
)
"""``命中+2``: attack bonus successes gained at the action's first hit, used at once."""
REPEAT = Pattern(regex=r"([0-9]{1,3})#", label="N#", convert=lambda m: int(m.group(1)))
"""``3#``: roll the same pool N times (like ``.r 3#…``)."""


def _set_again(m: re.Match[str]) -> int:
    if m.group(2):
        raise InputSyntaxError("无限恐怖规则的成功线固定为8、骰子固定为D10，不能设置 k/q/m")
    return _again(m)


SET_AGAIN = Pattern(regex=r"(?i)a([0-9]+)((?:[kqm][0-9]+)*)", label="a8/a9/a10/a11", convert=_set_again)
TIE = Choice(
    table={
        "超过": TieRule.STRICT,
        "gt": TieRule.STRICT,
        ">": TieRule.STRICT,
        "严格": TieRule.STRICT,
        "大于等于": TieRule.AT_LEAST,
        "ge": TieRule.AT_LEAST,
        ">=": TieRule.AT_LEAST,
        "≥": TieRule.AT_LEAST,
    },
    label="超过/大于等于",
)

__all__ = [
    "AGAIN",
    "BASE_ZERO_WORDS",
    "BONUS",
    "CALC_BASE",
    "CALC_OP",
    "DC",
    "DEFENCE_AMOUNTS",
    "GAINED",
    "INLINE_DEFENCE",
    "KEYWORDS",
    "LEGEND",
    "LOST",
    "NPC_NAME",
    "NPC_TARGET",
    "ODDS",
    "REPEAT",
    "SET_AGAIN",
    "TARGET",
    "TIE",
    "PoolExpr",
    "Reason",
    "Term",
    "Versus",
    "pool_flags",
    "reason",
]
