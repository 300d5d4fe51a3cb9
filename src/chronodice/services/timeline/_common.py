"""Shared glue for the TimeLine commands: the store, group settings and argument helpers.

* ``SYSTEM`` / ``SYS_CN``: the session/character system key and the help-group name;
* settings: ``tl_settings``, ``update_tl_settings``, ``display_of``, ``tl_target`` (the group's 目标数值);
* characters: ``load_tl``, ``active_tl`` (the sender's active one), ``mutate_tl`` (apply a pure engine
  transition with compare-and-set), ``find_named`` and ``who_acts`` (who acts: ``名字:``, @玩家 or
  the sender; used by ``.crd`` and ``.bat``);
* permissions: ``group_of`` and ``require_unless_open`` (the one policy of
  :mod:`chronodice.core.permissions`, opened to everyone by ``.tlconf open``); argument kinds
  are in :mod:`.kinds`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.permissions import Perm, become_gm, is_gm, require
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.character import TLCharacter
from chronodice.rules.timeline.secrecy import is_secret
from chronodice.services.card_access import member_card
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.services.views import group_of, own_card, update_settings
from chronodice.store import CharacterRecord

SYSTEM = "timeline"
SYS_CN = "时间线"
T = TypeVar("T")


# ====================================================================== helpers
async def tl_settings(call: Call) -> dict[str, Any]:
    return dict((await group_of(call)).settings.get(SYSTEM, {}))


async def update_tl_settings(call: Call, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    def outer(settings: dict[str, Any]) -> dict[str, Any]:
        return {**settings, SYSTEM: fn(dict(settings.get(SYSTEM, {})))}

    await update_settings(call, outer)


async def display_of(call: Call) -> view.Display:
    settings = await tl_settings(call)
    return view.Display(
        sheet=bool(settings.get("sheet", False)), verbose=bool(settings.get("verbose", False))
    )


async def require_unless_open(call: Call, what: str) -> None:
    """GM only (:mod:`chronodice.core.permissions`), unless ``.tlconf open`` opened it to all."""
    group = await group_of(call)
    opened = bool(group.settings.get(SYSTEM, {}).get("open"))
    require(call.ctx, Perm.ANYONE if opened else Perm.GM, what + become_gm(".tlconf open"), gms=group.gms)


async def require_own_action(call: Call, state: bt.BattleState, action_id: int, what: str) -> bt.Action:
    """Action ``action_id`` when it is the sender's active character's; else the GM's to touch
    (``.tlconf open``: anyone's) — ``what`` names the deed in the refusal."""
    action = state.action(action_id)
    owner = state.participant(action.key)
    mine = await call.app.store.characters.active_character(call.ctx.user_id, call.ctx.scope)
    if owner is None or mine is None or owner.key != f"c{mine.id}":
        await unseen_unless_gm(call, state, action)
        await require_unless_open(call, what)
    return action


async def may_see(call: Call, p: bt.Participant) -> bool:
    """Whether the sender may know of ``p``: a hidden NPC exists for GMs only (a player naming it
    is told what a name nobody has gets)."""
    return not p.hidden or await call.app.is_gm(call.ctx)


async def unseen_unless_gm(call: Call, state: bt.BattleState, action: bt.Action) -> None:
    """A secret action (:mod:`chronodice.rules.timeline.secrecy`) named by someone who is not a
    GM reads as one that does not exist: the refusal must not tell it is there."""
    if is_secret(state, action) and not await call.app.is_gm(call.ctx):
        raise NotFound(f"时间轴上没有行动#{action.id}")


def load_tl(rec: CharacterRecord) -> TLCharacter:
    return TLCharacter.from_dict(rec.data[SYSTEM])


async def active_tl(call: Call) -> tuple[CharacterRecord, TLCharacter]:
    """The sender's active TimeLine character here (NotFound with a hint otherwise)."""
    store, ctx = call.app.store, call.ctx
    rec = await store.characters.active_character(ctx.user_id, ctx.scope)
    if rec is not None and rec.system == SYSTEM and SYSTEM in rec.data:
        return rec, load_tl(rec)
    chars = await store.characters.list_characters(ctx.user_id, system=SYSTEM)
    if len(chars) == 1:
        return chars[0], load_tl(chars[0])
    name = await call.app.display_name(ctx)
    if not chars:
        raise NotFound(f"{name}还没有角色× 请先用 .TLsetup 导入人物卡")
    raise NotFound(f"{name}有{len(chars)}个时间线角色，请先用 .chr 序号 选择")


async def mutate_tl(
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
        old = load_tl(current)
        new, result = transition(old)
        box["out"] = (old, new, result)
        box["record"] = current
        return replace(
            current,
            data={**current.data, SYSTEM: new.to_dict()},
            attributes={**current.attributes, **new.attributes_for_dice()},
        )

    after = await call.app.store.characters.update_character(rec.id, fn, claim=call.claim)
    old, new, result = box["out"]
    if undo is not None:  # for .undo: the card as it was, and its version after this change
        undo["before"] = (box["record"], after.version)
    return old, new, result


async def tl_target(call: Call) -> int:
    target = (await tl_settings(call)).get("target")
    if not target:
        raise IllegalAction("没有目标数值× 请GM先用 .tar 设定（如 .tar 10 10）")
    return int(target)


async def running_battle(call: Call) -> bt.BattleState:
    """This group's running battle (IllegalAction when there is none)."""
    state = await call.app.store.sessions.load_state(call.ctx.scope, BATTLE_CODEC)
    if state is None:
        raise IllegalAction("没有战斗数据×")
    return state


# ====================================================================== characters by name / who acts
async def find_named(call: Call, name: str) -> CharacterRecord:
    store, ctx = call.app.store, call.ctx
    own = await store.characters.find_character(ctx.user_id, name)
    if own is not None and own.system == SYSTEM:
        return own
    state = await store.sessions.load_state(ctx.scope, BATTLE_CODEC)
    if state is not None:
        for p in state.participants:
            if p.name == name and await may_see(call, p):
                rec = await store.characters.get_character(p.character_id)
                if rec is not None and rec.system == SYSTEM:
                    return rec
    raise NotFound(f"没有找到角色「{name[:20]}」（可用自己的角色名、战斗中的角色名或@玩家）")


async def who_acts(
    call: Call, actor: str | None = None, who: str | None = None
) -> tuple[CharacterRecord, TLCharacter, bt.ParticipantRef]:
    """Who acts: ``actor`` (a ``名字:`` prefix: own NPC or another participant), ``who`` (an
    @玩家), else the sender.

    A character named with the prefix by its owner is an NPC when the owner is a GM here (the
    GM's own characters) or when it is not the owner's active character.
    """
    ctx = call.ctx
    rec: CharacterRecord | None
    if actor:
        rec = await find_named(call, actor.strip())
    elif who is not None:
        group = await group_of(call)
        opened = bool(group.settings.get(SYSTEM, {}).get("open"))
        rec = await member_card(
            call, who, "替其他玩家的角色行动" + become_gm(".tlconf open"), write=True, open_to_all=opened
        )
        if rec is None or rec.system != SYSTEM:
            raise NotFound(f"{who}没有可用的时间线角色")
    else:
        rec, char = await active_tl(call)
        return rec, char, bt.ParticipantRef(rec.id, rec.name, rec.owner_id)
    if rec.owner_id != ctx.user_id:
        await require_unless_open(call, "替其他玩家的角色行动")
    mine = await own_card(call)
    npc = rec.owner_id == ctx.user_id and (
        mine is None or mine.id != rec.id or is_gm(ctx, gms=(await group_of(call)).gms)
    )
    return rec, load_tl(rec), bt.ParticipantRef(rec.id, rec.name, rec.owner_id, npc=npc)
