"""002 damage with its tags, the 濒死检定 and SP (精力值) — on top of the wound arithmetic of
:mod:`.health`.

Damage (002 「伤害」「抗性」「易伤」「伤害类型与损伤」「临时生命」):

* Hit above 3 adds to DP; 易伤 raises DP (the highest one among the damage's types), then 抗性
  lowers it, not below 0 (a single-type 抗性 counts against a composite damage ``灼烧/腐蚀`` only
  when every type is resisted, and then only the lowest of them); the wound count is
  ``DP − DR`` (direct wounds: DP).
* 贯通: DR is ignored when it does not exceed the DP (杂兵: always).
* 切断: the part becomes <欠损> (杂兵: DP +2 instead).
* 处决: only a part with a 要害 organ may be chosen; wounds from it mean <解体> (no 要害 part at
  all: no effect; 杂兵: any part, wounds mean <解体>).
* 爆发: a part linked to the wounded one takes a damage of the same Hit and DP without tags
  (杂兵: DP +2 instead).  The victim chooses the part; the bot takes the next part in the body's
  linkage order (头部-臂部-躯干-腿部), else the previous one, skipping parts that are <欠损>.
* 故障: the wounds carry the tag until healed; the part shows <故障> (杂兵: the whole character).
* 临时生命 of a part takes wounds first, filling, then replacing/worsening as a full part does,
  until all of them are 重伤; while it takes the whole damage, 切断 and 处决 do not act.
* A part that is <欠损> (by 重伤×4 or by 切断) "does not exist": it takes no more damage.
  Every part <欠损>, or a 要害 part <欠损>, means <解体>.

濒死检定: 强韧防御 (the combatant's ``fort`` modifier) against 15, +5 when the part is <残障>,
disadvantage when <昏迷>; N1/N20 apply (an active skill check).  大成功: no more checks until the
scene ends or a new wound; 失败: <昏迷> until her wounds drop below the cap; 大失败: also one
擦伤 `失血` on that part.  The same check outcome table is used by the 力竭 check.

SP: max ``耐力PB+CON+WIL (≥2)``; below max <疲惫>; at 0 or less <力竭>; at −max dead (a change
that would go lower stops at −max).  While she *is* <力竭> (SP ≤ 0 before the loss — the seed's
"如果角色处于<力竭>，则她的SP每次降低时"), every loss asks for a 强韧防御 against
``10 − (new SP × 2)``: 失败 → <昏迷> until SP ≥ 1; 大失败 → also one 擦伤 `毒素` on the core part
(the first 要害 part).

Pure: dice come in as arguments (rolled by the caller).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from chronodice.core.errors import IllegalAction, InputSyntaxError

from . import health as hp
from .checks import D20Roll, Judgement, d20_from_dice, judge
from .model import BodyPart, Health, Wound

DAMAGE_TYPES: tuple[str, ...] = ("冲击", "切割", "穿刺", "毒素", "失血", "灼烧", "冷冻", "腐蚀")
KEPT_SPECIALS: tuple[str, ...] = ("侵蚀", "僵化", "故障")
"""Tags that stay on the wounds (they act later); the others act at once."""
INSTANT_SPECIALS: tuple[str, ...] = ("贯通", "切断", "处决", "爆发", "杂兵")
MENTAL_TYPES: tuple[str, ...] = ("困顿", "疼痛", "欣快", "屈服")
"""002 精神伤害: "只有物理伤害能够造成伤势，精神伤害只会扣除受到伤害的角色的SP"."""
WOUND_TAG_FORM = (
    f"伤害类型写 {'/'.join(DAMAGE_TYPES)}（复合如 灼烧/腐蚀），精神伤害写 {'/'.join(MENTAL_TYPES)}，"
    f"损伤写 {'/'.join(INSTANT_SPECIALS[:4] + KEPT_SPECIALS)}，如 .wound 名 部位 hit3 dp2 dr1 贯通"
)


def check_wound_tags(tags: list[str] | tuple[str, ...]) -> None:
    """Refuse a word of a damage (``.wound``, ``.atk``, ``.npc 攻击``) that is no damage type and no
    损伤, one line naming it and the right form.  A 精神伤害 (002: "只有物理伤害能够造成伤势，精神伤害
    只会扣除受到伤害的角色的SP") is a damage of its own: it takes SP (:func:`is_mental`), so it
    cannot share a damage with a physical type, and of the 损伤 only 贯通 (which acts on DR, not on
    wounds) means anything for it.

    >>> check_wound_tags(["灼烧/腐蚀", "贯通", "故障"])
    >>> check_wound_tags(["屈服", "贯通"])
    >>> check_wound_tags(["乱写"])
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 不认识「乱写」：伤害类型写 冲击/切割/穿刺/毒素/失血/灼烧/冷冻/腐蚀（复合如 灼烧/腐蚀），精神伤害写 困顿/疼痛/欣快/屈服，损伤写 贯通/切断/处决/爆发/侵蚀/僵化/故障，如 .wound 名 部位 hit3 dp2 dr1 贯通
    >>> check_wound_tags(["屈服", "切割"])
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 屈服是精神伤害（扣SP），切割是物理伤害（造成伤势）：请分两次写
    """
    known = (*DAMAGE_TYPES, *MENTAL_TYPES, *KEPT_SPECIALS, *INSTANT_SPECIALS)
    words = [w for tag in tags for w in tag.split("/")]
    for word in words:
        if word not in known:
            raise InputSyntaxError(f"不认识「{word}」：{WOUND_TAG_FORM}")
    mental = next((w for w in words if w in MENTAL_TYPES), None)
    if mental is None:
        return
    for word in words:
        if word in DAMAGE_TYPES:
            raise InputSyntaxError(f"{mental}是精神伤害（扣SP），{word}是物理伤害（造成伤势）：请分两次写")
        if word in (*KEPT_SPECIALS, *INSTANT_SPECIALS) and word != "贯通":
            raise InputSyntaxError(f"{mental}是精神伤害，不造成伤势，「{word}」对它无效：请去掉{word}")


def types_of(tags: list[str] | tuple[str, ...]) -> list[str]:
    """The damage types named in ``tags`` (``灼烧/腐蚀`` counts as both).

    >>> types_of(["灼烧/腐蚀", "贯通"])
    ['灼烧', '腐蚀']
    """
    out: list[str] = []
    for tag in tags:
        for part in tag.split("/"):
            if part in DAMAGE_TYPES and part not in out:
                out.append(part)
    return out


def resistance(h: Health, types: list[str]) -> int:
    """The 抗性 that lowers a damage of ``types``: all types resisted → the lowest, else 0.

    >>> resistance(Health(resist={"灼烧": 2}), ["灼烧", "腐蚀"]), resistance(Health(resist={"灼烧": 2, "腐蚀": 1}), ["灼烧", "腐蚀"])
    (0, 1)
    """
    if not types or any(t not in h.resist for t in types):
        return 0
    return min(h.resist[t] for t in types)


def vulnerability(h: Health, types: list[str]) -> int:
    """The 易伤 that raises a damage of ``types``: the highest of them.

    >>> vulnerability(Health(vuln={"冷冻": 2, "毒素": 1}), ["冷冻", "毒素"])
    2
    """
    return max((h.vuln.get(t, 0) for t in types), default=0)


@dataclass(frozen=True)
class Damage:
    hit: int
    dp: int = 1
    dr: int = 0
    direct: bool = False
    tags: tuple[str, ...] = ()


@dataclass
class DamageReport:
    part: str
    level: int
    count: int
    dp: int
    absorbed: int = 0
    report: hp.WoundReport | None = None
    notes: list[str] = field(default_factory=list)
    blast: DamageReport | None = None
    dissolved: bool = False


def resolve(d: Damage, h: Health) -> tuple[int, int, int, list[str]]:
    """(level, count, final DP, notes) of a damage against ``h`` before any part takes it.

    The issue's numbers: ``hit2 dp2 dr2 贯通`` → two 轻伤 (DR 2 does not exceed DP 2).

    >>> resolve(Damage(2, 2, 2, tags=("贯通",)), Health())[:2]
    (2, 2)
    >>> resolve(Damage(2, 2, 3, tags=("贯通",)), Health())[:2]
    (2, 0)
    >>> resolve(Damage(2, 2, 3, tags=("贯通",)), Health(minion=True))[:2]
    (2, 2)
    >>> resolve(Damage(1, 2, 0, tags=("灼烧",)), Health(resist={"灼烧": 1}, vuln={"灼烧": 2}))[:2]
    (1, 3)
    """
    if d.hit < 1:
        raise InputSyntaxError("Hit 至少为1")
    if not 0 <= d.dp <= 99 or not 0 <= d.dr <= 99:
        raise InputSyntaxError("DP、DR 应在0~99之间")
    notes: list[str] = []
    level = min(d.hit, 3)
    dp = d.dp + max(0, d.hit - 3)
    minion = h.minion or "杂兵" in d.tags
    if minion:
        for tag in ("切断", "爆发"):
            if tag in d.tags:
                dp += 2
                notes.append(f"杂兵：{tag}→DP+2")
    types = types_of(d.tags)
    up = vulnerability(h, types)
    if up:
        dp += up
        notes.append(f"易伤{up}：DP+{up}")
    down = resistance(h, types)
    if down:
        dp = max(0, dp - down)
        notes.append(f"抗性{down}：DP−{down}")
    ignore = d.direct or ("贯通" in d.tags and (minion or d.dr <= dp))
    if "贯通" in d.tags and not d.direct:
        notes.append("贯通：无视DR" if ignore else f"贯通：DR{d.dr}超过DP{dp}，不生效")
    count = dp if ignore else max(0, dp - d.dr)
    return level, count, dp, notes


def part_gone(part: BodyPart) -> bool:
    return part.severed or hp.part_status(part) == "欠损"


def _temp_take(part: BodyPart, level: int, tags: list[str]) -> bool:
    """Let the part's 临时生命 take one wound; False when it is full of 重伤 (or has none)."""
    if len(part.temp_wounds) < part.temp:
        part.temp_wounds.append(Wound(level=level, tags=list(tags)))
        return True
    if not part.temp_wounds:
        return False
    i = min(range(len(part.temp_wounds)), key=lambda k: (part.temp_wounds[k].level, k))
    low = part.temp_wounds[i]
    if low.level >= 3:
        return False
    new_level = level if level > low.level else low.level + 1
    part.temp_wounds[i] = Wound(level=new_level, tags=sorted(set(low.tags) | set(tags)))
    return True


def check_dissolution(h: Health) -> bool:
    """<解体> when every part, or a 要害 part, is <欠损>; sets ``h.dissolved``."""
    if h.parts and (all(part_gone(p) for p in h.parts) or any(p.vital and part_gone(p) for p in h.parts)):
        h.dissolved = True
    return h.dissolved


def apply_damage(h: Health, part_name: str, d: Damage, *, blast: bool = True) -> DamageReport:
    """Apply a damage with its tags to a part (module docstring)."""
    part = hp.find_part(h, part_name)
    if part_gone(part):
        raise IllegalAction(f"{part.name}已<欠损>，视为不存在，不能承受伤害")
    minion = h.minion or "杂兵" in d.tags
    notes: list[str] = []
    execute = "处决" in d.tags and (minion or _execute_holds(h, part, notes))
    level, count, dp, more = resolve(d, h)
    notes += more
    kept = [t for t in d.tags if t not in INSTANT_SPECIALS]
    if minion:
        kept = [t for t in kept if t != "故障"]
    absorbed = sum(1 for _ in range(count) if part.temp and _temp_take(part, level, kept))
    to_part = count - absorbed
    if absorbed:
        notes.append(f"临时生命承受{absorbed}道")
    report = hp.apply_wounds(h, part.name, level, to_part, kept) if to_part else None
    out = DamageReport(part.name, level, count, dp, absorbed, report, notes)
    if to_part > 0:
        h.dying_exempt = False
        _wound_tags(h, part, d, minion=minion, execute=execute, notes=notes)
    if blast and count and "爆发" in d.tags and not minion:
        out.blast = _blast(h, part, d, dp, notes)
    out.dissolved = check_dissolution(h)
    return out


def _execute_holds(h: Health, part: BodyPart, notes: list[str]) -> bool:
    """Whether 处决 on a non-minion works: without a 要害 part it does nothing (said in
    ``notes``); on a part that is not 要害 it may not be chosen at all."""
    if not any(p.vital for p in h.parts):
        notes.append("处决：没有要害部位，无效")
        return False
    if not part.vital:
        raise IllegalAction(
            f"处决只能选择安装要害器官的部位（{'/'.join(p.name for p in h.parts if p.vital)}）"
        )
    return True


def _wound_tags(
    h: Health, part: BodyPart, d: Damage, *, minion: bool, execute: bool, notes: list[str]
) -> None:
    """What 切断, 处决 and a minion's 故障 do once the damage wounded the part itself."""
    if "切断" in d.tags and not minion:
        part.severed = True
        notes.append(f"切断：{part.name}<欠损>")
    if execute:
        h.dissolved = True
        notes.append("处决：<解体>")
    if minion and "故障" in d.tags and "故障" not in h.faults:
        h.faults.append("故障")
        notes.append("杂兵故障：无法使用操作/专注/攻击动作")


def _blast(h: Health, part: BodyPart, d: Damage, dp: int, notes: list[str]) -> DamageReport | None:
    """爆发: a second damage (at most 3 hits, its damage types only) on the next linked part."""
    i = h.parts.index(part)
    linked = [h.parts[k] for k in (i + 1, i - 1) if 0 <= k < len(h.parts) and not part_gone(h.parts[k])]
    if not linked:
        notes.append("爆发：没有衔接的部位，无效")
        return None
    types = [t for t in d.tags if t in DAMAGE_TYPES or "/" in t]
    second = Damage(min(d.hit, 3), dp, d.dr, d.direct, tuple(types))
    blast = apply_damage(h, linked[0].name, second, blast=False)
    notes.append(f"爆发：波及{linked[0].name}")
    return blast


def set_temp(h: Health, part_name: str, amount: int) -> list[Wound]:
    """Give a part ``amount`` 临时生命 (replacing the old one: they do not stack).  The wounds the
    old 临时生命 held move onto the part as if taken now; returns them."""
    part = hp.find_part(h, part_name)
    if not 0 <= amount <= 20:
        raise InputSyntaxError("临时生命应在0~20之间")
    if amount and part_gone(part):
        raise IllegalAction(f"{part.name}已<欠损>，不能获得临时生命")
    moved = list(part.temp_wounds)
    part.temp = amount
    part.temp_wounds = []
    for w in moved:
        if not part_gone(part):
            hp.apply_wounds(h, part.name, w.level, 1, w.tags)
    check_dissolution(h)
    return moved


# --------------------------------------------------------------------------- checks
@dataclass(frozen=True)
class FortCheck:
    """A 强韧防御 rolled by the bot (濒死检定 or the 力竭 check) and what it did."""

    reason: str
    part: str
    roll: D20Roll
    judgement: Judgement


def fort_check(
    h: Health, dice: tuple[int, ...], target: int, *, unconscious: bool | None = None
) -> tuple[D20Roll, Judgement]:
    """A 强韧防御 of ``h`` with the given dice (two under disadvantage when <昏迷>).

    002 濒死检定 and the 力竭 check: "如果在<昏迷>中进行这一检定，将具有劣势".  ``unconscious``
    is whether she is <昏迷> from any source — the coma these checks cause (``h.coma``) or a
    <昏迷> effect a GM put on her; ``None`` reads ``h.coma`` alone.

    >>> roll, j = fort_check(Health(fort=3), (9,), 15); (roll.total, j.outcome)
    (12, '失败')
    >>> fort_check(Health(fort=3), (16, 9), 15, unconscious=True)[0].total
    12
    """
    coma = bool(h.coma) if unconscious is None else unconscious
    edge: Literal["劣势"] | None = "劣势" if coma and len(dice) > 1 else None
    roll = d20_from_dice(dice if edge else dice[:1], h.fort, edge=edge)
    return roll, judge(roll.total, target)


def core_part(h: Health) -> BodyPart | None:
    """The 核心部位: the first 要害 part (头部 on the default body)."""
    if not h.parts:
        h.parts = hp.default_parts()
    return next((p for p in h.parts if p.vital and not part_gone(p)), None)


def dying_outcome(h: Health, part: str, outcome: str) -> list[str]:
    """Apply a 濒死检定 outcome; returns what happened."""
    if outcome == "大成功":
        h.dying_exempt = True
        return ["本场景无需再进行濒死检定（直到承受新的伤势）"]
    if outcome == "成功":
        return []
    notes = []
    if "濒死" not in h.coma:
        h.coma.append("濒死")
    notes.append("<昏迷>（直到伤势数量低于上限）")
    if outcome == "大失败":
        target = hp.find_part(h, part)
        if not part_gone(target):
            hp.apply_wounds(h, target.name, 1, 1, ["失血"])
            h.dying_exempt = False
            notes.append(f"{target.name}受到1道擦伤（失血）")
            check_dissolution(h)
    return notes


def wake_from_dying(h: Health) -> bool:
    """<昏迷> of a 濒死检定 ends once no 要害 part is at the wound cap."""
    at_cap = any(p.vital and len(p.wounds) >= hp.WOUND_CAP for p in h.parts)
    if "濒死" in h.coma and not at_cap:
        h.coma.remove("濒死")
        return True
    return False


@dataclass
class SpReport:
    before: int
    after: int
    maximum: int
    dead: bool = False
    check: tuple[D20Roll, Judgement, int] | None = None
    notes: list[str] = field(default_factory=list)


def sp_states(h: Health) -> list[str]:
    """<疲惫> below the maximum, <力竭> at 0 or less, 死亡 at −max.

    >>> sp_states(Health(sp=2, sp_max=4)), sp_states(Health(sp=0, sp_max=4)), sp_states(Health(sp=-4, sp_max=4, dead=True))
    (['疲惫'], ['疲惫', '力竭'], ['死亡'])
    """
    if h.sp is None or h.sp_max is None:
        return []
    if h.dead:
        return ["死亡"]
    out = []
    if h.sp < h.sp_max:
        out.append("疲惫")
    if h.sp <= 0:
        out.append("力竭")
    return out


def change_sp(
    h: Health, new: int, dice: tuple[int, ...] | None, *, unconscious: bool | None = None
) -> SpReport:
    """Set SP to ``new`` (clamped to ``[−max, max]``) and apply death and the 力竭 check.

    The issue's numbers: max 4, SP 4, −8 → −4 = −max: dead.

    >>> h = Health(sp=4, sp_max=4); r = change_sp(h, -4, None); (h.sp, r.dead, h.dead)
    (-4, True, True)
    >>> h = Health(sp=0, sp_max=4, fort=0); r = change_sp(h, -2, (5,)); (r.check[2], r.check[1].outcome, h.coma)
    (14, '失败', ['力竭'])
    """
    if h.sp_max is None:
        raise IllegalAction("还没有SP上限")
    before = h.sp if h.sp is not None else h.sp_max
    if h.dead:
        raise IllegalAction("已经死亡")
    after = max(-h.sp_max, min(h.sp_max, new))
    h.sp = after
    rep = SpReport(before, after, h.sp_max)
    if after <= -h.sp_max:
        h.dead = True
        rep.dead = True
        rep.notes.append("SP降至下限：死亡")
        return rep
    if after < before and before <= 0:
        target = 10 - after * 2
        if dice:
            roll, j = fort_check(h, dice, target, unconscious=unconscious)
            rep.check = (roll, j, target)
            if j.outcome in ("失败", "大失败"):
                if "力竭" not in h.coma:
                    h.coma.append("力竭")
                rep.notes.append("<昏迷>（直到SP恢复至1）")
            if j.outcome == "大失败":
                core = core_part(h)
                if core is not None:
                    hp.apply_wounds(h, core.name, 1, 1, ["毒素"])
                    h.dying_exempt = False
                    rep.notes.append(f"{core.name}受到1道擦伤（毒素）")
                    check_dissolution(h)
        else:
            rep.notes.append(f"力竭检定：强韧防御 目标{target}")
    if after >= 1 and "力竭" in h.coma:
        h.coma.remove("力竭")
        rep.notes.append("从<昏迷>中醒来")
    return rep


__all__ = [
    "DAMAGE_TYPES",
    "MENTAL_TYPES",
    "WOUND_TAG_FORM",
    "Damage",
    "DamageReport",
    "FortCheck",
    "SpReport",
    "apply_damage",
    "change_sp",
    "check_dissolution",
    "check_wound_tags",
    "core_part",
    "dying_outcome",
    "fort_check",
    "part_gone",
    "resistance",
    "resolve",
    "set_temp",
    "sp_states",
    "types_of",
    "vulnerability",
    "wake_from_dying",
]
