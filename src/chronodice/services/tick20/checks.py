""".rc: the D20 check (skills, attributes, 004 two-die checks, opposed checks)."""

from __future__ import annotations

import re

from chronodice.core.commands import Call, command
from chronodice.core.errors import NotFound
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20.modifiers import Modifier

from ._glue import (
    SYS_NAME,
)
from ._words import parse_edge_words, parse_mods, tokens

CHECK_USAGE = ".rc <技能/属性/修正> [目标值] [优势/劣势/被动] [±N类型] [对抗N]"


@command(
    "rc",
    usage=CHECK_USAGE,
    summary="D20刻度检定：.rc 运动 15 优势、.rc 先攻、.rc 被动 洞悉、.rc DEX+INS 13（004双骰）",
    detail=(
        "技能取角色卡的属性（属性/2−5）、熟练度×2、LV−4；±N可带类型（通用/环境/内在/状态），同类加值、减值各只取最大\n"
        "优势/劣势只多掷一枚D20，同时具有则抵消；被动检定骰值为10，优势+5、劣势−5\n"
        "成功度=判定值−目标值，≥10 大成功；失败度≥10 大失败；N1/N20 只在主动技能检定中 ∓10\n"
        "对抗N：以对方判定值N为目标（平手时发起者胜）"
    ),
    system=SYS_NAME,
)
async def cmd_rc(call: Call) -> list[Reply]:
    words = tokens(call.args)
    if not words:
        raise call.usage_error("请写出技能、属性或修正值")
    char = call.view.character if call.view is not None else None
    attrs = dict(char.attributes) if char is not None else {}
    adv, dis, passive, words = parse_edge_words(words)
    mods, words = parse_mods(words)
    opposed: int | None = None
    target: int | None = None
    rest: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("对抗", "vs") and i + 1 < len(words) and re.fullmatch(r"-?\d{1,3}", words[i + 1]):
            opposed = int(words[i + 1])
            i += 2
            continue
        if re.fullmatch(r"-?\d{1,3}", w) and rest:
            target = int(w)
        else:
            rest.append(w)
        i += 1
    if not rest:
        raise call.usage_error("请写出技能、属性或修正值")
    what = rest[0]
    reason = " ".join(rest[1:])[:30]
    two = re.fullmatch(r"([A-Za-z]{3}|d\d{1,3})\+([A-Za-z]{3}|d\d{1,3})", what)
    if two:
        sizes = tuple(
            int(p[1:]) if p.lower().startswith("d") and p[1:].isdigit() else C.attribute_die_004(attrs, p)
            for p in (two.group(1), two.group(2))
        )
        roll2 = C.roll_two_die(call.app.rng, (sizes[0], sizes[1]), mods)
        label = what.upper()
        return [
            Reply.say(R.two_die_text(call.name, label, roll2, opposed if opposed is not None else target))
        ]
    skill_mods: list[Modifier] = []
    skill = True
    if re.fullmatch(r"[+-]?\d{1,3}", what):
        skill_mods = [Modifier(int(what), source="")]
        label = "D20"
    elif what in C.ATTRIBUTES or any(what in v for v in C.ATTRIBUTES.values()):
        name = what if what in C.ATTRIBUTES else next(k for k, v in C.ATTRIBUTES.items() if what in v)
        value = C.attribute_value(attrs, name)
        if value is None:
            raise NotFound(f"角色卡上没有{name}（.st {name} 12 设置）")
        skill_mods = [Modifier(C.attribute_modifier(value), source=name)]
        skill = False
        label = name
    else:
        skill_name = C.canonical_skill(what)
        skill_mods = C.skill_modifiers(attrs, skill_name)
        label = what if what == skill_name else f"{what}（{skill_name}）"
    all_mods = [*skill_mods, *mods]
    roll = C.roll_d20(call.app.rng, all_mods, advantage=adv, disadvantage=dis, passive=passive, skill=skill)
    goal = opposed if opposed is not None else target
    judgement = C.judge(roll.total, goal) if goal is not None else None
    text = R.d20_text(
        call.name, label + (f"（{reason}）" if reason else ""), roll, judgement, R.mods_text(all_mods)
    )
    if opposed is not None:
        res = C.opposed(roll.total, opposed)
        text += "\n对抗：" + ("发起者胜" if res.actor_wins else "对方胜") + f"（差{res.margin:+d}）"
    return [Reply.say(text)]
