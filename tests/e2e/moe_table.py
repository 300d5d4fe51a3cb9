"""A 萌E table over the real WebSocket for the end-to-end tests: read the stored game, send one
chat message and wait for *its* effect — the game's record changing, or a reply — rather than
a fixed silence (an answer whose step the feed holds back gets no reply at all, and waiting
seconds for nothing made a whole game take minutes)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from onebot_client import ApiCall, BotProcess, OneBotClient

from chronodice.render.moe import card_text
from chronodice.rules.moe.record import rebuild
from chronodice.rules.moe.state import ALL
from chronodice.store import session_rows

QUIET = 0.2
"""Seconds without a further API call after which a command's replies are taken as complete
(replies go out right after the commit, milliseconds apart)."""
SWEEP = 0.2
"""The sweeper period :func:`fast_bot` gives the plugin (``CHRONODICE_MOE_SWEEP_SECONDS``; 2 s by
default): the group part of a private command reaches the group within it."""


def fast_bot(tmp_path: Path) -> Iterator[BotProcess]:
    """The bot as ``conftest.bot_process`` starts it, without flood control: the test answers at
    machine speed (1.5 commands a second per player is a human's pace; the flood limits have
    their own end-to-end test)."""
    proc = BotProcess(
        workdir=tmp_path,
        extra_env={
            "CHRONODICE_RNG_SEED": "20261122",
            "CHRONODICE_FLOOD_ENABLED": "false",
            "CHRONODICE_MOE_SWEEP_SECONDS": str(SWEEP),
            "CHRONODICE_CLOCK_SHIFT_FILE": str(tmp_path / "clock-shift"),
        },
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def load_state(bot: BotProcess, group: int) -> dict[str, Any] | None:
    """The group's stored 萌E session (``None`` before there is one).  The head and its rows are
    read in one transaction (one snapshot): the bot may commit the next input between two
    statements, which would pair a head with the rows of a later state."""
    con = sqlite3.connect(bot.workdir / "chronodice.db", isolation_level=None)
    try:
        con.execute("BEGIN")
        row = con.execute(
            "SELECT state FROM sessions WHERE scope=? AND system='moe'", (str(group),)
        ).fetchone()
        items: dict[str, list[str]] = {}
        for field, item in con.execute(
            "SELECT field, item FROM session_rows WHERE scope=? AND system='moe' ORDER BY field, seq",
            (str(group),),
        ):
            items.setdefault(field, []).append(item)
        con.execute("ROLLBACK")
    finally:
        con.close()
    if row is None:
        return None
    whole = session_rows.assemble(row[0], items)  # the inputs are kept one per row
    return json.loads(whole) if whole is not None else None


def load(bot: BotProcess, group: int) -> tuple[dict[str, Any], Any]:
    """The group's session and its game rebuilt from the record."""
    state = load_state(bot, group)
    assert state is not None and state.get("record") is not None
    return state, rebuild(state["record"])


def hidden_faces(g: Any) -> set[str]:
    """Faces of the cards someone holds hidden now (hands, 奥秘, face-down piles), less faces
    also on a card all know.  Not the deck: a reshuffle hides cards the group saw discarded."""
    public = {card_text(g, c) for c, k in g.state.known.items() if ALL in k}
    held = [
        c
        for zone, cids in g.state.zones.items()
        if zone.startswith(("hand:", "secret:", "pile:"))
        for c in cids
        if ALL not in g.state.known.get(c, ())
    ]
    return {card_text(g, c) for c in held} - public


def record_key(bot: BotProcess, group: int) -> str:
    """The session as text, less what the sweeper's deliveries change (the outbox): it changes
    exactly when the game took an input (or a pick, a setting)."""
    state = load_state(bot, group) or {}
    return json.dumps({k: v for k, v in state.items() if not k.startswith("outbox")}, sort_keys=True)


class MoeTable:
    """One group's table: ``act`` sends a command and returns the calls it caused; every group
    message seen is checked against the cards hidden at that moment."""

    def __init__(self, client: OneBotClient, bot: BotProcess, group: int) -> None:
        self.client = client
        self.bot = bot
        self.group = group
        self.checked = 0
        self.started = False

    async def act(
        self, text: str, user: int, *, private: bool = False, moves: bool = True, timeout: float = 10.0
    ) -> list[ApiCall]:
        """Send ``text`` as ``user``; ``moves``: the command is an answer that changes the game
        (wait for the record to change), else wait for its first reply.  Then collect calls
        until :data:`QUIET` seconds pass without one.  With a bot that acks: until the bot has
        handled it, then check that the record changed (``moves``) or a reply came."""
        before = record_key(self.bot, self.group) if moves else ""
        start = len(self.client.all_calls)
        await self.client.post(
            text, user=user, group=None if private else self.group, card=f"玩家{user % 100}"
        )
        if self.client.acks:
            await self.client.settled(timeout)
            changed = (
                record_key(self.bot, self.group) != before if moves else len(self.client.all_calls) > start
            )
            if not changed:
                got = [c.text for c in self.client.all_calls[start:]]
                raise AssertionError(f"{text!r} by {user} changed nothing: {got}")
            self.check_no_leak()
            return self.client.all_calls[start:]
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if moves and record_key(self.bot, self.group) != before:
                break
            if not moves and len(self.client.all_calls) > start:
                break
            await asyncio.sleep(0.03)
        else:
            got = [c.text for c in self.client.all_calls[start:]]
            raise AssertionError(f"{text!r} by {user} changed nothing in {timeout}s: {got}")
        await self.quiet()
        calls = self.client.all_calls[start:]
        self.check_no_leak()
        return calls

    async def quiet(self) -> None:
        """Until :data:`QUIET` seconds pass with no API call."""
        await self.client.quiet_for(QUIET)

    async def drained(self, timeout: float = 3 * SWEEP) -> None:
        """Until the sweeper delivered the outbox (the group part of commands typed in private)."""
        end = time.monotonic() + timeout
        while (load_state(self.bot, self.group) or {}).get("outbox"):
            assert time.monotonic() < end, "the outbox was not delivered"
            await asyncio.sleep(0.1)
        await self.quiet()
        self.check_no_leak()

    def group_calls(self, since: int = 0) -> list[ApiCall]:
        return [
            c
            for c in self.client.all_calls[since:]
            if c.to_group and int(c.params.get("group_id", 0)) == self.group
        ]

    def check_no_leak(self) -> None:
        """Every group message not checked yet, against the cards hidden from someone now."""
        if not self.started:
            self.checked = len(self.client.all_calls)
            return
        _state, g = load(self.bot, self.group)
        faces = hidden_faces(g)
        for c in self.group_calls(self.checked):
            leaked = [f for f in faces if f in c.text]
            assert not leaked, (leaked, c.text)
        self.checked = len(self.client.all_calls)


def turns_of(texts: list[str]) -> list[int]:
    """Group messages per turn: a turn's messages run from the one that starts it (``…的回合``)
    to the next."""
    per_turn: list[int] = []
    for text in texts:
        if "的回合" in text:
            per_turn.append(0)
        if per_turn:
            per_turn[-1] += 1
    return per_turn


__all__ = [
    "QUIET",
    "SWEEP",
    "MoeTable",
    "fast_bot",
    "hidden_faces",
    "load",
    "load_state",
    "record_key",
    "turns_of",
]
