"""Rows numbered as MayuriBot numbers them: the ``[k]`` of ``.buff``, ``.dr`` and ``.wp`` lists,
which ``.buff del k``, ``.dr del k`` and ``.wp k`` / ``.wp del k`` name (issue 25).

MayuriBot keeps each list in a CSV file and sorts it with pandas (1.5.3, its lock file) only
when a row is added; deleting keeps the order; ``[k]`` is the row's place in the file.  So a
list is always in the order its last addition left, and we keep ours the same way — sorted at
each addition (:func:`insert_buff`, :func:`insert_reduction`, :func:`insert_weapon`), never on
reading, so a stored list keeps its numbers.

The orders (``sort_values`` in Buff.py, DamageReduction.py, WeaponCreate.py):

* ``.buff``: range ↓, type ↓, value ↑, source ↑ — the range by MayuriBot's English names
  (``r_physical`` … before ``check_willpower`` … ``check_constitution``), not ours;
* ``.dr``: defence ↓, range ↓ (``-mp`` > ``-hp`` > ``-all`` > ``+mp`` …), damage type ↓,
  value ↑, source ↑;
* ``.wp``: every column ↑, the name first (names are unique here, so: by name).

Strings compare by code point (as Python's).  The value column is where pandas' types show:

* ``.dr`` writes a percentage as text (``20%``) and a number as a float, so once a file holds a
  percentage its whole value column is read back as text and compared as text (``"10.0"`` <
  ``"20%"`` < ``"5.0"``); in the one sort that adds a row of the other kind, pandas puts the
  numbers first, then the texts;
* ``.buff`` keeps a plain number as the text typed (``"20"``) for the sort that adds it, so the
  new row goes after the numbers of its range and type until the next addition re-reads it
  as a number.

Both were checked against pandas 1.5.3 running MayuriBot's file operations (the exact sequences
are pinned in ``tests/services/test_timeline_compat.py``).  Names that look like numbers
(a weapon called ``1``) are compared as text here; MayuriBot would read them as numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the rows' types only: modifiers and character import this module
    from .character import Weapon
    from .modifiers import Buff, Reduction

R = TypeVar("R", "Buff", "Reduction")

MAYURI_RANGE: dict[str, str] = {
    "constitution": "check_constitution",
    "dexterity": "check_dexterity",
    "strength": "check_strength",
    "will": "check_willpower",
    "education": "check_education",
    "intelligence": "check_intelligence",
    "medicine": "check_medicine_and_life_science",
    "engineering": "check_engineering_and_technology",
    "military": "check_military_and_survival",
    "literature": "check_literature",
    "arts": "check_visual_and_performing_art",
}
"""Our attribute keys → MayuriBot's buff range names (groups ``r_physical`` … are the same)."""

Cell = tuple[int, Any]
"""A pandas value as it sorts in a mixed column: ``(0, number)`` before ``(1, text)``."""


def number(value: float) -> Cell:
    return (0, float(value))


def text(value: str) -> Cell:
    return (1, value)


def ordered(rows: Sequence[tuple[R, Cell]], keys: Sequence[tuple[Callable[[R], Any], bool]]) -> list[R]:
    """``rows`` (each with its value cell) sorted by ``keys`` (most significant first, each
    ``(key, descending)``) with the value ↑ and then the source ↑ after them — by stable sorts
    from the least significant key, as a lexicographic sort does."""
    out = sorted(rows, key=lambda rc: rc[0].source)
    out.sort(key=lambda rc: rc[1])
    for key, desc in reversed(keys):
        out.sort(key=_on_row(key), reverse=desc)
    return [r for r, _ in out]


def _on_row(key: Callable[[R], Any]) -> Callable[[tuple[R, Cell]], Any]:
    return lambda rc: key(rc[0])


def buff_range(range_key: str) -> str:
    """The range as MayuriBot stores it (what ``.buff`` sorts on)."""
    return MAYURI_RANGE.get(range_key, range_key)


def insert_buff(rows: Sequence[Buff], new: Buff, typed: str | None = None) -> list[Buff]:
    """``rows`` (in file order) with ``new`` added, in MayuriBot's order.  ``typed``: the value as
    typed when it was a plain number (see the module doc)."""
    if not rows:
        return [new]
    cells = [(b, number(b.value)) for b in rows]
    cells.append((new, text(typed) if typed is not None else number(new.value)))
    return ordered(cells, [(lambda b: buff_range(b.range), True), (lambda b: b.type, True)])


def typed_plain(value_text: str) -> str | None:
    """The text MayuriBot keeps for a ``.buff`` value typed as a plain number (``20``), else None
    (``10%`` and ``100d`` it turns into numbers at once)."""
    value_text = value_text.strip()
    return None if value_text[-1:] in ("%", "d", "D") else value_text


def reduction_text(row: Reduction) -> str:
    """A ``.dr`` value as MayuriBot's file holds it: ``20%`` (two decimals of the fraction, then a
    whole percent: 12.5 % is ``12%``), else the float (``10.0``)."""
    if row.kind == "%":
        return f"{float(format(row.value, '.2f')):.0%}"
    return repr(float(row.value))


def insert_reduction(rows: Sequence[Reduction], new: Reduction) -> list[Reduction]:
    """``rows`` (in file order) with ``new`` added, in MayuriBot's order."""
    if not rows:
        return [new]

    def cell(r: Reduction, as_text: bool) -> Cell:
        return text(reduction_text(r)) if as_text else number(r.value)

    texts = any(r.kind == "%" for r in rows)
    cells = [(r, cell(r, texts)) for r in rows]
    cells.append((new, cell(new, new.kind == "%")))
    return ordered(
        cells,
        [(lambda r: r.kind == "defence", True), (lambda r: r.range, True), (lambda r: r.damage_type, True)],
    )


def insert_weapon(rows: Sequence[Weapon], new: Weapon) -> list[Weapon]:
    """``rows`` with ``new`` added, by name (then type) as MayuriBot's ``sort_values(by=header)``."""
    return sorted([*rows, new], key=lambda w: (w.name, w.type))


__all__ = [
    "MAYURI_RANGE",
    "buff_range",
    "insert_buff",
    "insert_reduction",
    "insert_weapon",
    "ordered",
    "reduction_text",
    "typed_plain",
]
