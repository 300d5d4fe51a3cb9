"""TimeLine characters and their resources: ``.TLsetup``, ``.chr``, ``.lv`` and ``.crd``.

``.crd`` applies the character's ``.dr`` resource modifiers and, while the character fights in
this group, records the 体力/意志 change on the battle timeline (``_battle_resource``) so that
``.undo`` of that entry restores the card too.
"""

from __future__ import annotations

import re
from typing import Any

from chronodice.core.commands import Call, command
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.character import (
    TLCharacter,
    change_resource,
    import_sheet,
    reset_resources,
    set_level,
)
from chronodice.rules.timeline.importing import TLSETUP_USAGE, parse_tlsetup
from chronodice.rules.timeline.modifiers import resource_change
from chronodice.rules.timeline.rounding import fmt
from chronodice.store import CharacterRecord

from ..characters import bind_here, check_name
from ._common import SYS_CN, SYSTEM, _active, _actor, _glued_alias, _index, _mutate, _num


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


def _sign(x: float) -> str:
    return f"+{fmt(x)}" if x > 0 else fmt(x)


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
