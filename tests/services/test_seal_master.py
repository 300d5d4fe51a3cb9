"""Issue 42, SealDice habits: ``.master`` (who the 骰主 are; the rest says what to do instead)
and ``.text`` (the owner's text template) — each through ``App.dispatch`` with the exact command."""

from __future__ import annotations

import random

import pytest
from helpers import run, timed_texts

from chronodice.app import App
from chronodice.dice import evaluate, parse
from chronodice.services.seal_master import CONFIG_ONLY

OWNER = {"user": "90000", "roles": ("superuser",)}


async def texts(app: App, command: str, **kw: object) -> list[str]:
    return [r.text for r in await run(app, command, **kw)]  # type: ignore[arg-type]


# ---------------------------------------------------------------------- .master
async def test_master_list_without_and_with_owners(app: App) -> None:
    unset = ['还没有设置骰主：在 .env 里写 SUPERUSERS=["你的QQ号"]，重启骰娘后生效']
    assert await texts(app, ".master") == unset
    assert await texts(app, ".master list") == unset
    app.owners = ("90000", "90001")
    shown = ["骰主：90000、90001（在 .env 的 SUPERUSERS 里设置）"]
    assert await texts(app, ".master") == shown
    assert await texts(app, ".master 列表") == shown
    assert await texts(app, ".master list", group=None) == shown  # private chat too


@pytest.mark.parametrize(
    "command", [".master add me", ".master add @12345", ".master del @12345", ".master 删除 12345"]
)
async def test_master_add_and_del_point_at_superusers(app: App, command: str) -> None:
    assert await texts(app, command) == [CONFIG_ONLY]
    assert await texts(app, command, **OWNER) == [CONFIG_ONLY]  # the owner too: nothing is claimed
    assert CONFIG_ONLY == (
        "骰主只能在 .env 的 SUPERUSERS 里设置（在聊天里认领骰主，公开的骰娘会被人抢走），改完重启骰娘"
    )


async def test_master_add_with_a_real_mention(app: App) -> None:
    assert await texts(app, ".master add", at=("55555",)) == [CONFIG_ONLY]
    assert app.owners == ()


@pytest.mark.parametrize(
    ("command", "reply"),
    [
        (".master reboot", "聊天里不能重启：请在服务器上重启骰娘的进程（如 docker compose restart）"),
        (".master relogin", "QQ 的登录由 NapCat / Lagrange 管理：请在那边重新登录，骰娘会自动重连"),
        (
            ".master backup",
            "数据都在数据目录里（SQLite 即其中的 chronodice.db）：停下骰娘后复制整个数据目录就是备份，"
            "PostgreSQL 用 pg_dump",
        ),
        (".master reload deck", "不用重载：改动即时生效；改了 .env 请重启骰娘的进程"),
        (".master unlock", "不用解锁：骰主只来自 .env 的 SUPERUSERS，改好后重启骰娘即可"),
        (
            ".master checkupdate",
            "聊天里不检查更新：在服务器上更新（git pull 后重新 pip install，或拉取新镜像），再重启骰娘",
        ),
        (".master quitgroup 12345", "请在要退出的群里发 .dismiss（群主、管理员或骰主），确认后骰娘退群"),
        (".master 退群", "请在要退出的群里发 .dismiss（群主、管理员或骰主），确认后骰娘退群"),
    ],
)
async def test_master_sealdice_subcommands_say_what_to_do(app: App, command: str, reply: str) -> None:
    assert await texts(app, command) == [reply]
    assert await texts(app, command, group=None, **OWNER) == [reply]


async def test_master_unknown_subcommand(app: App) -> None:
    (got,) = await texts(app, ".master xyz")
    assert got.startswith(
        "「xyz」不是 .master 的子命令（.help master 查看全部）\n格式：.master <list/add/del/"
    )


# ---------------------------------------------------------------------- .text
async def test_text_renders_dice_and_the_sender(app: App) -> None:
    app.rng.seed(7)
    rng = random.Random(7)
    want = evaluate(parse("1d100"), rng).value
    assert await texts(app, ".text 看看手气：{1d100}", **OWNER) == [f"看看手气：{want}"]
    app.rng.seed(8)
    rng = random.Random(8)
    total = evaluate(parse("2d6+3"), rng).value
    got = await texts(app, ".text {玩家}掷出了{2d6+3}，{$t玩家}", name="骰主大人", **OWNER)
    assert got == [f"骰主大人掷出了{total}，骰主大人"]
    assert await texts(app, ".text 没有表达式的一句话", **OWNER) == ["没有表达式的一句话"]
    assert await texts(app, ".text ，全角标点照原样，{１d１}", **OWNER) == ["，全角标点照原样，1"]
    assert await texts(app, ".text {{1d1}}", **OWNER) == ["{1}"]  # no nesting: the outer braces stay
    assert await texts(app, ".text 我是{玩家}", group=None, **OWNER) == ["我是PL00"]  # private too


async def test_text_is_for_the_owner_only(app: App) -> None:
    assert await texts(app, ".text 你好") == ["只有骰主可以用 .text"]
    assert await texts(app, ".text") == ["只有骰主可以用 .text"]
    assert await texts(app, ".text 你好", roles=("owner",)) == ["只有骰主可以用 .text"]  # group owner
    assert await texts(app, ".text 你好", group=None) == ["只有骰主可以用 .text"]
    assert await texts(app, ".text", **OWNER) == ["缺少文本\n格式：.text [文本]"]


@pytest.mark.parametrize(
    ("command", "reply"),
    [
        (".text {1d0}", "「{1d0}」算不出来：第2个字符：骰子面数至少为1"),
        (".text 前面{1d6}中间{x}", '「{x}」算不出来：未知属性 "x"（先用 .st 录入）'),
        (".text {}", "「{}」里面没有表达式"),
        (".text {  }", "「{  }」里面没有表达式"),
        (".text {1001d6}", "「{1001d6}」算不出来：一次最多掷1000个骰子"),
        (".text {600d6}和{600d6}", "「{600d6}」算不出来：一次最多掷1000个骰子（含加骰与重复）"),
        (".text " + "{1}" * 11, "最多10处 {…}（这里有11处）"),
        (".text " + "长" * 301, "文本太长（最多300字）\n格式：.text [文本]"),
    ],
)
async def test_text_limits_and_bad_expressions(app: App, command: str, reply: str) -> None:
    assert await texts(app, command, **OWNER) == [reply]


async def test_text_limits_allow_the_edges(app: App) -> None:
    assert await texts(app, ".text " + "{1}" * 10, **OWNER) == ["1" * 10]
    assert await texts(app, ".text " + "长" * 300, **OWNER) == ["长" * 300]


async def test_text_never_starts_like_a_command(app: App) -> None:
    assert await texts(app, ".text .r 1d6", **OWNER) == ["·r 1d6"]
    assert await texts(app, ".text /kick {1}", **OWNER) == ["·kick 1"]
    assert await texts(app, ".text 。jrrp", **OWNER) == ["·jrrp"]
    assert await texts(app, ".text {玩家}", name=".r 1d100", **OWNER) == ["·r 1d100"]


# ---------------------------------------------------------------------- hostile input
@pytest.mark.parametrize(
    "command",
    [
        ".text" + " " * 2000 + "x",
        ".text " + " " * 1990 + "x",
        ".text {" + " " * 290 + "x}",
        ".master" + " " * 2000 + "x",
        ".master " + " " * 1990 + "x",
        ".master add" + " " * 2000 + "x",
    ],
    ids=["text-2000", "text-1990", "text-brace", "master-2000", "master-1990", "master-add-2000"],
)
@pytest.mark.parametrize("who", [{}, OWNER], ids=["member", "owner"])
async def test_hostile_input_gets_one_short_line_fast(app: App, command: str, who: dict[str, object]) -> None:
    got, elapsed = await timed_texts(app, command, **who)
    assert len(got) == 1 and 0 < len(got[0]) <= 200, got
    assert "出错了" not in got[0]
    assert elapsed < 0.1, f"{elapsed * 1000:.0f} ms"
