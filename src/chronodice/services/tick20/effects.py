"""Effects on combatants: ``.init eff`` (with durations and flags), ``.init mod`` (an initiative
modifier as an effect), ``.init re`` (remove) and ``.init focus`` (【聚焦】)."""

from __future__ import annotations

from typing import Any

from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound, NotPermitted
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.durations import DURATION_HELP, looks_like_duration, parse_duration
from chronodice.rules.tick20.model import Combat, InitMod
from chronodice.rules.tick20.modifiers import parse_mod_type

from ._glue import (
    GM_WHO,
    apply,
    controls,
    each,
    is_gm,
    load,
    need,
    require_control,
    require_gm,
    target_of,
    whisper_gms,
)
from ._words import MOD_RE, split_targets


def _duration_and_flags(call: Call, words: list[str]) -> tuple[Any, dict[str, Any], list[str]]:
    """Pull the duration word and ``-源/-锚/-先攻/-专注/-父/-说明/暗/-replace`` flags out of words."""
    flags: dict[str, Any] = {}
    dur_word = ""
    rest: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        if w in ("-源", "-src") and nxt:
            flags["source"] = nxt
            i += 1
        elif w in ("-锚", "-anchor") and nxt:
            flags["anchor"] = nxt
            i += 1
        elif w in ("-先攻", "-init") and nxt:
            m = MOD_RE.match(nxt)
            if not m:
                raise InputSyntaxError("先攻修正格式：-先攻 -4状态")
            flags["init_mod"] = InitMod(value=int(m.group(1)), type=parse_mod_type(m.group(2) or ""))
            i += 1
        elif w in ("-父", "-parent") and nxt:
            flags["parent"] = nxt
            i += 1
        elif w in ("-说明", "-desc") and nxt:
            flags["description"] = " ".join(words[i + 1 :])
            break
        elif w in ("-专注", "专注"):
            flags["concentration"] = True
        elif w in ("-replace", "-替换"):
            flags["replace"] = True
        elif w in ("暗", "-暗"):
            flags["hidden"] = True
        elif w in ("-开始",):
            flags["boundary"] = "start"
        elif w in ("-结束",):
            flags["boundary"] = "end"
        elif not dur_word and looks_like_duration(w):
            dur_word = w
        else:
            rest.append(w)
        i += 1
    duration = parse_duration(dur_word, call.app.rng)
    if "boundary" in flags:
        duration = duration.model_copy(update={"boundary": flags.pop("boundary")})
    if flags.pop("hidden", False):
        duration = duration.model_copy(update={"hidden": True})
    return duration, flags, rest


async def init_eff(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) < 2:
        raise InputSyntaxError(".init eff <目标[;目标]> <效果名> [时长] [-源 X] [-锚 X] [-先攻 ±n类型] [暗]")
    state = need(await load(call))
    targets = [target_of(state, call.ctx, t) for t in split_targets(words[0])]
    name = words[1]
    duration, flags, extra = _duration_and_flags(call, words[2:])
    if extra:
        raise InputSyntaxError(f"不认识「{' '.join(extra)}」\n{DURATION_HELP}")
    gm = await is_gm(call, state)
    if not gm and any(not controls(call.ctx, t) for t in targets):
        raise NotPermitted(f"只能给自己的角色添加效果；给他人需要{GM_WHO}")
    source = E.find(state, flags.pop("source")).id if "source" in flags else None
    if source is None:
        mine = [c for c in state.combatants if c.controller == call.ctx.user_id]
        source = mine[0].id if mine and not gm else state.current if gm and state.current else None
    if "parent" in flags:
        owner, _, effect_name = str(flags.pop("parent")).partition("/")
        holder = E.find(state, owner)
        parents = [e for e in state.effects if e.bearer == holder.id and e.name == effect_name]
        if not parents:
            raise NotFound(f"{holder.name} 身上没有效果「{effect_name}」（-父 目标/效果名）")
        flags["parent"] = parents[0].id
    anchor = E.find(state, flags.pop("anchor")).id if "anchor" in flags else None
    if anchor is not None:
        duration = duration.model_copy(update={"anchor": anchor})

    def fn(st: Combat | None) -> E.Outcome:
        return each(
            need(st), targets, lambda s, t: E.add_effect(s, t.id, name, duration, source=source, **flags)
        )

    state, events = await apply(call, fn)
    lines = []
    for ev in events:
        if ev.kind == "effect_add":
            dur = "?（暗）" if ev.data["hidden"] else R.format_duration(duration)
            lines.append(f"{R.name_of(state, ev.data['bearer'])} 获得「{name}」（{dur}）")
        elif ev.kind == "not_stacked":
            kept = "保留原有效果（剩余时间更长）" if ev.data["kept"] == "old" else "以新效果替换"
            lines.append(f"{R.name_of(state, ev.data['bearer'])} 已有同名效果「{name}」：{kept}")
    for ev in events:
        if ev.kind == "init_mod":
            c = state.get(ev.data["cid"])
            lines.append(f"{R.name_of(state, c.id)} 先攻{ev.data['delta']:+d} → {R.value_text(state, c)}")
    lines += R.event_lines(state, [e for e in events if e.kind == "lost_turn"])
    replies = [Reply.say("\n".join(lines))]
    if duration.hidden:
        replies += whisper_gms(
            state,
            f"暗时长：「{name}」{R.format_duration(duration.model_copy(update={'hidden': False}))}",
            call.ctx.user_id,
        )
    return replies


async def init_mod(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) < 2:
        raise InputSyntaxError(".init mod <名称> ±n [通用/环境/内在/状态] [时长]")
    m = MOD_RE.match(
        words[1] + (words[2] if len(words) > 2 and words[2] in ("通用", "环境", "内在", "状态") else "")
    )
    if not m:
        raise InputSyntaxError(".init mod <名称> ±n [通用/环境/内在/状态] [时长]")
    kind = parse_mod_type(m.group(2) or "")
    tail = words[3:] if len(words) > 2 and words[2] in ("通用", "环境", "内在", "状态") else words[2:]
    label = f"先攻{int(m.group(1)):+d}{kind}"
    return await init_eff(call, f"{words[0]} {label} {' '.join(tail)} -先攻 {m.group(1)}{kind}")


async def init_re(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if not words:
        raise InputSyntaxError(".init re <目标> [效果名|全部 确认]")
    state = need(await load(call))
    c = target_of(state, call.ctx, words[0])
    if not controls(call.ctx, c):
        await require_gm(call, state, "移除他人的效果")
    name: str | None = words[1] if len(words) > 1 else None
    if name in (None, "全部", "all"):
        if "确认" not in words:
            raise IllegalAction(f"将移除 {c.name} 的全部效果；确认请发送 .init re {words[0]} 全部 确认")
        name = None
    state, events = await apply(call, lambda st: E.remove_effect(need(st), c.id, name))
    gone = [e.data["effect"] for e in events if e.kind == "effect_end"]
    return [Reply.say(f"{R.name_of(state, c.id)} 移除了：{'，'.join(gone)}")]


async def init_focus(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) != 2:
        raise InputSyntaxError(".init focus <目标> <效果名>")
    state = need(await load(call))
    c = target_of(state, call.ctx, words[0])
    await require_control(call, state, c, "聚焦")
    state, events = await apply(call, lambda st: E.focus(need(st), c.id, words[1]))
    end = next(e.data["end_round"] for e in events if e.kind == "focused")
    return [Reply.say(f"【聚焦】{R.name_of(state, c.id)} 的「{words[1]}」持续至第{end}轮结束")]
