"""A 5e initiative order: d20 + DEX modifier, highest first, ties by DEX score, then by who
joined first; turns and rounds; conditions that last a number of rounds; a monster's hit points
and armour class; hidden monsters.

A condition's rounds count down at the end of its bearer's turn and it ends at 0 (``中毒 3``:
three of the bearer's turns).

A hidden entry (an ambusher the DM added with ``.ri 暗``) keeps its place in the order but its
turn passes at once: :meth:`Tracker.next` goes on to the next visible entry and reports the hidden
turns it passed (their conditions count down as any turn's end does), so the group reads exactly
the turns it would read without it.  The DM reveals it (``.init 现身``, or its first attack) to
have it act in the order from then on.

A monster's hit points live on its entry (``hp``/``max_hp``, floored at 0); a player character's
stay on the card.  The state is plain JSON (``to_dict``/``from_dict``) for the session store.

>>> t = Tracker().add(Entry("哥布林", 12, dex=14)).add(Entry("托林", 12, dex=16)).add(Entry("狼", 18))
>>> [e.name for e in t.entries]
['狼', '托林', '哥布林']
>>> t, ev = t.next()
>>> (t.current.name, t.round, ev.new_round)
('狼', 1, True)
>>> t = t.add(Entry("伏兵", 15, hidden=True))
>>> t, ev = t.next()
>>> (t.current.name, ev.skipped)
('托林', ('伏兵',))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

MAX_ENTRIES = 40
MAX_CONDITIONS = 8
MAX_HP = 9999
MAX_AC = 40

HP_VIEWS = {"exact": "精确", "fuzzy": "模糊", "hidden": "隐藏"}
"""How the group sees monsters' hit points (the DM's choice, ``.init 血量``): numbers, a word
(:func:`health_word`), or nothing.  Player characters' are always shown."""


def health_word(hp: int, max_hp: int | None) -> str:
    """A monster's hit points as the players see them by default (Avrae's idea, 5e's words):
    满血, 轻伤 (above half), 重伤 (half or less: "bloodied"), 垂危 (a quarter or less), 倒下 (0).

    >>> [health_word(h, 20) for h in (20, 11, 10, 5, 0)]
    ['满血', '轻伤', '重伤', '垂危', '倒下']
    >>> health_word(7, None)
    '受伤未知'
    """
    if hp <= 0:
        return "倒下"
    if max_hp is None or max_hp <= 0:
        return "受伤未知"
    if hp >= max_hp:
        return "满血"
    if hp * 4 <= max_hp:
        return "垂危"
    return "重伤" if hp * 2 <= max_hp else "轻伤"


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
    hidden: bool = False
    hp: int | None = None
    """A monster's hit points (a player character's are on the card)."""
    max_hp: int | None = None
    ac: int | None = None
    card: str | None = None
    """The group's NPC card it was made from (``.ri 2# 哥布林`` → 哥布林1, 哥布林2 of card 哥布林)."""
    by: str | None = None
    """Who added a monster (the DM told privately of its hidden turns)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "total": self.total,
            "dex": self.dex,
            "text": self.text,
            "owner": self.owner,
            "conditions": [list(c) for c in self.conditions],
            "seq": self.seq,
        }
        for key in ("hp", "max_hp", "ac", "card", "by"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.hidden:
            out["hidden"] = True
        return out

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
            hidden=bool(d.get("hidden", False)),
            hp=_int_or_none(d.get("hp")),
            max_hp=_int_or_none(d.get("max_hp")),
            ac=_int_or_none(d.get("ac")),
            card=None if d.get("card") is None else str(d["card"]),
            by=None if d.get("by") is None else str(d["by"]),
        )


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


@dataclass(frozen=True)
class TurnEvents:
    new_round: bool = False
    expired: tuple[tuple[str, str], ...] = ()
    """``(name, condition)`` that ended with the turns that just finished (hidden ones' too)."""
    skipped: tuple[str, ...] = ()
    """Hidden entries whose turns passed on the way (the DM is told, the group is not)."""


def _order(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (-e.total, -e.dex, e.seq))


@dataclass(frozen=True)
class Tracker:
    entries: tuple[Entry, ...] = ()
    turn: str | None = None
    """The name of the combatant whose turn it is; ``None`` before the first ``.init next``."""
    round: int = 0
    seq: int = 0
    hp_view: str = "fuzzy"
    """A key of :data:`HP_VIEWS`."""

    @property
    def current(self) -> Entry | None:
        return next((e for e in self.entries if e.name == self.turn), None)

    @property
    def visible(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if not e.hidden)

    @property
    def has_hidden(self) -> bool:
        return any(e.hidden for e in self.entries)

    def find(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)

    def add(self, entry: Entry) -> Tracker:
        """Join (or re-roll: an entry of the same name is replaced, keeping its conditions and,
        unless the new one brings its own, its hit points and AC)."""
        old = self.find(entry.name)
        kept = [e for e in self.entries if e.name != entry.name]
        new = replace(entry, seq=self.seq + 1, conditions=old.conditions if old else entry.conditions)
        if old is not None:
            new = replace(
                new,
                hp=new.hp if new.hp is not None else old.hp,
                max_hp=new.max_hp if new.max_hp is not None else old.max_hp,
                ac=new.ac if new.ac is not None else old.ac,
            )
        return replace(self, entries=tuple(_order([*kept, new])), seq=self.seq + 1)

    def remove(self, name: str) -> Tracker:
        entries = list(self.entries)
        turn = self.turn
        if turn == name and len(entries) > 1:
            i = next(i for i, e in enumerate(entries) if e.name == name)
            turn = entries[(i + 1) % len(entries)].name
        entries = [e for e in entries if e.name != name]
        return replace(self, entries=tuple(entries), turn=turn if entries else None)

    def set(self, entry: Entry) -> Tracker:
        """``entry`` in place of the entry of its name."""
        return replace(self, entries=tuple(entry if e.name == entry.name else e for e in self.entries))

    def next(self) -> tuple[Tracker, TurnEvents]:
        """End the current turn (its conditions count down) and start the next visible one; the
        hidden turns on the way pass at once (:attr:`TurnEvents.skipped`)."""
        if not self.entries:
            return self, TurnEvents()
        state, names = self, [e.name for e in self.entries]
        expired: list[tuple[str, str]] = []
        skipped: list[str] = []
        new_round = False
        if self.turn is None or self.current is None:
            i, state = 0, replace(self, round=max(1, self.round))
            new_round = True
        else:
            state, gone = state._end_turn(self.turn)
            expired += gone
            i = names.index(self.turn) + 1
        any_visible = bool(state.visible)
        for _ in range(len(names) + 1):
            if i >= len(names):
                i, new_round = 0, True
                state = replace(state, round=state.round + 1)
            entry = state.entries[i]
            if not entry.hidden or not any_visible:
                break
            skipped.append(entry.name)
            state, gone = state._end_turn(entry.name)
            expired += gone
            i += 1
        state = replace(state, turn=state.entries[i].name)
        return state, TurnEvents(new_round=new_round, expired=tuple(expired), skipped=tuple(skipped))

    def _end_turn(self, name: str) -> tuple[Tracker, list[tuple[str, str]]]:
        """The end of ``name``'s turn: its conditions count down; those that end."""
        ending = self.find(name)
        if ending is None:
            return self, []
        kept: list[tuple[str, int | None]] = []
        expired: list[tuple[str, str]] = []
        for cond, left in ending.conditions:
            if left is None:
                kept.append((cond, None))
            elif left - 1 <= 0:
                expired.append((ending.name, cond))
            else:
                kept.append((cond, left - 1))
        return self.set(replace(ending, conditions=tuple(kept))), expired

    def condition(self, name: str, cond: str, rounds: int | None) -> Tracker:
        entry = self.find(name)
        if entry is None:
            return self
        conds = [c for c in entry.conditions if c[0] != cond][: MAX_CONDITIONS - 1]
        return self.set(replace(entry, conditions=(*conds, (cond, rounds))))

    def uncondition(self, name: str, cond: str) -> Tracker:
        entry = self.find(name)
        if entry is None:
            return self
        return self.set(replace(entry, conditions=tuple(c for c in entry.conditions if c[0] != cond)))

    def hurt(self, name: str, amount: int) -> tuple[Tracker, int, int]:
        """A monster's hit points after ``amount`` damage (negative: healing, up to its maximum),
        floored at 0: the tracker, the hit points before and after."""
        entry = self.find(name)
        if entry is None or entry.hp is None:
            return self, 0, 0
        new = max(0, entry.hp - amount)
        if amount < 0 and entry.max_hp is not None:
            new = min(new, max(entry.max_hp, entry.hp))
        return self.set(replace(entry, hp=new)), entry.hp, new

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "entries": [e.to_dict() for e in self.entries],
            "turn": self.turn,
            "round": self.round,
            "seq": self.seq,
        }
        if self.hp_view != "fuzzy":
            out["hp_view"] = self.hp_view
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Tracker:
        if not d:
            return cls()
        view = str(d.get("hp_view", "fuzzy"))
        return cls(
            entries=tuple(_order([Entry.from_dict(e) for e in d.get("entries", [])])),
            turn=d.get("turn"),
            round=int(d.get("round", 0)),
            seq=int(d.get("seq", 0)),
            hp_view=view if view in HP_VIEWS else "fuzzy",
        )


__all__ = [
    "HP_VIEWS",
    "MAX_AC",
    "MAX_CONDITIONS",
    "MAX_ENTRIES",
    "MAX_HP",
    "Entry",
    "Tracker",
    "TurnEvents",
    "health_word",
]
