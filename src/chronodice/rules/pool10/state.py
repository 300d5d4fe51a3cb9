"""Per-group session state of the D10 pool system: declared and spent defence bonus successes.

Seed 003 «附加成功的使用»: a defender declares how many defence bonus successes to use *before*
the attack roll; after the attack those points are lost for the round, and they come back at the
defender's next action.  A declaration not made before the roll counts as none.

State is JSON-serialisable and versioned; transitions are pure and return the new state plus
events (the service writes the state with compare-and-set and renders the events).

Readings taken where the seed is silent:

* a new declaration replaces an earlier, unused one (it is not added to it);
* the declaration is used by the next attack made against that character, whoever makes it;
* the defender's "next action" is an explicit ``.ww 行动`` (by the player or a GM) or any attack
  the defender makes; it restores the spent points and cancels an unused declaration.
* a character with nothing declared and nothing spent is not tracked: declaring 0 with nothing
  spent stores nothing, and an action with nothing to restore leaves the state as it was.  So a
  command that changes nothing gives back the same state, writes no session-log row, and
  ``.undo`` reverts the last command that did change something.

>>> s = Pool10Session()
>>> s, ev = declare_defence(s, "c1", "艾拉", amount=3, total=5)
>>> s, used, ev = take_defence(s, "c1")
>>> used, s.defence["c1"].spent, available(s, "c1", total=5)
(3, 3, 2)
>>> s, ev = new_action(s, "c1")
>>> available(s, "c1", total=5)
5
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from chronodice.core.errors import IllegalAction, InputSyntaxError

SCHEMA_VERSION = 1
MAX_TRACKED = 200


@dataclass(frozen=True)
class DefenceState:
    """One character's defence bonus successes this round."""

    name: str
    declared: int = 0
    """Declared for the next attack against this character (not yet used)."""
    spent: int = 0
    """Used this round; restored at the character's next action."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "declared": self.declared, "spent": self.spent}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DefenceState:
        return cls(name=str(data["name"]), declared=int(data["declared"]), spent=int(data["spent"]))


@dataclass(frozen=True)
class Pool10Session:
    """The group's pool-system state, keyed by character key (``c<id>`` for a card)."""

    defence: dict[str, DefenceState] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "defence": {k: v.to_dict() for k, v in sorted(self.defence.items())},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Pool10Session:
        if not data:
            return cls()
        version = int(data.get("schema_version", SCHEMA_VERSION))
        if version > SCHEMA_VERSION:
            raise IllegalAction("会话数据来自更新的版本，无法读取")
        return cls(
            defence={k: DefenceState.from_dict(v) for k, v in dict(data.get("defence", {})).items()},
            schema_version=SCHEMA_VERSION,
        )


@dataclass(frozen=True)
class DefenceDeclared:
    key: str
    name: str
    amount: int
    replaced: int
    """An earlier unused declaration this one replaced (0 if none)."""


@dataclass(frozen=True)
class DefenceUsed:
    key: str
    name: str
    amount: int


@dataclass(frozen=True)
class DefenceRestored:
    key: str
    name: str
    restored: int
    dropped: int
    """An unused declaration cancelled by the action."""


Event = DefenceDeclared | DefenceUsed | DefenceRestored


def available(state: Pool10Session, key: str, *, total: int) -> int:
    """Defence bonus successes the character can still declare this round."""
    d = state.defence.get(key)
    return max(0, total - (d.spent if d else 0))


def declare_defence(
    state: Pool10Session, key: str, name: str, *, amount: int, total: int
) -> tuple[Pool10Session, list[Event]]:
    """Declare ``amount`` defence bonus successes for the next attack (``total``: the card's)."""
    if amount < 0:
        raise InputSyntaxError("宣言的防御附加成功不能为负数")
    left = available(state, key, total=total)
    if amount > left:
        raise IllegalAction(f"<{name}> 本轮可用的防御附加成功只剩{left}（共{total}），不能宣言{amount}")
    old = state.defence.get(key, DefenceState(name=name))
    if key not in state.defence and len(state.defence) >= MAX_TRACKED:
        raise IllegalAction("本群记录的防御宣言太多，请GM先 .ww 防御 clr")
    new = replace(old, name=name, declared=amount)
    events: list[Event] = [DefenceDeclared(key, name, amount, old.declared)]
    if new.declared == 0 and new.spent == 0:  # nothing to track: not a change by itself
        if key not in state.defence:
            return state, events
        rest = {k: v for k, v in state.defence.items() if k != key}
        return replace(state, defence=rest), events
    return replace(state, defence={**state.defence, key: new}), events


def take_defence(state: Pool10Session, key: str) -> tuple[Pool10Session, int, list[Event]]:
    """An attack is rolled against ``key``: its declaration (if any) is used up and spent."""
    d = state.defence.get(key)
    if d is None or d.declared == 0:
        return state, 0, []
    new = replace(d, declared=0, spent=d.spent + d.declared)
    return (
        replace(state, defence={**state.defence, key: new}),
        d.declared,
        [DefenceUsed(key, d.name, d.declared)],
    )


def new_action(state: Pool10Session, key: str) -> tuple[Pool10Session, list[Event]]:
    """The character acts: spent defence comes back; an unused declaration lapses."""
    d = state.defence.get(key)
    if d is None or (d.spent == 0 and d.declared == 0):  # nothing to restore: no change
        return state, []
    rest = {k: v for k, v in state.defence.items() if k != key}
    return replace(state, defence=rest), [DefenceRestored(key, d.name, d.spent, d.declared)]


def clear(state: Pool10Session) -> tuple[Pool10Session, list[Event]]:
    """Forget every declaration and spent point (a GM ending the fight)."""
    events: list[Event] = [DefenceRestored(k, d.name, d.spent, d.declared) for k, d in state.defence.items()]
    return Pool10Session(), events


__all__ = [
    "DefenceDeclared",
    "DefenceRestored",
    "DefenceState",
    "DefenceUsed",
    "Event",
    "Pool10Session",
    "available",
    "clear",
    "declare_defence",
    "new_action",
    "take_defence",
]
