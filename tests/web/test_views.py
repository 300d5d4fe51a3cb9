"""The pure views: exact page data from states built by hand."""

from __future__ import annotations

from datetime import datetime, timezone

from chronodice.rules.timeline.battle_state import Action, BattleState, Event, Participant
from chronodice.services.gamelog.export import ExportHead
from chronodice.store import LogLine
from chronodice.web.views import MAX_LOG_CHARS, Loaded, build

WHEN = datetime(2026, 11, 25, 12, 0, tzinfo=timezone.utc)


def test_log_page_keeps_the_newest_lines_that_fit() -> None:
    lines = [
        LogLine(f"1000{i % 3}", f"P{i % 3}", [["text", f"{i:03d}" + "字" * 990]], WHEN) for i in range(300)
    ]
    head = ExportHead("长夜", "20002", WHEN, None)
    data = build("log", Loaded(lines, head), False)
    kept = len(data["html"])
    assert sum(len(b) for b in data["html"]) <= MAX_LOG_CHARS < sum(len(b) for b in data["html"]) + 1100
    assert data["total"] == 300 and data["skipped"] == 300 - kept and kept == 53
    assert "299" in data["html"][-1] and f"{300 - kept:03d}" in data["html"][0]
    assert data["title_kind"] == "跑团日志" and data["ended"] is False


def test_timeline_bars_stuns_deaths_and_the_clock() -> None:
    a, b = Participant("c1", "甲", "1", 1), Participant("c2", "乙", "2", 2, npc=True, status="dead")
    state = BattleState(
        clock=20.0,
        participants=(a, b),
        actions=(
            Action(1, "c1", 0.0, 17.14, 150.0, attribute="strength", target="c2"),
            Action(2, "c2", 0.0, 30.0, 80.0, attribute="dexterity", delay=5.0, note="闪避"),
            Action(3, "c1", 17.14, 10.0, 50.0, attribute="strength", cancelled_at=19.0),
        ),
        events=(
            Event(1, "c2", 10.0, "stun", after=15.0, ref=1),
            Event(2, "c2", 17.14, "death"),
            Event(3, "c2", 17.14, "hp", delta=-150.0, after=0.0, full=150.0, ref=1),
        ),
        next_id=4,
        next_event=4,
        started=True,
    )
    data = build("tl", Loaded(state, {}), False)
    assert [
        (x["id"], x["row"], x["start"], x["end"], x["delay"], x["cancelled"], x["done"]) for x in data["bars"]
    ] == [
        (1, 0, 0.0, 17.14, 0.0, None, True),
        (2, 1, 0.0, 35.0, 5.0, None, False),
        (3, 0, 17.14, 27.14, 0.0, 19.0, False),
    ]
    assert [x["label"] for x in data["bars"]] == ["力量", "敏捷", "力量"] and data["bars"][0][
        "target"
    ] == "乙"
    assert data["stuns"] == [{"row": 1, "from": 10.0, "to": 15.0}] and data["deaths"] == [
        {"row": 1, "t": 17.14}
    ]
    assert (
        data["clock"] == 20.0
        and data["rows"][1]["status"] == "dead"
        and data["rows"][1]["hp"] == [0.0, 150.0]
    )
    assert data["recent"] == [
        "@10.0t 💫 乙 被行动#1控制至15.0t",
        "#1 甲 0.0→17.14t (17.14t) 力量 150.0",
        "@17.14t ☠ 乙 死亡",
        "@17.14t 乙 体力-150.0 → 0.0/150.0",
        "#3 甲 17.14→27.14t (10.0t) 力量 50.0 ✖取消@19.0t",
    ]
