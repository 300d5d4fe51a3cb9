""".log never loses a line: bad characters (lone surrogates, NUL) are cleaned or replaced on
SQLite and PostgreSQL alike, and an export over the size limit is split into parts."""

from __future__ import annotations

import json
import random
import re
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import nonebot
import pytest
from helpers import FakeBot, group_msg, run, say

from chronodice.app import App
from chronodice.core.limits import LogLimits
from chronodice.core.ratelimit import FloodSettings
from chronodice.datadir import DataDir
from chronodice.services.gamelog import recorder
from chronodice.services.gamelog.export import ExportHead, html_pieces, txt_pieces
from chronodice.services.gamelog.split import split_export
from chronodice.store import LogLine, Store

G = "20002"
T0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def edge() -> Any:
    """The NoneBot plugin's ``.log`` recording module (what the bot runs for every message)."""
    plugin = nonebot.get_plugin("nonebot_plugin_chronodice:chronodice_core")
    assert plugin is not None and plugin.module is not None
    return plugin.module.gamelog


@pytest.fixture(params=["sqlite", "postgresql"])
def backend_store(request: pytest.FixtureRequest) -> tuple[str, Store]:
    """The SQLite store, then the PostgreSQL one (skipped with its reason where none runs)."""
    return request.param, request.getfixturevalue("sqlite_store" if request.param == "sqlite" else "pg_store")


def make_app(store: Store, tmp_path: Path, **limits: Any) -> App:
    return App(
        store,
        random.Random(1),
        flood=FloodSettings(enabled=False),
        data_dir=DataDir(tmp_path / "data"),
        log_limits=LogLimits(**limits),
    )


async def test_bad_characters_never_lose_a_line(backend_store: tuple[str, Store], tmp_path: Path) -> None:
    """The tester's inputs, through the plugin's recording functions: each line is recorded,
    the bad characters removed (a card of nothing else falls back to the QQ nickname)."""
    from nonebot.adapters.onebot.v11 import Message

    _, store = backend_store
    app = make_app(store, tmp_path)
    bot = FakeBot()
    group = f"2{random.randint(10**8, 10**9)}"  # PostgreSQL keeps one database for the session
    await say(app, ".log new 夜", group=group)
    inputs = [
        ("我掷出了\ud83d大成功", "艾拉"),  # a lone surrogate in the message
        ("卡片名坏了", "艾拉\ud83d"),  # … in the group card
        ("卡片名有空字符", "布\x00鲁"),  # a NUL in the group card
        ("只剩半个表情", "\ud83d"),  # a card of nothing else: the nickname is used
        ("只剩空字符", "\x00"),
    ]
    for text, card in inputs:
        await edge().record_incoming(app, bot, group_msg(text, group_id=int(group), card=card))
    # the bot's own message recorded by the GROUP_SENT hook, echoing the half emoji
    await edge().record_outgoing(app, bot, group, Message("好的\ud83d\x00"), {"message_id": 77}, None)

    [end] = await run(app, ".log end", group=group)
    assert "共 6 条" in end.text
    lines = await store.logs.log_lines((await store.logs.find_log(group)).id)  # type: ignore[union-attr]
    assert [(ln.nickname, recorder_text(ln)) for ln in lines] == [
        ("艾拉", "我掷出了大成功"),
        ("艾拉", "卡片名坏了"),
        ("布鲁", "卡片名有空字符"),
        ("PL", "只剩半个表情"),
        ("PL", "只剩空字符"),
        ("骰娘", "好的"),
    ]
    assert lines[-1].is_bot and lines[-1].message_id == "sent:77"
    txt = Path(end.files[0].path).read_text(encoding="utf-8")
    for want in ("我掷出了大成功", "艾拉(10001)", "布鲁(10001)", "只剩半个表情", "只剩空字符", "好的"):
        assert want in txt
    assert "\x00" not in txt and "\ufffd" not in txt
    assert not bot.calls  # no notice: nothing went wrong


def recorder_text(line: LogLine) -> str:
    return "".join(value for kind, value in line.parts if kind == "text")


async def test_store_replaces_what_it_cannot_encode(backend_store: tuple[str, Store]) -> None:
    """A line that reaches the store uncleaned is written with the offending characters
    replaced (U+FFFD) instead of failing: a lone surrogate anywhere, a NUL on PostgreSQL."""
    dialect, store = backend_store
    group = f"3{random.randint(10**8, 10**9)}"
    log = await store.logs.new_log(group, "坏字符", "10001", T0, max_logs=5)
    raw = [
        LogLine(user_id="10001", nickname="艾拉", parts=[["text", "a\ud83db"]], created_at=T0),
        LogLine(user_id="10001", nickname="艾拉\ud83d", parts=[["at", "x\ud83d"]], created_at=T0),
        LogLine(user_id="10001", nickname="布\x00鲁", parts=[["text", "c\x00"]], created_at=T0),
        LogLine(user_id="10001", nickname="艾拉", parts=[], created_at=T0, check={"name": "\ud83d"}),
    ]
    for i, line in enumerate(raw):
        stored = LogLine(**{**line.__dict__, "self_id": "123456", "message_id": str(i)})
        assert await store.logs.record_line(group, log.id, stored, max_lines=10) == "ok"
    got = await store.logs.log_lines(log.id)
    nul = "\x00" if dialect == "sqlite" else "\ufffd"  # SQLite takes a NUL as it is
    assert [(ln.nickname, ln.parts, ln.check) for ln in got] == [
        ("艾拉", [["text", "a\ufffdb"]], None),
        ("艾拉\ufffd", [["at", "x\ufffd"]], None),
        (f"布{nul}鲁", [["text", f"c{nul}"]], None),
        ("艾拉", [], {"name": "\ufffd"}),
    ]
    assert (await store.logs.find_log(group)).lines == 4  # type: ignore[union-attr]


def _marked_lines(n: int, chars: int) -> list[LogLine]:
    """``n`` lines of ``chars`` characters, each starting with its number ``L00001`` …"""
    return [
        LogLine(
            user_id=str(10001 + i % 3),
            nickname=f"玩家{i % 3}",
            parts=[["text", f"L{i:05d} " + "x" * (chars - 7)]],
            created_at=T0 + timedelta(seconds=i),
            is_bot=i % 5 == 4,
        )
        for i in range(n)
    ]


def _check_parts(files: list[bytes], ext: str, n: int, limit: int, group: str = G) -> None:
    """Each file within ``limit`` and complete, with its 第k/n部分 header; together every line
    exactly once, in order."""
    count = len(files)
    assert count > 1
    seen: list[int] = []
    for k, data in enumerate(files, 1):
        assert len(data) <= limit
        text = data.decode("utf-8")
        if ext in ("json", "dice.txt"):  # other bots' formats: no header of ours
            marks = [int(m) for m in re.findall(r"L(\d{5}) ", text)]
            if ext == "json":
                items = json.loads(text)["items"]
                assert len(items) == len(marks)
            else:
                assert text.count("\n\n") >= len(marks) and text.endswith("\n\n")
            assert marks == list(range(marks[0], marks[0] + len(marks)))
            seen += marks
            continue
        first, last = (int(x) for x in re.search(r"本部分为第 (\d+)–(\d+) 条", text).groups())  # type: ignore[union-attr]
        marks = [int(m) for m in re.findall(r"L(\d{5}) ", text)]
        assert marks == list(range(first - 1, last))
        seen += marks
        if ext == "html":
            assert text.startswith("<!DOCTYPE html>") and text.endswith("</body>\n</html>\n")
            assert f"<title>日志「夜」（第{k}/{count}部分）</title>" in text
            assert text.count('<div class="msg') == len(marks)
        else:
            assert text.startswith(f"日志「夜」 群 {group}（第{k}/{count}部分）\n")
    assert seen == list(range(n))


@pytest.mark.parametrize("pieces", [txt_pieces, html_pieces], ids=["txt", "html"])
def test_a_real_size_log_is_split_into_parts(pieces: Any) -> None:
    """The tester's log: 5,200 lines of 4,000 characters, over the 20MB default limit."""
    limit = LogLimits().max_export_bytes
    lines = _marked_lines(5200, 4000)
    head = ExportHead("夜", G, T0, T0 + timedelta(hours=3))
    started = time.perf_counter()
    count, files = split_export(pieces(head, lines), limit)
    got = list(files)
    took = time.perf_counter() - started
    assert count == len(got) == 2
    _check_parts(got, "txt" if pieces is txt_pieces else "html", 5200, limit)
    assert took < 10, took


def test_a_log_that_fits_stays_one_file() -> None:
    lines = _marked_lines(3, 50)
    head = ExportHead("夜", G, T0, None)
    count, files = split_export(txt_pieces(head, lines), 10_000)
    [data] = list(files)
    assert count == 1 and "部分" not in data.decode("utf-8")


async def test_log_end_hands_out_every_part(backend_store: tuple[str, Store], tmp_path: Path) -> None:
    """Through the commands: a log over the limit comes as 夜-1.txt, 夜-2.txt, … and
    夜-1.html, …, each within the limit; the reply says how many; re-exporting replaces the
    files of the earlier export; .log del removes them all."""
    _, store = backend_store
    limit = 6000
    app = make_app(store, tmp_path, max_export_bytes=limit)
    group = f"4{random.randint(10**8, 10**9)}"
    await say(app, ".log new 夜", group=group)
    marked = _marked_lines(60, 300)

    async def add(lines: list[LogLine]) -> None:
        for ln in lines:
            await recorder.record(
                store,
                app.log_limits,
                group,
                user_id=ln.user_id,
                nickname=ln.nickname,
                parts=ln.parts,
                when=ln.created_at,  # type: ignore[arg-type]
                self_id="123456",
                message_id=recorder_text(ln)[:6],
                is_bot=ln.is_bot,
            )

    await add(marked[:3])
    [small] = await run(app, ".log get", group=group)
    exts = ("txt", "html", "json", "dice.txt")
    assert [f.name for f in small.files] == [f"夜.{e}" for e in exts] and "分成" not in small.text
    await add(marked[3:])
    [end] = await run(app, ".log end", group=group)
    by_ext: dict[str, list[bytes]] = {e: [] for e in exts}
    for f in end.files:
        by_ext[f.name.split(".", 1)[1]].append(Path(f.path).read_bytes())
    counts = {e: len(by_ext[e]) for e in exts}
    assert [f.name for f in end.files] == [f"夜-{k}.{e}" for e in exts for k in range(1, counts[e] + 1)]
    for ext, files in by_ext.items():
        _check_parts(files, ext, 60, limit, group)
    split = "、".join(f"{e} {counts[e]} 份" for e in exts)
    assert f"文件超过5.9KB，已分成多份导出：{split}" in end.text
    folder = Path(end.files[0].path).parent
    on_disk = sorted(p.name for p in folder.iterdir())
    assert len(on_disk) == sum(counts.values())  # the single files of the first export are gone
    assert not any(name.endswith(tuple(f"_夜.{e}" for e in exts)) for name in on_disk)
    assert "已删除" in await say(app, ".log del 夜", group=group)
    assert list(folder.iterdir()) == []


async def test_a_checks_line_names_the_card_in_use(app: App) -> None:
    """A reply's check is logged under the sender's card in use here (SealDice's ``pcName``),
    as ``.r``/``.ra`` name the player; without a card, the ``.nn`` nickname; without the
    command's view (a ``.log`` command's reply), the same, read again."""
    from helpers import make_ctx
    from nonebot.adapters.onebot.v11 import Message

    bot = FakeBot()
    group = f"2{random.randint(10**8, 10**9)}"
    await say(app, ".log new 夜", group=group)
    await say(app, ".nn 小艾", group=group)
    ctx = make_ctx("10001", group)
    for card in (None, "托林"):
        if card:
            await say(app, f".pc new {card}", group=group)
        [reply] = await run(app, ".ra 侦查50", group=group)
        seen = await app.context_view(ctx)
        await edge().record_outgoing(
            app, bot, group, Message(reply.text), {"message_id": id(reply)}, (ctx, reply), seen
        )
    await edge().record_outgoing(app, bot, group, Message(reply.text), {"message_id": 1}, (ctx, reply), None)
    lines = await app.store.logs.log_lines((await app.store.logs.find_log(group)).id)  # type: ignore[union-attr]
    assert [ln.check["name"] for ln in lines if ln.check] == ["小艾", "托林", "托林"]
