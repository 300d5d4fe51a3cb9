"""The last four rules of seed 002 (issue 26) as commands: ``.量谱`` and ``.rc … 量谱`` (high-attribute
gauges), ``.人格`` and ``.rc … 自我`` (人性/自我/狂气, <发狂>), ``.属性`` (attribute loss to 0 in a
combat), ``.mov 全力`` (【全力移动】 at 速度 0, in :mod:`.actions`).  Seed lines in
:mod:`chronodice.rules.tick20.persona`.

Where the numbers live: a gauge's current value and 人格 are the character's, kept on her card
(``力量量谱``, ``人性``/``自我``/``狂气``/``发狂``/``片段自我``; ``.st`` shows and corrects them), so they
hold between scenes and 长休 restores them out of a combat too.  The sender's active card, or
with ``名字:`` the group's NPC card (GM only).  Attribute *loss* is kept on the combatant
(:func:`~chronodice.rules.tick20.engine.lose_attribute`): ``哥布林2`` losing 力量 must not weaken
哥布林1, who reads the same NPC card; a player keeps a lasting loss with ``.st 力量-3``.
"""

from __future__ import annotations

from dataclasses import replace

from chronodice.core.args import Choice, Flag, OneOf, Pattern, Prefixed, arg, many, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound
from chronodice.core.reply import Reply
from chronodice.core.text import safe_name
from chronodice.render.tick20_health import event_lines as health_lines
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20 import persona as P
from chronodice.rules.tick20.model import Variant
from chronodice.services.npc_cards import find_npc_card
from chronodice.store import CharacterRecord

from ._glue import SYS_NAME, apply, find, find_me, load, need, require_control
from .attack import card_attrs
from .views import hidden_whisper, turn_replies

ACTOR = Flag("actor", Prefixed(label="名称:"))


async def own_card(call: Call, actor: str | None) -> CharacterRecord:
    """The card ``.量谱``/``.人格``/``.rc 自我`` read and write: ``名字:``'s NPC card (GM only), else
    the sender's active card."""
    if actor is not None:
        card = await find_npc_card(call, actor)
        if card is None:
            raise NotFound(f"本群没有NPC卡「{safe_name(actor)}」（.npc {safe_name(actor)} 感悟12 录入）")
        return card
    char = call.view.character if call.view is not None else None
    if char is None:
        raise NotFound("你还没有角色卡（.st 力量16 感悟12 … 录入）")
    return char


async def write(call: Call, card: CharacterRecord, values: dict[str, int]) -> CharacterRecord:
    return await call.app.store.characters.update_character(
        card.id, lambda c: replace(c, attributes={**c.attributes, **values}), claim=call.claim
    )


# --------------------------------------------------------------------------- .量谱
def gauges(attrs: dict[str, int]) -> list[tuple[str, int, int]]:
    """(attribute, now, cap) of every 高等 attribute on a card."""
    out = []
    for name in C.ATTRIBUTES:
        value = C.attribute_value(attrs, name)
        if value is not None and P.gauge_cap(value):
            out.append((name, P.gauge_now(attrs, name, value), P.gauge_cap(value)))
    return out


gauge = define(
    "量谱",
    aliases=("gauge",),
    summary="基础规则：高等属性（15+）的属性量谱（上限 属性/5−2）；.rc 技能 量谱 消耗1点获得优势（即时动作），长休恢复",
    detail="例 .量谱、.量谱 长休、.量谱 哥布林:（GM）；检定时 .rc 运动 15 量谱",
    system=SYS_NAME,
)


@gauge.sub(
    params=[opt("rest", Choice(table={"长休": True, "long": True}), label="长休")],
    flags=[ACTOR],
    help="查看属性量谱；长休：全部恢复",
    when_empty=True,
)
async def cmd_gauge(call: Call, actor: str | None, rest: bool | None) -> list[Reply]:
    card = await own_card(call, actor)
    have = gauges(dict(card.attributes))
    who = safe_name(card.name)
    if not have:
        return [Reply.say(f"{who} 没有高等属性（15或更高），没有属性量谱")]
    if rest:
        card = await write(call, card, {f"{n}{P.GAUGE_SUFFIX}": cap for n, _now, cap in have})
        have = gauges(dict(card.attributes))
        head = f"{who} 长休：属性量谱全部恢复"
    else:
        head = f"{who} 的属性量谱"
    return [Reply.say(head + "：" + "，".join(f"{n}{now}/{cap}" for n, now, cap in have))]


async def spend_gauge(call: Call, actor: str | None, what: str) -> str:
    """「高等属性」: one point of the gauge of the attribute this skill check uses, for advantage;
    in a running 002 combat it is her 即时动作 (RA) until her next turn.  Returns the note."""
    card = await own_card(call, actor)
    attrs = dict(card.attributes)
    if what in C.ATTRIBUTES or any(what in v for v in C.ATTRIBUTES.values()):
        raise IllegalAction("属性量谱用于技能检定（「使用具有属性量谱的属性进行1次技能检定时」）")
    mods = C.skill_modifiers(attrs, what)
    used = mods[0].source if mods and mods[0].source in C.ATTRIBUTES else None
    value = C.attribute_value(attrs, used) if used is not None else None
    if used is None or value is None or not P.gauge_cap(value):
        raise IllegalAction(f"这次检定使用的属性{used or ''}不是高等属性（15或更高），没有属性量谱")
    now = P.gauge_now(attrs, used, value)
    if now < 1:
        raise IllegalAction(f"{used}量谱已用完（0/{P.gauge_cap(value)}），长休后恢复（.量谱 长休）")
    await use_ra(call, actor)
    await write(call, card, {f"{used}{P.GAUGE_SUFFIX}": now - 1})
    return f"高等属性：消耗1点{used}量谱（{now - 1}/{P.gauge_cap(value)}），获得优势"


async def use_ra(call: Call, actor: str | None) -> None:
    """Spend the checker's RA in this group's running 002 combat (nothing outside one)."""
    if call.ctx.group_id is None:
        return
    state = await load(call)
    if state is None or state.variant is not Variant.BASE or state.current is None:
        return
    try:
        c = await find(call, state, actor) if actor is not None else find_me(state, call.ctx)
    except NotFound:
        return
    await apply(call, lambda st: E.spend_ap(need(st), c.id, 0, "RA", "高等属性"))


# --------------------------------------------------------------------------- .人格
def persona_text(name: str, attrs: dict[str, int], p: P.Persona) -> str:
    cap = P.ego_cap(attrs)
    mad = "　<发狂>" if p.mad else ""
    intel = C.attribute_value(attrs, "智慧")
    cognition = f"　{P.cognition(intel)}" if intel is not None else ""
    ego_max = f"/{cap}" if cap is not None else ""
    return (
        f"{name}：人性{p.humanity} 自我{p.ego}{ego_max} 狂气{p.madness}{mad}{cognition}"
        f"（本片段创伤已增加自我{p.segment_ego}/{P.MAX_SEGMENT_EGO}）"
    )


PERSONA_ITEM = OneOf(
    Pattern(
        regex=r"(创伤|安抚)\s*([0-9]{1,2})(?![0-9])",
        label="创伤N/安抚N",
        convert=lambda m: (m.group(1), int(m.group(2))),
    ),
    Pattern(
        regex=r"(人性|自我|狂气)([+-][0-9]{1,2})(?![0-9])",
        label="人性+N/自我-N/狂气+N",
        convert=lambda m: (m.group(1), int(m.group(2))),
    ),
    Choice(table={"片段": ("片段", 0), "新片段": ("片段", 0)}),
    label="创伤N/安抚N/人性±N/自我±N/狂气±N/片段",
)

persona = define(
    "人格",
    aliases=("persona",),
    summary="基础规则：人性/自我/狂气；狂气比自我高3+陷入<发狂>；.rc 技能 自我 消耗1点自我获得优势",
    detail=(
        "例 .人格、.人格 创伤2（狂气+2，自我同增，每片段最多+2）、.人格 安抚1（消耗人性解除等量狂气）、"
        ".人格 人性+1、.人格 片段（新片段）、.人格 哥布林: 狂气+3（GM）"
    ),
    system=SYS_NAME,
)


@persona.sub(
    params=[many("items", PERSONA_ITEM, required=False, label="创伤N/安抚N/人性±N…")],
    flags=[ACTOR],
    help="查看或改变人格",
    when_empty=True,
)
async def cmd_persona(call: Call, actor: str | None, items: list[tuple[str, int]]) -> list[Reply]:
    card = await own_card(call, actor)
    attrs = dict(card.attributes)
    p = before = P.Persona.of(attrs)
    cap = P.ego_cap(attrs)
    for key, n in items:
        if key == "创伤":
            p = P.trauma(p, n, cap)
        elif key == "安抚":
            p = P.soothe(p, n)
        elif key == "片段":
            p = replace(p, segment_ego=0)
        else:
            p = P.change(p, **{{"人性": "humanity", "自我": "ego", "狂气": "madness"}[key]: n}, cap=cap)
    if items:
        card = await write(call, card, p.card())
    text = persona_text(safe_name(card.name), dict(card.attributes), p)
    if p.mad and not before.mad:
        text += f"\n狂气比自我高3点或更多：陷入<发狂>，直到狂气降至自我（{p.ego}）或更低"
    elif before.mad and not p.mad:
        text += "\n狂气降至自我或更低：<发狂>解除"
    return [Reply.say(text)]


async def spend_ego(call: Call, actor: str | None) -> str:
    """002 自我: one 自我 for advantage on a skill check, unless it would leave her in <发狂>."""
    card = await own_card(call, actor)
    p = P.spend_ego(P.Persona.of(dict(card.attributes)))
    await write(call, card, p.card())
    return f"消耗1点自我（剩{p.ego}），获得优势"


# --------------------------------------------------------------------------- .属性
ATTR_OP = Pattern(
    regex=r"(力量|敏捷|体质|魄力|智慧|感悟)([+-])([0-9]{1,3})(?![0-9])",
    label="力量-3",
    convert=lambda m: (m.group(1), int(m.group(3)) * (1 if m.group(2) == "-" else -1)),
)
attr = define(
    "属性",
    summary="基础规则：战斗中属性降低（最低0；体质、感悟之外降至0<昏迷>，体质0<解体>，智慧0「无认知」）",
    detail="例 .属性 艾琳 力量-3（GM）、.属性 力量+3（恢复）；只记在参战者上，战后要保留请 .st 力量-3",
    system=SYS_NAME,
    group_only=True,
)


@attr.sub(params=[opt("who", Pattern(regex=r"[^\s+-]{1,20}(?=\s)", label="名称")), arg("op", ATTR_OP)])
async def cmd_attr(call: Call, who: str | None, op: tuple[str, int]) -> list[Reply]:
    state = need(await load(call))
    c = await find(call, state, who) if who is not None else find_me(state, call.ctx)
    await require_control(call, state, c, "改变属性")
    attrs = await card_attrs(call, state, c, raw=True)
    name, delta = op
    base = C.attribute_value(attrs, name)
    if base is None:
        raise InputSyntaxError(f"{c.shown} 的卡上没有{name}（.st {name} 12 录入）")
    loss = max(0, min(base, c.health.attr_loss.get(name, 0) + delta))
    state, events = await apply(call, lambda st: E.lose_attribute(need(st), c.id, name, loss, base - loss))
    text = "\n".join(line.strip() for line in health_lines(state, events, gm=False))
    if c.hidden:  # a hidden NPC's numbers are the GM's
        secret = "\n".join(line.strip() for line in health_lines(state, events, gm=True))
        return hidden_whisper(state, secret, sender=call.ctx.user_id)  # nothing in the group (issue 39)
    if not any(e.kind == "turn" for e in events):
        return [Reply.say(text)]
    return turn_replies(
        state, events
    )  # <解体> on her own turn: the next turn begins; the card lists the events too


__all__ = ["attr", "cmd_attr", "cmd_gauge", "cmd_persona", "gauge", "persona", "spend_ego", "spend_gauge"]
