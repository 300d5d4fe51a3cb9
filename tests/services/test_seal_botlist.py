"""Issue 42, SealDice habits: ``.botlist`` — a group's other bot accounts get no reply at all
there — each through ``App.dispatch`` with the exact command."""

from __future__ import annotations

import pytest
from helpers import run, timed_texts

from chronodice.app import App
from chronodice.services.group_habits import UNKNOWN_TEXT
from chronodice.services.seal_botlist import MAX_BOTS

OWNER = {"roles": ("owner",)}
BOT = "22222"
EMPTY = "本群没有登记机器人（.botlist add @机器人 登记后，骰娘不再回应它的消息）"


async def texts(app: App, command: str, **kw: object) -> list[str]:
    return [r.text for r in await run(app, command, **kw)]  # type: ignore[arg-type]


async def test_add_list_del(app: App) -> None:
    assert await texts(app, ".botlist") == [EMPTY]
    assert await texts(app, ".botlist add @22222", **OWNER) == [
        "已登记机器人：22222（骰娘不再回应它在本群的消息）"
    ]
    assert await texts(app, ".botlist 添加 @22222 @33333", **OWNER) == [
        "已登记机器人：33333（骰娘不再回应它在本群的消息）\n已经登记过：22222"
    ]
    assert await texts(app, ".botlist add @33333", **OWNER) == ["已经登记过：33333"]
    listed = ["本群登记的机器人（2个，骰娘不回应它们）：\n22222\n33333"]
    assert await texts(app, ".botlist list") == listed  # anyone may look
    assert await texts(app, ".botlist 列表") == listed
    assert await texts(app, ".botlist") == listed
    assert await texts(app, ".botlist", group="20003") == [EMPTY]  # per group
    assert await texts(app, ".botlist del @44444", **OWNER) == [
        "44444 不在本群的机器人列表里（.botlist list 查看）"
    ]
    assert await texts(app, ".botlist del @22222", **OWNER) == ["已从本群的机器人列表删除：22222"]
    assert await texts(app, ".botlist 删除 @33333", **OWNER) == ["已从本群的机器人列表删除：33333"]
    assert await texts(app, ".botlist") == [EMPTY]


async def test_real_mentions(app: App) -> None:
    assert await texts(app, ".botlist add", at=(BOT, "33333"), **OWNER) == [
        "已登记机器人：22222、33333（骰娘不再回应它在本群的消息）"
    ]
    assert await texts(app, ".botlist del", at=("33333",), **OWNER) == ["已从本群的机器人列表删除：33333"]


async def test_who_may_change_it(app: App) -> None:
    refused = ["只有群主、管理员、骰主或本群GM可以登记机器人"]
    assert await texts(app, ".botlist add @22222") == refused
    assert await texts(app, ".botlist del @22222") == ["只有群主、管理员、骰主或本群GM可以删除机器人"]
    assert (await texts(app, ".botlist add @22222", roles=("admin",)))[0].startswith("已登记机器人")
    assert (await texts(app, ".botlist del @22222", roles=("superuser",)))[0].startswith("已从")
    await run(app, ".gm add", at=("10005",), **OWNER)  # an appointed GM of this group may
    assert (await texts(app, ".botlist add @22222", user="10005"))[0].startswith("已登记机器人")
    assert await texts(app, ".botlist add @33333", user="10005", group="20003") == refused  # not there
    assert await texts(app, ".botlist", group=None) == ["该指令只能在群聊中使用\n格式：.botlist list"]


async def test_accounts_that_cannot_be_listed(app: App) -> None:
    app.owners = ("90000",)
    assert await texts(app, ".botlist add @123456", **OWNER) == ["不能登记骰娘自己"]  # the serving account
    assert await texts(app, ".botlist add @10001", **OWNER) == [
        "不能登记你自己：登记后你的指令骰娘都不会回应"
    ]
    assert await texts(app, ".botlist add @90000", **OWNER) == ["90000 是骰主，不能登记为机器人"]
    assert await texts(app, ".botlist add @22222 @123456", **OWNER) == ["不能登记骰娘自己"]  # nothing written
    assert await texts(app, ".botlist") == [EMPTY]


async def test_limit(app: App) -> None:
    for i in range(MAX_BOTS):
        await run(app, f".botlist add @{30000 + i}", **OWNER)
    assert (await texts(app, ".botlist"))[0].startswith(f"本群登记的机器人（{MAX_BOTS}个")
    assert await texts(app, ".botlist add @88888", **OWNER) == [
        "每群最多登记20个机器人，请先删除不用的（.botlist del @机器人）"
    ]
    assert await texts(app, ".botlist add @30000", **OWNER) == ["已经登记过：30000"]


async def test_form_errors(app: App) -> None:
    assert await texts(app, ".botlist add", **OWNER) == ["缺少@机器人\n格式：.botlist add <@机器人…>"]
    assert await texts(app, ".botlist add xyz", **OWNER) == [
        "「xyz」不是有效的@机器人\n格式：.botlist add <@机器人…>"
    ]


# ---------------------------------------------------------------------- listed accounts are not heard
async def test_a_listed_bot_gets_nothing_and_another_member_does(app: App) -> None:
    await run(app, ".botlist add @22222", **OWNER)
    assert await texts(app, ".r 1d6", user=BOT) == []
    assert (await texts(app, ".r 1d6"))[0].startswith("PL01 掷骰: 1d6=")
    assert (await texts(app, ".r 1d6", user=BOT, group="20003"))[0].startswith("PL22 掷骰")  # other group
    assert (await texts(app, ".r 1d6", user=BOT, group=None))[0].startswith("PL22 掷骰")  # private chat
    for command in (".help", ".botlist", ".botlist del @22222", ".jrrp", ".st 力量50", ".r"):
        assert await texts(app, command, user=BOT) == [], command
    await run(app, ".botlist del @22222", **OWNER)
    assert (await texts(app, ".r 1d6", user=BOT))[0].startswith("PL22 掷骰: 1d6=")


async def test_nothing_a_listed_bot_sends_is_run(app: App) -> None:
    await run(app, ".botlist add @22222", **OWNER)
    await run(app, ".pc new 海豹", user=BOT)
    await run(app, ".nn 海豹骰", user=BOT)
    await run(app, ".botlist del @22222", **OWNER)
    assert await texts(app, ".pc list", user=BOT) == ["你还没有角色卡，用 .pc new 名字 新建"]
    assert await app.nickname(BOT, "20002") is None


async def test_no_keyword_reply_or_unknown_hint_to_a_listed_bot(app: App) -> None:
    await run(app, ".reply add 在吗=在的", **OWNER)
    await run(app, ".bot 未知指令 开", **OWNER)
    await run(app, ".botlist add @22222", **OWNER)
    assert await texts(app, "在吗", user=BOT) == []
    assert await texts(app, ".不存在的指令", user=BOT) == []
    assert not await app.plain_answer("20002", "在吗", BOT)
    assert await texts(app, "在吗") == ["在的"]
    assert await texts(app, ".不存在的指令") == [UNKNOWN_TEXT]
    assert await app.plain_answer("20002", "在吗", "10001")
    assert await texts(app, "在吗", user=BOT, group="20003") == []  # no keyword there anyway


async def test_a_superuser_is_always_heard(app: App) -> None:
    await run(app, ".botlist add @22222", **OWNER)  # SUPERUSERS changed since
    assert (await texts(app, ".r 1d6", user=BOT, roles=("superuser",)))[0].startswith("PL22 掷骰")


async def test_switched_off_group_is_silent_to_botlist(app: App) -> None:
    await run(app, ".bot off", **OWNER)
    assert await texts(app, ".botlist", **OWNER) == []
    assert await texts(app, ".botlist add @22222", **OWNER) == []


# ---------------------------------------------------------------------- hostile input
@pytest.mark.parametrize(
    "command",
    [".botlist" + " " * 2000 + "x", ".botlist " + " " * 1990 + "x", ".botlist add " + " " * 1980 + "x"],
    ids=["2000", "1990", "add-1980"],
)
async def test_hostile_input_gets_one_short_line_fast(app: App, command: str) -> None:
    got, elapsed = await timed_texts(app, command, **OWNER)
    assert len(got) == 1 and 0 < len(got[0]) <= 200, got
    assert "出错了" not in got[0]
    assert elapsed < 0.1, f"{elapsed * 1000:.0f} ms"
