"""One line per turn for a chain of turns nobody had to answer (issue 44).

When players on 托管 (or AI seats) play several whole turns in one step — two players away, the
sweeper's timeout starts their chain — the group used to get every line of every turn at once:
one message of hundreds of lines, cut to its end (``略去前229条``).  Such a step now tells each
complete turn in **one** line: who played, what they used, the damage, recovery and deaths,
from the public fields of the events only (hidden cards never appear: a use, a damage, a death
are public).

>>> [(s, e) for s, e in complete_turns([{"t": "turn", "seat": 0}, {"t": "turn", "seat": 1}])]
[(0, 1)]
"""

from __future__ import annotations

from typing import Any

from chronodice.rules.moe.ai import is_ai_player
from chronodice.rules.moe.engine import Game

from .moe_text import hp_shown, seat_label, skill_name

BOUNDARIES = ("turn", "round", "game_over")
"""Events that end a turn's lines (``turn_skipped`` too, when it starts a turn of its own)."""
MAX_LINE = 160
"""A turn line is cut (…) beyond this many characters."""
CHAIN = 2
"""Complete turns in one step from which each is told in one line."""


def complete_turns(events: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """``(start, end)`` index ranges of the turns that begin and end within ``events``."""
    out: list[tuple[int, int]] = []
    start: int | None = None
    seat: int | None = None
    for i, ev in enumerate(events):
        t = ev["t"]
        if t == "turn_skipped" and start is not None and ev.get("seat") == seat:
            continue  # the turn that just began is skipped: part of it
        if t in BOUNDARIES or t == "turn_skipped":
            if start is not None:
                out.append((start, i))
            start, seat = (i, ev.get("seat")) if t in ("turn", "turn_skipped") else (None, None)
    return out


def chain(events: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """The complete turns of a step that played at least :data:`CHAIN` of them, else ``[]``
    (a single turn between players' own keeps its detailed lines)."""
    turns = complete_turns(events)
    return turns if len(turns) >= CHAIN else []


def turn_line(g: Game, events: list[dict[str, Any]], names: list[str]) -> str:
    """The one line of a complete turn (``events`` start with its ``turn`` event)."""
    head = events[0]
    seat = int(head["seat"])
    p = g.p(seat)
    who = seat_label(g, seat, names)
    tag = "（AI）" if is_ai_player(p) else "（托管）" if p.auto else ""
    rnd = f"第{head['round']}轮 " if head.get("round") else ""
    if head["t"] == "turn_skipped" or any(ev["t"] == "turn_skipped" for ev in events):
        return f"{rnd}{who}跳过了此回合"
    parts = [part for ev in events[1:] if (part := _part(g, ev, seat, names))]
    extra = "额外回合" if head.get("extra") else "回合"
    line = f"{rnd}{who}的{extra}{tag}：" + ("，".join(parts) if parts else "没有使用牌")
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def _short(seat: int, names: list[str]) -> str:
    return f"{seat + 1}号{names[seat] if seat < len(names) else ''}"


def _part(g: Game, ev: dict[str, Any], seat: int, names: list[str]) -> str:
    """What one event adds to the turn's line ('' for what the line leaves out: phases, draws,
    discards, faith)."""
    t = ev["t"]
    S = lambda s: _short(int(s), names)  # noqa: E731
    if t == "use":
        card = f"【{g.cdef(ev['card']['key']).name}】"
        user = int(ev["user"])
        actor = "" if user == seat else S(user)
        if ev.get("response"):
            return f"{actor}以{card}响应"
        others = [s for s in ev.get("targets", []) if s != user]
        if not others and g.cdef(ev["card"]["key"]).category == "equipment":
            return f"{actor}装备{card}"
        return f"{actor}{'对' + '、'.join(S(s) for s in others) if others else ''}使用{card}"
    if t == "skill":
        actor = "" if int(ev["who"]) == seat else S(ev["who"])
        return f"{actor}发动【{skill_name(g, ev['skill'])}】"
    if t in ("damage", "lose_hp", "recover"):
        who = int(ev["victim"] if t == "damage" else ev["who"])
        verb = {"damage": "受到", "lose_hp": "流失", "recover": "回复"}[t]
        unit = "点伤害" if t == "damage" else "点血量"
        return f"{S(who)}{verb}{ev['n']}{unit}（血量{hp_shown(ev['hp'])}/{g.p(who).max_hp}）"
    if t == "death":
        return f"{S(ev['who'])}阵亡"
    if t == "move" and str(ev.get("to", "")).startswith("secret:"):
        return "放置了一张奥秘"
    if t == "secret_flip":
        return f"{S(ev['who'])}翻开奥秘【{g.cdef(g.card(ev['card']).key).name}】"
    if t == "concede":
        return f"{S(ev['who'])}投降"
    if t == "to_ai":
        return f"{S(ev['who'])}交给AI"
    return ""


__all__ = ["CHAIN", "chain", "complete_turns", "turn_line"]
