"""Run a bot script (``python acking.py bot.py``) as ``python bot.py`` runs, plus one signal for
the end-to-end client: when NoneBot has handled a message event — every matcher finished, every
reply it sent answered — the bot calls the OneBot action ``e2e_handled`` with the event's
``message_id``; and when an account connects it calls ``e2e_acks`` to say it will.

Without the signal a test can only learn that the bot is done with a message by waiting until
nothing more comes (0.4 s a message: most of the end-to-end run).  With it, ``OneBotClient.send``
returns as soon as the bot says the message is handled, and ``expect=0`` means "handled, and
nothing was sent" instead of "nothing within 0.4 s".  What the bot sends later by itself (a
sweep, a timer) is not part of a message's handling: tests wait for it by count (``expect``)
or for a silence (``OneBotClient.quiet_for``).

Everything else is bot.py's own code, run unchanged as ``__main__``.
"""

from __future__ import annotations

import contextlib
import runpy
import sys
from typing import Any

import nonebot
from nonebot.adapters import Bot, Event
from nonebot.message import event_postprocessor

HANDLED = "e2e_handled"
HELLO = "e2e_acks"


async def _handled(bot: Bot, event: Event) -> None:
    """After every matcher for a message event ran (NoneBot runs event postprocessors last)."""
    message_id = getattr(event, "message_id", None)
    if event.get_type() != "message" or message_id is None:
        return
    with contextlib.suppress(Exception):  # an event that came by HTTP POST has nowhere to go
        await bot.call_api(HANDLED, message_id=message_id)


async def _hello(bot: Bot) -> None:
    with contextlib.suppress(Exception):
        await bot.call_api(HELLO)


_run = nonebot.run


def _run_with_hello(*args: Any, **kwargs: Any) -> None:
    """bot.py calls ``nonebot.run`` after ``nonebot.init``: the driver exists by then."""
    nonebot.get_driver().on_bot_connect(_hello)
    _run(*args, **kwargs)


if __name__ == "__main__":  # (pytest's doctest collection imports this file: register nothing then)
    event_postprocessor(_handled)
    script = sys.argv[1]
    sys.argv = [script, *sys.argv[2:]]
    nonebot.run = _run_with_hello
    runpy.run_path(script, run_name="__main__")
