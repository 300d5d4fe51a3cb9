"""Setup and joining: a new combat, looking combatants up, adding combatants (``.ri``/``.init add``)."""

from __future__ import annotations

from typing import Any

from chronodice.core.errors import AmbiguousInput, IllegalAction, InputSyntaxError, LimitExceeded, NotFound

from ..model import Combat, Combatant, Health, InitRoll, Options, Phase, Variant
from ._base import MAX_COMBATANTS, MAX_NAME
from .loop import Engine, require_phase, transition


def new_combat(owner: str | None = None, *, variant: Variant = Variant.BASE, **options: Any) -> Combat:
    """A combat in SETUP (``.init begin``)."""
    opts = Options(variant=variant, **options)
    if opts.settle and variant is Variant.SPD:
        raise IllegalAction("沉淀先攻只适用于基础规则（两颗骰没有中值10）")
    if not 1 <= opts.ap_max <= 20 or not -opts.ap_max <= opts.ap_start <= opts.ap_max:
        raise InputSyntaxError("AP上限应在1~20之间，初始AP不超过上限")
    gms = [owner] if owner else []
    return Combat(options=opts, owner=owner, gms=gms)


def find(st: Combat, query: str, *, hidden: bool = True) -> Combatant:
    """Exact name or id, else a unique substring (tick20.md §4.1).  ``hidden=False`` (someone
    who is not a GM asks): hidden combatants are not there, so the answer for one is the same as
    for a name nobody has, and no list of candidates names one."""
    q = query.strip()
    if not q:
        raise InputSyntaxError("请写出参战者名称")
    seen = st.combatants if hidden else [c for c in st.combatants if not c.hidden]
    for c in seen:
        if c.name == q or c.id == q:
            return c
    low = q.lower()
    hits = [c for c in seen if low in c.name.lower()]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousInput("可能是：" + "/".join(c.shown for c in hits[:6]))
    raise NotFound(f"没有找到参战者「{q}」")


@transition
def add_combatant(
    eng: Engine,
    name: str,
    *,
    value: int | None = None,
    roll: InitRoll | None = None,
    init_mod: int | None = None,
    controller: str | None = None,
    side: str | None = None,
    lv: int = 0,
    hidden: bool = False,
    ap_max: int | None = None,
    spd_base: int = 0,
    speed: int = 0,
    surprised: bool = False,
    health: Health | None = None,
    card: str = "",
    dr: int = 0,
) -> None:
    """Join with a rolled (``roll``) or given (``value``) initiative; ``card``/``dr``: the NPC
    card she comes from and her DR (see :class:`~..model.Combatant`)."""
    st = eng.st
    require_phase(st, Phase.SETUP, Phase.ACTIVE)
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise InputSyntaxError(f"名称应为1~{MAX_NAME}个字")
    if any(c.name == name for c in st.combatants):
        raise IllegalAction(f"已经有叫「{name}」的参战者")
    if len(st.combatants) >= MAX_COMBATANTS:
        raise LimitExceeded(f"参战者最多{MAX_COMBATANTS}名")
    if roll is None and value is None:
        raise InputSyntaxError("需要先攻值或先攻检定")
    total = roll.total if roll is not None else int(value or 0)
    if not -999 <= total <= 999:
        raise InputSyntaxError("先攻值应在−999~999之间")
    if init_mod is None:
        init_mod = total - roll.die if roll is not None and roll.die is not None else 0
    cap = ap_max if ap_max is not None else st.options.ap_max
    c = Combatant(
        id=f"c{st.next_cid}",
        name=name,
        controller=controller,
        side=side or ("我方" if controller else "敌方"),
        lv=lv,
        join_seq=st.next_join,
        roll=roll,
        init_mod=init_mod,
        spd_base=spd_base,
        speed=speed,
        hidden=hidden,
        surprised=surprised and st.phase is Phase.SETUP,
        ap_max=cap,
        ap=min(st.options.ap_start, cap),
        health=health or Health(),
        card=card,
        dr=dr,
    )
    st.next_cid += 1
    st.next_join += 1
    st.combatants.append(c)
    how = eng.place(c, total)
    if eng.active:
        st.round_order.append(c.id)
    eng.emit("join", cid=c.id, name=c.name, value=total, placed=how, hidden=hidden)
