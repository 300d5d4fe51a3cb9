"""``.sn``: the auto group card — exact replies, the central follow-up in App.dispatch, the
60-byte cut, and (nonebug) the OneBot ``set_group_card`` call it becomes."""

from __future__ import annotations

import nonebot
from helpers import group_msg, run, say
from nonebug import App as NoneBugApp

from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.services.nickname_sync import CARD_MAX_BYTES, SN_KEY, fit

COC_CARD = ".st 力量60 体力10 体质55 体型65 理智55 敏捷60"


def _cards(replies: list[Reply]) -> list[tuple[str, str]]:
    return [r.group_card for r in replies if r.group_card is not None]


async def test_sn_sets_the_card_now_and_after_every_change(app: App) -> None:
    await say(app, COC_CARD, name="艾拉")
    replies = await run(app, ".sn")
    assert [r.text for r in replies] == [
        "已开启自动群名片：艾拉 HP10/12 SAN55 DEX60\n角色卡变化时自动更新；.sn off 关闭",
        "",
    ]
    assert _cards(replies) == [("10001", "艾拉 HP10/12 SAN55 DEX60")]
    assert (await app.store.groups.get_group("20002")).settings[SN_KEY] == {"10001": "auto"}
    replies = await run(app, ".st 体力-2")
    assert replies[0].text == "已录入 <艾拉>：体力-2→8"
    assert _cards(replies) == [("10001", "艾拉 HP8/12 SAN55 DEX60")]
    sanity = await run(app, ".sc 1/1d6")
    assert "理智 55→49" in sanity[0].text
    assert _cards(sanity) == [("10001", "艾拉 HP8/12 SAN49 DEX60")]
    # no change to the card: no group-card call
    assert _cards(await run(app, ".r 1d6")) == []
    assert _cards(await run(app, ".st show")) == []
    # another member's commands never touch this member's card
    await say(app, ".st 力量50", user="10002")
    assert _cards(await run(app, ".st 力量+1", user="10002")) == []


async def test_a_gms_change_to_a_members_card_follows_too(app: App) -> None:
    """A GM's ``.st @某人`` and ``.team st`` change another member's card: that member's group
    card follows, the GM's own (no ``.sn``) is left alone."""
    await say(app, COC_CARD, name="艾拉")
    await run(app, ".sn")
    gm = {"user": "10009", "roles": ("owner",)}
    replies = await run(app, ".st @10001 体力-3", **gm)
    assert replies[0].text == "已录入 <艾拉>：体力-3→7"
    assert _cards(replies) == [("10001", "艾拉 HP7/12 SAN55 DEX60")]
    await say(app, ".team add @10001", **gm)
    assert _cards(await run(app, ".team st hp-1", **gm)) == [("10001", "艾拉 HP6/12 SAN55 DEX60")]


async def test_sn_off_stops_it(app: App) -> None:
    await say(app, COC_CARD, name="艾拉")
    await run(app, ".sn")
    assert await say(app, ".sn off") == "已关闭 PL01 的自动群名片（群名片保持现状）"
    assert SN_KEY not in (await app.store.groups.get_group("20002")).settings
    assert _cards(await run(app, ".st 体力-1")) == []


async def test_sn_module_off_stops_the_follow_up(app: App) -> None:
    await say(app, COC_CARD, name="艾拉")
    await run(app, ".sn")
    await say(app, ".ext off sn", roles=("owner",))
    assert await run(app, ".sn off") == []  # the module is silent
    assert _cards(await run(app, ".st 体力-1")) == []
    await say(app, ".ext on sn", roles=("owner",))
    assert _cards(await run(app, ".st 体力-1")) == [("10001", "艾拉 HP8/12 SAN55 DEX60")]


async def test_sn_is_per_group(app: App) -> None:
    await say(app, COC_CARD, name="艾拉")
    await run(app, ".sn")
    assert _cards(await run(app, ".st 体力-1", group="30003")) == []


async def test_sn_templates(app: App) -> None:
    await say(app, COC_CARD, name="艾拉")
    assert _cards(await run(app, ".sn name")) == [("10001", "艾拉")]
    assert _cards(await run(app, ".st 体力-1")) == [("10001", "艾拉")]
    assert _cards(await run(app, ".sn basic")) == [("10001", "艾拉 HP9")]
    assert _cards(await run(app, ".sn coc")) == [("10001", "艾拉 HP9/12 SAN55 DEX60")]


async def test_sn_dnd_card(app: App) -> None:
    await say(app, ".set dnd5e", roles=("owner",))
    await say(app, ".st hp31 ac16 str16", name="托林")
    assert _cards(await run(app, ".sn")) == [("10001", "托林 HP31 AC16")]


async def test_sn_needs_a_card_and_a_group(app: App) -> None:
    assert await say(app, ".sn") == "你还没有角色卡，先用 .st 录入属性或 .pc new 名字 新建"
    assert SN_KEY not in (await app.store.groups.get_group("20002")).settings
    assert (await say(app, ".sn", group=None)).startswith("该指令只能在群聊中使用")


async def test_sn_long_name_is_cut_to_sixty_bytes(app: App) -> None:
    await say(app, ".pc new " + "长" * 19)
    await say(app, ".st 体力10 体质55 体型65 理智55 敏捷60")
    card = _cards(await run(app, ".sn coc"))[0][1]
    assert card == "长" * 13 + " HP10/12 SAN55 DEX60"  # 59 bytes: a 14th 长 would make 62
    assert len(card.encode()) <= CARD_MAX_BYTES


def test_fit_cuts_whole_characters() -> None:
    assert fit("a" * 80, []) == "a" * 60
    assert fit("长" * 30, []) == "长" * 20
    assert fit("长" * 30, ["HP1"]) == "长" * 18 + " HP1"
    assert fit("名", ["X" * 70]) == "名"


async def test_set_group_card_is_called(nbapp: NoneBugApp) -> None:
    from nonebot.adapters.onebot.v11 import Adapter, Bot, Message
    from nonebot.adapters.onebot.v11.exception import ActionFailed

    async with nbapp.test_matcher() as ctx:
        bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id="123456")
        st = group_msg(COC_CARD, user_id=10777, group_id=20777, card="艾拉")
        ctx.receive_event(bot, st)
        ctx.should_call_send(
            st,
            Message("已录入 <艾拉>：力量:60 体力:10 体质:55 体型:65 理智:55 敏捷:60"),
            result={"message_id": 1},
        )
        sn = group_msg(".sn", user_id=10777, group_id=20777, card="艾拉")
        ctx.receive_event(bot, sn)
        ctx.should_call_send(
            sn,
            Message("已开启自动群名片：艾拉 HP10/12 SAN55 DEX60\n角色卡变化时自动更新；.sn off 关闭"),
            result={"message_id": 2},
        )
        ctx.should_call_api(
            "set_group_card", {"group_id": 20777, "user_id": 10777, "card": "艾拉 HP10/12 SAN55 DEX60"}, None
        )
        # the bot is no admin: the failure is logged, the next command is still answered
        hurt = group_msg(".st 体力-3", user_id=10777, group_id=20777, card="艾拉")
        ctx.receive_event(bot, hurt)
        ctx.should_call_send(hurt, Message("已录入 <艾拉>：体力-3→7"), result={"message_id": 3})
        ctx.should_call_api(
            "set_group_card",
            {"group_id": 20777, "user_id": 10777, "card": "艾拉 HP7/12 SAN55 DEX60"},
            None,
            exception=ActionFailed(retcode=102, msg="no permission"),
        )
        roll = group_msg(".st show 体力", user_id=10777, group_id=20777, card="艾拉")
        ctx.receive_event(bot, roll)
        ctx.should_call_send(roll, Message("<艾拉> 体力:7"), result={"message_id": 4})
