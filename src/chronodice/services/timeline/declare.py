"""How a ``.bat`` declaration is built (the rules it passes before it is recorded): overload,
one action at a time, a secret NPC, the target brought into the battle, the weapon's action.
Each wraps the pure transition a declaration runs; :mod:`.battle` records it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction
from chronodice.core.permissions import is_gm
from chronodice.core.reply import Reply
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import battle_actions as ba
from chronodice.rules.timeline.character import TLCharacter
from chronodice.rules.timeline.load import overload_refusal
from chronodice.rules.timeline.rounding import fmt, r0
from chronodice.services.views import group_of

from .kinds import Amount
from .secrets import secretly

RELOAD = "re"


async def overload_gate(call: Call, char: TLCharacter, *, named: bool) -> str | None:
    """Refuse an overloaded character's action (book 负重: 携带的物品超过了负重，则角色会无法行动).

    The GM overrides by acting for the character (``.bat 角色名:…`` / ``@玩家``, ``named``): the
    action is recorded and the returned line says so.  ``.tlconf open`` does not open this — it
    lets players act for each other, not lift a rule."""
    refusal = overload_refusal(char.name, char.derived())
    if refusal is None:
        return None
    group = await group_of(call)
    if not (named and is_gm(call.ctx, gms=group.gms)):
        raise IllegalAction(refusal)
    return f"⚠{char.name}超重，规则书：超过负重无法行动；GM代为行动，已放行"


Recorded = tuple[bt.BattleState, bt.Action, list[bt.Event]]
"""What an action transition gives the reply: the state, the action, the events (joins)."""


def enlisting(
    whom: bt.ParticipantRef | None, fn: Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]]
) -> Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]]:
    """``fn`` after bringing the target into the battle when it is not there yet
    (:func:`bt.enlist`, issue 25); its join is among the events the reply reports."""
    if whom is None:
        return fn

    def wrapped(s: bt.BattleState) -> tuple[bt.BattleState, Recorded]:
        s, joined = bt.enlist(s, whom)
        new, (state, action, events) = fn(s)
        return new, (state, action, [*joined, *events])

    return wrapped


def in_secret(
    ref: bt.ParticipantRef, fn: Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]], hide: bool
) -> Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]]:
    """``fn`` declaring in secret (``.bat 暗``, or any NPC under ``.bat 暗宣言 开``)."""
    if hide and not ref.npc:
        raise IllegalAction("只有NPC可以暗中行动：.bat 暗 NPC名:属性 数值（GM，宜私聊）")
    return secretly(fn, ref.key, hide)


def one_at_a_time(
    ref: bt.ParticipantRef, fn: Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]], allowed: bool
) -> Callable[[bt.BattleState], tuple[bt.BattleState, Recorded]]:
    """``fn`` refused while the actor's own last action still winds up, once the battle runs
    (book 时间轴, line 497: whoever finishes first settles, *then* decides again; issue 39
    defect 7).  The opening is exempt (everyone declares at once, issue 25), and so is a GM
    acting for the character by name (``.bat 名字:…``): the GM's ruling, as for overload."""

    def wrapped(s: bt.BattleState) -> tuple[bt.BattleState, Recorded]:
        last = s.last_of(ref.key)
        if not allowed and s.started and last is not None and not last.cancelled and not s.settled(last):
            raise IllegalAction(
                f"[{ref.name}]的行动#{last.id}还在前摇（{fmt(last.effective_end)}t结算）：规则书规定先完成的行动先结算，"
                f"然后才决定下一个行动。改主意可 .bat 取消；GM可代为连续宣言（.bat {ref.name}:属性 数值）"
            )
        return fn(s)

    return wrapped


def noted(replies: list[Reply], note: str | None) -> list[Reply]:
    """``replies`` with ``note`` as the first line of the first reply (if any)."""
    if note is None or not replies:
        return replies
    return [replace(replies[0], text=f"{note}\n{replies[0].text}"), *replies[1:]]


def weapon_action(
    call: Call,
    char: TLCharacter,
    ref: bt.ParticipantRef,
    arg: str | Amount,
    note: str,
    aim: str | None = None,
) -> Callable[[bt.BattleState], tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]]:
    weapon = char.weapon()
    if weapon.type == "other":
        raise IllegalAction("战斗指令不支持[其他]类型武器×")
    if weapon.type == "artillery":
        if arg == RELOAD:
            shots: int | None = None
        else:
            assert isinstance(arg, Amount)
            if arg.time:
                raise IllegalAction("武器指令错误× 火力武器必须使用数字作为发射弹药数！")
            shots = int(r0(arg.value))

        def fire(
            s: bt.BattleState,
        ) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
            new, action, events = ba.artillery_action(s, ref, weapon, shots, note=note, target=aim)
            return new, (new, action, events)

        return fire
    if not isinstance(arg, Amount):
        raise call.usage_error("增幅武器需要影响数值或前摇t")
    value = char.check(weapon.attribute or "strength")
    impact, time = (None, arg.value) if arg.time else (arg.value, None)

    def swing(s: bt.BattleState) -> tuple[bt.BattleState, tuple[bt.BattleState, bt.Action, list[bt.Event]]]:
        new, action, events = ba.amplifier_action(
            s, ref, weapon, value, impact=impact, time=time, note=note, target=aim
        )
        return new, (new, action, events)

    return swing


__all__ = [
    "RELOAD",
    "Recorded",
    "enlisting",
    "in_secret",
    "noted",
    "one_at_a_time",
    "overload_gate",
    "weapon_action",
]
