"""The group's feed: one message per action (issue 27).

The public lines of what happened are *held* in the session (``feed``) while the game waits for
anything but a play-phase action — a response window, a 奥秘 pause, a 是否发动 question, a
discard, a 拼点 — and go out together, as **one** group message, when it next waits for a
play-phase action (or a character choice, or nothing: the game is over).  So an action's card,
its target, every response and the outcome reach the group in one message, a turn's end and the
next turn's start in another, and an ordinary turn (at most two actions) costs at most three
group messages.

Nothing here looks at hidden cards: whether the game waits for a play action is public (windows
always open, whoever holds what: :mod:`chronodice.rules.moe.windows`), so when the group hears
something tells a spectator nothing either.  The group is not told that a window is open at all;
the seats asked are told privately, and the one whose command was held gets the new public lines
privately (:func:`held_news`).

A step that plays several whole turns nobody had to answer (players on 托管 or AI seats, one
after another) tells each turn in one line (:mod:`chronodice.render.moe_digest`): two players
away no longer make one message of hundreds of lines.

At each round start the message carries a short summary of the round that ended (damage dealt,
血量 recovered, deaths) and a picture of the table (:mod:`chronodice.render.moe_picture`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chronodice.render import moe as R
from chronodice.render.moe_digest import chain, turn_line
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.state import PHASE_NAMES

FEED = "feed"
"""Session key: the public lines held for the next group message."""
ROUND_SEEN = "feed_round"
"""Session key: a round started among the held lines (the message gets the table picture)."""
PROMPTED = "prompted"
"""Session key: ``[turn_no, seat]`` whose play prompt the group has seen."""
STATS = "round_stats"
"""Session key: what the current round did so far (for the round summary)."""
MAX_HELD = 300
"""Held lines kept at most (the message keeps the newest anyway: :func:`~.R.fit_lines`)."""


@dataclass(frozen=True)
class Flush:
    """What :func:`advance` decided: ``text`` for the group now (``None``: held), whether it
    opens a round (the picture goes with it), and the new public lines of this step."""

    text: str | None
    round_start: bool
    news: list[str]


def flush_point(g: Game) -> bool:
    """Whether the game waits for something the group should hear about now: a play-phase
    action, a character choice, or nothing (the game is over or stopped)."""
    ask = g.pending
    return ask is None or ask.kind == "play" or ask.reason == "character"


def _new_stats() -> dict[str, Any]:
    return {"damage": 0, "recover": 0, "deaths": []}


def round_summary(g: Game, n: int, stats: dict[str, Any], names: list[str]) -> str:
    """One line about round ``n``: damage dealt, 血量 recovered, who died.

    Public facts only (every damage and death is announced anyway)."""
    bits = []
    if stats["damage"]:
        bits.append(f"共造成{stats['damage']}点伤害")
    if stats["recover"]:
        bits.append(f"回复{stats['recover']}点血量")
    if stats["deaths"]:
        bits.append("阵亡：" + "、".join(R.seat_label(g, s, names) for s in stats["deaths"]))
    return f"第{n}轮小结：" + ("，".join(bits) if bits else "无人受伤")


def _initial_line(events: list[dict[str, Any]]) -> str:
    """The starting hands in one line (``每人获得4张起始手牌``), not one line per seat."""
    counts = {int(ev["n"]) for ev in events}
    return f"每人获得{counts.pop()}张起始手牌" if len(counts) == 1 else ""


def _faith_line(g: Game, events: list[dict[str, Any]], names: list[str]) -> str:
    """Several 信仰 changes in a row (an attack's damage moves both sides') in one line."""
    return "信仰值：" + "，".join(
        f"{R.seat_label(g, int(ev['who']), names)}{ev['faith']}/{g.p(int(ev['who'])).max_faith}"
        for ev in events
    )


def _grouped(g: Game, events: list[dict[str, Any]], names: list[str]) -> list[str]:
    """The group's lines for ``events`` with runs folded: the starting hands dealt to every seat
    (one line), and consecutive 信仰 changes (one line)."""
    lines: list[str] = []
    i = 0
    while i < len(events):
        ev = events[i]
        j = i + 1
        if ev["t"] == "move" and ev.get("reason") == "initial":
            while j < len(events) and events[j]["t"] == "move" and events[j].get("reason") == "initial":
                j += 1
            line = _initial_line(events[i:j]) if j - i > 1 else ""
        elif ev["t"] == "faith":
            while j < len(events) and events[j]["t"] == "faith":
                j += 1
            line = _faith_line(g, events[i:j], names) if j - i > 1 else ""
        else:
            line = ""
        lines += [line] if line else R.render_events(g, events[i:j], names)[0]
        i = j
    return lines


def _count(stats: dict[str, Any], ev: dict[str, Any]) -> None:
    t = ev["t"]
    if t == "damage":
        stats["damage"] += int(ev["n"])
    elif t == "recover":
        stats["recover"] += int(ev["n"])
    elif t == "death":
        stats["deaths"].append(int(ev["who"]))


def public_lines(state: dict[str, Any], g: Game, events: list[dict[str, Any]], names: list[str]) -> list[str]:
    """The group's lines for ``events``, with a round summary before each new round (the
    round's numbers are kept in the session between commands).  A step that played a chain
    of whole turns (players on 托管, AI seats) tells each of them in one line, without the
    round headers and summaries between them (:mod:`chronodice.render.moe_digest`)."""
    stats = state.get(STATS) or _new_stats()
    turns = {start: end for start, end in chain(events)}
    first, last = (min(turns), max(turns.values())) if turns else (0, 0)
    lines: list[str] = []
    chunk: list[dict[str, Any]] = []
    i = 0
    while i < len(events):
        if i in turns:
            lines += _grouped(g, chunk, names)
            chunk = []
            seg = events[i : turns[i]]
            for ev in seg:
                _count(stats, ev)
            lines.append(turn_line(g, seg, names))
            i = turns[i]
            continue
        ev = events[i]
        i += 1
        if ev["t"] == "round":
            lines += _grouped(g, chunk, names)
            chunk = []
            inside = first < i - 1 < last
            if int(ev["round"]) > 1 and not inside:
                lines.append(round_summary(g, int(ev["round"]) - 1, stats, names))
            stats = _new_stats()
            if inside:
                continue  # the turn lines say their round
        _count(stats, ev)
        chunk.append(ev)
    lines += _grouped(g, chunk, names)
    state[STATS] = stats
    return lines


def play_prompt(state: dict[str, Any], g: Game, names: list[str]) -> str | None:
    """ "轮到X出牌" once per turn: the group knows whose play phase it is after that."""
    ask = g.pending
    if ask is None or ask.kind != "play":
        return None
    key = [g.state.turn_no, ask.seat]
    if state.get(PROMPTED) == key:
        return None
    state[PROMPTED] = key
    return R.public_prompt(g, ask, names)


def hold(state: dict[str, Any], lines: list[str]) -> None:
    """Add ``lines`` to what the next group message says (a timeout note, for one)."""
    held = [*(state.get(FEED) or []), *lines]
    state[FEED] = held[-MAX_HELD:]


def advance(
    state: dict[str, Any], g: Game, events: list[dict[str, Any]], names: list[str], *, force: bool = False
) -> Flush:
    """Hold this step's public lines, or let everything held go out as one message (``force``:
    now, whatever the game waits for — a surrender or a kick, whose timing is nobody's card)."""
    news = public_lines(state, g, events, names)
    if any(ev["t"] == "round" for ev in events):
        state[ROUND_SEEN] = True
    hold(state, news)
    if not force and not flush_point(g):
        return Flush(None, False, news)
    lines = list(state.get(FEED) or [])
    prompt = play_prompt(state, g, names)
    if prompt:
        if lines and lines[-1] == PHASE_NAMES["play"]:
            lines.pop()  # "轮到X出牌" says it
        lines.append(prompt)
    round_start = bool(state.pop(ROUND_SEEN, False))
    state[FEED] = []
    return Flush(R.fit_lines(lines) if lines else None, round_start, news)


__all__ = ["FEED", "Flush", "advance", "flush_point", "hold", "play_prompt", "public_lines", "round_summary"]
