""".atk: an attack in one command (issue 26, seed 002 「攻击检定」「防御检定」「伤害」).

``.atk 哥布林1:艾琳 躯干 hit2 dp3 切割`` makes, in one reply, what a GM did in three commands:

1. the attacker's ATK — a skill check with the attack's skill and the *mode's* proficiency
   (002: "使用的熟练度基于攻击的模式"; ``近战`` by default, ``远程``/``近战魔法``/… as written);
2. against the target's DEF (002: "DEF会成为判断攻击检定成功与否的目标值"; 闪避 by default,
   "默认将「闪避」作为应对`攻击`动作的防御类型"): declared (``def15``), passive (10 + the defence
   modifiers) or rolled — per command, else the combat's ``.init meta -防御 被动/掷骰``;
3. on a hit (ATK ≥ DEF), the damage: Hit and DP against the target's DR, with the damage tags,
   抗性/易伤 and 临时生命 (the engine's :func:`~chronodice.rules.tick20.engine.wound`, the very
   transition ``.wound … hit dp dr`` runs), and the wounds it made — or, for a 精神伤害
   (``屈服``…), the ``DP − DR`` SP it took (002: "精神伤害只会扣除受到伤害的角色的SP");
4. the attack's AP (issue 39: it took ``.ap -2 攻击``, ``.atk`` and ``.ed``): a 主要动作 of
   :data:`~chronodice.rules.tick20.engine.ATTACK_AP` AP in the attacker's own turn (``ap1`` to
   write another cost, ``ap0`` for an attack outside her turns), or the AP she paid for it with
   ``.ap -2 攻击`` just before — never twice; refused before any die (another's turn, AP ≤ 0, a
   bad target) with nothing spent;
5. with ``结束``, the end of her turn and the next turn card.

Numbers come from the cards: an NPC's from the group's NPC card she was added from
(:mod:`chronodice.services.npc_cards`; Hit/DP from the card's ``hit``/``dp`` unless written), a
player's from the card her controller uses here.  Effects on either side that carry a check
modifier, advantage or disadvantage apply (:mod:`.effect_mods`).  A hidden attacker is revealed
by its attack (issue 39, :mod:`.hiding`): the group reads the attack as its target sees it, name
and numbers; an attack on a hidden target goes to the GM alone.  Every step stays available by
hand (``.rc``, ``.wound``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chronodice.core.args import Choice, Flag, OneOf, Pattern, Prefixed, arg, many
from chronodice.core.commands import Call, define
from chronodice.core.errors import AmbiguousInput, ChronoDiceError, IllegalAction, NotFound
from chronodice.core.reply import CheckNote, Reply
from chronodice.render import tick20 as R
from chronodice.render.tick20_health import conditions
from chronodice.render.tick20_health import event_lines as health_lines
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import damage as D
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20 import health as H
from chronodice.rules.tick20.card import ATTACK_WORDS, lookup
from chronodice.rules.tick20.mental import is_mental
from chronodice.rules.tick20.model import Combat, Combatant, Event, Variant
from chronodice.rules.tick20.modifiers import Modifier
from chronodice.rules.tick20.persona import reduced
from chronodice.services.npc_cards import find_npc_card

from ._glue import (
    SYS_NAME,
    SYSTEM,
    apply,
    check_dice,
    controls,
    find,
    find_me,
    gm,
    load,
    mind_dice,
    must_be_gm,
    need,
    require_control,
    whisper_gms,
)
from .attack_turn import Strike, may_attack, not_made
from .effect_mods import effect_edge
from .kinds import ADV, COMBATANT, DIS, MODS, NoColon, modifiers
from .npc_attacks import NpcAttack, stored_attacks
from .views import NUMBERS, turn_replies

DEFENCES = ("闪避", "强韧", "识破", "意志")
END_WORDS = ("结束", "结束回合", "ed")
"""``.atk 哥布林1 躯干 结束``: the attack, then the end of the attacker's turn, in one command."""
CONCEAL = {"匿迹": -5, "无踪": -10}
"""002 感知: "以匿迹的事物为目标进行的攻击检定，ATK会受到5点减值"; 无踪: "GM会将ATK暗中-10"."""
PARTS = {**{p: p for p, _ in H.DEFAULT_PARTS}, **H.PART_ALIASES}
ATK_ITEM = OneOf(
    Pattern(
        regex=r"(?i)(hit|dp|dr)([0-9]{1,2})(?![0-9])",
        label="hit/dp/dr",
        convert=lambda m: (m.group(1).lower(), int(m.group(2))),
    ),
    Pattern(
        regex=r"(?i)(?:def|防御)=?(-?[0-9]{1,3})(?![0-9])",
        label="def15",
        convert=lambda m: ("def", int(m.group(1))),
    ),
    Choice(
        table={
            "被动防御": ("defmode", "passive"),
            "掷防御": ("defmode", "roll"),
            "检定防御": ("defmode", "roll"),
        }
    ),
    Choice(table={w: ("attack", w) for w in ATTACK_WORDS}),
    Choice(table={w: ("deftype", w) for w in DEFENCES}),
    Choice(table={w: ("part", p) for w, p in PARTS.items()}),
    Choice(table={"直接": ("direct",), "direct": ("direct",)}),
    Choice(table={w: ("end",) for w in END_WORDS}),
    Pattern(regex=r"(?i)ap([0-9]{1,2})(?![0-9])", label="apN", convert=lambda m: ("ap", int(m.group(1)))),
    Choice(table={"匿迹": ("conceal", "匿迹"), "无踪": ("conceal", "无踪")}),
    Pattern(regex=r"[^\s0-9+=-][^\s]{0,19}", label="伤害类型/损伤", convert=lambda m: ("tag", m.group()[:6])),
    label="攻击项",
)


@dataclass
class Plan:
    """What the command asked for, read from its items."""

    attack: str = "近战"
    part: str = "躯干"
    deftype: str = "闪避"
    defmode: str | None = None
    declared: int | None = None
    hit: int | None = None
    dp: int | None = None
    dr: int | None = None
    direct: bool = False
    tags: tuple[str, ...] = ()
    conceal: str | None = None
    """002 感知: the target is 匿迹 (ATK −5) or 无踪 (ATK −10 in secret: the group learns neither
    the numbers nor why an attack missed; GM only)."""
    weapon: str = ""
    """The NPC card's named attack used (``.npc 攻击``), empty when none."""
    ap: int = E.ATTACK_AP
    """The AP the attack costs (``ap1``); 0: an attack outside the attacker's own turns (a
    reaction, one an effect grants), which spends no AP and needs no turn."""
    end: bool = False
    """``结束``: end the attacker's turn after the attack (issue 39: one command, not three)."""


def read_items(items: list[tuple[Any, ...]]) -> Plan:
    plan = Plan()
    tags: list[str] = []
    for item in items:
        key = item[0]
        if key == "tag":
            tags.append(item[1])
        elif key == "direct":
            plan.direct = True
        elif key == "end":
            plan.end = True
        elif key == "def":
            plan.declared = item[1]
        else:
            setattr(plan, key, item[1])  # attack, deftype, defmode, part, hit, dp, dr, conceal, ap
    D.check_wound_tags(tags)  # an unknown word, or a 精神伤害 mixed with a physical one
    plan.tags = tuple(tags[:6])
    return plan


async def named_plan(call: Call, state: Combat, a: Combatant, items: list[tuple[Any, ...]]) -> Plan:
    """The plan, with the attacker's named attack (``.atk 哥布林1:艾琳 短剑``, stored by ``.npc 攻击``)
    filled in under what the command wrote: written type, Hit, DP win; damage tags add up."""
    attacks: dict[str, NpcAttack] = {}
    if a.controller is None:
        card = await find_npc_card(call, a.card or a.name, extra=state.gms, exact=bool(a.card))
        attacks = stored_attacks(card.data) if card is not None else {}
    chosen = next((x[1] for x in items if x[0] == "tag" and x[1] in attacks), None)
    if chosen is None:
        return read_items(items)
    spec = attacks[chosen]
    rest = [x for x in items if not (x[0] == "tag" and x[1] == chosen)]
    plan = read_items(rest)
    if not any(x[0] == "attack" for x in rest) and spec.get("attack") in ATTACK_WORDS:
        plan.attack = str(spec["attack"])
    plan.hit = plan.hit if plan.hit is not None else spec.get("hit")
    plan.dp = plan.dp if plan.dp is not None else spec.get("dp")
    plan.tags = tuple([*spec.get("tags", ()), *plan.tags][:6])
    plan.direct = plan.direct or bool(spec.get("direct"))
    plan.weapon = chosen
    return plan


async def card_attrs(
    call: Call, state: Combat, c: Combatant, *, target: bool = False, raw: bool = False
) -> dict[str, int]:
    """The numbers behind ``c``'s checks: her NPC card, else her controller's card here, less the
    attributes she lost in this combat (``.属性``; ``raw``: the card as written).
    ``target``: she is the one attacked (her card is read for the rule, see
    :func:`~chronodice.services.npc_cards.find_npc_card`)."""
    attrs = await _card_numbers(call, state, c, target)
    return attrs if raw or not c.health.attr_loss else reduced(attrs, c.health.attr_loss)


async def _card_numbers(call: Call, state: Combat, c: Combatant, target: bool) -> dict[str, int]:
    if c.card:
        card = await find_npc_card(call, c.card, extra=state.gms, exact=True, as_target=target)
        return dict(card.attributes) if card is not None else {}
    if c.controller is None:
        card = await find_npc_card(call, c.name, extra=state.gms, as_target=target)
        return dict(card.attributes) if card is not None else {}
    if c.controller == call.ctx.user_id and call.view is not None and call.view.character is not None:
        return dict(call.view.character.attributes)
    try:  # the card she joined this group's combat with: read for a check, never shown whole
        card = await call.app.store.characters.active_character(c.controller, call.ctx.scope)
    except ChronoDiceError:
        return {}
    return dict(card.attributes) if card is not None else {}


atk = define(
    "atk",
    summary="一条指令完成攻击：ATK检定→对DEF→DP对DR→伤势，花攻击的AP，可顺带结束回合（基础规则）",
    detail=(
        "例 .atk 哥布林1:艾琳 躯干 hit2 dp3 切割、.atk 哥布林1:艾琳 短剑（NPC卡上 .npc 攻击 记下的攻击）、"
        ".atk 巨魔（自己的参战者攻击巨魔，近战）、.atk 哥布林1 躯干 结束（攻击后结束回合）、"
        ".atk 哥布林2:艾琳 远程 def14、.atk 暗影:艾琳 掷防御 优势\n"
        "AP：攻击是主要动作，在自己的回合里花2AP（apN 改写，ap0 为回合外的攻击、不花AP）；"
        "先 .ap -2 攻击 再 .atk 的不会重复扣；不是自己的回合、AP不够、目标不对时不掷骰、不花AP\n"
        "精神伤害（困顿/疼痛/欣快/屈服）不造成伤势，扣 DP−DR 点SP\n"
        "匿迹：ATK−5；无踪（GM）：ATK暗中−10，群里只说命中与否\n"
        "攻击：近战/远程/近战魔法/远程魔法（熟练度取攻击模式）；防御：闪避（默认）/强韧/识破/意志，"
        "def15 宣告，被动防御/掷防御，不写则按 .init meta -防御 被动/掷骰\n"
        "hit/dp 不写取NPC卡上的 hit/dp；DR 取目标卡上的 DR（写 dr2 覆盖）；抗性/易伤/临时生命照常结算；"
        "隐藏的NPC攻击时现身（群里看到它的名字和这次攻击）"
    ),
    aliases=("攻击",),
    system=SYS_NAME,
    group_only=True,
)


@atk.sub(
    params=[
        arg("target", NoColon(kind=COMBATANT, label="目标"), label="目标"),
        many("items", ATK_ITEM, required=False, label="攻击项"),
    ],
    flags=[Flag("actor", Prefixed(label="攻击者:")), ADV, DIS, MODS],
    help="攻击者:目标 [部位] [近战/远程…] [hitN dpN 类型] [def15/被动防御/掷防御] [优势/劣势/±N] [apN] [结束]",
)
async def cmd_atk(
    call: Call,
    actor: str | None,
    target: str,
    items: list[tuple[Any, ...]],
    adv: bool,
    dis: bool,
    mods: list[Any],
) -> list[Reply]:
    state = need(await load(call))
    if state.variant is not Variant.BASE:
        raise IllegalAction("一条指令的攻击用于基础规则（002）；速度规则请用 .rc d8+d6 目标 伤害N 和 .hp")
    a = await find(call, state, actor) if actor is not None else find_me(state, call.ctx)
    await require_control(call, state, a, "替他攻击")
    prepaid = E.prepaid_attack(state, a.id)
    try:  # refused before any die is rolled: no AP spent, and the reply says so (issue 39)
        t = await find(call, state, target)
        plan = await named_plan(call, state, a, items)
        may_attack(state, a, plan)
    except (NotFound, AmbiguousInput, IllegalAction) as err:
        raise not_made(err, prepaid) from None
    a_attrs, t_attrs = await card_attrs(call, state, a), await card_attrs(call, state, t, target=True)
    hit = plan.hit if plan.hit is not None else lookup(a_attrs, "hit", "Hit", "HIT")
    dp = plan.dp if plan.dp is not None else lookup(a_attrs, "dp", "DP", "Dp")
    dr = plan.dr if plan.dr is not None else t.dr
    if hit is None:
        raise call.usage_error("攻击需要伤害：写出 hitN dpN（或在卡上录入 hit2 dp3）")
    H.find_part(t.health.model_copy(deep=True), plan.part)  # an unknown part: refused before any roll
    rng = call.app.rng

    a_edge = effect_edge(state, a.id)
    atk_mods = [*C.skill_modifiers(a_attrs, plan.attack), *modifiers(mods), *a_edge.mods]
    if plan.conceal == "无踪":
        await must_be_gm(call, state, "暗中结算对无踪目标的攻击")
    if plan.conceal is not None:
        atk_mods.append(Modifier(CONCEAL[plan.conceal], source=plan.conceal))
    atk_roll = C.roll_d20(rng, atk_mods, advantage=adv or a_edge.adv, disadvantage=dis or a_edge.dis)
    t_edge = effect_edge(state, t.id)
    def_roll: C.D20Roll | None = None
    def_mods = [*C.skill_modifiers(t_attrs, plan.deftype), *t_edge.mods]
    if plan.declared is not None:
        def_value = plan.declared
    else:
        passive = (plan.defmode or state.options.defense) == "passive"
        def_roll = C.roll_d20(rng, def_mods, advantage=t_edge.adv, disadvantage=t_edge.dis, passive=passive)
        def_value = def_roll.total
    judgement = C.judge(atk_roll.total, def_value)
    hit_ok = judgement.success_degree is not None

    strike = Strike(
        a.id,
        t.id,
        plan,
        {
            "hit": hit,
            "dp": dp if dp is not None else 1,
            "dr": dr,
            "direct": plan.direct,
            "tags": list(plan.tags),
        },
        hit_ok,
        seen=state.turn_no,
        by=call.ctx.user_id,
        now=call.app.clock.timestamp(),
        mind=mind_dice(call, t, plan.tags) if hit_ok else [],
        turn=check_dice(call, state) if plan.end else [],
    )
    try:
        state, _events = await apply(call, strike.run)
    except IllegalAction as err:  # the combat moved on meanwhile: nothing of it was written
        raise not_made(err, prepaid) from None
    a, t = state.get(a.id), state.get(t.id)  # a hidden attacker is seen now (its first attack)
    report = Report(
        state,
        a,
        t,
        plan,
        atk_roll,
        atk_mods,
        def_roll,
        def_mods,
        def_value,
        judgement,
        hit,
        dp,
        dr,
        strike.wound,
        strike.refused,
        strike.ap,
    )
    public, private = report.text(False, call), report.text(True, call)
    to_hit = (R.d20_expr(atk_roll), f"攻击{t.name}", atk_roll.total)
    note = CheckNote("攻击", "命中" if hit_ok else "未命中", hit_ok, rule=SYSTEM, items=(to_hit,))
    replies = [Reply(text=public, check=None if a.hidden or t.hidden else note)]
    if private != public:
        if await gm(call, state):
            replies.append(Reply.whisper(private, fallback="（GM视图私聊失败，请先加骰娘为好友）"))
        elif state.gms:
            replies += whisper_gms(state, private, state.gms[0])
    if plan.end:  # last: the card's forecast runs on the state itself
        replies += turn_replies(state, strike.turn_events)
    return replies


@dataclass
class Report:
    """One attack, written for the group (``gm=False``) or the GM."""

    state: Combat
    a: Combatant
    t: Combatant
    plan: Plan
    atk_roll: C.D20Roll
    atk_mods: list[Any]
    def_roll: C.D20Roll | None
    def_mods: list[Any]
    def_value: int
    judgement: C.Judgement
    hit: int | None
    dp: int | None
    dr: int
    events: list[Event]
    refused: str = ""
    """Why the damage was not applied (the engine's refusal), empty when it was."""
    ap: list[Event] = field(default_factory=list)
    """The attack's AP (``attack_ap``, and a 全力动作 it broke); none for ``ap0``."""

    def text(self, gm_view: bool, call: Call) -> str:
        """The attack as the group (``gm_view=False``) or the GM reads it, its AP last."""
        body = self.body(gm_view, call)
        return "\n".join([body, *self.ap_lines(gm_view)])

    def ap_lines(self, gm_view: bool) -> list[str]:
        """``艾琳 花2AP（AP 1/3）``, or the AP paid before used (issue 39); a hidden attacker's are the GM's."""
        if self.a.hidden and not gm_view:
            return []
        an = R.name_of(self.state, self.a.id, gm_view)
        lines = []
        for ev in self.ap:
            d = ev.data
            if ev.kind == "attack_ap":
                left = f"AP {d['ap']}/{self.a.ap_max}"
                if d.get("prepaid"):
                    lines.append(f"{an} 用先前为攻击付的{d['cost']}AP，不再扣（{left}）")
                else:
                    lines.append(f"{an} 花{d['cost']}AP（{left}）")
        return lines + R.event_lines(self.state, [e for e in self.ap if e.kind != "attack_ap"], gm=gm_view)

    def body(self, gm_view: bool, call: Call) -> str:
        """The attack as ``gm_view`` (or the group) may read it: the rolls each side shows, hit
        or miss, then the damage and the target's health where they are open to this view."""
        st, a, t, plan = self.state, self.a, self.t, self.plan
        tn = R.name_of(st, t.id, gm_view)
        secret = plan.conceal == "无踪" and not gm_view  # 002: "不会告知角色失手的原因"
        show_a, show_t = (gm_view or not a.hidden) and not secret, (gm_view or not t.hidden) and not secret
        lines = self._roll_lines(gm_view, show_a, show_t)
        if self.judgement.success_degree is None:
            return "\n".join(lines)
        if self.refused:
            return "\n".join([*lines, f"伤害未结算：{self.refused}" if show_t else "伤害未结算"])
        see = gm_view or controls(call.ctx, t) or t.controller is not None or st.options.hp_display == "show"
        shown = self._damage_lines(lines, tn, numbers=see and show_t)
        lines += R.event_lines(st, shown, gm=gm_view)
        lines += health_lines(st, [e for e in shown if e.kind == "wound"], gm=gm_view)
        if is_mental(plan.tags) and t.controller is not None:
            lines.append("精神上的攻击也是精神创伤：狂气增加多少由GM定（.人格 创伤N）")
        return "\n".join(lines)

    def _damage_lines(self, lines: list[str], tn: str, *, numbers: bool) -> list[Event]:
        """The damage and the target's health: with ``numbers`` Hit/DP/DR and every part,
        else only what the view may see; returns the events this view may be told of."""
        t = self.t
        if numbers:
            tags = "".join(f" {x}" for x in self.plan.tags)
            lines.append(
                f"伤害：Hit{self.hit} DP{self.dp if self.dp is not None else 1} 对 DR{self.dr}{tags}"
            )
            held = " ".join(x for x in (R.parts_text(t), *conditions(t, True)) if x) or "无伤"
            lines.append(f"{tn}：{held}")
            return self.events
        lines.append(f"{tn}：{R.health_text(self.state, t, False) or '伤势已记录（详情已私聊GM）'}")
        return [e for e in self.events if e.kind not in NUMBERS]

    def _roll_lines(self, gm_view: bool, show_a: bool, show_t: bool) -> list[str]:
        """Who attacks whom with what, ATK and DEF where shown, and hit or miss (with the
        outcome and degree only when both rolls are shown)."""
        st, plan, j = self.state, self.plan, self.judgement
        an, tn = R.name_of(st, self.a.id, gm_view), R.name_of(st, self.t.id, gm_view)
        weapon = f"，{plan.weapon}" if plan.weapon else ""
        lines = [f"{an} 攻击 {tn}（{plan.attack}，{plan.part}{weapon}）"]
        if show_a:
            mods = R.mods_text(self.atk_mods)
            lines.append(
                f"ATK：{R.roll_sum(R.d20_dice(self.atk_roll), self.atk_roll)}"
                + (f"（{mods}）" if mods else "")
            )
        if show_t:
            lines.append(f"DEF：{self.def_line()}")
        hit = "命中" if j.success_degree is not None else "未命中"
        if show_a and show_t:
            degree = (
                f"成功度{j.success_degree}" if j.success_degree is not None else f"失败度{j.failure_degree}"
            )
            lines.append(f"→ {hit}（{j.outcome}，{degree}）")
        else:
            lines.append(f"→ {hit}")
        return lines

    def def_line(self) -> str:
        if self.def_roll is None:
            return f"{self.def_value}（宣告）"
        mods = R.mods_text(self.def_mods)
        roll = R.roll_sum(R.d20_dice(self.def_roll), self.def_roll)  # ``被动10+4=14`` says passive
        return f"{self.plan.deftype} {roll}" + (f"（{mods}）" if mods else "")


__all__ = ["ATK_ITEM", "Plan", "Report", "atk", "card_attrs", "named_plan", "read_items"]
