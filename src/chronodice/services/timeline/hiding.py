"""``.bat 隐藏 / 现身 / 暗宣言``: the GM hides an NPC, shows it, or keeps every NPC declaration
secret until it resolves (the rules in :mod:`chronodice.rules.timeline.secrecy`, the replies in
:mod:`.secrets`).  Hiding is said to the GM alone: typed in the group, only the command shows."""

from __future__ import annotations

from dataclasses import replace

from chronodice.core.args import Choice, Name, arg
from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.rules.timeline.secrecy import set_hidden

from ._common import require_unless_open, running_battle
from .battle import bat
from .feed import apply_battle

ON_OFF = Choice({"开": True, "on": True, "关": False, "off": False}, label="开/关")


@bat.sub(
    "隐藏",
    "hide",
    params=[arg("name", Name(label="NPC名"))],
    help="隐藏NPC：群里看不到它，直到它的行动结算（GM，宜私聊）",
)
async def bat_hide(call: Call, name: str) -> list[Reply]:
    return await _show_or_hide(call, name, hide=True)


@bat.sub("现身", "reveal", params=[arg("name", Name(label="NPC名"))], help="让隐藏的NPC现身（GM）")
async def bat_reveal(call: Call, name: str) -> list[Reply]:
    return await _show_or_hide(call, name, hide=False)


@bat.sub("暗宣言", "veil", params=[arg("on", ON_OFF)], help="开：NPC的宣言只私聊GM，结算时才公开（GM）")
async def bat_veil(call: Call, on: bool) -> list[Reply]:
    await require_unless_open(call, "设置暗宣言")
    await apply_battle(call, lambda s: (replace(s, veil=on), None))
    if on:
        return [
            Reply.say(
                "暗宣言：开√ NPC的宣言只私聊GM，结算时公开（GM在群里发 .gm 私聊 绑定后私聊宣言，群里不留指令）"
            )
        ]
    return [Reply.say("暗宣言：关√ NPC的宣言照常公开")]


async def _show_or_hide(call: Call, name: str, *, hide: bool) -> list[Reply]:
    await require_unless_open(call, "隐藏NPC" if hide else "让NPC现身")
    state = await running_battle(call)
    p = next((p for p in state.participants if p.name == name and p.npc), None)
    if p is None:
        raise IllegalAction(f"战斗中没有名为[{name}]的NPC")
    await apply_battle(call, lambda s: (set_hidden(s, p.key, hide), None))
    if hide:
        return [Reply.whisper(f"[{name}]已隐藏：群里看不到它和它的行动，直到行动结算；.bat 现身 {name} 公开")]
    return [Reply.say(f"[{name}]现身√")]


__all__ = ["bat_hide", "bat_reveal", "bat_veil"]
