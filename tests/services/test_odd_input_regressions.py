"""Issue 23, items 6 and 7: messages that broke a command instead of getting a short reply.

* a resolved command with an over-long argument raised ``TypeError`` out of ``App.dispatch``
  (no reply at all);
* ``²``/``①``/``³`` passed ``str.isdigit()`` and then failed ``int()`` (``.pc``);
* ``.wound … hit3 治疗`` indexed past a one-word item (``IndexError``).
"""

from __future__ import annotations

import pytest
from helpers import run, say

from chronodice.app import App
from chronodice.core.limits import MAX_MESSAGE_CHARS
from chronodice.services.tick20 import tracker

RESOLVED = ("ra", "rah", "rab", "rap", "rc", "sc", "en", "coc", "ti", "li", "setcoc")
"""Every command with a resolver (the group's mode decides who answers)."""
GM = {"user": "10001", "roles": ("admin",)}
TOO_LONG = f"消息过长（超过{MAX_MESSAGE_CHARS}字），请缩短后再试\n格式："


@pytest.mark.parametrize("mode", [None, "coc7", "dnd5e", "tl", "tick20", "pool10"])
@pytest.mark.parametrize("root", RESOLVED)
async def test_over_long_argument_of_a_resolved_command_gets_one_short_reply(
    app: App, root: str, mode: str | None
) -> None:
    if mode is not None:
        await say(app, f".set {mode}", roles=("owner",))
    replies = await run(app, f".{root} " + "a" * 2001)
    coc_group = mode in (None, "coc7")
    if coc_group or (root == "rc" and mode in ("dnd5e", "tick20")):
        assert len(replies) == 1 and replies[0].text.startswith(TOO_LONG), replies
    else:  # the group leaves CoC commands (and the CoC form of .rc) to other bots
        assert replies == []
    # glued to the root, the letters make another bot's command (.raaaa…): not ours
    assert await run(app, f".{root}" + "a" * 2001) == []


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        (".pc tag ²", "没有找到角色「²」，用 .pc list 查看你的角色"),
        (".pc show ①", "没有找到角色「①」，用 .pc list 查看你的角色"),
        (".pc del ³", "没有找到角色「³」，用 .pc list 查看你的角色"),
    ],
    ids=["tag-superscript-two", "show-circled-one", "del-superscript-three"],
)
async def test_pc_number_that_is_not_an_ascii_digit_is_a_name(app: App, text: str, reply: str) -> None:
    for name in ("甲", "乙", "丙"):
        await say(app, f".pc new {name}")
    assert await say(app, text) == reply
    assert "<丙>" in await say(app, ".pc tag 3")  # ASCII numbers still pick by position


async def test_wound_then_heal_in_one_command_is_refused_with_the_form(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tracker, "ADVANCE_GRACE", 0.0)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =8 哥布林", **GM)
    assert await say(app, ".wound 哥布林 躯干 hit3 治疗", **GM) == (
        "治疗要单独写：.wound 名 部位 治疗 [级数]\n"
        "格式：.wound <名称> <部位> <等级x数量/hit dp dr/治疗 [级数]…>"
    )
    assert await say(app, ".wound 哥布林 躯干 hit3 5", **GM) == (
        "不认识「5」\n格式：.wound <名称> <部位> <等级x数量/hit dp dr/治疗 [级数]…>"
    )
    assert await say(app, ".wound 哥布林 躯干 治疗", **GM) == "哥布林：伤势已记录（详情已私聊GM）"
