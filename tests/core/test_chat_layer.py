"""Issue 9 repros of the chat layer that belong to no single system: echoed names, full-width
roots, the help order, flood control with GMs, and the declared permissions."""

from __future__ import annotations

from helpers import run, say

from chronodice.app import App
from chronodice.core.commands import REGISTRY, SYSTEM_ORDER
from chronodice.core.ratelimit import FloodControl, FloodSettings
from chronodice.core.text import PREFIX_START


async def test_nickname_cannot_start_like_a_command(app: App) -> None:
    text = await say(app, ".nn .r d20")
    assert "昵称不能以" in text
    assert not (await say(app, ".r d20")).startswith(".")


async def test_platform_name_starting_like_a_command_is_defused(app: App) -> None:
    for card in (".r d20", "。rh", "/roll", "!r"):
        replies = await run(app, ".r d20", name=card)
        assert replies and replies[0].text[:1] not in PREFIX_START, replies[0].text


async def test_no_reply_starts_with_a_prefix(app: App) -> None:
    for text in (".help st", ".help", ".st", ".pc new .x", ".help r", ".gm add"):
        for r in await run(app, text, roles=("owner",)):
            assert r.text[:1] not in PREFIX_START, (text, r.text)


async def test_full_width_root(app: App) -> None:
    replies = await run(app, "．ＲＨ d6")
    assert replies and "暗骰" in replies[0].text
    assert "d6" in await say(app, "。Ｒ　ｄ６")


async def test_help_lists_systems_in_a_fixed_order(app: App) -> None:
    text = await say(app, ".help")
    shown = [line[1 : line.index("】")] for line in text.splitlines() if line.startswith("【")]
    assert shown == [s for s in SYSTEM_ORDER if s in shown]
    assert list(REGISTRY.by_system()) == shown


async def test_help_of_a_sub_command(app: App) -> None:
    text = await say(app, ".help pc new")
    assert text == "新建角色卡并在本群使用\n格式：.pc new <角色名>"
    assert await say(app, ".help init next") == (
        "结束当前回合（当前行动者的玩家或 GM）\n格式：.init next\n别名：ed n 下一个 结束回合"
    )
    assert "没有子命令" in await say(app, ".help pc frobnicate")


async def test_declared_permission_is_checked_before_the_handler(app: App) -> None:
    text = await say(app, ".gm add @80001", at=("80001",))
    assert text.startswith("只有群主、管理员或骰主可以任命GM"), text
    assert "已任命为GM" in await say(app, ".gm add", at=("80001",), roles=("owner",))


async def test_appointed_gm_gets_the_gm_bucket(app: App) -> None:
    app.flood = FloodControl(FloodSettings(user_burst=3, user_rate=0.001, gm_burst=30, gm_rate=0.001))
    await say(app, ".gm add", at=("10002",), roles=("owner",))
    texts = [await say(app, ".r d6", user="10002") for _ in range(20)]
    assert all("1d6" in t for t in texts), texts
    member = [await say(app, ".r d6", user="10003") for _ in range(5)]
    assert ["1d6" in t for t in member[:3]] == [True] * 3
    assert "太快" in member[3] and member[4] == ""


async def test_group_bucket_caps_many_accounts(app: App) -> None:
    app.flood = FloodControl(FloodSettings(user_burst=5, user_rate=0.001, group_burst=10, group_rate=0.001))
    answered = 0
    notes = 0
    for user in range(50):
        for _ in range(3):
            text = await say(app, ".r d6", user=str(30000 + user))
            answered += "1d6" in text
            notes += "本群指令太多" in text
    assert answered == 10 and notes == 1
    # another group is not affected, nor the group's owner
    assert "1d6" in await say(app, ".r d6", user="39999", group="77777")
    assert "1d6" in await say(app, ".r d6", user="38888", roles=("owner",))
