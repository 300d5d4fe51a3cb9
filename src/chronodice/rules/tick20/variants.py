"""The two rule variants as small objects: the timing arithmetic that differs (tick20.md §2.3).

``BASE`` (002): 主要先攻 M / 当前先攻 C, split combatants (M > 20) pay ⌈400/M⌉ per turn, AP.
``SPD`` (004): one 先攻值 I, each turn costs ``20 − SPD`` with SPD = min(19, base + max(0, I − 20)),
values above 20 act at tick 20, no AP.

Everything else (ticks, effects, queue) is shared and lives in :mod:`.engine`.

>>> BASE_RULES.turn_cost(25), BASE_RULES.turn_cost(17), BASE_RULES.turn_cost(34)
(16, 20, 12)
>>> SPD_RULES.spd(41, 0), SPD_RULES.spd(22, 0), SPD_RULES.spd(15, 5)
(19, 2, 5)
"""

from __future__ import annotations

from .model import Combatant, Options, Variant

SPD_CAP = 19


class VariantRules:
    """Common interface; see the two subclasses."""

    variant: Variant = Variant.BASE
    has_ap: bool = True
    rounds_step_first: bool = False
    """SPD counts 轮 effects before the other tick-start events, BASE after the AP grant."""
    settle_allowed: bool = True

    def tick_position(self, c: Combatant) -> int | None:
        raise NotImplementedError

    def primary_key(self, c: Combatant) -> int:
        raise NotImplementedError

    def end_turn(self, c: Combatant) -> int:
        """Apply the cost step to ``c`` and return the cost."""
        raise NotImplementedError

    def round_start(self, c: Combatant, round_no: int, options: Options) -> None:
        raise NotImplementedError

    def surprise(self, c: Combatant) -> None:
        c.cur -= 20

    def delay(self, c: Combatant, tick: int, options: Options) -> None:
        raise NotImplementedError

    def set_value(self, c: Combatant, value: int) -> None:
        """``.init set`` / a join: the new value, before PLACE decides when it applies."""
        raise NotImplementedError

    def placed_position(self, value: int) -> int | None:
        """Tick position of a freshly placed value."""
        raise NotImplementedError

    def mod_init(self, c: Combatant, delta: int, active: bool) -> None:
        raise NotImplementedError

    def settle(self, c: Combatant) -> int:
        """沉淀先攻 at round end; returns the change (0 when nothing moves)."""
        return 0


class BaseRules(VariantRules):
    """Seed 002."""

    variant = Variant.BASE

    @staticmethod
    def turn_cost(main: int) -> int:
        """K = 20, or ⌈400/M⌉ for a split combatant (M > 20)."""
        return 20 if main <= 20 else -(-400 // main)

    def tick_position(self, c: Combatant) -> int | None:
        return c.cur if 1 <= c.cur <= 20 else None

    def primary_key(self, c: Combatant) -> int:
        return c.main if c.main > 20 else c.cur

    def end_turn(self, c: Combatant) -> int:
        cost = self.turn_cost(c.main)
        c.cur -= cost
        return cost

    def round_start(self, c: Combatant, round_no: int, options: Options) -> None:
        if round_no == 1 or c.pending or options.carry_rule == "reset":
            c.cur = min(c.main, 20)
            c.pending = False
            return
        c.cur += 20
        if c.cur > 20:
            c.cur = min(c.main, 20)

    def delay(self, c: Combatant, tick: int, options: Options) -> None:
        if options.delay_rule == "literal":
            c.cur += 1
        else:
            c.cur = tick - 1

    def set_value(self, c: Combatant, value: int) -> None:
        c.main = value

    def placed_position(self, value: int) -> int | None:
        return min(value, 20) if value >= 1 else None

    def mod_init(self, c: Combatant, delta: int, active: bool) -> None:
        before = c.main
        c.main += delta
        if not active:
            c.cur = min(c.main, 20)
        elif before <= 20:
            c.cur = min(c.cur + delta, 20)

    def settle(self, c: Combatant) -> int:
        roll = c.roll
        if roll is None or not roll.settles or roll.die is None:
            return 0
        delta = 1 if roll.die < 10 else -1 if roll.die > 10 else 0
        if delta:
            roll.die += delta
            roll.total += delta
            if c.main <= 20:
                c.cur += delta
            c.main += delta
        return delta


class SpdRules(VariantRules):
    """Seed 004."""

    variant = Variant.SPD
    has_ap = False
    rounds_step_first = True
    settle_allowed = False

    @staticmethod
    def spd(value: int, base: int) -> int:
        """SPD at the end of a turn: base plus the surplus above 20, capped at 19 (A11)."""
        return min(SPD_CAP, base + max(0, value - 20))

    def tick_position(self, c: Combatant) -> int | None:
        if c.cur > 20:
            return 20
        return c.cur if c.cur >= 1 else None

    def primary_key(self, c: Combatant) -> int:
        return c.cur

    def end_turn(self, c: Combatant) -> int:
        cost = 20 - self.spd(c.cur, c.spd_base)
        c.cur -= cost
        return cost

    def round_start(self, c: Combatant, round_no: int, options: Options) -> None:
        if c.pending:
            c.cur = c.main
            c.pending = False
        elif round_no >= 2:
            c.cur += 20

    def delay(self, c: Combatant, tick: int, options: Options) -> None:
        c.cur = tick - 1

    def set_value(self, c: Combatant, value: int) -> None:
        c.main = value
        c.cur = value

    def placed_position(self, value: int) -> int | None:
        if value > 20:
            return 20
        return value if value >= 1 else None

    def mod_init(self, c: Combatant, delta: int, active: bool) -> None:
        c.main += delta
        c.cur += delta


BASE_RULES = BaseRules()
SPD_RULES = SpdRules()
RULES: dict[Variant, VariantRules] = {Variant.BASE: BASE_RULES, Variant.SPD: SPD_RULES}

VARIANT_ALIASES: dict[str, Variant] = {
    "基础": Variant.BASE,
    "base": Variant.BASE,
    "002": Variant.BASE,
    "速度": Variant.SPD,
    "spd": Variant.SPD,
    "004": Variant.SPD,
    "追加": Variant.SPD,
}


def rules_for(variant: Variant) -> VariantRules:
    return RULES[variant]


__all__ = [
    "BASE_RULES",
    "RULES",
    "SPD_CAP",
    "SPD_RULES",
    "VARIANT_ALIASES",
    "BaseRules",
    "SpdRules",
    "VariantRules",
    "rules_for",
]
