"""The common commands through App.dispatch, on a real SQLite file."""

from __future__ import annotations

import re

import pytest
from helpers import Scripted, run, say

from chronodice.app import App
from chronodice.core.ratelimit import FloodControl, FloodSettings


async def test_unknown_and_plain_text_are_ignored(app: App) -> None:
    assert await app.dispatch(_ctx(), "hello") is None
    assert await app.dispatch(_ctx(), ".xyz 123") is None
    assert await app.dispatch(_ctx(), "") is None


async def test_st_creates_card_and_values_survive(app: App) -> None:
    text = await say(app, ".st 力量60敏捷50 意志:40", name="艾拉")
    assert "力量:60" in text and "敏捷:50" in text and "意志:40" in text
    assert "<艾拉>" in text
    assert "力量:60" in await say(app, ".st show")
    assert await say(app, ".st show 敏捷 幸运") == "<艾拉> 敏捷:50\n没有属性：幸运"
    assert "力量+5→65" in await say(app, ".st 力量+5")
    assert "已删除" in await say(app, ".st del 敏捷")
    assert "敏捷" not in await say(app, ".st show")
    assert "已清空" in await say(app, ".st clr")
    assert "（空）" in await say(app, ".st show")


async def test_st_full_width_and_case(app: App) -> None:
    assert "力量:60" in await say(app, "。ST 力量：６０，敏捷：50，")


async def test_st_bad_input_is_explained(app: App) -> None:
    for bad in (".st", ".st 力量", ".st 60", ".st 力量99999999999"):
        text = await say(app, bad)
        assert text and ("格式" in text or "数值" in text or "属性" in text), (bad, text)
    assert (await app.store.characters.list_characters("10001")) == []  # nothing created by bad input


async def test_pc_lifecycle(app: App) -> None:
    assert "新建角色 <甲>" in await say(app, ".pc new 甲")
    assert "新建角色 <乙>" in await say(app, ".pc new 乙")
    listing = await say(app, ".pc")
    assert "★2. 乙" in listing and "  1. 甲" in listing
    assert "<甲>" in await say(app, ".pc tag 1")
    await say(app, ".st 力量70")
    assert "力量:70" in await say(app, ".pc show 甲")
    # other group: the default (first created) character
    assert "★1. 甲" in await say(app, ".pc list", group="30003")
    assert "改名为 <丙>" in await say(app, ".pc rename 丙")
    ask = await say(app, ".pc del 丙")
    assert "确认" in ask
    assert len(await app.store.characters.list_characters("10001")) == 2  # not yet
    assert "已删除" in await say(app, ".pc del 丙 确认")
    assert [c.name for c in await app.store.characters.list_characters("10001")] == ["乙"]
    assert "确认已过期" in await say(app, ".pc del 乙 确认")
    assert "已有名为" in await say(app, ".pc new 乙")
    assert "没有找到角色" in await say(app, ".pc tag 不存在")


async def test_nn_changes_reply_name(app: App) -> None:
    assert "以后叫你 小明" in await say(app, ".nn 小明")
    assert "小明" in await say(app, ".st 力量1")
    assert "已清除昵称" in await say(app, ".nn")


async def test_gm_and_bot_switch_permissions(app: App) -> None:
    refused = await say(app, ".gm add", at=("10002",))
    assert "只有群主、管理员或骰主" in refused
    assert "已任命为GM：10002" in await say(app, ".gm add", at=("10002",), roles=("admin",))
    assert "10002" in await say(app, ".gm list")
    assert "只有" in await say(app, ".bot off", user="10003")
    assert "已在本群关闭" in await say(app, ".bot off", user="10002")
    assert await run(app, ".st 力量1") == []  # off: silent
    assert await run(app, ".bot") == []
    assert "已在本群开启" in await say(app, ".bot on", user="10002")
    assert "已撤销GM" in await say(app, ".gm del 10002", roles=("owner",))


async def test_dismiss_needs_confirmation(app: App) -> None:
    assert "只有" in await say(app, ".dismiss")
    replies = await run(app, ".dismiss", roles=("owner",))
    assert "确认" in replies[0].text and not replies[0].leave_group
    replies = await run(app, ".dismiss 确认", roles=("owner",))
    assert replies[0].leave_group


async def test_help_lists_and_explains(app: App) -> None:
    text = await say(app, ".help")
    assert ".r" in text and ".st" in text and ".pc" in text
    helptext = await say(app, ".help st")
    assert ".st [@某人] [属性名数值]" in helptext and ".st show" in helptext
    assert "没有指令" in await say(app, ".help 不存在")


async def test_undo_reverts_session_commands(app: App) -> None:
    scope = "20002"

    def add(state):
        state = state or {"n": 0}
        return {"n": state["n"] + 1}, None

    await app.store.sessions.apply_session(scope, "demo", add, user_id="10001", command=".demo")
    assert "只有GM" in await say(app, ".undo", user="10005")
    assert "已撤销：.demo" in await say(app, ".undo")
    assert (await app.store.sessions.load_session(scope, "demo"))[0] is None
    assert "没有可以撤销" in await say(app, ".undo")


async def test_flood_gets_one_warning_then_silence(app: App) -> None:
    app.flood = FloodControl(FloodSettings(user_burst=3, user_rate=0.01))
    texts = [await say(app, ".help") for _ in range(6)]
    assert all("ChronoDice" in t for t in texts[:3])
    assert "太快" in texts[3] and texts[4] == "" and texts[5] == ""


def _ctx():
    from helpers import make_ctx

    return make_ctx()


@pytest.mark.parametrize("text", [".bot", ".help", ".pc"])
async def test_private_chat_works(app: App, text: str) -> None:
    assert re.search(r"\S", await say(app, text, group=None))


async def test_r_uses_default_die_attributes_and_reason(app: App) -> None:
    text = await say(app, ".r", name="艾拉")
    assert re.fullmatch(r"艾拉 掷骰: 1?d100=\d+", text) or "d100=" in text, text
    assert "只有" in await say(app, ".set 20")
    assert "d20" in await say(app, ".set 20", roles=("admin",))
    assert "d20=" in await say(app, ".r")
    assert "d20=" in await say(app, ".r 侦查")
    await say(app, ".st 敏捷12")
    text = await say(app, ".r 1d20+敏捷 闪避")
    m = re.search(r"=\[(\d+)\]\+12=(\d+)", text) or re.search(r"=(\d+)\+12=(\d+)", text)
    assert m and int(m.group(1)) + 12 == int(m.group(2)) and "闪避" in text, text


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        (".rb2 侦查", r"b2=\[个位\d;十位[(\d),]+\]=\d+"),
        (".rp", r"p=\[个位\d;十位[(\d),]+\]=\d+"),
        (".r d20优势 攻击", r"2d20k1=\[[(\d),]+\]=\d+"),
        (".r 4dF", r"4dF=\[[-+0-9,]+\]=-?\d+"),
        (".r 2x3", r"2\*3=6"),
    ],
)
async def test_r_other_bots_syntax(app: App, text: str, pattern: str) -> None:
    reply = await say(app, text)
    assert re.search(pattern, reply), reply


async def test_rh_goes_private_with_content_free_group_note(app: App) -> None:
    replies = await run(app, ".rh 1d100 偷看", name="潜行者")
    public = [r for r in replies if not r.private]
    private = [r for r in replies if r.private]
    assert len(public) == 1 and len(private) == 1
    assert "暗骰" in public[0].text and "1d100=" not in public[0].text
    assert "1d100=" in private[0].text and private[0].fallback and "1d100=" not in private[0].fallback


async def test_undo_never_reverts_a_card_game_move(app: App) -> None:
    def add(state):
        return {"n": (state or {"n": 0})["n"] + 1}, None

    await app.store.sessions.apply_session("20002", "tl", add, user_id="10001", command=".bat 力量 10")
    await app.store.sessions.apply_session("20002", "moe", add, user_id="10001", command=".moe play 1")
    assert "已撤销：.bat 力量 10" in await say(app, ".undo")
    assert (await app.store.sessions.load_session("20002", "moe"))[0] == {"n": 1}
    assert "没有可以撤销" in await say(app, ".undo")


async def test_r_names_the_card_in_use_here(app: App) -> None:
    """SealDice's ``.r`` names the player's name in the group — the card in use there — like
    ``.rc``: the plain roll, ``N#``, the odds ``?`` and both lines of ``.rh``; without a card the
    ``.nn`` nickname (else the platform name) as before."""
    app.rng = Scripted([12, 3, 5, 6, 17, 8, 4], faces=20)
    assert await say(app, ".r 1d20", name="艾拉") == "艾拉 掷骰: 1d20=12"  # no card yet
    await run(app, ".nn 小艾")
    assert await say(app, ".r 1d20", name="艾拉") == "小艾 掷骰: 1d20=3"
    await run(app, ".pc new 托林")
    assert await say(app, ".r 1d20", name="艾拉") == "托林 掷骰: 1d20=5"
    assert await say(app, ".r 2#1d20 攻击", name="艾拉") == "托林 掷骰 攻击: 2#1d20\n1d20=6\n1d20=17"
    assert await say(app, ".r 1d20 ?", name="艾拉") == (
        "托林 1d20 的分布：均值 10.5，最小 1，最大 20\n≥4:85.0% ≥7:70.0% ≥10:55.0% ≥13:40.0% ≥16:25.0% ≥20:5.0%"
    )
    await run(app, ".pc new 薇拉", group="40004")  # another card in use in another group
    assert await say(app, ".r 1d20", group="40004", name="艾拉") == "薇拉 掷骰: 1d20=8"
    assert await say(app, ".r 1d20", user="10002", name="路人") == "路人 掷骰: 1d20=4"  # no card
    app.rng = Scripted([9], faces=100)
    replies = await run(app, ".rh 1d100 偷看", name="艾拉")
    assert [(r.text, r.private, r.fallback) for r in replies] == [
        ("托林 进行了一次暗骰", False, None),
        (
            "在群20002中的暗骰：\n托林 掷骰 偷看: 1d100=9",
            True,
            "托林 的暗骰结果无法私聊送达，请先加骰娘为好友",
        ),
    ]
