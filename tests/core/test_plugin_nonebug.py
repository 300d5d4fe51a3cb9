"""The NoneBot plugin with nonebug: OneBot v11 and console events reach the dispatcher."""

from __future__ import annotations

import nonebot
from helpers import group_msg
from nonebug import App


async def test_onebot_group_message(nbapp: App) -> None:
    from nonebot.adapters.onebot.v11 import Adapter, Bot, Message

    event = group_msg("。ST 力量60")
    async with nbapp.test_matcher() as ctx:
        bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id="123456")
        ctx.receive_event(bot, event)
        ctx.should_call_send(event, Message("已录入 <调查员A>：力量:60"), result={"message_id": 1})


async def test_onebot_chatter_is_ignored(nbapp: App) -> None:
    from nonebot.adapters.onebot.v11 import Adapter, Bot

    async with nbapp.test_matcher() as ctx:
        bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id="123456")
        ctx.receive_event(bot, group_msg("今晚跑团"))
        ctx.receive_event(bot, group_msg(".notacommand"))


async def test_console_message_is_a_private_chat(nbapp: App) -> None:
    from datetime import datetime

    from nonebot.adapters.console import Adapter, Bot, Message, MessageEvent
    from nonebot.adapters.console.event import DIRECT
    from nonechat.model import Robot, User

    event = MessageEvent(
        time=datetime.now(),
        self_id="robot",
        message_id="m1",
        message=Message(".nn 终端玩家"),
        original_message=Message(".nn 终端玩家"),
        user=User(id="console-user", nickname="user"),
        channel=DIRECT,
    )
    async with nbapp.test_matcher() as ctx:
        # the console Bot takes a Robot where other bots take a self id
        bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id=Robot(id="robot"))
        ctx.receive_event(bot, event)
        ctx.should_call_send(event, "好的，以后叫你 终端玩家", result=None)


async def test_the_hosts_command_start_is_honoured(nbapp: App) -> None:
    """The plugin's prefixes are ours and the host's COMMAND_START (issue 41): with NoneBot's
    default ``/``, ``/st`` is a command (this repository's ``.env`` leaves ``/`` out for the
    standalone bot, so the test gives the host's default itself)."""
    from nonebot.adapters.onebot.v11 import Adapter, Bot, Message

    from chronodice.core.commands import REGISTRY
    from nonebot_plugin_chronodice.chronodice_core import config

    before = REGISTRY.prefixes
    assert set(before) == set(config.command_starts(nonebot.get_driver().config.command_start))
    event = group_msg("/st 力量70", group_id=20071)
    try:
        REGISTRY.set_prefixes(config.command_starts({"/"}))
        async with nbapp.test_matcher() as ctx:
            bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id="123456")
            ctx.receive_event(bot, event)
            ctx.should_call_send(event, Message("已录入 <调查员A>：力量:70"), result={"message_id": 1})
    finally:
        REGISTRY.prefixes = before


async def test_a_message_chronodice_does_not_answer_goes_on_to_other_plugins(nbapp: App) -> None:
    """A command silent in this group's mode (``.ra`` in a DnD5e group) is not blocked: a
    lower-priority plugin gets it; one ChronoDice answered stops there (issue 41)."""
    from nonebot import on_message
    from nonebot.adapters.onebot.v11 import Adapter, Bot, Message

    probe = on_message(priority=50, block=False)

    @probe.handle()
    async def _() -> None:
        await probe.send("另一个插件收到了")

    try:
        set_mode = group_msg(".set dnd5e", user_id=99999, group_id=20072)
        silent = group_msg(".ra 侦查", group_id=20072)
        async with nbapp.test_matcher() as ctx:
            bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id="123456")
            ctx.receive_event(bot, set_mode)
            ctx.should_call_send(
                set_mode,
                Message("已将本群设为 DnD5e（龙与地下城第五版） 模式，默认骰 d20"),
                result={"message_id": 2},
            )
            ctx.receive_event(bot, silent)
            ctx.should_call_send(silent, "另一个插件收到了", result={"message_id": 3})
    finally:
        probe.destroy()
