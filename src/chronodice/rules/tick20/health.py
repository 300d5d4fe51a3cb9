"""Health as each variant keeps it.

BASE (002 「伤势」「伤势恶化」): each body part holds at most 4 wounds of level 1 擦伤,
2 轻伤, 3 重伤.  A damage of Hit h and DP d against DR r causes ``max(0, d − r)`` wounds of
level h (Hit above 3 becomes extra DP; direct wounds ignore DR).  On a full part a new wound
replaces the lowest one when it is higher, otherwise the lowest one worsens by one level.  A
full part is <负伤> / <残障> (−4 状态 to checks with it) / <欠损> by its lowest wound; a 要害
part at the cap asks for a 濒死检定 each round start (强韧防御, target 15, +5 when <残障>,
disadvantage when <昏迷>), and <欠损> on a 要害 part means <解体>.  Readings: the wound to
replace or worsen is chosen by the victim in the rules; the bot takes the first lowest one; a
new wound keeps the special tags (侵蚀/僵化…) of the wound it replaces; 侵蚀 damage of a round
start lands on the same part.

SPD (004 「生命值和精神值」): HP split into Hit Gauges of capacity 5 (as many as the MIG die
size, one capacity more per LV); damage fills from the left, healing from the right; 危机 when at most ``crisis`` (3)
gauges are unbroken.  Breaking an enemy gauge gives the attacker's side one 优势点, at most one
per attacker per turn (handled in :mod:`.engine`).  MP gauges work the same (spent from the left, restored from the right); the last MP may go
negative (overdraw), each negative point lowering every HG's capacity and HP by 1; overdraw is
refused when a gauge would be left with no capacity.

Pure functions over the :class:`Health` model; they mutate the model given to them (the engine
passes its working copy).
"""

from __future__ import annotations

from dataclasses import dataclass

from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound

from .model import BodyPart, Gauge, Health, Wound

WOUND_CAP = 4
LEVEL_NAMES = {1: "擦伤", 2: "轻伤", 3: "重伤"}
LEVEL_BY_NAME = {"擦伤": 1, "轻伤": 2, "重伤": 3, "1": 1, "2": 2, "3": 3}
PART_STATUS = {1: "负伤", 2: "残障", 3: "欠损"}
DEFAULT_PARTS: tuple[tuple[str, bool], ...] = (
    ("头部", True),
    ("臂部", False),
    ("躯干", True),
    ("腿部", False),
)
"""Humanoid default (002 「器官」): head–arms–torso–legs; head and torso hold 要害 organs."""

PART_ALIASES = {
    "核心": "头部",
    "头": "头部",
    "上段": "臂部",
    "手": "臂部",
    "中段": "躯干",
    "下段": "腿部",
    "腿": "腿部",
}


def default_parts() -> list[BodyPart]:
    return [BodyPart(name=n, vital=v) for n, v in DEFAULT_PARTS]


def find_part(health: Health, name: str, *, create: bool = False, vital: bool = False) -> BodyPart:
    name = PART_ALIASES.get(name.strip(), name.strip())
    if not health.parts:
        health.parts = default_parts()
    for part in health.parts:
        if part.name == name:
            return part
    if not create:
        raise NotFound(f"没有部位「{name}」（现有：{'/'.join(p.name for p in health.parts)}）")
    if len(health.parts) >= 12 or not name or len(name) > 8:
        raise InputSyntaxError("部位名应为1~8个字，最多12个部位")
    part = BodyPart(name=name, vital=vital)
    health.parts.append(part)
    return part


def part_status(part: BodyPart) -> str | None:
    """<负伤>/<残障>/<欠损> of a part at the wound cap, else None.

    >>> part_status(BodyPart(name="躯干", wounds=[Wound(level=2)] * 4))
    '残障'
    """
    if part.severed:
        return "欠损"
    if len(part.wounds) < WOUND_CAP:
        return None
    return PART_STATUS[min(w.level for w in part.wounds)]


@dataclass(frozen=True)
class WoundReport:
    part: str
    added: int
    replaced: int
    worsened: int
    status_before: str | None
    status_after: str | None
    dismembered: bool


def wound_count(dp: int, dr: int, hit: int, *, direct: bool = False) -> tuple[int, int]:
    """(level, count) of the wounds a damage causes: Hit above 3 adds to DP.

    >>> wound_count(2, 1, 5)
    (3, 3)
    >>> wound_count(1, 3, 2, direct=True)
    (2, 1)
    """
    if hit < 1:
        raise InputSyntaxError("Hit 至少为1")
    extra = max(0, hit - 3)
    level = min(hit, 3)
    dp += extra
    count = dp if direct else max(0, dp - dr)
    return level, count


def apply_wounds(
    health: Health, part_name: str, level: int, count: int, tags: list[str] | None = None
) -> WoundReport:
    """Inflict ``count`` wounds of ``level`` on a part, with the worsening rule.

    >>> h = Health(parts=[BodyPart(name="躯干", vital=True, wounds=[Wound(level=2) for _ in range(4)])])
    >>> apply_wounds(h, "躯干", 3, 1).replaced, sorted(w.level for w in h.parts[0].wounds)
    (1, [2, 2, 2, 3])
    >>> apply_wounds(h, "躯干", 1, 1).worsened, sorted(w.level for w in h.parts[0].wounds)
    (1, [2, 2, 3, 3])
    """
    if not 1 <= level <= 3:
        raise InputSyntaxError("伤势等级为1~3（擦伤/轻伤/重伤）")
    if not 0 <= count <= 50:
        raise InputSyntaxError("伤势数量应在0~50之间")
    part = find_part(health, part_name)
    before = part_status(part)
    added = replaced = worsened = 0
    tags = list(tags or [])
    for _ in range(count):
        if len(part.wounds) < WOUND_CAP:
            part.wounds.append(Wound(level=level, tags=list(tags)))
            added += 1
            continue
        lowest_i = min(range(len(part.wounds)), key=lambda i: (part.wounds[i].level, i))
        lowest = part.wounds[lowest_i]
        if level > lowest.level:
            part.wounds[lowest_i] = Wound(level=level, tags=sorted(set(lowest.tags) | set(tags)))
            replaced += 1
        elif lowest.level < 3:
            part.wounds[lowest_i] = Wound(level=lowest.level + 1, tags=sorted(set(lowest.tags) | set(tags)))
            worsened += 1
    after = part_status(part)
    return WoundReport(part.name, added, replaced, worsened, before, after, part.vital and after == "欠损")


def heal_wounds(health: Health, part_name: str, levels: int, count: int = 1) -> int:
    """Lower the ``count`` worst wounds of a part by ``levels``; wounds at 0 go.  Returns how many.

    The part's own wounds are healed first, then those its 临时生命 holds (002: "临时生命承受的
    伤势可以被正常治疗"; the order is the bot's reading: the wounds that count come first).

    >>> h = Health(parts=[BodyPart(name="臂部", wounds=[Wound(level=1)], temp=1, temp_wounds=[Wound(level=2)])])
    >>> heal_wounds(h, "臂部", 1, 2), h.parts[0].wounds, [w.level for w in h.parts[0].temp_wounds]
    (2, [], [1])
    """
    part = find_part(health, part_name)
    healed = 0
    for _ in range(count):
        pool = part.wounds or part.temp_wounds
        if not pool:
            break
        worst_i = max(range(len(pool)), key=lambda i: (pool[i].level, -i))
        w = pool[worst_i]
        if w.level - levels <= 0:
            pool.pop(worst_i)
        else:
            pool[worst_i] = Wound(level=w.level - levels, tags=w.tags)
        healed += 1
    return healed


@dataclass(frozen=True)
class DyingCheck:
    part: str
    target: int
    disadvantage: bool
    dismembered: bool


def dying_checks(health: Health, unconscious: bool) -> list[DyingCheck]:
    """Round-start 濒死检定 reminders for 要害 parts at the cap (002 伤势恶化).

    >>> h = Health(parts=[BodyPart(name="躯干", vital=True, wounds=[Wound(level=2)] * 4)])
    >>> dying_checks(h, False)
    [DyingCheck(part='躯干', target=20, disadvantage=False, dismembered=False)]
    """
    out = []
    for part in health.parts:
        status = part_status(part)
        if not part.vital or status is None:
            continue
        if status == "欠损":
            out.append(DyingCheck(part.name, 0, unconscious, True))
        else:
            out.append(DyingCheck(part.name, 15 + (5 if status == "残障" else 0), unconscious, False))
    return out


def tagged_wounds(health: Health, tag: str) -> list[tuple[str, Wound]]:
    return [(p.name, w) for p in health.parts for w in p.wounds if tag in w.tags]


# --------------------------------------------------------------------------- 004 gauges
def make_gauges(count: int, cap: int = 5) -> list[Gauge]:
    """``count`` full gauges of ``cap`` (count = the MIG or WLP base die size)."""
    if not 1 <= count <= 40:
        raise InputSyntaxError("量谱条数应在1~40之间")
    return [Gauge(cap=cap, hp=cap) for _ in range(count)]


def gauge_total(gauges: list[Gauge], debt: int = 0) -> tuple[int, int]:
    """(current, maximum) HP of gauges with an MP overdraw ``debt`` applied."""
    return sum(max(0, g.hp - debt) for g in gauges), sum(max(0, g.cap - debt) for g in gauges)


def broken_count(gauges: list[Gauge], debt: int = 0) -> int:
    return sum(1 for g in gauges if g.hp - debt <= 0)


def in_crisis(health: Health) -> bool:
    """危机: at most ``crisis`` unbroken Hit Gauges."""
    if not health.hg:
        return False
    unbroken = len(health.hg) - broken_count(health.hg, health.mp_debt)
    return unbroken <= health.crisis


def damage_gauges(gauges: list[Gauge], amount: int) -> int:
    """Damage from left to right; returns the number of gauges newly broken.

    >>> g = make_gauges(10); damage_gauges(g, 7), [x.hp for x in g[:3]]
    (1, [0, 3, 5])
    """
    if amount < 0:
        raise InputSyntaxError("伤害不能为负")
    broken = 0
    for g in gauges:
        if amount <= 0:
            break
        if g.hp <= 0:
            continue
        take = min(g.hp, amount)
        g.hp -= take
        amount -= take
        if g.hp == 0:
            broken += 1
    return broken


def heal_gauges(gauges: list[Gauge], amount: int) -> int:
    """Heal from right to left; returns the HP restored.

    >>> g = make_gauges(10); _ = damage_gauges(g, 11); heal_gauges(g, 6), [x.hp for x in g[:3]]
    (6, [0, 5, 5])
    """
    if amount < 0:
        raise InputSyntaxError("治疗量不能为负")
    restored = 0
    for g in reversed(gauges):
        if amount <= 0:
            break
        room = g.cap - g.hp
        if room <= 0:
            continue
        add = min(room, amount)
        g.hp += add
        amount -= add
        restored += add
    return restored


def spend_mp(health: Health, amount: int) -> int:
    """Spend MP from the Mind Gauges like damage to Hit Gauges: from the left (004 "MG …遵循与HG
    相同的规则").  The last gauge may overdraw.

    Returns the new overdraw (negative MP).  Refused when a Hit Gauge would lose all capacity.
    The issue's numbers: 4 gauges, spend 3 → ``[2, 5, 5, 5]``.

    >>> h = Health(mg=make_gauges(4)); spend_mp(h, 3); [g.hp for g in h.mg]
    0
    [2, 5, 5, 5]
    """
    if amount < 0:
        raise InputSyntaxError("消耗不能为负")
    if not health.mg:
        raise IllegalAction("没有精神量谱（用 .hp 名称 mg 尺寸 设置）")
    available = sum(max(g.hp, 0) for g in health.mg)
    overdraw = max(0, amount - available)
    if overdraw and health.hg and min(g.cap for g in health.hg) - (health.mp_debt + overdraw) < 1:
        raise IllegalAction("HG容量不足，无法透支MP")
    left = amount
    for g in health.mg:
        take = min(max(g.hp, 0), left)
        g.hp -= take
        left -= take
    health.mp_debt += overdraw
    return health.mp_debt


def restore_mp(health: Health, amount: int) -> int:
    """Restore MP: an overdraw is paid back first, then the Mind Gauges fill from the right
    (like healing).  Returns the MP restored.

    >>> h = Health(mg=make_gauges(4)); _ = spend_mp(h, 7); restore_mp(h, 2), [g.hp for g in h.mg]
    (2, [0, 5, 5, 5])
    """
    if amount < 0:
        raise InputSyntaxError("恢复量不能为负")
    if not health.mg:
        raise IllegalAction("没有精神量谱（用 .hp 名称 mg 尺寸 设置）")
    repaid = min(health.mp_debt, amount)
    health.mp_debt -= repaid
    return repaid + heal_gauges(health.mg, amount - repaid)


def mp_total(health: Health) -> tuple[int, int]:
    """(current, maximum) MP; an overdraw shows as negative MP.

    >>> h = Health(mg=make_gauges(2)); _ = spend_mp(h, 12); mp_total(h)
    (-2, 10)
    """
    return sum(g.hp for g in health.mg) - health.mp_debt, sum(g.cap for g in health.mg)


def gauges_for_level(count: int, lv: int) -> list[Gauge]:
    """``count`` gauges of 5, plus one capacity per LV (004: each level, one gauge +1; the bot
    spreads them from the left, one per gauge in turn — the player's choice, taken evenly).

    >>> [g.cap for g in gauges_for_level(4, 6)]
    [7, 7, 6, 6]
    """
    if not 0 <= lv <= 99:
        raise InputSyntaxError("LV应在0~99之间")
    gauges = make_gauges(count)
    for i in range(lv):
        gauges[i % count].cap += 1
        gauges[i % count].hp += 1
    return gauges


def gauges_of_caps(caps: list[int]) -> list[Gauge]:
    """Gauges of the given capacities (full); the largest may not exceed 3× the smallest (004).

    >>> [g.cap for g in gauges_of_caps([6, 5, 5])]
    [6, 5, 5]
    """
    if not 1 <= len(caps) <= 40 or any(not 1 <= c <= 99 for c in caps):
        raise InputSyntaxError("量谱1~40条，每条容量1~99")
    if max(caps) > 3 * min(caps):
        raise IllegalAction(f"最高容量{max(caps)}超过最低容量{min(caps)}的3倍")
    return [Gauge(cap=c, hp=c) for c in caps]


def self_heal(gauges: list[Gauge], amount: int, total: int) -> int:
    """自愈: heal ``amount`` from the right, never into a broken gauge, and only when the total
    is at least 1.  Returns the amount restored.

    >>> g = make_gauges(3); _ = damage_gauges(g, 7); self_heal(g, 4, 8), [x.hp for x in g]
    (2, [0, 5, 5])
    """
    if total < 1:
        return 0
    restored = 0
    for g in reversed(gauges):
        if amount <= 0:
            break
        if g.hp <= 0:
            continue
        add = min(g.cap - g.hp, amount)
        g.hp += add
        amount -= add
        restored += add
    return restored


def damage_gauges_capped(gauges: list[Gauge], amount: int, max_broken: int | None) -> tuple[int, int]:
    """Damage from the left that stops once ``max_broken`` gauges broke (重击 on a non-minion:
    at most 2, no damage to the 3rd).  Returns (damage dealt, gauges broken).

    >>> g = make_gauges(4); damage_gauges_capped(g, 14, 2), [x.hp for x in g]
    ((10, 2), [0, 0, 5, 5])
    """
    dealt = broken = 0
    for g in gauges:
        if amount <= 0 or (max_broken is not None and broken >= max_broken):
            break
        if g.hp <= 0:
            continue
        take = min(g.hp, amount)
        g.hp -= take
        amount -= take
        dealt += take
        if g.hp == 0:
            broken += 1
    return dealt, broken


def break_leftmost(gauges: list[Gauge], every: bool = False) -> int:
    """斩杀: break the leftmost unbroken gauge (a minion: all).  Returns how many broke.

    >>> g = make_gauges(3); break_leftmost(g), [x.hp for x in g]
    (1, [0, 5, 5])
    """
    n = 0
    for g in gauges:
        if g.hp > 0:
            g.hp = 0
            n += 1
            if not every:
                break
    return n


__all__ = [
    "DEFAULT_PARTS",
    "LEVEL_BY_NAME",
    "LEVEL_NAMES",
    "DyingCheck",
    "WoundReport",
    "apply_wounds",
    "break_leftmost",
    "broken_count",
    "damage_gauges",
    "damage_gauges_capped",
    "default_parts",
    "dying_checks",
    "find_part",
    "gauge_total",
    "gauges_for_level",
    "gauges_of_caps",
    "heal_gauges",
    "heal_wounds",
    "in_crisis",
    "make_gauges",
    "mp_total",
    "part_status",
    "restore_mp",
    "self_heal",
    "spend_mp",
    "wound_count",
]
