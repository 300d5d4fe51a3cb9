"""``.ext``: per-group modules through App.dispatch — exact replies, and silence when off."""

from __future__ import annotations

import pytest
from helpers import make_ctx, run, say

from chronodice.app import App
from chronodice.core.commands import REGISTRY
from chronodice.core.ratelimit import FloodControl, FloodSettings
from chronodice.services.ext import MODULES, OFF_KEY, find_module, module_of

OWNER = {"roles": ("owner",)}

LIST_ALL_ON = "\n".join(
    [
        "本群模块（.ext on/off 模块名 开关，GM）：",
        "[开] coc7 CoC7检定：.ra .rah .rab .rap .sc .en …",
        "[开] dnd5e DnD5e：.rs .dnd .ds .ss .longrest .shortrest",
    ]
)


async def test_list_shows_every_module_on(app: App) -> None:
    text = await say(app, ".ext")
    assert text.startswith(LIST_ALL_ON + "\n")
    assert "[开] deck 牌堆：.draw .drawh .deck" in text
    assert "[开] fun 娱乐：.nnn .gugu .jrrp .send" in text
    assert "[开] log 跑团日志：.log" in text
    assert "[开] sn 自动群名片：.sn" in text
    assert text.endswith("始终开启：.r .st .pc .nn .set .bot .help .ext 等")
    assert await say(app, ".ext list") == text
    assert "[关]" not in text


async def test_off_then_on_exact_replies(app: App) -> None:
    assert await say(app, ".ext off coc7 fun", **OWNER) == (
        "已关闭模块：coc7（CoC7检定）、fun（娱乐）。这些指令在本群不再回应；.ext on coc7 fun 重新开启"
    )
    listing = await say(app, ".ext")
    assert "[关] coc7 CoC7检定" in listing and "[关] fun 娱乐" in listing and "[开] deck 牌堆" in listing
    group = await app.store.groups.get_group("20002")
    assert group.settings[OFF_KEY] == ["coc7", "fun"]
    assert await say(app, ".ext on 克苏鲁", **OWNER) == "已开启模块：coc7（CoC7检定）"
    assert (await app.store.groups.get_group("20002")).settings[OFF_KEY] == ["fun"]
    assert await say(app, ".ext on 娱乐", **OWNER) == "已开启模块：fun（娱乐）"
    assert OFF_KEY not in (await app.store.groups.get_group("20002")).settings


async def test_off_module_is_silent_like_an_unknown_command(app: App) -> None:
    assert (await say(app, ".ra 侦查50")).startswith("PL01 的侦查检定")
    await say(app, ".ext off coc7 deck fun log", **OWNER)
    for text in (
        ".ra 侦查50",
        ".rc 侦查50",
        ".sc 1/1d6",
        ".coc",
        ".draw 塔罗牌",
        ".drawh 塔罗牌",
        ".jrrp",
        ".log",
    ):
        assert await app.dispatch(make_ctx(), text) is None, text
    # other groups and the always-on commands are untouched
    assert (await say(app, ".ra 侦查50", group="30003")).startswith("PL01 的侦查检定")
    assert (await say(app, ".r 1d6")).startswith("PL01 掷骰")


async def test_rc_is_judged_by_what_it_resolves_to(app: App) -> None:
    await say(app, ".set coc7", **OWNER)
    await say(app, ".ext off tick20", **OWNER)
    assert (await say(app, ".rc 侦查50")).startswith("PL01 的侦查检定")  # the CoC check
    await say(app, ".ext on tick20", **OWNER)
    await say(app, ".ext off coc7", **OWNER)
    assert await run(app, ".rc 侦查50") == []
    await say(app, ".set tick20", **OWNER)
    assert await say(app, ".rc 0 20")  # the D20 check, tick20 on
    await say(app, ".ext off 刻度", **OWNER)
    assert await run(app, ".rc 0 20") == []


async def test_core_commands_can_never_be_switched_off(app: App) -> None:
    keys = " ".join(m.key for m in MODULES)
    await say(app, f".ext off {keys}", **OWNER)
    for name in ("ext", "bot", "help", "set", "r", "st", "pc", "nn", "gm", "dismiss", "undo"):
        spec = REGISTRY.get(name)
        assert spec is not None and module_of(spec) is None, name
    assert (await say(app, ".ext")).count("[关]") == len(MODULES)
    assert (await say(app, ".bot")).startswith("ChronoDice")
    assert (await say(app, ".help")).startswith("ChronoDice 指令")
    assert (await say(app, ".set")).startswith("本群模式")


async def test_help_names_the_off_modules(app: App) -> None:
    assert "已关闭的模块" not in await say(app, ".help")
    await say(app, ".ext off deck sn", **OWNER)
    assert (await say(app, ".help")).endswith(
        "\n本群已关闭的模块（不回应）：deck（牌堆）、sn（自动群名片）；.ext on 模块名 开启"
    )


async def test_only_gm_switches_and_bad_names_are_explained(app: App) -> None:
    assert await say(app, ".ext off coc7") == "只有群主、管理员、骰主或本群GM可以开关模块"
    assert await say(app, ".ext off 色子", **OWNER) == (
        "没有模块「色子」，可用：coc7 dnd5e tl tick20 pool10 moe log deck fun team sn"
    )
    assert (await say(app, ".ext off", **OWNER)).startswith("缺少")
    assert (await say(app, ".ext", group=None)).startswith("该指令只能在群聊中使用")
    assert OFF_KEY not in (await app.store.groups.get_group("20002")).settings


async def test_no_flood_warning_for_an_off_module(app: App) -> None:
    await say(app, ".ext off fun", **OWNER)
    app.flood = FloodControl(FloodSettings(user_burst=2, user_rate=0.01))
    replies = [await run(app, ".jrrp") for _ in range(5)]
    assert replies == [[]] * 5


@pytest.mark.parametrize(
    ("word", "key"),
    [("coc", "coc7"), ("COC7", "coc7"), ("dnd", "dnd5e"), ("时间线", "tl"), ("刻度", "tick20"),
     ("无限恐怖", "pool10"), ("萌E", "moe"), ("draw", "deck"), ("牌堆", "deck"), ("娱乐", "fun")],
)  # fmt: skip
def test_module_aliases(word: str, key: str) -> None:
    found = find_module(word)
    assert found is not None and found.key == key
