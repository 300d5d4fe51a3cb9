"""萌E packs a group adds under ``<data dir>/packs``: listed by ``.moe packs``, chosen by
``.moe new <卡包>``; an invalid one is skipped with its problems shown and logged, never a crash."""

from __future__ import annotations

import copy
import logging
from pathlib import Path

import pytest
from helpers import demo_pack_raw, run, say, write_pack

from chronodice.app import App
from chronodice.rules.moe import catalog
from chronodice.rules.moe import pack as moe_pack
from chronodice.rules.moe.pack import load_pack

G = "20002"
HOST, P2 = "30001", "30002"


def homebrew(folder: Path) -> None:
    raw = demo_pack_raw()
    raw.update(pack="homebrew", name="自制包", alias=["自制"])
    raw["maps"] = {"arena": {"name": "竞技场", "win": "last_alive", "text": "最后存活者胜。"}}
    write_pack(folder, "homebrew", raw)


def broken(folder: Path) -> None:
    raw = demo_pack_raw()
    raw.update(pack="broken", name="坏包")
    raw["skills"]["wonderland"]["timing"] = "phase.draw.cnt"
    raw["cards"]["attack"]["effect"] = [{"damage": {"to": "target", "amount": 1}}]
    write_pack(folder, "broken", raw)


async def test_packs_lists_built_in_and_added_packs_and_invalid_ones(
    app: App, data_packs: Path, caplog: pytest.LogCaptureFixture
) -> None:
    homebrew(data_packs)
    broken(data_packs)
    with caplog.at_level(logging.WARNING, logger="chronodice.moe.packs"):
        text = await say(app, ".moe packs", user=HOST, group=G)
    lines = text.splitlines()
    assert lines[0].startswith("萌E卡包")
    assert "· homebrew「自制包」（又名自制）：15名角色，92张牌，地图 竞技场（数据目录）" in lines
    assert any(
        line.startswith("· demo「爱丽丝与童话世界·演示包」") and "（内置，默认）" in line for line in lines
    )
    assert not any("test" in line.split("「")[0] for line in lines)  # the test pack is hidden
    assert "× broken.yaml（数据目录）无效，已跳过，共2处问题：" in lines
    assert (
        "  - broken.yaml：卡牌 attack（攻击）的 effect[0].damage：未知参数「amount」（可用：attribute、from、n、to）"
        in lines
    )
    assert any("技能 wonderland（奇境）的 timing：未知时机「phase.draw.cnt」" in line for line in lines)
    assert "broken.yaml" in caplog.text and "amount" in caplog.text


async def test_new_with_an_added_pack_plays_it(app: App, data_packs: Path) -> None:
    homebrew(data_packs)
    text = await say(app, ".moe new 自制 竞技场", user=HOST, group=G)
    assert "（卡包：自制包，地图：竞技场）" in text
    await run(app, ".moe join", user=P2, group=G)
    await run(app, ".moe start", user=HOST, group=G)
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["pack"] == "homebrew" and state["record"]["pack"] == "homebrew"
    assert state["status"] == "running"


async def test_new_with_a_map_of_another_pack_is_refused(app: App, data_packs: Path) -> None:
    homebrew(data_packs)
    assert await say(app, ".moe new 竞技场", user=HOST, group=G) == (
        "卡包「爱丽丝与童话世界·演示包」没有地图「竞技场」，可选：乱斗森林、双王国、信仰圣殿、随机"
    )
    assert "地图：乱斗森林" in await say(app, ".moe new demo 乱斗森林", user=HOST, group=G)


async def test_default_pack_is_unchanged(app: App) -> None:
    assert "地图：随机" in await say(app, ".moe new", user=HOST, group=G)
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["pack"] == "demo"


def test_an_invalid_pack_in_the_data_dir_falls_back_to_the_built_in_one(data_packs: Path) -> None:
    raw = copy.deepcopy(demo_pack_raw())
    raw["characters"] = {}
    write_pack(data_packs, "demo", raw)
    pack = load_pack("demo")  # the data directory's copy is invalid: the built-in one is used
    assert len(pack.characters) == 15
    (bad,) = [e for e in catalog.catalog() if e.pack is None]
    assert bad.problems == ["demo.yaml：卡包没有角色（characters 为空）"]


def test_a_valid_pack_in_the_data_dir_replaces_the_built_in_one(data_packs: Path) -> None:
    raw = demo_pack_raw()
    raw["name"] = "本群演示包"
    write_pack(data_packs, "demo", raw)
    assert load_pack("demo").name == "本群演示包"
    shown = [e for e in catalog.listed() if e.name == "demo"]
    assert [e.source for e in shown] == ["数据目录"]


def test_an_invalid_pack_without_a_fallback_raises_with_every_problem(data_packs: Path) -> None:
    broken(data_packs)
    with pytest.raises(moe_pack.PackError) as err:
        load_pack("broken")
    assert len(err.value.problems) == 2
    assert catalog.find("broken") is None


async def test_start_with_a_pack_broken_after_new_says_so(app: App, data_packs: Path) -> None:
    homebrew(data_packs)
    await run(app, ".moe new 自制", user=HOST, group=G)
    await run(app, ".moe join", user=P2, group=G)
    raw = demo_pack_raw()
    raw.update(pack="homebrew", name="自制包")
    raw["characters"] = {}
    write_pack(data_packs, "homebrew", raw)  # no cache_clear: a changed file is reloaded
    text = await say(app, ".moe start", user=HOST, group=G)
    assert text == "卡包「homebrew」现在无法加载（.moe packs 查看原因），请 .moe abort 后换一个卡包开局"
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["status"] == "lobby"
