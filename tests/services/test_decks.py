""".draw / .drawh / .draw list: bundled decks, deck files in the data dir, references, weights, dice."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import run

from chronodice.app import App
from chronodice.core.ratelimit import FloodSettings
from chronodice.datadir import DataDir
from chronodice.rules.decks import (
    MAX_DEPTH,
    Deck,
    DeckError,
    Drawer,
    decks_from_data,
    drawable,
    parse_item,
    read_deck_file,
)
from chronodice.store import Store


@pytest.fixture
def deck_dir(tmp_path: Path) -> Path:
    (tmp_path / "decks").mkdir()
    return tmp_path / "decks"


@pytest.fixture
def app(store: Store, tmp_path: Path, deck_dir: Path) -> App:
    return App(store, random.Random(1234), flood=FloodSettings(enabled=False), data_dir=DataDir(tmp_path))


def write(folder: Path, name: str, data: object) -> None:
    (folder / name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


async def test_bundled_decks_listed_and_drawn(app: App) -> None:
    replies = await run(app, ".draw list")
    assert replies[0].text == (
        "可用牌堆（6个，括号内为张数）：调查员职业(14)、随机事件(7)、扑克(52)、扑克含王(54)、塔罗牌(22)、塔罗牌正逆(1)"
    )
    assert (await run(app, ".draw 塔罗牌"))[0].text == "PL01 从「塔罗牌」中抽出了：节制"
    assert (await run(app, ".draw 扑克 3"))[
        0
    ].text == "PL01 从「扑克」中抽出了3张：\n1. 黑桃8\n2. 黑桃A\n3. 黑桃7"


async def test_several_cards_are_different(app: App) -> None:
    for _ in range(20):
        text = (await run(app, ".draw 扑克 10"))[0].text
        cards = text.split("\n")[1:]
        assert len(set(cards)) == 10


async def test_weighted_deck_counts_its_copies(app: App) -> None:
    """Issue 42: ``::52::{%扑克%}`` is 52 entries, so 扑克含王 has 54 cards, drawn without repeats."""
    for _ in range(30):
        text = (await run(app, ".draw 扑克含王 5"))[0].text
        head, *cards = text.split("\n")
        assert head == "PL01 从「扑克含王」中抽出了5张："
        assert len({c.split(". ", 1)[1] for c in cards}) == 5
    jokers = 0
    for _ in range(40):
        cards = (await run(app, ".draw 扑克含王 10"))[0].text.split("\n")[1:]
        assert len(set(cards)) == 10
        jokers += sum(c.endswith(("大王", "小王")) for c in cards)
    assert 0 < jokers < 60  # two in 54: about 15 in 400 cards
    assert (await run(app, ".draw 扑克含王 11"))[0].text.startswith("张数「11」超出范围")


def test_weights_are_copies_taken_one_at_a_time() -> None:
    decks, _ = decks_from_data({"门": ["::3::木门", "铁门"], "空": ["::0::无", "::2::有"]}, "f.json")
    assert drawable(decks["门"]) == 4 and drawable(decks["空"]) == 2
    for seed in range(20):
        assert sorted(Drawer(decks, random.Random(seed)).draw("门", 4)) == ["木门", "木门", "木门", "铁门"]
        assert Drawer(decks, random.Random(seed)).draw("空", 2) == ["有", "有"]


async def test_deck_lists_the_decks(app: App) -> None:
    assert (await run(app, ".deck"))[0].text == (await run(app, ".draw list"))[0].text
    assert (await run(app, ".deck list"))[0].text.startswith("可用牌堆（6个")
    info = "牌堆「扑克含王」：54张，来自 poker.json；.draw 扑克含王 抽牌"
    assert (await run(app, ".deck 扑克含王"))[0].text == info
    near = "没有牌堆「塔罗」，发送 .draw list 查看。相近的有：塔罗牌、塔罗牌正逆"
    assert (await run(app, ".deck 塔罗"))[0].text == near
    assert (await run(app, ".deck 塔罗 牌"))[0].text == "多余的「牌」\n格式：.deck <牌堆名>"


async def test_unknown_deck_names_close_matches(app: App) -> None:
    assert (await run(app, ".draw 塔罗"))[0].text == (
        "没有牌堆「塔罗」，发送 .draw list 查看。相近的有：塔罗牌、塔罗牌正逆"
    )
    assert (await run(app, ".draw 不存在的"))[0].text == "没有牌堆「不存在的」，发送 .draw list 查看"
    assert (await run(app, ".draw _地点"))[0].text.startswith("没有牌堆「_地点」")  # hidden deck


async def test_too_many_cards(app: App, deck_dir: Path) -> None:
    write(deck_dir, "small.json", {"小": ["甲", "乙"]})
    assert (await run(app, ".draw 小 3"))[0].text == "牌堆「小」只有2张，一次最多抽2张"
    assert "超出范围" in (await run(app, ".draw 扑克 11"))[0].text


async def test_hidden_draw_goes_privately(app: App) -> None:
    replies = await run(app, ".drawh 塔罗牌")
    assert [(r.text, r.private) for r in replies] == [
        ("PL01 进行了一次暗抽", False),
        ("在群20002中的暗抽：\nPL01 从「塔罗牌」中抽出了：节制", True),
    ]
    private = await run(app, ".drawh 塔罗牌", group=None)
    assert len(private) == 1 and not private[0].private


async def test_user_deck_file_overrides_and_references(app: App, deck_dir: Path) -> None:
    write(deck_dir, "mine.json", {"塔罗牌": ["只有这张"], "宝箱": ["{%_钱%}枚金币"], "_钱": ["[1d1+9]"]})
    (deck_dir / "more.yaml").write_text("天气:\n  - '::3::晴'\n  - 雨\n", encoding="utf-8")
    assert (await run(app, ".draw 塔罗牌"))[0].text == "PL01 从「塔罗牌」中抽出了：只有这张"
    assert (await run(app, ".draw 宝箱"))[0].text == "PL01 从「宝箱」中抽出了：10枚金币"
    assert (await run(app, ".draw 天气"))[0].text in {
        "PL01 从「天气」中抽出了：晴",
        "PL01 从「天气」中抽出了：雨",
    }


async def test_bad_files_named_in_the_list(app: App, deck_dir: Path) -> None:
    (deck_dir / "broken.json").write_text('{"a": [1,', encoding="utf-8")
    (deck_dir / "bomb.yaml").write_text(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, c in zip("abcdef", "bcdefg", strict=True)
        ),
        encoding="utf-8",
    )
    (deck_dir / "big.json").write_bytes(b" " * 1_000_001)
    (deck_dir / "list.json").write_text('["a"]', encoding="utf-8")
    text = (await run(app, ".draw list"))[0].text
    assert text.splitlines()[1:] == [
        "以下牌堆文件有问题，已跳过：",
        "big.json：文件超过 1000 kB，未读取",
        "bomb.yaml：YAML 内容过大（别名 &/* 展开后超过 50000 个节点，或别名引用了自身），已拒绝",
        "broken.json：JSON 格式错误（第1行：Expecting value）",
        'list.json：顶层应为 {"牌堆名": ["项1", "项2"]} 这样的映射',
    ]
    assert (await run(app, ".draw 塔罗牌"))[0].text.startswith("PL01 从「塔罗牌」")  # the rest still works


def test_weights_and_metadata() -> None:
    assert parse_item("::12::金").weight == 12
    decks, problems = decks_from_data(
        {"_title": ["x"], "name": "作者", "空": [], "a b": ["x"], "好": ["::0::无", "有"]}, "f.json"
    )
    assert sorted(decks) == ["_title", "好"]
    assert problems == [
        "f.json：牌堆「空」是空的，已跳过",
        "f.json：牌堆名「a b」不能为空、含空格或超过40字，已跳过",
    ]
    assert Drawer(decks, random.Random(0)).draw("好", 1) == ["有"]  # weight 0 never comes up


def test_weighted_odds_follow_the_weights() -> None:
    decks, _ = decks_from_data({"d": ["::9::多", "少"]}, "f.json")
    rng = random.Random(5)
    got = [Drawer(decks, rng).draw("d", 1)[0] for _ in range(2000)]
    assert 1700 < got.count("多") < 1900


def test_cycles_depth_and_budget_refused() -> None:
    rng = random.Random(1)
    cyc, _ = decks_from_data({"甲": ["{%乙%}"], "乙": ["{甲}"]}, "c.json")
    with pytest.raises(DeckError, match="循环引用（甲→乙→甲）"):
        Drawer(cyc, rng).draw("甲", 1)
    chain = {f"d{i}": [f"{{%d{i + 1}%}}"] for i in range(MAX_DEPTH + 2)}
    chain[f"d{MAX_DEPTH + 2}"] = ["底"]
    deep, _ = decks_from_data(chain, "d.json")
    with pytest.raises(DeckError, match="超过10层"):
        Drawer(deep, rng).draw("d0", 1)
    wide, _ = decks_from_data({"w": ["{%x%}" * 30], "x": ["{%y%}" * 30], "y": ["a"]}, "w.json")
    with pytest.raises(DeckError, match="超过500次"):
        Drawer(wide, rng).draw("w", 1)


def test_unknown_reference_and_non_dice_brackets_stay() -> None:
    decks = {"d": Deck("d", (parse_item("{不存在}和[注释]和{%d%"),), "x")}
    assert Drawer(decks, random.Random(1)).draw("d", 1) == ["{不存在}和[注释]和{%d%"]


def test_without_replacement_reference_reshuffles() -> None:
    decks, _ = decks_from_data({"两": ["甲", "乙"], "三": ["{两}{两}{两}"]}, "x.json")
    out = Drawer(decks, random.Random(3)).draw("三", 1)[0]
    assert sorted(out[:2]) == ["乙", "甲"] and len(out) == 3


def test_long_item_text_is_linear(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"长": ["{" * 1900, "[" * 1900, "{%" * 900]}), encoding="utf-8")
    decks, problems = read_deck_file(path)
    assert problems == []
    for _ in range(5):
        Drawer(decks, random.Random(2)).draw("长", 1)
