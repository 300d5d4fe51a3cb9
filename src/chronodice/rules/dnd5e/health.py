"""Hit points, temporary hit points and death saving throws (Player's Handbook ch. 9).

* Damage is taken from temporary hit points first, then from hit points, which never go below 0.
* Dropping to 0: if the damage left over is at least the hit point maximum, the creature dies
  outright (massive damage); otherwise it falls unconscious and starts death saves.
* Damage while at 0 hit points is one failed death save (instant death when it reaches the
  maximum), as SealDice's dnd module plays it.
* A death save: d20, 10 or more succeeds, a 1 counts as two failures, a 20 regains 1 hit point.
  Three successes: stable; three failures: dead.  Healing resets the saves.

>>> h, note = damage(Health(hp=20, max_hp=20, temp=3), 25)
>>> (h.hp, h.temp, note.absorbed, note.down, note.dead)
(0, 0, 3, True, False)
>>> damage(Health(hp=5, max_hp=12), 17)[1].dead
True
>>> death_save(Health(hp=0, max_hp=12, failures=1), 1)[0].dead
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

HP = "体力"
MAX_HP = "体力上限"
TEMP_HP = "临时体力"


@dataclass(frozen=True)
class Health:
    hp: int
    max_hp: int | None = None
    temp: int = 0
    successes: int = 0
    failures: int = 0
    stable: bool = False
    dead: bool = False

    def death_dict(self) -> dict[str, Any]:
        return {"s": self.successes, "f": self.failures, "stable": self.stable, "dead": self.dead}

    @classmethod
    def of(cls, attrs: dict[str, Any], death: dict[str, Any] | None) -> Health:
        def num(key: str) -> int | None:
            v = attrs.get(key)
            return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else None

        d = death or {}
        return cls(
            hp=num(HP) or 0,
            max_hp=num(MAX_HP),
            temp=max(0, num(TEMP_HP) or 0),
            successes=int(d.get("s", 0)),
            failures=int(d.get("f", 0)),
            stable=bool(d.get("stable", False)),
            dead=bool(d.get("dead", False)),
        )


@dataclass(frozen=True)
class DamageNote:
    absorbed: int = 0
    taken: int = 0
    down: bool = False
    """Dropped to 0 hit points by this damage (and not killed)."""
    dead: bool = False
    massive: bool = False
    failures_added: int = 0


def _reset(h: Health) -> Health:
    return replace(h, successes=0, failures=0, stable=False, dead=False)


def damage(h: Health, amount: int) -> tuple[Health, DamageNote]:
    """``h`` after ``amount`` damage, and what happened."""
    absorbed = min(h.temp, max(0, amount))
    left = max(0, amount) - absorbed
    h = replace(h, temp=h.temp - absorbed)
    if left == 0 or h.dead:
        return replace(h, hp=max(0, h.hp - left)), DamageNote(absorbed=absorbed, taken=min(left, h.hp))
    if h.hp > 0:
        over = left - h.hp
        if over < 0:
            return replace(h, hp=h.hp - left), DamageNote(absorbed=absorbed, taken=left)
        taken = h.hp
        if h.max_hp is not None and over >= h.max_hp:
            return replace(h, hp=0, dead=True), DamageNote(absorbed, taken, dead=True, massive=True)
        return replace(_reset(h), hp=0), DamageNote(absorbed, taken, down=True)
    if h.max_hp is not None and left >= h.max_hp:
        return replace(h, dead=True), DamageNote(absorbed, 0, dead=True, massive=True)
    failures = min(3, h.failures + 1)
    h = replace(h, failures=failures, stable=False, dead=failures >= 3)
    return h, DamageNote(absorbed, 0, dead=h.dead, failures_added=1)


def heal(h: Health, amount: int) -> Health:
    """``h`` after regaining ``amount`` hit points (up to the maximum); any healing from 0 ends
    the death saves."""
    if amount <= 0:
        return h
    top = h.max_hp if h.max_hp is not None else h.hp + amount
    new = replace(h, hp=min(top, h.hp + amount)) if h.hp < top else h
    return _reset(new) if new.hp > 0 else new


def set_hp(h: Health, value: int) -> Health:
    """``.st 体力N``: set directly (floor 0); above 0 ends the death saves."""
    new = replace(h, hp=max(0, value))
    return _reset(new) if new.hp > 0 else new


@dataclass(frozen=True)
class DeathSave:
    roll: int
    outcome: str
    """``success`` / ``failure`` / ``double_failure`` / ``revive``."""


def death_save(h: Health, roll: int) -> tuple[Health, DeathSave]:
    """One death saving throw with the d20 ``roll``."""
    if roll == 20:
        return replace(_reset(h), hp=max(1, h.hp)), DeathSave(roll, "revive")
    if roll == 1:
        failures = min(3, h.failures + 2)
        return replace(h, failures=failures, dead=failures >= 3), DeathSave(roll, "double_failure")
    if roll >= 10:
        successes = h.successes + 1
        if successes >= 3:
            return replace(h, successes=0, failures=0, stable=True), DeathSave(roll, "success")
        return replace(h, successes=successes), DeathSave(roll, "success")
    failures = h.failures + 1
    return replace(h, failures=failures, dead=failures >= 3), DeathSave(roll, "failure")


__all__ = [
    "HP",
    "MAX_HP",
    "TEMP_HP",
    "DamageNote",
    "DeathSave",
    "Health",
    "damage",
    "death_save",
    "heal",
    "set_hp",
]
