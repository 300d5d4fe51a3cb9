"""免问: a seat that said it does not want to be asked for 反制 or 恢复 (issue 44).

A 4-player game asks three seats at every 战术/魔法 card (the 反制 window) and everyone at each
濒死 (the 救援 window), holding a matching card or not (:mod:`.windows`), so an absent or
uninterested player costs everyone a tap or the whole 45 s.  A seat may opt out of those two
windows for the current turn (``"turn"``, until the next turn starts) or for the game
(``"game"``, until it says otherwise).

Whether an opted-out seat is skipped is decided from public facts only — the setting, the
window's kind, whose turn it is and who is dying — never from its hand: it is treated as having
passed at once, whether or not it holds a card that could answer, so the window closes at the
same moment and the group hears the same lines whatever it holds.  Two exceptions, public too:
a seat is still asked in its own turn (it is at the table then), and for 恢复 at its own 濒死.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Ask
    from .engine import Game

REASONS = ("nullify", "rescue")
"""The windows an opt-out covers: 反制 and 救援 (恢复 at 濒死).  Never 抵消 (a seat attacked is
asked for its 防御), 奥秘 pauses, or the seat's own requests."""
SPANS = ("turn", "game")


def setting(span: str, turn_no: int) -> dict[str, Any]:
    """The stored form of an opt-out said at turn ``turn_no``."""
    if span not in SPANS:
        raise ValueError(span)
    return {"span": span, "turn": turn_no}


def active(g: Game, opt: Any) -> bool:
    """Whether a stored opt-out still holds: for the game, or said in the turn now running."""
    if not isinstance(opt, dict):
        return False
    if opt.get("span") == "game":
        return True
    return opt.get("span") == "turn" and opt.get("turn") == g.state.turn_no


def covers(g: Game, ask: Ask, seat: int) -> bool:
    """Whether ``ask`` is a window an opt-out lets ``seat`` skip (public facts only)."""
    if ask.kind != "respond" or ask.reason not in REASONS or seat not in ask.waiting:
        return False
    if g.state.turn.seat == seat:
        return False  # its own turn: asked as usual
    return not (ask.reason == "rescue" and ask.info.get("dying") == seat)


def skips(g: Game, ask: Ask, seat: int, opt: Any) -> bool:
    """Whether ``seat``, with the stored opt-out ``opt`` (or ``None``), passes ``ask`` unasked."""
    return active(g, opt) and covers(g, ask, seat)


__all__ = ["REASONS", "SPANS", "active", "covers", "setting", "skips"]
