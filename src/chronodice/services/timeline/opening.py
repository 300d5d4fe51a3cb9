"""``.bat 开始``: the GM ends the opening, optionally naming the roster (issue 25).

The book (时间轴): 战斗开始时，所有角色同时决定行为.  Until the GM starts the battle (or the first
action settles, :mod:`chronodice.rules.timeline.battle`), typing order makes nobody a late
joiner; with a roster, each listed character who has not declared yet joins at 0 and holds the
clock there.  Names follow ``.bat``'s other sub-commands: a Chinese keyword with an English
alias (``开始``/``start``, as ``结束``/``end``), characters by name (NPCs included) or @玩家.
"""

from __future__ import annotations

import re

from chronodice.core.args import rest
from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.reply import Reply
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.secrecy import public
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.store import CharacterRecord

from ._common import SYSTEM, display_of, require_unless_open
from .battle import bat
from .feed import battle_reply, move_clock
from .targets import card_ref, group_card


@bat.sub(
    "开始",
    "start",
    params=[rest("names", "参战角色")],
    help="GM开始战斗：列出参战角色（角色名/NPC名/@玩家），未宣言者从0t开始并等其宣言；不列名则以已宣言者为准（默认仅GM）",
)
async def bat_start(call: Call, names: str) -> list[Reply]:
    """Close the opening, with the roster when names are given (issue 25, book 时间轴: 战斗开始
    时，所有角色同时决定行为): until then nobody is a late joiner, however many actions others
    typed; a listed participant who has not declared holds the clock at 0."""
    await require_unless_open(call, "开始战斗")
    display = await display_of(call)
    refs = [await card_ref(call, rec) for rec in await _roster(call, names)]
    before = await call.app.store.sessions.load_state(call.ctx.scope, BATTLE_CODEC)
    if not refs and (before is None or not before.participants):
        # an empty roster would make everybody who types next a late joiner but the first
        raise IllegalAction("还没有人宣言行动× 请列出参战角色（.bat 开始 甲 乙 @玩家），或等大家宣言后再开始")

    moved = await move_clock(call, lambda s: bt.open_battle(s, refs), create=True)
    state, events = moved.after, moved.result
    was_running = before is not None and before.started
    if not refs:
        head = "战斗已在进行" if was_running else "战斗开始√ 以已宣言的角色为准，此后加入者从当前战斗时间开始"
    else:
        joined = {e.key: e.time for e in events if e.kind == "join"}
        listed = "、".join(
            f"{r.name}（{display.windup(joined[r.key])}t加入）" if r.key in joined else r.name for r in refs
        )
        head = f"{'战斗已在进行，加入' if was_running else '战斗开始√ 参战'}：{listed}"
    shown = public(state).state  # a hidden NPC is nobody the group waits for
    waiting = [p.name for p in shown.living() if not shown.actions_of(p.key)]
    lines = [head]
    if waiting:
        lines.append(
            f"尚未宣言：{'、'.join(waiting)}（战斗时间停在{display.windup(state.clock)}t，等其宣言）"
        )
    return await battle_reply(call, lines, moved, display)


async def _roster(call: Call, names: str) -> list[CharacterRecord]:
    """The cards ``.bat 开始`` lists: names (separated by spaces, commas or 、) and @玩家 (typed
    ``@12345`` or real mentions: the card bound to them here), each once, in the order given."""
    store, ctx = call.app.store, call.ctx
    words = [w for w in re.split(r"[\s,，、]+", names) if w]
    users = [*ctx.at_ids, *(w[1:] for w in words if re.fullmatch(r"@[0-9]{5,12}", w))]
    found: list[CharacterRecord] = []
    for uid in users:
        rec = await store.characters.active_character(uid, ctx.scope)
        if rec is None or rec.system != SYSTEM:
            raise NotFound(f"@{uid}没有可用的时间线角色")
        found.append(rec)
    for w in words:
        if not re.fullmatch(r"@[0-9]{5,12}", w):
            found.append(await group_card(call, w.lstrip("@")))
    if len(found) > bt.MAX_PARTICIPANTS:
        raise IllegalAction(f"一场战斗最多{bt.MAX_PARTICIPANTS}个角色")
    unique = {rec.id: rec for rec in found}
    return list(unique.values())


__all__ = ["bat_start"]
