"""Hidden combatants (issue 39, defect 10): an NPC the group knows nothing of until it acts on
someone.

An NPC is hidden from the start (``.ri 暗 +4 首领``, ``.init add 首领 -隐藏``) or later
(``.init 隐藏 首领``), and shown again by ``.init 现身 首领`` or by its first attack.  While it is
hidden the group learns nothing of it — not its name, its count, its initiative, its turns, its
numbers or its health, by text or by how many lines or prompts appear:

* joining: the roll goes to the GM privately; the group gets no line for it (when every entry of
  the ``.ri`` is hidden, no reply at all);
* its turns: when the order reaches it, the group is shown nothing; the GM gets the turn prompt
  privately (``views.turn_replies``), and the turn card the group would have read (the round start,
  the effects that ended on the way) waits in :attr:`Combat.held` for the next visible turn
  (``_glue.hold``, applied by ``_glue.apply`` to every command): the group reads the same lines as
  without it, only later;
* lists (``.init``, round headers, ``.init log``, the end-of-combat summary) leave it out, and the
  events about it are not shown (:mod:`chronodice.render.tick20_events`);
* a player who names it gets the reply for a name nobody has (``_glue.find``);
* anything else of a tick20 command that still names it in the group — ``???`` or its name — goes
  to the GM privately instead (:func:`guard`, wrapped around every tick20 sub-command), and a
  refusal naming it tells a player only that the GM is busy.

Its first attack (``.atk 首领:小艾``) reveals it: the group reads the attack as the target would
see it, name and numbers, and from then on it is a combatant like any other (listed, its turns
announced) — what a GM expects of an ambush: once it has struck it is in the open.  ``.init 隐藏``
hides it again (a sniper who slips away).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from chronodice.core.args import arg
from chronodice.core.commands import REGISTRY, Call
from chronodice.core.errors import ChronoDiceError, NotPermitted
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import Combat

from ._glue import apply, find, gm, gm_ids, load, must_be_gm, need
from .kinds import COMBATANT
from .tracker import init
from .views import hidden_whisper

BUSY = "GM处理中，请稍候"
"""What a player's refusal says where it would name a hidden combatant (its turn, its name)."""


# --------------------------------------------------------------------------- .init 隐藏 / 现身
async def _set_hidden(call: Call, who: str, on: bool) -> list[Reply]:
    state = need(await load(call))
    await must_be_gm(call, state, "隐藏或现身参战者")
    c = await find(call, state, who)
    if c.hidden == on:
        text = f"{c.name} {'已经' if on else '本来就没有'}隐藏"
        return [Reply.whisper(text)] if on else [Reply.say(text)]
    if on and c.controller:
        raise NotPermitted(f"{c.name} 是玩家的参战者：只有NPC可以隐藏")
    if on and c.id == state.current:
        raise NotPermitted(f"{c.name} 正在回合中：结束它的回合后再隐藏")
    state, _ = await apply(call, lambda st: E.edit(need(st), c.id, hidden=on))
    if on:
        text = f"{c.name} 已隐藏：群里不再显示它（列表、回合、数值）；.init 现身 {c.name} 公开"
        return hidden_whisper(state, text, sender=call.ctx.user_id)
    return [Reply.say(f"{c.name} 现身了！\n{R.combat_list(state)}")]


@init.sub("隐藏", "hide", params=[arg("who", COMBATANT)], help="隐藏一名NPC：群里看不到它，回合私聊GM（GM）")
async def init_hide(call: Call, who: str) -> list[Reply]:
    return await _set_hidden(call, who, True)


@init.sub(
    "现身", "reveal", params=[arg("who", COMBATANT)], help="让隐藏的NPC现身（GM；它第一次攻击时也会现身）"
)
async def init_reveal(call: Call, who: str) -> list[Reply]:
    return await _set_hidden(call, who, False)


# --------------------------------------------------------------------------- the last guard
Handler = Callable[..., Awaitable[list[Reply]]]


def names_hidden(state: Combat | None, text: str) -> bool:
    """Whether ``text`` would tell the group of a hidden combatant: ``???``, or its name."""
    if state is None or not any(c.hidden for c in state.combatants):
        return False
    return "???" in text or any(c.hidden and len(c.name) > 1 and c.name in text for c in state.combatants)


def guarded(handler: Handler) -> Handler:
    """``handler`` whose group replies never name a hidden combatant (they go to the GM
    privately) and whose refusals tell a player nothing of one."""

    @functools.wraps(handler)
    async def run(call: Call, **values: Any) -> list[Reply]:
        try:
            replies = await handler(call, **values)
        except ChronoDiceError as err:
            if "???" not in err.message or call.ctx.group_id is None:
                raise
            state = await load(call)
            if await gm(call, state):
                return [Reply.whisper(err.message)]
            err.message = BUSY
            raise
        public = [r for r in replies if not r.private and r.text]
        if not public:
            return replies
        state = await load(call)
        if not any(names_hidden(state, r.text) for r in public):
            return replies
        assert state is not None
        to = [call.ctx.user_id] if await gm(call, state) else gm_ids(state)
        out: list[Reply] = []
        for r in replies:
            if r.private or not names_hidden(state, r.text):
                out.append(r)
                continue
            out += [replace(r, private=True, to_user=uid, mentions=(), fallback=None) for uid in to]
        return out

    return run


def guard(package: str = __package__ or "") -> None:
    """Wrap every sub-command declared in ``package`` with :func:`guarded` (once)."""
    for spec in REGISTRY.specs.values():
        for i, sub in enumerate(spec.subs):
            handler = sub.handler
            if handler.__module__.startswith(package) and not getattr(handler, "guarded", False):
                wrapped = guarded(handler)
                wrapped.guarded = True  # type: ignore[attr-defined]
                spec.subs[i] = replace(sub, handler=wrapped)


__all__ = ["BUSY", "guard", "guarded", "init_hide", "init_reveal", "names_hidden"]
