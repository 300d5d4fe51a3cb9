"""The way on for a game that no longer rebuilds (a changed or missing pack, a replay desync).

Two ways, both pure functions of the stored record:

* :func:`resume` — continue.  If the whole log still replays under the current pack to the
  stored digest, nothing is lost (the record just takes the new pack hash).  Otherwise the game
  goes back to its last consistent point: the latest turn-start snapshot (the inputs after it
  are dropped, so the current turn starts again from its beginning), or, for a game still in
  its set-up (no snapshot yet), the start with the same seats and seed.  The snapshot must fit
  the current pack (every card, character, skill and map it names still exists).
* :func:`standings` — end with the result so far: the players as they stood at the latest
  snapshot (who is alive, HP), or ``None`` when there is none.

>>> from .record import new_record, start, to_record
>>> rec, g, _ = start(new_record("demo", ["1", "2"], seed=4))
>>> broken = {**rec, "pack_hash": "0" * 16}
>>> new, g2, how, _ev = resume(broken)
>>> how, new["pack_hash"] == rec["pack_hash"], g2.state.digest() == g.state.digest()
('all', True, True)
"""

from __future__ import annotations

from typing import Any

from .engine import Game
from .pack import Pack
from .record import DesyncError, load_checked, pack_hash, rebuild, start, to_record
from .state import GameState

HOW = {
    "all": "存档完整，已按当前卡包继续",
    "snapshot": "已回到本回合开始时的存档继续（本回合已进行的操作作废）",
    "start": "对局尚在选角色阶段，已按原座次重新开始选角色",
}
"""What :func:`resume` did, in Chinese (for the group)."""

CAUSES = {
    "pack_changed": "卡包内容在对局开始后被修改",
    "pack_missing": "卡包无法加载",
    "replay": "存档回放与记录不一致",
}


def check_fits(state: dict[str, Any], pack: Pack) -> None:
    """A stored state can go on under ``pack``: everything it names exists there."""
    missing: list[str] = []
    for cid, (key, _suit, _rank) in state["cards"].items():
        if key not in pack.cards:
            missing.append(f"card {cid}:{key}")
    for p in state["players"]:
        if p["character"] and p["character"] not in pack.characters:
            missing.append(f"character {p['character']}")
        missing.extend(f"skill {s['key']}" for s in p["skills"] if s["key"] not in pack.skills)
    if state.get("map") and state["map"] not in pack.maps:
        missing.append(f"map {state['map']}")
    if missing:
        raise DesyncError(
            "the snapshot does not fit the pack: " + ", ".join(missing[:8]), cause="pack_changed"
        )


def resume(rec: dict[str, Any]) -> tuple[dict[str, Any], Game, str, list[dict[str, Any]]]:
    """(new record, the game, how — a key of :data:`HOW`, output events).  Raises
    :class:`DesyncError` when there is no consistent point to go on from."""
    pack = load_checked(rec, check_pack=False)
    fresh = {**rec, "pack_hash": pack_hash(pack)}
    try:
        g = rebuild(fresh)
    except DesyncError:
        pass
    else:
        g.drain_events()
        return to_record(g, fresh), g, "all", []
    snap = rec.get("snapshot")
    if snap is None:
        new, g, events = start({**fresh, "inputs": [], "snapshot": None, "digest": None})
        return new, g, "start", events
    check_fits(snap["state"], pack)
    base = {**fresh, "inputs": list(rec["inputs"][: snap["inputs"]]), "digest": None}
    g = rebuild(base, check=False)
    events = g.drain_events()
    return to_record(g, base), g, "snapshot", events


def standings(rec: dict[str, Any]) -> GameState | None:
    """The players as they stood at the latest consistent point (no pack needed)."""
    snap = rec.get("snapshot")
    if snap is None:
        return None
    try:
        return GameState.from_dict(snap["state"])
    except (KeyError, TypeError, ValueError):
        return None
