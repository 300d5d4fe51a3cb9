"""TimeLine (时间线) commands: MayuriBot's command set on the shared store, plus what it lacked.

Parity commands (``rules/timeline.md`` §4, §9): ``.TLsetup .chr .lv .crd .buff .dr .setupWP .wp
.tar .ex .neg .pre .bat`` with MayuriBot's aliases (``.ch .d .ta .bu .buf .ne .pr .ba``).  New:
``.coop`` (协同检定), ``.opp`` (对抗检定 adjudication), ``.clash`` (交互) and ``.tlconf`` (group
options: open GM-only commands to everyone, sheet-style display).

Where things live:

* characters: ``CharacterRecord`` with ``system="timeline"``, ``data["timeline"]`` = the engine's
  :class:`~chronodice.rules.timeline.character.TLCharacter`; the active one per (user, group)
  is the store binding (``.chr k`` binds in this group);
* target value, negotiation counterpart and options: group settings under ``"timeline"``;
* the battle: session ``(scope, "timeline")`` holding a
  :class:`~chronodice.rules.timeline.battle.BattleState`, so ``.undo`` reverts the last timeline
  command.  Artillery ammunition is kept in the battle while it runs and written back to the
  character on ``.bat out`` / ``.bat end``.

Short aliases (``.d``, ``.ch`` …) answer only when what follows looks like their arguments, so
``.draw``, ``.chat`` or ``.dice`` meant for other bots are ignored (MayuriBot answered them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from chronodice.core.commands import Call, command
from chronodice.core.errors import ChronoDiceError, IllegalAction, InputSyntaxError, NotFound
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.attributes import CN, GROUPS, lookup_attribute, lookup_range, range_covers
from chronodice.rules.timeline.character import (
    TLCharacter,
    add_buff,
    add_reduction,
    add_weapon,
    change_resource,
    delete_buff,
    delete_reduction,
    delete_weapon,
    import_sheet,
    reset_resources,
    select_weapon,
    set_ammo,
    set_level,
)
from chronodice.rules.timeline.checks import (
    check_rate,
    cooperative_rate,
    impact_for,
    interaction,
    negotiation_rate,
    opposed_winner,
    ratio,
    roll_check,
    sheet_windup,
    target_value,
    windup,
)
from chronodice.rules.timeline.importing import SETUPWP_USAGE, TLSETUP_USAGE, parse_setupwp, parse_tlsetup
from chronodice.rules.timeline.modifiers import (
    BUFF_TYPE_CN,
    BUFF_USAGE,
    DR_USAGE,
    make_buff,
    make_reduction,
    parse_dr_range,
    resource_change,
)
from chronodice.rules.timeline.rounding import fmt, r0
from chronodice.store import CharacterRecord

from .characters import bind_here, check_name

SYSTEM = "timeline"
SYS_CN = "时间线"
T = TypeVar("T")
_NUM = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_GLUED = re.compile(r"^([^\d\s.+-]+)([\d.]+[tT]?)$")


# ====================================================================== helpers
def _num(text: str) -> float | None:
    text = text.strip()
    if not _NUM.match(text) or len(text) > 15:
        return None
    return float(text)


def _index(text: str) -> int:
    value = _num(text)
    if value is None or value != int(value):
        raise InputSyntaxError("序号错误× 应为整数")
    return int(value)


def _glued_alias(call: Call, keywords: tuple[str, ...] = ()) -> bool:
    """True when the root swallowed another bot's command (``.draw 3`` → ``.dr`` + ``aw 3``).

    The argument starts with ASCII letters that are none of the command's English keywords, and
    fewer than three words follow (a real use with an English name has more: ``.dr armor -hp 100d``).
    """
    if call.spec is None:
        return False
    first = call.raw_args[:1]
    if not (first.isascii() and first.isalpha()):
        return False
    low = call.raw_args.lower()
    if any(low.startswith(k) for k in keywords):
        return False
    return len(call.args.split()) < 3


async def _settings(call: Call) -> dict[str, Any]:
    group = await call.app.store.get_group(call.ctx.scope)
    return dict(group.settings.get(SYSTEM, {}))


async def _update_settings(call: Call, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    def outer(settings: dict[str, Any]) -> dict[str, Any]:
        return {**settings, SYSTEM: fn(dict(settings.get(SYSTEM, {})))}

    await call.app.store.update_group_settings(call.ctx.scope, outer)


async def _display(call: Call) -> view.Display:
    return view.Display(sheet=bool((await _settings(call)).get("sheet", False)))


async def _require_gm_unless_open(call: Call, what: str) -> None:
    if (await _settings(call)).get("open"):
        return
    await call.app.require_gm(call.ctx, what)


def _load(rec: CharacterRecord) -> TLCharacter:
    return TLCharacter.from_dict(rec.data[SYSTEM])


async def _active(call: Call) -> tuple[CharacterRecord, TLCharacter]:
    """The sender's active TimeLine character here (NotFound with a hint otherwise)."""
    store, ctx = call.app.store, call.ctx
    rec = await store.active_character(ctx.user_id, ctx.scope)
    if rec is not None and rec.system == SYSTEM and SYSTEM in rec.data:
        return rec, _load(rec)
    chars = await store.list_characters(ctx.user_id, system=SYSTEM)
    if len(chars) == 1:
        return chars[0], _load(chars[0])
    name = await call.app.display_name(ctx)
    if not chars:
        raise NotFound(f"{name}还没有角色× 请先用 .TLsetup 导入人物卡")
    raise NotFound(f"{name}有{len(chars)}个时间线角色，请先用 .chr 序号 选择")


async def _mutate(
    call: Call,
    rec: CharacterRecord,
    transition: Callable[[TLCharacter], tuple[TLCharacter, T]],
    undo: dict[str, Any] | None = None,
) -> tuple[TLCharacter, TLCharacter, T]:
    """Apply a pure engine transition to a stored character (compare-and-set, retried)."""
    box: dict[str, Any] = {}

    def fn(current: CharacterRecord) -> CharacterRecord:
        if current.system != SYSTEM or SYSTEM not in current.data:
            raise IllegalAction("这不是时间线角色")
        old = _load(current)
        new, result = transition(old)
        box["out"] = (old, new, result)
        box["record"] = current
        return replace(
            current,
            data={**current.data, SYSTEM: new.to_dict()},
            attributes={**current.attributes, **new.attributes_for_dice()},
        )

    after = await call.app.store.update_character(rec.id, fn)
    old, new, result = box["out"]
    if undo is not None:  # for .undo: the card as it was, and its version after this change
        undo["before"] = (box["record"], after.version)
    return old, new, result


def _sign(x: float) -> str:
    return f"+{fmt(x)}" if x > 0 else fmt(x)


def _check_lines(
    name: str,
    attr: str,
    value: float,
    buffed: bool,
    target: int,
    rate: float,
    roll: int,
    display: view.Display,
) -> list[str]:
    r = ratio(roll, rate)
    shown = display.rate(rate)
    return [
        f"{name}进行[{CN[attr]}]检定",
        f"目标{target} 比值{'[↑]' if buffed else ''}{fmt(value)}/{5 * target}",
        f"成功率：{shown}%",
        f"检定：{roll}/{shown} ({'∞' if r == float('inf') else f'{r:g}'})",
        "🎉成功！" if roll <= rate else "❗️失败！",
    ]


async def _target(call: Call) -> int:
    target = (await _settings(call)).get("target")
    if not target:
        raise IllegalAction("没有目标数值× 请GM先用 .tar 设定（如 .tar 10 10）")
    return int(target)


def _attr(text: str) -> str:
    key = lookup_attribute(text)
    if key is None:
        raise NotFound(f"没有找到属性[{text[:12]}]×")
    return key


def _split_attr_amount(tokens: list[str], usage: str) -> tuple[str, float | None, float | None, str]:
    """``属性 I|Tt [备注]`` in either order → (attribute key, impact, time, note)."""
    if tokens:
        glued = _GLUED.match(tokens[0])
        if glued and lookup_attribute(glued.group(1)) is not None:
            tokens = [glued.group(1), glued.group(2), *tokens[1:]]  # .bat 力量150
    if len(tokens) < 2:
        raise InputSyntaxError("需要属性和影响数值（或前摇时间，如 10t）", usage=usage)
    a, b = tokens[0], tokens[1]
    if _amount(a) is not None and _amount(b) is None:
        a, b = b, a
    amount = _amount(b)
    if amount is None:
        raise InputSyntaxError(f"[{b[:12]}]不是数字（影响数值如 150，前摇如 10t）", usage=usage)
    value, is_time = amount
    note = " ".join(tokens[2:])[:60]
    return _attr(a), (None if is_time else value), (value if is_time else None), note


def _amount(text: str) -> tuple[float, bool] | None:
    is_time = text[-1:] in ("t", "T")
    value = _num(text[:-1] if is_time else text)
    if value is None:
        return None
    return value, is_time


# ====================================================================== .TLsetup / .chr / .lv
@command(
    "TLsetup",
    aliases=("tlsetu",),
    usage=TLSETUP_USAGE,
    summary="导入时间线人物卡（粘贴人物卡生成的 .TLsetup 整行）",
    detail="键不分先后，支持全角标点和结尾逗号；同名角色会被覆盖（体力/意志保留）并选为当前角色。",
    system=SYS_CN,
)
async def cmd_tlsetup(call: Call) -> list[Reply]:
    imported = parse_tlsetup(call.args)
    sheet = imported.sheet
    store, ctx = call.app.store, call.ctx
    check_name(sheet.name, "姓名")
    existing = await store.find_character(ctx.user_id, sheet.name)
    if existing is not None and existing.system != SYSTEM:
        raise IllegalAction(f"你已有名为「{sheet.name}」的其他系统角色，请换一个名字")
    if existing is None:
        char = import_sheet(sheet)
        try:
            rec = await store.create_character(
                ctx.user_id,
                sheet.name,
                system=SYSTEM,
                attributes=char.attributes_for_dice(),
                data={SYSTEM: char.to_dict()},
            )
        except IllegalAction:
            rec = await store.find_character(ctx.user_id, sheet.name)
            if rec is None:
                raise
            _, char, _ = await _mutate(call, rec, lambda c: (import_sheet(sheet, c), None))
    else:
        rec = existing
        _, char, _ = await _mutate(call, rec, lambda c: (import_sheet(sheet, c), None))
    await bind_here(store, ctx, rec.id)
    d, res = char.derived(), char.resources
    lines = [
        f"[{sheet.name}] 的TL属性设置完成√",
        f"体力 {fmt(res.hp)}/{fmt(res.hp_full)} 意志 {fmt(res.mp)}/{fmt(res.mp_full)}"
        f" 负重 {fmt(d.carried)}/{fmt(d.max_load)} 现金 {fmt(res.cash)}",
    ]
    if imported.warnings:
        lines.append("注意：" + "；".join(imported.warnings))
    if imported.ignored:
        lines.append("已忽略：" + "、".join(imported.ignored[:8]))
    return [Reply.say("\n".join(lines))]


@command(
    "chr",
    aliases=("ch",),
    usage=".chr [序号 | show | del 序号]",
    summary="时间线角色：列表 / 选择 / 查看（图片） / 删除",
    system=SYS_CN,
)
async def cmd_chr(call: Call) -> list[Reply]:
    if _glued_alias(call, ("show", "del")):
        return []
    store, ctx = call.app.store, call.ctx
    tokens = call.args.split()
    chars = await store.list_characters(ctx.user_id, system=SYSTEM)
    if not tokens:
        if not chars:
            raise NotFound(f"{await call.app.display_name(ctx)}还没有角色× 请先用 .TLsetup 导入人物卡")
        active = await store.active_character(ctx.user_id, ctx.scope)
        lines = [f"您共有{len(chars)}个角色"]
        for k, c in enumerate(chars, 1):
            lines.append(f"[{'●' if active and active.id == c.id else k}] {c.name}")
        lines.append("请在指令后使用索引数字来更改角色选择")
        return [Reply.say("\n".join(lines))]
    head = tokens[0].lower()
    if "show" in head or head in ("查看", "显示"):
        _, char = await _active(call)
        text = view.character_text(char)
        return [Reply(text=text, image=view.sheet_image(char))]
    if head.startswith("del") or head == "删除":
        if len(tokens) < 2:
            raise call.usage_error("请给出要删除的角色序号")
        k = _index(tokens[1])
        if not 1 <= k <= len(chars):
            raise IllegalAction(f"序号错误× 应为1到{len(chars)}")
        gone = chars[k - 1]
        await store.delete_character(gone.id)
        return [Reply.say(f"已删除角色 [{gone.name}]√")]
    if len(tokens) == 1 and _num(tokens[0]) is not None:
        if not chars:
            raise NotFound("还没有角色× 请先用 .TLsetup 导入人物卡")
        k = min(max(_index(tokens[0]), 1), len(chars))
        await bind_here(store, ctx, chars[k - 1].id)
        return [Reply.say(f"已选择角色 [{chars[k - 1].name}]√")]
    raise call.usage_error("无法理解的参数")


@command("lv", usage=".lv +n | .lv -n", summary="等级变更（全属性按等级比例变化）", system=SYS_CN)
async def cmd_lv(call: Call) -> list[Reply]:
    arg = call.args.replace(" ", "")
    value = _num(arg)
    if value is None or arg[:1] not in "+-" or not arg:
        raise call.usage_error("请输入带正负号的数字，如 .lv +1")
    if abs(value) > 10000:
        raise IllegalAction("等级变化太大")
    rec, _ = await _active(call)
    old, new, pct = await _mutate(call, rec, lambda c: set_level(c, value))
    return [
        Reply.say(
            f"[{new.name}]等级变更: {view.arrow(old.level, new.level)}\n"
            f"{fmt(old.level)}→{fmt(new.level)}\n全属性变更: {'+' if pct > 0 else ''}{pct:.0f}%"
        )
    ]


# ====================================================================== .crd
_CRD = re.compile(r"^(\S+?)\s*([+-]?\d+(?:\.\d+)?)\s*(.*)$")


def _resource(word: str) -> str | None:
    w = word.lower()
    for key, names in (("hp", "体力|hp"), ("mp", "意志|mp"), ("cash", "现金|cash")):
        if w and w != "|" and w in names:
            return key
    return None


@command(
    "crd",
    usage=".crd | .crd reset | .crd [角色名:|@玩家] 体力/hp/意志/mp/现金/cash ±n [伤害类型]",
    summary="体力、意志、现金：查看、重置、变更（按 .dr 修饰计算）",
    system=SYS_CN,
)
async def cmd_crd(call: Call) -> list[Reply]:
    args = call.args.strip()
    tokens = args.split()
    if tokens and (":" in tokens[0] or call.ctx.at_ids):
        rec, char, _, rest = await _actor(call, tokens)  # the GM hurts an NPC or a player
        args = " ".join(rest)
    else:
        rec, char = await _active(call)
    if not args:
        return [Reply.say(view.crd_text(char))]
    if args.lower() in ("reset", "重置"):
        _, new, _ = await _mutate(call, rec, lambda c: (reset_resources(c), None))
        res = new.resources
        return [
            Reply.say(
                f"{new.name}: 状态重置 体力: {fmt(res.hp)}/{fmt(res.hp_full)} 意志: {fmt(res.mp)}/{fmt(res.mp_full)}"
            )
        ]
    m = _CRD.match(args)
    if m is None:
        raise call.usage_error("数字错误×请输入一个带正负号的数字作为第二个变量")
    resource = _resource(m.group(1))
    if resource is None:
        raise call.usage_error(f"资源错误× 不存在资源[{m.group(1)[:10]}] 可选：体力/hp 意志/mp 现金/cash")
    amount = float(m.group(2))
    if abs(amount) > 1e9:
        raise IllegalAction("数值太大")
    damage_type = m.group(3).strip()[:10] or None

    def transition(c: TLCharacter) -> tuple[TLCharacter, Any]:
        change = None
        delta = amount
        if resource != "cash" and c.reductions:
            change = resource_change(amount, resource, c.level, list(c.reductions), damage_type)  # type: ignore[arg-type]
            delta = change.result
        new, old_v, new_v = change_resource(c, resource, delta)  # type: ignore[arg-type]
        return new, (change, delta, old_v, new_v)

    undo: dict[str, Any] = {}
    _, new, (change, delta, old_v, new_v) = await _mutate(call, rec, transition, undo)
    label = {"hp": "体力", "mp": "意志", "cash": "现金"}[resource]
    lines = [f"{new.name}: ", f"[{label}]变更: {view.arrow(old_v, new_v)}{_sign(delta)}"]
    if change is not None and change.process:
        lines.append(f"{fmt(delta)}={change.process}")
    if resource == "cash":
        lines.append(f"{fmt(old_v)}→{fmt(new_v)}")
        return [Reply.say("\n".join(lines))]
    full = getattr(new.resources, resource + "_full")
    lines.append(f"{fmt(old_v)}→{fmt(new_v)}/{fmt(full)} ({fmt(new_v - full)})")
    lines.append(f"{view._pct(old_v, full)}→{view._pct(new_v, full)}")
    if new_v <= 0 < old_v:
        lines.append(
            f"☠ {new.name}的体力降至0，角色死亡"
            if resource == "hp"
            else f"☠ {new.name}的意志降至0，意识消散，角色死亡"
        )
    if call.ctx.group_id is not None:
        note = await _battle_resource(call, rec.id, resource, new_v - old_v, new_v, full, undo.get("before"))
        if note:
            lines.append(note)
    return [Reply.say("\n".join(lines))]


async def _battle_resource(
    call: Call,
    character_id: int,
    resource: str,
    delta: float,
    after: float,
    full: float,
    before: tuple[CharacterRecord, int] | None = None,
) -> str | None:
    """Record a 体力/意志 change on this group's timeline when the character is fighting.

    ``before`` (the card before the change, its version after) lets ``.undo`` of this timeline
    entry put the 体力/意志 back too."""
    state, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
    if state is None or bt.BattleState.from_dict(state).participant(f"c{character_id}") is None or delta == 0:
        return None

    def fn(raw: dict[str, Any] | None) -> tuple[dict[str, Any] | None, float | None]:
        if raw is None:
            return None, None
        s = bt.BattleState.from_dict(raw)
        s, events = bt.resource_event(s, f"c{character_id}", resource, delta, after, full)  # type: ignore[arg-type]
        return s.to_dict(), (s.clock if events else None)

    at = await call.app.store.apply_session(
        call.ctx.scope,
        SYSTEM,
        fn,
        user_id=call.ctx.user_id,
        command=call.command_text,
        characters_before=[before] if before is not None else (),
    )
    return None if at is None else f"（已记入时间轴 @{fmt(at)}t）"


# ====================================================================== .buff / .dr
@command(
    "buff",
    aliases=("bu", "buf"),
    usage=BUFF_USAGE + " | .buff [属性或范围] | .buff del 序号/all",
    summary="属性修饰：添加、列表、筛选、删除（叠加公式 F17）",
    detail="范围：11项属性之一，或 物理/思维/领域/所有；类型：1直接加算 2直接乘算 3最终加算 4最终乘算。",
    system=SYS_CN,
)
async def cmd_buff(call: Call) -> list[Reply]:
    if _glued_alias(call, ("del",)):
        return []
    rec, char = await _active(call)
    tokens = call.args.split()
    if not tokens:
        if not char.buffs:
            raise NotFound(f"{char.name}还没有buff×")
        rows = list(enumerate(char.buffs, 1))
        return [Reply.say(view.buff_rows(char.name, rows, f"{char.name}共有{len(rows)}个属性修饰"))]
    if tokens[0].lower() in ("del", "删除"):
        if len(tokens) < 2:
            raise call.usage_error("请给出序号或 all")
        which = None if tokens[1].lower() in ("all", "所有", "全部") else _index(tokens[1])
        await _mutate(call, rec, lambda c: (delete_buff(c, which), None))
        return [Reply.say("删除所有buff√" if which is None else f"删除buff [{which}]√")]
    if len(tokens) == 1:
        key = lookup_range(tokens[0])
        if key is None:
            raise InputSyntaxError(
                f"属性错误× 不存在属性[{tokens[0][:12]}] 属性范围可选：物理，思维，领域，所有"
            )
        members = GROUPS.get(key, (key,))
        rows = [
            (k, b)
            for k, b in enumerate(char.buffs, 1)
            if b.range == key or any(range_covers(b.range, m) for m in members)
        ]
        name = view.range_name(key)
        if not rows:
            return [Reply.say(f"{char.name}的[{name}]没有属性修饰")]
        return [Reply.say(view.buff_rows(char.name, rows, f"{char.name}的[{name}]共有{len(rows)}个属性修饰"))]
    if len(tokens) == 2:
        raise call.usage_error("参数不足")
    source, rng, value = tokens[0], tokens[1], tokens[2]
    kind = tokens[3] if len(tokens) > 3 else None
    buff = make_buff(source, rng, value, kind, char.level)
    await _mutate(call, rec, lambda c: (add_buff(c, buff), None))
    return [
        Reply.say(
            f"{char.name}增加buff[{buff.source}]√\n⚙{view.range_name(buff.range)} [{view.buff_value(buff)}] "
            f"{BUFF_TYPE_CN[buff.type]}"
        )
    ]


@command(
    "dr",
    aliases=("d",),
    usage=DR_USAGE + " | .dr [±范围] | .dr del 序号/all",
    summary="资源变化修饰（减伤、防御、治疗加成）：添加、列表、筛选、删除",
    detail="数值 n 为固定值，n% 为百分比，nd 为防御值（减免 D/(D+10×等级)）；伤害类型默认“所有”，对任何伤害生效。",
    system=SYS_CN,
)
async def cmd_dr(call: Call) -> list[Reply]:
    if _glued_alias(call, ("del", "hp", "mp", "all")):
        return []
    rec, char = await _active(call)
    tokens = call.args.split()
    if not tokens:
        if not char.reductions:
            raise NotFound(f"{char.name}没有资源变化修饰×")
        rows = list(enumerate(char.reductions, 1))
        return [Reply.say(view.reduction_rows(rows, f"{char.name}共有{len(rows)}个资源变化修饰"))]
    if tokens[0].lower() in ("del", "删除"):
        if len(tokens) < 2:
            raise call.usage_error("请给出序号或 all")
        which = None if tokens[1].lower() in ("all", "所有", "全部") else _index(tokens[1])
        await _mutate(call, rec, lambda c: (delete_reduction(c, which), None))
        return [Reply.say("删除所有资源变化修饰√" if which is None else f"删除资源变化修饰 [{which}]√")]
    if len(tokens) == 1:
        key = parse_dr_range(tokens[0])
        if key is None:
            raise InputSyntaxError(f"范围错误× 不存在范围 [{tokens[0][:10]}] 范围可选：(+/-)(hp/mp/all)")
        sign, res = key[0], key[1:]
        rows = [
            (k, r)
            for k, r in enumerate(char.reductions, 1)
            if r.range[0] == sign and (res == "all" or r.range[1:] in (res, "all"))
        ]
        if not rows:
            return [Reply.say(f"{char.name}的[{key}]没有资源变化修饰")]
        return [Reply.say(view.reduction_rows(rows, f"{char.name}的[{key}]共有{len(rows)}个资源变化修饰"))]
    if len(tokens) == 2:
        raise call.usage_error("参数不足")
    row = make_reduction(tokens[0], tokens[1], tokens[2], tokens[3] if len(tokens) > 3 else None)
    await _mutate(call, rec, lambda c: (add_reduction(c, row), None))
    return [Reply.say(f"{char.name}增加资源变化修饰 [{row.source}]√\n{view.reduction_line(row)}")]


# ====================================================================== weapons
def _weight_lines(old: TLCharacter, new: TLCharacter) -> list[str]:
    a, b = old.derived(), new.derived()
    return [
        f"负重变更: {fmt(a.carried)}→{fmt(b.carried)}/{fmt(b.max_load)}",
        f"负重修正变更: {fmt(a.weight_rev)}→{fmt(b.weight_rev)}",
        f"敏捷变更: {fmt(old.check('dexterity'))}→{fmt(new.check('dexterity'))}",
    ]


@command(
    "setupWP",
    usage=SETUPWP_USAGE,
    summary="导入武器（人物卡武器行生成的 .setupWP 整行），负重计入角色",
    system=SYS_CN,
)
async def cmd_setupwp(call: Call) -> list[Reply]:
    fields_ = parse_setupwp(call.args)
    rec, _ = await _active(call)
    old, new, _ = await _mutate(call, rec, lambda c: (add_weapon(c, fields_), None))
    return [Reply.say("\n".join([f"{new.name}增加武器[{fields_['name']}]√", *_weight_lines(old, new)]))]


@command("wp", usage=".wp [序号 | show | del 序号]", summary="武器：列表 / 选择 / 查看 / 删除", system=SYS_CN)
async def cmd_wp(call: Call) -> list[Reply]:
    if _glued_alias(call, ("show", "del")):
        return []
    rec, char = await _active(call)
    tokens = call.args.split()
    if not tokens:
        if not char.weapons:
            raise NotFound(f"{char.name}还没有武器×")
        lines = [f"您共持有{len(char.weapons)}个武器"]
        for k, w in enumerate(char.weapons, 1):
            lines.append(f"[{'●' if w.uid == char.active_weapon else k}] {w.name}")
        lines.append("请在指令后使用索引数字来更改武器选择")
        return [Reply.say("\n".join(lines))]
    head = tokens[0].lower()
    if "show" in head or head in ("查看", "显示"):
        weapon = char.weapon()
        ammo = None
        if call.ctx.group_id is not None and weapon.load is not None:
            raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
            if raw is not None:
                ammo = bt.ammo_left(bt.BattleState.from_dict(raw), f"c{rec.id}", weapon)
        return [Reply.say(view.weapon_show(weapon, ammo))]
    if head.startswith("del") or head == "删除":
        if len(tokens) < 2:
            raise call.usage_error("请给出要删除的武器序号")
        k = _index(tokens[1])
        old, new, gone = await _mutate(call, rec, lambda c: delete_weapon(c, k))
        return [Reply.say("\n".join([f'已删除武器"{gone.name}"√', *_weight_lines(old, new)]))]
    if len(tokens) == 1 and _num(tokens[0]) is not None:
        k = _index(tokens[0])
        _, new, _ = await _mutate(call, rec, lambda c: (select_weapon(c, k), None))
        return [Reply.say(f'已选择武器"{new.weapon().name}"√')]
    raise call.usage_error("无法理解的参数")


# ====================================================================== .tar / .ex / .neg / .pre
@command(
    "tar",
    aliases=("ta",),
    usage=".tar | .tar 目标数值 | .tar 等级 难度 | .tar 等级d（随机难度1d20）",
    summary="查看或设定本群目标数值（设定默认仅GM）",
    system=SYS_CN,
)
async def cmd_tar(call: Call) -> list[Reply]:
    if _glued_alias(call):
        return []
    tokens = call.args.split()
    if not tokens:
        target = (await _settings(call)).get("target")
        return [Reply.say(f"目标数值: {target}" if target else "未设定目标数值×")]
    await _require_gm_unless_open(call, "设定目标数值")
    prefix = ""
    if len(tokens) == 1 and tokens[0][-1:] in ("d", "D"):
        level = _num(tokens[0][:-1])
        if level is None or level <= 0:
            raise call.usage_error("指令错误× 请正确输入.tar指令!")
        roll = call.app.rng.randint(1, 20)
        prefix = f"随机难度：{roll}\n"
        value = target_value(level, roll)
    elif len(tokens) in (1, 2):
        nums = [_num(t) for t in tokens]
        if any(n is None or n <= 0 for n in nums):
            raise call.usage_error("指令错误× 目标数值、等级和难度应为正数")
        value = round(nums[0]) if len(nums) == 1 else target_value(nums[0], nums[1])  # type: ignore[arg-type]
    else:
        raise call.usage_error("指令错误× 请正确输入.tar指令!")
    if not 0 < value <= 10**9:
        raise IllegalAction("目标数值应为正数（最多10亿）")
    await _update_settings(call, lambda s: {**s, "target": value})
    return [Reply.say(f"{prefix}已设定目标数值为{value}√")]


@command("ex", usage=".ex 属性", summary="属性检定（成功率=属性/(5×目标数值)）", system=SYS_CN)
async def cmd_ex(call: Call) -> list[Reply]:
    if _glued_alias(call, tuple(CN)):
        return []
    if not call.args:
        raise call.usage_error("请给出属性")
    target = await _target(call)
    _, char = await _active(call)
    attr = _attr(call.args.split()[0])
    value = char.check(attr)
    rate = check_rate(value, target)
    result = roll_check(rate, call.app.rng)
    lines = _check_lines(
        char.name, attr, value, bool(char.buffs), target, rate, result.roll, await _display(call)
    )
    return [Reply.say("\n".join(lines))]


@command(
    "neg",
    aliases=("ne",),
    usage=".neg RP | .neg 对象等级 对象智力% | .neg RP 对象等级 对象智力%",
    summary="交涉检定（RP评分 + 交涉加成，对象等级和智力%）",
    system=SYS_CN,
)
async def cmd_neg(call: Call) -> list[Reply]:
    if _glued_alias(call):
        return []
    tokens = call.args.split()
    nums = [_num(t) for t in tokens]
    if any(n is None for n in nums) or len(tokens) > 3:
        raise call.usage_error("参数应为数字")
    stored = (await _settings(call)).get("neg")
    if len(nums) in (2, 3):
        level, intel = r0(nums[-2]), r0(nums[-1])  # type: ignore[arg-type]
        if level <= 0 or intel <= 0:
            raise IllegalAction("交涉对象的等级和智力%都应大于0")
        stored = {"level": level, "int": intel}
        await _update_settings(call, lambda s: {**s, "neg": stored})
        if len(nums) == 2:
            return [Reply.say("已设定交涉对象！")]
    if not stored:
        raise IllegalAction("没有交涉对象！ 请先用 .neg 对象等级 对象智力% 设定")
    if not nums:
        raise call.usage_error("请正确输入.ne指令！")
    rp = nums[0]
    assert rp is not None
    _, char = await _active(call)
    rate = negotiation_rate(rp, char.derived().negotiation_bonus, char.level, stored["level"], stored["int"])
    roll = call.app.rng.randint(1, 100)
    return [
        Reply.say(
            f"[{char.name}]进行交涉检定\nRP：{r0(rp):.0f}\n成功率：{rate:.0f}%\n检定：{roll}/{rate:.0f}\n"
            + ("🎉成功！" if roll <= rate else "❗️失败！")
        )
    ]


@command(
    "pre",
    aliases=("pr",),
    usage=".pre 属性 影响数值 | .pre 属性 前摇t",
    summary="前摇/影响数值计算（不记录）",
    system=SYS_CN,
)
async def cmd_pre(call: Call) -> list[Reply]:
    if _glued_alias(call):
        return []
    attr, impact, time, _ = _split_attr_amount(call.args.split(), call.spec.usage if call.spec else "")
    _, char = await _active(call)
    value = char.check(attr)
    display = await _display(call)
    if impact is not None:
        t, i = windup(impact, value), impact
        shown = str(sheet_windup(impact, value)) if display.sheet else fmt(t)
    else:
        assert time is not None
        t, i = time, impact_for(time, value)
        shown = display.windup(t)
    return [
        Reply.say(
            f"{char.name}: \n{CN[attr]}: {fmt(value)}{' [↑]' if char.buffs else ''}\n"
            f"影响数值: {fmt(i)}\n时间: {shown}"
        )
    ]


# ====================================================================== new checks
async def _participant_chars(call: Call, names: list[str]) -> list[tuple[str, TLCharacter]]:
    """Characters named by @ mentions (their active one) and by name (own or in the battle)."""
    store, ctx = call.app.store, call.ctx
    out: list[tuple[str, TLCharacter]] = []
    for uid in ctx.at_ids:
        rec = await store.active_character(uid, ctx.scope)
        if rec is None or rec.system != SYSTEM:
            chars = await store.list_characters(uid, system=SYSTEM)
            if len(chars) != 1:
                raise NotFound(f"{uid}没有可用的时间线角色")
            rec = chars[0]
        out.append((rec.name, _load(rec)))
    for name in names:
        rec = await _find_named(call, name)
        out.append((rec.name, _load(rec)))
    return out


async def _find_named(call: Call, name: str) -> CharacterRecord:
    store, ctx = call.app.store, call.ctx
    own = await store.find_character(ctx.user_id, name)
    if own is not None and own.system == SYSTEM:
        return own
    raw, _ = await store.load_session(ctx.scope, SYSTEM)
    if raw is not None:
        for p in bt.BattleState.from_dict(raw).participants:
            if p.name == name:
                rec = await store.get_character(p.character_id)
                if rec is not None and rec.system == SYSTEM:
                    return rec
    raise NotFound(f"没有找到角色「{name[:20]}」（可用自己的角色名、战斗中的角色名或@玩家）")


@command(
    "coop",
    aliases=("协同",),
    usage=".coop 属性 [@玩家…] [角色名…] [数值…]",
    summary="协同检定：相关属性相加后 /(5×目标数值)",
    detail="发起者的当前角色自动参加；@玩家 用其当前角色；也可写角色名或直接写数值（如NPC的 80）。",
    system=SYS_CN,
)
async def cmd_coop(call: Call) -> list[Reply]:
    tokens = call.args.split()
    if not tokens:
        raise call.usage_error("请给出属性")
    target = await _target(call)
    attr = _attr(tokens[0])
    _, own = await _active(call)
    parts: list[tuple[str, float]] = [(own.name, own.check(attr))]
    names = [t for t in tokens[1:] if _num(t) is None]
    parts += [(n, c.check(attr)) for n, c in await _participant_chars(call, names)]
    parts += [("数值", float(n)) for t in tokens[1:] if (n := _num(t)) is not None]
    if len(parts) < 2:
        raise call.usage_error("协同检定至少需要两个参与者")
    total = sum(v for _, v in parts)
    rate = cooperative_rate([v for _, v in parts], target)
    roll = roll_check(rate, call.app.rng)
    display = await _display(call)
    shown = display.rate(rate)
    lines = [
        f"协同检定[{CN[attr]}]："
        + " + ".join(f"{n} {fmt(v)}" for n, v in parts)
        + f" = {fmt(round(total, 2))}",
        f"目标{target} 比值{fmt(round(total, 2))}/{5 * target}",
        f"成功率：{shown}%",
        f"检定：{roll.roll}/{shown}",
        "🎉成功！" if roll.success else "❗️失败！",
    ]
    return [Reply.say("\n".join(lines))]


_RATIO = re.compile(r"^(\d+)/(\d+(?:\.\d+)?)%?$")


@command(
    "opp",
    aliases=("对抗",),
    usage=".opp 属性 @对手|角色名 [对手属性] | .opp 骰值/成功率 骰值/成功率",
    summary="对抗检定：双方以同一目标数值检定，骰值/成功率比值小者胜",
    system=SYS_CN,
)
async def cmd_opp(call: Call) -> list[Reply]:
    tokens = call.args.split()
    ratios = [_RATIO.match(t) for t in tokens]
    if len(tokens) == 2 and all(ratios):
        a, b = (ratio(int(m.group(1)), float(m.group(2))) for m in ratios if m)
        winner = opposed_winner(a, b)
        verdict = {"a": "前者胜出", "b": "后者胜出", "tie": "比值相同，平局，由主持人裁定"}[winner]
        return [Reply.say(f"对抗：{tokens[0]} = {a:g}，{tokens[1]} = {b:g}\n比值小者胜 → {verdict}")]
    if not tokens:
        raise call.usage_error("请给出属性和对手")
    target = await _target(call)
    attr = _attr(tokens[0])
    rest = tokens[1:]
    other_attr = attr
    if rest and lookup_attribute(rest[-1]) is not None and (len(rest) > 1 or call.ctx.at_ids):
        other_attr = _attr(rest[-1])
        rest = rest[:-1]
    _, me = await _active(call)
    others = await _participant_chars(call, rest)
    if len(others) != 1:
        raise call.usage_error("请用@或角色名指定一个对手")
    other_name, other = others[0]
    display = await _display(call)
    rows = []
    for name, char, key in ((me.name, me, attr), (other_name, other, other_attr)):
        rate = check_rate(char.check(key), target)
        res = roll_check(rate, call.app.rng)
        rows.append((name, key, rate, res))
    shown = [
        f"{n}[{CN[k]}] 成功率{display.rate(rate)}% 检定{res.roll}/{display.rate(rate)} "
        f"({'∞' if res.ratio == float('inf') else f'{res.ratio:g}'})"
        for n, k, rate, res in rows
    ]
    winner = opposed_winner(rows[0][3].ratio, rows[1][3].ratio)
    verdict = (
        "比值相同，平局，由主持人裁定" if winner == "tie" else f"{rows[0 if winner == 'a' else 1][0]}胜出"
    )
    return [Reply.say("\n".join([f"对抗检定 目标{target}", *shown, f"比值小者胜 → {verdict}"]))]


@command(
    "clash",
    aliases=("交互",),
    usage=".clash 影响数值 影响数值 | .clash #行动 #行动",
    summary="交互（打断/闪避/招架）：大者的影响数值减去小者",
    system=SYS_CN,
)
async def cmd_clash(call: Call) -> list[Reply]:
    tokens = call.args.replace("#", " #").split()
    if len(tokens) != 2:
        raise call.usage_error("需要两个影响数值或两个行动编号")
    if all(t.startswith("#") for t in tokens):
        raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
        if raw is None:
            raise IllegalAction("没有战斗数据×")
        state = bt.BattleState.from_dict(raw)
        acts = [state.action(_index(t[1:])) for t in tokens]
        names = [(state.participant(a.key) or bt.Participant(a.key, a.key, "", 0)).name for a in acts]
        values = [a.impact for a in acts]
        winner, left = interaction(values[0], values[1])
        lines = [
            f"交互：{names[0]}#{acts[0].id} {fmt(values[0])} vs {names[1]}#{acts[1].id} {fmt(values[1])}"
        ]
        if not bt.interacts(acts[0], acts[1]):
            lines.append(
                f"注意：两个行动在时间上不重叠（{fmt(acts[0].start)}→{fmt(acts[0].end)}t 与 "
                f"{fmt(acts[1].start)}→{fmt(acts[1].end)}t），按规则不构成交互"
            )
    else:
        nums = [_num(t) for t in tokens]
        if any(n is None or n < 0 for n in nums):
            raise call.usage_error("影响数值应为非负数")
        values = [float(n) for n in nums if n is not None]
        names = ["前者", "后者"]
        winner, left = interaction(values[0], values[1])
        lines = [f"交互：{fmt(values[0])} vs {fmt(values[1])}"]
    if winner == "tie":
        lines.append("影响数值相同，相互抵消（影响 0）")
    else:
        lines.append(f"→ {names[0 if winner == 'a' else 1]}胜出，最终造成 {fmt(left)}")
    return [Reply.say("\n".join(lines))]


@command(
    "tlconf",
    usage=".tlconf [open 开/关] [sheet 开/关]",
    summary="时间线群设置：open=设目标/结束战斗/代他人行动对所有人开放；sheet=按人物卡显示（整数前摇、成功率封顶100%）",
    system=SYS_CN,
)
async def cmd_tlconf(call: Call) -> list[Reply]:
    tokens = call.args.split()
    names = {"open": "open", "开放": "open", "sheet": "sheet", "表格": "sheet", "人物卡": "sheet"}
    values = {"on": True, "开": True, "1": True, "off": False, "关": False, "0": False}
    if tokens:
        await call.app.require_gm(call.ctx, "修改时间线设置")
        if len(tokens) % 2 or any(names.get(k.lower()) is None for k in tokens[::2]):
            raise call.usage_error("无法理解的设置")
        if any(values.get(v.lower()) is None for v in tokens[1::2]):
            raise call.usage_error("设置值应为 开/关（on/off）")
        changes = {
            names[k.lower()]: values[v.lower()] for k, v in zip(tokens[::2], tokens[1::2], strict=True)
        }
        await _update_settings(call, lambda s: {**s, **changes})
    s = await _settings(call)
    return [
        Reply.say(
            f"时间线设置：\nopen（设目标/结束战斗/代他人行动对所有人开放）：{'开' if s.get('open') else '关'}\n"
            f"sheet（按人物卡显示：整数前摇、成功率封顶100%）：{'开' if s.get('sheet') else '关'}"
        )
    ]


# ====================================================================== .bat
BAT_USAGE = ".bat 属性 影响数值|前摇t [备注] | .bat wp 影响数值|前摇t|发数|re [备注] | .bat [图|记录 页|out|end|取消|先攻|推进 t]"
BAT_WORDS = ("wp", "out", "end", "show", "pic", "img", "log", "cancel", "init", "advance")


async def _actor(
    call: Call, tokens: list[str]
) -> tuple[CharacterRecord, TLCharacter, bt.ParticipantRef, list[str]]:
    """Who acts: ``名字:`` prefix (own NPC or another participant), @玩家, else the sender.

    A character named with the prefix by its owner is an NPC when the owner is a GM here (the
    GM's own characters) or when it is not the owner's active character.
    """
    store, ctx = call.app.store, call.ctx
    if tokens and ":" in tokens[0]:
        name, _, rest = tokens[0].partition(":")
        tokens = ([rest] if rest else []) + tokens[1:]
        rec = await _find_named(call, name.strip())
    elif ctx.at_ids:
        uid = ctx.at_ids[0]
        rec = await store.active_character(uid, ctx.scope)
        if rec is None or rec.system != SYSTEM:
            raise NotFound(f"{uid}没有可用的时间线角色")
    else:
        rec, char = await _active(call)
        return rec, char, bt.ParticipantRef(rec.id, rec.name, rec.owner_id), tokens
    if rec.owner_id != ctx.user_id:
        await _require_gm_unless_open(call, "替其他玩家的角色行动")
    mine = await store.active_character(ctx.user_id, ctx.scope)
    npc = rec.owner_id == ctx.user_id and (mine is None or mine.id != rec.id or await call.app.is_gm(ctx))
    return rec, _load(rec), bt.ParticipantRef(rec.id, rec.name, rec.owner_id, npc=npc), tokens


async def _apply_battle(
    call: Call, fn: Callable[[bt.BattleState], tuple[bt.BattleState | None, T]], *, create: bool = False
) -> T:
    def outer(raw: dict[str, Any] | None) -> tuple[dict[str, Any] | None, T]:
        if raw is None and not create:
            raise IllegalAction("没有战斗数据×")
        state = bt.BattleState.from_dict(raw) if raw is not None else bt.new_battle()
        new, result = fn(state)
        return (None if new is None else new.to_dict()), result

    return await call.app.store.apply_session(
        call.ctx.scope, SYSTEM, outer, user_id=call.ctx.user_id, command=call.command_text
    )


async def _write_back_ammo(call: Call, participants: list[bt.Participant]) -> None:
    """Battle ammunition → the characters' weapons (on leaving or ending)."""
    for p in participants:
        if not p.ammo:
            continue
        rec = await call.app.store.get_character(p.character_id)
        if rec is None or rec.system != SYSTEM:
            continue

        def transition(c: TLCharacter, ammo: dict[str, int] = p.ammo) -> tuple[TLCharacter, None]:
            for w in c.weapons:
                if str(w.uid) in ammo and w.load is not None:
                    c = set_ammo(c, w.uid, min(ammo[str(w.uid)], w.load))
            return c, None

        try:
            await _mutate(call, rec, transition)
        except ChronoDiceError:
            continue


async def _show(call: Call, display: view.Display, *, picture: bool = False) -> list[Reply]:
    raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
    if raw is None:
        raise IllegalAction("没有战斗数据×")
    state = bt.BattleState.from_dict(raw)
    text = view.timeline_text(state, display)
    long = len(state.participants) > view.MAX_TEXT_BLOCKS or len(text) > 1400
    if picture or long:
        return [Reply(text="" if picture else text[:1400], image=view.timeline_image(state, display))]
    return [Reply.say(text)]


@command(
    "bat",
    aliases=("ba",),
    usage=BAT_USAGE,
    summary="战斗时间轴：行动、查看、退出、结束、取消、先攻",
    detail=(
        "行动从自己上一个行动结算时开始，中途加入者从当前战斗时间开始。\n"
        ".bat 取消：取消自己仍在前摇中的最近一个行动；.bat 图：时间轴图片；.bat 记录 [页]：全部行动；\n"
        "GM：.bat end 结束；.bat 先攻 [角色名:]（被动方从先攻者前摇过半时开始）；.bat 推进 t；\n"
        "代行动：.bat 角色名:力量 150 或 .bat @玩家 力量 150（默认仅GM）；.undo 撤销最近一条时间轴操作。"
    ),
    system=SYS_CN,
    group_only=True,
)
async def cmd_bat(call: Call) -> list[Reply]:
    if _glued_alias(call, BAT_WORDS) or call.raw_args.lower().startswith("tle"):
        return []
    tokens = call.args.split()
    display = await _display(call)
    head = tokens[0].lower() if tokens else ""
    if not tokens or head in ("show", "显示", "查看"):
        return await _show(call, display)
    if head in ("图", "pic", "img", "图片"):
        return await _show(call, display, picture=True)
    if head in ("记录", "log"):
        page = _index(tokens[1]) if len(tokens) > 1 else 10**9
        raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
        if raw is None:
            raise IllegalAction("没有战斗数据×")
        return [Reply.say(view.log_page(bt.BattleState.from_dict(raw), display, page))]
    if head in ("end", "结束"):
        await _require_gm_unless_open(call, "结束战斗")
        state = await _apply_battle(call, lambda s: (None, s))
        await _write_back_ammo(call, list(state.participants))
        return [Reply.say("战斗结束，时间轴归位√")]
    if head in ("推进", "advance"):
        await _require_gm_unless_open(call, "推进战斗时间")
        to = _num(tokens[1]) if len(tokens) > 1 else None
        if to is None:
            raise call.usage_error("请给出要推进到的时间，如 .bat 推进 30")
        _, done = await _apply_battle(call, lambda s: _pair(bt.advance(s, to)))
        text = f"战斗时间推进到{fmt(to)}t，结算{len(done)}个行动"
        return [
            Reply.say(text + "\n" + view.timeline_text(bt.BattleState.from_dict(await _raw(call)), display))
        ]
    if head in ("先攻", "init"):
        await _require_gm_unless_open(call, "设定先攻")
        _, _, ref, _ = await _actor(call, tokens[1:])
        passive = await _apply_battle(call, lambda s: _drop_events(bt.set_initiative(s, ref.key)))
        return [Reply.say(f"[{ref.name}]先攻√ 其他角色从{fmt(passive)}t开始行动")]
    _rec, char, ref, tokens = await _actor(call, tokens)
    head = tokens[0].lower() if tokens else ""
    if head in ("out", "退出"):
        try:
            state = await _apply_battle(call, lambda s: _with_state(bt.leave(s, ref.key)))
        except IllegalAction:
            return [Reply.say(f"角色[{ref.name}]没有参与战斗×")]
        p = state.participant(ref.key)
        await _write_back_ammo(call, [p] if p else [])
        return [Reply.say(f"角色[{ref.name}]退出战斗√")]
    if head in ("取消", "cancel"):
        state, action = await _apply_battle(call, lambda s: _cancel(s, ref.key))
        when = (
            "（尚未开始）"
            if action.cancelled_at == action.start
            else f"于{display.windup(action.cancelled_at or 0)}t"
        )
        text = f"[{ref.name}]取消行动#{action.id}{when}√ 下一个行动从{display.windup(state.free_at(ref.key))}t开始"
        return [Reply.say(text)]
    if not tokens:
        raise call.usage_error("请给出行动")
    if head == "wp":
        fn = _weapon_action(char, ref, tokens[1:])
    else:
        attr, impact, time, note = _split_attr_amount(tokens, BAT_USAGE)
        value = char.check(attr)

        def fn(s: bt.BattleState) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
            new, action, events = bt.attribute_action(
                s, ref, attr, value, impact=impact, time=time, note=note
            )
            return new, (new, action, events)

    state, action, events = await _apply_battle(call, fn, create=True)
    lines = []
    if any(e.kind == "join" for e in events):
        lines.append(f"[{ref.name}]{'（NPC）' if ref.npc else ''}在{display.windup(action.start)}t加入战斗")
    label = "整备中..." if action.kind == "reload" else f"影响 {fmt(action.impact)}"
    lines.append(
        f"行动#{action.id} {ref.name}：{display.windup(action.start)}t → {display.windup(action.end)}t"
        f"（前摇{display.windup(action.windup)}t）{label}"
    )
    lines.append(view.timeline_text(state, display))
    return [Reply.say("\n".join(lines))]


def _weapon_action(
    char: TLCharacter, ref: bt.ParticipantRef, tokens: list[str]
) -> Callable[[bt.BattleState], tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]]:
    weapon = char.weapon()
    if not tokens:
        raise InputSyntaxError("请给出影响数值、前摇t、发射弹药数或 re（装填）", usage=BAT_USAGE)
    arg, note = tokens[0], " ".join(tokens[1:])[:60]
    if weapon.type == "other":
        raise IllegalAction("战斗指令不支持[其他]类型武器×")
    if weapon.type == "artillery":
        if re.match(r"^(re(load)?|装填|换弹)$", arg.lower()):
            shots: int | None = None
        else:
            if arg[-1:] in ("t", "T"):
                raise IllegalAction("武器指令错误× 火力武器必须使用数字作为发射弹药数！")
            n = _num(arg)
            if n is None:
                raise InputSyntaxError(f"[{arg[:10]}]不是数字", usage=BAT_USAGE)
            shots = int(r0(n))

        def fire(
            s: bt.BattleState,
        ) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
            new, action, events = bt.artillery_action(s, ref, weapon, shots, note=note)
            return new, (new, action, events)

        return fire
    amount = _amount(arg)
    if amount is None:
        raise InputSyntaxError(f"[{arg[:10]}]不是数字（影响数值如 150，前摇如 10t）", usage=BAT_USAGE)
    value = char.check(weapon.attribute or "strength")
    impact, time = (None, amount[0]) if amount[1] else (amount[0], None)

    def swing(s: bt.BattleState) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
        new, action, events = bt.amplifier_action(s, ref, weapon, value, impact=impact, time=time, note=note)
        return new, (new, action, events)

    return swing


def _pair(
    result: tuple[bt.BattleState, list[bt.Action]],
) -> tuple[bt.BattleState, tuple[bt.BattleState, list[bt.Action]]]:
    return result[0], result


def _drop_events(result: tuple[bt.BattleState, float, list[bt.Event]]) -> tuple[bt.BattleState, float]:
    return result[0], result[1]


def _with_state(result: tuple[bt.BattleState, list[bt.Event]]) -> tuple[bt.BattleState, bt.BattleState]:
    return result[0], result[0]


def _cancel(s: bt.BattleState, key: str) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action]]:
    new, action, _ = bt.cancel_action(s, key)
    return new, (new, action)


async def _raw(call: Call) -> dict[str, Any]:
    raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
    return raw or bt.new_battle().to_dict()
