"""End to end (issue 28): the live pages of the real ``python bot.py`` over real HTTP.

A TimeLine battle and a D20 combat with a hidden NPC are played over the OneBot WebSocket; the
link comes from the bot's reply (the GM link by private message only), the page and its data are
fetched over HTTP from the bot's own port, and the event stream delivers the next command's
change within a second.  The player page, its data and its stream never hold the hidden NPC;
the links stop working when the session ends; a bot with a page open stops promptly; the start
is refused with a public URL and no OneBot access token.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from moe_table import hidden_faces, load
from onebot_client import BotProcess, OneBotClient
from test_moe_e2e import Table
from test_tick20_e2e import AILIN, BRUNO, GM, pace

from chronodice.services.moe.numbers import card_number

pytestmark = pytest.mark.e2e

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)


@pytest.fixture
def bot_env() -> dict[str, str]:
    """The e2e bot (``conftest``) with a public address for its pages."""
    return {"CHRONODICE_PUBLIC_URL": "http://127.0.0.1:{port}"}


def path_in(text: str, port: int) -> str:
    m = re.search(rf"http://127\.0\.0\.1:{port}(/web/\w+/\d+/[\w-]+)", text)
    assert m is not None, text
    return m.group(1)


async def fetch(port: int, path: str) -> tuple[int, str]:
    def go() -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    return await asyncio.to_thread(go)


class Events:
    """An event stream read over a plain socket (HTTP/1.0: the body is the stream itself)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received: list[str] = []

    @classmethod
    async def open(cls, port: int, path: str) -> Events:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path}/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        assert b" 200 " in status, status
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        return cls(reader, writer)

    async def next(self, timeout: float) -> tuple[str, str]:
        """(event type, data) of the next event; comments and ``retry`` are skipped."""
        kind, data = "message", ""
        deadline = time.monotonic() + timeout
        while True:
            line = (
                await asyncio.wait_for(self.reader.readline(), max(0.01, deadline - time.monotonic()))
            ).decode()
            self.received.append(line)
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data = line[5:].strip()
            elif line in ("\n", "\r\n", "") and data:
                return kind, data
            if line == "":
                raise ConnectionError("stream closed")

    def close(self) -> None:
        self.writer.close()


async def send(onebot: OneBotClient, text: str, who: dict) -> tuple[str, str]:
    """(group text, private text) of one command."""
    await pace(who["user"], onebot)
    calls = await onebot.send(text, **who)
    return (
        "\n".join(c.text for c in calls if c.to_group),
        "\n".join(c.text for c in calls if c.is_private),
    )


async def test_timeline_page_follows_the_battle_and_ends_with_it(
    onebot: OneBotClient, bot_process: BotProcess
) -> None:
    port = bot_process.port
    await send(onebot, SHEET.format(name="甲"), AILIN)
    await send(onebot, SHEET.format(name="乙"), BRUNO)
    await send(onebot, ".bat 力量 175", AILIN)
    group, private = await send(onebot, ".bat 网页", BRUNO)
    assert private == "" and "实时网页" in group
    link = path_in(group, port)
    group_gm, private_gm = await send(onebot, ".bat web", GM)
    assert path_in(group_gm, port) == link
    gm_link = path_in(private_gm, port)
    assert gm_link != link and gm_link not in group_gm
    status, page = await fetch(port, link)
    assert status == 200 and 'id="first"' in page and "甲" in page
    stream = await Events.open(port, link)
    try:
        kind, first = await stream.next(5)
        assert kind == "message" and [r["name"] for r in json.loads(first)["rows"]] == ["甲"]
        await pace(BRUNO["user"], onebot)
        sent = time.monotonic()
        await onebot.post(".bat 力量 350", **BRUNO)
        kind, second = await stream.next(1.0)
        took = time.monotonic() - sent
        assert [r["name"] for r in json.loads(second)["rows"]] == ["甲", "乙"] and took < 1.0, took
        await send(onebot, ".bat end", GM)
        assert await stream.next(2) == ("end", "{}")
    finally:
        stream.close()
    assert (await fetch(port, link))[0] in (404, 410)
    assert (await fetch(port, link + "/data"))[0] == 404


async def test_d20_player_page_never_holds_the_hidden_npc(
    onebot: OneBotClient, bot_process: BotProcess
) -> None:
    port = bot_process.port
    for text, who in [
        (".init begin", GM),
        (".ri =17", AILIN),
        (".ri =12", BRUNO),
        (".ri =8 哥布林", GM),
        (".init add 刺客 -p 15 -隐藏", GM),
        (".init start", GM),
        (".hp 刺客 hg 13", GM),
    ]:
        await send(onebot, text, who)
    group, private = await send(onebot, ".init 网页", GM)
    link, gm_link = path_in(group, port), path_in(private, port)
    assert "刺客" not in group and gm_link not in group
    stream = await Events.open(port, link)
    try:
        _, first = await stream.next(5)
        await pace(AILIN["user"], onebot)
        sent = time.monotonic()
        await onebot.post(".ed", **AILIN)  # 艾琳 ends her turn: the hidden 刺客 (15) acts
        _, second = await stream.next(1.0)
        assert time.monotonic() - sent < 1.0
        assert json.loads(second)["current"] is None and json.loads(second)["tick"] is None  # issue 39
    finally:
        stream.close()
    received = "".join(stream.received)
    status, page = await fetch(port, link)
    _, data = await fetch(port, link + "/data")
    for text in (first, second, received, page, data):
        assert "刺客" not in text and "65/65" not in text
    assert status == 200 and {c["name"] for c in json.loads(data)["combatants"]} == {
        "艾琳",
        "布鲁诺",
        "哥布林",
    }
    _, gm_data = await fetch(port, gm_link + "/data")
    assassin = next(c for c in json.loads(gm_data)["combatants"] if c["name"] == "刺客")
    assert assassin["health"] == "HP65/65" and assassin["current"] is True, assassin
    # the bot stops promptly with a page open (uvicorn would wait for the stream forever)
    stream = await Events.open(port, link)
    try:
        await stream.next(5)
        began = time.monotonic()
        bot_process.stop()
        assert bot_process.proc is not None and bot_process.proc.returncode == 0
        assert time.monotonic() - began < 5.0
    finally:
        stream.close()


def test_a_public_url_without_an_access_token_is_refused(tmp_path: Path) -> None:
    proc = BotProcess(
        workdir=tmp_path,
        extra_env={"CHRONODICE_PUBLIC_URL": "https://dice.example.org", "ONEBOT_ACCESS_TOKEN": ""},
    )
    with pytest.raises(RuntimeError, match="bot exited with 2"):
        proc.start()
    errors = [line for line in proc.log_tail().splitlines() if "ERROR" in line]
    assert len(errors) == 1 and "ONEBOT_ACCESS_TOKEN" in errors[0], proc.log_tail()


# ---------------------------------------------------------------------- a real browser
CHROMIUM = Path("/usr/bin/chromium")


def _browser_or_skip() -> object:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install -e '.[test]')")
    return async_playwright


def _shots_dir(tmp_path: Path) -> Path:
    """Screenshots go to ``CHRONODICE_WEB_SHOTS`` when set (to look at them), else the tmp dir."""
    import os

    folder = Path(os.environ.get("CHRONODICE_WEB_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def _fits(page: object, width: int) -> None:
    sw = await page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    assert sw <= width, f"horizontal scroll: {sw} > {width}"


MOE_GROUP = 20002
MOE_PLAYERS = {10005: "小萌", 10006: "小E", 10007: "小第三"}


async def _start_and_play(client: OneBotClient, bot: BotProcess, page: object) -> str:
    """Start the lobby's game over the WebSocket, choose the characters in private, and make
    the first play of the game; returns the public line the page showed within 1 s of it."""
    await pace(10005, client)
    await client.send(".moe start", user=10005, card=MOE_PLAYERS[10005])
    for _ in MOE_PLAYERS:
        state, g = load(bot, MOE_GROUP)
        assert g.pending is not None and g.pending.reason == "character", g.pending
        user = int(state["players"][g.pending.seat]["user"])
        await pace(user, client)
        await client.send(".moe choose 1", user=user, group=None, card=MOE_PLAYERS[user])
    await page.locator(".pill", has_text="手牌").first.wait_for(timeout=3000)  # type: ignore[attr-defined]
    state, g = load(bot, MOE_GROUP)
    for _ in range(10):  # answer what comes before the first play (a skill's 是否发动 …)
        if g.pending is None or g.pending.kind == "play":
            break
        user, text, private = Table(client, bot).answer_for(state, g)
        serial = g.pending.serial
        await pace(user, client)
        await client.post(text, user=user, group=None if private else MOE_GROUP, card=MOE_PLAYERS[user])
        deadline = time.monotonic() + 5
        while g.pending is not None and g.pending.serial == serial:
            assert time.monotonic() < deadline, f"{text!r} changed nothing"
            await asyncio.sleep(0.05)
            state, g = load(bot, MOE_GROUP)
    ask = g.pending
    assert ask is not None and ask.kind == "play", ask
    opt = next(o for o in ask.options if o["a"] == "card" and o["mode"] == "one")
    user = int(state["players"][ask.seat]["user"])
    n = card_number(state, g, ask.seat, opt["card"])
    text = f".moe play {n}{' 当' if opt.get('as') else ''} {opt['targets'][0] + 1}号"
    used = page.locator(".recent li", has_text="使用了")  # type: ignore[attr-defined]
    before = await used.count()
    await pace(user, client)
    sent = time.monotonic()
    await client.post(text, user=user, group=MOE_GROUP, card=MOE_PLAYERS[user])
    line = used.nth(before)
    await line.wait_for(timeout=1000)
    assert time.monotonic() - sent < 1.0
    return str(await line.inner_text())


async def test_pages_in_a_real_browser(onebot: OneBotClient, bot_process: BotProcess, tmp_path: Path) -> None:
    async_playwright = _browser_or_skip()
    port, shots = bot_process.port, _shots_dir(tmp_path)
    evil = "<script>x()</script>"
    await send(onebot, SHEET.format(name="甲"), AILIN)
    await send(onebot, SHEET.format(name=evil), BRUNO)
    await send(onebot, ".bat 力量 175", AILIN)
    await send(onebot, ".bat 力量 200", BRUNO)
    tl = path_in((await send(onebot, ".bat 网页", AILIN))[0], port)
    for text, who in [(".init begin", GM), (".ri =17", AILIN), (".ri =12", BRUNO), (".ri =8 哥布林", GM)]:
        await send(onebot, text, who)
    await send(onebot, ".init add 刺客 -p 15 -隐藏", GM)
    await send(onebot, ".init start", GM)
    d20 = path_in((await send(onebot, ".init 网页", AILIN))[0], port)
    await send(onebot, ".moe new 乱斗森林", {"user": 10005, "card": MOE_PLAYERS[10005]})
    await send(onebot, ".moe join", {"user": 10006, "card": MOE_PLAYERS[10006]})
    moe = path_in((await send(onebot, ".moe 网页", {"user": 10005}))[0], port)
    await send(onebot, ".log new 第一夜", GM)
    await send(onebot, ".r 1d20 潜行", AILIN)
    log = path_in((await send(onebot, ".log 网页", GM))[0], port)
    dialogs: list[str] = []
    bodies: list[str] = []
    faces: set[str] = set()
    async with async_playwright() as pw:  # type: ignore[operator]
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 360, "height": 740})
            page.on("dialog", lambda d: dialogs.append(d.message))

            async def keep(response: object) -> None:
                if "/events" not in response.url:  # type: ignore[attr-defined]
                    bodies.append((await response.body()).decode(errors="replace"))  # type: ignore[attr-defined]

            page.on("response", keep)
            # --- TimeLine: drawn, readable at 360 px, a name with HTML shown as text, live
            await page.goto(f"http://127.0.0.1:{port}{tl}")
            await page.wait_for_selector("#conn.on", timeout=5000)
            await _fits(page, 360)
            assert await page.locator(".row .who", has_text="甲").is_visible()
            assert await page.get_by_text(evil, exact=True).first.is_visible()
            assert await page.locator(".bar").count() == 2
            await pace(BRUNO["user"], onebot)
            sent = time.monotonic()
            await onebot.post(".bat 力量 350", **BRUNO)
            await page.locator(".bar").nth(2).wait_for(timeout=1000)
            assert time.monotonic() - sent < 1.0
            # --- the bot restarts: the page reconnects by itself and shows the state then
            bot_process.stop()
            await page.wait_for_selector("#conn.off", timeout=5000)
            bot_process.start()
            async with OneBotClient(bot_process.url) as again:
                again.bot = bot_process  # pace() may move its clock past the flood window
                await page.wait_for_selector("#conn.on", timeout=15000)
                await pace(AILIN["user"], again)
                await again.send(".bat 敏捷 120", **AILIN)
                await page.locator(".bar").nth(3).wait_for(timeout=2000)
                await pace(GM["user"], again)
                await again.send(".bat 开始", **GM)  # the clock runs: the now-line, resolutions
                # (a locator's wait: a JavaScript predicate would need eval, which the page's CSP forbids)
                await page.locator("#app", has_text="开场中").wait_for(state="detached", timeout=2000)
                await _fits(page, 360)
                await page.screenshot(path=str(shots / "timeline-360.png"), full_page=True)
                # --- D20 combat: the hidden NPC is nowhere in the DOM; a turn change is live
                await page.goto(f"http://127.0.0.1:{port}{d20}")
                await page.wait_for_selector("#conn.on", timeout=5000)
                await _fits(page, 360)
                assert "刺客" not in await page.content()
                await pace(AILIN["user"], again)
                sent = time.monotonic()
                await again.post(".ed", **AILIN)
                await page.locator("p.next").wait_for(
                    state="detached", timeout=1000
                )  # no turn shown (issue 39)
                assert time.monotonic() - sent < 1.0 and "刺客" not in await page.content()
                await page.screenshot(path=str(shots / "tick20-360.png"), full_page=True)
                # --- 萌E: seats and counts; a new seat shows live
                await page.goto(f"http://127.0.0.1:{port}{moe}")
                await page.wait_for_selector("#conn.on", timeout=5000)
                await _fits(page, 360)
                assert await page.locator(".who-card").count() == 2
                await again.post(".moe join", user=10007, card="小第三")
                await page.locator(".who-card").nth(2).wait_for(timeout=1000)
                await page.screenshot(path=str(shots / "moe-lobby-360.png"), full_page=True)
                # --- 萌E running: a real game; a play shows within 1 s; no hidden card anywhere
                moe_stream = await Events.open(port, moe)
                try:
                    await moe_stream.next(5)
                    played = await _start_and_play(again, bot_process, page)
                    faces = hidden_faces(load(bot_process, MOE_GROUP)[1])
                    while "使用了" not in (await moe_stream.next(2))[1]:  # the stream carried it too
                        pass
                finally:
                    moe_stream.close()
                assert played and len(faces) >= 8, (played, faces)
                dom = await page.content()
                streamed = "".join(moe_stream.received)
                assert not [f for f in faces if f in dom or f in streamed]
                await _fits(page, 360)
                await page.screenshot(path=str(shots / "moe-360.png"), full_page=True)
                # --- .log: the export's lines, a new message appended live, HTML in it shown as text
                await page.goto(f"http://127.0.0.1:{port}{log}")
                await page.wait_for_selector("#conn.on", timeout=5000)
                await _fits(page, 360)
                before = await page.locator(".msg").count()
                assert before >= 4 and await page.locator(".dice").count() >= 1
                await again.post("我先躲起来 <i>嘘</i>", **BRUNO)
                await page.locator(".msg").nth(before).wait_for(timeout=1000)
                assert await page.get_by_text("我先躲起来 <i>嘘</i>").is_visible()
                await page.screenshot(path=str(shots / "log-360.png"))  # the newest lines, as seen
                wide = await browser.new_page(viewport={"width": 1080, "height": 900})
                for name, link in (("timeline", tl), ("tick20", d20), ("moe", moe), ("log", log)):
                    await wide.goto(f"http://127.0.0.1:{port}{link}")
                    await wide.wait_for_selector("#conn.on", timeout=5000)
                    await _fits(wide, 1080)
                    await wide.screenshot(path=str(shots / f"{name}-1080.png"), full_page=name != "log")
        finally:
            await browser.close()
    assert dialogs == []  # no script ran from a name
    assert bodies and not [b for b in bodies if "刺客" in b]  # nor in any response the page received
    assert not [b for b in bodies if any(f in b for f in faces)]  # no hand or face-down card either
    assert all(
        (shots / f"{n}-{w}.png").stat().st_size > 5000
        for n in ("timeline", "tick20", "moe")
        for w in (360, 1080)
    )
