"""Common commands every Chinese dice bot has: .r .rh .set .st .pc .nn .gm .bot .dismiss .help .undo."""

from __future__ import annotations

import re
from dataclasses import replace

from chronodice.core.commands import NO_UNDO_SYSTEMS, Call, command
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.reply import Reply
from chronodice.dice import roll_command
from chronodice.render.dice import format_roll

from .characters import (
    active_or_create,
    apply_pairs,
    bind_here,
    check_name,
    numeric_attributes,
    parse_attribute_pairs,
    resolve_character,
)

CONFIRM_WORDS = ("确认", "confirm", "yes", "y")
CONFIRM_TTL = 60.0
DEFAULT_DIE = 100
SYSTEM_NAMES = {"generic": "通用", "timeline": "时间线", "pool10": "无限恐怖", "tick20": "D20刻度"}


async def default_die(call: Call) -> int:
    group = call.view.group if call.view is not None and call.view.group is not None else None
    if group is None:
        group = await call.app.store.get_group(call.ctx.scope)
    return int(group.settings.get("default_die", DEFAULT_DIE))


# ---------------------------------------------------------------------- dice
@command(
    "r",
    usage=".r [表达式] [理由]",
    summary="掷骰，如 .r 3d6+2 侦查、.r 4d6k3、.r 2#d20",
    detail=(
        "NdM 掷N个M面骰；d 为本群默认骰（.set 设置）；d% 即 d100\n"
        "kN/khN 取最高N个，qN/klN 取最低N个，dhN/dlN 去掉最高/最低N个\n"
        "! 爆炸骰（掷出最大值再掷一次）；XaY 骰池（十面骰≥Y加骰，计≥8的成功数）\n"
        "+ - * / 和括号；N#表达式 重复N次；可用角色卡属性名，如 .r 1d20+敏捷"
    ),
)
async def cmd_r(call: Call) -> list[Reply]:
    return [Reply.say(await _roll_text(call))]


async def _roll_text(call: Call) -> str:
    char = call.view.character if call.view is not None else None
    out = roll_command(
        call.args,
        call.app.rng,
        default_faces=await default_die(call),
        variables=numeric_attributes(char),
    )
    return format_roll(call.name, out)


@command("rh", usage=".rh [表达式] [理由]", summary="暗骰：结果私聊发给你，群里只说掷了暗骰")
async def cmd_rh(call: Call) -> list[Reply]:
    text = await _roll_text(call)
    if call.ctx.group_id is None:
        return [Reply.say(text)]
    name = call.name
    return [
        Reply.say(f"{name} 进行了一次暗骰"),
        Reply.whisper(
            f"在群{call.ctx.group_id}中的暗骰：\n{text}",
            fallback=f"{name} 的暗骰结果无法私聊送达，请先加骰娘为好友",
        ),
    ]


@command("set", usage=".set <面数>", summary="设置本群默认骰的面数（如 .set 20，默认100）")
async def cmd_set(call: Call) -> list[Reply]:
    arg = call.args.strip().lower().removeprefix("d")
    if not arg:
        return [Reply.say(f"本群默认骰为 d{await default_die(call)}")]
    if not arg.isdigit() or not 1 <= int(arg) <= 1_000_000:
        raise call.usage_error("面数应为1到1000000之间的整数")
    if call.ctx.group_id is not None:
        await call.app.require_gm(call.ctx, "设置默认骰")
    faces = int(arg)
    await call.app.store.update_group_settings(call.ctx.scope, lambda s: {**s, "default_die": faces})
    return [Reply.say(f"已将默认骰设为 d{faces}")]


# ---------------------------------------------------------------------- .st
def _fmt_value(v: object) -> str:
    return str(v)


def _attr_lines(attrs: dict[str, object]) -> str:
    if not attrs:
        return "（空）"
    return " ".join(f"{k}:{_fmt_value(v)}" for k, v in attrs.items())


@command(
    "st",
    usage=".st 属性名数值… | .st show [属性] | .st del 属性… | .st clr",
    summary="录入或查看当前角色的属性",
    detail=(
        "例：.st 力量60敏捷50 意志:40；.st 体力-5 修改；没有角色时自动以你的昵称建一张卡\n"
        "GM 可以 .st @某人 体力-5 修改别人在本群使用的角色"
    ),
)
async def cmd_st(call: Call) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    args = call.args.strip()
    if not args and not ctx.at_ids:
        raise call.usage_error("请给出属性和数值")
    if ctx.at_ids and ctx.at_ids[0] != ctx.user_id:
        # A GM edits someone else's active character: .st @某人 体力-5
        await call.app.require_gm(ctx, "修改别人的角色卡")
        ctx = replace(ctx, user_id=ctx.at_ids[0], sender_name="", at_ids=())
        if await store.active_character(ctx.user_id, ctx.scope) is None:
            raise NotFound(f"{ctx.user_id} 在本群没有使用中的角色")
        if not args:
            args = "show"
    low = args.lower()
    name = await call.app.display_name(ctx)
    if low.startswith("show") or low.startswith("list"):
        char = await store.active_character(ctx.user_id, ctx.scope)
        if char is None:
            raise NotFound("你还没有角色卡，用 .st 力量60 录入或 .pc new 名字 新建")
        which = args[4:].strip()
        if which:
            wanted = [w for w in re.split(r"[\s,]+", which) if w]
            missing = [w for w in wanted if w not in char.attributes]
            found = {w: char.attributes[w] for w in wanted if w in char.attributes}
            text = f"<{char.name}> " + _attr_lines(found)
            if missing:
                text += "\n没有属性：" + "、".join(missing[:10])
            return [Reply.say(text)]
        return [Reply.say(f"<{char.name}> 的属性：\n{_attr_lines(char.attributes)}")]
    if low.startswith("del") or low.startswith("rm"):
        rest = args[3:] if low.startswith("del") else args[2:]
        wanted = [w for w in re.split(r"[\s,]+", rest.strip()) if w]
        if not wanted:
            raise call.usage_error("请给出要删除的属性名")
        char = await store.active_character(ctx.user_id, ctx.scope)
        if char is None:
            raise NotFound("你还没有角色卡")
        missing = [w for w in wanted if w not in char.attributes]
        if missing:
            raise NotFound(f"<{char.name}> 没有属性：" + "、".join(missing[:10]))
        await store.update_character(
            char.id,
            lambda c: replace(c, attributes={k: v for k, v in c.attributes.items() if k not in wanted}),
        )
        return [Reply.say(f"已删除 <{char.name}> 的 " + "、".join(wanted))]
    if low in ("clr", "clear"):
        char = await store.active_character(ctx.user_id, ctx.scope)
        if char is None:
            raise NotFound("你还没有角色卡")
        await store.update_character(char.id, lambda c: replace(c, attributes={}))
        return [Reply.say(f"已清空 <{char.name}> 的全部属性")]
    pairs = parse_attribute_pairs(args)
    char = await active_or_create(store, ctx, name)
    updated = await store.update_character(
        char.id, lambda c: replace(c, attributes=apply_pairs(c.attributes, pairs))
    )
    changed = []
    for attr, op, value in pairs:
        if op is None:
            changed.append(f"{attr}:{updated.attributes[attr]}")
        else:
            changed.append(f"{attr}{op}{value}→{updated.attributes[attr]}")
    return [Reply.say(f"已录入 <{updated.name}>：" + " ".join(changed))]


# ---------------------------------------------------------------------- .pc
@command(
    "pc",
    usage=".pc [list|new 名字|tag 名字或序号|rename [旧名] 新名|del 名字|show [名字]]",
    summary="管理角色卡：列表、新建、在本群使用、改名、删除、查看",
)
async def cmd_pc(call: Call) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    parts = call.args.split(maxsplit=1)
    sub = parts[0].lower() if parts else "list"
    rest = parts[1].strip() if len(parts) > 1 else ""
    if sub in ("list", "ls"):
        chars = await store.list_characters(ctx.user_id)
        if not chars:
            return [Reply.say("你还没有角色卡，用 .pc new 名字 新建")]
        active = await store.active_character(ctx.user_id, ctx.scope)
        lines = [
            f"{'★' if active and c.id == active.id else '  '}{i}. {c.name}（{SYSTEM_NAMES.get(c.system, c.system)}）"
            for i, c in enumerate(chars, 1)
        ]
        return [
            Reply.say(f"{await call.app.display_name(ctx)} 的角色卡（★为本群使用中）：\n" + "\n".join(lines))
        ]
    if sub == "new":
        name = check_name(rest, "角色名")
        if name.isdigit():
            raise call.usage_error("角色名不能是纯数字")
        if len(await store.list_characters(ctx.user_id)) >= 50:
            raise IllegalAction("每人最多50张角色卡，请先删除不用的")
        char = await store.create_character(ctx.user_id, name)
        await bind_here(store, ctx, char.id)
        return [Reply.say(f"已新建角色 <{char.name}> 并在{'本群' if ctx.group_id else '此处'}使用")]
    if sub in ("tag", "use", "switch"):
        if not rest:
            raise call.usage_error("请给出角色名或序号")
        char = await resolve_character(store, ctx, rest)
        await bind_here(store, ctx, char.id)
        return [Reply.say(f"已在{'本群' if ctx.group_id else '此处'}使用角色 <{char.name}>")]
    if sub in ("rename", "mv"):
        names = rest.split()
        if len(names) == 1:
            char = await store.active_character(ctx.user_id, ctx.scope)
            if char is None:
                raise NotFound("你在这里还没有使用中的角色")
            new_name = names[0]
        elif len(names) == 2:
            char = await resolve_character(store, ctx, names[0])
            new_name = names[1]
        else:
            raise call.usage_error("请给出新名字")
        new_name = check_name(new_name, "角色名")
        if new_name.isdigit():
            raise call.usage_error("角色名不能是纯数字")
        await store.update_character(char.id, lambda c: replace(c, name=new_name))
        return [Reply.say(f"已将 <{char.name}> 改名为 <{new_name}>")]
    if sub in ("del", "rm"):
        words = rest.split()
        if not words:
            raise call.usage_error("请给出要删除的角色名或序号")
        confirm = len(words) > 1 and words[-1].lower() in CONFIRM_WORDS
        ref = " ".join(words[:-1] if confirm else words)
        char = await resolve_character(store, ctx, ref)
        key = f"pcdel:{ctx.user_id}"
        if not confirm:
            await store.put_pending(key, {"id": char.id}, CONFIRM_TTL)
            return [
                Reply.say(
                    f"确定删除角色 <{char.name}>？删除后无法恢复。\n请在60秒内发送 .pc del {char.name} 确认"
                )
            ]
        pending = await store.take_pending(key)
        if not pending or pending.get("id") != char.id:
            return [Reply.say(f"确认已过期或不匹配，请先发送 .pc del {char.name}")]
        await store.delete_character(char.id)
        return [Reply.say(f"已删除角色 <{char.name}>")]
    if sub == "show":
        char = (
            await resolve_character(store, ctx, rest)
            if rest
            else await store.active_character(ctx.user_id, ctx.scope)
        )
        if char is None:
            raise NotFound("你在这里还没有使用中的角色")
        return [
            Reply.say(
                f"<{char.name}>（{SYSTEM_NAMES.get(char.system, char.system)}）\n{_attr_lines(char.attributes)}"
            )
        ]
    raise call.usage_error(f"未知子命令「{sub[:10]}」")


# ---------------------------------------------------------------------- .nn
@command("nn", usage=".nn [昵称]", summary="设置你在本群的昵称；不带参数则清除")
async def cmd_nn(call: Call) -> list[Reply]:
    name = call.args.strip()
    scope = call.ctx.group_id
    if not name:
        await call.app.store.set_nickname(call.ctx.user_id, scope, None)
        return [Reply.say(f"已清除昵称，现在叫你 {await call.app.display_name(call.ctx)}")]
    name = check_name(name, "昵称")
    await call.app.store.set_nickname(call.ctx.user_id, scope, name)
    return [Reply.say(f"好的，以后叫你 {name}")]


# ---------------------------------------------------------------------- .gm
def _targets(call: Call, rest: str) -> list[str]:
    ids = list(call.ctx.at_ids)
    ids += re.findall(r"\d{5,12}", rest)
    return list(dict.fromkeys(ids))


@command("gm", usage=".gm add @某人 | .gm del @某人 | .gm list", summary="任命或撤销本群GM", group_only=True)
async def cmd_gm(call: Call) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    assert ctx.group_id is not None
    parts = call.args.split(maxsplit=1)
    sub = parts[0].lower() if parts else "list"
    rest = parts[1] if len(parts) > 1 else ""
    if sub in ("list", "ls"):
        group = await store.get_group(ctx.group_id)
        if not group.gms:
            return [Reply.say("本群没有任命的GM（群主和管理员默认有GM权限）")]
        names = [await call.app.display_name(ctx, uid) for uid in group.gms]
        return [
            Reply.say(
                "本群GM："
                + "、".join(f"{n}({u})" if n != u else u for n, u in zip(names, group.gms, strict=True))
            )
        ]
    if sub in ("add", "del", "rm"):
        call.app.require_admin(ctx, "任命或撤销GM")
        targets = _targets(call, rest)
        if not targets:
            raise call.usage_error("请@要任命或撤销的人")
        done = []
        for uid in targets[:10]:
            ok = (
                await store.add_gm(ctx.group_id, uid, ctx.user_id)
                if sub == "add"
                else await store.remove_gm(ctx.group_id, uid)
            )
            if ok:
                done.append(uid)
        verb = "任命为GM" if sub == "add" else "撤销GM"
        if not done:
            return [Reply.say("没有变化（已经是/不是GM）")]
        return [Reply.say(f"已{verb}：" + "、".join(done))]
    raise call.usage_error(f"未知子命令「{sub[:10]}」")


# ---------------------------------------------------------------------- .bot / .dismiss
@command(
    "bot",
    usage=".bot [on|off]",
    summary="开关本群的骰娘（群主、管理员、GM）；关闭后只回应 .bot on",
    works_when_off=True,
)
async def cmd_bot(call: Call) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    arg = call.args.strip().lower()
    if ctx.group_id is None:
        return [Reply.say("ChronoDice 时序骰娘，.help 查看指令")]
    group = await store.get_group(ctx.group_id)
    if arg not in ("on", "off"):
        if not group.enabled:
            return []
        if arg:
            raise call.usage_error("只能是 on 或 off")
        return [Reply.say("ChronoDice 时序骰娘：本群已开启。.help 查看指令")]
    if not group.enabled and arg == "off":
        return []
    await call.app.require_gm(ctx, "开关骰娘")
    await store.set_enabled(ctx.group_id, arg == "on")
    return [Reply.say("骰娘已在本群开启" if arg == "on" else "骰娘已在本群关闭，发送 .bot on 重新开启")]


@command(
    "dismiss",
    usage=".dismiss [确认]",
    summary="让骰娘退出本群（群主、管理员、骰主；需确认）",
    group_only=True,
)
async def cmd_dismiss(call: Call) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    assert ctx.group_id is not None
    call.app.require_admin(ctx, "让骰娘退群")
    key = f"dismiss:{ctx.group_id}"
    if call.args.strip().lower() in CONFIRM_WORDS:
        if await store.take_pending(key) is None:
            return [Reply.say("确认已过期，请重新发送 .dismiss")]
        return [Reply(text="再见，各位！", leave_group=True)]
    if call.args.strip():
        raise call.usage_error("只能跟「确认」")
    await store.put_pending(key, {"by": ctx.user_id}, CONFIRM_TTL)
    return [Reply.say("确定让骰娘退出本群？请在60秒内发送 .dismiss 确认")]


# ---------------------------------------------------------------------- .help / .undo
@command("help", usage=".help [指令]", summary="查看指令列表或某条指令的用法", works_when_off=False)
async def cmd_help(call: Call) -> list[Reply]:
    reg = call.app.registry
    arg = call.args.strip()
    if arg:
        spec = reg.get(arg.split()[0])
        if spec is None:
            raise NotFound(f"没有指令「{arg[:20]}」，发送 .help 查看全部")
        return [Reply.say(spec.help_text())]
    lines = ["ChronoDice 指令（.help 指令名 查看详情）："]
    for system, specs in reg.by_system().items():
        lines.append(f"【{system}】" + " ".join("." + s.name for s in specs))
    return [Reply.say("\n".join(lines))]


@command("undo", usage=".undo", summary="撤销本群最近一条战斗/游戏操作（GM或操作者本人）")
async def cmd_undo(call: Call) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    if call.args.strip():
        raise call.usage_error(".undo 不带参数")
    log = await store.session_log(ctx.scope, None, limit=200)
    pending = [e for e in log if not e.undone and e.system not in NO_UNDO_SYSTEMS]
    if not pending:
        return [Reply.say("没有可以撤销的操作")]
    last = pending[-1]
    if last.user_id != ctx.user_id and not await call.app.is_gm(ctx):
        raise IllegalAction("最近一条操作不是你做的，只有GM可以撤销别人的操作")
    result = await store.undo(ctx.scope, last.system)
    if result is None:
        return [Reply.say("没有可以撤销的操作")]
    text = f"已撤销：{result.command or '(无文本)'}"
    if result.restored_characters:
        text += "\n已恢复角色卡：" + "、".join(result.restored_characters)
    if result.stale_characters:
        text += "\n角色卡之后又有改动，未恢复：" + "、".join(result.stale_characters)
    return [Reply.say(text)]
