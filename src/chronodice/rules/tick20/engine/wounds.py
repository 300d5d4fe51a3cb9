"""Health: 002 wounds and SP, 004 Hit/Mind Gauges, 优势点 and MP (arithmetic in :mod:`..health`)."""

from __future__ import annotations

from chronodice.core.errors import IllegalAction, InputSyntaxError

from .. import damage as dmg
from .. import health as hp
from .. import mental
from ..model import Combatant, Gauge, Phase, Variant
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
    """Inflict wounds: ``level``×``count`` directly, or a damage of Hit/DP against DR, with the
    damage tags of :mod:`..damage` (贯通, 切断, 处决, 爆发, 故障, types against 抗性/易伤).  A
    精神伤害 (``屈服``…) makes no wound and takes SP instead (:func:`mind_damage`)."""
    _require_base(eng, "伤势")
    c = eng.st.get(cid)
    h = c.health
    hp.find_part(h, part)
    if mental.is_mental(tags or ()):
        if hit is None:
            raise InputSyntaxError("精神伤害不造成伤势，写成 hitN dpN drN 加类型（扣 DP−DR 点SP）")
        mind_damage(eng, c, dmg.Damage(hit, dp if dp is not None else 1, dr, direct, tuple(tags or ())))
        return
    was_out = h.dissolved
    if hit is not None:
        d = dmg.Damage(hit, dp if dp is not None else 1, dr, direct, tuple(tags or ()))
    elif level is not None:
        d = dmg.Damage(level, count, 0, True, tuple(tags or ()))
    else:
        raise InputSyntaxError("需要伤势等级或 Hit")
    rep = dmg.apply_damage(h, part, d)
    for r in (rep, rep.blast):
        if r is None:
            continue
        w = r.report
        eng.emit(
            "wound",
            cid=c.id,
            part=r.part,
            level=r.level,
            count=r.count,
            added=w.added if w else 0,
            replaced=w.replaced if w else 0,
            worsened=w.worsened if w else 0,
            absorbed=r.absorbed,
            status=hp.part_status(hp.find_part(h, r.part)),
            notes=list(r.notes),
        )
        if w is not None and w.dismembered:
            eng.emit("dismembered", cid=c.id, part=r.part)
    if h.dissolved and not was_out:
        eng.emit("dissolved", cid=c.id)


def mind_damage(eng: Engine, c: Combatant, d: dmg.Damage) -> None:
    """002 精神伤害: "只会扣除受到伤害的角色的SP" — ``DP − DR`` of it (:func:`..mental.mental_loss`),
    through :func:`change_sp`: <疲惫>/<力竭>, the 力竭 check while she is <力竭>, death at −max.
    One ``mind`` event (what the damage was and the SP it took), then the ``sp`` event."""
    h = c.health
    if h.sp_max is None:
        who = c.name if not c.hidden else "<名称>"
        raise IllegalAction(f"{c.shown} 还没有SP上限，精神伤害无处可扣：先 .hp {who} sp上限 N")
    loss, notes = mental.mental_loss(d)
    before = h.sp if h.sp is not None else h.sp_max
    types = [t for t in d.tags if mental.is_mental([t])]
    eng.emit("mind", cid=c.id, types=types, dp=d.dp, dr=d.dr, loss=loss, before=before, notes=notes)
    change_sp(eng, c, before - loss)


@transition
def heal_wound(eng: Engine, cid: str, part: str, levels: int = 1, count: int = 1) -> None:
    _require_base(eng, "伤势")
    c = eng.st.get(cid)
    if not 1 <= levels <= 3 or not 1 <= count <= 4:
        raise InputSyntaxError("治疗：等级1~3，数量1~4")
    n = hp.heal_wounds(c.health, part, levels, count)
    eng.emit("healed", cid=c.id, part=part, count=n)
    if dmg.wake_from_dying(c.health):
        eng.emit("woke", cid=c.id)


@transition
def set_temp(eng: Engine, cid: str, part: str, amount: int) -> None:
    """临时生命 of a part (replaces the old one; its wounds move onto the part)."""
    _require_base(eng, "临时生命")
    c = eng.st.get(cid)
    was_out = c.health.dissolved
    moved = dmg.set_temp(c.health, part, amount)
    eng.emit("temp", cid=c.id, part=hp.find_part(c.health, part).name, amount=amount, moved=len(moved))
    if c.health.dissolved and not was_out:
        eng.emit("dissolved", cid=c.id)


@transition
def set_traits(
    eng: Engine,
    cid: str,
    *,
    minion: bool | None = None,
    resist: tuple[str, int] | None = None,
    vuln: tuple[str, int] | None = None,
    fort: int | None = None,
) -> None:
    """`杂兵`, 抗性/易伤 by damage type (0 removes), and the 强韧防御 modifier."""
    c = eng.st.get(cid)
    h = c.health
    if minion is not None:
        h.minion = minion
    for table, item in ((h.resist, resist), (h.vuln, vuln)):
        if item is None:
            continue
        kind, n = item
        if kind not in dmg.DAMAGE_TYPES:
            raise InputSyntaxError(f"伤害类型只能是{'/'.join(dmg.DAMAGE_TYPES)}")
        if not 0 <= n <= 20:
            raise InputSyntaxError("抗性/易伤应在0~20之间")
        if n:
            table[kind] = n
        else:
            table.pop(kind, None)
    if fort is not None:
        if not -30 <= fort <= 30:
            raise InputSyntaxError("强韧防御修正应在−30~30之间")
        h.fort = fort
    eng.emit("traits", cid=c.id)


@transition
def dying_check(eng: Engine, cid: str) -> None:
    """Roll the 濒死检定 of every 要害 part at the wound cap now (``.濒死``)."""
    _require_base(eng, "濒死检定")
    c = eng.st.get(cid)
    if eng.out(c):
        raise IllegalAction(f"{c.shown} 已经<解体>或死亡")
    checks = hp.dying_checks(c.health, eng.unconscious(c))
    if not checks:
        raise IllegalAction(f"{c.shown} 没有承受伤势达到上限的要害部位，无需濒死检定")
    for check in checks:
        if check.dismembered:
            c.health.dissolved = True
            eng.emit("dismembered", cid=c.id, part=check.part)
        else:
            eng.fort_roll(c, "濒死", check.part, check.target)


@transition
def set_sp(
    eng: Engine,
    cid: str,
    *,
    value: int | None = None,
    delta: int | None = None,
    maximum: int | None = None,
    cost: bool = False,
) -> None:
    """SP (精力值): set, shift, or give a maximum (:func:`..damage.change_sp`: death at −max,
    <疲惫>/<力竭>, the 力竭 check rolled with the transition's dice).  ``cost``: the loss is an
    action's SP cost, which fails (nothing changes) when it would take SP below −max (002
    "产生的消耗会使SP低于下限的效果会使用失败"); a damage instead stops at −max: dead."""
    _require_base(eng, "SP")
    c = eng.st.get(cid)
    h = c.health
    if maximum is not None:
        if not 2 <= maximum <= 99:
            raise InputSyntaxError("SP上限应在2~99之间")
        h.sp_max = maximum
        if h.sp is None:
            h.sp = maximum
        if value is None and delta is None:
            h.sp = min(h.sp, maximum)
            eng.emit("sp", cid=c.id, sp=h.sp, sp_max=h.sp_max, dead=h.dead, notes=[])
            return
    if h.sp_max is None:
        raise IllegalAction(f"{c.shown} 还没有SP上限（.hp {c.name if not c.hidden else '<名称>'} sp上限 N）")
    new = value if value is not None else (h.sp if h.sp is not None else h.sp_max) + (delta or 0)
    if cost and new < -h.sp_max:
        raise IllegalAction(f"消耗后SP为{new}，会低于下限−{h.sp_max}：动作使用失败")
    change_sp(eng, c, new)


def change_sp(eng: Engine, c: Combatant, new: int) -> None:
    """SP to ``new`` (:func:`..damage.change_sp`), the 力竭 check rolled with the transition's
    dice; the ``sp`` event, and ``died``/``dissolved`` when it came to that."""
    h = c.health
    before = h.sp if h.sp is not None else (h.sp_max or 0)
    dice = eng.take_dice() if new < before and before <= 0 else None
    rep = dmg.change_sp(h, new, dice, unconscious=eng.unconscious(c))
    check = None
    if rep.check is not None:
        roll, j, target = rep.check
        check = {
            "dice": list(roll.dice),
            "total": roll.total,
            "target": target,
            "outcome": j.outcome,
            "edge": roll.edge,
        }
    eng.emit("sp", cid=c.id, sp=h.sp, sp_max=h.sp_max, dead=h.dead, notes=rep.notes, check=check)
    if rep.dead:
        eng.emit("died", cid=c.id)
    elif h.dissolved:
        eng.emit("dissolved", cid=c.id)


@transition
def set_gauges(
    eng: Engine,
    cid: str,
    *,
    hg: int | list[int] | None = None,
    mg: int | list[int] | None = None,
    crisis: int | None = None,
) -> None:
    """SPD: give a combatant Hit Gauges / Mind Gauges: a count (the MIG/WLP die size; one
    capacity more per LV, :func:`..health.gauges_for_level`) or the capacities themselves
    (``6/6/5/5``, at most 3× apart); ``crisis`` is her 危机值 (base 3)."""
    c = eng.st.get(cid)

    def make(spec: int | list[int], old: list[Gauge]) -> list[Gauge]:
        """New gauges; with as many gauges as before, each keeps its damage (004: "容量与HP之间的
        差值将保持不变"), so a capacity change mid-fight does not heal anyone."""
        new = hp.gauges_of_caps(spec) if isinstance(spec, list) else hp.gauges_for_level(spec, c.lv)
        if len(old) == len(new):
            for g, before in zip(new, old, strict=True):
                g.hp = max(0, g.cap - (before.cap - before.hp))
        return new

    if hg is not None:
        c.health.hg = make(hg, c.health.hg)
    if mg is not None:
        count = len(c.health.mg)
        c.health.mg = make(mg, c.health.mg)
        if len(c.health.mg) != count:
            c.health.mp_debt = 0  # new full gauges: no overdraw
    if crisis is not None:
        if not 0 <= crisis <= 40:
            raise InputSyntaxError("危机值应在0~40之间")
        c.health.crisis = crisis
    eng.emit("gauges", cid=c.id, hg=len(c.health.hg), mg=len(c.health.mg), crisis=c.health.crisis)


@transition
def hit_gauges(
    eng: Engine,
    cid: str,
    amount: int,
    *,
    attacker: str | None = None,
    heal: bool = False,
    crit: bool = False,
    execute: int | None = None,
) -> None:
    """SPD damage (left to right) or healing (right to left); breaking an enemy gauge gives
    the attacker's side one 优势点, once per attacker per turn.

    ``crit`` (重击): double damage; against a non-minion at most 2 gauges break and the 3rd takes
    nothing.  ``execute`` (斩杀): the target's DL13 ［DEX+MIG］ result; below 13 the leftmost
    unbroken gauge breaks after the damage (a minion: all of them)."""
    st = eng.st
    c = st.get(cid)
    h = c.health
    if not h.hg:
        raise IllegalAction(
            f"{c.shown} 没有生命量谱（.hp {c.name if not c.hidden else '<名称>'} hg 10 设置）"
        )
    if not 0 <= amount <= 9999:
        raise InputSyntaxError("数值应在0~9999之间")
    if heal:
        restored = hp.heal_gauges(h.hg, amount)
        eng.emit("hg_heal", cid=c.id, amount=restored)
        return
    crisis_before = hp.in_crisis(h)
    if crit:
        dealt, broken = hp.damage_gauges_capped(h.hg, amount * 2, None if h.minion else 2)
        eng.emit("hg_damage", cid=c.id, amount=dealt, broken=broken, crit=True, asked=amount * 2)
    else:
        broken = hp.damage_gauges(h.hg, amount)
        eng.emit("hg_damage", cid=c.id, amount=amount, broken=broken)
    if execute is not None:
        failed = execute < 13
        extra = hp.break_leftmost(h.hg, every=h.minion) if failed else 0
        broken += extra
        eng.emit("execute", cid=c.id, total=execute, failed=failed, broken=extra)
    if broken and attacker is not None:
        a = st.get(attacker)
        if a.side != c.side and a.adv_turn != st.turn_no:
            a.adv_turn = st.turn_no
            st.advantage[a.side] = st.advantage.get(a.side, 0) + 1
            eng.emit("advantage", side=a.side, cid=a.id, total=st.advantage[a.side])
    if hp.in_crisis(h) and not crisis_before:
        eng.emit("crisis", cid=c.id)
    knock_out(eng, c)


def knock_out(eng: Engine, c: Combatant) -> None:
    """An NPC whose Hit Gauges are all broken (HP 0) is out of the fight: marked defeated, her turn
    (if it is hers) ends and she is skipped from then on (issue 26: 速度-variant NPCs at HP 0 kept
    getting turns).  004 says no more than "HP降至0" for what HP 0 means; a GM-played enemy at 0
    is down in every 004-style table, while a player at 0 keeps her turns for the GM to rule on
    (004: "处理方式与因遭受即兴伤害而导致HP降至0时相同").  Healing does not stand her up again:
    ``.init 击败 名 -取消`` does, as for any defeated combatant."""
    h = c.health
    if not c.gm_played or c.defeated or not h.hg or hp.gauge_total(h.hg, h.mp_debt)[0] > 0:
        return
    st = eng.st
    c.defeated = True
    eng.emit("defeated", cid=c.id, on=True, hp0=True)
    st.queue = [q for q in st.queue if q != c.id]
    if st.current == c.id and st.phase is Phase.ACTIVE:
        eng.end_turn("skip")


@transition
def spend_mp(eng: Engine, cid: str, amount: int) -> None:
    """Spend (``amount`` > 0, from the left, may overdraw) or restore (< 0: debt first, then from
    the right) MP."""
    c = eng.st.get(cid)
    if amount >= 0:
        debt = hp.spend_mp(c.health, amount)
        eng.emit("mp_spend", cid=c.id, amount=amount, debt=debt)
        knock_out(eng, c)  # 004 透支精神值: HP 0 by an overdraw is HP 0 all the same
    else:
        restored = hp.restore_mp(c.health, -amount)
        eng.emit("mp_restore", cid=c.id, amount=restored)


@transition
def self_heal(eng: Engine, cids: list[str]) -> None:
    """自愈 at a scene start: LV HP and LV MP each, only when HP (MP) is at least 1, never into
    a broken gauge."""
    for cid in cids:
        c = eng.st.get(cid)
        h = c.health
        hp_now = hp.gauge_total(h.hg, h.mp_debt)[0]
        mp_now = hp.mp_total(h)[0]
        got_hp = hp.self_heal(h.hg, c.lv, hp_now) if h.hg else 0
        got_mp = hp.self_heal(h.mg, c.lv, mp_now) if h.mg else 0
        eng.emit("self_heal", cid=c.id, hp=got_hp, mp=got_mp, lv=c.lv)


NEW_UNIT_HINT = "新的单元（通常是新的一天）请GM发送 .init 单元"


@transition
def rest(eng: Engine, cids: list[str], *, long: bool = False) -> None:
    """短休 / 长休 for SP (002 精力值: "完成短休可以恢复1点SP。完成长休则可以恢复最多等于精力值
    上限的SP"): +1 SP, or + the maximum, never above it (SP −3 of 5 after a 长休: 2).  Through
    :func:`..damage.change_sp`, so SP 1 or more wakes a <力竭> coma.  For several combatants
    (``.hp 全体 短休``) one without an SP maximum, or dead, is left out; for one alone, refused.

    At most one 长休 per 单元 (002 休息: "角色在同一单元内最多完成1次长休，多余的休息时间会被视为
    连续的小憩"): a second one in the same :attr:`~..model.Combat.unit` is refused for one
    combatant (with how the GM starts a new 单元) and, for several, counted as 小憩 — which
    restores nothing — for her while the others rest."""
    if eng.st.variant is not Variant.BASE:
        raise IllegalAction("短休/长休恢复的是SP，只用于基础规则（002）；速度规则（004）没有SP")
    word = "长休" if long else "短休"
    unit = eng.st.unit
    for cid in cids:
        c = eng.st.get(cid)
        h = c.health
        if h.sp_max is None or h.dead:
            if len(cids) == 1:
                why = "已经死亡" if h.dead else f"还没有SP上限（.hp {c.name} sp上限 N）"
                raise IllegalAction(f"{c.shown} {why}")
            continue
        if long and h.long_rest_unit == unit:
            if len(cids) == 1:
                raise IllegalAction(
                    f"{c.shown} 在第{unit}单元已完成过1次长休（002：同一单元内最多完成1次长休，"
                    f"多余的休息时间视为小憩）；{NEW_UNIT_HINT}"
                )
            eng.emit("rest_nap", cid=c.id, unit=unit)
            continue
        if long:
            h.long_rest_unit = unit
        before = h.sp if h.sp is not None else h.sp_max
        rep = dmg.change_sp(h, before + (h.sp_max if long else 1), None)
        eng.emit("rest", cid=c.id, word=word, before=before, sp=h.sp, sp_max=h.sp_max, notes=rep.notes)
        if long:  # 002 临时生命: "未说明持续时间的临时生命，默认在角色完成1次长休后消失"
            for p in [p for p in h.parts if p.temp]:
                moved = dmg.set_temp(h, p.name, 0)
                eng.emit("temp", cid=c.id, part=p.name, amount=0, moved=len(moved))


@transition
def new_unit(eng: Engine) -> None:
    """The GM starts the next 单元 (002 时间: "每经过1个单元，通常意味着度过了1天"): every
    combatant may complete one more 长休 (:func:`rest`)."""
    eng.st.unit += 1
    eng.emit("unit", unit=eng.st.unit)


def exhaust(eng: Engine, c: Combatant) -> None:
    """<力竭> from another cause (an effect named 力竭): 002 精力值 "角色因其他原因而陷入<力竭>
    时，如果她的SP高于0，则也会变为0。"  SP 3 of 7 → 0; SP 0 or less, no SP (004), or dead:
    unchanged.  Reading: going to 0 this way is the state's consequence, not a loss while she is
    <力竭>, so it asks for no 力竭 check (that check follows a fall *from* 0 or less)."""
    h = c.health
    if h.sp_max is None or h.dead:
        return
    before = h.sp if h.sp is not None else h.sp_max
    if before <= 0:
        return
    dmg.change_sp(h, 0, None)
    eng.emit("exhausted", cid=c.id, before=before, sp_max=h.sp_max)
