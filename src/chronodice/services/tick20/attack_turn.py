"""``.atk`` as an action of the attacker's turn (issue 39): its AP, its refusals before any die,
and ``结束`` — what one attack writes to the combat, in one transaction (:class:`Strike`).

Seed 002 行动值/主要动作: an attack is a 主要动作, "只能在角色自己的回合内使用", and "如果角色的AP为
0或更低，则她不能使用任何需要消耗AP的动作"; its cost is
:data:`~chronodice.rules.tick20.engine.ATTACK_AP` unless written.  An attack outside the
attacker's turns (a reaction, one an effect grants) is written ``ap0``: no AP, no turn needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chronodice.core.errors import ChronoDiceError, IllegalAction
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import Combat, Combatant, Event, Phase

from ._glue import need

if TYPE_CHECKING:
    from .attack import Plan


def may_attack(state: Combat, a: Combatant, plan: Plan) -> None:
    """Refuse, before any die, an attack the AP rules do not allow now: another's turn, AP ≤ 0,
    AP that would fall below its floor (:func:`~chronodice.rules.tick20.engine.attack_ap` on a
    copy), or ``结束`` outside her own turn.  ``ap0`` (a reaction, an attack an effect grants)
    spends nothing and needs no turn of hers."""
    mine = state.phase is Phase.ACTIVE and not state.waiting and state.current == a.id
    if plan.end and not mine:
        raise IllegalAction(f"「结束」结束的是攻击者自己的回合，现在不是 {a.shown} 的回合")
    if plan.ap == 0:
        return
    if state.phase is Phase.ACTIVE and state.current is not None and not mine:
        now = "GM处理中" if R.hidden_turn(state) else f"现在是 {R.name_of(state, state.current)} 的回合"
        raise IllegalAction(f"{now}：{a.shown} 的攻击要等自己的回合（回合外的攻击写 ap0）")
    E.attack_ap(state, a.id, plan.ap)  # a copy: only its refusal matters here


def not_made(err: ChronoDiceError, prepaid: int | None) -> ChronoDiceError:
    """``err`` saying what it means for the attack (issue 39): none was made, no AP was spent —
    and AP paid for it before (``.ap -2 攻击``) is still there for the next ``.atk``."""
    kept = f"（先前为攻击付的{prepaid}AP还在，下一次 .atk 直接用上）" if prepaid else ""
    err.message = f"{err.message}；攻击没有进行，没有花AP{kept}"
    return err


@dataclass
class Strike:
    """What one ``.atk`` writes, in one transaction: the attack's AP (unless ``ap0``), the damage
    on a hit, and with ``结束`` the end of the turn.  The dice of the engine's own checks (a
    精神伤害's 力竭 check, 濒死检定 at a round start) are rolled before it; what each step did is
    kept for the reply (reset on a retried transaction)."""

    attacker: str
    target: str
    plan: Plan
    damage: dict[str, Any]
    hit: bool
    seen: int
    by: str
    now: float
    """Who sent it and when: a ``结束`` is an advance, which ``.init next`` reads to tell a second
    press of someone else's from a new one (C02)."""
    mind: list[int]
    turn: list[int]
    ap: list[Event] = field(default_factory=list)
    wound: list[Event] = field(default_factory=list)
    turn_events: list[Event] = field(default_factory=list)
    refused: str = ""

    def run(self, stored: Combat | None) -> E.Outcome:
        st = need(stored)
        self.ap, self.wound, self.turn_events, self.refused = [], [], [], ""
        if st.get(self.attacker).hidden and not st.get(self.target).hidden:
            st, _ = E.edit(st, self.attacker, hidden=False)  # it acts on someone: it is seen (issue 39)
        if self.plan.ap:
            st, self.ap = E.attack_ap(st, self.attacker, self.plan.ap)
        if self.hit:
            try:  # a <欠损> part, no SP: the check stands, the damage has nowhere to go
                st, self.wound = E.wound(st, self.target, self.plan.part, dice=self.mind, **self.damage)
            except IllegalAction as err:
                self.refused = err.message
        if self.plan.end:
            st, self.turn_events = E.end_turn(st, expected_turn=self.seen, dice=self.turn)
            st.advanced_at, st.advanced_by = self.now, self.by
        return E.Outcome(st, [*self.ap, *self.wound, *self.turn_events])


__all__ = ["Strike", "may_attack", "not_made"]
