""".rc: the D20 check (skills, attributes, 004 two-die checks, opposed checks)."""

from __future__ import annotations

from dataclasses import replace

from chronodice.core.args import Flag, Mod, Prefixed, arg, flag, many, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound
from chronodice.core.reply import CheckNote, Reply
from chronodice.core.text import safe_name
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import health as H
from chronodice.rules.tick20 import two_die as T
from chronodice.rules.tick20.card import domain_proficiency
from chronodice.rules.tick20.modifiers import Modifier, stack
from chronodice.rules.tick20.persona import reduced
from chronodice.services.hidden import hidden_result
from chronodice.services.npc_cards import find_npc_card

from ._glue import SYS_NAME, SYSTEM, find, find_me, load
from .after_roll import LastCheck, check_reply, remember
from .effect_mods import EffectEdge, effect_edge, tagged_status
from .kinds import ADV, CHECK_WHAT, DIS, DOMAIN, MODS, OPPOSED, PASSIVE, REASON, TARGET, modifiers
from .kinds_rules import DAMAGE, PART_USED
from .persona import spend_ego, spend_gauge

rc = define(
    "rc",
    summary="D20刻度检定：.rc 运动 15 优势、.rc 先攻、.rc 被动 洞悉、.rc DEX+INS 13（004双骰）",
    detail=(
        "技能取角色卡的属性（属性/2−5）、熟练度×2、LV−4；±N可带类型（通用/环境/内在/状态），同类加值、减值各只取最大\n"
        "优势/劣势只多掷一枚D20，同时具有则抵消；被动检定骰值为10，优势+5、劣势−5\n"
        "成功度=判定值−目标值，≥10 大成功；失败度≥10 大失败；N1/N20 只在主动技能检定中 ∓10\n"
        "对抗N：以对方判定值N为目标（平手时发起者胜）\n"
        "名称: 为NPC检定（不用角色卡，如 .rc 哥布林:d8+d6 13）；-部位 臂部（或 -部位 哥布林/臂部）：用<残障>的部位检定 −4状态\n"
        "004 攻击：.rc d8+d6 13 伤害5 → 命中 HR+5，未命中仍造成最低伤害 5−4\n"
        "量谱：消耗1点高等属性量谱获得优势（即时动作，长休恢复，.量谱 查看）；自我：消耗1点自我获得优势（不会因此<发狂>时）；"
        "掷骰后再决定：检定后发 .自我\n"
        "次要领域：.rc 洞悉 15 工程 — 用卡上《工程》的熟练度（.st 工程熟练2）代替技能的熟练度（工程/学术/神秘/游艺）\n"
        "暗：暗中检定（GM），结果连同N1/N20与成功度私聊，群里只说进行了暗中检定，如 .rc 暗 暗影:洞悉 15\n"
        "战斗中，检定者身上带检定修正或优势/劣势的效果（.init eff 名 效果 2轮 -劣势）会自动计入"
    ),
    system=SYS_NAME,
)


@rc.sub(
    params=[
        arg("what", CHECK_WHAT),
        opt("target", TARGET),
        many("reason", REASON, required=False, label="理由"),
    ],
    flags=[
        ADV,
        DIS,
        PASSIVE,
        MODS,
        OPPOSED,
        DAMAGE,
        PART_USED,
        Flag("actor", Prefixed(label="名称:")),
        flag("hidden", "暗", label="暗"),
        flag("gauge", "量谱", label="量谱"),
        flag("ego", "自我", label="自我"),
        DOMAIN,
    ],
    help="技能/属性/修正检定，或 004 双骰检定（DEX+INS、d8+d6）",
)
async def cmd_rc(
    call: Call,
    actor: str | None,
    what: str | int | tuple[str, str],
    target: int | None,
    reason: list[str],
    adv: bool,
    dis: bool,
    passive: bool,
    mods: list[Mod],
    opposed: int | None,
    damage: int | None = None,
    part: tuple[str | None, str] | None = None,
    hidden: bool = False,
    gauge: bool = False,
    ego: bool = False,
    domain: str | None = None,
) -> list[Reply]:
    edge, secret, losses = await checker_edge(call, actor)
    spent = await spend_for_advantage(call, actor, what, gauge=gauge, ego=ego, passive=passive)
    replies, last = await _check(
        call,
        actor,
        what,
        target,
        reason,
        adv or bool(spent),
        dis,
        passive,
        mods,
        opposed,
        damage,
        part,
        edge,
        losses,
        domain,
    )
    if spent:
        replies[0] = replace(replies[0], text=replies[0].text + "\n" + "；".join(spent))
    if last is not None:  # her latest active skill check: ``.自我`` may still give it advantage
        await remember(call, actor, replace(last, hidden=hidden or secret))
    if not (hidden or secret):  # a hidden combatant's check is hidden without being asked
        return replies
    return hidden_result(call, replies[0].text, what="暗中检定")


async def _check(
    call: Call,
    actor: str | None,
    what: str | int | tuple[str, str],
    target: int | None,
    reason: list[str],
    adv: bool,
    dis: bool,
    passive: bool,
    mods: list[Mod],
    opposed: int | None,
    damage: int | None,
    part: tuple[str | None, str] | None,
    edge: EffectEdge,
    losses: dict[str, int] | None = None,
    domain: str | None = None,
) -> tuple[list[Reply], LastCheck | None]:
    """The check itself (``.rc`` and ``.rc 暗``, which sends it privately); ``edge``: what the
    checker's effects add (:func:`checker_edge`); ``domain``: the 次要领域 whose proficiency
    replaces the skill's (:func:`chronodice.rules.tick20.card.domain_proficiency`).  With the
    replies, what a later ``.自我`` needs of an active skill check made from a card."""
    char = call.view.character if call.view is not None else None
    if actor is not None and (char is None or char.name != actor):
        # ``哥布林:`` — the group's NPC card of that name (GM only), else an NPC without a card:
        # written dice and modifiers only
        char = await find_npc_card(call, actor)
    attrs = reduced(dict(char.attributes), losses or {}) if char is not None else {}
    who = safe_name(actor) if actor is not None else call.name
    typed = modifiers(mods)
    typed += edge.mods
    adv, dis = adv or edge.adv, dis or edge.dis
    if part is not None:
        typed += await part_penalty(call, part[0] or actor, part[1])
    note = " ".join(reason)[:30]
    goal = opposed if opposed is not None else target
    if isinstance(what, tuple):
        return [_two_die_check(call, what, attrs, typed, who, goal, damage, edge.note)], None
    if damage is not None:
        raise call.usage_error("伤害N 用于004双骰攻击检定（如 .rc d8+d6 13 伤害5）")
    if domain is not None and (isinstance(what, int) or is_attribute(what)):
        raise IllegalAction(f"《{domain}》的熟练度用于技能检定（如 .rc 洞悉 15 {domain}）")
    skill_mods, skill, label = _check_terms(what, attrs, who, domain)
    all_mods = [*skill_mods, *typed]
    roll = C.roll_d20(call.app.rng, all_mods, advantage=adv, disadvantage=dis, passive=passive, skill=skill)
    last = LastCheck(
        who,
        label,
        note,
        roll.dice,
        stack(all_mods),
        adv,
        dis,
        goal,
        opposed is not None,
        R.mods_text(all_mods),
        edge.note,
        False,
        char.id if char is not None else 0,
    )
    reply = check_reply(last, roll)
    return [reply], last if skill and not passive and char is not None else None


def _two_die_check(
    call: Call,
    what: tuple[str, str],
    attrs: dict,
    typed: list[Modifier],
    who: str,
    goal: int | None,
    damage: int | None,
    edge_note: str,
) -> Reply:
    """004's two-die check (``.rc d8+d6 13``, ``.rc 力量+敏捷``): each die a written size or an
    attribute's die; with ``伤害N`` the attack's damage line."""
    sizes = tuple(
        int(p[1:])
        if p[:1].lower() == "d" and p[1:].isascii() and p[1:].isdigit()
        else T.attribute_die_004(attrs, p)
        for p in what
    )
    roll2 = T.roll_two_die(call.app.rng, (sizes[0], sizes[1]), typed)
    label = "+".join(what).upper()
    text = R.two_die_text(who, label, roll2, goal) + (("\n" + edge_note) if edge_note else "")
    if damage is not None:
        text += "\n" + damage_line(roll2, goal, damage)
    dice = (
        f"D{sizes[0]}+D{sizes[1]}" + (f"{roll2.modifier:+d}" if roll2.modifier else ""),
        label,
        roll2.total,
    )
    if goal is None:
        note = CheckNote(label, f"判定值{roll2.total}", None, rule=SYSTEM, items=(dice,))
    else:
        ok = roll2.total >= goal
        note = CheckNote(label, "成功" if ok else "失败", ok, rule=SYSTEM, items=(dice,))
    return Reply(text=text, check=note)


def _check_terms(
    what: str | int, attrs: dict, who: str, domain: str | None
) -> tuple[list[Modifier], bool, str]:
    """A D20 check's own modifiers, whether it is a skill check, and its label: a written
    number (``D20``), an attribute's modifier, or a skill's (with a 次要领域's proficiency)."""
    if isinstance(what, int):
        return [Modifier(what, source="")], True, "D20"
    if is_attribute(what):
        name = what if what in C.ATTRIBUTES else next(k for k, v in C.ATTRIBUTES.items() if what in v)
        value = C.attribute_value(attrs, name)
        if value is None:
            raise NotFound(f"角色卡上没有{name}（.st {name} 12 设置）")
        return [Modifier(C.attribute_modifier(value), source=name)], False, name
    skill_name = C.canonical_skill(what)
    if domain is not None and domain_proficiency(attrs, domain) < 1:
        raise IllegalAction(
            f"{who} 的卡上没有《{domain}》的熟练度（.st {domain}熟练2 录入）："
            "002 只能从具有至少1级熟练度的次要领域习得能力"
        )
    skill_mods = C.skill_modifiers(attrs, what, domain=domain)  # a defence keeps its own proficiency
    label = what if what == skill_name else f"{what}（{skill_name}）"
    label += f"《{domain}》" if domain is not None else ""
    return skill_mods, True, label


def is_attribute(what: str) -> bool:
    """Whether ``what`` names an attribute (力量, STR …): an attribute check, not a skill check."""
    return what in C.ATTRIBUTES or any(what in v for v in C.ATTRIBUTES.values())


def damage_line(roll: T.TwoDieRoll, target: int | None, base: int) -> str:
    """004 attack damage: a hit deals ``HR + base``; a miss still deals its 最低伤害, the damage
    with HR taken as 0, minus 4 (not below 0).  Without a target the hit damage is shown."""
    if target is not None and roll.total < target:
        return f"最低伤害：{base}−4={T.minimum_damage(base)}（HR视为0）"
    return f"伤害：HR{roll.high_roll}+{base}={T.attack_damage(roll.high_roll, base)}"


async def part_penalty(call: Call, who: str | None, part: str) -> list[Modifier]:
    """002 伤势恶化: a check made with a <残障> part takes −4 (a 状态 penalty); a <欠损> part does
    not exist.  The part belongs to the named combatant of this group's combat, else to the
    sender's own combatant, else (a GM without one) to the combatant whose turn it is."""
    state = await load(call)
    if state is None:
        raise IllegalAction("-部位 需要本群进行中的战斗（部位状态记录在战斗里）")
    if who is not None:
        c = await find(call, state, who)
    else:
        mine = [x for x in state.combatants if x.controller == call.ctx.user_id]
        c = find_me(state, call.ctx) if mine or state.current is None else state.get(state.current)
    status = tagged_status(state, c.id, part) or H.part_status(
        H.find_part(c.health.model_copy(deep=True), part)
    )
    if status == "欠损":
        raise IllegalAction(f"{c.name} 的{part}已<欠损>，视为不存在")
    if status == "残障":
        return [Modifier(-4, "状态", source=f"{part}残障")]
    return []


async def checker_edge(call: Call, actor: str | None) -> tuple[EffectEdge, bool, dict[str, int]]:
    """What the effects on the combatant making this check do to it (``名字:``'s combatant, else
    the sender's own, in this group's running combat; nothing outside a combat), whether she
    is hidden (her check then goes to the GM privately, as ``.rc 暗`` does), and the attribute
    points she lost in the combat (``.属性``)."""
    if call.ctx.group_id is None:
        return EffectEdge(), False, {}
    state = await load(call)
    if state is None:
        return EffectEdge(), False, {}
    try:
        if actor is not None:
            c = await find(call, state, actor)
        elif any(x.controller == call.ctx.user_id for x in state.combatants):
            c = find_me(state, call.ctx)
        else:
            return EffectEdge(), False, {}
    except ChronoDiceError:  # an NPC not in the combat (or not visible to the sender)
        return EffectEdge(), False, {}
    return effect_edge(state, c.id), c.hidden, dict(c.health.attr_loss)


async def spend_for_advantage(
    call: Call, actor: str | None, what: object, *, gauge: bool, ego: bool, passive: bool
) -> list[str]:
    """``量谱`` (「高等属性」, 002 属性阶层) and ``自我`` (002 人格): each spends its point for this
    skill check's advantage (two sources still give one extra die, 002 优势与劣势).  Only an
    active skill check: the seed's words are 「技能检定」, and a passive check has no die."""
    if not (gauge or ego):
        return []
    if not isinstance(what, str) or passive:
        raise IllegalAction("量谱/自我 用于基础规则（002）的主动技能检定（如 .rc 运动 15 量谱）")
    spent = [await spend_gauge(call, actor, what)] if gauge else []
    if ego:
        spent.append(await spend_ego(call, actor))
    return spent
