"""The ``.log`` recorder's NoneBot edge: OneBot messages as recorded parts (@ names, pictures)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import nonebot
import sqlalchemy as sa
from helpers import group_msg

from chronodice.app import App
from chronodice.services.gamelog.export import plain


def edge():  # type: ignore[no-untyped-def]
    plugin = nonebot.get_plugin("nonebot_plugin_chronodice:chronodice_core")
    assert plugin is not None and plugin.module is not None
    return plugin.module.gamelog


async def test_parts_of_incoming_and_outgoing_messages(app: App) -> None:
    from nonebot.adapters.onebot.v11 import Message, MessageSegment

    gl = edge()
    await app.store.groups.set_nickname("10003", "20002", "丙的昵称")
    gl._remember(app, "20002", "10002", "布鲁")
    msg = (
        MessageSegment.reply(5)
        + MessageSegment.at(10002)
        + MessageSegment.text(" 看")
        + MessageSegment.text("图")
        + MessageSegment("image", {"file": "abc.image", "url": "https://x/a.png"})
        + MessageSegment("image", {"file": "abc.image"})
        + MessageSegment.at(10003)
        + MessageSegment.at("all")
        + MessageSegment.at(77777)
        + MessageSegment.face(178)
        + MessageSegment("record", {"file": "x.amr"})
    )
    parts = await gl.message_parts(app, None, "20002", Message(msg))
    assert parts == [
        ["at", "布鲁"],
        ["text", " 看图"],
        ["image", "https://x/a.png"],
        ["image", "abc.image"],
        ["at", "丙的昵称"],
        ["at", "全体成员"],
        ["at", "77777"],  # unknown and no bot to ask: the QQ id
        ["face", "178"],
        ["other", "record"],
    ]
    # the bot's own picture (base64) is not copied into the log; plain strings and dict lists work
    png = Message(MessageSegment.text("结果") + MessageSegment.image(b"\x89PNG"))
    assert await gl.message_parts(app, None, "20002", png) == [["text", "结果"], ["image", ""]]
    assert await gl.message_parts(app, None, "20002", "纯文本") == [["text", "纯文本"]]
    as_dicts = [{"type": "text", "data": {"text": "a"}}, {"type": "at", "data": {"qq": "10002"}}]
    assert await gl.message_parts(app, None, "20002", as_dicts) == [["text", "a"], ["at", "布鲁"]]


async def test_log_records_chatter_commands_and_replies_through_nonebot(nbapp) -> None:  # type: ignore[no-untyped-def]
    import random

    from nonebot.adapters.onebot.v11 import Adapter, Bot, Message

    group = random.randint(10**8, 10**9)
    async with nbapp.test_matcher() as ctx:
        bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id="123456")
        ev = group_msg(".log new 夜", group_id=group, card="艾拉")
        ctx.receive_event(bot, ev)
        ctx.should_call_send(
            ev,
            Message("开始记录日志「夜」：之后本群的发言都会记下（.log off 暂停，.log end 结束并导出）"),
            result={"message_id": 901},
        )
        ctx.receive_event(bot, group_msg("今晚跑团", group_id=group, card="艾拉"))
        ctx.receive_event(bot, group_msg(".rx 3d6", group_id=group, card="艾拉"))  # another bot's: recorded
        ev = group_msg(".nn 艾拉酱", group_id=group, card="艾拉")
        ctx.receive_event(bot, ev)
        ctx.should_call_send(ev, Message("好的，以后叫你 艾拉酱"), result={"message_id": 902})
        ctx.receive_event(bot, group_msg("改了昵称", group_id=group, card="艾拉"))
    app = nonebot.get_plugin("nonebot_plugin_chronodice:chronodice_core").module.get_app()  # type: ignore[union-attr]
    log = await app.store.logs.find_log(str(group))
    lines = await app.store.logs.log_lines(log.id)
    assert [(ln.is_bot, ln.nickname, plain(ln.parts)) for ln in lines] == [
        (True, "骰娘", "开始记录日志「夜」：之后本群的发言都会记下（.log off 暂停，.log end 结束并导出）"),
        (False, "艾拉", "今晚跑团"),
        (False, "艾拉", ".rx 3d6"),
        (False, "艾拉", ".nn 艾拉酱"),
        (True, "骰娘", "好的，以后叫你 艾拉酱"),
        (False, "艾拉酱", "改了昵称"),  # the .nn nickname from then on
    ]
    assert [ln.message_id for ln in lines if ln.is_bot] == ["sent:901", "sent:902"]


@contextlib.contextmanager
def statements(app: App) -> Iterator[list[str]]:
    """The SQL statements the store sends while the block runs (their first words)."""
    db = app.store.db
    engine = db.sqlite if db.dialect == "sqlite" else db.engine.sync_engine
    seen: list[str] = []

    def note(conn, cursor, stmt, params, context, executemany) -> None:  # type: ignore[no-untyped-def]
        seen.append(" ".join(stmt.split()[:3]))

    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)


async def test_a_group_command_reads_one_statement_and_its_replies_reuse_its_log(nbapp) -> None:  # type: ignore[no-untyped-def]
    """Issue 40's edge read: a ``.r`` in a group with no log sends one statement (the view:
    group, GMs, log in progress, nickname and card); with a log recording, the message and the
    reply are one write each and nothing is read again; a ``.log`` command's reply reads the
    log again (the command changed it): ``.log on``'s reply is recorded though the log was
    paused when the message came."""
    import random

    from nonebot.adapters.onebot.v11 import Adapter, Bot, Message

    app = nonebot.get_plugin("nonebot_plugin_chronodice:chronodice_core").module.get_app()  # type: ignore[union-attr]
    group = random.randint(10**8, 10**9)
    sent = iter(range(1, 100))

    async def say(text: str, reply: str | None) -> list[str]:
        with statements(app) as seen:
            async with nbapp.test_matcher() as ctx:
                bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id="123456")
                ev = group_msg(text, group_id=group, card="艾拉")
                ctx.receive_event(bot, ev)
                if reply is not None:
                    ctx.should_call_send(ev, Message(reply), result={"message_id": next(sent)})
        # each test_matcher's bot connects anew: its account's liveness lock (PostgreSQL's
        # advisory lock) and the group's lease taken again are not the message's, not counted
        lease = {i for i, s in enumerate(seen) if "bot_leases" in s or "pg_advisory" in s}
        lease |= {i for i in range(len(seen)) if seen[i] == "BEGIN IMMEDIATE" and i + 1 in lease}
        return [s for i, s in enumerate(seen) if i not in lease]

    roll = "艾拉 掷骰: 1d1=1"
    await say(".r 1d1", roll)  # the first message takes the group's lease
    assert await say(".r 1d1", roll) == ["SELECT 3 AS"]  # the view, nothing else
    assert await say("闲聊", None) == ["SELECT 3 AS"]  # the group's part of the view
    await say(
        ".log new 夜", "开始记录日志「夜」：之后本群的发言都会记下（.log off 暂停，.log end 结束并导出）"
    )
    seen = await say(".r 1d1", roll)
    assert [s for s in seen if s.startswith("SELECT")] == ["SELECT 3 AS"]  # the reply reused the view's log
    assert seen.count("BEGIN IMMEDIATE") == (2 if app.store.db.dialect == "sqlite" else 0)
    await say(".log off", "已暂停记录日志「夜」（.log on 继续）")
    await say(".log on", "继续记录日志「夜」")
    log = await app.store.logs.find_log(str(group))
    lines = await app.store.logs.log_lines(log.id)
    assert [(ln.is_bot, plain(ln.parts)) for ln in lines][1:] == [
        (False, ".r 1d1"),
        (True, roll),
        (False, ".log off"),
        (True, "继续记录日志「夜」"),
    ]
