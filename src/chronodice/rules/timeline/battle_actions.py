"""Declaring actions: by attribute (F13/F14), with an amplifier (F15) or artillery (F16)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from chronodice.core.errors import IllegalAction

from .battle import record_action, replace_participant
from .battle_state import Action, BattleState, Event, ParticipantRef
from .character import Weapon
from .checks import amplified, artillery, impact_for, windup
from .rounding import r1, r2


def _amount(value: float, impact: float | None, time: float | None) -> tuple[float, float]:
    """(windup, unamplified impact) from ``.bat 属性 I`` (F13) or ``.bat 属性 Tt`` (F14)."""
    if impact is not None and time is None:
        return windup(impact, value), impact
    if time is not None and impact is None:
        return r2(time), impact_for(time, value)
    raise IllegalAction("请给出影响数值或前摇时间（如 150 或 10t）")


def attribute_action(
    state: BattleState,
    ref: ParticipantRef,
    attribute: str,
    value: float,
    *,
    impact: float | None = None,
    time: float | None = None,
    note: str = "",
    target: str | None = None,
) -> tuple[BattleState, Action, list[Event]]:
    """``.bat 属性 I`` (F13) or ``.bat 属性 Tt`` (F14); MayuriBot stores impact r1."""
    t, i = _amount(value, impact, time)
    return record_action(state, ref, windup=t, impact=r1(i), attribute=attribute, note=note, target=target)


def amplifier_action(
    state: BattleState,
    ref: ParticipantRef,
    weapon: Weapon,
    value: float,
    *,
    impact: float | None = None,
    time: float | None = None,
    note: str = "",
    target: str | None = None,
) -> tuple[BattleState, Action, list[Event]]:
    """F15: windup of the unamplified impact, recorded impact r1(I·(1 + damage/100))."""
    if weapon.attribute is None:
        raise IllegalAction(f"武器[{weapon.name}]没有增幅属性")
    t, base = _amount(value, impact, time)
    snap = {"name": weapon.name, "type": weapon.type, "note": weapon.note, "uid": weapon.uid, "base": base}
    return record_action(
        state,
        ref,
        windup=t,
        impact=amplified(base, weapon.damage),
        attribute=weapon.attribute,
        note=note,
        weapon=snap,
        target=target,
    )


def ammo_left(state: BattleState, key: str, weapon: Weapon) -> int:
    """Rounds left in the battle (the character's stored count until first used here)."""
    p = state.participant(key)
    if p is not None and str(weapon.uid) in p.ammo:
        return p.ammo[str(weapon.uid)]
    return int(weapon.current_load if weapon.current_load is not None else weapon.load or 0)


def artillery_action(
    state: BattleState,
    ref: ParticipantRef,
    weapon: Weapon,
    shots: int | None,
    *,
    note: str = "",
    target: str | None = None,
) -> tuple[BattleState, Action, list[Event]]:
    """F16: fire ``shots`` (impact damage·n, windup cast·n) or reload (``shots`` None)."""
    load = int(weapon.load or 0)
    before = ammo_left(state, ref.key, weapon)
    snap: dict[str, Any] = {"name": weapon.name, "type": weapon.type, "note": weapon.note, "uid": weapon.uid}
    if shots is None:
        if before >= load:
            raise IllegalAction(f"武器弹药已满× 当前弹药: {before}/{load}")
        after, impact, t, kind = load, 0.0, r2(weapon.reload_time), "reload"
    else:
        if shots < 1:
            raise IllegalAction("发射弹药数至少为1")
        if shots > before:
            raise IllegalAction(f"没有足够的弹药× 当前弹药: {before}/{load}")
        impact, t = artillery(weapon.damage, weapon.cast, shots)
        after, kind = before - shots, "act"
    snap.update({"before": before, "after": after, "load": load, "shots": shots or 0})
    state, action, events = record_action(
        state,
        ref,
        windup=t,
        impact=impact,
        note=note,
        kind=kind,  # type: ignore[arg-type]
        weapon=snap,
        target=None if kind == "reload" else target,
    )
    p = state.participant(ref.key)
    assert p is not None
    state = replace_participant(state, replace(p, ammo={**p.ammo, str(weapon.uid): after}))
    return state, action, events
