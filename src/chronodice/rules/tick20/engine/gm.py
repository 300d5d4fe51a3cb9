"""GM operations: re-place (``.init set``), remove, surprise, tie order (first/swap), edit a combatant,
combat options, co-GMs."""

from __future__ import annotations

from typing import Any

from chronodice.core.errors import IllegalAction, InputSyntaxError

from ..model import Combatant, Options, Phase, Variant
from ._base import MAX_NAME
from .loop import Engine, require_phase, transition


@transition
def place(eng: Engine, cid: str, value: int) -> None:
    """``.init set``: re-place a combatant (PLACE)."""
    st = eng.st
    require_phase(st, Phase.SETUP, Phase.ACTIVE)
    c = st.get(cid)
    if st.current == c.id:
        raise IllegalAction(f"{c.shown} 正在回合中：先结束回合或使用 .延后")
    if not -999 <= value <= 999:
        raise InputSyntaxError("先攻值应在−999~999之间")
    value_with_mods = value
    how = eng.place(c, value_with_mods)
    eng.emit("placed", cid=c.id, value=value, placed=how)


@transition
def remove(eng: Engine, cid: str, *, force: bool = False) -> None:
    """REMOVE (GM); the current actor needs ``force`` (no cost step)."""
    st = eng.st
    require_phase(st, Phase.SETUP, Phase.ACTIVE)
    c = st.get(cid)
    was_current = st.current == c.id
    if was_current and not force:
        raise IllegalAction(f"{c.shown} 正在回合中：加 -force 强制移除")
    for e in [e for e in st.effects if e.bearer == c.id]:
        eng.drop_effect(e.id, "removed")
    for e in st.effects:
        if e.duration.anchor == c.id:
            e.duration.anchor = None
    st.combatants = [x for x in st.combatants if x.id != c.id]
    st.queue = [q for q in st.queue if q != c.id]
    st.round_order = [q for q in st.round_order if q != c.id]
    eng.emit("removed", cid=c.id, name=c.name)
    if was_current:
        st.current = None
        eng.after_turn()


@transition
def surprise(eng: Engine, cids: list[str], on: bool = True) -> None:
    """Mark combatants surprised (SETUP only): −20 at the start of round 1."""
    st = eng.st
    require_phase(st, Phase.SETUP)
    for cid in cids:
        st.get(cid).surprised = on
    eng.emit("surprise", cids=cids, on=on)


def _tie_group(eng: Engine, c: Combatant) -> list[Combatant]:
    key = eng.base_key(c)
    pos = eng.rules.tick_position(c)
    group = [x for x in eng.st.combatants if eng.base_key(x) == key and eng.rules.tick_position(x) == pos]
    return eng.sort_within_tick(group)


def _rerank(eng: Engine, order: list[Combatant]) -> None:
    before = [c.id for c in eng.sort_within_tick(order)]
    for i, c in enumerate(order):
        c.manual_rank = len(order) - i
    after = [c.id for c in eng.sort_within_tick(order)]
    if before == after and [c.id for c in order] != after:
        raise IllegalAction("敌对双方同值时由规则决定顺序（GM扮演者优先），无法调整")


@transition
def first(eng: Engine, cid: str) -> None:
    """``.init first``: put a combatant first among those tied with her."""
    c = eng.st.get(cid)
    group = _tie_group(eng, c)
    if len(group) < 2:
        raise IllegalAction(f"{c.shown} 没有与之先攻完全相同的参战者")
    order = [c] + [x for x in group if x.id != c.id]
    _rerank(eng, order)
    eng.emit("reordered", order=[x.id for x in eng.sort_within_tick(order)])


@transition
def swap(eng: Engine, a: str, b: str) -> None:
    """``.init swap``: exchange two tied combatants."""
    ca, cb = eng.st.get(a), eng.st.get(b)
    group = _tie_group(eng, ca)
    if cb not in group or ca.id == cb.id:
        raise IllegalAction(f"{ca.shown} 和 {cb.shown} 的先攻并不相同，无法交换")
    order = list(group)
    i, j = order.index(ca), order.index(cb)
    order[i], order[j] = order[j], order[i]
    _rerank(eng, order)
    eng.emit("reordered", order=[x.id for x in eng.sort_within_tick(order)])


@transition
def edit(eng: Engine, cid: str, **fields: Any) -> None:
    """``.init opt``: lv, side, controller, init_mod, ap_max, spd_base, speed, hidden, name."""
    st = eng.st
    c = st.get(cid)
    allowed = {
        "lv",
        "side",
        "controller",
        "init_mod",
        "ap_max",
        "spd_base",
        "speed",
        "hidden",
        "name",
        "note",
    }
    for key, val in fields.items():
        if key not in allowed:
            raise InputSyntaxError(f"不能修改「{key}」")
        if key == "name":
            val = str(val).strip()
            if not val or len(val) > MAX_NAME or any(x.name == val and x.id != c.id for x in st.combatants):
                raise IllegalAction(f"名称「{val}」不可用")
        if key == "ap_max" and not 1 <= int(val) <= 20:
            raise InputSyntaxError("AP上限应在1~20之间")
        if key == "speed" and not 0 <= int(val) <= 99:
            raise InputSyntaxError("速度应在0~99之间（002：速度最低只能被降至0）")
        setattr(c, key, val)
    if "ap_max" in fields:
        c.ap = min(c.ap, c.ap_max)
    eng.emit("edited", cid=c.id, fields=sorted(fields))


@transition
def set_options(eng: Engine, **changes: Any) -> None:
    """``.init meta``: combat switches."""
    st = eng.st
    data = st.options.model_dump()
    data.update(changes)
    opts = Options.model_validate(data)
    if opts.variant is not st.options.variant:
        raise IllegalAction("开战后不能更换规则变体")
    if opts.settle and opts.variant is Variant.SPD:
        raise IllegalAction("沉淀先攻只适用于基础规则（两颗骰没有中值10）")
    st.options = opts
    eng.emit("options", changes=sorted(changes))


@transition
def set_defeated(eng: Engine, cid: str, on: bool = True) -> None:
    """Mark (or unmark) a combatant defeated (issue 26): she keeps her place in the list, marked,
    and takes no more turns; the current actor's turn ends at once."""
    st = eng.st
    require_phase(st, Phase.SETUP, Phase.ACTIVE)
    c = st.get(cid)
    if c.defeated == on:
        raise IllegalAction(f"{c.shown} {'已经' if on else '没有'}被标记为击败")
    c.defeated = on
    eng.emit("defeated", cid=c.id, on=on)
    if on:
        st.queue = [q for q in st.queue if q != c.id]
        if st.current == c.id:
            eng.end_turn("skip")
    elif st.phase is Phase.ACTIVE and st.current is None and not st.waiting:
        eng.after_turn()


@transition
def add_gm(eng: Engine, user_id: str) -> None:
    if user_id not in eng.st.gms:
        eng.st.gms.append(user_id)
    eng.emit("gm_added", user=user_id)
