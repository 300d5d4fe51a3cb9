""".jrrp (stable per user and day), .send (to the owners, rate-limited) and .bot exit (= .dismiss)."""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path

import pytest
from helpers import run

from chronodice.app import App
from chronodice.core.clock import CHINA, ManualClock
from chronodice.core.ratelimit import FloodSettings
from chronodice.datadir import DataDir
from chronodice.services import social
from chronodice.store import Store


@pytest.fixture
def clock() -> ManualClock:
    """The app's clock, which the test moves: noon of 2024-05-01 in UTC+8."""
    return ManualClock(datetime(2024, 5, 1, 12, 0, tzinfo=CHINA))


@pytest.fixture
def app(store: Store, tmp_path: Path, clock: ManualClock) -> App:
    a = App(
        store,
        random.Random(1234),
        flood=FloodSettings(enabled=False),
        data_dir=DataDir(tmp_path),
        clock=clock,
    )
    a.owners = ("90001", "90002")  # type: ignore[attr-defined]
    return a


async def test_jrrp_stable_and_survives_a_restart(app: App, store: Store, tmp_path: Path) -> None:
    first = (await run(app, ".jrrp"))[0].text
    assert first == "<PL01> 的今日人品为 46"
    assert (await run(app, ".jrrp"))[0].text == first
    assert (await run(app, "。jrrp", group=None))[0].text == first  # the same in private chat
    key = (tmp_path / "jrrp.key").read_text(encoding="ascii").strip()
    assert len(key) == 64
    social._secrets.clear()  # a restart: the key is read back from the data dir
    again = App(
        store,
        random.Random(999),
        flood=FloodSettings(enabled=False),
        data_dir=DataDir(tmp_path),
        clock=app.clock,
    )
    assert (await run(again, ".jrrp"))[0].text == first
    assert (await run(app, ".jrrp", user="10002"))[0].text == "<PL02> 的今日人品为 53"


async def test_jrrp_changes_with_the_day(app: App, clock: ManualClock) -> None:
    days = []
    for d in range(1, 8):
        clock.set(datetime(2024, 5, d, tzinfo=CHINA))
        days.append((await run(app, ".jrrp"))[0].text)
    assert len(set(days)) > 3
    # the day turns at midnight UTC+8 (16:00 UTC), not at midnight UTC
    clock.set(datetime(2024, 5, 1, 23, 59, tzinfo=CHINA))
    assert (await run(app, ".jrrp"))[0].text == days[0]
    clock.advance(60)
    assert (await run(app, ".jrrp"))[0].text == days[1]


def test_jrrp_values_cover_1_to_100() -> None:
    values = {social.jrrp_value(b"s" * 32, str(u), "2024-05-01") for u in range(3000)}
    assert values == set(range(1, 101))


async def test_jrrp_without_a_data_dir_stays_in_memory(store: Store, tmp_path: Path) -> None:
    a = App(
        store,
        random.Random(1),
        flood=FloodSettings(enabled=False),
        data_dir=DataDir(tmp_path / "missing"),
        clock=ManualClock(),
    )
    first = (await run(a, ".jrrp"))[0].text
    assert (await run(a, ".jrrp"))[0].text == first
    assert not (tmp_path / "missing").exists()


async def test_send_reaches_every_owner(app: App) -> None:
    replies = await run(app, ".send 骰娘好像卡住了")
    assert [(r.text, r.private, r.to_user) for r in replies] == [
        ("已将你的留言转达给骰主（这一小时还可以发2条）", False, None),
        ("收到 PL01(10001) 在群20002的留言：\n骰娘好像卡住了", True, "90001"),
        ("收到 PL01(10001) 在群20002的留言：\n骰娘好像卡住了", True, "90002"),
    ]


async def test_send_limit_per_hour(app: App, clock: ManualClock) -> None:
    for _ in range(3):
        assert len(await run(app, ".send 你好")) == 3
    assert [r.text for r in await run(app, ".send 你好")] == [
        "留言太频繁了：每人每小时最多3条，请61分钟后再试"
    ]
    assert len(await run(app, ".send 你好", user="10002")) == 3  # per user
    clock.advance(3600)
    assert len(await run(app, ".send 你好")) == 3


async def test_send_refuses_empty_and_long(app: App) -> None:
    assert (await run(app, ".send"))[0].text.endswith("格式：.send <内容>")
    long = (await run(app, ".send " + "字" * 301))[0].text
    assert "300" in long and long.endswith("格式：.send <内容>")


async def test_send_without_owners(app: App) -> None:
    app.owners = ()  # type: ignore[attr-defined]
    assert [r.text for r in await run(app, ".send 你好")] == ["骰主还没有设置，留言无法送出"]


async def test_bot_exit_is_dismiss(app: App) -> None:
    refused = (await run(app, ".bot exit"))[0].text
    assert refused.startswith("只有")
    assert [r.text for r in await run(app, ".bot exit", roles=("admin",))] == [
        "确定让骰娘退出本群？请在60秒内发送 .dismiss 确认"
    ]
    bye = await run(app, ".bot exit 确认", roles=("admin",))
    assert [(r.text, r.leave_group) for r in bye] == [("再见，各位！", True)]
    assert (await run(app, ".bot exit 确认", roles=("admin",)))[0].text == "确认已过期，请重新发送 .dismiss"
