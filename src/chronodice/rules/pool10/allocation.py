"""Splitting attack bonus successes over the attacks of one attack action (seed 003 «特殊» cases).

* Every attack action may use all the character's attack bonus successes.
* One action making several attacks: the attacker declares, before attacking, how the bonus is
  split over those attacks.
* One action hitting several targets once each (an area): each target gets the full bonus.
* Several targets, some hit several times: a target hit once gets the full bonus; a target hit
  several times still splits it over its attacks.  Reading taken: each multi-hit target splits the
  full bonus over *its own* attacks (as every target "gets" the whole bonus in the area case).
* A declared split of a multi-hit target must allocate *all* the bonus (the seed: 需宣言将本次攻击的
  全部攻击附加成功分配在每次攻击上): a split that leaves some unused or exceeds the total is refused,
  saying what the total must be.  Without a declared split the bonus is spread evenly, earlier
  attacks taking the remainder.
* Bonus gained during the action (seed: 人物在一个攻击动作中攻击一个目标多次时，若在攻击的过程获得攻击
  附加成功（命中，根据检定获得等），则人物可以立即使用这些攻击附加成功，则一旦触发一次后，后续同一次行动
  不会再次触发): ``gained`` successes come with the action's first hit and are used at once, by the
  next attack on the same target; the gain triggers once per action.  A first hit with no later
  attack on its target leaves the gain unused (reported).  Reading taken: "立即使用" = the very next
  attack on that target, not spread over all the remaining ones.
* Weapon-by-weapon splits are the GM's call: this module only checks and reports a declared split.

Text form of the targets: ``甲 乙×3 丙*2=2/1`` (name, hits, optional split with ``/``).

>>> plan = allocate(4, parse_targets("甲 乙×3 丙*2=3/1"))
>>> [(a.target, a.hit, a.bonus) for a in plan]
[('甲', 1, 4), ('乙', 1, 2), ('乙', 2, 1), ('乙', 3, 1), ('丙', 1, 3), ('丙', 2, 1)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chronodice.core.errors import IllegalAction, InputSyntaxError
from chronodice.core.limits import MAX_REPEATS

from .check import AttackResult, resolve_attack
from .pool import PoolRoll

USAGE = ".ww 分配 <骰池> [+Ns] 目标[×次数][=分配/分配…] …（如 .ww 分配 力量+格斗 +4s 甲 乙×3=2/1/1）"
MAX_ATTACKS = MAX_REPEATS

_TARGET = re.compile(r"^([^\s×xX*=,/0-9][^\s×*=,/]*?)?(?:[×xX*]([0-9]+))?(?:=([0-9]+(?:/[0-9]+)*))?$")


@dataclass(frozen=True)
class Target:
    name: str
    hits: int = 1
    split: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Attack:
    """One attack of the action: the ``hit``-th attack on ``target``, with ``bonus`` successes."""

    target: str
    hit: int
    bonus: int


def target_of(word: str, index: int = 1) -> Target:
    """One target word ``乙×3=2/1``; a target without a name is called ``目标<index>`` (``""`` for 0)."""
    m = _TARGET.match(word)
    if not m:
        raise InputSyntaxError(f"无法理解目标「{word[:20]}」", usage=USAGE)
    name = m.group(1) or (f"目标{index}" if index else "")
    if len(m.group(2) or "") > 3 or len(m.group(3) or "") > 80:
        raise InputSyntaxError(f"「{word[:20]}」的数值太大", usage=USAGE)
    hits = int(m.group(2)) if m.group(2) else 1
    if hits < 1:
        raise InputSyntaxError(f"「{name}」的攻击次数至少为1", usage=USAGE)
    split = tuple(int(x) for x in m.group(3).split("/")) if m.group(3) else None
    return Target(name, hits, split)


def check_targets(targets: list[Target]) -> list[Target]:
    """Refuse more than :data:`MAX_ATTACKS` attacks in one action."""
    if sum(t.hits for t in targets) > MAX_ATTACKS:
        raise InputSyntaxError(f"一次最多分配{MAX_ATTACKS}次攻击", usage=USAGE)
    return targets


def parse_targets(text: str) -> list[Target]:
    """Parse ``甲 乙×3 丙*2=2/1``."""
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words:
        raise InputSyntaxError("请给出目标，如 甲 乙×3", usage=USAGE)
    return check_targets([target_of(w, i) for i, w in enumerate(words, 1)])


def even_split(total: int, hits: int) -> tuple[int, ...]:
    """Spread ``total`` over ``hits`` attacks, earlier attacks taking the remainder.

    >>> even_split(5, 3), even_split(1, 3)
    ((2, 2, 1), (1, 0, 0))
    """
    q, r = divmod(total, hits)
    return tuple(q + (1 if i < r else 0) for i in range(hits))


def allocate(total: int, targets: list[Target]) -> list[Attack]:
    """Each attack of the action with its bonus successes, by the seed's special cases."""
    if total < 0:
        raise InputSyntaxError("攻击附加成功不能为负数", usage=USAGE)
    attacks: list[Attack] = []
    for t in targets:
        if t.hits == 1:
            if t.split is not None and (len(t.split) != 1 or t.split[0] > total):
                raise IllegalAction(f"「{t.name}」只受到一次攻击，可以获得全部{total}个攻击附加成功")
            attacks.append(Attack(t.name, 1, total if t.split is None else t.split[0]))
            continue
        split = t.split if t.split is not None else even_split(total, t.hits)
        if len(split) != t.hits:
            raise IllegalAction(f"「{t.name}」受到{t.hits}次攻击，但分配了{len(split)}份")
        if sum(split) > total:
            raise IllegalAction(
                f"「{t.name}」的分配合计{sum(split)}，超过了攻击附加成功{total}（多次攻击需分配全部攻击附加成功）"
            )
        if sum(split) < total:
            raise IllegalAction(
                f"「{t.name}」的分配合计{sum(split)}，少于攻击附加成功{total}：多次攻击需分配全部攻击附加成功，"
                f"分配合计应为{total}"
            )
        attacks.extend(Attack(t.name, i + 1, b) for i, b in enumerate(split))
    return attacks


@dataclass(frozen=True)
class Resolved:
    """One attack of the action, resolved: ``gained`` is the mid-action bonus it used."""

    attack: Attack
    result: AttackResult
    gained: int = 0


@dataclass(frozen=True)
class ActionResult:
    rows: tuple[Resolved, ...]
    gained: int = 0
    """Bonus successes the first hit gained (0: none declared)."""
    gain_at: int | None = None
    """Index of the first hit (the trigger), ``None`` when nothing hit."""
    gain_used: bool = False


def resolve_action(
    plan: list[Attack], rolls: list[PoolRoll], defences: list[int], *, gained: int = 0
) -> ActionResult:
    """Resolve each attack of a multi-attack action in order, with the defence each faced and
    the bonus ``gained`` at the first hit used by the next attack on the same target.

    >>> plan = [Attack("甲", 1, 1), Attack("甲", 2, 1)]
    >>> rolls = [PoolRoll(2, 10, ((8, 1),)), PoolRoll(2, 10, ((9, 1),))]
    >>> r = resolve_action(plan, rolls, [0, 0], gained=2)
    >>> [(x.result.successes, x.gained) for x in r.rows], r.gain_used
    ([(2, 0), (4, 2)], True)
    """
    if gained < 0:
        raise InputSyntaxError("获得的攻击附加成功不能为负数", usage=USAGE)
    rows: list[Resolved] = []
    trigger: int | None = None
    used = False
    for i, (attack, roll, defence) in enumerate(zip(plan, rolls, defences, strict=True)):
        extra = 0
        if gained and trigger is not None and not used and plan[trigger].target == attack.target:
            extra, used = gained, True
        res = resolve_attack(roll, attack_bonus=attack.bonus + extra, defence=defence)
        rows.append(Resolved(attack, res, extra))
        if trigger is None and res.hit:
            trigger = i
    return ActionResult(tuple(rows), gained, trigger, used)


__all__ = [
    "USAGE",
    "ActionResult",
    "Attack",
    "Resolved",
    "Target",
    "allocate",
    "check_targets",
    "even_split",
    "parse_targets",
    "resolve_action",
    "target_of",
]
