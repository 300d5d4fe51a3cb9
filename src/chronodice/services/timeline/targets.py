"""Whom a ``.bat`` names: ``>目标`` of an action and the roster of ``.bat 开始`` (issue 25).

The book (时间轴): 战斗开始时，所有角色同时决定行为 — so somebody who has not typed yet is
still at the table and can be aimed at.  A name is looked up, in this order:

1. a participant of this group's battle;
2. one of the sender's own TimeLine cards (a GM's NPCs);
3. a TimeLine card set up or chosen in this group (``.TLsetup`` / ``.chr k`` here: the group
   keeps ``name → card id`` under its ``timeline`` settings, :func:`remember_card`), or a
   card of one of the group's GMs (their NPCs).

The store can list a user's bindings but not a group's, hence the small registry: a card bound
in this group before this registry existed is found once its owner sets it up or chooses it
here again (or acts: then it is a participant).
"""

from __future__ import annotations

import re
from typing import Any

from chronodice.core.args import Pattern
from chronodice.core.commands import Call
from chronodice.core.errors import NotFound
from chronodice.core.permissions import is_gm
from chronodice.rules.timeline import battle as bt
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.services.views import group_of
from chronodice.store import CharacterRecord

from ._common import SYSTEM, find_named, may_see, update_tl_settings

TARGET = Pattern(regex=r"[>＞→]\s*([^\s>＞→]{1,20})", label=">目标", convert=lambda m: m.group(1))
"""``>乙`` / ``→Goblin``: whom an action is aimed at (interactions are reported against it)."""

TRAILING_TARGET = re.compile(r"(?:^|\s)" + TARGET.regex + r"\s*$")
"""``TARGET`` at the end of a note (``重劈 >小白``)."""

MAX_REMEMBERED = 200
"""Cards a group remembers by name (the oldest is forgotten first)."""


async def remember_card(call: Call, rec: CharacterRecord) -> None:
    """Note that ``rec`` is set up or chosen in this group, so it can be aimed at or put on the
    roster before it declares anything (nothing happens in a private chat)."""
    if call.ctx.group_id is None:
        return

    def update(settings: dict[str, Any]) -> dict[str, Any]:
        cards: dict[str, int] = dict(settings.get("cards") or {})
        cards.pop(rec.name, None)
        cards[rec.name] = rec.id
        while len(cards) > MAX_REMEMBERED:
            cards.pop(next(iter(cards)))
        return {**settings, "cards": cards}

    await update_tl_settings(call, update)


async def battle_participant(call: Call, name: str) -> bt.Participant | None:
    """This group's battle participant called ``name``, if there is one."""
    state = await call.app.store.sessions.load_state(call.ctx.scope, BATTLE_CODEC)
    for p in state.participants if state is not None else ():
        if p.name == name and await may_see(call, p):
            return p
    return None


async def group_card(call: Call, name: str) -> CharacterRecord:
    """A TimeLine card ``name`` of this table (see the module doc); NotFound otherwise."""
    try:
        return await find_named(call, name)
    except NotFound:
        pass
    store = call.app.store
    group = await group_of(call)
    remembered = (group.settings.get(SYSTEM, {}).get("cards") or {}).get(name)
    if remembered is not None:
        rec = await store.characters.get_character(int(remembered))
        if rec is not None and rec.system == SYSTEM and rec.name == name:
            return rec
    for gm in group.gms:
        rec = await store.characters.find_character(gm, name)
        if rec is not None and rec.system == SYSTEM:
            return rec
    raise NotFound(f"没有找到角色「{name[:20]}」（可用战斗中的、本群导入或选择过的角色名，或@玩家）")


async def card_ref(call: Call, rec: CharacterRecord) -> bt.ParticipantRef:
    """How ``rec`` enters a battle: an NPC when it is not its owner's card in this group (a
    GM's second card) or its owner is a GM here and it is not their active card."""
    store, ctx = call.app.store, call.ctx
    bound = await store.characters.active_character(rec.owner_id, ctx.scope)
    group = await group_of(call)
    owner_is_gm = rec.owner_id in group.gms or (rec.owner_id == ctx.user_id and is_gm(ctx, gms=group.gms))
    npc = bound is None or bound.id != rec.id or owner_is_gm
    return bt.ParticipantRef(rec.id, rec.name, rec.owner_id, npc=npc)


async def target_ref(call: Call, target: str | None) -> bt.ParticipantRef | None:
    """``>名字``: a participant, else a card of this table that has not declared yet (issue 25:
    ``.bat 哥布林:力量 100 >阿星`` before 阿星 typed anything was refused)."""
    if target is None:
        return None
    p = await battle_participant(call, target)
    if p is not None:
        return bt.ParticipantRef(p.character_id, p.name, p.owner_id, npc=p.npc)
    try:
        rec = await group_card(call, target)
    except NotFound:
        raise NotFound(
            f"目标「{target}」不在战斗中，本群也没有这个时间线角色（先 .TLsetup 导入或由GM .bat 开始 列入）"
        ) from None
    return await card_ref(call, rec)


async def target_key(call: Call, target: str | None) -> str | None:
    """The participant key :func:`target_ref` names (for commands that only need the key)."""
    ref = await target_ref(call, target)
    return None if ref is None else ref.key


async def aim(call: Call, target: str | None, note: str) -> tuple[bt.ParticipantRef | None, str]:
    """(whom, note).  ``>名字`` goes before the note, but a player typing fast puts it last
    (``.bat 力量 150 重劈 >小白``): a note ending in ``>名字`` that names a participant of this
    battle aims the action at them (otherwise it stays part of the note)."""
    if target is None and (m := TRAILING_TARGET.search(note)):
        p = await battle_participant(call, m.group(1))
        if p is not None:
            return bt.ParticipantRef(p.character_id, p.name, p.owner_id, npc=p.npc), note[: m.start()].strip()
    return await target_ref(call, target), note


__all__ = [
    "TARGET",
    "TRAILING_TARGET",
    "aim",
    "battle_participant",
    "card_ref",
    "group_card",
    "remember_card",
    "target_key",
    "target_ref",
]
