"""Helpers shared by service tests: run a command through ``App.dispatch`` like a chat message."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from chronodice.app import App
from chronodice.core.context import Context, Role
from chronodice.core.reply import Reply


def make_ctx(
    user: str = "10001",
    group: str | None = "20002",
    *,
    name: str = "",
    roles: tuple[Role, ...] = (),
    at: tuple[str, ...] = (),
) -> Context:
    return Context(
        user_id=user,
        group_id=group,
        sender_name=name or f"PL{user[-2:]}",
        roles=frozenset(roles),
        self_id="123456",
        at_ids=at,
    )


async def run(
    app: App,
    text: str,
    user: str = "10001",
    group: str | None = "20002",
    *,
    name: str = "",
    roles: tuple[Role, ...] = (),
    at: tuple[str, ...] = (),
) -> list[Reply]:
    """Dispatch ``text`` as ``user`` in ``group`` (``None``: private).  ``[]`` when ignored."""
    replies = await app.dispatch(make_ctx(user, group, name=name, roles=roles, at=at), text)
    return replies or []


async def timed_texts(app: App, text: str, **kw: object) -> tuple[list[str], float]:
    """Every reply text of ``text`` and the event loop thread's CPU seconds it took (a slow
    path spends CPU; another test worker only stretches the wall clock); a run of 0.1 s or more
    is measured once again, to tell a slow path from a scheduler hiccup."""
    for _attempt in range(2):
        t0 = time.thread_time()
        got = [r.text for r in await run(app, text, **kw)]  # type: ignore[arg-type]
        elapsed = time.thread_time() - t0
        if elapsed < 0.1:
            break
    return got, elapsed


async def say(app: App, text: str, **kw: object) -> str:
    """The public (non-private) reply texts joined by newlines."""
    replies = await run(app, text, **kw)  # type: ignore[arg-type]
    return "\n".join(r.text for r in replies if not r.private)


def parse_of(text: str, at: tuple[str, ...] = ()) -> tuple[str, str, dict[str, object]] | str | None:
    """How the declarations read ``text`` — no database, no handler:

    * ``(command, sub-command keyword or "", typed values)`` when it parses;
    * the exact one-line error (``InputSyntaxError.message``, without the ``格式：`` line);
    * ``None`` when the message is not ours (silence).

    Every service registers its commands on import (``load_all``), so this covers all systems.
    """
    from chronodice.core.commands import REGISTRY
    from chronodice.core.errors import InputSyntaxError
    from chronodice.services import load_all

    load_all()
    routed = REGISTRY.route(text)
    if routed is None:
        return None
    try:
        sub, values = routed.spec.select(routed.args, at)
    except InputSyntaxError as err:
        return err.message
    return routed.spec.name, sub.words[0] if sub.words else "", values


_event_ids = itertools.count(7000)


def group_msg(text: str, user_id: int = 10001, group_id: int = 20002, card: str = "调查员A"):  # type: ignore[no-untyped-def]
    """A OneBot v11 group message event as NapCat delivers it (for nonebug tests)."""
    from nonebot.adapters.onebot.v11 import GroupMessageEvent, Message
    from nonebot.adapters.onebot.v11.event import Sender

    return GroupMessageEvent(
        time=int(time.time()),
        self_id=123456,
        post_type="message",
        sub_type="normal",
        user_id=user_id,
        message_type="group",
        group_id=group_id,
        message_id=next(_event_ids),
        message=Message(text),
        raw_message=text,
        font=0,
        sender=Sender(user_id=user_id, nickname="PL", card=card, role="member"),
    )


async def moe_game(app: App, group: str = "20002"):  # type: ignore[no-untyped-def]
    """The stored 萌E session of ``group`` and the game rebuilt from its record."""
    from chronodice.rules.moe.record import rebuild

    state, _v = await app.store.sessions.load_session(group, "moe")
    return state, rebuild(state["record"])


def moe_answer(state: dict[str, Any], g: Any) -> tuple[str, str]:
    """A simple legal chat answer of a human the open 萌E request waits for: (user, text).
    AI seats, filled by the host or handed over with ``.moe quit ai``, are never asked."""
    from chronodice.rules.moe.ai import is_ai

    ask = g.pending
    seat = next(s for s in ask.waiting if not is_ai(g, s))
    user = state["players"][seat]["user"]
    mine = ask.for_seat(seat)
    k = mine.kind
    if k == "play":
        return user, ".moe end"
    if k in ("respond", "invoke", "distribute"):
        return user, ".moe pass" if k != "invoke" else ".moe no"
    if k in ("choose_cards", "choose_blind", "choose_players", "arrange"):
        n = len(mine.options) if k == "arrange" else mine.lo
        return user, ".moe choose " + " ".join(str(i + 1) for i in range(max(n, 1)))
    return user, ".moe choose 1"


async def moe_started(
    app: App, group: str = "20002", users: Sequence[str] = ("30001", "30002", "30003")
) -> None:
    """A running 萌E game in ``group`` (乱斗森林), every player's first character chosen."""
    await run(app, ".moe new 乱斗森林", user=users[0], group=group)
    for u in users[1:]:
        await run(app, ".moe join", user=u, group=group)
    await run(app, ".moe start", user=users[0], group=group)
    for _ in users:
        state, g = await moe_game(app, group)
        await run(app, ".moe choose 1", user=state["players"][g.pending.seat]["user"], group=None)


class FakeBot:
    """Enough of a OneBot ``Bot`` for code that sends without NoneBot's transport (the 萌E
    sweeper, the ``.log`` recording path): its account, and the API calls it was asked to make."""

    self_id = "123456"

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call_api(self, api: str, **data: Any) -> dict[str, Any]:
        self.calls.append((api, data))
        return {"message_id": len(self.calls)}


class Scripted(random.Random):
    """An injected RNG whose ``randint`` returns the scripted values in order, each checked
    against the range asked for (and, with ``faces``, that the range is exactly 1..faces).

    ``then_seed``: once the script is used up, go on like ``random.Random(then_seed)`` instead
    of failing (for scenes whose later rolls do not matter)."""

    def __init__(
        self, values: Iterable[int], *, faces: int | None = None, then_seed: int | None = None
    ) -> None:
        super().__init__(0 if then_seed is None else then_seed)
        self.values = list(values)
        self.faces = faces
        self.then = then_seed is not None

    def randint(self, a: int, b: int) -> int:
        if not self.values and self.then:
            return super().randint(a, b)
        value = self.values.pop(0)
        if self.faces is not None:
            assert (a, b) == (1, self.faces), (a, b)
        assert a <= value <= b, (a, b, value)
        return value


async def eventually(read: Any, ok: Any, seconds: float = 5.0) -> Any:
    """``await read()`` until ``ok(result)`` (at most ``seconds``), the last result either way.

    Another process's write reaches this process's caches by PostgreSQL's notification, so a
    read may be a moment behind it (the store's documented contract); a test of two processes
    asserts on what the read settles to, not on the first read after the write."""
    got = await read()
    for _ in range(int(seconds / 0.01)):
        if ok(got):
            break
        await asyncio.sleep(0.01)
        got = await read()
    return got


@contextlib.contextmanager
def pack_dir_first(folder: Path) -> Iterator[Path]:
    """``folder`` in front of the 萌E pack folders (as the plugin puts ``data/packs``), the pack
    cache cleared on the way in and out."""
    from chronodice.rules.moe import pack as moe_pack

    moe_pack.PACK_DIRS.insert(0, folder)
    moe_pack.load_pack.cache_clear()
    try:
        yield folder
    finally:
        moe_pack.PACK_DIRS.remove(folder)
        moe_pack.load_pack.cache_clear()


def demo_pack_raw() -> dict[str, Any]:
    """The bundled 萌E demo pack as YAML data, to edit into a group's own pack."""
    import yaml

    from chronodice.rules.moe.pack import PACK_DIR

    return yaml.safe_load((PACK_DIR / "demo.yaml").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def write_pack(folder: Path, name: str, raw: dict[str, Any]) -> None:
    """``raw`` as ``folder/<name>.yaml`` (a pack a group dropped into ``data/packs``)."""
    import yaml

    (folder / f"{name}.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")


PG_ADMIN_DSN = os.environ.get("CHRONODICE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
"""The PostgreSQL server the tests create their databases on (trust auth, database ``test``)."""


def run_in_thread(coro_fn: Any) -> Any:
    """Run a coroutine on a private loop (fixtures may be set up inside a running loop)."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro_fn()).result()


async def pg_admin(sql: str) -> None:
    """Run ``sql`` on :data:`PG_ADMIN_DSN` (creating and dropping databases)."""
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_DSN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def fresh_pg_database(label: str) -> str:
    """A new PostgreSQL database (its SQLAlchemy URL), dropped when the test process exits."""
    import atexit
    import uuid

    name = f"chronodice_test_{label}_{uuid.uuid4().hex[:10]}"
    run_in_thread(lambda: pg_admin(f'CREATE DATABASE "{name}"'))
    atexit.register(lambda: asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
    return PG_ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{name}"


async def empty_pg_database(url: str) -> None:
    """Delete every row of a test database (the schema and Alembic's version stay), so that a
    test on a shared database starts as on a fresh one; a lock still held by a test before it
    fails this within 5 s instead of hanging the run."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute("SET lock_timeout = '5s'")
        tables = await conn.fetch(
            "SELECT quote_ident(tablename) FROM pg_tables"
            " WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
        )
        if tables:
            await conn.execute(f"TRUNCATE {', '.join(t[0] for t in tables)} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
