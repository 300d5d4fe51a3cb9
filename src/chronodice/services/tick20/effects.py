"""Effects on combatants: ``.init eff`` (with durations and flags), ``.init mod`` (an initiative
modifier as an effect), ``.init re`` (remove) and ``.init focus`` (【聚焦】)."""

from __future__ import annotations

from typing import Any

from chronodice.core.args import Choice, Mod, arg, opt
from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction, NotFound, NotPermitted
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.durations import parse_duration
from chronodice.rules.tick20.model import Combat, InitMod
from chronodice.rules.tick20.modifiers import MOD_TYPES, parse_mod_type

from ._glue import (
    GM_WHO,
    apply,
    controls,
    each,
    find,
    gm,
    load,
    must_be_gm,
    need,
    require_control,
)
from .kinds import COMBATANT, CONFIRM, EFF_FLAGS, EFFECT_NAME, TYPED_MOD, Duration, Targets
from .tracker import init
from .views import hidden_whisper

EFF_PARAMS = [arg("targets", Targets()), arg("name", EFFECT_NAME), opt("duration", Duration())]


@init.sub("eff", "效果", params=EFF_PARAMS, flags=EFF_FLAGS, help="添加效果（给他人需要 GM）")
async def init_eff(
    call: Call,
    targets: list[str],
    name: str,
    duration: str | None,
    source: str | None = None,
    anchor: str | None = None,
    init_mod: Mod | None = None,
    parent: tuple[str, str] | None = None,
    description: str | None = None,
    concentration: bool = False,
    replace: bool = False,
    hidden: bool = False,
    boundary: str | None = None,
    check_mod: Mod | None = None,
    edge: str | None = None,
) -> list[Reply]:
    state = need(await load(call))
    bearers = [await find(call, state, t) for t in targets]
    dur = parse_duration(duration or "", call.app.rng)
    if boundary is not None:
        dur = dur.model_copy(update={"boundary": boundary})
    if hidden:
        dur = dur.model_copy(update={"hidden": True})
    flags = _effect_flags(
        init_mod, check_mod, edge, description, concentration=concentration, replace=replace
    )
    is_gm = await gm(call, state)
    if not is_gm and any(not controls(call.ctx, t) for t in bearers):
        raise NotPermitted(f"只能给自己的角色添加效果；给他人需要{GM_WHO}")
    src = await _effect_source(call, state, source, is_gm)
    if parent is not None:
        owner, effect_name = parent
        holder = await find(call, state, owner)
        parents = [e for e in state.effects if e.bearer == holder.id and e.name == effect_name]
        if not parents:
            raise NotFound(f"{holder.name} 身上没有效果「{effect_name}」（-父 目标/效果名）")
        flags["parent"] = parents[0].id
    if anchor is not None:
        dur = dur.model_copy(update={"anchor": (await find(call, state, anchor)).id})

    def fn(st: Combat | None) -> E.Outcome:
        return each(need(st), bearers, lambda s, t: E.add_effect(s, t.id, name, dur, source=src, **flags))

    state, events = await apply(call, fn)
    return _effect_replies(call, state, events, name, dur, src, flags)


def _effect_flags(
    init_mod: Mod | None,
    check_mod: Mod | None,
    edge: str | None,
    description: str | None,
    *,
    concentration: bool,
    replace: bool,
) -> dict[str, Any]:
    """The options an effect is added with, only those given (``E.add_effect``'s keywords)."""
    flags: dict[str, Any] = {}
    if init_mod is not None:
        flags["init_mod"] = InitMod(value=init_mod.value, type=parse_mod_type(init_mod.type))
    if check_mod is not None:
        flags["check_mod"] = InitMod(value=check_mod.value, type=parse_mod_type(check_mod.type))
    if edge is not None:
        flags["edge"] = edge
    if description is not None:
        flags["description"] = description
    if concentration:
        flags["concentration"] = True
    if replace:
        flags["replace"] = True
    return flags


async def _effect_source(call: Call, state: Combat, source: str | None, is_gm: bool) -> str | None:
    """Who the effect comes from: ``-源 X`` when given; a player's own character; otherwise
    nobody (the GM).  Never whoever happens to be current: a GM adding 眩晕 during 哥布林's turn
    is not 哥布林 stunning someone."""
    if source is not None:
        return (await find(call, state, source)).id
    if is_gm:
        return None
    mine = [c for c in state.combatants if c.controller == call.ctx.user_id]
    return mine[0].id if mine else None


def check_mod_of(flags: dict[str, Any]) -> tuple[InitMod | None, str | None]:
    """What an effect being added does to checks (for its reply)."""
    return flags.get("check_mod"), flags.get("edge")


def _effect_replies(
    call: Call,
    state: Combat,
    events: list[Any],
    name: str,
    dur: Any,
    src: str | None,
    flags: dict[str, Any] | None = None,
) -> list[Reply]:
    """What was added, to whom, from whom.  Lines about a hidden bearer (its effect, its new
    initiative) and hidden durations go to the GM privately; the group gets the rest."""
    plain, secret, hidden_seen = [], [], False
    flags = flags or {}
    real = R.format_duration(dur.model_copy(update={"hidden": False}))
    for ev in events:
        cid = ev.data.get("bearer") or ev.data.get("cid")
        bearer = state.maybe(cid)
        hidden = bearer is not None and bearer.hidden
        who = R.name_of(state, cid, hidden)
        by = f"，来源：{R.name_of(state, src, hidden)}" if src is not None and src != cid else ""
        if ev.kind == "effect_add":
            shown = real if hidden else "?（暗）" if ev.data["hidden"] else R.format_duration(dur)
            line = f"{who} 获得「{name}」（{shown}{by}）{R.effect_check_text(check_mod_of(flags))}"
        elif ev.kind == "not_stacked":
            kept = "保留原有效果（剩余时间更长）" if ev.data["kept"] == "old" else "以新效果替换"
            line = f"{who} 已有同名效果「{name}」：{kept}"
        elif ev.kind == "init_mod" and bearer is not None:
            line = f"{who} 先攻{ev.data['delta']:+d} → {R.value_text(state, bearer)}"
        elif ev.kind == "lost_turn":
            line = "\n".join(R.event_lines(state, [ev], gm=hidden))
        elif ev.kind == "exhausted":  # 002 精力值: <力竭> from another cause sets SP to 0
            line = f"{who} 因其他原因陷入<力竭>：SP {ev.data['before']}→0/{ev.data['sp_max']}"
        else:
            continue
        if hidden:
            hidden_seen = True
            secret.append(line)
        else:
            plain.append(line)
    replies = [Reply.say("\n".join(plain))] if plain else []  # a hidden bearer: no line at all (issue 39)
    if dur.hidden and not hidden_seen:
        secret.append(f"暗时长：「{name}」{real}")
    if secret:
        replies += hidden_whisper(state, "\n".join(secret), sender=call.ctx.user_id)
    return replies


MOD_TYPE = Choice(table={t: t for t in MOD_TYPES}, label="通用/环境/内在/状态")
EFF_FLAGS_NO_INIT = [f for f in EFF_FLAGS if f.name != "init_mod"]


@init.sub(
    "mod",
    "修正",
    params=[
        arg("targets", Targets(label="名称")),
        arg("mod", TYPED_MOD),
        opt("type", MOD_TYPE),
        opt("duration", Duration()),
    ],
    flags=EFF_FLAGS_NO_INIT,
    help="带类型的先攻修正（记为效果）",
)
async def init_mod(
    call: Call, targets: list[str], mod: Mod, type: str | None, duration: str | None, **flags: Any
) -> list[Reply]:
    kind = parse_mod_type(type or mod.type)
    label = f"先攻{mod.value:+d}{kind}"
    return await init_eff(call, targets, label, duration, init_mod=Mod(mod.value, kind), **flags)


@init.sub(
    "re",
    "移除效果",
    params=[arg("who", COMBATANT), opt("effect", EFFECT_NAME)],
    flags=[CONFIRM],
    help="移除一个效果；「全部 确认」移除全部",
)
async def init_re(call: Call, who: str, effect: str | None, confirm: bool) -> list[Reply]:
    state = need(await load(call))
    c = await find(call, state, who)
    if not controls(call.ctx, c):
        await must_be_gm(call, state, "移除他人的效果")
    name: str | None = effect
    if name in (None, "全部", "all"):
        if not confirm:
            raise IllegalAction(f"将移除 {c.name} 的全部效果；确认请发送 .init re {who} 全部 确认")
        name = None
    state, events = await apply(call, lambda st: E.remove_effect(need(st), c.id, name))
    gone = [e.data["effect"] for e in events if e.kind == "effect_end"]
    text = f"{c.name} 移除了：{'，'.join(gone)}"
    if c.hidden:  # what a hidden combatant had is the GM's (issue 39: nothing in the group)
        return hidden_whisper(state, text, sender=call.ctx.user_id)
    return [Reply.say(text)]


@init.sub(
    "focus", "聚焦", params=[arg("who", COMBATANT), arg("effect", EFFECT_NAME)], help="【聚焦】延长焦点效果"
)
async def init_focus(call: Call, who: str, effect: str) -> list[Reply]:
    state = need(await load(call))
    c = await find(call, state, who)
    await require_control(call, state, c, "聚焦")
    state, events = await apply(call, lambda st: E.focus(need(st), c.id, effect))
    end = next(e.data["end_round"] for e in events if e.kind == "focused")
    return [Reply.say(f"【聚焦】{R.name_of(state, c.id)} 的「{effect}」持续至第{end}轮结束")]
