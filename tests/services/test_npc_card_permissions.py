"""Whose NPC cards (issue 26, under issue 23's rule): only a GM of the group the card belongs to
creates, edits, reads or rolls with it, and only in that group.  A plain member, a private
chat and the GM of another group are each refused (or find nothing), and the card is unchanged;
the group's own GM is the positive control, so the walk can fail."""

from __future__ import annotations

import pytest
from helpers import Scripted, run, say

from chronodice.app import App
from chronodice.services.npc_cards import npc_owner

GROUP, OTHER_GROUP = "20002", "30003"
GM = {"user": "10001", "roles": ("owner",), "group": GROUP}
MEMBER = {"user": "10004", "group": GROUP}
OTHER_GM = {"user": "10009", "roles": ("owner",), "group": OTHER_GROUP}

WALK = [
    ".npc 哥布林 力量1",
    ".npc 哥布林 侦查-50",
    ".npc show 哥布林",
    ".npc 哥布林",
    ".npc list",
    ".npc del 哥布林",
    ".rc 哥布林:近战 15",
    ".rc 哥布林2:近战 15",
    ".ra 哥布林:侦查",
    ".rah 哥布林:侦查",
]


async def _card(app: App) -> tuple[object, ...]:
    card = await app.store.characters.find_character(npc_owner(GROUP), "哥布林")
    assert card is not None
    return card.version, card.attributes


async def _prepare(app: App) -> tuple[object, ...]:
    assert "已录入NPC卡" in await say(app, ".npc 哥布林 力量12 侦查60 运动1", **GM)
    return await _card(app)


@pytest.mark.parametrize("command", WALK)
async def test_plain_member_is_refused(app: App, command: str) -> None:
    before = await _prepare(app)
    replies = await run(app, command, **MEMBER)  # type: ignore[arg-type]
    assert len(replies) == 1 and not replies[0].private
    assert replies[0].text.startswith("只有") or "只有群主、管理员、骰主或本群GM" in replies[0].text, replies[
        0
    ].text
    assert "60" not in replies[0].text and "12" not in replies[0].text
    assert await _card(app) == before


@pytest.mark.parametrize("command", WALK)
async def test_private_chat_has_no_npc_cards(app: App, command: str) -> None:
    before = await _prepare(app)
    app.rng = Scripted([11, 30], then_seed=1)
    text = await say(app, command, user="10001", group=None)
    assert "60" not in text.split("/")[-1] and "力量:12" not in text
    assert text.startswith(("该指令只能在群聊中使用", "NPC卡属于群", "本群没有NPC卡", "哥布林")), text
    if text.startswith("哥布林"):  # a D20 check in private: an NPC without a card, no modifiers
        assert "修正" not in text
    assert await _card(app) == before


@pytest.mark.parametrize("command", WALK)
async def test_gm_of_another_group_finds_nothing(app: App, command: str) -> None:
    before = await _prepare(app)
    app.rng = Scripted([11, 30], then_seed=1)
    text = "\n".join(r.text for r in await run(app, command, **OTHER_GM))  # type: ignore[arg-type]
    assert "力量:12" not in text and "侦查:60" not in text and "/60" not in text
    assert "修正：+1力量" not in text
    assert await _card(app) == before


async def test_the_groups_gm_reaches_the_card(app: App) -> None:
    """The positive control: each form goes through for the group's GM."""
    await _prepare(app)
    await say(app, ".set tick20", **GM)
    app.rng = Scripted([11])
    assert "修正：+1力量+0武器熟练" not in (text := await say(app, ".rc 哥布林:近战 15", **GM))
    assert "+1力量" in text
    await say(app, ".set coc7", **GM)
    app.rng = Scripted([30])
    assert (await say(app, ".ra 哥布林:侦查", **GM)).startswith("哥布林 的侦查检定：D100=30/60 困难成功")
    shown = await run(app, ".npc show 哥布林", **GM)  # type: ignore[arg-type]
    assert shown[1].private and "侦查:60" in shown[1].text


async def test_a_player_never_owns_or_lists_an_npc_card(app: App) -> None:
    await _prepare(app)
    assert await app.store.characters.list_characters("10001") == []
    assert "哥布林" not in await say(app, ".pc list", **GM)
