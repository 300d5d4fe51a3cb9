"""One attack (Player's Handbook ch. 9, "Making an Attack"): d20 + attack bonus against the
target's armour class, then the damage roll.

* A natural 20 always hits and is a critical hit: the damage roll's dice are rolled twice
  (:func:`double_dice`: ``1d8+3`` → ``2d8+3``; modifiers are not doubled).
* A natural 1 always misses.
* Otherwise the attack hits when the total reaches the AC.  Without a known AC the hit is not
  decided here (``hit`` is ``None``): the DM rules on it.
* 优势/劣势: two d20, the higher / the lower; both cancel (:func:`~chronodice.rules.dnd5e.roll_d20`).

>>> import random
>>> a = roll_attack(random.Random(1), 5, 13)
>>> (a.kept, a.total, a.hit, a.crit)
(5, 10, False, False)
>>> from chronodice.dice import parse, to_text
>>> to_text(double_dice(parse("1d8+2d6+str")))
'2d8+4d6+str'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from chronodice.dice.ast import Binary, Dice, Expr, Num, Unary

from . import D20Check, roll_d20


@dataclass(frozen=True)
class AttackRoll(D20Check):
    """A :class:`~chronodice.rules.dnd5e.D20Check` whose ``modifier`` is the attack bonus and
    whose ``dc`` is the target's AC, with the attack's own rules for a natural 20 and a 1."""

    @property
    def crit(self) -> bool:
        return self.kept == 20

    @property
    def fumble(self) -> bool:
        return self.kept == 1

    @property
    def hit(self) -> bool | None:
        """Whether it hits; ``None`` when the AC is unknown (and the die was no 1 or 20)."""
        if self.crit:
            return True
        if self.fumble:
            return False
        return self.success


def roll_attack(
    rng: random.Random, bonus: int, ac: int | None, *, advantage: bool = False, disadvantage: bool = False
) -> AttackRoll:
    dice, kept = roll_d20(rng, advantage=advantage, disadvantage=disadvantage)
    return AttackRoll(dice=dice, kept=kept, modifier=bonus, dc=ac)


def double_dice(tree: Expr) -> Expr:
    """``tree`` with every dice term's count doubled (a critical hit's damage)."""
    if isinstance(tree, Dice):
        count = Num(2) if tree.count is None else Binary("*", tree.count, Num(2))
        if isinstance(tree.count, Num):
            count = Num(tree.count.value * 2)
        return replace(tree, count=count)
    if isinstance(tree, Binary):
        return replace(tree, left=double_dice(tree.left), right=double_dice(tree.right))
    if isinstance(tree, Unary):
        return replace(tree, operand=double_dice(tree.operand))
    return tree


__all__ = ["AttackRoll", "double_dice", "roll_attack"]
