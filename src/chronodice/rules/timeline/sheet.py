"""The TimeLine character sheet and its derived values (formulas F1–F8, F20).

Pure functions over plain dataclasses: :func:`derive` turns the 24 basic fields of a ``.TLsetup``
line into the 25 derived values MayuriBot stores (each r2, ``rules/timeline.md`` §3.2), and
:func:`recompute_resources` keeps current 体力/意志 while clamping them to new maxima.

Decisions where MayuriBot crashes or the rules are silent (§8 bug 2/3):

* the mental age revision is floored at 0.01 like the physical one (MayuriBot leaves it
  unfloored, so characters younger than ~0.158 × adult age got negative mental values);
* 总负重 = 0 (力量 0 %) gives 负重修正 1 when nothing is carried and 0.01 otherwise, instead of
  dividing by zero;
* cash (现金) is never clamped by a recompute: it is money, not a maximum.

>>> d = derive(Sheet.standard())
>>> d.checks["strength"], d.hp_max, d.max_load, d.mp_max, d.negotiation_bonus, d.cash
(175.0, 150.0, 175.0, 150.0, 75.0, 625.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any

from chronodice.core.plain import plain

from .attributes import ATTRIBUTE_KEYS, FIELDS, MENTAL_BASIC
from .rounding import r0, r1, r2

FLOOR = 0.01
"""MayuriBot's replacement for a revision factor that is ≤ 0."""


@dataclass(frozen=True)
class Sheet:
    """The basic fields of ``.TLsetup`` (§3.1); percentages as typed (30 = 30 %)."""

    name: str
    level: float
    ratio: float
    """物理思维比值, 1–999 (500 = half physical, half mental)."""
    constitution: float
    dexterity: float
    strength: float
    will: float
    education: float
    intelligence: float
    medicine: float
    engineering: float
    military: float
    literature: float
    arts: float
    appearance: float = 50.0
    wealth: float = 0.0
    adult_age: float = 0.0
    standard_size: float = 0.0
    age: float = 0.0
    size: float = 0.0
    weight: float = 0.0
    """负重: weight carried as imported (weapon weights are added on top, see :func:`carried`)."""
    race: str = ""
    gender: str = ""
    occupation: str = ""

    def percent(self, key: str) -> float:
        value: float = getattr(self, key)
        return value

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sheet:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    @classmethod
    def standard(cls, name: str = "甲", **changes: Any) -> Sheet:
        """The rule book's standard sheet: L10, ratio 500, 30/35/35, 30/35/35, fields 20 %."""
        base = cls(
            name=name,
            level=10,
            ratio=500,
            constitution=30,
            dexterity=35,
            strength=35,
            will=30,
            education=35,
            intelligence=35,
            medicine=20,
            engineering=20,
            military=20,
            literature=20,
            arts=20,
            appearance=50,
            wealth=50,
        )
        return replace(base, **changes)


@dataclass(frozen=True)
class Derived:
    """The derived values of §3.2, each r2 as MayuriBot stores them."""

    cash: float
    ability: float
    physical: float
    mental: float
    physical_age_rev: float
    mental_age_rev: float
    size_rev: float
    revised_physical: float
    revised_mental: float
    checks: dict[str, float] = field(default_factory=dict)
    """检定_X for the 11 attributes."""
    hp_max: float = 0.0
    max_load: float = 0.0
    carried: float = 0.0
    weight_rev: float = 1.0
    mp_max: float = 0.0
    negotiation_bonus: float = 0.0
    mp_exact: float | None = field(default=None, repr=False, compare=False)
    """检定_意志 unrounded: the resource file's 意志 maximum is r1 of this, not of ``mp_max``."""
    cash_exact: float | None = field(default=None, repr=False, compare=False)
    """±wealth⁴/10⁴ unrounded: the resource file's 现金 is r1 of this, not of ``cash``."""


def cash_exact(wealth: float) -> float:
    """F1 unrounded: ``wealth ** 4 / 10 ** 4``, negated when wealth < 0.

    >>> cash_exact(17), cash_exact(-10)
    (8.3521, -1.0)
    """
    value = wealth**4 / 10**4
    return -value if wealth < 0 else value


def cash_of(wealth: float) -> float:
    """F1: 现金 = wealth⁴/10⁴, negative when wealth < 0, r2 (the derived value; the resource
    file's 现金 is ``r1(cash_exact(wealth))``, rounded once — see :func:`new_resources`).

    >>> cash_of(50), cash_of(100), cash_of(-10)
    (625.0, 10000.0, -1.0)
    """
    return r2(cash_exact(wealth))


def age_revisions(age: float, adult_age: float) -> tuple[float, float]:
    """F3: (physical, mental) age revisions, unrounded; (1, 1) without an adult age.

    >>> [round(x, 4) for x in age_revisions(18, 18)], [round(x, 4) for x in age_revisions(40, 18)]
    ([1.0389, 0.8], [1.0437, 1.1468])
    >>> round(age_revisions(27, 18)[0], 4)
    1.12
    """
    if adult_age == 0:
        return 1.0, 1.0
    physical = math.cos(math.log(age / (1.5 * adult_age))) + 0.12
    mental = math.log10(age / adult_age) + 0.8
    return (physical if physical > 0 else FLOOR), (mental if mental > 0 else FLOOR)


def size_revision(size: float, standard_size: float) -> float:
    """F4: ln(size/standard) + 1, 1 without a standard size, floored at 0.01.

    >>> size_revision(60, 60), size_revision(10, 0), size_revision(1, 100)
    (1.0, 1.0, 0.01)
    """
    if standard_size == 0:
        return 1.0
    value = math.log(size / standard_size) + 1
    return value if value > 0 else FLOOR


def weight_revision(carried: float, max_load: float) -> float:
    """F5: 1 − (carried/总负重)², floored at 0.01 (总负重 0: 1 if nothing carried, else 0.01).

    >>> weight_revision(0, 175), weight_revision(87.5, 175), weight_revision(200, 175)
    (1.0, 0.75, 0.01)
    """
    if max_load <= 0:
        return 1.0 if carried <= 0 else FLOOR
    ratio = carried / max_load
    if abs(ratio) > 1:  # 1 − ratio² < 0, and ratio² may be past a float (a 总负重 of 1e-254)
        return FLOOR
    value = 1 - ratio**2
    return value if value > 0 else FLOOR


def negotiation_bonus(sheet: Sheet) -> float:
    """F8: (文学%+视觉%+智力%)·(1+log₁₀(mental/physical))·(1+ln(appearance/50)), r2.

    Uses the unrevised mental/physical and the raw percentages (buffs never apply).

    >>> negotiation_bonus(Sheet.standard())
    75.0
    """
    physical = sheet.level * (100 - sheet.ratio / 10)
    mental = sheet.ratio * sheet.level / 10
    pct = sheet.literature + sheet.arts + sheet.intelligence
    return r2(pct * (1 + math.log10(mental / physical)) * (1 + math.log(sheet.appearance / 50)))


def derive(sheet: Sheet, extra_weight: float = 0.0) -> Derived:
    """F1–F8: every derived value of §3.2; ``extra_weight`` is the weapons' weight.

    Floating-point forms (MayuriBot's operation order; the last digit depends on it):

    * ability ``100 * L``; physical ``ability - ratio * L / 10`` (i.e. ``100L − (ratio·L)/10``,
      not ``L * (100 - ratio / 10)``); mental ``ability - physical``;
    * each check ``revised * pct / 100 [* revision]``, stored r2.

    L 15.5, ratio 361, 文学 10 %: physical 990.45, mental 559.55 → 文学 55.95 (the other order
    gives 990.4499…, 559.5500…01 → 55.96).

    >>> d = derive(Sheet.standard(level=15.5, ratio=361, adult_age=0, literature=10))
    >>> d.physical, d.mental, d.checks["literature"]
    (990.45, 559.55, 55.95)
    """
    level = sheet.level
    ability = 100 * level
    physical = ability - sheet.ratio * level / 10
    mental = ability - physical
    phys_age, ment_age = age_revisions(sheet.age, sheet.adult_age)
    size_rev = size_revision(sheet.size, sheet.standard_size)
    rev_phys = physical * phys_age
    rev_ment = mental * ment_age
    constitution = rev_phys * sheet.constitution / 100 * size_rev
    strength = rev_phys * sheet.strength / 100 * size_rev
    max_load = strength * 10 / level
    carried = sheet.weight + extra_weight
    weight_rev = weight_revision(carried, max_load)
    dexterity = rev_phys * sheet.dexterity / 100 * weight_rev
    checks = {"constitution": constitution, "dexterity": dexterity, "strength": strength}
    for key in MENTAL_BASIC + FIELDS:
        checks[key] = rev_ment * sheet.percent(key) / 100
    return Derived(
        cash=cash_of(sheet.wealth),
        ability=r2(ability),
        physical=r2(physical),
        mental=r2(mental),
        physical_age_rev=r2(phys_age),
        mental_age_rev=r2(ment_age),
        size_rev=r2(size_rev),
        revised_physical=r2(rev_phys),
        revised_mental=r2(rev_ment),
        checks={k: r2(checks[k]) for k in ATTRIBUTE_KEYS},
        hp_max=r0(constitution),
        max_load=r2(max_load),
        carried=r2(carried),
        weight_rev=r2(weight_rev),
        mp_max=r2(checks["will"]),
        negotiation_bonus=negotiation_bonus(sheet),
        mp_exact=checks["will"],
        cash_exact=cash_exact(sheet.wealth),
    )


@dataclass(frozen=True)
class Resources:
    """体力, 意志 and 现金 with their maxima (§2 ``_crd.json``), each r1."""

    hp: float
    hp_full: float
    mp: float
    mp_full: float
    cash: float
    cash_origin: float

    def to_dict(self) -> dict[str, float]:
        return plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Resources:
        return cls(**{f.name: float(data[f.name]) for f in fields(cls)})


def new_resources(derived: Derived) -> Resources:
    """Fresh resources: current = maximum, each rounded once.

    Floating-point forms: 体力 ``r1(r0(检定_体质))``; 意志 ``r1(检定_意志)`` and 现金
    ``r1(±wealth ** 4 / 10 ** 4)`` on the unrounded value — not ``r1(r2(x))``, which double-rounds
    (资产 17: 8.3521 → 8.4, where r1(8.35) = 8.3; 资产 56: 983.4496 → 983.4, where
    r1(983.45) = 983.5).

    >>> r = new_resources(derive(Sheet.standard(wealth=17)))
    >>> r.cash, new_resources(derive(Sheet.standard(wealth=56))).cash
    (8.4, 983.4)
    """
    mp_raw = derived.mp_max if derived.mp_exact is None else derived.mp_exact
    cash_raw = derived.cash if derived.cash_exact is None else derived.cash_exact
    hp, mp, cash = r1(derived.hp_max), r1(mp_raw), r1(cash_raw)
    return Resources(hp=hp, hp_full=hp, mp=mp, mp_full=mp, cash=cash, cash_origin=cash)


def recompute_resources(old: Resources | None, derived: Derived) -> Resources:
    """Keep current values, clamp 体力/意志 down to the new maxima (never raised).

    现金 is kept as it is across ``.lv``, re-imports and weapon changes (MayuriBot resets it to
    the wealth's cash; the rule book treats it as money, not a maximum); ``cash_origin`` follows
    the sheet.

    >>> old = Resources(hp=120.0, hp_full=150.0, mp=150.0, mp_full=150.0, cash=10.0, cash_origin=625.0)
    >>> recompute_resources(old, derive(Sheet.standard(level=5)))
    Resources(hp=75.0, hp_full=75.0, mp=75.0, mp_full=75.0, cash=10.0, cash_origin=625.0)
    """
    fresh = new_resources(derived)
    if old is None:
        return fresh
    return replace(
        fresh,
        hp=min(old.hp, fresh.hp_full),
        mp=min(old.mp, fresh.mp_full),
        cash=float(old.cash),
    )


def change_level(sheet: Sheet, delta: float) -> tuple[Sheet, float]:
    """F20 input: level ± delta floored at 1; returns the new sheet and the percent change.

    The percent is r0(new/old·100) − 100, as ``.lv`` prints it.

    >>> s, pct = change_level(Sheet.standard(), 5)
    >>> s.level, pct
    (15, 50.0)
    >>> change_level(Sheet.standard(), -20)[0].level, change_level(Sheet.standard(), -20)[1]
    (1, -90.0)
    """
    new_level = max(1, sheet.level + delta)
    return replace(sheet, level=new_level), r0(new_level / sheet.level * 100) - 100


__all__ = [
    "Derived",
    "Resources",
    "Sheet",
    "age_revisions",
    "cash_exact",
    "cash_of",
    "change_level",
    "derive",
    "negotiation_bonus",
    "new_resources",
    "recompute_resources",
    "size_revision",
    "weight_revision",
]
