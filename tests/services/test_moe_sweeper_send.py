"""The plugin's sweeper sends what a timeout caused with its picture (issue 27): a round start
flushed by a deadline carries the table picture, as one commanded in the group does."""

from __future__ import annotations

from typing import Any

import nonebot
import pytest
from helpers import FakeBot, run
from helpers import moe_game as game

import chronodice.services.moe as moe
from chronodice.app import App

G = "20002"
USERS = ["30001", "30002", "30003"]


def plugin() -> Any:
    """The NoneBot 萌E plugin module (what the bot runs every sweep)."""
    found = nonebot.get_plugin("nonebot_plugin_chronodice:moe")
    assert found is not None and found.module is not None
    return found.module


async def test_a_round_start_flushed_by_a_timeout_reaches_the_group_with_its_picture(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    await run(app, ".moe new 乱斗森林", user=USERS[0], group=G)
    for u in USERS[1:]:
        await run(app, ".moe join", user=u, group=G)
    await run(app, ".moe start", user=USERS[0], group=G)
    state, _g = await game(app)
    out = await moe.sweep(app, state["pick_deadline"] + 1)  # nobody chose: round 1 starts
    [(scope, replies)] = out
    assert scope == G
    group = [r for r in replies if not r.private]
    assert len(group) == 1 and "—— 第1轮 ——" in group[0].text and group[0].image is not None

    bot = FakeBot()
    module = plugin()

    async def bot_for(_scope: str) -> FakeBot:
        return bot

    monkeypatch.setattr(module.core, "bot_for", bot_for)
    monkeypatch.setattr(module.core, "send_group_msg", _send_group_msg)
    await module.send_sweep_replies(G, replies)
    sent = [data for api, data in bot.calls if api == "send_group_msg"]
    assert len(sent) == 1
    segments = [(seg.type, seg.data) for seg in sent[0]["message"]]
    assert [t for t, _d in segments] == ["text", "image"]
    assert segments[0][1]["text"] == group[0].text
    assert str(segments[1][1]["file"]).startswith("base64://")
    privates = [data for api, data in bot.calls if api == "send_private_msg"]
    assert {str(d["user_id"]) for d in privates} == {r.to_user for r in replies if r.private}


async def _send_group_msg(bot: FakeBot, group_id: str, message: Any) -> Any:
    """The bridge's group send without the ``.log`` hook (no App behind this fake bot)."""
    return await bot.call_api("send_group_msg", group_id=int(group_id), message=message)
