""".ri: initiative rolls and joining the combat (players with their cards, GM NPCs in batches)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from chronodice.core.args import many
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, InputSyntaxError
from chronodice.core.permissions import Perm, require
from chronodice.core.reply import Reply
from chronodice.dice import roll_command
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import damage as D
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20 import health as H
from chronodice.rules.tick20 import two_die as T
from chronodice.rules.tick20.card import card_lv, card_proficiency, lookup, sp_max_002, speed_002
from chronodice.rules.tick20.model import Combat, Event, Health, InitRoll, Phase, Variant
from chronodice.rules.tick20.modifiers import Modifier, stack
from chronodice.services.npc_cards import find_npc_card
from chronodice.store import CharacterRecord

from ._glue import GM_WHO, MAX_BATCH, SYS_NAME, apply, each, fresh, gm_scope, load
from .kinds import modifiers
from .kinds_ri import RI_ENTRY, RiEntry
from .views import hidden_whisper


def roll_entry(
    call: Call, state: Combat, entry: RiEntry, npc: CharacterRecord | None = None
) -> tuple[str, dict[str, Any], str]:
    """One ``.ri`` entry; returns (name, add_combatant kwargs, roll text).  ``npc``: the group's
    NPC card of the entry's name (:mod:`chronodice.services.npc_cards`), read as a player's card
    is: 洞悉 for the roll, LV, SP, 速度, DR, 抗性/易伤."""
    mods = modifiers(list(entry.mods))
    kwargs: dict[str, Any] = {"hidden": entry.hidden}
    char = call.view.character if call.view is not None else None
    own = entry.name is None
    if own:
        name = call.player_name
        kwargs["controller"] = call.ctx.user_id
    else:
        name = str(entry.name)
    attrs = dict(char.attributes) if (char is not None and own) else {}
    if npc is not None:
        attrs = dict(npc.attributes)
        kwargs["card"] = npc.name
    if attrs:
        kwargs.update(card_stats(attrs, state.variant))
    if entry.fixed is not None:
        fixed = (
            entry.fixed
            if isinstance(entry.fixed, int)
            else int(roll_command(entry.fixed, call.app.rng).results[0].total)
        )
        kwargs["value"] = fixed
        kwargs["init_mod"] = stack(mods)
        return name, kwargs, f"={fixed}"
    if state.variant is Variant.SPD:
        if entry.adv or entry.dis or entry.passive:
            word = "优势" if entry.adv else "劣势" if entry.dis else "被动"
            raise IllegalAction(
                f"速度规则（004）的先攻检定是 DEX+INS 两颗骰子的开放检定（+6环境），没有{word}："
                "优势/劣势是基础规则（002）的D20规则；004 的「优势点」是击破HG得到的队伍资源。"
                "要调整先攻请写修正，如 .ri +2"
            )
        sizes = spd_dice(attrs, entry.dice)
        roll2 = T.roll_two_die(call.app.rng, sizes, [Modifier(6, "环境"), *mods])
        kwargs["roll"] = InitRoll(
            dice=list(roll2.dice), die=sum(roll2.dice), total=roll2.total, two_die=True, doubles=roll2.doubles
        )
        extra = f" 双{roll2.doubles}" if roll2.doubles is not None else ""
        return (
            name,
            kwargs,
            f"d{sizes[0]}+d{sizes[1]}=[{roll2.dice[0]},{roll2.dice[1]}]{roll2.modifier:+d}={roll2.total}{extra}",
        )
    if entry.dice is not None:
        raise IllegalAction(
            f"{'+'.join(entry.dice)} 是速度规则（004）的双骰先攻；基础规则（002）的先攻是 D20+洞悉，要调整请写修正，如 .ri +3 {name}"
        )
    base_mods = C.skill_modifiers(attrs, "洞悉") if attrs else []
    roll = C.roll_d20(
        call.app.rng, [*base_mods, *mods], advantage=entry.adv, disadvantage=entry.dis, passive=entry.passive
    )
    kwargs["roll"] = InitRoll(
        dice=list(roll.dice),
        die=roll.die,
        total=roll.total,
        nat=roll.nat,
        passive=roll.passive,
        edge=roll.edge,
    )
    return name, kwargs, R.roll_sum(R.d20_dice(roll), roll)  # 优势/劣势: which die was kept


def spd_dice(attrs: dict[str, Any], written: tuple[str, str] | None) -> tuple[int, int]:
    """The two dice of a 速度-variant initiative (004 先攻: ``DEX+INS``): as written
    (``巨魔:d8+d6``), else the card's DEX and INS dice, else d6+d6 — the bot's default for an NPC
    the GM gave no dice (the seed names no default size; he writes them as ``.ri 巨魔:d8+d6``)."""
    if written is not None:
        return int(written[0][1:]), int(written[1][1:])
    if attrs and {"DEX", "dex", "敏捷"} & set(attrs):
        return T.attribute_die_004(attrs, "DEX"), T.attribute_die_004(attrs, "INS")
    return 6, 6


def card_stats(attrs: dict[str, Any], variant: Variant = Variant.BASE) -> dict[str, Any]:
    """What the tracker keeps from a card.

    002: the 强韧防御 modifier (the bot's 濒死检定 and 力竭 check), 速度
    ``灵巧熟练度+(STR+DEX)/4`` (at least 2; STR/DEX are the *modifiers*, see
    :func:`card.speed_002`) for Mov, and the SP maximum ``耐力PB+CON+WIL`` (at least 2, see
    :func:`card.sp_max_002`; SP starts full) when the card has 体质 or 魄力.  004: as many Hit /
    Mind Gauges as the card's MIG / WLP die size (004 生命值和精神值: "数量等于角色的
    `基础MIG骰尺寸`" / "`基础WLP骰尺寸`"), one capacity more per LV.  Both variants: LV when the
    card has one — 004's tie-break (先攻值相等 … 其次由LV较高的角色先开始回合) and 自愈
    (场景开始时恢复 LV 点HP和MP) read it too.  A joining combatant is new, so nothing the GM set
    is overwritten; ``.hp 名 sp上限 N`` / ``.hp 名 hg N`` change these afterwards.
    """
    out: dict[str, Any] = {}
    lv = card_lv(attrs)
    if variant is Variant.BASE:
        health = Health(fort=stack(C.skill_modifiers(attrs, "强韧")))
        con, wil = C.attribute_value(attrs, "体质"), C.attribute_value(attrs, "魄力")
        if con is not None or wil is not None:
            health.sp_max = health.sp = sp_max_002(
                C.proficiency_bonus(card_proficiency(attrs, "耐力")),
                C.attribute_modifier(con if con is not None else 10),
                C.attribute_modifier(wil if wil is not None else 10),
            )
        out["health"] = health
        strength, dex = C.attribute_value(attrs, "力量"), C.attribute_value(attrs, "敏捷")
        if strength is not None or dex is not None:
            out["speed"] = speed_002(
                C.attribute_modifier(strength if strength is not None else 10),
                C.attribute_modifier(dex if dex is not None else 10),
                card_proficiency(attrs, "灵巧"),
            )
    else:
        out["health"] = spd_health(attrs, lv or 0)
    if lv is not None:
        out["lv"] = lv
    dr = lookup(attrs, *DR_KEYS)
    if dr is not None and 0 <= dr <= 99:
        out["dr"] = dr
    resist, vuln = typed_values(attrs, "抗性"), typed_values(attrs, "易伤")
    if resist or vuln:
        out["health"].resist.update(resist)
        out["health"].vuln.update(vuln)
    return out


DR_KEYS = ("DR", "dr", "伤害减免")
"""How a card writes its DR (002 DR (Damage Reduction)：伤害减免)."""


def typed_values(attrs: dict[str, Any], suffix: str) -> dict[str, int]:
    """``灼烧抗性1 冷冻易伤2`` on a card: damage type → value for ``suffix`` 抗性 or 易伤 (002 抗性,
    易伤: "拥有「灼烧抗性 1」的角色").

    >>> typed_values({"灼烧抗性": 1, "冷冻易伤": 2, "力量": 10}, "抗性")
    {'灼烧': 1}
    """
    out: dict[str, int] = {}
    for key, value in attrs.items():
        kind = key[: -len(suffix)] if key.endswith(suffix) else ""
        if kind in D.DAMAGE_TYPES and isinstance(value, int) and 0 < value <= 99:
            out[kind] = value
    return out


def spd_health(attrs: dict[str, Any], lv: int) -> Health:
    """004 gauges from a card: HG count = MIG die size, MG count = WLP die size (``.st MIG10
    WLP8`` → 10 HG, 8 MG), via :func:`health.gauges_for_level`; a size missing from the card, or
    outside the 1~40 gauges the bot keeps, leaves that gauge list empty for the GM to set."""
    health = Health()
    for key, field in (("MIG", "hg"), ("WLP", "mg")):
        size = lookup(attrs, key, *T.ATTRIBUTES_004[key])
        if size is not None and 1 <= size <= 40 and 0 <= lv <= 99:
            setattr(health, field, H.gauges_for_level(size, lv))
    return health


Plan = list[tuple[str, dict[str, Any], str]]
"""Combatants to add: (name, :func:`engine.add_combatant` keyword arguments, roll text)."""


def _own_copy(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments with a health of her own (``3# 哥布林``: each copy's wounds apart)."""
    health = kwargs.get("health")
    return kwargs | {"health": health.model_copy(deep=True)} if isinstance(health, Health) else kwargs


def join_all(state: Combat, plan: Plan) -> E.Outcome:
    """Add every planned combatant in one transition."""
    return each(state, plan, lambda st, p: E.add_combatant(st, p[0], **_own_copy(p[1])))


def expand_names(
    state: Combat, name: str, count: int | None, *, taken: dict[str, int] | None = None
) -> list[str]:
    """The names of a batch: ``哥布林*3`` (``3#哥布林``) → 哥布林1, 哥布林2, 哥布林3 — the names
    ``.rc 哥布林2:运动`` and ``.atk 哥布林2:艾琳`` find the group's 哥布林 card by — numbered on
    from the highest 哥布林N the combat has (哥布林1 there: 哥布林2…).  ``None``: the name alone.
    ``taken``: the last number given per name in this command (several entries of one name).

    >>> from chronodice.rules.tick20.engine import add_combatant, new_combat
    >>> st = add_combatant(new_combat(), "哥布林1", value=5).state
    >>> expand_names(st, "哥布林", 2), expand_names(st, "狼", None)
    (['哥布林2', '哥布林3'], ['狼'])
    """
    if count is None:
        return [name]
    if count < 1:
        raise InputSyntaxError(f"「{name}*{count}」：数量至少为1（如 {name}*3）")
    if count > MAX_BATCH:
        raise InputSyntaxError(f"一次最多加入{MAX_BATCH}名")
    numbered = re.compile(re.escape(name) + r"([0-9]{1,3})")
    have = [int(m.group(1)) for c in state.combatants if (m := numbered.fullmatch(c.name))]
    last = max([*have, (taken or {}).get(name, 0), 0])
    if taken is not None:
        taken[name] = last + count
    return [f"{name}{last + i}" for i in range(1, count + 1)]


def batches(entries: list[RiEntry]) -> list[RiEntry]:
    """The entries with a count for every name the command adds more than one of: ``.ri =12 哥布林,
    =12 哥布林, =6 哥布林`` (one entry each, issue 39: refused as a duplicate name) numbers them as
    ``哥布林*3`` would, each with its own value."""
    seen = Counter(e.name for e in entries if e.name is not None)
    return [
        replace(e, count=1) if e.name is not None and e.count is None and seen[e.name] > 1 else e
        for e in entries
    ]


def batch_note(names: list[str], entry: RiEntry) -> str:
    """What a rolled batch did, said once (issue 39: ``3# 哥布林`` gave all three one roll without
    saying so): ``哥布林1~3 各自掷了先攻`` or ``… 共用一次先攻（同骰）``; nothing for one name or
    a fixed value."""
    if len(names) < 2 or entry.fixed is not None:
        return ""
    base = entry.name or ""
    span = (
        f"{names[0]}~{names[-1][len(base) :]}" if all(n.startswith(base) for n in names) else "、".join(names)
    )
    return f"{span} 共用一次先攻（同骰）" if entry.shared else f"{span} 各自掷了先攻（要共用一次写 同骰）"


ri = define(
    "ri",
    summary="先攻检定并加入战斗（不写名称=自己的角色卡，基础：洞悉检定；速度：DEX+INS+6）",
    detail=(
        "例 .ri +3 哥布林、.ri +2环境 哥布林、.ri =25 巢穴（或 .ri 25 巢穴）、.ri =1d6+10 巨魔、.ri 暗 +4 伏兵；"
        "多名用逗号分开；名称末尾的数字属于名称（.ri +3 哥布林2）\n"
        "同名多只：.ri +2 哥布林*3（或 3#哥布林）加入 哥布林1~3，各自掷先攻；写 同骰 则共用一次；"
        "已有 哥布林1 时接着编号\n"
        "速度规则：NPC 默认 d6+d6，写 .ri 巨魔:d8+d6 指定 DEX+INS 骰"
    ),
    aliases=("先攻骰",),
    system=SYS_NAME,
    group_only=True,
)


@ri.sub(
    params=[many("entries", RI_ENTRY, required=False, label="修正/=值/优势/劣势/被动/暗 名称")],
    help="先攻检定并加入；写名称则加入NPC（GM）",
    when_empty=True,
)
async def cmd_ri(call: Call, entries: list[RiEntry]) -> list[Reply]:
    """``.ri``: roll initiative and join — oneself, or NPCs (GM), several at once; a hidden
    NPC's roll goes to the GM alone."""
    state = await load(call)
    if state is None:
        state = fresh(call.ctx.user_id)
    given = entries or [RiEntry()]
    if sum(e.count or 1 for e in given) > MAX_BATCH:
        raise InputSyntaxError(f"一次最多加入{MAX_BATCH}名")
    plan, notes = await _plan_joins(call, state, given)
    state, events = await apply(call, lambda st: join_all(st or fresh(call.ctx.user_id), plan))
    return _ri_replies(call, state, plan, [e for e in events if e.kind == "join"], notes)


async def _plan_joins(call: Call, state: Combat, given: list[RiEntry]) -> tuple[Plan, list[tuple[str, bool]]]:
    """Who joins with what initiative (each rolled, or one roll shared), and the batch notes
    (with whether each is the GM's alone)."""
    scope = await gm_scope(call, state)
    plan: Plan = []
    notes: list[tuple[str, bool]] = []
    taken: dict[str, int] = {}
    for entry in batches(given):
        if entry.name is not None:
            require(call.ctx, Perm.GM, "加入NPC（不写名称则以自己的角色加入）", **scope, who=GM_WHO)
            if entry.count is None and any(c.name == entry.name for c in state.combatants):
                raise IllegalAction(
                    f"已经有叫「{entry.name}」的参战者：要再加同名的，写 .ri {entry.name}*2（依次编号）"
                )
        card = (
            None
            if entry.name is None
            else await find_npc_card(call, entry.name, extra=scope["extra"], exact=True)
        )
        names = expand_names(state, entry.name, entry.count, taken=taken) if entry.name else [None]
        name, kwargs, text = roll_entry(call, state, entry, card)
        for i, n in enumerate(names):
            if i and not entry.shared:  # seed 002: every participant rolls her own initiative
                name, kwargs, text = roll_entry(call, state, entry, card)
            plan.append((n or name, dict(kwargs), text))
        note = batch_note([n for n in names if n], entry)
        if note:
            notes.append((note, entry.hidden))
    return plan, notes


_PLACED_WORDS = {
    "next_round": "（下轮加入）",
    "this_tick": "（本刻加入）",
    "this_round": "",
    "setup": "",
    "no_turn": "",
}
"""Where a join placed the combatant, as said after its initiative."""


def _ri_replies(
    call: Call, state: Combat, plan: Plan, joins: list[Event], notes: list[tuple[str, bool]]
) -> list[Reply]:
    """The group's lines for visible joins, and the GM's whisper for hidden ones."""
    public, secret = [], []
    for (name, kwargs, text), ev in zip(plan, joins, strict=False):
        where = _PLACED_WORDS.get(ev.data.get("placed", ""), "")
        if kwargs.get("hidden"):
            secret.append(f"{name}：{text}{where}")
        else:
            public.append(f"{name} 的先攻：{text}{where}")
    public += [note for note, hidden in notes if not hidden]
    secret += [note for note, hidden in notes if hidden]
    replies = []
    if public:  # a hidden NPC: not a line, not a count, not a reply in the group (issue 39)
        if state.phase is Phase.SETUP:
            visible = sum(1 for c in state.combatants if not c.hidden)
            public.append(f"共{visible}名参战者；GM 发送 .init start 开战")
        replies.append(Reply.say("\n".join(public)))
    if secret:
        hidden = sum(1 for c in state.combatants if c.hidden)
        secret.append(f"（群里看不到；暗中{hidden}名，开战后它们的回合私聊你，.init 现身 名称 公开）")
        replies += hidden_whisper(state, "暗先攻：\n" + "\n".join(secret), sender=call.ctx.user_id)
    return replies
