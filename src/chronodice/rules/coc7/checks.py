"""CoC 7th checks: success levels, the ``.setcoc`` house rules and difficulty.

One function, :func:`judge`, turns a d100 result and a skill value into a :class:`CheckOutcome`
(level enum + roll + target), so every caller (``.ra``, ``.sc``, a later ``.log stat``) reads the
same structured result.

Levels (rule book, 7th edition): a roll ≤ value/5 is 极难成功, ≤ value/2 困难成功, ≤ value
成功, above it 失败 (fractions rounded down).  大成功 and 大失败 come from the house rule
(``.setcoc 0–5``, numbered and worded as SealDice numbers them):

* 0 (rule book): 1 is 大成功; 96–100 大失败 when the value is below 50, else only 100;
* 1: 1 is 大成功 when the value is below 50, 1–5 when it is 50 or more; 大失败 as rule 0;
* 2: 1–5 and a success is 大成功; 96–100 and a failure is 大失败;
* 3: 1–5 is 大成功, 96–100 大失败, whatever the value;
* 4: 1–5 and ≤ value/10 is 大成功; below 50, ≥ 96 + value/10 is 大失败, at 50 or more only 100;
* 5: 1–2 and ≤ value/5 is 大成功; below 50, 96–100 is 大失败, at 50 or more 99–100.

Difficulty (``.ra 困难侦查``): the level is judged against the full value and the check passes
when the level reaches the difficulty; 大成功 always passes.  The 大成功/大失败 tests use the
value the roll had to beat (the rule book: "if the roll required for success was under 50, 96 or
over is a fumble"), so a hard check at 60 (needs ≤ 30) fumbles on 96–100.

>>> judge(10, 50).level.label, judge(25, 50).level.label, judge(51, 50).level.label
('极难成功', '困难成功', '失败')
>>> judge(97, 45).level.label, judge(97, 60).level.label, judge(100, 60).level.label
('大失败', '失败', '大失败')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from chronodice.core.errors import InputSyntaxError


class Level(IntEnum):
    """Success levels, ordered: a higher level is a better result."""

    FUMBLE = -2
    FAILURE = -1
    SUCCESS = 1
    HARD = 2
    EXTREME = 3
    CRITICAL = 4

    @property
    def label(self) -> str:
        return LEVEL_LABELS[self]

    @property
    def success(self) -> bool:
        return self > 0


LEVEL_LABELS = {
    Level.FUMBLE: "大失败",
    Level.FAILURE: "失败",
    Level.SUCCESS: "成功",
    Level.HARD: "困难成功",
    Level.EXTREME: "极难成功",
    Level.CRITICAL: "大成功",
}


class Difficulty(IntEnum):
    """The level a check must reach: 常规 (成功), 困难, 极难."""

    REGULAR = 1
    HARD = 2
    EXTREME = 3

    @property
    def label(self) -> str:
        return {1: "常规", 2: "困难", 3: "极难"}[self.value]


RULES: dict[int, str] = {
    0: "规则书：出1大成功；技能不满50出96-100大失败，满50出100大失败",
    1: "技能不满50出1大成功，满50出1-5大成功；大失败同规则书",
    2: "出1-5且判定成功为大成功；出96-100且判定失败为大失败",
    3: "出1-5大成功；出96-100大失败（无视技能值）",
    4: "出1-5且≤技能/10为大成功；技能不满50出≥96+技能/10为大失败，满50出100大失败",
    5: "出1-2且≤技能/5为大成功；技能不满50出96-100大失败，满50出99-100大失败",
}
"""The house rules ``.setcoc`` selects (SealDice's numbering and meaning)."""


def required(target: int, difficulty: Difficulty = Difficulty.REGULAR) -> int:
    """The value a roll must not exceed for ``difficulty``: value, value/2, value/5 (rounded down).

    >>> required(50), required(50, Difficulty.HARD), required(50, Difficulty.EXTREME), required(45, Difficulty.HARD)
    (50, 25, 10, 22)
    """
    if difficulty == Difficulty.HARD:
        return target // 2
    if difficulty == Difficulty.EXTREME:
        return target // 5
    return target


def base_level(roll: int, target: int) -> Level:
    """The level without 大成功/大失败: 极难 ≤ value/5, 困难 ≤ value/2, 成功 ≤ value."""
    if roll <= target // 5:
        return Level.EXTREME
    if roll <= target // 2:
        return Level.HARD
    if roll <= target:
        return Level.SUCCESS
    return Level.FAILURE


def is_critical(rule: int, roll: int, need: int) -> bool:
    """Whether ``roll`` is a 大成功 under house ``rule`` when the roll had to be ≤ ``need``."""
    if rule == 0:
        return roll == 1
    if rule == 1:
        return roll == 1 if need < 50 else roll <= 5
    if rule == 2:
        return roll <= 5 and roll <= need
    if rule == 3:
        return roll <= 5
    if rule == 4:
        return roll <= 5 and roll <= need // 10
    if rule == 5:
        return roll <= 2 and roll <= need // 5
    raise InputSyntaxError(f"没有房规{rule}（可用0-5）")


def is_fumble(rule: int, roll: int, need: int) -> bool:
    """Whether ``roll`` is a 大失败 under house ``rule`` when the roll had to be ≤ ``need``."""
    if rule in (0, 1):
        return roll >= 96 if need < 50 else roll >= 100
    if rule == 2:
        return roll >= 96 and roll > need
    if rule == 3:
        return roll >= 96
    if rule == 4:
        return roll >= 96 + need // 10 if need < 50 else roll >= 100
    if rule == 5:
        return roll >= 96 if need < 50 else roll >= 99
    raise InputSyntaxError(f"没有房规{rule}（可用0-5）")


@dataclass(frozen=True)
class CheckOutcome:
    """One CoC check: the d100 ``roll`` against ``target`` (the skill value) at ``difficulty``."""

    roll: int
    target: int
    level: Level
    difficulty: Difficulty = Difficulty.REGULAR
    rule: int = 0

    @property
    def passed(self) -> bool:
        """Whether the check reached its difficulty (大成功 always does)."""
        return self.level == Level.CRITICAL or (self.level.success and self.level >= self.difficulty)

    @property
    def label(self) -> str:
        """What the reply says: the level, or 失败 when a success fell short of the difficulty."""
        if self.level.success and not self.passed:
            return f"失败（{self.level.label}，未达{self.difficulty.label}）"
        return self.level.label


def judge(roll: int, target: int, rule: int = 0, difficulty: Difficulty = Difficulty.REGULAR) -> CheckOutcome:
    """The outcome of a d100 ``roll`` (1–100) against ``target`` under house ``rule``."""
    if not 1 <= roll <= 100:
        raise ValueError(f"d100 roll out of range: {roll}")
    need = required(target, difficulty)
    level = base_level(roll, target)
    if is_critical(rule, roll, need):
        level = Level.CRITICAL
    elif is_fumble(rule, roll, need):
        level = Level.FUMBLE
    return CheckOutcome(roll=roll, target=target, level=level, difficulty=difficulty, rule=rule)


def improves(roll: int, skill: int) -> bool:
    """Skill growth (``.en``): the d100 roll is above the skill, or above 95.

    >>> improves(61, 60), improves(60, 60), improves(96, 99), improves(95, 99)
    (True, False, True, False)
    """
    return roll > skill or roll > 95


__all__ = [
    "LEVEL_LABELS",
    "RULES",
    "CheckOutcome",
    "Difficulty",
    "Level",
    "base_level",
    "improves",
    "is_critical",
    "is_fumble",
    "judge",
    "required",
]
