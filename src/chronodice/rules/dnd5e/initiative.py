"""A 5e initiative order: d20 + DEX modifier, highest first, ties by DEX score, then by who
joined first; turns and rounds; conditions that last a number of rounds.

A condition's rounds count down at the end of its bearer's turn and it ends at 0 (``中毒 3``:
three of the bearer's turns).  The state is plain JSON (``to_dict``/``from_dict``) for the
session store.

>>> t = Tracker().add(Entry("哥布林", 12, dex=14)).add(Entry("托林", 12, dex=16)).add(Entry("狼", 18))
>>> [e.name for e in t.entries]
['狼', '托林', '哥布林']
>>> t, ev = t.next()
>>> (t.current.name, t.round, ev.new_round)
('狼', 1, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

MAX_ENTRIES = 40
MAX_CONDITIONS = 8


@dataclass(frozen=True)
class Entry:
    name: str
    total: int
    dex: int = 10
    text: str = ""
    """How the total was reached (``D20=12+2``), shown in the list."""
    owner: str | None = None
    conditions: tuple[tuple[str, int | None], ...] = ()
    """``(condition, rounds left)``; ``None`` lasts until removed."""
    seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "dex": self.dex,
            "text": self.text,
            "owner": self.owner,
            "conditions": [list(c) for c in self.conditions],
            "seq": self.seq,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Entry:
        return cls(
            name=str(d["name"]),
            total=int(d["total"]),
            dex=int(d.get("dex", 10)),
            text=str(d.get("text", "")),
            owner=d.get("owner"),
            conditions=tuple(
                (str(c[0]), None if c[1] is None else int(c[1])) for c in d.get("conditions", [])
            ),
            seq=int(d.get("seq", 0)),
        )


@dataclass(frozen=True)
class TurnEvents:
    new_round: bool = False
    expired: tuple[tuple[str, str], ...] = ()
    """``(name, condition)`` that ended with the turn that just finished."""


def _order(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (-e.total, -e.dex, e.seq))


@dataclass(frozen=True)
class Tracker:
    entries: tuple[Entry, ...] = ()
    turn: str | None = None
    """The name of the combatant whose turn it is; ``None`` before the first ``.init next``."""
    round: int = 0
    seq: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def current(self) -> Entry | None:
        return next((e for e in self.entries if e.name == self.turn), None)

    def find(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)

    def add(self, entry: Entry) -> Tracker:
        """Join (or re-roll: an entry of the same name is replaced, keeping its conditions)."""
        old = self.find(entry.name)
        kept = [e for e in self.entries if e.name != entry.name]
        new = replace(entry, seq=self.seq + 1, conditions=old.conditions if old else entry.conditions)
        return replace(self, entries=tuple(_order([*kept, new])), seq=self.seq + 1)

    def remove(self, name: str) -> Tracker:
        entries = list(self.entries)
        turn = self.turn
        if turn == name and len(entries) > 1:
            i = next(i for i, e in enumerate(entries) if e.name == name)
            turn = entries[(i + 1) % len(entries)].name
        entries = [e for e in entries if e.name != name]
        return replace(self, entries=tuple(entries), turn=turn if entries else None)

    def _set(self, entry: Entry) -> Tracker:
        return replace(self, entries=tuple(entry if e.name == entry.name else e for e in self.entries))

    def next(self) -> tuple[Tracker, TurnEvents]:
        """End the current turn (its conditions count down) and start the next one."""
        if not self.entries:
            return self, TurnEvents()
        if self.turn is None or self.current is None:
            return replace(self, turn=self.entries[0].name, round=max(1, self.round)), TurnEvents(
                new_round=True
            )
        ending = self.current
        kept: list[tuple[str, int | None]] = []
        expired: list[tuple[str, str]] = []
        for cond, left in ending.conditions:
            if left is None:
                kept.append((cond, None))
            elif left - 1 <= 0:
                expired.append((ending.name, cond))
            else:
                kept.append((cond, left - 1))
        state = self._set(replace(ending, conditions=tuple(kept)))
        names = [e.name for e in state.entries]
        i = names.index(ending.name) + 1
        new_round = i >= len(names)
        state = replace(state, turn=names[i % len(names)], round=state.round + (1 if new_round else 0))
        return state, TurnEvents(new_round=new_round, expired=tuple(expired))

    def condition(self, name: str, cond: str, rounds: int | None) -> Tracker:
        entry = self.find(name)
        if entry is None:
            return self
        conds = [c for c in entry.conditions if c[0] != cond][: MAX_CONDITIONS - 1]
        return self._set(replace(entry, conditions=(*conds, (cond, rounds))))

    def uncondition(self, name: str, cond: str) -> Tracker:
        entry = self.find(name)
        if entry is None:
            return self
        return self._set(replace(entry, conditions=tuple(c for c in entry.conditions if c[0] != cond)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "entries": [e.to_dict() for e in self.entries],
            "turn": self.turn,
            "round": self.round,
            "seq": self.seq,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Tracker:
        if not d:
            return cls()
        return cls(
            entries=tuple(_order([Entry.from_dict(e) for e in d.get("entries", [])])),
            turn=d.get("turn"),
            round=int(d.get("round", 0)),
            seq=int(d.get("seq", 0)),
        )


__all__ = ["MAX_CONDITIONS", "MAX_ENTRIES", "Entry", "Tracker", "TurnEvents"]
