"""Tokens, settings and the hub's costs, without a page."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from helpers import say

from chronodice.app import App
from chronodice.web import tokens
from chronodice.web.config import WebSettings, WebSettingsError, banner_line, check_exposure, settings_from
from chronodice.web.hub import ENDED, Hub, encode
from chronodice.web.sources import Where

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)


def counter() -> tokens.Links:
    n = itertools.count(1)
    settings: dict = {"other": 1}
    settings = tokens.ensure(settings, "tl", "b1", lambda: f"token-{next(n):016d}")
    return tokens.Links.from_settings(settings)


def test_ensure_draws_two_tokens_per_session_and_keeps_them() -> None:
    n = itertools.count(1)

    def make() -> str:
        return f"t{next(n)}"

    settings = tokens.ensure({"other": 1}, "tl", "b1", make)
    assert settings == {"other": 1, "web": {"tl": {"p": "t1", "g": "t2", "s": "b1"}}}
    assert tokens.ensure(settings, "tl", "b1", make)["web"]["tl"] == {"p": "t1", "g": "t2", "s": "b1"}
    assert tokens.ensure(settings, "tick20", "c1", make)["web"]["tick20"] == {"p": "t3", "g": "t4", "s": "c1"}
    # the next battle in the same row: new tokens, the old ones gone
    assert tokens.ensure(settings, "tl", "b2", make)["web"]["tl"] == {"p": "t5", "g": "t6", "s": "b2"}
    assert tokens.forget(settings, "tl", "b1")["web"]["tl"]["s"] == "b2"  # not the later one's
    assert tokens.forget(settings, "tl", "b2")["web"] == {"tick20": {"p": "t3", "g": "t4", "s": "c1"}}
    assert tokens.forget(settings, "tick20")["web"] == {}
    broken = {"web": {"tl": {"p": 5}}}  # a damaged entry is replaced, not trusted
    assert tokens.ensure(broken, "tl", "b1", make)["web"]["tl"] == {"p": "t7", "g": "t8", "s": "b1"}
    old = tokens.Links.from_settings({"web": {"tl": {"p": "x", "g": "y"}}})  # before session ids
    assert old.session("tl") == "" and old.current("tl", "") and not old.current("tl", "b1")


def test_a_group_keeps_at_most_100_log_links() -> None:
    settings: dict = {}
    for i in range(105):
        settings = tokens.ensure(settings, f"log:{i}", "", lambda: "x" * 22)
    keys = [k for k in settings["web"] if k.startswith("log:")]
    assert len(keys) == tokens.MAX_LOG_LINKS and keys[0] == "log:5" and keys[-1] == "log:104"


def test_roles_and_shapes() -> None:
    links = counter()
    assert links.role_of("tl", "token-0000000000000001") == "player"
    assert links.role_of("tl", "token-0000000000000002") == "gm"
    assert links.role_of("tl", "token-0000000000000003") is None
    assert links.role_of("moe", "token-0000000000000001") is None
    assert len(tokens.new_token()) == 22 and tokens.new_token() != tokens.new_token()
    assert (
        not tokens.well_formed("a" * 15) and tokens.well_formed("a" * 16) and not tokens.well_formed("a" * 65)
    )
    assert not tokens.well_formed("ａ" * 22) and not tokens.well_formed("a/b" * 8)


def test_settings_and_the_open_door() -> None:
    assert WebSettings.from_values(" https://d.example.org/dice/ ").public_url == "https://d.example.org/dice"
    for bad in ("ftp://x.org", "dice.example.org", "https://x.org/?a=1", "javascript:alert(1)"):
        with pytest.raises(WebSettingsError):
            WebSettings.from_values(bad)
    with pytest.raises(WebSettingsError, match="ONEBOT_ACCESS_TOKEN"):
        check_exposure("https://x.org", "")
    for weak in ("   ", "secret", "x", "  a b c d e f g h i j k l m n o  "):  # blanks, or < 16 non-blank
        with pytest.raises(WebSettingsError, match="ONEBOT_ACCESS_TOKEN"):
            check_exposure("https://x.org", weak)
    check_exposure("https://x.org", "k" * 16)
    check_exposure("https://x.org", "e2e-secret-token")
    check_exposure(None, "")
    check_exposure(None, "x")  # no public page: a short token is the admin's business
    got = settings_from(
        None, {"CHRONODICE_PUBLIC_URL": "http://1.2.3.4:8080", "CHRONODICE_LOG_UTC_OFFSET_HOURS": "9"}
    )
    assert got == WebSettings("http://1.2.3.4:8080", utc_offset_hours=9.0)
    assert (
        banner_line(got)
        == "网页视图：http://1.2.3.4:8080/web/…（.bat 网页 / .init 网页 / .moe 网页 / .log 网页 发链接）"
    )
    assert "CHRONODICE_PUBLIC_URL" in banner_line(WebSettings())


def test_encoded_data_cannot_close_a_script_element() -> None:
    assert encode({"n": "</script><b>&"}) == b'{"n":"\\u003c/script\\u003e\\u003cb\\u003e\\u0026"}'


async def test_one_read_per_interval_whatever_the_pages_and_a_build_only_on_change(app: App) -> None:
    await say(app, SHEET.format(name="甲"), user="10001")
    await say(app, ".bat 力量 175", user="10001")
    hub = Hub(app.store, interval=0.001, keepalive=30.0)
    where = Where("20002", "tl")
    pages = [hub.stream(where, False) for _ in range(20)]
    firsts = [await page.__anext__() for page in pages]
    assert len({id(f) for f in firsts}) == 1  # the same bytes for every page
    while hub.reads < 30:
        await asyncio.sleep(0.001)
    assert hub.builds == 1 and len(hub.watches) == 1
    await say(app, ".bat 力量 200", user="10001")
    second = await asyncio.wait_for(pages[0].__anext__(), 5)
    assert second != firsts[0] and hub.builds == 2
    await say(app, ".bat end", user="10001", roles=("admin",))
    assert await asyncio.wait_for(pages[0].__anext__(), 5) == ENDED
    for page in pages:
        await page.aclose()
    assert hub.watches == {}


@pytest.mark.postgres
async def test_a_page_follows_a_change_made_by_another_process(pg_url: str) -> None:
    """Two stores on one PostgreSQL database stand for two bot processes: a page served by one
    follows a battle played through the other (the store's notifications, no memory shared)."""
    import random

    from chronodice.core.ratelimit import FloodSettings
    from chronodice.store import Store

    group = "77028"
    player, other = Store(pg_url), Store(pg_url)
    await player.migrate()
    await other.migrate()
    try:
        app = App(player, random.Random(5), flood=FloodSettings(enabled=False))
        await say(app, SHEET.format(name="丙"), user="10028", group=group)
        await say(app, ".bat 力量 175", user="10028", group=group)
        hub = Hub(other, interval=0.01)
        page = hub.stream(Where(group, "tl"), False)
        first = await asyncio.wait_for(page.__anext__(), 5)
        await say(app, ".bat 力量 200", user="10028", group=group)
        second = await asyncio.wait_for(page.__anext__(), 5)
        assert b'"id":1' in first and b'"id":2' not in first and b'"id":2' in second
        await page.aclose()
    finally:
        await player.close()
        await other.close()
