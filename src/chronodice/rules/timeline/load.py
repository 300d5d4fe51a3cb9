"""Overload (rule book 负重: "如果角色携带的物品超过了负重，则角色会无法行动").

MayuriBot (F5) does not stop the character: the weight revision ``1 − (负重/总负重)²`` is floored
at 0.01, so an overloaded character's 敏捷 is multiplied by 0.01 (the sheet sets it to 0).  The
bot keeps those numbers and warns wherever the character is shown or acts (``.chr show``, adding a
weapon, ``.bat``), quoting the book; the GM decides whether the character may act.  The warning
starts where the floor starts: at 负重 ≥ 总负重 the revision is ≤ 0 and becomes 0.01.
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


__all__ = ["FLOOR", "overload_note", "overloaded"]
