"""萌E over chat: ``.moe`` (alias ``.萌e``) — lobby, seats, private hands, answers, timeouts.

One game per group, stored as the group's ``moe`` session (see :mod:`chronodice.rules.moe.record`:
the input log + the latest turn-start snapshot).  Hidden information goes only by private
message: hands, 奥秘, 拼点 cards and the options of a private request.  The group sees public
events and "等待…" lines.  When a private message cannot be delivered the group is told without
content, and ``.moe hand`` in private pulls the state.

Where the code lives (importing this package registers every sub-command, in help order):

* :mod:`._common`: the ``.moe`` declaration, constants, where a game is, who may run it;
* :mod:`.kinds`: argument kinds (maps, seats/players, indices, 弃 costs, give);
* :mod:`.outbox`: replies public/private, the outbox of private commands, :func:`sweep`;
* :mod:`.delivery`: the outbox delivered at least once, in order, a repeat marked;
* :mod:`.lobby`: ``new join leave start state hand card``;
* :mod:`.play`: ``play skill resp pass yes no choose give end`` (cards by number or
  name; ``skill <名字>`` shows the text when it cannot be used now);
* :mod:`.away`: ``auto quit`` — 托管, 投降, and handing one's seat to the AI (``quit ai``);
* :mod:`.noask`: ``免问`` — not asked for 反制/恢复 this turn or this game;
* :mod:`.phone`: ``答`` — a bare number in private chat answers the open request;
* :mod:`.choice`: everyone chooses a character at once, one deadline;
* :mod:`.feed`: one group message per action; :mod:`.numbers`: hand numbers that hold a turn;
* :mod:`.gm`: ``kick abort timeout recover`` (房主 or the group's GM, also from private chat;
  ``recover`` is the way on for a game whose pack changed or whose replay desyncs);
* here: ``help`` (and the bare ``.moe``).

Deadlines are read on the app's one clock (``app.clock``); ``sweep(app, now=None, send=…)`` is
what the plugin's sweeper calls (``send`` delivers one outbox text to a group).
"""

from __future__ import annotations

from chronodice.core.commands import Call
from chronodice.core.reply import Reply

# The import order is the registration order, which orders the help and the README table.
from . import lobby, packs, play, away, noask, phone, gm  # isort: skip
from ._common import HELP, MAX_PLAYERS, PACK, SYSTEM, moe
from .outbox import sweep


@moe.sub("help", "帮助", when_empty=True, help="规则取舍与全部指令")
async def moe_help(call: Call) -> list[Reply]:
    return [Reply.say(HELP)]


__all__ = [
    "HELP",
    "MAX_PLAYERS",
    "PACK",
    "SYSTEM",
    "away",
    "gm",
    "lobby",
    "moe",
    "noask",
    "packs",
    "phone",
    "play",
    "sweep",
]
