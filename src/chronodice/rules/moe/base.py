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
    """A request to one seat.

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

    def to_dict(self) -> dict[str, Any]:
        return {
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
