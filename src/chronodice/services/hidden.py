"""A hidden result: the group hears that something was rolled, the result goes privately."""

from __future__ import annotations

from chronodice.core.commands import Call
from chronodice.core.reply import Reply


def hidden_result(call: Call, text: str, what: str = "暗骰", *, name: str | None = None) -> list[Reply]:
    """``text`` by private message with a content-free note in the group (in private chat: plain).

    The fallback, sent to the group when the private message cannot be delivered, says only
    that it failed — never the result.  ``name``: whom the note names (default
    :attr:`~chronodice.core.commands.Call.name`; ``.rh`` names the card, as its result does).
    """
    if call.ctx.group_id is None:
        return [Reply.say(text)]
    name = name or call.name
    return [
        Reply.say(f"{name} 进行了一次{what}"),
        Reply.whisper(
            f"在群{call.ctx.group_id}中的{what}：\n{text}",
            fallback=f"{name} 的暗骰结果无法私聊送达，请先加骰娘为好友",
        ),
    ]


__all__ = ["hidden_result"]
