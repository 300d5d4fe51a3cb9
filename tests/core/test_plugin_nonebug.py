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
