"""One command with text no database takes never fails the commands batched with it (issue 23,
item 4): six players ``.bat 力量 1t`` at once on PostgreSQL, one of them with ``备注\\x00`` or a
lone surrogate, all six answered and applied; a state no encoder takes fails only its own
command."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from dataclasses import dataclass, replace
from typing import Any

import pytest
from helpers import say

from chronodice.app import App
from chronodice.core.ratelimit import FloodSettings
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.store import Store

SHEET = (
    ".TLsetup 姓名:{name},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
    "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
)


@dataclass(frozen=True)
class Box:
    items: tuple[Any, ...] = ()


class BoxCodec:
    system = "badbox"
    immutable = True
    row_fields: tuple[str, ...] = ()

    def decode(self, text: str) -> Box:
        return Box(tuple(json.loads(text)["items"]))

    def encode(self, state: Box, prev: tuple[Box, Any] | None) -> dict[str, Any]:
        return {"items": list(state.items)}


BOX = BoxCodec()


def add(n: Any) -> Any:
    def fn(s: Box | None) -> tuple[Box, None]:
        return replace(s or Box(), items=(*(s or Box()).items, n)), None

    return fn


BAD = ["备注\x00", "备注\ud83d"]


async def _six_at_once(app: App, group: str, bad: str) -> list[str]:
    users = [f"1100{n}" for n in range(6)]
    for n, uid in enumerate(users):
        assert "设置完成" in await say(app, SHEET.format(name=f"角色{n}"), user=uid, group=group)
    await say(app, ".bat 力量 1t", user=users[0], group=group)  # the battle row exists and is cached
    texts = [".bat 力量 1t" + (f" {bad}" if n == 3 else "") for n in range(6)]
    return list(
        await asyncio.gather(*(say(app, t, user=u, group=group) for t, u in zip(texts, users, strict=True)))
    )


@pytest.mark.parametrize("bad", BAD)
async def test_six_at_once_sqlite(app: App, bad: str) -> None:
    replies = await _six_at_once(app, "20002", bad)
    assert not any("出错" in r for r in replies), replies
    state = await app.store.sessions.load_state("20002", BATTLE_CODEC)
    assert state is not None and len(state.actions) == 7


@pytest.mark.parametrize("bad", BAD)
async def test_six_at_once_postgresql(pg_store: Store, bad: str) -> None:
    app = App(pg_store, random.Random(3), flood=FloodSettings(enabled=False))
    group = f"8{uuid.uuid4().int % 10**8}"
    replies = await _six_at_once(app, group, bad)
    assert not any("出错" in r for r in replies), replies
    state = await app.store.sessions.load_state(group, BATTLE_CODEC)
    assert state is not None and len(state.actions) == 7
    log = await pg_store.history.session_log(group)
    assert all("\x00" not in e.command for e in log)


async def test_a_statement_the_database_refuses_fails_only_its_own_command(
    pg_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the edge (its cleaning switched off here): PostgreSQL refuses the batch's one
    statement for a NUL in one command's log row; the batch is then written without it, so only
    that command fails."""
    import chronodice.store.sessions as sessions

    monkeypatch.setattr(sessions, "clean_text", lambda text: text)
    scope = f"bad-{uuid.uuid4().hex[:8]}"
    await pg_store.sessions.apply_state(scope, BOX, add(1))
    await pg_store.sessions.load_state(scope, BOX)  # the row's identity learnt: the next writes batch
    await pg_store.sessions.apply_state(scope, BOX, add(0))
    commands = ["ok2", "ok3", "bad\x00", "ok4", "ok5"]
    results = await asyncio.gather(
        *(pg_store.sessions.apply_state(scope, BOX, add(n + 2), command=c) for n, c in enumerate(commands)),
        return_exceptions=True,
    )
    failed = [n for n, r in enumerate(results) if isinstance(r, BaseException)]
    assert failed == [2], results
    state = await pg_store.sessions.load_state(scope, BOX)
    assert state is not None and sorted(state.items) == [0, 1, 2, 3, 5, 6]


ALONE = [
    ".st 力量60{b}",
    ".nn 阿{b}星",
    ".pc new 角色{b}",
    ".bat 力量 1t 备注{b}",
    ".ri =12 哥布{b}林",
    ".log new 团{b}",
]


@pytest.mark.parametrize("bad", ["\x00", "\ud83d"])
@pytest.mark.parametrize("command", ALONE)
async def test_one_bad_character_alone_on_postgresql(pg_store: Store, command: str, bad: str) -> None:
    """Alone, a NUL gave the generic error on PostgreSQL, a lone surrogate on both: the text is
    cleaned at the edge, and the command is answered as without the character."""
    app = App(pg_store, random.Random(3), flood=FloodSettings(enabled=False))
    group = f"9{uuid.uuid4().int % 10**8}"
    assert "设置完成" in await say(app, SHEET.format(name="甲"), group=group)
    if command.startswith(".ri"):
        await say(app, ".init begin", group=group, roles=("owner",))
    text = command.format(b=bad)
    reply = await say(app, text, group=group, roles=("owner",), name=f"名{bad}片")
    clean = await say(app, command.format(b=""), group=f"{group}1", roles=("owner",))
    assert "出错" not in reply and bad not in reply, reply
    assert reply and clean
