"""The 萌E outbox is delivered at least once, in order (issue 23, item 9): an entry leaves the
session only after the group got it; a failed send waits for the next sweep; a restart delivers
what a killed process left; a repeat is marked; one process never sends an id twice."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from helpers import moe_game as game
from helpers import moe_started, run

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.core.ratelimit import FloodSettings
from chronodice.services.moe.delivery import RESENT, backoff, sent_record
from chronodice.store import Store

G = "20002"


async def started(app: App) -> None:
    """A running game with at least two group texts waiting in the outbox: the first turn's
    start and what followed it, each caused by an answer typed in private chat."""
    await moe_started(app)
    for _ in range(50):
        state, g = await game(app)
        if len(state["outbox"]) >= 2:
            return
        ask = g.pending
        user = state["players"][ask.waiting[0]]["user"]
        if ask.kind == "play":
            cmd = ".moe end"
        elif ask.optional or ask.kind in ("invoke", "respond"):
            cmd = ".moe pass"
        else:
            cmd = ".moe choose " + " ".join(str(n) for n in range(1, ask.lo + 1))
        await run(app, cmd, user=user, group=None)
    raise AssertionError("no second text")


USERS = ["30001", "30002", "30003"]


class Group:
    """A fake group chat: what reached it, in order; ``fail`` decides per attempt whether a send
    fails (``"false"``: returns False, ``"raise"``: the API raises, ``"kill"``: the text arrives
    and then the process dies before it learns so)."""

    def __init__(self, fail: Callable[[int, str], str | None] = lambda _n, _t: None) -> None:
        self.got: list[str] = []
        self.attempts = 0
        self.fail = fail

    async def send(self, scope: str, text: str, image: bytes | None = None) -> bool:
        assert scope == G
        self.attempts += 1
        how = self.fail(self.attempts, text)
        if how == "false":
            return False
        if how == "raise":
            raise RuntimeError("ActionFailed retcode=1200")
        self.got.append(text)
        if how == "kill":
            raise asyncio.CancelledError  # the process is gone before the removal
        return True


async def queued(app: App) -> list[dict[str, Any]]:
    state, _v = await app.store.sessions.load_session(G, "moe")
    return list(state["outbox"])


@pytest.fixture
async def fresh(store: Store) -> AsyncIterator[Callable[[], Awaitable[App]]]:
    """Another process on the same database (the ``app`` fixture's): a new store and app, no
    memory of what the first one sent."""
    stores: list[Store] = []

    async def make() -> App:
        s = Store(store.url)
        stores.append(s)
        return App(s, random.Random(99), flood=FloodSettings(enabled=False))

    yield make
    for s in stores:
        await s.close()


@pytest.mark.parametrize("how", ["false", "raise"])
async def test_a_failed_send_is_delivered_on_the_next_sweep_in_order(app: App, how: str) -> None:
    await started(app)
    box = await queued(app)
    texts = [e["text"] for e in box]
    assert len(texts) >= 2 and [e["id"] for e in box] == list(range(1, len(box) + 1))
    group = Group(lambda n, _t: how if n == 2 else None)  # the second text fails once
    now = app.clock.timestamp()
    assert await moe.sweep(app, now, send=group.send) == []  # the outbox went through send
    assert group.got == texts[:1]  # nothing after the failed one
    left = await queued(app)
    assert [e["id"] for e in left] == [e["id"] for e in box[1:]]
    assert left[0]["tries"] == 1 and all(not e.get("tries") for e in left[1:])  # only one tried
    await moe.sweep(app, now, send=group.send)
    assert group.got == [texts[0], f"{RESENT}\n{texts[1]}", *texts[2:]]
    assert await queued(app) == [] and sent_record(app) == {}


async def test_a_group_that_keeps_failing_is_tried_less_and_less_often(app: App) -> None:
    await started(app)
    texts = [e["text"] for e in await queued(app)]
    group = Group(lambda _n, _t: "raise")
    now = app.clock.timestamp()
    for _ in range(3):
        await moe.sweep(app, now, send=group.send)
    assert group.attempts == 2  # at once after one failure, then not before backoff(2) = 1 s
    assert (await queued(app))[0]["retry_at"] == now + backoff(2)
    group.fail = lambda _n, _t: None
    await moe.sweep(app, now + backoff(2), send=group.send)
    assert group.got == [f"{RESENT}\n{texts[0]}", *texts[1:]]
    assert [backoff(n) for n in (1, 2, 3, 4, 20)] == [0, 1, 3, 7, 300]


async def test_a_kill_between_commit_and_send_is_delivered_after_a_restart(
    app: App, fresh: Callable[[], Awaitable[App]]
) -> None:
    await started(app)  # committed: the texts wait in the session; this process "dies" now
    texts = [e["text"] for e in await queued(app)]
    again = await fresh()
    group = Group()
    await moe.sweep(again, app.clock.timestamp(), send=group.send)
    assert group.got == texts  # never tried before: no repeat mark
    assert await queued(again) == []


async def test_a_kill_between_send_and_removal_resends_marked_after_a_restart(
    app: App, fresh: Callable[[], Awaitable[App]]
) -> None:
    await started(app)
    texts = [e["text"] for e in await queued(app)]
    first = Group(lambda n, _t: "kill" if n == 1 else None)
    with pytest.raises(asyncio.CancelledError):
        await moe.sweep(app, app.clock.timestamp(), send=first.send)
    assert first.got == texts[:1]
    again = await fresh()
    second = Group()
    await moe.sweep(again, app.clock.timestamp(), send=second.send)
    # the database knows the batch was claimed, not how far it got: each text may be a repeat
    assert second.got == [f"{RESENT}\n{t}" for t in texts]
    assert await queued(again) == []


async def test_a_failed_removal_does_not_send_twice_in_this_process(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(app)
    texts = [e["text"] for e in await queued(app)]
    real = app.store.sessions.apply_session
    broken = {"left": 1}

    async def flaky(scope: str, system: str, fn: Any, **kw: Any) -> Any:
        if kw.get("command") == ".moe (outbox sent)" and broken["left"]:
            broken["left"] -= 1
            raise ConnectionError("database went away")
        return await real(scope, system, fn, **kw)

    monkeypatch.setattr(app.store.sessions, "apply_session", flaky)
    group = Group()
    await moe.sweep(app, app.clock.timestamp(), send=group.send)
    assert group.got == texts and len(await queued(app)) == len(texts)  # sent, still stored
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert not state.get("error")  # a delivery problem never marks the game broken
    await moe.sweep(app, app.clock.timestamp(), send=group.send)
    assert group.got == texts  # not again
    assert await queued(app) == [] and sent_record(app) == {}


async def test_timeout_texts_wait_behind_an_undelivered_outbox(app: App) -> None:
    await started(app)
    texts = [e["text"] for e in await queued(app)]
    down = Group(lambda _n, _t: "false")
    state, _g = await game(app)
    late = state["deadline"] + 1
    out = dict(await moe.sweep(app, late, send=down.send))
    assert not any(r.text and not r.private for r in out.get(G, []))  # public lines queued
    box = await queued(app)
    state, _g = await game(app)
    after = [e["text"] for e in box][len(texts) :] + state["feed"]  # queued, or held for the next
    assert [e["text"] for e in box][: len(texts)] == texts and "超时" in "\n".join(after)
    up = Group()
    await moe.sweep(app, late, send=up.send)
    assert up.got[0] == f"{RESENT}\n{texts[0]}" and up.got[1 : len(texts)] == texts[1:]


async def test_without_send_the_returned_texts_count_as_delivered(app: App) -> None:
    await started(app)
    texts = [e["text"] for e in await queued(app)]
    out = await moe.sweep(app, app.clock.timestamp())
    assert out == [(G, out[0][1])] and [r.text for r in out[0][1]] == texts
    assert await queued(app) == []


async def test_texts_queued_by_an_older_version_are_delivered(app: App) -> None:
    await started(app)
    await moe.sweep(app, app.clock.timestamp())

    def old(st: dict[str, Any]) -> tuple[dict[str, Any], None]:
        return {**st, "outbox": ["旧版本排队的文本一", "旧版本排队的文本二"]}, None

    await app.store.sessions.apply_session(G, "moe", old)
    group = Group()
    await moe.sweep(app, app.clock.timestamp(), send=group.send)
    assert group.got == ["旧版本排队的文本一", "旧版本排队的文本二"]
    assert await queued(app) == []


async def test_a_new_game_keeps_undelivered_texts_and_never_reuses_an_id(app: App) -> None:
    await started(app)
    box = await queued(app)
    await run(app, ".moe abort", user=USERS[0], group=G)
    await run(app, ".moe new", user=USERS[0], group=G)
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["status"] == "lobby" and state["outbox"] == box
    assert state["outbox_seq"] == box[-1]["id"]
