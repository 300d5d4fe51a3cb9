"""Overload (rule book 负重: "如果角色携带的物品超过了负重，则角色会无法行动").

MayuriBot (F5) does not stop the character: the weight revision ``1 − (负重/总负重)²`` is floored
at 0.01, so an overloaded character's 敏捷 is multiplied by 0.01 (the sheet sets it to 0).  The
bot keeps those numbers and warns wherever the character is shown (``.chr show``, adding a
weapon, the battle's text block), quoting the book.  The warning starts where the floor starts:
at 负重 ≥ 总负重 the revision is ≤ 0 and becomes 0.01.

Acting follows the book (issue 25): a character carrying *more* than its 负重 (超重) cannot
declare a battle action (:func:`overload_refusal`); exactly full (负重已满) is not "超过" and may
act.  A GM may override by acting for the character (``.bat 角色名:…``), which the reply notes.
"""

from __future__ import annotations

from .rounding import fmt
from .sheet import Derived

FLOOR = 0.01


def overloaded(d: Derived) -> bool:
    """负重 at or over 总负重 (the weight revision is at its 0.01 floor)."""
    return d.max_load > 0 and d.carried >= d.max_load


def overload_note(d: Derived) -> str | None:
    """The warning line, or None.

    >>> from .sheet import Sheet, derive
    >>> overload_note(derive(Sheet.standard(weight=174))) is None
    True
    >>> overload_note(derive(Sheet.standard(weight=175)))
    '⚠负重已满：负重 175.0/175.0，敏捷×0.01（规则书：超过负重无法行动）'
    """
    if not overloaded(d):
        return None
    word = "超重" if d.carried > d.max_load else "负重已满"
    return f"⚠{word}：负重 {fmt(d.carried)}/{fmt(d.max_load)}，敏捷×{FLOOR:g}（规则书：超过负重无法行动）"


def overload_refusal(name: str, d: Derived) -> str | None:
    """Why ``name`` cannot act (book 负重: 携带的物品超过了负重，则角色会无法行动), or None.

    >>> from .sheet import Sheet, derive
    >>> overload_refusal("甲", derive(Sheet.standard(weight=175))) is None
    True
    >>> overload_refusal("甲", derive(Sheet.standard(weight=200)))
    '[甲]超重（负重 200.0/175.0），规则书：携带物品超过负重则无法行动× GM可代为行动放行（.bat @玩家 … 或 .bat 角色名:…）'
    """
    if not (d.max_load > 0 and d.carried > d.max_load):
        return None
    return (
        f"[{name}]超重（负重 {fmt(d.carried)}/{fmt(d.max_load)}），规则书：携带物品超过负重则无法行动× "
        "GM可代为行动放行（.bat @玩家 … 或 .bat 角色名:…）"
    )


__all__ = ["FLOOR", "overload_note", "overload_refusal", "overloaded"]
