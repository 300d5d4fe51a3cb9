"""What the battle views need beyond the battle state: each participant's 体力/意志 from the card."""

from __future__ import annotations

from chronodice.core.commands import Call
from chronodice.render.battle_picture import Vitals
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.load import overload_note

from ._common import SYSTEM, load_tl


async def battle_vitals(call: Call, state: bt.BattleState) -> dict[str, Vitals]:
    """体力/意志 now of every participant whose card still exists (keyed like the battle)."""
    out: dict[str, Vitals] = {}
    for p in state.participants:
        rec = await call.app.store.characters.get_character(p.character_id)
        if rec is None or rec.system != SYSTEM or SYSTEM not in rec.data:
            continue
        char = load_tl(rec)
        res = char.resources
        out[p.key] = Vitals(res.hp, res.hp_full, res.mp, res.mp_full, overload_note(char.derived()))
    return out


__all__ = ["battle_vitals"]
