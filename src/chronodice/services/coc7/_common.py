"""Shared pieces of the CoC 7th service: the group's settings (mode, house rule), the gate that
keeps the CoC-only commands silent in groups set to another system, and the one d100 roll
(plain, or with bonus/penalty dice from the dice package) that every check goes through."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from chronodice.core.commands import Call, CommandSpec
from chronodice.core.context import Context
from chronodice.core.errors import ChronoDiceError
from chronodice.dice import evaluate, parse
from chronodice.dice.trace import detail
from chronodice.rules.coc7.checks import CheckOutcome, Difficulty, judge
from chronodice.services.modes import coc_answered, guard_card

SYS_NAME = "CoC7"
MAX_BONUS = 3
"""Most bonus or penalty dice in one check (the rule book stops at two; Dice! and SealDice allow a
few more, so three)."""
MAX_TIMES = 10
"""Most checks in one ``.ra N#技能`` (as Dice! and OlivaDice cap ``N#``)."""


async def settings_for(app: Any, ctx: Context, view: Any) -> dict[str, Any]:
    """The settings of the group (or private scope) the message came from."""
    if view is not None and getattr(view, "group", None) is not None:
        return dict(view.group.settings)
    return dict((await app.store.groups.get_group(ctx.scope)).settings)


async def call_settings(call: Call) -> dict[str, Any]:
    return await settings_for(call.app, call.ctx, call.view)


def house_rule(settings: dict[str, Any]) -> int:
    rule = settings.get("coc_rule", 0)
    return rule if isinstance(rule, int) and 0 <= rule <= 5 else 0


def coc_gate(spec: CommandSpec, *, card: bool = False) -> CommandSpec:
    """Make ``spec`` answer only where CoC commands are answered (fresh and coc7 groups);
    ``card``: it reads the sender's card, so a card of another system (D20刻度, DnD5e…) is
    refused with one line instead of read (:func:`~chronodice.services.modes.guard_card`)."""

    async def resolve(app: Any, ctx: Context, view: Any, args: str) -> CommandSpec | None:
        if not coc_answered(await settings_for(app, ctx, view)):
            return None
        if not card or names_npc(spec, args, ctx.at_ids):
            return spec
        return guard_card(spec, "coc7", view, args, ctx.at_ids)

    spec.resolve = resolve
    return spec


def names_npc(spec: CommandSpec, args: str, mentions: tuple[str, ...] = ()) -> bool:
    """Whether the check names an NPC card (``.ra 哥布林:侦查``): the sender's own card is not read."""
    try:
        _, values = spec.select(args, mentions)
    except ChronoDiceError:
        return False
    return ":" in str(values.get("skill") or "")


@dataclass(frozen=True)
class D100:
    """One d100 for a check: its value and how it was rolled (``D100=47`` or the b/p trace)."""

    value: int
    trace: str


def roll_d100(rng: random.Random, bonus: int = 0) -> D100:
    """A d100; ``bonus`` > 0 bonus dice, < 0 penalty dice (the dice package's ``bN``/``pN``)."""
    if bonus == 0:
        value = rng.randint(1, 100)
        return D100(value, f"D100={value}")
    expr = f"{'b' if bonus > 0 else 'p'}{abs(bonus)}"
    rolled = evaluate(parse(expr), rng)
    return D100(rolled.value, detail(rolled, expr))


def roll_check(
    rng: random.Random,
    target: int,
    *,
    rule: int = 0,
    bonus: int = 0,
    difficulty: Difficulty = Difficulty.REGULAR,
) -> tuple[CheckOutcome, D100]:
    """Roll one check: the structured outcome (level, roll, target) and the roll's trace."""
    d = roll_d100(rng, bonus)
    return judge(d.value, target, rule, difficulty), d


__all__ = [
    "D100",
    "MAX_BONUS",
    "MAX_TIMES",
    "SYS_NAME",
    "call_settings",
    "coc_gate",
    "house_rule",
    "roll_check",
    "roll_d100",
    "settings_for",
]
