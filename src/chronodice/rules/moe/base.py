"""Core types of the engine: requests (Ask), settlement frames, effect contexts, GameOver.

Kept apart from :mod:`.engine` so the operation mixins can import them at module level.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from .cards import VirtualCard
from .state import SkillInst

Gen = Generator["Ask", Any, Any]


class GameOver(Exception):
    """Raised inside the settlement when a win condition is met (1.1): unwinds every frame."""


@dataclass
class Ask:
    """A request to one seat, or a response window to several at once (``seats``).

    ``kind``: play | invoke | choose_cards | choose_blind | choose_players | choose_option |
    respond | order | distribute | arrange.  ``options`` are the legal elements; ``lo``/``hi`` the
    number to pick.  ``reason`` is a short machine key the renderer turns into Chinese text.
    """

    kind: str
    seat: int
    reason: str
    options: list[Any] = field(default_factory=list)
    lo: int = 1
    hi: int = 1
    optional: bool = False
    info: dict[str, Any] = field(default_factory=dict)
    serial: int = 0
    seats: list[int] = field(default_factory=list)
    """A response *window* when not empty: every one of these seats is asked at once (their
    ``choices`` may be empty), in this order of precedence; ``seat``/``options`` then show the
    first seat still to answer, so a driver answering ``ask.seat`` walks the window in order."""
    choices: dict[int, list[Any]] = field(default_factory=dict)
    """A window's legal cards per seat."""
    answers: dict[int, Any] = field(default_factory=dict)
    """A window's answers so far (rebuilt by replaying the inputs, like everything else)."""

    @property
    def waiting(self) -> list[int]:
        """Seats whose answer is still awaited (a plain request: its one seat)."""
        if not self.seats:
            return [self.seat]
        return [s for s in self.seats if s not in self.answers]

    def for_seat(self, seat: int) -> Ask:
        """The request as ``seat`` sees it: a plain request with that seat's own options."""
        if not self.seats:
            return self
        return Ask(
            self.kind,
            seat,
            self.reason,
            options=list(self.choices.get(seat, [])),
            lo=self.lo,
            hi=self.hi,
            optional=self.optional,
            info=self.info,
            serial=self.serial,
        )

    def record(self, seat: int, value: Any) -> Any:
        """Note a window answer; returns ``...`` while the window stays open, else what the
        settlement receives: ``None`` when everyone passed, or ``{"seat", "card", "passed"}`` for
        the first seat in order that answered with a card once every seat before it passed (a
        later seat's card is then not used and stays in its hand)."""
        self.answers[seat] = value
        passed: list[int] = []
        for s in self.seats:
            if s not in self.answers:
                self.seat = s
                self.options = list(self.choices.get(s, []))
                return ...
            if self.answers[s] is not None:
                return {"seat": s, "card": self.answers[s], "passed": passed}
            passed.append(s)
        return None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "kind": self.kind,
            "seat": self.seat,
            "reason": self.reason,
            "options": self.options,
            "lo": self.lo,
            "hi": self.hi,
            "optional": self.optional,
            "info": self.info,
            "serial": self.serial,
        }
        if self.seats:
            out["seats"] = list(self.seats)
            out["choices"] = {str(k): list(v) for k, v in self.choices.items()}
            out["answers"] = {str(k): v for k, v in self.answers.items()}
        return out


@dataclass
class Frame:
    """One settlement on the stack: a card use, a skill use, a damage, a turn …"""

    kind: str
    owner: int | None
    data: dict[str, Any] = field(default_factory=dict)
    ignore_armour: list[int] = field(default_factory=list)
    locked: list[int] = field(default_factory=list)


@dataclass
class Ctx:
    """What an effect sees: who runs it, on whom, with which card, and its variables."""

    me: int
    target: int | None = None
    card: VirtualCard | None = None
    data: dict[str, Any] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)
    skill: SkillInst | None = None
    source_card: int | None = None
