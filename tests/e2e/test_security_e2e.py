"""Issue 23 played over the real WebSocket against ``python bot.py``: one message never freezes the
other groups, nobody edits another player's card from a private chat, ``.undo`` takes back only
what its sender saw, a NUL or a lone surrogate fails nobody, and the event edges stay silent.

The tests share one bot (``module_bot``): each plays in groups and as users of its own.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from onebot_client import SELF_ID, BotProcess, OneBotClient

pytestmark = pytest.mark.e2e


@pytest.fixture
def bot_process(module_bot: BotProcess) -> BotProcess:
    return module_bot


SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)


async def test_a_long_message_does_not_freeze_another_group(onebot: OneBotClient) -> None:
    """``.st k`` + 1,980 spaces + ``x`` blocked every group for 24 s; a probe in another group is
    answered within a second while it is handled, and the long message gets its one-line answer."""
    for filler in (" ", "\u3000", "\n", "\t"):
        await onebot.post(".st k" + filler * 1980 + "x", user=10001, group=20002)
        t = time.monotonic()
        probe = await onebot.send(".r 1d6", user=10009, group=30003, expect=None)
        waited = time.monotonic() - t
        texts = [c.text for c in probe]
        assert any("1d6=" in x for x in texts), texts
        assert waited < 1.5, waited
    await onebot.settled()
    answers = [c for c in onebot.all_calls if c.to_group and c.params.get("group_id") == 20002]
    assert len(answers) == 4 and all("出错" not in c.text for c in answers), [c.text for c in answers]
    text = await onebot.group(".TLsetup 姓名:甲," + " " * 1980 + "x", expect=1)
    assert "出错" not in text and text


async def test_private_chat_edits_only_ones_own_card(onebot: OneBotClient) -> None:
    g = 20012
    assert "体力:12" in await onebot.group(".st 体力12 理智50", user=10203, group=g, card="受害者", expect=1)
    for command in (".st @10203 体力0 理智0", ".st show @10203", ".st del @10203 理智"):
        calls = await onebot.send(command, user=10204, group=None, expect=1)
        assert calls[0].is_private
        assert "私聊里只能查看或修改你自己的角色卡" in calls[0].text
        assert "50" not in calls[0].text
    assert "体力:12" in await onebot.group(".st show", user=10203, group=g, expect=1)
    # a plain member in the group, with a typed @ and with a real QQ @
    assert "只有" in await onebot.group(".st @10203 体力0", user=10204, group=g, expect=1)
    at = [{"type": "text", "data": {"text": ".st 体力0 "}}, {"type": "at", "data": {"qq": "10203"}}]
    assert "只有" in await onebot.group(at, user=10204, group=g, expect=1)
    # the group's owner may
    assert "体力:11" in await onebot.group(".st @10203 体力11", user=10205, group=g, role="owner", expect=1)


async def test_undo_never_takes_back_a_command_its_sender_did_not_see(onebot: OneBotClient) -> None:
    g = 20022
    for user, name in ((10301, "甲"), (10302, "乙")):
        assert "设置完成" in await onebot.group(SHEET.format(name=name), user=user, group=g, expect=1)
    wrong = 0
    for _ in range(8):
        onebot.advance_clock(10.6)  # five commands a round: stay under the flood limit, as players do
        await onebot.send(".bat 力量 1t", user=10301, group=g, expect=1)
        await onebot.post(".undo", user=10301, group=g)
        await onebot.post(".bat 力量 1t", user=10302, group=g)
        await onebot.settled()
        shown = await onebot.group(".bat", user=10302, group=g, expect=1)
        b_lines = [ln for ln in shown.splitlines() if "乙" in ln]
        b_answers = [c.text for c in onebot.all_calls[-4:] if c.to_group]
        if any("乙" in t and "行动" in t for t in b_answers) and not b_lines:
            wrong += 1
        await onebot.send(".bat end", user=10309, group=g, role="owner", expect=None)
        await onebot.send(".bat end", user=10309, group=g, role="owner", expect=None)
    assert wrong == 0


async def test_a_nul_or_a_lone_surrogate_fails_nobody(onebot: OneBotClient) -> None:
    users = list(range(11000, 11006))
    for n, u in enumerate(users):
        assert "设置完成" in await onebot.group(SHEET.format(name=f"角色{n}"), user=u, group=40004, expect=1)
    for bad in ("\x00", "\ud83d"):
        before = len(onebot.all_calls)
        for n, u in enumerate(users):
            note = f" 备注{bad}" if n == 3 else ""
            await onebot.post(".bat 力量 1t" + note, user=u, group=40004)
        for _ in range(50):
            if len([c for c in onebot.all_calls[before:] if c.to_group]) >= 6:
                break
            await asyncio.sleep(0.1)
        texts = [c.text for c in onebot.all_calls[before:] if c.to_group]
        assert len(texts) == 6 and not any("出错" in t for t in texts), texts
        await onebot.send(".bat end", user=11009, group=40004, role="owner", expect=None)
        await onebot.send(".bat end", user=11009, group=40004, role="owner", expect=None)


async def test_event_edges_get_no_answer(onebot: OneBotClient) -> None:
    # the bot's own account speaking in the group
    assert await onebot.send(".r 1d6", user=SELF_ID, group=20032, expect=0) == []
    # an anonymous member
    event = onebot._event(".st 力量60", 80000000, 20032, "member", "")
    event["anonymous"] = {"id": 1, "name": "匿名者", "flag": "x"}
    await onebot.post_event(event)
    # a discuss message
    event = onebot._event(".rh 1d100", 10401, None, "member", "")
    event.update(message_type="discuss", discuss_id=555)
    await onebot.post_event(event)
    # an event naming another account on this connection
    event = onebot._event(".nn 冒名", 10401, 20038, "member", "")
    event["self_id"] = 999999
    await onebot.post_event(event)
    await onebot.settled()  # the bot has handled all three: nothing was sent
    assert [c for c in onebot.all_calls if c.action.startswith("send")] == []
    # and the real account still answers that group at once
    assert "真名" in await onebot.group(".nn 真名", user=10401, group=20038, expect=1)
