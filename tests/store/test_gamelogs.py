"""``.log`` tables on SQLite and PostgreSQL: lifecycle, limits, duplicates, and the cached "log in
progress" staying correct when another process (another Store on the same database) changes it."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest

from chronodice.core.errors import IllegalAction, NotFound
from chronodice.store import LogLine, Store

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def line(text: str, mid: str | None, user: str = "u1") -> LogLine:
    return LogLine(
        user_id=user, nickname="甲", parts=[["text", text]], created_at=T0, self_id="bot", message_id=mid
    )


async def test_log_lifecycle(any_store: Store) -> None:
    s = any_store
    assert await s.logs.active_log("g") is None
    log = await s.logs.new_log("g", "第一夜", "u1", T0, max_logs=5)
    assert (await s.logs.active_log("g")) == log and log.recording and log.lines == 0
    with pytest.raises(IllegalAction, match="还在进行中"):
        await s.logs.new_log("g", "第二夜", "u1", T0, max_logs=5)
    assert await s.logs.record_line("g", log.id, line("你好", "1"), max_lines=10) == "ok"
    assert await s.logs.record_line("g", log.id, line("你好", "1"), max_lines=10) == "duplicate"
    assert await s.logs.record_line("g", log.id, line("无编号", None), max_lines=10) == "ok"
    assert (
        await s.logs.record_line("g", log.id, line("无编号", None), max_lines=10) == "ok"
    )  # NULL ids never clash
    paused, changed = await s.logs.set_log_recording("g", False)
    assert changed and not paused.recording and not (await s.logs.active_log("g")).recording
    assert await s.logs.record_line("g", log.id, line("暂停中", "2"), max_lines=10) == "off"
    assert (await s.logs.set_log_recording("g", False))[1] is False
    await s.logs.set_log_recording("g", True)
    ended = await s.logs.end_log("g", T0)
    assert ended.ended_at == T0 and ended.lines == 3 and not ended.recording
    assert await s.logs.active_log("g") is None
    texts = [ln.parts[0][1] for ln in await s.logs.log_lines(log.id)]
    assert texts == ["你好", "无编号", "无编号"]
    with pytest.raises(NotFound):
        await s.logs.end_log("g", T0)
    # reopen by name, then a second log; list, find, delete
    reopened, _ = await s.logs.set_log_recording("g", True, "第一夜")
    assert reopened.id == log.id and (await s.logs.active_log("g")).id == log.id
    with pytest.raises(IllegalAction, match="还在进行中"):
        await s.logs.delete_log("g", "第一夜")
    await s.logs.end_log("g", T0)
    second = await s.logs.new_log("g", "第二夜", "u2", T0, max_logs=5)
    assert [x.name for x in await s.logs.list_logs("g")] == ["第一夜", "第二夜"]
    assert (await s.logs.find_log("g")).id == second.id
    assert (await s.logs.find_log("g", "第一夜")).id == log.id
    await s.logs.end_log("g", T0)
    assert (await s.logs.delete_log("g", "第一夜")).id == log.id
    assert await s.logs.log_lines(log.id) == []
    with pytest.raises(NotFound):
        await s.logs.delete_log("g", "第一夜")
    with pytest.raises(IllegalAction, match="已有名为"):
        await s.logs.new_log("g", "第二夜", "u1", T0, max_logs=5)


async def test_limits(any_store: Store) -> None:
    s = any_store
    log = await s.logs.new_log("g", "a", "u", T0, max_logs=2)
    assert [await s.logs.record_line("g", log.id, line(str(i), str(i)), max_lines=3) for i in range(5)] == [
        "ok",
        "ok",
        "ok",
        "full",
        "off",
    ]
    assert not (await s.logs.active_log("g")).recording
    await s.logs.end_log("g", T0)
    await s.logs.new_log("g", "b", "u", T0, max_logs=2)
    await s.logs.end_log("g", T0)
    with pytest.raises(IllegalAction, match="上限2"):
        await s.logs.new_log("g", "c", "u", T0, max_logs=2)


async def test_concurrent_lines_all_kept(any_store: Store) -> None:
    log = await any_store.logs.new_log("g", "a", "u", T0, max_logs=2)
    got = await asyncio.gather(
        *(any_store.logs.record_line("g", log.id, line(str(i), str(i)), max_lines=1000) for i in range(60))
    )
    assert got == ["ok"] * 60
    assert sorted(int(ln.message_id) for ln in await any_store.logs.log_lines(log.id)) == list(range(60))
    assert (await any_store.logs.find_log("g")).lines == 60


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_other_process_sees_log_start_and_end(backend: str, tmp_path, request) -> None:  # type: ignore[no-untyped-def]
    """Process A caches "no log" for the group; process B starts one: A's next look sees it."""
    url = (
        f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    a, b = Store(url), Store(url)
    await a.migrate()
    await b.migrate()
    try:
        group = f"g{id(a)}"
        assert await a.logs.active_log(group) is None
        log = await b.logs.new_log(group, "跨进程", "u", T0, max_logs=5)
        for _ in range(100):  # PostgreSQL: the NOTIFY arrives asynchronously
            got = await a.logs.active_log(group)
            if got is not None:
                break
            await asyncio.sleep(0.02)
        assert got is not None and got.id == log.id
        await b.logs.set_log_recording(group, False)
        for _ in range(100):
            got = await a.logs.active_log(group)
            if got is not None and not got.recording:
                break
            await asyncio.sleep(0.02)
        assert got is not None and not got.recording
        await b.logs.end_log(group, T0)
        for _ in range(100):
            if await a.logs.active_log(group) is None:
                break
            await asyncio.sleep(0.02)
        assert await a.logs.active_log(group) is None
    finally:
        await a.close()
        await b.close()


async def test_a_line_is_not_the_commands_claim(any_store: Store) -> None:
    """Recording inside a command's event leaves the claim to the command's own write: a
    read-only command whose message was recorded can still be applied by its first write."""
    from chronodice.store import Claim, DuplicateEvent

    log = await any_store.logs.new_log("g", "a", "u", T0, max_logs=2)
    assert await any_store.logs.record_line("g", log.id, line("x", "m1"), max_lines=10) == "ok"
    # not claimed by the line: applied
    await any_store.groups.set_nickname("u", "g", "甲", claim=Claim("bot", "m1"))
    with pytest.raises(DuplicateEvent):
        await any_store.groups.set_nickname("u", "g", "乙", claim=Claim("bot", "m1"))
    assert await any_store.groups.get_nickname("u", "g") == "甲"
