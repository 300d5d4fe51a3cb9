"""Rolling a 无限恐怖 D10 success pool (seed 003 «检定，竞争与对抗», «机运骰»).

Pure: randomness comes from an injected :class:`random.Random`; no I/O, no clock.

* A pool of ``size`` ten-sided dice; a die showing 8, 9 or 10 is one success.
* "X-again" (加骰): every die showing the add threshold or more rolls one more die, and so on
  recursively.  The threshold is 10 by default, 9 or 8 by option, never below 8 (加骰的最低值为8);
  11 means no die is added (the Dice!/OlivaDice spelling ``a11``).
* Dice are rolled round by round, as the bots players know print them: round 1 is the pool,
  round ``k+1`` holds one die for every die of round ``k`` at or above the threshold.
* **Chance die** (机运骰) when the pool is 0 or less: one die; only a 10 succeeds; it still adds
  dice.  Readings taken where the seed is silent (documented, tested):

  - the die a chance 10 adds is an ordinary die ("能正常进行加骰"): 8–10 succeed and a 10 adds
    again;
  - a chance roll always uses 10-again: 9-again and 8-again are abilities that improve the result,
    and the seed says no such ability applies to a chance die;
  - a 1 is a dramatic failure (大失败) unless a success was already rolled in that chance roll;
    since only a 10 can add a die, a 1 on an added die is never a dramatic failure, so
    P(大失败) is exactly 1/10.

The dice cap of README "Limits" (1000 dice per command) holds *with* explosions: a
:class:`DiceBudget` shared by every roll of a command counts each die before it is rolled.

>>> import random
>>> r = roll_pool(5, random.Random(3))
>>> r.rounds, r.natural_successes, r.added_dice
(((4, 10, 9, 3, 6), (10,), (8,)), 4, 2)
>>> c = roll_pool(0, random.Random(2))
>>> c.chance, c.rounds, c.natural_successes, c.dramatic_failure
(True, ((1,),), 0, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from chronodice.core.errors import InputSyntaxError, LimitExceeded
from chronodice.core.limits import MAX_DICE_PER_COMMAND

FACES = 10
SUCCESS_AT = 8
"""A die showing this or more is a success (8, 9, 10)."""
CHANCE_SUCCESS_AT = 10
"""The chance die itself succeeds only on a 10."""
DEFAULT_AGAIN = 10
MIN_AGAIN = 8
"""加骰的最低值为8."""
NO_AGAIN = 11
"""Threshold meaning "no die is ever added" (Dice!/OlivaDice ``a11``)."""
DRAMATIC_FAILURE_FACE = 1
SCHEMA_VERSION = 1


def check_again(again: int) -> int:
    """Validate an add threshold: 8, 9, 10, or 11 (no adding).

    >>> check_again(9)
    9
    >>> check_again(7)
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 加骰阈值不能低于8（规则：加骰的最低值为8），收到 a7
    """
    if again < MIN_AGAIN:
        raise InputSyntaxError(f"加骰阈值不能低于{MIN_AGAIN}（规则：加骰的最低值为8），收到 a{again}")
    if again > NO_AGAIN:
        raise InputSyntaxError(f"加骰阈值最高为{NO_AGAIN}（a11 表示不加骰），收到 a{again}")
    return again


@dataclass
class DiceBudget:
    """Counts the dice of one command against the dice cap of README "Limits" (1000, explosions included)."""

    limit: int = MAX_DICE_PER_COMMAND
    used: int = 0

    def take(self, n: int = 1) -> None:
        if self.used + n > self.limit:
            raise LimitExceeded(f"一条指令最多掷{self.limit}颗骰子（含加骰），本次超出了上限")
        self.used += n

    def check_pool(self, size: int) -> None:
        """Refuse a pool whose first round alone would not fit (before rolling anything)."""
        if self.used + max(size, 1) > self.limit:
            raise LimitExceeded(f"骰池{size}太大：一条指令最多掷{self.limit}颗骰子（含加骰）")


@dataclass(frozen=True)
class PoolRoll:
    """What one pool roll gave.

    ``size`` is the pool asked for (may be 0 or negative: then ``chance`` is true and one die
    was rolled); ``again`` the add threshold actually used; ``rounds`` the faces round by round.
    """

    size: int
    again: int
    rounds: tuple[tuple[int, ...], ...]
    chance: bool = False
    schema_version: int = field(default=SCHEMA_VERSION, compare=False)

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face rolled, in rolling order."""
        return tuple(f for rnd in self.rounds for f in rnd)

    @property
    def dice_count(self) -> int:
        return sum(len(r) for r in self.rounds)

    def is_success_face(self, round_index: int, face: int) -> bool:
        """Whether the die ``face`` of round ``round_index`` (0-based) counts as a success."""
        if self.chance and round_index == 0:
            return face >= CHANCE_SUCCESS_AT
        return face >= SUCCESS_AT

    @property
    def natural_successes(self) -> int:
        """Successes the dice themselves gave (before bonus successes or losses)."""
        return sum(1 for i, rnd in enumerate(self.rounds) for f in rnd if self.is_success_face(i, f))

    @property
    def added_dice(self) -> int:
        """Dice added by the again rule."""
        return self.dice_count - len(self.rounds[0]) if self.rounds else 0

    @property
    def dramatic_failure(self) -> bool:
        """大失败: a chance roll that showed a 1 before any success."""
        if not self.chance:
            return False
        seen_success = False
        for i, rnd in enumerate(self.rounds):
            for f in rnd:
                if f == DRAMATIC_FAILURE_FACE and not seen_success:
                    return True
                if self.is_success_face(i, f):
                    seen_success = True
        return False

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "size": self.size,
            "again": self.again,
            "rounds": [list(r) for r in self.rounds],
            "chance": self.chance,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PoolRoll:
        return cls(
            size=int(data["size"]),
            again=int(data["again"]),
            rounds=tuple(tuple(int(f) for f in r) for r in data["rounds"]),
            chance=bool(data.get("chance", False)),
            schema_version=int(data.get("schema_version", SCHEMA_VERSION)),
        )


def roll_d10(rng: random.Random) -> int:
    """One fair d10 (``randint`` uses rejection sampling, not modulo)."""
    return rng.randint(1, FACES)


def roll_pool(
    size: int,
    rng: random.Random,
    *,
    again: int = DEFAULT_AGAIN,
    budget: DiceBudget | None = None,
) -> PoolRoll:
    """Roll a pool of ``size`` dice with the given add threshold (a chance die when ``size`` ≤ 0).

    Raises :class:`LimitExceeded` as soon as the command's dice budget would be exceeded, so a
    runaway input never hangs and never rolls past the cap.
    """
    check_again(again)
    budget = budget if budget is not None else DiceBudget()
    chance = size <= 0
    if chance:
        again = DEFAULT_AGAIN
    budget.check_pool(size)
    first = 1 if chance else size
    budget.take(first)
    rounds: list[tuple[int, ...]] = [tuple(roll_d10(rng) for _ in range(first))]
    while True:
        n_new = sum(1 for f in rounds[-1] if f >= again)
        if n_new == 0:
            break
        budget.take(n_new)
        rounds.append(tuple(roll_d10(rng) for _ in range(n_new)))
    return PoolRoll(size=size, again=again, rounds=tuple(rounds), chance=chance)


__all__ = [
    "CHANCE_SUCCESS_AT",
    "DEFAULT_AGAIN",
    "FACES",
    "MIN_AGAIN",
    "NO_AGAIN",
    "SUCCESS_AT",
    "DiceBudget",
    "PoolRoll",
    "check_again",
    "roll_d10",
    "roll_pool",
]
