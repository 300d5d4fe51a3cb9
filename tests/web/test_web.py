"""The live pages (issue 28) over real sessions: links, tokens, the player view's hidden parts,
escaping, the routes' headers and refusals, and the event stream following a change."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from datetime import datetime, timezone

import pytest
from asgi import Stream, get
from fastapi import FastAPI
from helpers import run, say

from chronodice.app import App
from chronodice.core import ids
from chronodice.core.reply import Reply
from chronodice.render.moe import card_text
from chronodice.rules.moe.record import rebuild
from chronodice.services.tick20 import tracker
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.store import LogLine
from chronodice.web import WebSettings
from chronodice.web.commands import Site, attach, site_of
from chronodice.web.config import HOW_TO_SET
from chronodice.web.hub import ENDED, Hub
from chronodice.web.routes import CSP, FAILURES_BURST, make_router
from chronodice.web.sources import SOURCES, Where, log_session

G = "20002"
GM = {"user": "10001", "roles": ("admin",)}
P1 = {"user": "10002", "name": "艾琳"}
P2 = {"user": "10003", "name": "布鲁诺"}
URL = "https://dice.example.org"
SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
WHEN = datetime(2026, 11, 25, 12, 0, tzinfo=timezone.utc)
LINK = re.compile(r"https://dice\.example\.org(/web/\w+/\d+/[\w-]+)")


@pytest.fixture(autouse=True)
def no_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tracker, "ADVANCE_GRACE", 0.0)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def web(app: App, clock: Clock) -> FastAPI:
    site = Site(
        app.store, WebSettings.from_values(URL), Hub(app.store, interval=0.02, keepalive=5.0, clock=clock)
    )
    attach(app, site)
    fastapi_app = FastAPI()
    fastapi_app.include_router(make_router(site, clock=clock))
    return fastapi_app


def public(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if not r.private)


def private(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if r.private)


def path_of(text: str) -> str:
    m = LINK.search(text)
    assert m is not None, text
    return m.group(1)


async def d20_with_hidden(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =17", **P1)
    await say(app, ".ri =12", **P2)
    await say(app, ".ri =8 哥布林", **GM)
    await say(app, ".init add 刺客 -p 15 -隐藏", **GM)
    await say(app, ".init start", **GM)


# ---------------------------------------------------------------------- the link command
async def test_without_a_public_url_the_command_says_how_to_set_it(app: App) -> None:
    assert await say(app, ".bat 网页") == HOW_TO_SET
    assert "CHRONODICE_PUBLIC_URL" in HOW_TO_SET


async def test_link_needs_a_session_and_the_gm_link_goes_privately(app: App, web: FastAPI) -> None:
    assert await say(app, ".init 网页", **GM) == "本群没有进行中的D20战斗（.init 添加参战者开始）"
    await d20_with_hidden(app)
    player_replies = await run(app, ".init web", **P1)
    assert private(player_replies) == "" and path_of(public(player_replies)).startswith("/web/tick20/20002/")
    gm_replies = await run(app, ".init 网页", **GM)
    assert path_of(public(gm_replies)) == path_of(public(player_replies))  # one player link
    gm_path = path_of(private(gm_replies))
    assert gm_path != path_of(public(gm_replies)) and "GM" not in public(gm_replies)
    assert [r.private for r in gm_replies] == [False, True]


# ---------------------------------------------------------------------- hidden information
async def test_player_page_and_data_never_hold_the_hidden_npc(app: App, web: FastAPI) -> None:
    await d20_with_hidden(app)
    player = path_of(public(await run(app, ".init 网页", **GM)))
    gm = path_of(private(await run(app, ".init 网页", **GM)))
    for suffix in ("", "/data"):
        got = await get(web, player + suffix)
        assert got.status == 200 and "刺客" not in got.text and "???" not in got.text
    data = json.loads((await get(web, player + "/data")).body)
    assert [c["name"] for c in data["combatants"]] == ["艾琳", "布鲁诺", "哥布林"]
    assert data["gm"] is False and data["round"] == 1 and data["tick"] == 17
    gm_data = json.loads((await get(web, gm + "/data")).body)
    assert {c["name"] for c in gm_data["combatants"]} == {"艾琳", "布鲁诺", "哥布林", "刺客"}
    assassin = next(c for c in gm_data["combatants"] if c["name"] == "刺客")
    assert assassin["hidden"] is True and assassin["tick"] == 15 and gm_data["gm"] is True
    assert [c["name"] for c in gm_data["combatants"]] == ["艾琳", "刺客", "布鲁诺", "哥布林"]


async def test_hidden_npc_on_its_turn_shows_no_turn_and_no_tick(app: App, web: FastAPI) -> None:
    """Issue 39 defect 10: not even ``???`` — the page shows no current turn and no tick while a
    hidden combatant's turn runs, as the group's chat shows nothing until it ends."""
    await d20_with_hidden(app)
    player = path_of(public(await run(app, ".init 网页", **GM)))
    await say(app, ".init next", **GM)  # 艾琳 17 → 刺客 15
    got = await get(web, player + "/data")
    data = json.loads(got.body)
    assert data["current"] is None and data["tick"] is None
    assert "刺客" not in got.text and "???" not in got.text


async def test_moe_table_shows_counts_never_cards(app: App, web: FastAPI, clock: Clock) -> None:
    users = ["30001", "30002"]
    await run(app, ".moe new 乱斗森林", user=users[0], group=G)
    await run(app, ".moe join", user=users[1], group=G)
    link = path_of(public(await run(app, ".moe 网页", user=users[0], group=G)))
    lobby = json.loads((await get(web, link + "/data")).body)
    assert lobby["status"] == "lobby" and len(lobby["seats"]) == 2
    await run(app, ".moe start", user=users[0], group=G)
    for u in users:
        await run(app, ".moe choose 1", user=u, group=None)
    clock.now += 1  # one-off reads share a snapshot younger than the hub's interval
    got = await get(web, link + "/data")
    data = json.loads(got.body)
    assert data["status"] == "running" and [s["hand"] for s in data["seats"]] != []
    assert all(s["hand"] >= 4 for s in data["seats"] if not s["choosing"])
    raw, _ = await app.store.sessions.load_session(G, "moe")
    assert raw is not None
    g = rebuild(raw["record"])
    hidden = [card_text(g, c) for seat in range(2) for c in [*g.hand(seat), *g.secrets(seat)]]
    assert len(hidden) >= 8 and all(re.match(r"^[♠♥♣♦]\S+【", t) for t in hidden), hidden
    assert not [t for t in hidden if t in got.text]  # every hand card stays out of the data
    assert data["seats"][0]["faith"] == [0, 4] or data["seats"][0]["choosing"] is False


# ---------------------------------------------------------------------- escaping
async def test_a_name_with_html_is_text(app: App, web: FastAPI) -> None:
    evil = "<script>x()</script>"  # 20 characters: a whole TimeLine name
    await say(app, SHEET.format(name=evil), user="10001")
    assert "行动#1" in await say(app, ".bat 力量 100 <i>note</i>", user="10001")
    link = path_of(public(await run(app, ".bat 网页", user="10001")))
    page = await get(web, link)
    assert page.status == 200 and "<script>x()" not in page.text and "<i>" not in page.text
    assert "\\u003cscript\\u003ex()\\u003c/script\\u003e" in page.text
    data = json.loads((await get(web, link + "/data")).body)
    assert data["rows"][0]["name"] == evil  # the text itself, drawn by the page as text
    assert "<i>note</i>" in data["bars"][0]["note"]


# ---------------------------------------------------------------------- routes
async def test_headers_static_files_and_refusals(app: App, web: FastAPI, clock: Clock) -> None:
    await d20_with_hidden(app)
    link = path_of(public(await run(app, ".init 网页", **GM)))
    page = await get(web, link)
    assert page.headers["content-security-policy"] == CSP and page.headers["referrer-policy"] == "no-referrer"
    assert page.headers["cache-control"] == "no-store" and len(page.body) < 20_000
    js = await get(web, "/web/static/app.js")
    css = await get(web, "/web/static/app.css")
    assert js.status == css.status == 200 and js.headers["content-type"].startswith("text/javascript")
    assert len(page.body) + len(js.body) + len(css.body) < 200_000
    assert (await get(web, "/web/static/")).status == 404
    assert (await get(web, "/web/static/..%2f__init__.py")).status == 404
    wrong = link[:-4] + ("AAAA" if not link.endswith("AAAA") else "BBBB")
    assert (await get(web, wrong, client="10.9.9.9")).status == 404
    assert (await get(web, link.replace("/tick20/", "/tl/"))).status == 404
    for _ in range(FAILURES_BURST - 1):
        assert (await get(web, "/web/tl/1/<script>", client="10.9.9.9")).status == 404
    assert (await get(web, wrong, client="10.9.9.9")).status == 429  # unknown tokens: no lookup now
    assert (await get(web, link, client="10.9.9.9")).status == 200  # a good link is never held up
    assert (await get(web, link + "/data", client="10.9.9.9")).status == 200
    assert (await get(web, wrong)).status == 404  # another address is not held up either
    clock.now += 3.0
    assert (await get(web, wrong, client="10.9.9.9")).status == 404  # one refilled: looked up again
    assert (await get(web, wrong, client="10.9.9.9")).status == 429


async def test_link_stops_working_when_the_session_ends(app: App, web: FastAPI, clock: Clock) -> None:
    await d20_with_hidden(app)
    link = path_of(public(await run(app, ".init 网页", **GM)))
    assert (await get(web, link + "/data")).status == 200
    assert "战斗结束" in await say(app, ".init end 确认", **GM)
    assert (await get(web, link + "/data")).status == 200  # the snapshot, for the hub's interval
    clock.now += 1
    assert (await get(web, link + "/data")).status == 410
    assert (await get(web, link)).status == 404  # forgotten: the next combat gets a new link
    await d20_with_hidden(app)
    again = path_of(public(await run(app, ".init 网页", **GM)))
    assert again != link and (await get(web, link)).status == 404 and (await get(web, again)).status == 200


# ---------------------------------------------------------------------- live
async def test_stream_sends_the_change_then_the_end(app: App, web: FastAPI) -> None:
    await say(app, SHEET.format(name="甲"), user="10001")
    await say(app, SHEET.format(name="乙"), user="10002")
    await say(app, ".bat 力量 175", user="10001")
    link = path_of(public(await run(app, ".bat 网页", user="10002")))
    stream = Stream(web, link + "/events")
    try:
        first = json.loads((await stream.next_event(5)).removeprefix(b"data: "))
        assert stream.status == 200 and [r["name"] for r in first["rows"]] == ["甲"]
        await say(app, ".bat 力量 350", user="10002")
        second = json.loads((await stream.next_event(2)).removeprefix(b"data: "))
        assert [r["name"] for r in second["rows"]] == ["甲", "乙"]
        assert [(b["id"], b["row"]) for b in second["bars"]] == [(1, 0), (2, 1)]
        assert second["rows"][1]["hp"] == [150.0, 150.0]
        await say(app, ".crd hp -30", user="10002")  # the card, not the battle, changed
        third = json.loads((await stream.next_event(2)).removeprefix(b"data: "))
        assert third["rows"][1]["hp"] == [120.0, 150.0]
        # the card is written, then the battle's record of the change: a read between the two
        # shows the card first, and the record in the next event
        while not any("体力-30.0" in line for line in third["recent"]):
            third = json.loads((await stream.next_event(2)).removeprefix(b"data: "))
            assert third["rows"][1]["hp"] == [120.0, 150.0]
        await say(app, ".bat end", **GM)
        assert (await stream.next_event(2)) == b"event: end\ndata: {}\n\n"
    finally:
        await stream.close()


async def test_log_page_is_the_export_escaped(app: App, web: FastAPI, clock: Clock) -> None:
    await say(app, ".log new 第一夜", **GM)
    link = path_of(public(await run(app, ".log 网页", **GM)))
    log = await app.store.logs.active_log(G)
    assert log is not None
    lines = [
        LogLine("10002", "<script>x()</script>", [["text", "我去图书馆 <img src=x>"]], WHEN),
        LogLine("123456", "骰娘", [["text", "艾琳掷骰 1d20 = 17 成功"]], WHEN, is_bot=True),
    ]
    for line in lines:
        await app.store.logs.record_line(G, log.id, line, max_lines=100)
    got = await get(web, link + "/data")
    data = json.loads(got.body)
    assert data["kind"] == "log" and data["name"] == "第一夜" and data["ended"] is False
    assert (
        data["total"] == 2
        and len(data["html"]) == 2
        and "<script>" not in got.text
        and "<img" not in got.text
    )
    assert "&lt;script&gt;x()&lt;/script&gt;" in data["html"][0] and "&lt;img src=x&gt;" in data["html"][0]
    assert '<span class="dice">1d20</span>' in data["html"][1] and '<b class="ok">成功</b>' in data["html"][1]
    stream = Stream(web, link + "/events")
    try:
        full = json.loads((await stream.next_event(5)).removeprefix(b"data: "))
        assert full["total"] == 2 and len(full["html"]) == 2
        await app.store.logs.record_line(
            G, log.id, LogLine("10003", "布鲁诺", [["text", "跟上"]], WHEN), max_lines=100
        )
        step = json.loads((await stream.next_event(2)).removeprefix(b"data: "))
        assert "html" not in step and step["total"] == 3 and step["keep"] == 3 and len(step["append"]) == 1
        assert "跟上" in step["append"][0] and "布鲁诺" in step["append"][0]
        await say(app, ".log end", **GM)
        assert (await stream.next_event(2)).startswith(b"event: end")  # 结束后失效, as the reply says
    finally:
        await stream.close()
    clock.now += 1
    assert (await get(web, link + "/data")).status in (404, 410)  # over (forgotten once the hub wrote it)
    assert "已经结束" in await say(app, ".log 网页", **GM)


# ---------------------------------------------------------------------- a link names one session
@pytest.fixture
def session_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Session ids s1, s2 … in the order sessions begin."""
    n = itertools.count(1)
    monkeypatch.setattr(ids, "SOURCE", lambda: f"s{next(n)}")


async def test_an_old_battle_link_never_shows_the_next_battle(
    app: App, web: FastAPI, session_ids: None, clock: Clock
) -> None:
    """The repro: the battle ends and the next begins with nobody opening the old page between."""
    await say(app, SHEET.format(name="甲"), user="10001")
    await say(app, ".bat 力量 175", user="10001")
    old = path_of(public(await run(app, ".bat 网页", user="10001")))
    assert (await get(web, old + "/data")).status == 200
    await say(app, ".bat end", **GM)
    await say(app, ".bat 力量 120", user="10001")  # the next battle, in the same session row
    state = await app.store.sessions.load_state(G, BATTLE_CODEC)
    assert state is not None and state.session_id == "s2"
    clock.now += 1
    assert (await get(web, old + "/data")).status == 410  # over, never the new battle
    assert [(await get(web, old + s)).status for s in ("", "/events")] == [404, 404]  # forgotten
    new = path_of(public(await run(app, ".bat 网页", user="10001")))
    data = json.loads((await get(web, new + "/data")).body)
    assert new != old and data["bars"][0]["id"] == 1 and (await get(web, old)).status == 404
    settings = (await app.store.groups.get_group(G)).settings
    assert settings["web"]["tl"]["s"] == "s2"


async def test_a_new_link_drawn_before_the_old_page_looks_again(
    app: App, web: FastAPI, session_ids: None
) -> None:
    """The next battle's link is asked for before the old one is read: the old link shows
    nothing, and its end does not take the new link with it."""
    await say(app, SHEET.format(name="甲"), user="10001")
    await say(app, ".bat 力量 175", user="10001")
    old = path_of(public(await run(app, ".bat 网页", user="10001")))
    await say(app, ".bat end", **GM)
    await say(app, ".bat 力量 120", user="10001")
    new = path_of(public(await run(app, ".bat 网页", user="10001")))
    assert new != old and (await get(web, old + "/data")).status == 404
    assert (await get(web, new + "/data")).status == 200


async def test_an_open_stream_ends_when_the_next_battle_begins_within_one_poll(app: App) -> None:
    """End and a new battle between two reads of the watch: the stream ends, never shows it."""
    await say(app, SHEET.format(name="甲"), user="10001")
    await say(app, ".bat 力量 175", user="10001")
    hub = Hub(app.store, interval=3600.0, keepalive=3600.0)  # reads only when woken
    state = await app.store.sessions.load_state(G, BATTLE_CODEC)
    assert state is not None
    where = Where(G, "tl", session=state.session_id)
    page = hub.stream(where, False)
    first = await asyncio.wait_for(page.__anext__(), 5)
    assert b'"id":1' in first
    await say(app, ".bat end", **GM)
    await say(app, ".bat 力量 120", user="10001")
    await say(app, ".bat 敏捷 50", user="10001")
    hub.watches[where].wake.set()
    assert await asyncio.wait_for(page.__anext__(), 5) == ENDED
    await page.aclose()
    await hub.close()


async def test_d20_and_moe_links_are_bound_to_their_session(
    app: App, web: FastAPI, session_ids: None
) -> None:
    await d20_with_hidden(app)
    old_d20 = path_of(public(await run(app, ".init 网页", **GM)))
    old_gm = path_of(private(await run(app, ".init 网页", **GM)))
    assert "战斗结束" in await say(app, ".init end 确认", **GM)
    await d20_with_hidden(app)  # the next combat, nobody looked between
    assert (await get(web, old_d20 + "/data")).status == 410
    assert (await get(web, old_gm + "/data")).status in (404, 410)
    await run(app, ".moe new", user="30001", group=G)
    old_moe = path_of(public(await run(app, ".moe 网页", user="30001", group=G)))
    raw, _ = await app.store.sessions.load_session(G, "moe")
    assert raw is not None and raw["session_id"] == "s3"
    await run(app, ".moe abort", user="30001", group=G)
    await run(app, ".moe new", user="30001", group=G)
    assert (await get(web, old_moe + "/data")).status == 410
    new_moe = path_of(public(await run(app, ".moe 网页", user="30001", group=G)))
    assert new_moe != old_moe and (await get(web, new_moe + "/data")).status == 200


async def test_a_log_link_names_that_log_not_a_later_one_with_its_id(app: App) -> None:
    await say(app, ".log new 第一夜", **GM)
    found = await app.store.logs.find_log(G)
    assert found is not None
    read = await SOURCES["log"](app.store, Where(G, f"log:{found.id}", session=log_session(found)), None)
    assert read.loaded is not None and read.session == log_session(found) != ""
    other = Where(G, f"log:{found.id}", session="2020-01-01T00:00:00+00:00")
    assert (await SOURCES["log"](app.store, other, None)).loaded is None


async def test_a_gm_resets_a_combats_links_and_the_old_ones_open_nothing(
    app: App, web: FastAPI, clock: Clock
) -> None:
    await d20_with_hidden(app)
    first = await run(app, ".init 网页", **GM)
    old_player, old_gm = path_of(public(first)), path_of(private(first))
    stream = Stream(web, old_gm + "/events")
    try:
        assert (await stream.next_event(5)).startswith(b"data:")
        assert "只有GM" in await say(app, ".init 网页 重置", **P1)
        assert (await get(web, old_player + "/data")).status == 200  # a player cannot reset
        again = await run(app, ".init 网页 重置", **GM)
        assert "已重置" in public(again) and [r.private for r in again] == [False, True]
        assert (await stream.next_event(2)).startswith(b"event: end")  # the open GM page is told
    finally:
        await stream.close()
    clock.now += 1
    new_player, new_gm = path_of(public(again)), path_of(private(again))
    assert {new_player, new_gm}.isdisjoint({old_player, old_gm})
    for old in (old_player, old_gm):
        assert (await get(web, old + "/data")).status == 404
    assert json.loads((await get(web, new_gm + "/data")).body)["gm"] is True
    assert (await get(web, new_player + "/data")).status == 200
    assert path_of(public(await run(app, ".init 网页", **P1))) == new_player  # asked again: the same


async def test_a_page_that_goes_away_leaves_no_stream_slot_or_task_behind(app: App, web: FastAPI) -> None:
    """A closed page ends its hub stream at once (not at the next change or keep-alive tick) and
    leaves no task waiting for its link to be reset."""
    await d20_with_hidden(app)
    link = path_of(public(await run(app, ".init 网页", **GM)))
    site = site_of(app)
    assert site is not None and site.slots is not None
    before = len(asyncio.all_tasks())
    streams = [Stream(web, link + "/events") for _ in range(3)]
    for stream in streams:
        assert (await stream.next_event(5)).startswith(b"data:")
    assert site.hub.open_streams == 3 and site.slots.open == 3
    for stream in streams:
        await stream.close()
    for _ in range(50):
        if site.hub.open_streams == 0 and len(asyncio.all_tasks()) <= before:
            break
        await asyncio.sleep(0.01)
    assert site.hub.open_streams == 0 and site.slots.open == 0
    assert len(asyncio.all_tasks()) <= before, asyncio.all_tasks()
