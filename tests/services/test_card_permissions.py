"""The permission walk (issue 23, item 2): whose card a command may touch.

Every command that reads or writes another member's card or acts for them is sent by a plain
member, in a private chat and in the group (with ``@12345`` typed and with a real QQ @), and by a
GM of *another* group; each is refused with one line and the victim's card is unchanged.  The GM
of the victim's group doing the same is the positive control: it goes through, so the walk can
fail.
"""

from __future__ import annotations

import pytest
from helpers import run, say

from chronodice.app import App
from chronodice.core.permissions import PRIVATE_OWN_ONLY

SHEET = (
    ".TLsetup 姓名:阿星,种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GROUP, OTHER_GROUP = "20002", "30003"
VICTIM, TL_VICTIM, ATTACKER = "10003", "10005", "10004"

WALK = [
    # (command, victim): every form that names another member's card
    (".st @{v} 体力0 理智0", VICTIM),
    (".st show @{v}", VICTIM),
    (".st @{v}", VICTIM),
    (".st del @{v} 理智", VICTIM),
    (".ww 防御 3 @{v}", VICTIM),
    (".ww 行动 @{v}", VICTIM),
    (".crd @{v} 体力 -149", TL_VICTIM),
    (".crd reset @{v}", TL_VICTIM),
    (".crd @{v}", TL_VICTIM),
    (".crd 休息 @{v} 2", TL_VICTIM),
    (".bat @{v} 力量 5t", TL_VICTIM),
    (".debuff @{v} 10 虚弱", TL_VICTIM),
    (".debuff 清除 @{v}", TL_VICTIM),
]
"""The GM-only forms: refused to a plain member everywhere, and to anyone in private chat."""

READS_IN_PRIVATE = [
    # gameplay that reads a named member's card: fine in the group, refused in private chat
    (".ww 攻击 6 @{v}", VICTIM),
]


async def _cards(app: App) -> dict[str, tuple[object, ...]]:
    out = {}
    for uid in (VICTIM, TL_VICTIM):
        for c in await app.store.characters.list_characters(uid):
            out[f"{uid}/{c.name}"] = (c.version, c.attributes, c.data)
    return out


async def _prepare(app: App) -> dict[str, tuple[object, ...]]:
    assert "已录入" in await say(app, ".st 体力10 理智50 敏捷6", user=VICTIM, group=GROUP)
    assert "防御" in await say(app, ".ww 附加 防御3", user=VICTIM, group=GROUP)
    assert "设置完成" in await say(app, SHEET, user=TL_VICTIM, group=GROUP)
    return await _cards(app)


def _refused(text: str) -> bool:
    return any(w in text for w in (PRIVATE_OWN_ONLY, "只有", "没有绑定角色卡"))


@pytest.mark.parametrize(("command", "victim"), WALK + READS_IN_PRIVATE)
async def test_private_chat_touches_only_own_cards(app: App, command: str, victim: str) -> None:
    before = await _prepare(app)
    text = await say(app, command.format(v=victim), user=ATTACKER, group=None)
    assert text == PRIVATE_OWN_ONLY or text.startswith("该指令只能在群聊中使用"), text
    assert await _cards(app) == before


@pytest.mark.parametrize("real_at", [False, True])
@pytest.mark.parametrize(("command", "victim"), WALK)
async def test_plain_member_in_group_is_refused(app: App, command: str, victim: str, real_at: bool) -> None:
    before = await _prepare(app)
    at = (victim,) if real_at else ()
    text = command.format(v=victim)
    if real_at:
        text = text.replace(f"@{victim}", "")
    reply = await say(app, text, user=ATTACKER, group=GROUP, at=at)
    assert _refused(reply), reply
    assert await _cards(app) == before


@pytest.mark.parametrize(("command", "victim"), WALK)
async def test_gm_of_another_group_is_refused(app: App, command: str, victim: str) -> None:
    """The owner of a group the victim never played in: a typed @ reaches no card there."""
    before = await _prepare(app)
    reply = await say(app, command.format(v=victim), user=ATTACKER, group=OTHER_GROUP, roles=("owner",))
    assert "没有绑定角色卡" in reply or "没有可用的时间线角色" in reply, reply
    assert await _cards(app) == before


async def test_gm_of_the_victims_group_may(app: App) -> None:
    """The positive control: the same commands work for the group's GM, so the walk can fail."""
    await _prepare(app)
    gm = {"user": ATTACKER, "group": GROUP, "roles": ("owner",)}
    assert "体力:0" in await say(app, f".st @{VICTIM} 体力0", **gm)
    assert "体力:0" in await say(app, f".st show @{VICTIM}", **gm)
    assert "-149" in await say(app, f".crd @{TL_VICTIM} 体力 -149", **gm) or "体力" in await say(
        app, f".crd @{TL_VICTIM}", **gm
    )
    cards = await _cards(app)
    assert any(attrs.get("体力") == 0 for _v, attrs, _d in cards.values() if isinstance(attrs, dict))


async def test_real_at_reaches_a_members_default_card(app: App) -> None:
    """A GM in another group may reach the default card of a member @-mentioned for real (QQ
    lets one @ only a member), never with a typed @."""
    await _prepare(app)
    typed = await say(app, f".st @{VICTIM} 体力1", user=ATTACKER, group=OTHER_GROUP, roles=("owner",))
    assert "没有绑定角色卡" in typed
    real = await say(app, ".st 体力1", user=ATTACKER, group=OTHER_GROUP, roles=("owner",), at=(VICTIM,))
    assert "体力:1" in real


async def test_own_card_in_private_chat_still_works(app: App) -> None:
    await _prepare(app)
    assert "体力:9" in await say(app, f".st @{VICTIM} 体力9", user=VICTIM, group=None)
    assert "体力:9" in await say(app, ".st show", user=VICTIM, group=None)


async def test_refusal_is_one_line_with_no_card_content(app: App) -> None:
    await _prepare(app)
    replies = await run(app, f".st show @{VICTIM}", user=ATTACKER, group=None)
    assert len(replies) == 1
    assert "理智" not in replies[0].text and "50" not in replies[0].text


SESSION_WALK = [
    # a plain member against another member's place in the group's session
    ".hp PL03 -5",
    ".init rm PL03",
    ".wound PL03 躯干 hit1 dp2 dr0",
    ".ap PL03 -1",
    ".init set PL03 20",
    ".bat 阿星: 力量 5t",
    ".crd 阿星: 体力 -10",
    ".bat 取消 阿星",
    ".bat out 阿星",
    ".debuff 阿星: 10 虚弱",
]


@pytest.mark.parametrize("command", SESSION_WALK)
async def test_plain_member_cannot_act_on_anothers_session_entries(app: App, command: str) -> None:
    gm = {"group": GROUP, "roles": ("owner",)}
    await say(app, ".init begin", user="10005", **gm)
    await say(app, ".ri =12", user=VICTIM, group=GROUP, name="PL03")
    await say(app, ".init start", user="10005", **gm)
    assert "设置完成" in await say(app, SHEET, user=TL_VICTIM, group=GROUP)
    await say(app, ".bat 力量 5t", user=TL_VICTIM, group=GROUP)
    log_before = await app.store.history.session_log(GROUP)
    cards_before = await _cards(app)
    reply = await say(app, command, user=ATTACKER, group=GROUP)
    assert "只有" in reply, reply
    assert await app.store.history.session_log(GROUP) == log_before
    assert await _cards(app) == cards_before
