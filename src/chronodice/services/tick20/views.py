"""What the group sees and what the GM sees, for replies about one combatant.

The group always gets the *player view* (:mod:`chronodice.render.tick20` with ``gm=False``): a
hidden combatant is not in it at all (replies about one go to the GM alone, issue 39); an NPC's HP follows the combat's
``hp_display`` (fuzzy bars by default).  When the GM's view says more, the GM who sent the
command (or, for a player's command, the combat's GMs) gets it by private message, so the GM
sees the numbers where he works without the group seeing them.
"""

from __future__ import annotations

from chronodice.core.commands import Call
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.render.tick20_health import conditions
from chronodice.render.tick20_health import event_lines as health_lines
from chronodice.rules.tick20.model import Combat, Combatant, Event, Phase, Variant

from ._glue import controls, gm, gm_ids, whisper_gms

NUMBERS = ("wound", "mind")
"""Events whose lines carry a combatant's wound or SP numbers: left out where the group may not
see them (an NPC under the combat's ``hp_display``)."""


async def split_view(call: Call, state: Combat, c: Combatant, public: str, private: str) -> list[Reply]:
    """``public`` (player view) to the group, ``private`` (GM view) to the GM when it differs.

    A hidden combatant: nothing in the group (issue 39: not even that something was recorded),
    the GM view privately."""
    if c.hidden:
        if await gm(call, state):
            return [Reply.whisper(private)]
        return hidden_whisper(state, private)
    if private == public:
        return [Reply.say(public)]
    replies = [Reply.say(public)]
    if await gm(call, state):
        replies.append(Reply.whisper(private, fallback="（GM视图私聊失败，请先加骰娘为好友）"))
    elif state.gms:
        replies += whisper_gms(state, private, state.gms[0])
    return replies


def hidden_whisper(
    state: Combat, text: str, c: Combatant | None = None, *, sender: str | None = None
) -> list[Reply]:
    """``text`` privately to whoever runs ``c`` (the combat's GMs for an NPC; ``sender``, a GM
    who sent the command, first); never a word in the group, not even when the private message
    fails (a fallback there would say that something was whispered)."""
    to = list(dict.fromkeys([*([sender] if sender else []), *gm_ids(state, c)]))[:3]
    return [Reply.whisper(text, to_user=uid) for uid in to]


def hidden_prompt(state: Combat) -> str:
    """The GM's turn prompt on a hidden combatant's turn (the group is shown nothing)."""
    c = state.get(state.current or "")
    if state.variant is Variant.BASE:
        left = f"　AP {c.ap}/{c.ap_max}" + (f"　Mov {c.mov}" if c.speed else "")
    else:
        left = f"　动作 {c.actions_left}/{state.options.actions_per_turn}"
    return "\n".join(
        [
            f"⚔ 第{state.round}轮 · 第{state.tick}刻（{R.VARIANT_NAMES[state.variant]}）",
            f"▶ {c.name} 的回合（暗中，群里看不到）{left}",
            "结束它的回合：私聊我发 .ed（先在群里发 .gm 私聊 绑定）；用 .atk 攻击时它会现身",
        ]
    )


def turn_replies(state: Combat, events: list[Event]) -> list[Reply]:
    """The turn card after a command moved the turn on (:func:`turn_reply`) — or, on a hidden
    combatant's turn, nothing in the group and the GM's prompt privately (issue 39)."""
    if R.hidden_turn(state):
        return hidden_whisper(state, hidden_prompt(state), state.maybe(state.current))
    return [turn_reply(state, events)]


def turn_reply(state: Combat, events: list[Event]) -> Reply:
    """The turn card, @-mentioning the player whose turn it is (QQ notifies them) and the player
    whose turn comes next (「请准备」, issue 26).  Its forecast runs on ``state`` itself: the
    caller reads nothing of it afterwards."""
    current = state.maybe(state.current) if state.phase is Phase.ACTIVE else None
    ping = (current.controller,) if current is not None and current.controller and not current.hidden else ()
    ready: list[str] = []
    text = R.turn_card(state, events, consume=True, ready=ready)
    return Reply(text=text, mentions=(*ping, *ready))


async def hp_reply(
    call: Call, state: Combat, c: Combatant, events: list[Event], change: str = ""
) -> list[Reply]:
    """``.hp``: the player view to the group; the numbers (and the change) to the GM."""
    mine = controls(call.ctx, c)
    public_numbers = c.controller is not None or state.options.hp_display == "show"

    def text(gm_view: bool) -> str:
        see = gm_view or mine or public_numbers
        lines = [
            f"{R.name_of(state, c.id, gm_view)}：{R.health_text(state, c, see) or '—'}"
            + (change if see else "")
        ]
        for ev in events:
            if ev.kind == "advantage":
                lines.append(f"击破HG：{ev.data['side']}获得1点优势点（共{ev.data['total']}）")
            elif ev.kind == "crisis":
                lines.append(f"{R.name_of(state, ev.data['cid'], gm_view)} 陷入危机")
        lines += health_lines(state, events, gm=gm_view)
        return "\n".join(lines)

    return await split_view(call, state, c, text(False), text(True))


async def wound_reply(call: Call, state: Combat, c: Combatant, events: list[Event]) -> list[Reply]:
    """``.wound``: which wound levels were added to which part and what every wounded part now
    holds (GM and owner); the group sees what the combat's ``hp_display`` lets players see."""
    mine = controls(call.ctx, c)

    def text(gm_view: bool) -> str:
        see = gm_view or mine or c.controller is not None or state.options.hp_display == "show"
        name = R.name_of(state, c.id, gm_view)
        if see:  # every part's wounds, then the states the rules act on (<故障:腿部>, SP, MP)
            held = " ".join(x for x in (R.parts_text(c), *conditions(c, True)) if x) or "无伤"
        else:  # the players see part statuses and HP as hp_display allows, never the wounds
            held = R.health_text(state, c, False) or "伤势已记录（详情已私聊GM）"
        lines = [f"{name}：{held}"]
        shown = events if see else [e for e in events if e.kind not in NUMBERS]
        lines += R.event_lines(state, shown, gm=gm_view)
        lines += health_lines(state, [e for e in shown if e.kind == "wound"], gm=gm_view)
        return "\n".join(lines)

    return await split_view(call, state, c, text(False), text(True))


__all__ = [
    "NUMBERS",
    "hidden_prompt",
    "hidden_whisper",
    "hp_reply",
    "split_view",
    "turn_replies",
    "turn_reply",
    "wound_reply",
]
