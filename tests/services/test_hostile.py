"""Hostile and malformed commands: each gets one short error reply, fast; nothing raises or floods."""

from __future__ import annotations

import time

import pytest
from helpers import make_ctx, run

from chronodice.app import App
from chronodice.core.limits import MAX_REPLY_CHARS

HOSTILE = [
    ".r 1001d6",
    ".r 1000000d1000000",
    ".r 1d1000001",
    ".r 99999999999999999999d6",
    ".r 1d99999999999999999999",
    ".r 1d0",
    ".r 0d6",
    ".r 1d1!",
    ".r 600d6!+600d6!",
    ".r " + "(" * 500 + "1" + ")" * 500,
    ".r " + "(" * 10000 + "1",
    ".r 1d6" + "+1d6" * 2000,
    ".r 21#d6",
    ".r 1000#1000#d6",
    ".r 2#2#2#2#2#2#d6",
    ".r 1/0",
    ".r 1d6/(1-1)",
    ".r 99999999*99999999*99999999",
    ".r 1d6k0",
    ".r 3d6k4",
    ".r d6x",
    ".r 3d",
    ".r )(",
    ".r +",
    ".r 1d6 +",
    ".r \x00\x01\x02",
    ".r 🎲🎲🎲",
    ".r 1d6+😀",
    ".r '; DROP TABLE characters; --",
    ".r 1d20+未知属性",
    ".r " + "9" * 5000,
    ".r " + "d" * 300,
    ".rh 1001d6",
    ".st",
    ".st 力量",
    ".st '; DROP TABLE characters; --",
    ".st 力量99999999999999",
    ".st " + "a1" * 3000,
    ".st del",
    ".st show 不存在的属性",
    ".pc new",
    ".pc new " + "名" * 100,
    ".pc new 1234",
    ".pc tag",
    ".pc tag 99",
    ".pc del 不存在",
    ".pc frobnicate",
    ".pc rename",
    ".set 0",
    ".set abc",
    ".set 99999999",
    ".nn " + "长" * 100,
    ".gm add",
    ".gm explode",
    ".bot maybe",
    ".dismiss now",
    ".help 不存在",
    ".undo 123",
    ".r " + "x" * 10000,
    ".r 1d6+" + "1+" * 2000,
    ".r 1000d1000 ?",
    ".r 100d100k50 ?",
    ".r 1d6! ?",
    ".ra 99#侦查",
    ".ra 侦查 99999999999",
    ".ra 不存在的技能",
    ".rab9 侦查",
    ".ra 侦查 " + "理" * 100,
    ".sc 1/1d6",
    ".sc 1/1d6+",
    ".sc 1000d1000/1000d1000 50",
    ".sc 99999999999/1 50",
    ".en 不存在的技能",
    ".coc 99",
    ".setcoc 9",
    ".set coc8",
]

SILENT_HUGE = [".r" + "x" * 10000, "." + "r" * 10000]
"""Glued Latin letters after a root are another bot's command: silence, and quickly."""


@pytest.mark.parametrize("text", SILENT_HUGE, ids=["rxxx", "rrrr"])
async def test_huge_foreign_command_is_ignored_quickly(app: App, text: str) -> None:
    # the event loop thread's CPU time: what a slow path spends, whatever else the machine runs
    t0 = time.thread_time()
    assert await app.dispatch(make_ctx(), text) is None
    assert time.thread_time() - t0 < 0.1


def test_table_is_big_enough() -> None:
    assert len(HOSTILE) >= 40


@pytest.mark.parametrize("text", HOSTILE, ids=[repr(t[:30]) for t in HOSTILE])
async def test_hostile_input_gets_short_error(app: App, text: str) -> None:
    t0 = time.thread_time()
    replies = await run(app, text)
    elapsed = time.thread_time() - t0
    if elapsed >= 0.1:  # one re-measure, to tell a slow path from a scheduler hiccup on CI
        t0 = time.thread_time()
        replies = await run(app, text)
        elapsed = time.thread_time() - t0
    assert len(replies) == 1, replies
    reply = replies[0].text
    assert reply and len(reply) <= 300, reply
    assert "Traceback" not in reply and "出错了，已记录" not in reply, reply
    # the budget of the issue: an error reply within 100 ms
    assert elapsed < 0.1, f"{elapsed * 1000:.0f} ms"
    assert len(reply) <= MAX_REPLY_CHARS


async def test_hostile_input_leaves_stored_data_alone(app: App) -> None:
    await run(app, ".st 力量60")
    for text in HOSTILE:
        await run(app, text)
    chars = await app.store.characters.list_characters("10001")
    assert any(c.attributes.get("力量") == 60 for c in chars)
