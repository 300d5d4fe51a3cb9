"""The GM's two battle settings (issue 25): ``.bat 自动伤害 开/关`` and ``.bat 详细 开/关``.

* 自动伤害 (automatic damage) belongs to the battle (:attr:`BattleState.auto_damage`): each hit
  that settles is applied to its target's 体力 by the bot (:mod:`.feed`) instead of being offered
  as ``.crd 目标:hp -N #k``.  It is part of the battle, so ``.undo`` takes it back and
  ``.bat end`` ends it; turned on before anybody declares, it opens the battle (the opening).
* 详细 (verbose) belongs to the group (its ``timeline`` settings, beside ``.tlconf``'s ``open``
  and ``sheet``): every battle command answers with the whole timeline again, as before the
  compact replies.  Bare ``.bat`` and ``.bat 记录`` are long either way.

Both follow ``.bat``'s other sub-commands (a Chinese keyword with an English alias, GM only
unless ``.tlconf open``) and ``.tlconf``'s values (开/关, on/off, 1/0); without a value they say
how they are set.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from chronodice.core.args import Choice, opt
from chronodice.core.commands import Call
from chronodice.core.reply import Reply
from chronodice.rules.timeline import battle as bt
from chronodice.services.timeline.codec import BATTLE_CODEC

from ._common import display_of, require_unless_open, update_tl_settings
from .battle import bat
from .feed import apply_battle
from .kinds import ON_OFF

SWITCH = opt("on", Choice(ON_OFF, label="开/关"))


def _word(on: bool) -> str:
    return "开" if on else "关"


@bat.sub(
    "自动伤害",
    "autodamage",
    params=[SWITCH],
    help="本场战斗命中自动扣体力（开/关，默认关：回复给出 .crd 指令）（默认仅GM）",
)
async def bat_auto_damage(call: Call, on: bool | None) -> list[Reply]:
    if on is None:
        state = await call.app.store.sessions.load_state(call.ctx.scope, BATTLE_CODEC)
        now = bool(state is not None and state.auto_damage)
        return [Reply.say(f"自动伤害：{_word(now)}（.bat 自动伤害 开/关）")]
    await require_unless_open(call, "设置自动伤害")

    def fn(s: bt.BattleState) -> tuple[bt.BattleState, bool]:
        return replace(s, auto_damage=on), s.auto_damage

    was = await apply_battle(call, fn, create=True)
    if on:
        text = "自动伤害：开√ 本场战斗中结算的命中由骰娘直接扣除目标体力（按其 .dr 减免），回复注明扣除与死亡"
    else:
        text = "自动伤害：关√ 命中时回复给出 .crd 指令，由GM记录"
    return [Reply.say(text if was != on else f"自动伤害已经是{_word(on)}")]


@bat.sub(
    "详细",
    "verbose",
    params=[SWITCH],
    help="本群战斗回复附完整时间轴（开/关，默认关：简短回复，.bat 查看全貌）（默认仅GM）",
)
async def bat_verbose(call: Call, on: bool | None) -> list[Reply]:
    if on is None:
        now = (await display_of(call)).verbose
        return [Reply.say(f"详细回复：{_word(now)}（.bat 详细 开/关）")]
    await require_unless_open(call, "设置详细回复")

    def update(settings: dict[str, Any]) -> dict[str, Any]:
        return {**settings, "verbose": on}

    await update_tl_settings(call, update)
    if on:
        return [Reply.say("详细回复：开√ 本群每条战斗指令都附完整时间轴")]
    return [Reply.say("详细回复：关√ 战斗指令简短回复（不超过6行），完整时间轴请发 .bat")]


__all__ = ["bat_auto_damage", "bat_verbose"]
