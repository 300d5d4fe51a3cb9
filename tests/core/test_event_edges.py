"""Event edges (issue 23, items 8 and 12): which OneBot events become a command context.

A ``discuss``/``guild`` message was judged as a private chat (private GM rights, ``.rh`` answered
in plain text) and answered in the group; anonymous members all shared user 80000000's card; the
bot answered a group message sent from its own account; 20,000 @ segments stalled the loop; an
event naming an account that is not its connection's took the group's lease.
"""

from __future__ import annotations

import time

import nonebot
import pytest
from helpers import group_msg
from nonebug import App


@pytest.fixture
def bridge(nbapp: App):  # type: ignore[no-untyped-def]
    """The plugin's event bridge (importable once NoneBot is initialised)."""
    from nonebot_plugin_chronodice.chronodice_core import bridge

    return bridge


def _group_event(text: str = ".r d6", **kw: object):  # type: ignore[no-untyped-def]
    event = group_msg(text)
    return event.model_copy(update=kw) if kw else event


def test_a_plain_group_message_is_a_context(bridge) -> None:  # type: ignore[no-untyped-def]
    ctx = bridge.build_context(_group_event())
    assert ctx is not None and ctx.group_id == "20002" and ctx.user_id == "10001"


def test_an_anonymous_member_is_not_answered(bridge) -> None:  # type: ignore[no-untyped-def]
    from nonebot.adapters.onebot.v11.event import Anonymous

    event = _group_event(user_id=80000000, anonymous=Anonymous(id=1, name="匿名者", flag="f"))
    assert bridge.build_context(event) is None


def test_the_bots_own_account_is_not_answered(bridge) -> None:  # type: ignore[no-untyped-def]
    assert bridge.build_context(_group_event(user_id=123456)) is None


def test_a_discuss_or_guild_message_is_not_a_private_chat(bridge) -> None:  # type: ignore[no-untyped-def]
    from nonebot.adapters.onebot.v11 import Message, MessageEvent
    from nonebot.adapters.onebot.v11.event import Sender

    for kind in ("discuss", "guild"):
        event = MessageEvent(
            time=int(time.time()),
            self_id=123456,
            post_type="message",
            sub_type="normal",
            user_id=10001,
            message_type=kind,
            message_id=1,
            message=Message(".rh d100"),
            raw_message=".rh d100",
            font=0,
            sender=Sender(user_id=10001, nickname="PL"),
        )
        assert bridge.build_context(event) is None


def test_another_adapters_event_is_ignored(bridge) -> None:  # type: ignore[no-untyped-def]
    from nonebot.adapters import Event

    class Foreign(Event):  # an event of an adapter we do not support
        def get_type(self) -> str:
            return "message"

        def get_event_name(self) -> str:
            return "foreign"

        def get_event_description(self) -> str:
            return ""

        def get_message(self):  # type: ignore[no-untyped-def]
            raise NotImplementedError

        def get_user_id(self) -> str:
            return "10001"

        def get_session_id(self) -> str:
            return "10001"

        def is_tome(self) -> bool:
            return True

    assert bridge.build_context(Foreign()) is None


def test_twenty_thousand_mentions_cost_nothing(bridge) -> None:  # type: ignore[no-untyped-def]
    from nonebot.adapters.onebot.v11 import Message, MessageSegment

    msg = Message(".r d6 ")
    for n in range(20_000):
        msg += MessageSegment.at(10_000 + n)
    event = _group_event(message=msg, original_message=msg)
    best = min(_timed(lambda: bridge.build_context(event)) for _ in range(3))
    ctx = bridge.build_context(event)
    assert ctx is not None and len(ctx.at_ids) == bridge.MAX_MENTIONS
    assert best < 0.01, best


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


async def test_an_event_naming_another_account_takes_no_lease(nbapp: App) -> None:
    """Sent on the connection of 123456 but naming 999999: it is dropped, takes no lease, and the
    real account answers the next message at once (it was silent for 30.7 s)."""
    from nonebot.adapters.onebot.v11 import Adapter, Bot, Message

    from nonebot_plugin_chronodice.chronodice_core import get_app

    spoofed = _group_event(".nn 冒名", self_id=999999, group_id=20777)
    real = _group_event(".nn 真名", group_id=20777)
    async with nbapp.test_matcher() as ctx:
        bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id="123456")
        ctx.receive_event(bot, spoofed)
        ctx.receive_event(bot, real)
        ctx.should_call_send(real, Message("好的，以后叫你 真名"), result={"message_id": 1})
    assert await get_app().store.leases.lease_holder("20777") == "123456"
