"""Other bots' commands get no reply at all (the list in chronodice.core.otherbots)."""

from __future__ import annotations

import pytest
from helpers import parse_of, run

from chronodice.app import App
from chronodice.core.otherbots import COC_MODE_COMMANDS, OTHER_BOT_COMMANDS


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


def test_coc_commands_are_not_in_the_other_bots_list() -> None:
    assert not set(COC_MODE_COMMANDS) & set(OTHER_BOT_COMMANDS)


@pytest.mark.parametrize("text", COC_MODE_COMMANDS)
async def test_coc_commands_answered_in_a_fresh_group(app: App, text: str) -> None:
    replies = await run(app, text, roles=("owner",))
    assert replies, f"{text!r} got no reply in a fresh group"


@pytest.mark.parametrize("mode", ["tl", "tick20", "pool10", "dnd5e"])
async def test_coc_commands_silent_in_a_group_set_to_another_system(app: App, mode: str) -> None:
    assert await run(app, f".set {mode}", roles=("owner",))
    for text in COC_MODE_COMMANDS:
        if mode in ("tick20", "dnd5e") and text.startswith(".rc"):
            continue  # there .rc is the D20 check
        assert await run(app, text, roles=("owner",)) == [], f"{text!r} answered in a {mode} group"
    # other groups are not affected
    assert await run(app, ".ra 侦查", group="30003")


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
        (".ra侦查60", "ra"),
        (".rab2侦查", "rab"),
        (".rcb2 侦查", "rab"),
        (".rch 侦查", "rah"),
        (".setcoc2", "setcoc"),
    ],
)
def test_our_glued_forms_still_route(text: str, command: str) -> None:
    got = parse_of(text)
    assert isinstance(got, tuple) and got[0] == command, got


@pytest.mark.parametrize(
    ("text", "command"),
    [
        (".draw 塔罗牌", "draw"),
        (".drawh 塔罗牌", "drawh"),
        (".draw list", "draw"),
        (".jrrp", "jrrp"),
        (".send 你好", "send"),
        (".sn", "sn"),
        (".sn coc", "sn"),
        (".ext", "ext"),
        (".rav 斗殴 闪避 @30001", "rav"),
        (".ob", "ob"),
        (".ob join", "ob"),
        (".ob exit", "ob"),
        (".team add @30001", "team"),
        (".team call", "team"),
        (".nnn", "nnn"),
        (".nnn 英", "nnn"),
        (".name", "nnn"),
        (".name 英", "nnn"),
        (".deck 塔罗牌", "deck"),
        (".gugu", "gugu"),
    ],
)
def test_commands_we_now_answer_left_the_list(text: str, command: str) -> None:
    """Issues 30 and 42: decks, 今日人品, .send, names and .gugu are ours now, so they are not in
    the silent list."""
    assert text not in OTHER_BOT_COMMANDS
    got = parse_of(text)
    assert isinstance(got, tuple) and got[0] == command, got
