"""Common commands every Chinese dice bot has: .r .rh .set .st .pc .nn .gm .bot .dismiss .help .undo."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from chronodice.core.args import Choice, Mention, OneOf, Pattern, Text, Word, arg, flag, many, opt
from chronodice.core.commands import NO_UNDO_SYSTEMS, UNDO_HIDDEN, Call, define
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.help_pages import help_page
from chronodice.core.permissions import Perm
from chronodice.core.reply import Reply
from chronodice.core.text import PREFIX_START
from chronodice.dice import (
    DiceLimitError,
    DiceValueError,
    distribution,
    parse,
    parse_command,
    roll_command,
    to_text,
)
from chronodice.dice.kinds import RollText
from chronodice.render.dice import format_odds, format_roll
from chronodice.rules.coc7.derived import Derived, missing_derived
from chronodice.store import CharacterRecord

from .card_access import as_member
from .characters import (
    AttributePairs,
    Pair,
    active_or_create,
    apply_pairs,
    attr_text,
    bind_here,
    check_name,
    dice_variables,
    resolve_character,
)
from .ext import help_line as ext_help_line
from .hidden import hidden_result
from .modes import (
    attribute_name,
    card_system_for,
    coc_answered,
    default_die,
    derived_note,
    group_mode,
    mode_line,
    st_card_system,
    st_guard,
    system_label,
    with_derived,
)
from .views import group_of

CONFIRM_WORDS = ("确认", "confirm", "yes", "y")
CONFIRM_TTL = 60.0

# ---------------------------------------------------------------------- dice
ROLL_DETAIL = (
    "NdM 掷N个M面骰；d 为本群默认骰（.set 设置）；d% 即 d100\n"
    "kN/khN 取最高N个，qN/klN 取最低N个，dhN/dlN 去掉最高/最低N个\n"
    "! 爆炸骰（掷出最大值再掷一次）；XaY 骰池（十面骰≥Y加骰，计≥8的成功数；X≤0 掷机运骰，如 .r 0a10）\n"
    "bN/pN 奖励骰/惩罚骰（d100 多掷N个十位骰取好/坏，如 .r b2、.rp）；d20优势/d20劣势 即 2d20k1/2d20q1\n"
    "NdF 命运骰（每颗 -1/0/+1，dF 即 4dF）\n"
    "+ - * /（x 也是乘，/ 向零取整）和括号；N#表达式 重复N次；可用角色卡属性名，如 .r 1d20+敏捷"
)
ROLL = [opt("line", RollText(), default="", label="表达式 理由")]

r = define("r", summary="掷骰，如 .r 3d6+2 侦查、.r 4d6k3、.r 2#d20", detail=ROLL_DETAIL)


@r.sub(params=ROLL, help="掷骰并显示过程；末尾加 ? 显示期望和概率（如 .r 4d6k3 ?）", when_empty=True)
async def cmd_r(call: Call, line: str) -> list[Reply]:
    stripped = line.rstrip()
    if stripped.endswith(("?", "？")):
        return [Reply.say(await _odds_text(call, stripped[:-1].strip()))]
    return [Reply.say(await _roll_text(call, line))]


async def _odds_text(call: Call, line: str) -> str:
    """``.r 4d6k3 ?``: the exact distribution the dice package computes, or a short refusal."""
    char = call.view.character if call.view is not None else None
    variables = dice_variables(char)
    faces = await default_die(call)
    parsed = parse_command(line, known=variables)
    tree = parsed.expr if parsed.expr is not None else parse(f"d{faces}")
    text = to_text(tree, faces)
    try:
        dist = distribution(tree, default_faces=faces, variables=variables)
    except (DiceLimitError, DiceValueError) as err:
        return f"「{text[:30]}」的概率算不出来：{err.message}"
    return format_odds(call.player_name, text, dist)


async def _roll_text(call: Call, line: str) -> str:
    char = call.view.character if call.view is not None else None
    out = roll_command(
        line,
        call.app.rng,
        default_faces=await default_die(call),
        variables=dice_variables(char),
    )
    return format_roll(call.player_name, out)


rh = define("rh", summary="暗骰：结果私聊发给你，群里只说掷了暗骰")


@rh.sub(params=ROLL, help="暗骰，结果私聊", when_empty=True)
async def cmd_rh(call: Call, line: str) -> list[Reply]:
    return hidden_result(call, await _roll_text(call, line), name=call.player_name)


# ---------------------------------------------------------------------- .st
def _attr_lines(attrs: dict[str, object]) -> str:
    if not attrs:
        return "（空）"
    return " ".join(attr_text(k, v) for k, v in attrs.items())


ATTR_NAME = Pattern(regex=r"[^\s,，、;]{1,20}", label="属性名")
WHO = opt("who", Mention(), label="@某人")
st = define(
    "st",
    summary="录入或查看当前角色的属性",
    detail=(
        "例：.st 力量60敏捷50 意志:40；.st 体力-5 修改；没有角色时自动以你的昵称建一张卡\n"
        "GM 可以 .st @某人 体力-5 修改别人在本群使用的角色"
    ),
)


@st.sub(
    params=[WHO, opt("pairs", AttributePairs(formulas=True))],
    help="录入或修改属性（体力-5 为修改，&手枪=1d10 为公式）",
)
async def st_set(call: Call, who: str | None, pairs: list[Pair] | None) -> list[Reply]:
    if pairs is None:
        if who is None:
            raise call.usage_error("请给出属性和数值")
        return await st_show(call, who, [])
    call = await as_member(call, who)
    store, ctx = call.app.store, call.ctx
    mode, char = await st_guard(call)
    names = [p[0] for p in pairs]
    if char is None:
        char = await active_or_create(
            store, ctx, call.name, system=card_system_for(mode, names), claim=call.claim
        )
    system = st_card_system(mode, names, char)  # another system's card: refused, never rewritten
    if char.system != system:
        char = await store.characters.update_character(
            char.id, lambda c: replace(c, system=system), claim=call.claim
        )
    pairs = [(attribute_name(char.system, mode, a), op, v) for a, op, v in pairs]
    derived: dict[str, Derived] = {}

    def write(c: CharacterRecord) -> CharacterRecord:
        attrs, found = with_derived(c.system, c.attributes, pairs)  # CoC 体力-2 starts from ⌊(体质+体型)/10⌋
        derived.update(found)
        return replace(c, attributes=apply_pairs(attrs, pairs))

    updated = await store.characters.update_character(char.id, write, claim=call.claim)
    changed: list[str] = []
    shown: set[str] = set()
    for attr, op, value in pairs:
        if op is None:
            if attr not in shown:  # a paste naming one attribute twice (san60 san值60) shows it once
                changed.append(attr_text(attr, updated.attributes[attr]))
            shown.add(attr)
        else:
            seed = derived.pop(attr, None)
            changed.append(
                f"{attr}{op}{value}→{updated.attributes[attr]}" + (derived_note(seed) if seed else "")
            )
    return [Reply.say(f"已录入 <{updated.name}>：" + " ".join(changed))]


MemberSt = Callable[[Call, str, list[Pair]], Awaitable[list[Reply] | None]]
MEMBER_ST: list[MemberSt] = []
"""Writers for systems whose ``.st`` answers some cards its own way (DnD5e's HP rules, added by
:mod:`chronodice.services.dnd5e.card`): each gives the replies of ``.st @who`` with the pairs, or
``None`` where the common ``.st`` answers that card."""


async def member_st(call: Call, who: str, pairs: list[Pair]) -> list[Reply]:
    """``.st @who`` with ``pairs`` as ``.st`` answers it for ``who``'s card here (``.team st``)."""
    for writer in MEMBER_ST:
        replies = await writer(call, who, pairs)
        if replies is not None:
            return replies
    return await st_set(call, who, pairs)


@st.sub("show", "list", params=[WHO, many("names", ATTR_NAME, required=False, label="属性")], help="查看属性")
async def st_show(call: Call, who: str | None, names: list[str]) -> list[Reply]:
    call = await as_member(call, who)
    uid = call.ctx.user_id
    char = await call.app.store.characters.active_character(uid, call.ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡，用 .st 力量60 录入或 .pc new 名字 新建")
    if names:
        mode = group_mode((await group_of(call)).settings)
        names = [attribute_name(char.system, mode, w) for w in names]
        missing = [w for w in names if w not in char.attributes]
        found = {w: char.attributes[w] for w in names if w in char.attributes}
        text = f"<{char.name}> " + _attr_lines(found)
        if missing:
            text += "\n没有属性：" + "、".join(missing[:10])
        return [Reply.say(text)]
    computed = missing_derived(char.attributes) if char.system == "coc7" else {}
    extra = "\n由属性算出（未录入）：" + " ".join(f"{k}:{v}" for k, v in computed.items()) if computed else ""
    return [Reply.say(f"<{char.name}> 的属性：\n{_attr_lines(char.attributes)}{extra}")]


@st.sub("del", "rm", params=[WHO, many("names", ATTR_NAME, label="属性")], help="删除属性")
async def st_del(call: Call, who: str | None, names: list[str]) -> list[Reply]:
    call = await as_member(call, who)
    uid = call.ctx.user_id
    store = call.app.store
    char = await store.characters.active_character(uid, call.ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡")
    mode = group_mode((await group_of(call)).settings)
    names = [attribute_name(char.system, mode, w) for w in names]
    missing = [w for w in names if w not in char.attributes]
    if missing:
        raise NotFound(f"<{char.name}> 没有属性：" + "、".join(missing[:10]))
    await store.characters.update_character(
        char.id,
        lambda c: replace(c, attributes={k: v for k, v in c.attributes.items() if k not in names}),
        claim=call.claim,
    )
    return [Reply.say(f"已删除 <{char.name}> 的 " + "、".join(names))]


@st.sub("clr", "clear", params=[WHO], help="清空全部属性")
async def st_clr(call: Call, who: str | None) -> list[Reply]:
    call = await as_member(call, who)
    uid = call.ctx.user_id
    store = call.app.store
    char = await store.characters.active_character(uid, call.ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡")
    await store.characters.update_character(char.id, lambda c: replace(c, attributes={}), claim=call.claim)
    return [Reply.say(f"已清空 <{char.name}> 的全部属性")]


# ---------------------------------------------------------------------- .pc
CHAR_NAME = Text(label="角色名", max_len=20)
CHAR_REF = OneOf(
    Pattern(regex=r"[0-9]{1,3}(?![0-9])", label="序号", convert=lambda m: m.group()), Text(label="角色名")
)
CONFIRM = flag("confirm", *CONFIRM_WORDS, label="确认")
pc = define("pc", summary="管理角色卡：列表、新建、在本群使用、改名、删除、查看")


def new_card_name(call: Call, name: str) -> str:
    name = check_name(name, "角色名")
    if name.isdigit():
        raise call.usage_error("角色名不能是纯数字")
    if name[:1] in PREFIX_START:
        raise call.usage_error("角色名不能以 . 或 。 开头")
    return name


@pc.sub("list", "ls", help="列出你的角色卡", when_empty=True)
async def pc_list(call: Call) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    chars = await store.characters.list_characters(ctx.user_id)
    if not chars:
        return [Reply.say("你还没有角色卡，用 .pc new 名字 新建")]
    active = await store.characters.active_character(ctx.user_id, ctx.scope)
    lines = [
        f"{'★' if active and c.id == active.id else '  '}{i}. {c.name}（{system_label(c.system)}）"
        for i, c in enumerate(chars, 1)
    ]
    return [Reply.say(f"{await call.app.display_name(ctx)} 的角色卡（★为本群使用中）：\n" + "\n".join(lines))]


@pc.sub("new", params=[arg("name", CHAR_NAME)], help="新建角色卡并在本群使用")
async def pc_new(call: Call, name: str) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    name = new_card_name(call, name)
    if len(await store.characters.list_characters(ctx.user_id)) >= 50:
        raise IllegalAction("每人最多50张角色卡，请先删除不用的")
    mode = group_mode((await group_of(call)).settings)
    char = await store.characters.create_character(
        ctx.user_id, name, system=card_system_for(mode, []), claim=call.claim
    )
    await bind_here(store, ctx, char.id, claim=call.claim)
    return [Reply.say(f"已新建角色 <{char.name}> 并在{'本群' if ctx.group_id else '此处'}使用")]


@pc.sub(
    "tag", "use", "switch", "load", params=[arg("ref", CHAR_REF, label="名字或序号")], help="在本群使用某张卡"
)
async def pc_tag(call: Call, ref: str) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    char = await resolve_character(store, ctx, ref)
    await bind_here(store, ctx, char.id, claim=call.claim)
    return [Reply.say(f"已在{'本群' if ctx.group_id else '此处'}使用角色 <{char.name}>")]


@pc.sub(
    "rename",
    "mv",
    params=[opt("old", Word(label="旧名")), arg("new", Word(label="新名"))],
    help="改名（不写旧名则改本群使用中的卡）",
)
async def pc_rename(call: Call, old: str | None, new: str) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    if old is None:
        char = await store.characters.active_character(ctx.user_id, ctx.scope)
        if char is None:
            raise NotFound("你在这里还没有使用中的角色")
    else:
        char = await resolve_character(store, ctx, old)
    new_name = new_card_name(call, new)
    await store.characters.update_character(char.id, lambda c: replace(c, name=new_name), claim=call.claim)
    return [Reply.say(f"已将 <{char.name}> 改名为 <{new_name}>")]


@pc.sub("del", "rm", params=[arg("ref", Word(label="名字或序号"))], flags=[CONFIRM], help="删除（需确认）")
async def pc_del(call: Call, ref: str, confirm: bool) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    char = await resolve_character(store, ctx, ref)
    key = f"pcdel:{ctx.user_id}"
    if not confirm:
        await store.housekeeping.put_pending(key, {"id": char.id}, CONFIRM_TTL, claim=call.claim)
        return [
            Reply.say(
                f"确定删除角色 <{char.name}>？删除后无法恢复。\n请在60秒内发送 .pc del {char.name} 确认"
            )
        ]
    pending = await store.housekeeping.take_pending(key, claim=call.claim)
    if not pending or pending.get("id") != char.id:
        return [Reply.say(f"确认已过期或不匹配，请先发送 .pc del {char.name}")]
    await store.characters.delete_character(char.id, claim=call.claim)
    return [Reply.say(f"已删除角色 <{char.name}>")]


@pc.sub("show", params=[opt("ref", CHAR_REF, label="名字或序号")], help="查看角色卡")
async def pc_show(call: Call, ref: str | None) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    char = (
        await resolve_character(store, ctx, ref)
        if ref
        else await store.characters.active_character(ctx.user_id, ctx.scope)
    )
    if char is None:
        raise NotFound("你在这里还没有使用中的角色")
    return [Reply.say(f"<{char.name}>（{system_label(char.system)}）\n{_attr_lines(char.attributes)}")]


# ---------------------------------------------------------------------- .nn
nn = define("nn", summary="设置你在本群的昵称；不带参数则清除")


@nn.sub(params=[opt("name", Text(label="昵称", max_len=20))], help="设置或清除昵称", when_empty=True)
async def cmd_nn(call: Call, name: str | None) -> list[Reply]:
    scope = call.ctx.group_id
    if not name:
        await call.app.store.groups.set_nickname(call.ctx.user_id, scope, None, claim=call.claim)
        return [Reply.say(f"已清除昵称，现在叫你 {await call.app.display_name(call.ctx)}")]
    name = check_name(name, "昵称")
    if name[:1] in PREFIX_START:
        raise call.usage_error("昵称不能以 . 或 。 等指令符号开头")
    await call.app.store.groups.set_nickname(call.ctx.user_id, scope, name, claim=call.claim)
    return [Reply.say(f"好的，以后叫你 {name}")]


# ---------------------------------------------------------------------- .bot / .dismiss
ON_OFF = Choice(
    {"on": True, "开": True, "开启": True, "off": False, "关": False, "关闭": False}, label="on/off"
)
bot = define("bot", summary="开关本群的骰娘（群主、管理员、GM）；关闭后只回应 .bot on", works_when_off=True)


@bot.sub(params=[opt("on", ON_OFF)], help="不带参数：查看状态", when_empty=True)
async def cmd_bot(call: Call, on: bool | None) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    if ctx.group_id is None:
        return [Reply.say("ChronoDice 时序骰娘，.help 查看指令")]
    group = await store.groups.get_group(ctx.group_id)
    if on is None:
        if not group.enabled:
            return []
        return [Reply.say("ChronoDice 时序骰娘：本群已开启。.help 查看指令")]
    if not group.enabled and not on:
        return []
    await call.app.require_gm(ctx, "开关骰娘")
    await store.groups.set_enabled(ctx.group_id, on, claim=call.claim)
    return [Reply.say("骰娘已在本群开启" if on else "骰娘已在本群关闭，发送 .bot on 重新开启")]


dismiss = define("dismiss", summary="让骰娘退出本群（群主、管理员、骰主；需确认）", group_only=True)


@dismiss.sub(
    flags=[CONFIRM], perm=Perm.ADMIN, what="让骰娘退群", help="需在60秒内再发 .dismiss 确认", when_empty=True
)
async def cmd_dismiss(call: Call, confirm: bool) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    assert ctx.group_id is not None
    key = f"dismiss:{ctx.group_id}"
    if confirm:
        if await store.housekeeping.take_pending(key, claim=call.claim) is None:
            return [Reply.say("确认已过期，请重新发送 .dismiss")]
        return [Reply(text="再见，各位！", leave_group=True)]
    await store.housekeeping.put_pending(key, {"by": ctx.user_id}, CONFIRM_TTL, claim=call.claim)
    return [Reply.say("确定让骰娘退出本群？请在60秒内发送 .dismiss 确认")]


# ---------------------------------------------------------------------- .help / .undo
help_ = define("help", summary="查看指令列表或某条指令的用法")


@help_.sub(
    params=[opt("name", Word(label="指令")), opt("word", Word(label="子命令或页码"))],
    help=".help 指令 [子命令] 查看详情；指令多时分页：.help init 2 看第2页",
    when_empty=True,
)
async def cmd_help(call: Call, name: str | None, word: str | None) -> list[Reply]:
    reg = call.app.registry
    if name:
        spec = reg.get(name)
        if spec is None:
            raise NotFound(f"没有指令「{name[:20]}」，发送 .help 查看全部")
        if spec.resolve is not None:  # the meaning it has here (.atk/.init in a DnD5e group: 5e's)
            spec = await spec.resolve(call.app, call.ctx, call.view, "") or spec
        return [Reply.say(help_page(spec, word))]
    lines = ["ChronoDice 指令（.help 指令名 查看详情）："]
    settings = (await group_of(call)).settings
    if call.ctx.group_id is not None:
        lines.append(mode_line(settings, await default_die(call)) + "（.set 修改）")
    for system, specs in reg.by_system().items():
        line = f"【{system}】" + " ".join("." + s.name for s in specs)
        if system == "CoC7" and not coc_answered(settings):
            line += "（本群模式下不回应，留给其他骰娘；.set coc7 开启）"
        if system == "DnD5e" and (mode := group_mode(settings)) is not None and mode.key == "dnd5e":
            line += " 以及本群的 .rc .st .ri .init .ed .atk（DnD5e 用法，.help atk 查看）"
        lines.append(line)
    lines.extend(line for line in [ext_help_line(settings)] if line)  # .ext: modules off here
    return [Reply.say("\n".join(lines))]


undo = define("undo", summary="撤销本群最近一条战斗/游戏操作（GM或操作者本人）")


@undo.sub(help="撤销最近一条操作", when_empty=True)
async def cmd_undo(call: Call) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    log = await store.history.session_log(ctx.scope, None, limit=200)
    pending = [e for e in log if not e.undone and e.system not in NO_UNDO_SYSTEMS]
    if not pending:
        return [Reply.say("没有可以撤销的操作")]
    last = pending[-1]
    if last.user_id != ctx.user_id and not await call.app.is_gm(ctx):
        raise IllegalAction("最近一条操作不是你做的，只有GM可以撤销别人的操作")
    # exactly the approved one
    result = await store.history.undo(ctx.scope, last.system, entry_id=last.id, claim=call.claim)
    if result is None:
        return [Reply.say("没有可以撤销的操作")]
    cards = ""
    if result.restored_characters:
        cards += "\n已恢复角色卡：" + "、".join(result.restored_characters)
    if result.stale_characters:
        cards += "\n角色卡之后又有改动，未恢复：" + "、".join(result.stale_characters)
    echo = f"已撤销：{result.command or '(无文本)'}"
    hidden = UNDO_HIDDEN.get(result.system)
    if hidden is not None and (hidden(result.state) or hidden(result.replaced)):
        # the command's text may name a hidden NPC or its numbers: only the undoer reads it
        public = "已撤销上一条操作（本场有隐藏单位，撤销的内容已私聊发给你）" + cards
        return [Reply.say(public), Reply.whisper(echo, fallback="（私聊发送失败：请加骰娘好友）")]
    return [Reply.say(echo + cards)]
