"""萌E packs that fail (issue 27): a broken base pack is reported once and the packs extending it
say why they fail; ``.moe packs`` never lists the hidden test pack; ``.moe new <broken pack>``
names the pack's problems; a kick reads differently from a surrender."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import demo_pack_raw, moe_game, moe_started, run, say, write_pack

from chronodice.app import App
from chronodice.rules.moe import catalog
from chronodice.rules.moe.pack import PackError, load_pack, read_pack_file
from chronodice.services import moe

G = "20002"
HOST, P2, P3 = "30001", "30002", "30003"


def broken_demo(folder: Path) -> None:
    """The group's copy of demo without its 攻击 card: 4 deck rows and a rule name it."""
    raw = demo_pack_raw()
    del raw["cards"]["attack"]
    write_pack(folder, "demo", raw)


async def group_says(app: App, text: str, user: str) -> str:
    """What the group gets for ``text``: the reply and whatever the outbox had queued behind."""
    replies = await run(app, text, user=user, group=G)
    swept = [r for _g, rs in await moe.sweep(app, app.clock.timestamp()) for r in rs]
    return "\n".join(r.text for r in [*replies, *swept] if not r.private)


async def test_a_broken_data_demo_is_reported_and_the_built_in_one_plays_on(
    app: App, data_packs: Path
) -> None:
    broken_demo(data_packs)
    text = await say(app, ".moe packs", user=HOST, group=G)
    lines = text.splitlines()
    # the data directory's demo is listed once with its own problems: the 15 deck rows in one line
    assert "× demo.yaml（数据目录）无效，已跳过，共5处问题：" in lines
    assert "  - demo.yaml：牌堆第1、2、3…15张（共15张）的 卡牌：卡牌「attack」不存在" in lines
    assert "  - demo.yaml：规则的 rules.attack_card：卡牌「attack」不存在" in lines
    # every pack extending demo still loads (from the built-in demo): no 卡牌「attack」不存在 there
    assert any(line.startswith("· demo「") and "（内置，默认）" in line for line in lines)
    assert any(line.startswith("· lantern「灯火与群星」") for line in lines)
    assert load_pack("lantern").cards["attack"].name == "攻击"
    # the hidden test pack is never listed, and the answer stays short
    assert not any("test" in line.split("「")[0] for line in lines)
    assert len(lines) <= 14


def test_a_pack_extending_an_invalid_base_says_the_base_is_why(data_packs: Path) -> None:
    raw = demo_pack_raw()
    raw.update(pack="base", name="底包")
    del raw["cards"]["attack"]
    write_pack(data_packs, "base", raw)
    write_pack(data_packs, "kid", {"pack": "kid", "name": "子包", "extends": "base"})
    with pytest.raises(PackError) as err:
        read_pack_file(data_packs / "kid.yaml")
    assert err.value.problems == [
        "kid.yaml：extends 的卡包「base」无效（共5处问题），本卡包因此无法加载；先修好它：",
        "  base.yaml：牌堆第1、2、3…15张（共15张）的 卡牌：卡牌「attack」不存在",
        "  base.yaml：卡牌 defend（防御）的 response_to：卡牌「attack」不存在",
        "  base.yaml：卡牌 wolf_pack（狼群来袭）的 effect[0].play.names：卡牌「attack」不存在",
        "  ……另有2处",
    ]


def test_an_extends_loop_is_a_problem_not_a_crash(data_packs: Path) -> None:
    write_pack(data_packs, "a", {"pack": "a", "name": "甲", "extends": "b"})
    write_pack(data_packs, "b", {"pack": "b", "name": "乙", "extends": "a"})
    with pytest.raises(PackError) as err:
        read_pack_file(data_packs / "a.yaml")
    assert (
        err.value.problems[0]
        == "a.yaml：extends 的卡包「b」无效（共1处问题），本卡包因此无法加载；先修好它："
    )
    assert err.value.problems[1] == "  b.yaml：extends 形成循环（a → b → a），已拒绝"


def test_an_invalid_hidden_pack_is_not_listed(data_packs: Path) -> None:
    write_pack(data_packs, "secret_test", {"pack": "secret_test", "name": "测", "hidden": True, "cards": {}})
    entry = next(e for e in catalog.catalog() if e.name == "secret_test")
    assert entry.pack is None and entry.hidden
    assert "secret_test" not in [e.name for e in catalog.listed()]


async def test_new_with_a_broken_pack_names_its_problems(app: App, data_packs: Path) -> None:
    raw = demo_pack_raw()
    raw.update(pack="broken", name="坏包")
    raw["skills"]["wonderland"]["timing"] = "phase.draw.cnt"
    write_pack(data_packs, "broken", raw)
    text = await say(app, ".moe new broken", user=HOST, group=G)
    lines = text.splitlines()
    assert lines[0] == "卡包「broken」（broken.yaml）无效，不能开局，共1处问题："
    assert lines[1].startswith("- broken.yaml：技能 wonderland（奇境）的 timing：未知时机「phase.draw.cnt」")
    assert "（.moe packs 查看；修好文件后无需重启）" in lines
    assert "没有地图" not in text
    # a word that is neither a pack nor a map still reads as a map
    assert (await say(app, ".moe new 沙漠", user=HOST, group=G)).startswith("没有地图「沙漠」")


async def test_a_kick_reads_differently_from_a_surrender(app: App) -> None:
    await moe_started(app, G, (HOST, P2, P3))
    await moe.sweep(app, app.clock.timestamp())
    kicked = await group_says(app, ".moe kick 2号", HOST)
    assert "被房主或GM移出了对局（按投降处理）" in kicked and "投降了" not in kicked
    _state, g = await moe_game(app, G)
    assert g.p(1).flags.get("conceded")
    quit_ = await group_says(app, ".moe quit", P3)
    assert "投降了" in quit_ and "移出" not in quit_
