""".log through the dispatcher: lifecycle, permissions, limits, exports (golden files), stat."""

from __future__ import annotations

import os
import random
import re
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from helpers import run, say

from chronodice.app import App
from chronodice.core.limits import LogLimits
from chronodice.core.ratelimit import FloodSettings
from chronodice.core.reply import CheckNote
from chronodice.datadir import DataDir
from chronodice.services.gamelog import recorder
from chronodice.services.gamelog.export import ExportHead, render_html, render_txt
from chronodice.store import GameLog, LogLine, Store

GOLDEN = Path(__file__).parent / "golden"
T0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
G = "20002"


@pytest.fixture
async def lapp(store: Store, tmp_path: Path) -> App:
    return App(
        store,
        random.Random(1234),
        flood=FloodSettings(enabled=False),
        data_dir=DataDir(tmp_path / "data"),
        log_limits=LogLimits(max_lines=6, max_logs=2),
    )


async def chat(
    app: App, text: str, user: str = "10001", name: str = "艾拉", mid: str | None = None
) -> str | None:
    return await recorder.record(
        app.store,
        app.log_limits,
        G,
        user_id=user,
        nickname=name,
        parts=[["text", text]],
        when=datetime.now(timezone.utc),
        self_id="123456",
        message_id=mid,
    )


async def test_lifecycle_and_show(lapp: App) -> None:
    assert "没有进行中的日志" in await say(lapp, ".log")
    assert "开始记录日志「第一夜」" in await say(lapp, ".log new 第一夜")
    await chat(lapp, "我们去图书馆", mid="1")
    await chat(lapp, "我们去图书馆", mid="1")  # delivered twice: once
    shown = await say(lapp, ".log")
    assert "日志「第一夜」记录中" in shown and "已记录 1 条" in shown
    assert "已暂停" in await say(lapp, ".log off")
    assert "已经暂停了" in await say(lapp, ".log off")
    await chat(lapp, "暂停时的话", mid="2")
    assert "已暂停" in await say(lapp, ".log")
    assert "继续记录" in await say(lapp, ".log on")
    assert "还在进行中" in await say(lapp, ".log new 第二夜")
    assert "第一夜" in await say(lapp, ".log list") and "记录中" in await say(lapp, ".log list")
    [end] = await run(lapp, ".log end")
    assert "日志「第一夜」已结束，共 1 条" in end.text
    assert [f.name for f in end.files] == ["第一夜.txt", "第一夜.html", "第一夜.json", "第一夜.dice.txt"]
    assert ".json 海豹日志格式" in end.text and ".dice.txt 海豹/Dice!/OlivaDice 通用文本格式" in end.text
    txt = Path(end.files[0].path).read_text(encoding="utf-8")
    assert txt.count("我们去图书馆") == 1 and "暂停时的话" not in txt
    assert Path(end.files[0].path).parent == lapp.data_dir.exports / "logs"
    assert "没有进行中的日志" in await say(lapp, ".log end")
    [got] = await run(lapp, ".log get")
    assert got.files and "第一夜" in got.text
    assert "没有名为「无」的日志" in await say(lapp, ".log get 无")
    # reopen by name, end again, delete
    assert "继续记录日志「第一夜」" in await say(lapp, ".log on 第一夜")
    await say(lapp, ".log end")
    exported = sorted(p.name for p in (lapp.data_dir.exports / "logs").iterdir())
    assert len(exported) == 4 and exported[0].endswith("_第一夜.dice.txt")  # one set per log, rewritten
    assert "已删除日志「第一夜」" in await say(lapp, ".log del 第一夜")
    assert list((lapp.data_dir.exports / "logs").iterdir()) == []
    assert "还没有日志" in await say(lapp, ".log list")


async def test_group_only_and_usage(lapp: App) -> None:
    assert "只能在群聊中使用" in await say(lapp, ".log new x", group=None)
    assert await say(lapp, ".log new") == "缺少名字\n格式：.log new <名字>"
    assert await say(lapp, ".log new " + "长" * 41) == "名字太长（最多40字）\n格式：.log new <名字>"
    assert (await say(lapp, ".log xyz")).startswith("「xyz」不是 .log 的子命令")


async def test_who_may_end_pause_and_delete(lapp: App) -> None:
    await say(lapp, ".log new 夜", user="10001")
    for cmd in (".log off", ".log end"):
        assert "只有日志的创建者或" in await say(lapp, cmd, user="10002")
    assert "已暂停" in await say(lapp, ".log off", user="10003", roles=("admin",))
    await say(lapp, ".gm add @10004", user="10003", roles=("owner",), at=("10004",))
    assert "继续记录" in await say(lapp, ".log on", user="10004")
    assert "已结束" in await say(lapp, ".log end", user="99999", roles=("superuser",))
    assert "只有日志的创建者或" in await say(lapp, ".log del 夜", user="10002")
    assert "已删除" in await say(lapp, ".log del 夜", user="10001")


async def test_limits_have_clear_replies(lapp: App) -> None:
    await say(lapp, ".log new a")
    notes = [await chat(lapp, f"话{i}", mid=str(i)) for i in range(8)]
    assert notes[:6] == [None] * 6
    assert notes[6] is not None and "已达上限6条" in notes[6] and ".log end" in notes[6]
    assert notes[7] is None  # already off: silent
    assert "已暂停" in await say(lapp, ".log")
    await say(lapp, ".log end")
    await say(lapp, ".log new b")
    await say(lapp, ".log end")
    assert "上限2" in await say(lapp, ".log new c")


async def test_export_size_limit(store: Store, tmp_path: Path) -> None:
    app = App(
        store, random.Random(1), data_dir=DataDir(tmp_path), log_limits=LogLimits(max_export_bytes=1000)
    )
    await say(app, ".log new 大")
    for i in range(3):
        await chat(app, "字" * 60, mid=str(i))
    [end] = await run(app, ".log end")
    # the page's header and style alone are over 1000 bytes: no part could hold a line
    assert end.files[0].name == "大.txt" and not any(f.name.endswith(".html") for f in end.files)
    assert "文件大小上限（1000字节）太小，html 文件连一条消息都放不下，未导出" in end.text
    tiny = App(store, random.Random(1), data_dir=DataDir(tmp_path), log_limits=LogLimits(max_export_bytes=10))
    assert "无法导出：文件大小上限（10字节）太小" in await say(tiny, ".log get 大")


async def test_stat_counts_check_notes(lapp: App) -> None:
    await say(lapp, ".log new 检定")
    await chat(lapp, ".rc 运动 15", mid="1")
    for i, (ok, outcome) in enumerate([(True, "大成功"), (False, "失败"), (None, "掷出12")]):
        await recorder.record(
            lapp.store,
            lapp.log_limits,
            G,
            user_id="123456",
            nickname="骰娘",
            parts=[["text", "结果"]],
            when=T0,
            is_bot=True,
            message_id=f"b{i}",
            check=recorder.check_dict(CheckNote("运动", outcome, ok), "10001", "艾拉"),
        )
    text = await say(lapp, ".log stat")
    assert "艾拉：发言1条，检定3次（成功1，失败1，成功率50%；大成功1）" in text


# ---------------------------------------------------------------------- golden exports
def scripted() -> tuple[ExportHead, list[LogLine]]:
    """A fixed log: chatter, an @, an image, a command, the bot's roll and check, and HTML."""

    def at(minutes: int) -> datetime:
        return T0 + timedelta(minutes=minutes)

    lines = [
        LogLine("10001", "艾拉", [["text", "大家晚上好，今晚去图书馆？"]], at(0)),
        LogLine("10002", "布鲁", [["at", "艾拉"], ["text", " 好，我带上手电"]], at(1)),
        LogLine("10002", "布鲁", [["text", "看这张地图"], ["image", "https://example.com/map.png"]], at(2)),
        LogLine("10001", "艾拉", [["text", ".rc 运动 15"]], at(3)),
        LogLine(
            "123456",
            "骰娘",
            [["text", "艾拉进行运动检定：D20=17+2=19/15 成功"]],
            at(3),
            is_bot=True,
            check={"label": "运动", "outcome": "成功", "success": True, "user_id": "10001", "name": "艾拉"},
        ),
        LogLine("10003", "<b>坏人</b>", [["text", "<script>alert('x')</script> & \"引号\""]], at(4)),
        LogLine("123456", "骰娘", [["text", "布鲁掷骰：1d100=96 大失败"]], at(5), is_bot=True),
        LogLine("10002", "布鲁", [["image", "ABCDEF.image"], ["face", "178"]], at(6)),
    ]
    rec = GameLog(1, G, "第一夜", "10001", False, len(lines), T0, at(10))
    return ExportHead.of(rec, 8.0), lines


@pytest.mark.parametrize(("ext", "render"), [("txt", render_txt), ("html", render_html)])
def test_golden_exports(ext: str, render) -> None:  # type: ignore[no-untyped-def]
    head, lines = scripted()
    got = render(head, lines)
    path = GOLDEN / f"gamelog.{ext}"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


def test_html_escapes_and_highlights() -> None:
    head, lines = scripted()
    page = render_html(head, lines)
    assert "<script>" not in page and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "&lt;b&gt;坏人&lt;/b&gt;" in page and "<b>坏人</b>" not in page
    assert '<a class="img" href="https://example.com/map.png">[图片]</a>' in page
    assert '<span class="dice">1d100</span>' in page and '<b class="res">=96</b>' in page
    assert '<b class="bad">大失败</b>' in page and '<b class="ok">成功</b>' in page
    # each speaker one colour, the same on every line; the bot grey
    assert (
        page.count("--c:#c0392b") == 2 and page.count("--c:#2471a3") == 3 and page.count("--c:#6b7280") == 2
    )
    txt = render_txt(head, lines)
    assert (
        "艾拉(10001) 2026-11-22 20:00:00\n大家晚上好" in txt and "[图片 https://example.com/map.png]" in txt
    )


# ---------------------------------------------------------------------- check notes
def _judged(note: CheckNote | None) -> CheckNote | None:
    """What ``.log stat`` counts of a note: its label, outcome and success (not the dice the
    SealDice export shows)."""
    return None if note is None else replace(note, rule="", items=())


async def test_tick20_rc_carries_a_check_note(app: App) -> None:
    await say(app, ".st 力量14 体质12 LV4 运动熟练度1 DEX8 INS6", user="10002", name="艾琳")
    for _ in range(8):
        [reply] = await run(app, ".rc 运动 15", user="10002", name="艾琳")
        outcome = re.search(r"检定：-?\d+/15 (大成功|成功|失败|大失败)", reply.text).group(1)
        assert _judged(reply.check) == CheckNote("运动", outcome, outcome in ("成功", "大成功"))
    [reply] = await run(app, ".rc 运动", user="10002", name="艾琳")
    total = re.search(r"=(-?\d+)", reply.text.split("D20=", 1)[1]).group(1)
    assert _judged(reply.check) == CheckNote("运动", f"判定值{total}", None)
    assert reply.check.rule == "tick20" and reply.check.items[0][1:] == (
        "运动",
        int(total),
    )  # the export's dice
    [reply] = await run(app, ".rc DEX+INS 13", user="10002", name="艾琳")
    ok = "成功" in reply.text.splitlines()[-1]
    assert _judged(reply.check) == CheckNote("DEX+INS", "成功" if ok else "失败", ok)
    [reply] = await run(app, ".rc +3 12 对抗12", user="10002", name="艾琳")
    wins = "发起者胜" in reply.text
    assert _judged(reply.check) == CheckNote("D20", "对抗胜" if wins else "对抗负", wins)


async def test_timeline_checks_carry_check_notes(app: App) -> None:
    sheet = (
        ".TLsetup 姓名:甲,种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
        "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
        "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
    )
    assert "设置完成√" in await say(app, sheet)
    await say(app, ".tar 10 10", roles=("admin",))
    for _ in range(6):
        [reply] = await run(app, ".ex 力")
        roll = int(re.search(r"检定：(\d+)/35", reply.text).group(1))
        assert _judged(reply.check) == CheckNote("力量", "成功" if roll <= 35 else "失败", roll <= 35)
        assert reply.check.items == (("D100", "力量", roll),) and reply.check.rule == "timeline"
    await say(app, ".neg 10 35")
    [reply] = await run(app, ".neg 100")
    ok = "🎉成功！" in reply.text
    assert _judged(reply.check) == CheckNote("交涉", "成功" if ok else "失败", ok)
