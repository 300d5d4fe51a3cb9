"""Health: 002 wounds and SP, 004 Hit/Mind Gauges, 优势点 and MP (arithmetic in :mod:`..health`)."""

from __future__ import annotations

from chronodice.core.errors import IllegalAction, InputSyntaxError

from .. import health as hp
from ..model import Variant
from .loop import Engine, transition


def _require_base(eng: Engine, what: str) -> None:
    if eng.st.variant is not Variant.BASE:
        raise IllegalAction(f"{what}只用于基础规则（002）；速度规则用 .hp")


@transition
def wound(
    eng: Engine,
    cid: str,
    part: str,
    *,
    level: int | None = None,
    count: int = 1,
    hit: int | None = None,
    dp: int | None = None,
    dr: int = 0,
    direct: bool = False,
    tags: list[str] | None = None,
) -> None:
    """Inflict wounds: ``level``×``count`` directly, or a damage of Hit/DP against DR."""
    _require_base(eng, "伤势")
    c = eng.st.get(cid)
    if hit is not None:
        level, count = hp.wound_count(dp if dp is not None else 1, dr, hit, direct=direct)
    if level is None:
        raise InputSyntaxError("需要伤势等级或 Hit")
    hp.find_part(c.health, part)
    report = hp.apply_wounds(c.health, part, level, count, tags)
    if report.added or report.replaced or report.worsened:
        c.health.parts = list(c.health.parts)
    eng.emit(
        "wound",
        cid=c.id,
        part=report.part,
        level=level,
        added=report.added,
        replaced=report.replaced,
        worsened=report.worsened,
        status=report.status_after,
    )
    if report.dismembered:
        eng.emit("dismembered", cid=c.id, part=report.part)


@transition
def heal_wound(eng: Engine, cid: str, part: str, levels: int = 1, count: int = 1) -> None:
    _require_base(eng, "伤势")
    c = eng.st.get(cid)
    if not 1 <= levels <= 3 or not 1 <= count <= 4:
        raise InputSyntaxError("治疗：等级1~3，数量1~4")
    n = hp.heal_wounds(c.health, part, levels, count)
    eng.emit("healed", cid=c.id, part=part, count=n)


@transition
def set_sp(
    eng: Engine, cid: str, *, value: int | None = None, delta: int | None = None, maximum: int | None = None
) -> None:
    """SP (精力值): set, shift, or give a maximum; kept within [−max, max]."""
    _require_base(eng, "SP")
    c = eng.st.get(cid)
    h = c.health
    if maximum is not None:
        if not 2 <= maximum <= 99:
            raise InputSyntaxError("SP上限应在2~99之间")
        h.sp_max = maximum
        if h.sp is None:
            h.sp = maximum
    if h.sp_max is None:
        raise IllegalAction(f"{c.name} 还没有SP上限（.hp {c.name} sp上限 N）")
    new = value if value is not None else (h.sp or 0) + (delta or 0)
    h.sp = max(-h.sp_max, min(h.sp_max, new))
    eng.emit("sp", cid=c.id, sp=h.sp, sp_max=h.sp_max, dead=h.sp <= -h.sp_max)


@transition
def set_gauges(
    eng: Engine, cid: str, *, hg: int | None = None, mg: int | None = None, crisis: int | None = None
) -> None:
    """SPD: give a combatant ``hg`` Hit Gauges / ``mg`` Mind Gauges of 5 (die sizes)."""
    c = eng.st.get(cid)
    if hg is not None:
        c.health.hg = hp.make_gauges(hg)
    if mg is not None:
        c.health.mg = hp.make_gauges(mg)
        c.health.mp_debt = 0
    if crisis is not None:
        c.health.crisis = crisis
    eng.emit("gauges", cid=c.id, hg=len(c.health.hg), mg=len(c.health.mg))


@transition
def hit_gauges(
    eng: Engine, cid: str, amount: int, *, attacker: str | None = None, heal: bool = False
) -> None:
    """SPD damage (left to right) or healing (right to left); breaking an enemy gauge gives
    the attacker's side one 优势点, once per attacker per turn."""
    st = eng.st
    c = st.get(cid)
    if not c.health.hg:
        raise IllegalAction(f"{c.name} 没有生命量谱（.hp {c.name} hg 10 设置）")
    if not 0 <= amount <= 9999:
        raise InputSyntaxError("数值应在0~9999之间")
    if heal:
        restored = hp.heal_gauges(c.health.hg, amount)
        eng.emit("hg_heal", cid=c.id, amount=restored)
        return
    crisis_before = hp.in_crisis(c.health)
    broken = hp.damage_gauges(c.health.hg, amount)
    eng.emit("hg_damage", cid=c.id, amount=amount, broken=broken)
    if broken and attacker is not None:
        a = st.get(attacker)
        if a.side != c.side and a.adv_turn != st.turn_no:
            a.adv_turn = st.turn_no
            st.advantage[a.side] = st.advantage.get(a.side, 0) + 1
            eng.emit("advantage", side=a.side, cid=a.id, total=st.advantage[a.side])
    if hp.in_crisis(c.health) and not crisis_before:
        eng.emit("crisis", cid=c.id)


@transition
def spend_mp(eng: Engine, cid: str, amount: int) -> None:
    c = eng.st.get(cid)
    debt = hp.spend_mp(c.health, amount)
    eng.emit("mp_spend", cid=c.id, amount=amount, debt=debt)
