"""A TimeLine character as stored in ``CharacterRecord.data["timeline"]``: sheet, resources,
buffs, resource modifiers and weapons, with the pure transitions the commands need.

All state is JSON-serialisable via :meth:`TLCharacter.to_dict` / :meth:`TLCharacter.from_dict`
(``schema_version`` 1).  Weapon weight is kept apart from the imported 负重 and added on top
(:func:`~.sheet.derive` ``extra_weight``), so re-importing a sheet never loses or doubles it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.plain import plain

from .armour import armour_weight, with_armour
from .attributes import ATTRIBUTE_KEYS
from .mayuri_order import insert_buff, insert_reduction, insert_weapon
from .modifiers import Buff, Reduction, apply_buffs
from .rounding import r1
from .sheet import Derived, Resources, Sheet, change_level, derive, new_resources, recompute_resources

SCHEMA_VERSION = 1
MAX_ROWS = 50
"""Most buffs, modifiers or weapons per character."""

WeaponType = Literal["amplifier", "artillery", "other"]


@dataclass(frozen=True)
class Weapon:
    """A ``.setupWP`` row.  ``load``/``current_load`` are None for non-artillery weapons."""

    name: str
    type: WeaponType
    attribute: str | None = None
    damage: float = 0.0
    cast: float = 0.0
    range: str = ""
    load: int | None = None
    current_load: int | None = None
    reload_time: float = 0.0
    weight: float = 0.0
    note: str = ""
    uid: int = 0
    """Stable id (list positions change when weapons are added or deleted)."""

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weapon:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class TLCharacter:
    """Everything TimeLine knows about one character."""

    sheet: Sheet
    resources: Resources
    buffs: tuple[Buff, ...] = ()
    reductions: tuple[Reduction, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    active_weapon: int | None = None
    """``uid`` of the selected weapon."""
    next_uid: int = 1
    schema_version: int = SCHEMA_VERSION
    extra: dict[str, Any] = field(default_factory=dict)

    # -------------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "sheet": self.sheet.to_dict(),
            "resources": self.resources.to_dict(),
            "buffs": [b.to_dict() for b in self.buffs],
            "reductions": [r.to_dict() for r in self.reductions],
            "weapons": [w.to_dict() for w in self.weapons],
            "active_weapon": self.active_weapon,
            "next_uid": self.next_uid,
            "extra": dict(self.extra),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TLCharacter:
        version = int(data.get("schema_version", 1))
        if version > SCHEMA_VERSION:
            raise IllegalAction("角色数据来自更新版本的骰娘，无法读取")
        return cls(
            sheet=Sheet.from_dict(data["sheet"]),
            resources=Resources.from_dict(data["resources"]),
            buffs=tuple(Buff.from_dict(b) for b in data.get("buffs", [])),
            reductions=tuple(Reduction.from_dict(r) for r in data.get("reductions", [])),
            weapons=tuple(Weapon.from_dict(w) for w in data.get("weapons", [])),
            active_weapon=data.get("active_weapon"),
            next_uid=int(data.get("next_uid", 1)),
            extra=dict(data.get("extra", {})),
        )

    # -------------------------------------------------------------- queries
    @property
    def name(self) -> str:
        return self.sheet.name

    @property
    def level(self) -> float:
        return self.sheet.level

    @property
    def weapon_weight(self) -> float:
        """负重 added to the sheet's: weapons and armour (:mod:`.armour`)."""
        return sum(w.weight for w in self.weapons) + armour_weight(self.extra)

    def derived(self) -> Derived:
        """§3.2's values; 总体力 includes the armour's extra 体力 (:mod:`.armour`)."""
        return with_armour(derive(self.sheet, self.weapon_weight), self.extra)

    def check(self, attribute: str, *, buffed: bool = True) -> float:
        """检定值 of an attribute key, with buffs (F17) unless ``buffed`` is False."""
        base = self.derived().checks[attribute]
        return apply_buffs(base, list(self.buffs), attribute) if buffed and self.buffs else base

    def weapon(self) -> Weapon:
        """The selected weapon (NotFound when none)."""
        for w in self.weapons:
            if w.uid == self.active_weapon:
                return w
        raise NotFound(f"{self.name}还没有武器×" if not self.weapons else f"{self.name}没有选择武器×")

    def attributes_for_dice(self) -> dict[str, float]:
        """Flat numbers for ``CharacterRecord.attributes`` (``.r 1d100+力量`` etc.)."""
        from .attributes import CN

        d = self.derived()
        out: dict[str, float] = {CN[k]: self.check(k) for k in ATTRIBUTE_KEYS}
        out.update(
            {"等级": self.level, "体力": self.resources.hp, "体力上限": d.hp_max, "意志上限": d.mp_max}
        )
        return out


# ---------------------------------------------------------------------- transitions
def import_sheet(sheet: Sheet, old: TLCharacter | None = None) -> TLCharacter:
    """``.TLsetup``: a new character, or a re-import keeping resources (clamped) and the rest."""
    if old is None:
        return TLCharacter(sheet=sheet, resources=new_resources(derive(sheet)))
    fresh = replace(old, sheet=sheet)
    return replace(fresh, resources=recompute_resources(old.resources, fresh.derived()))


def _recomputed(char: TLCharacter) -> TLCharacter:
    return replace(char, resources=recompute_resources(char.resources, char.derived()))


def set_level(char: TLCharacter, delta: float) -> tuple[TLCharacter, float]:
    """``.lv ±n`` (F20): new character and percent change."""
    sheet, pct = change_level(char.sheet, delta)
    return _recomputed(replace(char, sheet=sheet)), pct


def add_weapon(char: TLCharacter, fields_: dict[str, Any]) -> TLCharacter:
    """``.setupWP``: add (or replace a same-name weapon), select it, recompute weight."""
    if len(char.weapons) >= MAX_ROWS:
        raise IllegalAction(f"每个角色最多{MAX_ROWS}件武器")
    weapon = Weapon.from_dict({**fields_, "uid": char.next_uid})
    kept = tuple(w for w in char.weapons if w.name != weapon.name)
    weapons = tuple(insert_weapon(kept, weapon))  # numbered as MayuriBot's .wp (by name)
    return _recomputed(replace(char, weapons=weapons, active_weapon=weapon.uid, next_uid=char.next_uid + 1))


def select_weapon(char: TLCharacter, index: int) -> TLCharacter:
    """``.wp k`` (1-based; clamped to the list like MayuriBot's ``.chr k``)."""
    if not char.weapons:
        raise NotFound(f"{char.name}还没有武器×")
    k = min(max(index, 1), len(char.weapons))
    return replace(char, active_weapon=char.weapons[k - 1].uid)


def delete_weapon(char: TLCharacter, index: int) -> tuple[TLCharacter, Weapon]:
    """``.wp del k``: remove, subtract its weight, keep a valid selection."""
    if not char.weapons:
        raise NotFound(f"{char.name}还没有武器×")
    if not 1 <= index <= len(char.weapons):
        raise IllegalAction(f"序号错误× 应为1到{len(char.weapons)}")
    gone = char.weapons[index - 1]
    weapons = tuple(w for w in char.weapons if w.uid != gone.uid)
    active = char.active_weapon
    if active == gone.uid:
        active = weapons[0].uid if weapons else None
    return _recomputed(replace(char, weapons=weapons, active_weapon=active)), gone


def set_ammo(char: TLCharacter, uid: int, current: int) -> TLCharacter:
    weapons = tuple(replace(w, current_load=current) if w.uid == uid else w for w in char.weapons)
    return replace(char, weapons=weapons)


def add_buff(char: TLCharacter, buff: Buff, typed: str | None = None) -> TLCharacter:
    """``.buff``: the row added where MayuriBot's file would put it (``typed``: the value as typed
    when a plain number, see :func:`.mayuri_order.insert_buff`), so ``.buff del k`` means the
    same row in both bots."""
    if len(char.buffs) >= MAX_ROWS:
        raise IllegalAction(f"每个角色最多{MAX_ROWS}个属性修饰")
    return replace(char, buffs=tuple(insert_buff(char.buffs, buff, typed)))


def delete_buff(char: TLCharacter, index: int | None) -> TLCharacter:
    """``.buff del k`` (1-based) or ``del all`` (index None)."""
    if not char.buffs:
        raise NotFound(f"{char.name}还没有buff×")
    if index is None:
        return replace(char, buffs=())
    if not 1 <= index <= len(char.buffs):
        raise IllegalAction("序号错误×")
    return replace(char, buffs=tuple(b for i, b in enumerate(char.buffs, 1) if i != index))


def add_reduction(char: TLCharacter, row: Reduction) -> TLCharacter:
    """``.dr``: the row added where MayuriBot's file would put it (``.dr del k`` agrees)."""
    if len(char.reductions) >= MAX_ROWS:
        raise IllegalAction(f"每个角色最多{MAX_ROWS}个资源变化修饰")
    return replace(char, reductions=tuple(insert_reduction(char.reductions, row)))


def delete_reduction(char: TLCharacter, index: int | None) -> TLCharacter:
    if not char.reductions:
        raise NotFound(f"{char.name}没有资源变化修饰×")
    if index is None:
        return replace(char, reductions=())
    if not 1 <= index <= len(char.reductions):
        raise IllegalAction("序号错误×")
    return replace(char, reductions=tuple(r for i, r in enumerate(char.reductions, 1) if i != index))


def change_resource(
    char: TLCharacter, resource: Literal["hp", "mp", "cash"], delta: float
) -> tuple[TLCharacter, float, float]:
    """Apply an (already modified) change: r1, floored at 0; 体力/意志 gains capped at the maximum.

    Returns (character, old, new).  A value already above the maximum is never lowered by a gain.
    """
    res = char.resources
    old = getattr(res, resource)
    new = max(0.0, r1(old + delta))
    if resource != "cash" and delta > 0:
        full = getattr(res, resource + "_full")
        new = max(old, min(new, full))
    return replace(char, resources=replace(res, **{resource: new})), old, new


def reset_resources(char: TLCharacter) -> TLCharacter:
    """``.crd reset``: 体力 and 意志 back to full (cash untouched)."""
    res = char.resources
    return replace(char, resources=replace(res, hp=res.hp_full, mp=res.mp_full))


__all__ = [
    "SCHEMA_VERSION",
    "TLCharacter",
    "Weapon",
    "add_buff",
    "add_reduction",
    "add_weapon",
    "change_resource",
    "delete_buff",
    "delete_reduction",
    "delete_weapon",
    "import_sheet",
    "reset_resources",
    "select_weapon",
    "set_ammo",
    "set_level",
]
