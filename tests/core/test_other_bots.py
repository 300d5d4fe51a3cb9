"""Other bots' commands get no reply at all (the list in chronodice.core.otherbots)."""

from __future__ import annotations

import pytest
from helpers import parse_of, run

from chronodice.app import App
from chronodice.core.otherbots import OTHER_BOT_COMMANDS


def test_the_list_is_substantial() -> None:
    assert len(OTHER_BOT_COMMANDS) >= 60
    assert len(set(OTHER_BOT_COMMANDS)) == len(OTHER_BOT_COMMANDS)


@pytest.mark.parametrize("text", OTHER_BOT_COMMANDS)
def test_not_routed(text: str) -> None:
    assert parse_of(text) is None, f"{text!r} is read as one of ours"


@pytest.mark.parametrize("text", OTHER_BOT_COMMANDS[::7])
async def test_silent_through_the_dispatcher(app: App, text: str) -> None:
    assert await run(app, text) == []
    assert await run(app, text, group=None) == []


@pytest.mark.parametrize(
    ("text", "command"),
    [
        (".r3d6", "r"),
        (".rd20", "r"),
        (".r2#d6", "r"),
        (".rb2", "r"),
        (".rp", "r"),
        (".rh d100", "rh"),
        (".set20", "set"),
        (".setd20", "set"),
    ],
)
def test_our_glued_forms_still_route(text: str, command: str) -> None:
    got = parse_of(text)
    assert isinstance(got, tuple) and got[0] == command, got
