"""Session state → page data: one pure function per kind, chosen from :data:`VIEWS`.

A view is plain JSON data (strings, numbers, lists) that the page's script draws as text — never
HTML, except the ``.log`` lines, which are the HTML export's own escaped blocks.  ``gm=False``
is the *player view*: whatever the group may not see (a hidden D20 combatant, its numbers, hands
and face-down cards in 萌E) is left out here, not hidden by the page, so it is in neither the
HTML nor the data a player's browser receives.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chronodice.render import moe as moe_render
from chronodice.render import tick20 as t20
from chronodice.render.battle_picture import Vitals, vitals_from_events
from chronodice.render.timeline import Display, action_summary, event_summary
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.state import PHASE_NAMES
from chronodice.rules.tick20.model import Combat, Phase, Variant
from chronodice.rules.tick20.variants import rules_for
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import debuffs
from chronodice.rules.timeline.attributes import CN
from chronodice.rules.timeline.secrecy import BUSY, public
from chronodice.services.gamelog.export import ExportHead, html_pieces
from chronodice.services.web_pages import TITLES

MAX_BARS = 80
"""Most actions a TimeLine page draws (the newest): a long battle stays a small page."""
MAX_RECENT = 8
MAX_LOG_LINES = 300
"""The newest lines a live ``.log`` page shows (the export holds them all)…"""
MAX_LOG_CHARS = 60_000
"""…as far as they fit in this many characters of HTML (a page stays light on a phone)."""

Data = dict[str, Any]


@dataclass(frozen=True)
class Loaded:
    """What a source read for a view: the state and what else its view needs."""

    state: Any
    extra: Any = None


def _num(x: float | None) -> float | None:
    return None if x is None else round(float(x), 2)


# ====================================================================== TimeLine
def timeline_view(loaded: Loaded, gm: bool) -> Data:
    """Rows (participants), bars (actions), stuns, deaths, the clock, who acts next, vitals and
    the latest resolutions.  The players' page shows the public battle (no hidden NPC, no secret
    action before it resolves: :mod:`chronodice.rules.timeline.secrecy`); the GM's shows all."""
    state: bt.BattleState = loaded.state if gm else public(loaded.state).state
    display = Display()
    vit: Mapping[str, Vitals] = vitals_from_events(state, loaded.extra or {})
    index = {p.key: i for i, p in enumerate(state.participants)}
    rows = [_tl_row(state, p, vit.get(p.key)) for p in state.participants]
    names = {p.key: p.name for p in state.participants}
    bars = [_tl_bar(state, a, index, names) for a in state.actions[-MAX_BARS:]]
    stuns = [
        {"row": index.get(e.key, 0), "from": _num(e.time), "to": _num(e.after)}
        for e in state.events
        if e.kind == "stun" and e.after is not None
    ]
    deaths = [{"row": index.get(e.key, 0), "t": _num(e.time)} for e in state.events if e.kind == "death"]
    nxt = bt.next_up(state)
    recent = _tl_recent(state, display)
    return {
        "kind": "tl",
        "clock": _num(state.clock),
        "started": state.started,
        "next": {"t": _num(nxt[0]), "who": [p.name for p in nxt[1]]} if nxt else None,
        "rows": rows,
        "bars": bars,
        "stuns": stuns,
        "deaths": deaths,
        "recent": recent,
    }


def _tl_row(state: bt.BattleState, p: Any, v: Vitals | None) -> Data:
    """One participant's row: name, side, status, HP and MP, when free, the debuff pool."""
    return {
        "name": p.name,
        "npc": p.npc,
        "status": p.status,
        "hp": [_num(v.hp), _num(v.hp_full)] if v is not None and v.hp is not None else None,
        "mp": [_num(v.mp), _num(v.mp_full)] if v is not None and v.mp is not None else None,
        "free": _num(state.free_at(p.key)) if p.ready_at < BUSY else None,
        "debuff": _num(debuffs.pool(state, p.key)),
    }


def _tl_bar(state: bt.BattleState, a: Any, index: Mapping[str, int], names: Mapping[str, str]) -> Data:
    """One action's bar on its participant's row: its times, label (weapon, attribute or 整备)
    and target."""
    return {
        "id": a.id,
        "row": index.get(a.key, 0),
        "start": _num(a.start),
        "end": _num(a.end),
        "delay": _num(a.delay),
        "cancelled": _num(a.cancelled_at),
        "done": state.settled(a),
        "label": "整备"
        if a.kind == "reload"
        else (a.weapon or {}).get("name") or CN.get(a.attribute, a.attribute),
        "impact": _num(a.impact),
        "note": a.note,
        "target": names.get(a.target) if a.target else None,
    }


def _tl_recent(state: bt.BattleState, display: Display) -> list[str]:
    """The latest resolutions and events, oldest first."""
    settled = sorted(
        (a for a in state.actions if state.settled(a) or a.cancelled),
        key=lambda a: (a.effective_end, a.id),
    )[-MAX_RECENT:]
    lines = [(a.effective_end, a.id, action_summary(a, state.participant(a.key), display)) for a in settled]
    for e in state.events[-MAX_RECENT:]:
        text = event_summary(e, state.participant(e.key))
        if text:
            lines.append((e.time, 10**9 + e.id, text))
    return [text for _t, _i, text in sorted(lines)[-MAX_RECENT:]]


# ====================================================================== D20 tick combat
def _sees_numbers(st: Combat, controlled: bool, gm: bool) -> bool:
    return gm or controlled or st.options.hp_display == "show"


def tick20_view(loaded: Loaded, gm: bool) -> Data:
    """The 20 ticks with each combatant's place, whose turn, round, AP, effects with time left,
    HP/wounds as the group may see them.  The player view leaves hidden combatants out (during
    the turn of one it shows no current turn and no tick, as the group's chat shows nothing
    until that turn ends) and uses the group's own wording for names in events."""
    st: Combat = loaded.state
    rules = rules_for(st.variant)
    shown = t20.list_order(st, [c for c in st.combatants if gm or not c.hidden])
    people = []
    for c in shown:
        pos = rules.tick_position(c) if st.phase is Phase.ACTIVE else None
        people.append(
            {
                "name": t20.name_of(st, c.id, gm),
                "hidden": c.hidden,
                "side": c.side,
                "tick": pos,
                "value": t20.value_text(st, c),
                "ap": [c.ap, c.ap_max] if st.variant is Variant.BASE else None,
                "effects": t20.effects_text(st, c.id, gm),
                "health": t20.health_text(st, c, _sees_numbers(st, c.controller is not None, gm)),
                "current": c.id == st.current,
                "acted": bool(c.turns_this_round) and c.id != st.current,
                "pending": c.pending,
                "dead": c.health.dead,
            }
        )
    current = st.maybe(st.current)
    unseen = current is not None and current.hidden and not gm
    events = t20.event_lines(st, st.log[-MAX_RECENT * 2 :], gm=gm, turns=True)
    return {
        "kind": "tick20",
        "title": st.options.name,
        "variant": t20.VARIANT_NAMES[st.variant],
        "phase": st.phase.value,
        "round": st.round,
        "tick": st.tick if st.phase is Phase.ACTIVE and not unseen else None,
        "waiting": st.waiting,
        "current": t20.name_of(st, current.id, gm) if current is not None and not unseen else None,
        "combatants": people,
        "recent": [line.strip() for line in events if line.strip()][-MAX_RECENT:],
    }


# ====================================================================== 萌E
def moe_view(loaded: Loaded, gm: bool) -> Data:
    """The public table: seats, 血量, 信仰, hand counts, equipment, 奥秘×N, whose turn and phase,
    this turn's public lines.  Never a hand card or a face-down card, for either role: the GM
    view adds nothing (a 萌E GM is a player too)."""
    rec: dict[str, Any] = loaded.state
    names = [str(p.get("name", "")) for p in rec.get("players", [])]
    base: Data = {"kind": "moe", "status": rec.get("status", ""), "seats": [], "recent": []}
    g: Game | None = loaded.extra
    if g is None:  # the lobby: who has joined
        base["seats"] = [{"label": n, "waiting": True} for n in names]
        return base
    st = g.state
    m = g.pack.maps.get(st.map)
    seats = []
    for p in st.players:
        seats.append(
            {
                "label": moe_render.seat_label(g, p.seat, names),
                "alive": p.alive,
                "choosing": not p.character,
                "hp": [p.hp, p.max_hp],
                "faith": [p.faith, p.max_faith],
                "hand": len(g.hand(p.seat)),
                "equip": [moe_render.card_text(g, c) for c in g.equip(p.seat)],
                "secrets": len(g.secrets(p.seat)),
                "team": p.team + 1 if p.team >= 0 else None,
                "auto": p.auto,
                "turn": st.turn.seat == p.seat and p.alive,
            }
        )
    public, _private = moe_render.render_events(g, list(g.events), names)
    base.update(
        {
            "map": m.name if m else "未揭示地图",
            "round": st.round,
            "deck": len(g.zone("deck")),
            "discard": len(g.zone("discard")),
            "seats": seats,
            "phase": PHASE_NAMES.get(st.turn.phase, "") if st.turn.phase else "",
            "turn": moe_render.seat_label(g, st.turn.seat, names) if st.turn.phase else "",
            "recent": public[-MAX_RECENT:],
            "result": st.result,
        }
    )
    return base


# ====================================================================== .log
def log_view(loaded: Loaded, gm: bool) -> Data:
    """The newest :data:`MAX_LOG_LINES` lines as the HTML export draws them (escaped there)."""
    head: ExportHead = loaded.extra
    lines: Sequence[Any] = loaded.state
    shown = list(lines)[-MAX_LOG_LINES:]
    blocks = list(html_pieces(head, shown).blocks)
    size = 0
    for i in range(len(blocks) - 1, -1, -1):  # the newest lines that fit the page's budget
        size += len(blocks[i])
        if size > MAX_LOG_CHARS and i < len(blocks) - 1:
            blocks = blocks[i + 1 :]
            break
    return {
        "kind": "log",
        "name": head.name,
        "ended": head.ended_at is not None,
        "total": len(lines),
        "skipped": len(lines) - len(blocks),
        "html": blocks,
    }


def log_delta(old: Data, new: Data) -> Data | None:
    """What a page showing ``old`` needs to show ``new``: the lines appended (the page drops its
    oldest so as to keep ``keep`` of them), or None when it must redraw (another name, ended)."""
    grew = new["total"] - old["total"]
    if old["name"] != new["name"] or old["ended"] != new["ended"] or not 0 < grew <= len(new["html"]):
        return None
    return {k: v for k, v in new.items() if k != "html"} | {
        "append": new["html"][-grew:],
        "keep": len(new["html"]),
    }


ViewFn = Callable[[Loaded, bool], Data]
VIEWS: dict[str, ViewFn] = {"tl": timeline_view, "tick20": tick20_view, "moe": moe_view, "log": log_view}
"""Kind → view; ``kind`` is also the first path segment of a link."""
DELTAS: dict[str, Callable[[Data, Data], Data | None]] = {"log": log_delta}
"""Kinds whose changes go out as a delta (a log grows; the other pages are small snapshots)."""


def build(kind: str, loaded: Loaded, gm: bool) -> Data:
    """The page data of ``kind`` for the role (``gm``)."""
    return VIEWS[kind](loaded, gm) | {"title_kind": TITLES[kind], "gm": gm}


__all__ = ["DELTAS", "MAX_BARS", "MAX_LOG_LINES", "TITLES", "VIEWS", "Loaded", "build"]
