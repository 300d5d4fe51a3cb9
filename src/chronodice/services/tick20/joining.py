""".ri: initiative rolls and joining the combat (players with their cards, GM NPCs in batches)."""

from __future__ import annotations

import re
from typing import Any

from chronodice.core.commands import Call, command
from chronodice.core.errors import InputSyntaxError, NotPermitted
from chronodice.core.reply import Reply
from chronodice.dice import roll_command
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import Combat, InitRoll, Phase, Variant
from chronodice.rules.tick20.modifiers import Modifier, stack

from ._glue import (
    GM_WHO,
    MAX_BATCH,
    SYS_NAME,
    apply,
    each,
    fresh,
    is_gm,
    load,
    whisper_gms,
)
from ._words import parse_edge_words, parse_mods, tokens

RI_USAGE = ".ri [修正/=值/优势/劣势/被动/暗] [名称][, …]  例 .ri +3 哥布林、.ri =25 巢穴、.ri 3#卫兵"


def _roll_entry(call: Call, state: Combat, words: list[str]) -> tuple[str, dict[str, Any], str]:
    """Parse one ``.ri`` entry; returns (name, add_combatant kwargs, roll text)."""
    adv, dis, passive, words = parse_edge_words(words)
    mods, words = parse_mods(words)
    hidden = False
    rest: list[str] = []
    fixed: int | None = None
    for w in words:
        if w in ("暗", "隐藏"):
            hidden = True
        elif w.startswith("="):
            expr = w[1:]
            if re.fullmatch(r"-?\d{1,3}", expr):
                fixed = int(expr)
            else:
                out = roll_command(expr, call.app.rng)
                fixed = int(out.results[0].total)
        else:
            rest.append(w)
    name = "".join(rest)
    kwargs: dict[str, Any] = {"hidden": hidden}
    char = call.view.character if call.view is not None else None
    own = not name
    if own:
        name = char.name if char is not None else call.name
        kwargs["controller"] = call.ctx.user_id
    attrs = dict(char.attributes) if (char is not None and own) else {}
    if fixed is not None:
        kwargs["value"] = fixed
        kwargs["init_mod"] = stack(mods)
        return name, kwargs, f"={fixed}"
    if state.variant is Variant.SPD:
        sizes = (
            (C.attribute_die_004(attrs, "DEX"), C.attribute_die_004(attrs, "INS"))
            if attrs and {"DEX", "dex", "敏捷"} & set(attrs)
            else (6, 6)
        )
        roll2 = C.roll_two_die(call.app.rng, sizes, [Modifier(6, "环境"), *mods])
        kwargs["roll"] = InitRoll(
            dice=list(roll2.dice), die=sum(roll2.dice), total=roll2.total, two_die=True, doubles=roll2.doubles
        )
        extra = f" 双{roll2.doubles}" if roll2.doubles is not None else ""
        return (
            name,
            kwargs,
            f"d{sizes[0]}+d{sizes[1]}=[{roll2.dice[0]},{roll2.dice[1]}]{roll2.modifier:+d}={roll2.total}{extra}",
        )
    base_mods = C.skill_modifiers(attrs, "洞悉") if attrs else []
    roll = C.roll_d20(call.app.rng, [*base_mods, *mods], advantage=adv, disadvantage=dis, passive=passive)
    kwargs["roll"] = InitRoll(
        dice=list(roll.dice),
        die=roll.die,
        total=roll.total,
        nat=roll.nat,
        passive=roll.passive,
        edge=roll.edge,
    )
    dice = "被动10" if roll.passive else f"D20={'/'.join(map(str, roll.dice))}"
    nat = f"（{roll.nat}）" if roll.nat else ""
    return name, kwargs, f"{dice}{roll.modifier:+d}={roll.total}{nat}"


Plan = list[tuple[str, dict[str, Any], str]]
"""Combatants to add: (name, :func:`engine.add_combatant` keyword arguments, roll text)."""


def join_all(state: Combat, plan: Plan) -> E.Outcome:
    """Add every planned combatant in one transition."""
    return each(state, plan, lambda st, p: E.add_combatant(st, p[0], **p[1]))


def expand_names(name: str) -> list[str]:
    m = re.fullmatch(r"(\d{1,2})#(.+)", name)
    if not m:
        return [name]
    n = int(m.group(1))
    if not 1 <= n <= MAX_BATCH:
        raise InputSyntaxError(f"一次最多加入{MAX_BATCH}名")
    return [f"{m.group(2)}{chr(ord('a') + i)}" for i in range(n)]


@command(
    "ri",
    usage=RI_USAGE,
    summary="先攻检定并加入战斗（不写名称=自己的角色卡，基础：洞悉检定；速度：DEX+INS+6）",
    aliases=("先攻骰",),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_ri(call: Call) -> list[Reply]:
    state = await load(call)
    if state is None:
        state = fresh(call.ctx.user_id)
    entries = [e.split() for e in re.split(r"[,，;；]", call.args)] or [[]]
    if not entries:
        entries = [[]]
    gm = await is_gm(call, state)
    plan: Plan = []
    for words in entries:
        words = tokens(" ".join(words))
        name, kwargs, text = _roll_entry(call, state, words)
        if "controller" not in kwargs and not gm:
            raise NotPermitted(f"只有{GM_WHO}可以加入NPC（不写名称则以自己的角色加入）")
        names = expand_names(name)
        for i, n in enumerate(names):
            if i and "-各自" in call.args:
                _n2, kwargs2, text2 = _roll_entry(call, state, words)
                plan.append((n, kwargs2, text2))
            else:
                plan.append((n, dict(kwargs), text))
    if len(plan) > MAX_BATCH:
        raise InputSyntaxError(f"一次最多加入{MAX_BATCH}名")

    state, events = await apply(call, lambda st: join_all(st or fresh(call.ctx.user_id), plan))
    public, secret = [], []
    placed_words = {
        "next_round": "（下轮加入）",
        "this_tick": "（本刻加入）",
        "this_round": "",
        "setup": "",
        "no_turn": "",
    }
    for (name, kwargs, text), ev in zip(plan, [e for e in events if e.kind == "join"], strict=False):
        where = placed_words.get(ev.data.get("placed", ""), "")
        if kwargs.get("hidden"):
            public.append("??? 加入了先攻（暗）")
            secret.append(f"{name}：{text}")
        else:
            public.append(f"{name} 的先攻：{text}{where}")
    if state.phase is Phase.SETUP:
        visible = sum(1 for c in state.combatants if not c.hidden)
        public.append(f"共{visible}名参战者；GM 发送 .init start 开战")
    replies = [Reply.say("\n".join(public))]
    if secret:
        replies += whisper_gms(state, "暗先攻：\n" + "\n".join(secret), call.ctx.user_id)
    return replies
