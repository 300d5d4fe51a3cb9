"""Plain-JSON sessions (``Store.apply_session``: 萌E, D10) go the one write path of every session
(``apply_state`` with ``sessions.json_codec``): the same compare-and-set, log row and claim, and
on PostgreSQL the same one-statement write."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from chronodice.store import Claim, Store
from chronodice.store import patch as jpatch
from chronodice.store.sessions import json_codec


def bump(state: dict[str, Any] | None) -> tuple[dict[str, Any], int]:
    n = (state or {"n": 0})["n"] + 1
    return {"n": n, "seen": (n, "元组")}, n  # a tuple: stored as JSON gives it back, a list


async def test_a_plain_session_is_stored_as_json_gives_it_back_and_a_no_op_writes_nothing(
    any_store: Store,
) -> None:
    assert await any_store.sessions.apply_session("g", "plain", bump, command=".a") == 1
    assert await any_store.sessions.apply_session("g", "plain", bump, command=".b") == 2
    state, version = await any_store.sessions.load_session("g", "plain")
    assert state == {"n": 2, "seen": [2, "元组"]} and version == 2

    def same(s: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
        assert s is not None
        s["seen"] = list(s["seen"])  # the caller's own copy: changing it is allowed
        return s, "同上"

    assert await any_store.sessions.apply_session("g", "plain", same, command=".same") == "同上"
    state, version = await any_store.sessions.load_session("g", "plain")
    assert version == 2  # nothing written: no new version, no log row
    assert (await any_store.history.undo("g")).command == ".b"
    assert (await any_store.sessions.load_session("g", "plain"))[0] == {"n": 1, "seen": [1, "元组"]}


async def test_each_use_gets_a_fresh_copy_and_the_codec_is_one_object(any_store: Store) -> None:
    await any_store.sessions.apply_session("g", "plain", bump)
    a = await any_store.sessions.load_state("g", json_codec("plain"))
    a["n"] = 99  # a caller's change to its copy reaches neither the store nor the next reader
    b = await any_store.sessions.load_state("g", json_codec("plain"))
    assert b == {"n": 1, "seen": [1, "元组"]}


async def test_a_battle_codec_and_a_plain_write_of_the_same_system_do_not_share_a_cached_state(
    any_store: Store,
) -> None:
    """A tool's plain write of a session another codec caches: the codec then decodes the text
    (it never gets the plain codec's dict where it expects its own state)."""
    from chronodice.rules.timeline.battle_state import BattleState
    from chronodice.services.timeline.codec import BATTLE_CODEC

    await any_store.sessions.apply_state("g", BATTLE_CODEC, lambda _s: (BattleState(session_id="s1"), None))
    plain, _v = await any_store.sessions.load_session("g", "timeline")
    assert plain is not None and plain["session_id"] == "s1"
    await any_store.sessions.apply_session("g", "timeline", lambda s: ({**s, "session_id": "s2"}, None))
    got = await any_store.sessions.load_state("g", BATTLE_CODEC)
    assert isinstance(got, BattleState) and got.session_id == "s2"


async def test_sqlite_log_rows_of_a_plain_session_rebuild_every_state(tmp_path: Any) -> None:
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'j.db'}")
    await store.migrate()
    try:
        texts = []
        for _ in range(5):
            await store.sessions.apply_session("g", "plain", bump)
            texts.append(jpatch.dumps((await store.sessions.load_session("g", "plain"))[0]))
        for want in reversed(texts[:-1]):
            await store.history.undo("g")
            assert jpatch.dumps((await store.sessions.load_session("g", "plain"))[0]) == want
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "j.db") as db:
        assert db.execute("select count(*) from sessions where system='plain'").fetchone() == (1,)


async def test_a_plain_session_command_delivered_twice_applies_once(any_store: Store) -> None:
    """The same message delivered again (a reconnect, another process) through the plain path:
    the second delivery raises DuplicateEvent and writes nothing, also when it is refused."""
    from chronodice.core.errors import IllegalAction
    from chronodice.store import DuplicateEvent

    other = Store(any_store.url)
    try:
        await any_store.sessions.apply_session("g", "plain", bump)
        await other.sessions.load_state("g", json_codec("plain"))
        assert await any_store.sessions.apply_session("g", "plain", bump, claim=Claim("bot", "m1")) == 2
        for store in (any_store, other):
            with pytest.raises(DuplicateEvent):
                await store.sessions.apply_session("g", "plain", bump, claim=Claim("bot", "m1"))

        def refuse(_s: Any) -> tuple[Any, None]:
            raise IllegalAction("不行")

        with pytest.raises(IllegalAction):
            await any_store.sessions.apply_session("g", "plain", refuse, claim=Claim("bot", "m2"))
        with pytest.raises(DuplicateEvent):
            await other.sessions.apply_session("g", "plain", bump, claim=Claim("bot", "m2"))
        assert (await any_store.sessions.load_session("g", "plain")) == ({"n": 2, "seen": [2, "元组"]}, 2)
    finally:
        await other.close()
