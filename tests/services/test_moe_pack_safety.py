"""萌E packs are user input read only from the pack folders (issue 23, item 10): ``extends``
names a pack, never a path; a link out of the pack folders is refused; an alias bomb or a huge
file is refused before it costs time; problems and log lines stay short whatever the file holds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from helpers import pack_dir_first, say

from chronodice.app import App
from chronodice.rules.moe import catalog, packyaml
from chronodice.rules.moe import pack as moe_pack
from chronodice.rules.moe.pack import PACK_DIR, PackError, is_pack_name, load_pack, read_pack_file

G = "20002"
HOST = "30001"
SECRET = "hunter2-秘密口令"
"""What the YAML outside the pack folders holds; never shown, never logged."""


@pytest.fixture
def data_packs(tmp_path: Path) -> Iterator[Path]:
    """A data directory's ``packs/`` three levels under ``tmp_path``, in front of the built-in
    folder, as the plugin sets it (so ``../../../secret_conf`` from it is ``tmp_path``)."""
    folder = tmp_path / "data" / "bot" / "packs"
    folder.mkdir(parents=True)
    with pack_dir_first(folder):
        yield folder


@pytest.fixture
def only_folder(tmp_path: Path) -> Iterator[Path]:
    """``PACK_DIRS`` is just one empty folder (timings measure the file under test alone)."""
    folder = tmp_path / "only"
    folder.mkdir()
    saved = list(moe_pack.PACK_DIRS)
    moe_pack.PACK_DIRS[:] = [folder]
    load_pack.cache_clear()
    try:
        yield folder
    finally:
        moe_pack.PACK_DIRS[:] = saved
        load_pack.cache_clear()


def demo_raw(pack: str, name: str) -> dict:  # type: ignore[type-arg]
    raw = yaml.safe_load((PACK_DIR / "demo.yaml").read_text(encoding="utf-8"))
    raw.update(pack=pack, name=name)
    return raw


def write(path: Path, raw: object) -> None:
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")


def secret_pack(path: Path, pack: str) -> None:
    """A YAML that would make a valid pack (its maps and a card named after the secret)."""
    raw = demo_raw(pack, f"口令 {SECRET}")
    raw["maps"] = {"vault": {"name": f"password={SECRET}", "win": "last_alive"}}
    raw["password"] = SECRET
    write(path, raw)


# ---------------------------------------------------------------------- extends
async def test_extends_with_a_path_is_refused_and_the_secret_never_shown(
    app: App, data_packs: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    secret_pack(tmp_path / "secret_conf.yaml", "secret_conf")
    assert (data_packs / "../../../secret_conf.yaml").resolve() == (tmp_path / "secret_conf.yaml")
    raw = demo_raw("leak", "泄露包")
    del raw["maps"]  # the maps would come from the secret file
    raw["extends"] = "../../../secret_conf"
    write(data_packs / "leak.yaml", raw)
    with caplog.at_level(logging.WARNING, logger="chronodice.moe.packs"):
        text = await say(app, ".moe packs", user=HOST, group=G)
    assert "× leak.yaml（数据目录）无效，已跳过，共1处问题：" in text
    assert "extends「../../../secret_conf」不是卡包名" in text
    assert SECRET not in text and "password" not in text
    assert SECRET not in caplog.text
    with pytest.raises(PackError) as err:
        load_pack("leak")
    assert err.value.problems == [
        "leak.yaml：extends「../../../secret_conf」不是卡包名"
        "（只能写卡包文件夹中另一个卡包的名字，不能写路径），已拒绝"
    ]
    assert SECRET not in await say(app, ".moe new leak", user=HOST, group=G)


@pytest.mark.parametrize(
    "name",
    [
        *["../../../secret_conf", "/etc/passwd", "C:secret", "C:\\conf\\secret", "sub/demo", "..", ".hidden"],
        *["de\x00mo", "de\nmo", "\\\\server\\share", "x" * 101, "", 3],
    ],
)
def test_extends_must_be_a_plain_pack_name(name: object, data_packs: Path) -> None:
    assert not is_pack_name(name)
    raw = demo_raw("child", "子包")
    raw["extends"] = name
    write(data_packs / "child.yaml", raw)
    if not name:  # no extends at all: a valid pack
        assert read_pack_file(data_packs / "child.yaml").pack == "child"
        return
    with pytest.raises(PackError) as err:
        read_pack_file(data_packs / "child.yaml")
    (problem,) = err.value.problems
    assert problem.startswith("child.yaml：extends「") and "不是卡包名" in problem


def test_extends_a_plain_name_still_works(data_packs: Path) -> None:
    assert is_pack_name("demo") and is_pack_name("童话-2")
    raw = {"pack": "child", "name": "子包", "extends": "demo"}
    write(data_packs / "child.yaml", raw)
    assert len(read_pack_file(data_packs / "child.yaml").characters) == 15


# ---------------------------------------------------------------------- links
async def test_a_linked_pack_pointing_outside_is_refused(
    app: App, data_packs: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret_pack(outside / "evil.yaml", "evil")
    (data_packs / "evil.yaml").symlink_to(outside / "evil.yaml")
    with caplog.at_level(logging.WARNING, logger="chronodice.moe.packs"):
        text = await say(app, ".moe packs", user=HOST, group=G)
    assert "× evil.yaml（数据目录）无效，已跳过，共1处问题：" in text
    assert "evil.yaml：指向卡包文件夹之外（链接？），已拒绝" in text
    assert SECRET not in text and SECRET not in caplog.text
    with pytest.raises(PackError):
        load_pack("evil")
    assert catalog.find("evil") is None


def test_extends_of_a_linked_pack_pointing_outside_is_refused(data_packs: Path, tmp_path: Path) -> None:
    secret_pack(tmp_path / "base.yaml", "base")
    (data_packs / "base.yaml").symlink_to(tmp_path / "base.yaml")
    write(data_packs / "child.yaml", {"pack": "child", "name": "子包", "extends": "base"})
    with pytest.raises(PackError) as err:
        read_pack_file(data_packs / "child.yaml")
    assert err.value.problems == ["child.yaml：extends 的卡包「base」指向卡包文件夹之外（链接？），已拒绝"]
    assert SECRET not in str(err.value)


def test_a_link_inside_the_pack_folders_is_fine(data_packs: Path) -> None:
    write(data_packs / "real.yaml", demo_raw("mine", "我的包"))
    (data_packs / "mine.yaml").symlink_to(data_packs / "real.yaml")
    assert read_pack_file(data_packs / "mine.yaml").pack == "mine"


# ---------------------------------------------------------------------- size
BOMB = (
    "pack: bomb\nname: 炸弹\n"
    "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
    "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
    "cards: {x: {name: *f, category: basic, effect: *f, can_use: *f}, y: {name: *f, category: *f}}\n"
)
"""A "billion laughs": 406 bytes, 10⁶ leaves under ``f`` (before the defence: 6.5 s for
``.moe packs``, a 14 MB answer and a 200 MB log line)."""


async def test_an_alias_bomb_is_refused_at_once(
    app: App, only_folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (only_folder / "bomb.yaml").write_text(BOMB, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="chronodice.moe.packs"):
        start = time.perf_counter()
        text = await say(app, ".moe packs", user=HOST, group=G)
        elapsed = time.perf_counter() - start
    assert elapsed < 0.5, elapsed
    about = [line for line in text.splitlines()[1:]]
    assert about == [
        "× bomb.yaml（数据目录）无效，已跳过，共1处问题：",
        "  - bomb.yaml：YAML 内容过大（别名 &/* 展开后超过 50000 个节点，或别名引用了自身），已拒绝",
    ]
    assert caplog.records and all(len(r.getMessage()) < 2000 for r in caplog.records)


def test_a_self_referencing_alias_is_refused(only_folder: Path) -> None:
    (only_folder / "loop.yaml").write_text("pack: loop\nname: 环\ncards: &c {x: *c}\n", encoding="utf-8")
    with pytest.raises(PackError) as err:
        read_pack_file(only_folder / "loop.yaml")
    assert "别名引用了自身" in err.value.problems[0]


def test_small_aliases_are_still_allowed(only_folder: Path) -> None:
    raw = demo_raw("aliased", "别名包")
    text = yaml.safe_dump(raw, allow_unicode=True)
    text = "x-common: &common {name: 通用, category: basic}\n" + text
    text = text.replace("cards:\n", "cards:\n  extra: *common\n", 1)
    (only_folder / "aliased.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(PackError) as err:  # x-common is no field of a pack; the alias resolved
        read_pack_file(only_folder / "aliased.yaml")
    assert err.value.problems == ["aliased.yaml：未知字段「x-common」（拼写错误？）"]


def test_a_huge_file_or_deep_nesting_is_refused_unread(only_folder: Path) -> None:
    big = only_folder / "big.yaml"
    big.write_text("pack: big\nname: 大\n# " + "x" * moe_pack.MAX_PACK_BYTES + "\n", encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(PackError) as err:
        read_pack_file(big)
    assert err.value.problems == ["big.yaml：文件过大（超过 1000 kB），未读取"]
    deep = only_folder / "deep.yaml"
    deep.write_text("pack: deep\nname: 深\ncards: " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    with pytest.raises(PackError) as err:
        read_pack_file(deep)
    assert err.value.problems == ["deep.yaml：YAML 嵌套过深，已拒绝"]
    assert time.perf_counter() - start < 2


async def test_problems_quote_at_most_200_characters_of_a_value(
    app: App, only_folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    raw = demo_raw("long", "长值")
    raw["cards"]["attack"]["effect"] = [{"damage": {"to": "甲" * 10_000}}, ["乙" * 10_000]]
    raw["pack"] = "丙" * 10_000
    write(only_folder / "long.yaml", raw)
    with pytest.raises(PackError) as err:
        read_pack_file(only_folder / "long.yaml")
    (problem,) = err.value.problems
    assert problem.count("丙") == 200 and len(problem) < 300
    raw["pack"] = "long"
    write(only_folder / "long.yaml", raw)
    with pytest.raises(PackError) as err:
        read_pack_file(only_folder / "long.yaml")
    assert max(p.count("甲") for p in err.value.problems) == 200
    assert 100 < max(p.count("乙") for p in err.value.problems) <= 200
    many = {f"k{i}": "丁" for i in range(500)}
    write(only_folder / "long.yaml", {**raw, **many})
    with pytest.raises(PackError) as err:
        read_pack_file(only_folder / "long.yaml")
    problems = err.value.problems
    assert len(problems) == packyaml.MAX_PROBLEMS + 1 and problems[-1] == "……另有453处问题未列出"
    assert moe_pack.problem_count(problems) == 503
    with caplog.at_level(logging.WARNING, logger="chronodice.moe.packs"):
        text = await say(app, ".moe packs", user=HOST, group=G)
    assert f"共{moe_pack.problem_count(problems)}处问题" in text and len(text) < 4000
    assert all(len(r.getMessage()) < 60_000 for r in caplog.records)
