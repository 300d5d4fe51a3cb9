"""A bare NoneBot2 + OneBot v11 bot whose only handler echoes ``.r …`` messages.

The baseline for benchmarks/bench_e2e.py: the same driver, adapter and WebSocket path as
ChronoDice, with no routing, store or dice.
"""

import nonebot
from nonebot import on_message
from nonebot.adapters import Event
from nonebot.adapters.onebot.v11 import Adapter

nonebot.init()
nonebot.get_driver().register_adapter(Adapter)

echo = on_message(priority=1, block=True)


@echo.handle()
async def _(event: Event) -> None:
    await echo.send(event.get_plaintext())


if __name__ == "__main__":
    nonebot.run()
