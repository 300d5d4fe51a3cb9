"""TimeLine characters and their resources: ``.TLsetup``, ``.chr``, ``.lv`` and ``.crd``.

``.crd`` applies the character's ``.dr`` resource modifiers and, while the character fights in
this group, records the 体力/意志 change on the battle timeline (``_battle_resource``) so that
``.undo`` of that entry restores the card too.
"""

from __future__ import annotations

from typing import Any

from chronodice.core.args import Int, Mention, Name, Num, Prefixed, arg, opt, rest
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.limits import MAX_MESSAGE_CHARS
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.render.timeline_feed import fit
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import interactions as ix
from chronodice.rules.timeline.character import (
    TLCharacter,
    change_resource,
    import_sheet,
    reset_resources,
    set_level,
)
from chronodice.rules.timeline.importing import TLSETUP_USAGE, parse_tlsetup
from chronodice.rules.timeline.modifiers import resource_change
from chronodice.rules.timeline.rounding import fmt, r1
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.store import CharacterRecord

from ..characters import bind_here, check_name
from ..modes import CARD_SYSTEMS
from ._common import SYS_CN, SYSTEM, active_tl, mutate_tl, running_battle, who_acts
from .feed import settled_lines
from .kinds import ACTION_REF, ActionRef, Token
from .targets import remember_card

# ====================================================================== .TLsetup / .chr / .lv
ACTOR = opt("actor", Prefixed())
WHO = opt("who", Mention())
INDEX = Int(label="序号")

tlsetup = define(
    "TLsetup",
    aliases=("tlsetu",),
    summary="导入时间线人物卡（粘贴人物卡生成的 .TLsetup 整行）",
    detail="格式："
    + TLSETUP_USAGE
    + "\n键不分先后，支持全角标点和结尾逗号；同名角色会被覆盖（体力/意志保留）并选为当前角色。",
    system=SYS_CN,
)


@tlsetup.sub(
    params=[rest("sheet", "人物卡整行", max_len=MAX_MESSAGE_CHARS)], help="导入或覆盖人物卡", when_empty=True
)
async def cmd_tlsetup(call: Call, sheet: str) -> list[Reply]:
    imported = parse_tlsetup(sheet)
    sheet_ = imported.sheet
    store, ctx = call.app.store, call.ctx
    check_name(sheet_.name, "姓名")
    existing = await store.characters.find_character(ctx.user_id, sheet_.name)
    if existing is not None and existing.system != SYSTEM:
        kind = CARD_SYSTEMS.get(existing.system, (existing.system, ""))[0]
        raise IllegalAction(
            f"你已有名为「{sheet_.name}」的{kind}角色卡，不会被覆盖：换一个姓名，"
            f"或先 .pc del {sheet_.name} 删掉它（按提示确认；.pc mv {sheet_.name} 新名 改名也行）再导入"
        )
    if existing is None:
        char = import_sheet(sheet_)
        try:
            rec = await store.characters.create_character(
                ctx.user_id,
                sheet_.name,
                system=SYSTEM,
                attributes=char.attributes_for_dice(),
                data={SYSTEM: char.to_dict()},
                claim=call.claim,
            )
        except IllegalAction:
            rec = await store.characters.find_character(ctx.user_id, sheet_.name)
            if rec is None:
                raise
            _, char, _ = await mutate_tl(call, rec, lambda c: (import_sheet(sheet_, c), None))
    else:
        rec = existing
        _, char, _ = await mutate_tl(call, rec, lambda c: (import_sheet(sheet_, c), None))
    everywhere = await bind_timeline(call, rec.id)
    await remember_card(call, rec)  # aimable / listable here before it declares (issue 25)
    d, res = char.derived(), char.resources
    lines = [
        f"[{sheet_.name}] 的TL属性设置完成√",
        f"体力 {fmt(res.hp)}/{fmt(res.hp_full)} 意志 {fmt(res.mp)}/{fmt(res.mp_full)}"
        f" 负重 {fmt(d.carried)}/{fmt(d.max_load)} 现金 {fmt(res.cash)}",
    ]
    if everywhere:
        lines.append(everywhere)
    if imported.warnings:
        lines.append("注意：" + "；".join(imported.warnings))
    if imported.ignored:
        lines.append("已忽略：" + "、".join(imported.ignored[:8]))
    return [Reply.say("\n".join(lines))]


async def bind_timeline(call: Call, character_id: int) -> str:
    """Make the card the sender's active TimeLine card here; returns a line for the reply.

    In a private chat MayuriBot has one active card per QQ, so a card set up or chosen there is
    the one its owner plays in every group (issue 25): it becomes the default card and replaces
    the sender's TimeLine card wherever one was bound (a group's CoC card stays).  Only the
    sender's own bindings change, each to the sender's own card — private chat still touches
    nothing of anyone else's (issue 23).  In a group the choice is for that group, as before."""
    store, ctx = call.app.store, call.ctx
    await bind_here(store, ctx, character_id, claim=call.claim)
    if ctx.group_id is not None:
        return ""
    await store.characters.bind(ctx.user_id, "", character_id, claim=call.claim)
    moved = 0
    for scope, bound in (await store.characters.bindings(ctx.user_id)).items():
        if scope in ("", ctx.scope) or bound == character_id:
            continue
        card = await store.characters.get_character(bound)
        if card is not None and card.system == SYSTEM and card.owner_id == ctx.user_id:
            await store.characters.bind(ctx.user_id, scope, character_id, claim=call.claim)
            moved += 1
    also = f"（{moved}个群原先用的时间线角色已换成它）" if moved else ""
    return f"已设为你在所有群的当前时间线角色{also}"


chr_ = define("chr", aliases=("ch",), summary="时间线角色：列表 / 选择 / 查看（图片） / 删除", system=SYS_CN)


@chr_.sub(params=[opt("index", INDEX)], help="列出角色；给出序号则选择该角色", when_empty=True)
async def chr_select(call: Call, index: int | None) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    chars = await store.characters.list_characters(ctx.user_id, system=SYSTEM)
    if index is None:
        if not chars:
            raise NotFound(f"{await call.app.display_name(ctx)}还没有角色× 请先用 .TLsetup 导入人物卡")
        active = await store.characters.active_character(ctx.user_id, ctx.scope)
        lines = [f"您共有{len(chars)}个角色"]
        for k, c in enumerate(chars, 1):
            lines.append(f"[{'●' if active and active.id == c.id else k}] {c.name}")
        lines.append("请在指令后使用索引数字来更改角色选择")
        return [Reply.say("\n".join(lines))]
    if not chars:
        raise NotFound("还没有角色× 请先用 .TLsetup 导入人物卡")
    k = min(max(index, 1), len(chars))
    everywhere = await bind_timeline(call, chars[k - 1].id)
    await remember_card(call, chars[k - 1])
    return [
        Reply.say("\n".join([f"已选择角色 [{chars[k - 1].name}]√", *([everywhere] if everywhere else [])]))
    ]


@chr_.sub("show", "查看", "显示", help="查看当前角色（图片；.chr 文字 看文字版）")
async def chr_show(call: Call) -> list[Reply]:
    _, char = await active_tl(call)
    # the picture holds the sheet: the text says who, how they are and any warning (issue 39
    # defect 9: 17 lines beside a picture of the same); the whole text is .chr 文字
    lines = view.character_text(char).splitlines()
    caption = lines[:1] + [ln for ln in lines if ln.startswith(("体力", "⚠"))]
    return [Reply(text="\n".join(caption), image=view.sheet_image(char))]


@chr_.sub("文字", "text", help="查看当前角色（文字版）")
async def chr_text(call: Call) -> list[Reply]:
    _, char = await active_tl(call)
    return [Reply.say(view.character_text(char))]


@chr_.sub("del", "删除", params=[arg("index", INDEX)], help="删除一个角色")
async def chr_del(call: Call, index: int) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    chars = await store.characters.list_characters(ctx.user_id, system=SYSTEM)
    if not 1 <= index <= len(chars):
        raise IllegalAction(f"序号错误× 应为1到{len(chars)}")
    gone = chars[index - 1]
    await store.characters.delete_character(gone.id, claim=call.claim)
    return [Reply.say(f"已删除角色 [{gone.name}]√")]


lv = define("lv", summary="等级变更（全属性按等级比例变化）", system=SYS_CN)


@lv.sub(params=[arg("delta", Num(label="带正负号的数字", sign_required=True))], help="等级 +n 或 -n")
async def cmd_lv(call: Call, delta: float) -> list[Reply]:
    if abs(delta) > 10000:
        raise IllegalAction("等级变化太大")
    rec, _ = await active_tl(call)
    old, new, pct = await mutate_tl(call, rec, lambda c: set_level(c, delta))
    return [
        Reply.say(
            f"[{new.name}]等级变更: {view.arrow(old.level, new.level)}\n"
            f"{fmt(old.level)}→{fmt(new.level)}\n全属性变更: {'+' if pct > 0 else ''}{pct:.0f}%"
        )
    ]


# ====================================================================== .crd
def _resource(word: str) -> str | None:
    w = word.lower()
    for key, names in (("hp", "体力|hp"), ("mp", "意志|mp"), ("cash", "现金|cash")):
        if w and w != "|" and w in names:
            return key
    return None


def _sign(x: float) -> str:
    return f"+{fmt(x)}" if x > 0 else fmt(x)


crd = define(
    "crd", summary="体力、意志、现金：查看、重置、变更（按 .dr 修饰计算）、休息恢复意志", system=SYS_CN
)


async def crd_target(call: Call, actor: str | None, who: str | None) -> tuple[CharacterRecord, TLCharacter]:
    if actor or who is not None:
        rec, char, _ = await who_acts(call, actor, who)  # the GM hurts an NPC or a player
        return rec, char
    return await active_tl(call)


@crd.sub("reset", "重置", params=[ACTOR, WHO], help="体力、意志回满")
async def crd_reset(call: Call, actor: str | None, who: str | None) -> list[Reply]:
    rec, _ = await crd_target(call, actor, who)
    _, new, _ = await mutate_tl(call, rec, lambda c: (reset_resources(c), None))
    res = new.resources
    return [
        Reply.say(
            f"{new.name}: 状态重置 体力: {fmt(res.hp)}/{fmt(res.hp_full)} 意志: {fmt(res.mp)}/{fmt(res.mp_full)}"
        )
    ]


@crd.sub(
    params=[
        ACTOR,
        WHO,
        opt("resource", Name(label="体力/意志/现金")),
        opt("amount", Num(label="±n")),
        opt("hit", ACTION_REF),
        opt("damage_type", Token(label="伤害类型", max_len=10)),
    ],
    help="查看，或变更体力/hp、意志/mp、现金/cash（代他人默认仅GM）；#行动 记在该行动结算的时刻",
    when_empty=True,
)
async def cmd_crd(
    call: Call,
    actor: str | None,
    who: str | None,
    resource: str | None,
    amount: float | None,
    hit: ActionRef | None,
    damage_type: str | None,
) -> list[Reply]:
    rec, char = await crd_target(call, actor, who)
    if resource is None and amount is None and damage_type is None:
        return [Reply.say(view.crd_text(char))]
    if resource is not None and resource.lower() in ("reset", "重置") and amount is None:
        return await crd_reset(call, actor, who)
    key = _resource(resource or "")
    if key is None:
        word = resource or (fmt(amount) if amount is not None else damage_type or "")
        raise call.usage_error(f"资源错误× 不存在资源[{word[:10]}] 可选：体力/hp 意志/mp 现金/cash")
    if amount is None:
        raise call.usage_error("数字错误×请输入一个带正负号的数字作为第二个变量")
    if abs(amount) > 1e9:
        raise IllegalAction("数值太大")
    if hit is not None:
        if key == "cash":
            raise call.usage_error("现金变更不记入时间轴，不能带 #行动")
        bt.hit_time(await running_battle(call), hit.id)  # refused before the card changes
    return await crd_change(call, rec, key, amount, damage_type, hit.id if hit else None)


async def crd_change(
    call: Call,
    rec: CharacterRecord,
    resource: str,
    amount: float,
    damage_type: str | None,
    hit: int | None = None,
) -> list[Reply]:
    def transition(c: TLCharacter) -> tuple[TLCharacter, Any]:
        change = None
        delta = amount
        if resource != "cash" and c.reductions:
            change = resource_change(amount, resource, c.level, list(c.reductions), damage_type)  # type: ignore[arg-type]
            delta = change.result
        new, old_v, new_v = change_resource(c, resource, delta)  # type: ignore[arg-type]
        return new, (change, delta, old_v, new_v)

    undo: dict[str, Any] = {}
    _, new, (change, delta, old_v, new_v) = await mutate_tl(call, rec, transition, undo)
    label = {"hp": "体力", "mp": "意志", "cash": "现金"}[resource]
    lines = [f"{new.name}: ", f"[{label}]变更: {view.arrow(old_v, new_v)}{_sign(delta)}"]
    if change is not None and change.process:
        lines.append(f"{fmt(delta)}={change.process}")
    if resource == "cash":
        lines.append(f"{fmt(old_v)}→{fmt(new_v)}")
        return [Reply.say("\n".join(lines))]
    full = getattr(new.resources, resource + "_full")
    # The difference to the maximum is r1 here (the stored values are r1; their binary difference
    # is not: 119.2 − 150 = −30.799999999999997).  The plain `.crd` view keeps MayuriBot's
    # unrounded difference.
    lines.append(f"{fmt(old_v)}→{fmt(new_v)}/{fmt(full)} ({fmt(r1(new_v - full))})")
    lines.append(f"{view._pct(old_v, full)}→{view._pct(new_v, full)}")
    if new_v <= 0 < old_v:
        lines.append(
            f"☠ {new.name}的体力降至0，角色死亡"
            if resource == "hp"
            else f"☠ {new.name}的意志降至0，意识消散，角色死亡"
        )
    if call.ctx.group_id is not None:
        note = await _battle_resource(
            call, rec.id, resource, new_v - old_v, new_v, full, undo.get("before"), hit=hit
        )
        if note:
            # on a phone the reply stays within the compact six lines (issue 25): the timeline
            # stamp joins the death line, and what the change settled or voided is folded
            first, *rest = note.split("\n")
            if lines[-1].startswith("☠"):
                lines[-1] += first
            else:
                lines.append(first)
            lines = fit([*lines, *rest])
    return [Reply.say("\n".join(lines))]


async def _battle_resource(
    call: Call,
    character_id: int,
    resource: str,
    delta: float,
    after: float,
    full: float,
    before: tuple[CharacterRecord, int] | None = None,
    *,
    hit: int | None = None,
) -> str | None:
    """Record a 体力/意志 change on this group's timeline when the character is fighting.

    ``before`` (the card before the change, its version after) lets ``.undo`` of this timeline
    entry put the 体力/意志 back too."""
    state = await call.app.store.sessions.load_state(call.ctx.scope, BATTLE_CODEC)
    if state is None or state.participant(f"c{character_id}") is None or delta == 0:
        return None

    key = f"c{character_id}"

    def fn(s: bt.BattleState | None) -> tuple[bt.BattleState | None, tuple[float | None, list[str]]]:
        if s is None:
            return None, (None, [])
        new, events = bt.resource_event(s, key, resource, delta, after, full, hit=hit)  # type: ignore[arg-type]
        death = next((e for e in events if e.kind == "death"), None)
        notes = death_notes(s, new, key, death.time) if death is not None else []
        new, settled = settled_lines(s, new, view.Display())  # issue 25: what this change settled
        return new, (events[0].time if events else None, [*notes, *settled])

    at, notes = await call.app.store.sessions.apply_state(
        call.ctx.scope,
        BATTLE_CODEC,
        fn,
        user_id=call.ctx.user_id,
        command=call.command_text,
        characters_before=[before] if before is not None else (),
        claim=call.claim,
    )
    return None if at is None else "\n".join([f"（已记入时间轴 @{fmt(at)}t）", *notes])


def death_notes(before: bt.BattleState, after: bt.BattleState, key: str, at: float) -> list[str]:
    """What a death voided (book 死亡: the dead take no further actions), so the GM sees it:
    every action cut, by number; those already settled, with their interactions and the changes
    already recorded for them, which stay as they are (see :func:`bt.voided`)."""
    cut = bt.voided(before, after, key)
    if not cut:
        return []
    p = after.participant(key)
    name = p.name if p else "?"
    lines = [f"{'、'.join(f'#{a.id}' for a in cut)} 因{name}在{fmt(at)}t死亡而作废"]
    done = [a for a in cut if before.settled(a)]
    if done:
        told = [a for a in done if ix.interactions_of(before, a)]
        ids = {a.id for a in done}
        kept = [
            f"{_who(after, e.key)}{'体力' if e.kind == 'hp' else '意志'}{fmt(e.delta)}（#{e.ref}）"
            for e in after.events
            if e.ref in ids and e.kind in ("hp", "mp")
        ] + [
            f"{_who(after, e.key)}被控制（#{e.ref}）"
            for e in after.events
            if e.ref in ids and e.kind == "stun"
        ]
        lines.append(
            f"其中{'、'.join(f'#{a.id}' for a in done)}原已结算"
            + (f"（{'、'.join(f'#{a.id}' for a in told)}的交互已提示）" if told else "")
            + (f"，已记入的{'、'.join(kept)}不会自动撤销" if kept else "")
            + "；若不应作废：.undo 后不带 #行动 记在当前时刻"
        )
    return lines


def _who(state: bt.BattleState, key: str) -> str:
    """A participant's name for a reply line ("?" when it is gone from the battle)."""
    p = state.participant(key)
    return p.name if p else "?"
