"""Transitions for the last 002 rules (issue 26): attribute loss to 0 and 【全力移动】 at 速度 0.

See :mod:`..persona` for the seed lines.  The engine keeps what a combat needs: a combatant's
attribute losses (her card stays as the player wrote it) and the states an attribute at 0 puts
her in — <昏迷> (a coma reason ``力量0``, so a 濒死/力竭 coma and this one end apart), <解体>
(体质 0: she takes no more turns), 「无认知」 (智慧 0).
"""

from __future__ import annotations

from chronodice.core.errors import IllegalAction, InputSyntaxError

from .. import persona as P
from ..model import Phase
from .loop import Engine, require_phase, transition


@transition
def lose_attribute(eng: Engine, cid: str, name: str, loss: int, value: int) -> None:
    """Set ``name``'s loss to ``loss`` (0 restores it); ``value``: what the attribute is now (the
    card's value less the loss, at least 0).  An attribute reaching 0 applies 002 属性's states;
    one leaving 0 wakes her from the coma it caused (<解体> stays: "立即<解体>")."""
    c = eng.st.get(cid)
    if name not in P.ZERO_EFFECTS:
        raise InputSyntaxError(f"「{name}」不是属性（{'/'.join(P.ZERO_EFFECTS)}）")
    if not 0 <= loss <= 999:
        raise InputSyntaxError("损失应在0~999之间")
    h = c.health
    if loss:
        h.attr_loss[name] = loss
    else:
        h.attr_loss.pop(name, None)
    reason = f"{name}0"
    effects = P.ZERO_EFFECTS[name]
    eng.emit("attr", cid=c.id, name=name, loss=loss, value=value)
    if value <= 0 and name not in h.zeroed:
        h.zeroed.append(name)
        if "昏迷" in effects and reason not in h.coma:
            h.coma.append(reason)
            eng.emit("attr_coma", cid=c.id, name=name)
        if "解体" in effects and not h.dissolved:
            h.dissolved = True
            eng.emit("dissolved", cid=c.id)
            if eng.st.current == c.id and eng.st.phase is Phase.ACTIVE:
                eng.end_turn("skip")
        if "无认知" in effects:
            eng.emit("no_cognition", cid=c.id)
    elif value > 0 and name in h.zeroed:
        h.zeroed.remove(name)
        if reason in h.coma:
            h.coma.remove(reason)
            if not h.coma:
                eng.emit("woke", cid=c.id)


@transition
def full_move(eng: Engine, cid: str, cost: int = 1) -> None:
    """002 速度: "即便速度为0，只要没有遭受会导致「无法移动」的效果，角色依然可以通过【全力移动】
    动作移动1格，不过这一移动只能进入消耗的Mov不超过1点的区域"."""
    st = eng.st
    if not eng.rules.has_ap:
        raise IllegalAction("Mov 只用于基础规则（002）")
    require_phase(st, Phase.ACTIVE)
    c = st.get(cid)
    if not 0 <= cost <= 99:
        raise InputSyntaxError("移动消耗应在0~99之间")
    P.full_move(c.speed, cost, eng.bound(c))
    if st.current == c.id:
        c.busy = True
    eng.emit("full_move", cid=c.id, cost=cost)


__all__ = ["full_move", "lose_attribute"]
