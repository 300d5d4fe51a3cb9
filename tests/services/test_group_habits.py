"""Issue 42, what SealDice groups set up on day one: .welcome, .reply, .bot 未知指令 — each
through ``App.dispatch`` with the exact command."""

from __future__ import annotations

import random

from helpers import run

from chronodice.app import App
from chronodice.core.clock import ManualClock
from chronodice.core.ratelimit import FloodSettings
from chronodice.services.group_habits import UNKNOWN_TEXT, welcome_text

OWNER = {"roles": ("owner",)}


async def texts(app: App, command: str, **kw: object) -> list[str]:
    return [r.text for r in await run(app, command, **kw)]  # type: ignore[arg-type]


# ---------------------------------------------------------------------- .welcome
async def test_welcome_set_show_clear(app: App) -> None:
    assert await texts(app, ".welcome") == ["本群没有设置欢迎词（.welcome 文本 设置）"]
    assert await texts(app, ".welcome 欢迎来到本群，.help 看指令") == [
        "只有群主、管理员、骰主或本群GM可以设置欢迎词"
    ]
    assert await texts(app, ".welcome 欢迎来到本群，.help 看指令", **OWNER) == [
        "已设置本群的欢迎词：\n欢迎来到本群，.help 看指令"
    ]
    assert await texts(app, ".welcome") == ["本群的欢迎词：\n欢迎来到本群，.help 看指令"]
    assert await welcome_text(app.store, "20002") == "欢迎来到本群，.help 看指令"
    assert await welcome_text(app.store, "20003") is None  # only the group that set it
    assert await texts(app, ".welcome 关", **OWNER) == ["已清除本群的欢迎词"]
    assert await welcome_text(app.store, "20002") is None
    await run(app, ".welcome 你好", **OWNER)
    assert await texts(app, ".welcome off", **OWNER) == ["已清除本群的欢迎词"]


async def test_welcome_refuses_hostile_text(app: App) -> None:
    assert (await texts(app, ".welcome .r 1d100", **OWNER))[0].startswith("欢迎词不能以")
    assert (await texts(app, ".welcome " + "长" * 301, **OWNER))[0].startswith("欢迎词太长")
    await run(app, ".welcome 你好", **OWNER)
    await run(app, ".bot off", **OWNER)
    assert await welcome_text(app.store, "20002") is None  # the bot is off here


# ---------------------------------------------------------------------- .reply
async def test_reply_add_answers_exact_text_in_its_group_only(app: App) -> None:
    assert await texts(app, "在吗") == []
    assert await texts(app, ".reply add 在吗=在的，有事请说") == [
        "只有群主、管理员、骰主或本群GM可以设置关键词回复"
    ]
    assert await texts(app, ".reply add 在吗=在的，有事请说", **OWNER) == [
        "已添加关键词回复：在吗 → 在的，有事请说"
    ]
    assert await texts(app, "在吗") == ["在的，有事请说"]
    assert await texts(app, "  在吗 ") == ["在的，有事请说"]
    assert await texts(app, "你们在吗") == []  # exact match, as SealDice's default
    assert await texts(app, "在吗", group="20003") == []
    assert await texts(app, "在吗", group=None) == []
    assert await texts(app, ".reply list") == ["本群的关键词回复（1条，开启中）：\n在吗 → 在的，有事请说"]
    assert await texts(app, ".reply off", **OWNER) == ["本群的关键词回复已关闭"]
    assert await texts(app, "在吗") == []
    assert await texts(app, ".reply") == [
        "本群的关键词回复（1条，已关闭（.reply on 开启））：\n在吗 → 在的，有事请说"
    ]
    assert await texts(app, ".reply on", **OWNER) == ["本群的关键词回复已开启"]
    assert await texts(app, "在吗") == ["在的，有事请说"]
    assert await texts(app, ".reply del 在吗", **OWNER) == ["已删除关键词回复：在吗"]
    assert await texts(app, "在吗") == []
    assert await texts(app, ".reply del 在吗", **OWNER) == ["本群没有关键词「在吗」"]


async def test_reply_limits(app: App) -> None:
    assert (await texts(app, ".reply add 骰娘=.r 1d100", **OWNER))[0].startswith("回复不能以")
    assert (await texts(app, ".reply add 骰娘=/kick", **OWNER))[0].startswith("回复不能以")
    assert (await texts(app, ".reply add 。r=好", **OWNER))[0].startswith("关键词不能以")
    assert (await texts(app, ".reply add " + "长" * 21 + "=好", **OWNER))[0].startswith("关键词最多20字")
    assert (await texts(app, ".reply add 好=" + "长" * 201, **OWNER))[0].startswith("回复最多200字")
    assert (await texts(app, ".reply add 好=" + "长" * 300, **OWNER))[0].startswith("太长了")
    assert (await texts(app, ".reply add 没有等号", **OWNER))[0].startswith("缺少「=」")
    for i in range(50):
        await run(app, f".reply add 词{i}=回复{i}", **OWNER)
    assert await texts(app, ".reply add 再一个=不行", **OWNER) == ["每群最多50条关键词回复，请先删除不用的"]
    assert await texts(app, ".reply add 词3=改写", **OWNER) == ["已添加关键词回复：词3 → 改写"]
    assert await texts(app, "词3") == ["改写"]


async def test_keyword_replies_are_flood_limited(app: App, clock: ManualClock) -> None:
    await run(app, ".reply add 在吗=在", **OWNER)
    limited = App(app.store, random.Random(1), flood=FloodSettings(), clock=clock)
    got = [await texts(limited, "在吗", user="10009") for _ in range(30)]
    assert got[0] == ["在"]
    assert [] in got  # flood control drops some, without a warning
    assert all(g in ([], ["在"]) for g in got)


# ---------------------------------------------------------------------- .bot 未知指令
async def test_unknown_command_hint_is_off_by_default_and_for_dot_commands_only(app: App) -> None:
    assert await texts(app, ".abcdef") == []
    assert await texts(app, ".bot 未知指令") == ["未知指令提示：关闭（.bot 未知指令 开/关）"]
    assert await texts(app, ".bot 未知指令 开") == ["只有群主、管理员、骰主或本群GM可以设置未知指令提示"]
    assert (await texts(app, ".bot 未知指令 开", **OWNER))[0].startswith("已开启")
    assert await texts(app, ".abcdef") == [UNKNOWN_TEXT]
    assert await texts(app, "。不存在") == [UNKNOWN_TEXT]
    assert await texts(app, ".rx 3d6") == [UNKNOWN_TEXT]  # another bot's: the admin said there is none
    assert await texts(app, "...") == []
    assert await texts(app, "你好") == []
    assert await texts(app, ". 空格") == []
    assert await texts(app, ".abcdef", group="20003") == []  # another group
    assert (await texts(app, ".r 1d1"))[0].endswith("=1")  # known commands as ever
    assert await texts(app, ".bot 未知指令 关", **OWNER) == ["已关闭未知指令提示"]
    assert await texts(app, ".abcdef") == []


# ---------------------------------------------------------------------- .pc cpy / save / load
async def test_pc_cpy_save_load(app: App) -> None:
    await run(app, ".pc new 艾拉")
    await run(app, ".st 力量50敏捷60")
    assert await texts(app, ".pc cpy 艾拉 艾拉二号") == [
        "已复制 <艾拉> 为新角色 <艾拉二号>（本群仍使用 <艾拉>）"
    ]
    assert await texts(app, ".pc load 艾拉二号") == ["已在本群使用角色 <艾拉二号>"]
    assert await texts(app, ".st show") == ["<艾拉二号> 的属性：\n力量:50 敏捷:60"]
    await run(app, ".st 力量70")
    await run(app, ".pc load 艾拉")
    assert await texts(app, ".st show 力量") == ["<艾拉> 力量:50"]
    assert (await texts(app, ".pc save"))[0].startswith("<艾拉> 已在你的角色卡列表里")
    assert await texts(app, ".pc cpy 艾拉 艾拉二号") == ["你已经有名为 <艾拉二号> 的角色卡"]
    assert await texts(app, ".pc cpy 无名 新卡") == ["没有找到角色「无名」，用 .pc list 查看你的角色"]
