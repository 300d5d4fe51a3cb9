"""What the ``.bat 图`` picture shows, before any drawing: its rows, pages, words and colours.

Kept apart from the drawing (:mod:`.battle_picture`) so that what a GM reads on the picture —
which page opens, which state an action is in, what its label says, which colour a participant
has — is plain data a test can pin without looking at pixels.

* **Rows**: every action (at its start), every 体力/意志 change, death, stun (眩晕, from its start
  to its end) and debuff put on or cleared (减益), in time order.  What a debuff took off an
  action is written on that action's label, not as a row of its own.
* **Pages**: :data:`ROWS_PER_PAGE` rows each, counted back from the latest row (the last page is
  always full).  The picture opens on :func:`now_page`, the page holding the battle's *now*
  (issue 25: at 500 actions it opened on the last page, 28/28, far from the present).
* **Colours**: a participant's colour is their place in the join order
  (:attr:`BattleState.participants` only ever grows), so it is the same in every picture of the
  battle, dead or alive.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from chronodice.rules.timeline.attributes import CN
from chronodice.rules.timeline.battle import Action, BattleState, Event
from chronodice.rules.timeline.modifiers import RESOURCE_CN
from chronodice.rules.timeline.rounding import fmt

ROWS_PER_PAGE = 18
ROW_EVENTS = ("hp", "mp", "death", "stun", "debuff")
"""Event kinds drawn as rows of their own (a debuff only where it is put on or cleared)."""
NOTE_CHARS = 16
"""At most this much of a declaration's note goes on its label (the picture cuts to fit anyway)."""


@dataclass(frozen=True)
class Row:
    """One line of the chart: an action or an event, at ``time``."""

    time: float
    order: int
    key: str
    action: Action | None = None
    event: Event | None = None


def _is_row_event(e: Event) -> bool:
    if e.kind not in ROW_EVENTS:
        return False
    return not (e.kind == "debuff" and e.ref is not None)  # what an action used: on its label


def chart_rows(state: BattleState) -> list[Row]:
    """Actions (at their start) and the :data:`ROW_EVENTS` (at their time), in time order."""
    rows = [Row(a.start, 0, a.key, action=a) for a in state.actions]
    rows += [Row(e.time, 1, e.key, event=e) for e in state.events if _is_row_event(e)]
    return sorted(
        rows, key=lambda r: (r.time, r.order, r.action.id if r.action else r.event.id if r.event else 0)
    )


def pages_for(rows: int) -> int:
    return max(1, -(-rows // ROWS_PER_PAGE))


def page_count(state: BattleState) -> int:
    return pages_for(len(chart_rows(state)))


def page_rows(rows: list[Row], page: int, pages: int) -> list[Row]:
    """Pages counted back from the present: the last page is always full, page 1 may be short."""
    end = len(rows) - (pages - page) * ROWS_PER_PAGE
    return rows[max(0, end - ROWS_PER_PAGE) : max(0, end)]


def page_of(index: int, rows: int) -> int:
    """The page (1-based) holding row ``index`` of ``rows`` under :func:`page_rows`."""
    return pages_for(rows) - (rows - 1 - index) // ROWS_PER_PAGE


def now_index(rows: list[Row], clock: float) -> int:
    """The row of *now*: the last one that began at or before the clock (the action in its
    windup, or the latest thing that happened); the first row when everything is still ahead."""
    return max(0, bisect_right([r.time for r in rows], clock) - 1)


def now_page(state: BattleState, rows: list[Row] | None = None) -> int:
    """The page ``.bat 图`` opens on: the one holding :func:`now_index`."""
    rows = chart_rows(state) if rows is None else rows
    return page_of(now_index(rows, state.clock), len(rows)) if rows else 1


# ---------------------------------------------------------------------- words
def action_state(state: BattleState, a: Action) -> str:
    """已取消 / 已宣言 (the opening: nothing has happened yet) / 已结算 / 前摇中 (begun, or beginning
    now: an action declared at the current time is winding up) / 未开始 (begins later: issue 25
    had every unresolved action 前摇中)."""
    if a.cancelled:
        return "已取消"
    if not state.started:
        return "已宣言"
    if a.end <= state.clock:
        return "已结算"
    return "前摇中" if a.start <= state.clock else "未开始"


def debuff_used(state: BattleState) -> dict[int, float]:
    """Action id → what its owner's debuff took off its impact."""
    out: dict[int, float] = {}
    for e in state.events:
        if e.kind == "debuff" and e.ref is not None and e.delta < 0:
            out[e.ref] = out.get(e.ref, 0.0) - e.delta
    return out


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def action_label(state: BattleState, a: Action, used: float = 0.0, *, note: bool = True) -> str:
    """What the bar of ``a`` says: what it is (its note, else its weapon or attribute), the impact
    (and what a debuff took off), →target (``note`` False: without the target, for where the whole
    label does not fit — what the action is matters more than whom: issue 39 defect 9 lost 火球)."""
    name = a.note.strip() or (a.weapon["name"] if a.weapon else CN.get(a.attribute, a.attribute))
    width = NOTE_CHARS if a.note.strip() else 12
    parts = [
        f"{_one_line(str(name), width)} 整备"
        if a.kind == "reload"
        else f"{_one_line(str(name), width)} {fmt(a.impact)}"
    ]
    if used > 0:
        parts[0] += f"(减益-{fmt(used)})"
    if note and a.target:
        target = state.participant(a.target)
        parts.append(f"→{target.name if target else a.target}")
    if a.cancelled:
        parts.append("已取消")
    return " ".join(parts)


def event_label(state: BattleState, e: Event, fmt_t: Callable[[float], str] = fmt) -> str:
    """What the marker (or band, for a stun) of ``e`` says."""
    if e.kind == "death":
        return "☠ 死亡"
    if e.kind == "stun":
        source = f"（#{e.ref}）" if e.ref is not None else ""
        return f"眩晕 {fmt_t(e.time)}→{fmt_t(e.after or e.time)}t{source}"
    if e.kind == "debuff":
        return f"减益 +{fmt(e.delta)}" if e.delta > 0 else "减益清除"
    sign = "+" if e.delta > 0 else ""
    return f"{RESOURCE_CN[e.kind]}{sign}{fmt(e.delta)} → {fmt(e.after or 0)}/{fmt(e.full or 0)}"


def row_end(r: Row) -> float:
    """Where a row's drawing ends on the time axis."""
    if r.action is not None:
        return r.action.effective_end
    if r.event is not None and r.event.kind == "stun" and r.event.after is not None:
        return r.event.after
    return r.time


def colour_index(state: BattleState, key: str) -> int:
    """A participant's place in the join order (stable for the whole battle)."""
    for i, p in enumerate(state.participants):
        if p.key == key:
            return i
    return 0


__all__ = [
    "ROWS_PER_PAGE",
    "Row",
    "action_label",
    "action_state",
    "chart_rows",
    "colour_index",
    "debuff_used",
    "event_label",
    "now_index",
    "now_page",
    "page_count",
    "page_of",
    "page_rows",
    "pages_for",
    "row_end",
]
