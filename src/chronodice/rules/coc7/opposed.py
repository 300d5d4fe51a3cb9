"""CoC 7th opposed checks (``.rav``): who wins when two checks are compared (pure).

Both sides roll a regular check (no difficulty: the opponent's roll is the difficulty) under the
group's house rule; then, as the CoC 7th rule book's opposed roll has it (Keeper Rulebook,
"Opposed Rolls"):

1. if both sides fail (失败 or 大失败), nobody wins: a draw, "双方都失败";
2. otherwise the higher success level wins (大成功 > 极难成功 > 困难成功 > 成功 > 失败);
3. on equal levels the higher skill value wins;
4. on equal levels and equal values: a draw (the Keeper may call for a re-roll).

``reference/dicebots.md`` lists SealDice's ``.rav`` without its outcome rules, so these are the
rule book's.  The rule book's "the defender wins a tie" option for combat is left to the Keeper.

>>> from chronodice.rules.coc7.checks import judge
>>> r = opposed(judge(47, 60), judge(12, 40))  # 成功 vs 困难成功
>>> r.winner, r.why
(1, '成功等级更高')
>>> r = opposed(judge(30, 60), judge(20, 40))  # 困难成功 vs 困难成功: the higher value
>>> r.winner, r.why
(0, '成功等级相同，技能值更高')
>>> r = opposed(judge(25, 50), judge(20, 50))  # 困难成功 twice, both at 50
>>> r.winner, r.why
(None, '成功等级与技能值都相同')
>>> r = opposed(judge(70, 60), judge(100, 40))  # 失败 vs 大失败
>>> r.winner, r.why
(None, '双方都失败')
>>> r = opposed(judge(1, 10), judge(2, 90))  # 大成功 beats 极难成功
>>> r.winner, r.why
(0, '成功等级更高')
"""

from __future__ import annotations

from dataclasses import dataclass

from .checks import CheckOutcome

WHY_LEVEL = "成功等级更高"
WHY_VALUE = "成功等级相同，技能值更高"
WHY_TIE = "成功等级与技能值都相同"
WHY_BOTH_FAIL = "双方都失败"


@dataclass(frozen=True)
class OpposedResult:
    """The outcome of an opposed check: ``winner`` is 0 (the first side), 1 (the second) or
    ``None`` (a draw); ``why`` is the rule that decided it, worded for the reply."""

    winner: int | None
    why: str


def opposed(first: CheckOutcome, second: CheckOutcome) -> OpposedResult:
    """Compare two regular checks by the rule book's opposed-roll rule (see the module doc)."""
    if not first.level.success and not second.level.success:
        return OpposedResult(None, WHY_BOTH_FAIL)
    if first.level != second.level:
        return OpposedResult(0 if first.level > second.level else 1, WHY_LEVEL)
    if first.target != second.target:
        return OpposedResult(0 if first.target > second.target else 1, WHY_VALUE)
    return OpposedResult(None, WHY_TIE)


__all__ = ["WHY_BOTH_FAIL", "WHY_LEVEL", "WHY_TIE", "WHY_VALUE", "OpposedResult", "opposed"]
