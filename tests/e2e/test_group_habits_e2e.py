"""End to end (issue 42): a newcomer is greeted with the group's ``.welcome`` text (a
``group_increase`` notice), a keyword reply and the unknown-command hint over the real WebSocket."""

from __future__ import annotations

import pytest
from onebot_client import SELF_ID, BotProcess, OneBotClient

pytestmark = pytest.mark.e2e


@pytest.fixture
def bot_process(module_bot: BotProcess) -> BotProcess:
    """One bot for both tests: each keeps to groups of its own."""
    return module_bot


OWNER = {"user": 10001, "role": "owner"}
G2 = 20012
"""The second test's group."""


def joined(group: int, user: int, at: int) -> dict[str, object]:
    """A join notice at ``at`` (its OneBot ``time``: with the group and the user, what tells one
    join from a delivery of it again)."""
    return {"sub_type": "approve", "group_id": group, "operator_id": 0, "user_id": user, "time": at}


async def test_welcome_on_join_keyword_reply_and_unknown_hint(onebot: OneBotClient) -> None:
    assert await onebot.notice("group_increase", **joined(20002, 10077, 1_800_000_000)) == []  # no text
    set_it = await onebot.group(".welcome 欢迎来到本群，.help 看指令", expect=1, **OWNER)
    assert "已设置本群的欢迎词" in set_it
    calls = await onebot.notice("group_increase", expect=1, **joined(20002, 10077, 1_800_000_100))
    assert [c.action for c in calls] == ["send_group_msg"]
    assert calls[0].params["group_id"] == 20002
    message = calls[0].params["message"]
    assert {"type": "at", "data": {"qq": "10077"}} in message
    assert calls[0].text.strip() == "欢迎来到本群，.help 看指令"
    # the same notice delivered again (a reconnect) greets nobody twice
    assert await onebot.notice("group_increase", **joined(20002, 10077, 1_800_000_100)) == []
    assert (
        await onebot.notice("group_increase", **joined(20002, SELF_ID, 1_800_000_200)) == []
    )  # the bot itself
    assert await onebot.notice("group_increase", **joined(30003, 10078, 1_800_000_300)) == []  # another group

    assert await onebot.group("在吗", expect=0) == ""
    await onebot.group(".reply add 在吗=在的", expect=1, **OWNER)
    assert await onebot.group("在吗", expect=1) == "在的"
    assert await onebot.group("在吗", group=30003, expect=0) == ""
    assert await onebot.group(".不存在的指令", expect=0) == ""
    await onebot.group(".bot 未知指令 开", expect=1, **OWNER)
    assert await onebot.group(".不存在的指令", expect=1) == "不认识这个指令，.help 查看"
    assert await onebot.group("普通聊天", expect=0) == ""


async def test_a_listed_bot_account_gets_no_reply(onebot: OneBotClient) -> None:
    """``.botlist add @20000`` with a real QQ mention: that account's command and keyword get
    nothing over the real socket (the plugin's rule asks before any matcher runs); a member's do."""
    mention = [{"type": "text", "data": {"text": ".botlist add "}}, {"type": "at", "data": {"qq": "20000"}}]
    added = await onebot.send(mention, expect=1, group=G2, **OWNER)
    assert added[0].text == "已登记机器人：20000（骰娘不再回应它在本群的消息）"
    await onebot.group(".reply add 在吗=在的", expect=1, group=G2, **OWNER)
    assert await onebot.group(".r 1d6", user=20000, group=G2, expect=0) == ""
    assert await onebot.group("在吗", user=20000, group=G2, expect=0) == ""
    assert (await onebot.group(".r 1d6", group=G2, expect=1)).startswith("玩家1 掷骰: 1d6=")
    assert await onebot.group("在吗", group=G2, expect=1) == "在的"
