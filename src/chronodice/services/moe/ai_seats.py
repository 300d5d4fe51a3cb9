"""AI seats in the lobby: the host fills empty seats with AI players so that two friends can
play a four-player map.

Forms (short, for a phone): ``.moe new 双王国 AI 2`` (also ``ai2``, ``AI 2``) when opening, or
``.moe ai 2`` in the lobby (``.moe ai 0`` removes them).  AI seats are named ``AI·1``, ``AI·2``…
and have the user id ``ai:N`` (never a QQ number: nothing is ever sent to them).  A player who
joins a full lobby takes the place of the last AI seat.  At ``.moe start`` every AI seat is put
on 托管 with the AI style (:mod:`chronodice.rules.moe.ai`), logged as an admin input like any
``.moe auto``: it answers every request at once, response windows included.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from chronodice.core.args import Candidates, Kind, ParseEnv
from chronodice.core.errors import IllegalAction, InputSyntaxError
from chronodice.rules.moe.ai import AI_NAME, AI_PREFIX, is_ai_user
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.record import admin

from ._common import MAX_PLAYERS, run_auto

_AI = re.compile(r"(?:ai|机器人|电脑)(?:\s*[x×*]?\s*([0-9]{1,3}))?(?=\s|$)", re.IGNORECASE)
FORM = "AI 人数（如 AI 2）"


@dataclass(frozen=True)
class AiCount(Kind):
    """``AI 2`` / ``ai2`` / ``AI×2``: how many AI seats (1 to ``MAX_PLAYERS - 1``)."""

    label: str = FORM
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        m = _AI.match(text, pos)
        if not m:
            return
        if m.group(1) is None:
            raise InputSyntaxError(f"AI后面写人数，如 AI 2（1到{MAX_PLAYERS - 1}个）")
        n = int(m.group(1))
        if not 1 <= n <= MAX_PLAYERS - 1:
            raise InputSyntaxError(f"AI人数应为1到{MAX_PLAYERS - 1}")
        yield n, m.end()


AI_COUNT = AiCount()


def humans(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in state["players"] if not is_ai_user(p["user"])]


def ai_entries(n: int) -> list[dict[str, Any]]:
    return [{"user": f"{AI_PREFIX}{i}", "name": AI_NAME.format(n=i)} for i in range(1, n + 1)]


def set_ai_seats(state: dict[str, Any], n: int) -> str:
    """Make the lobby hold exactly ``n`` AI seats (after the players); returns the group's line."""
    people = humans(state)
    if n < 0 or len(people) + n > MAX_PLAYERS:
        room = MAX_PLAYERS - len(people)
        raise IllegalAction(f"最多{MAX_PLAYERS}人：现有{len(people)}名玩家，最多还能加{room}个AI")
    before = len(state["players"]) - len(people)
    state["players"] = people + ai_entries(n)
    total = len(state["players"])
    if n == 0:
        return f"已移除AI座位（{total}人）"
    names = "、".join(p["name"] for p in state["players"][len(people) :])
    if before == 0:
        return f"已加入{n}个AI座位：{names}（共{total}人）"
    if n > before:
        return f"已加入{n - before}个AI座位，现有{names}（共{total}人）"
    if n < before:  # ``.moe ai N`` sets how many there are: fewer removes some (issue 44)
        return f"已移除{before - n}个AI座位，现有{names}（共{total}人）"
    return f"AI座位不变：{names}（共{total}人）"


def count_hint(state: dict[str, Any], need: tuple[int, ...]) -> str:
    """How a lobby whose size the map does not allow gets there (issue 44: 2 players + ``.moe ai
    2`` + a third player made 5 on 双王国, and ``.moe start`` said only 需要4/6/8人)."""
    people = len(humans(state))
    total = len(state["players"])
    bots = total - people
    counts = sorted((c for c in need if people <= c <= MAX_PLAYERS), key=lambda c: (abs(c - total), c))
    fixes = [f".moe ai {c - people} 补到{c}人" for c in sorted(counts[:2])]
    have = f"现有{total}人" + (f"（{people}名玩家、{bots}个AI）" if bots else "")
    if fixes:
        return f"{have}：房主可发送 " + "，或 ".join(fixes)
    return f"{have}：玩家太多，需要有人 .moe leave 退出，或 .moe abort 后换一张地图开局"


def make_room(state: dict[str, Any]) -> str | None:
    """A player joins a full lobby: the last AI seat leaves; its name, else ``None``."""
    if len(state["players"]) < MAX_PLAYERS:
        return None
    for i in range(len(state["players"]) - 1, -1, -1):
        if is_ai_user(state["players"][i]["user"]):
            return str(state["players"].pop(i)["name"])
    return None


def next_host(state: dict[str, Any]) -> str | None:
    """The player who becomes host when the host leaves (never an AI seat)."""
    people = humans(state)
    return str(people[0]["user"]) if people else None


def wake(g: Game, rng: random.Random, *, answer: bool) -> bool:
    """Put every AI seat on 托管 (an admin input each); with ``answer``, let them answer what
    waits for them now.  Returns whether there was an AI seat."""
    seats = [p.seat for p in g.state.players if is_ai_user(p.user)]
    for seat in seats:
        if not g.p(seat).auto:
            admin(g, {"admin": "auto", "seat": seat, "on": True})
    if seats and answer:
        run_auto(g, rng)
    return bool(seats)


__all__ = ["AI_COUNT", "AiCount", "count_hint", "humans", "make_room", "next_host", "set_ai_seats", "wake"]
