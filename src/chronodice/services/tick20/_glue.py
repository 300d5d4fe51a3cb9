"""Store glue shared by the D20 tick commands: the group's combat in and out of the store, who the
GMs are (for the one permission policy, :mod:`chronodice.core.permissions`), controller checks,
looking up combatants named in a command, whispers to the GMs.

Each state-changing command is one store transaction (:func:`apply`): load the group's combat, run
the pure engine (:mod:`chronodice.rules.tick20.engine`), save with compare-and-set.  Randomness is
rolled *before* the transaction, so a retried transaction never rolls twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from chronodice.core.commands import UNDO_HIDDEN, Call
from chronodice.core.context import Context
from chronodice.core.errors import IllegalAction, NotFound, NotPermitted
from chronodice.core.ids import session_id
from chronodice.core.permissions import Perm, is_gm, require
from chronodice.core.reply import Reply
from chronodice.render.tick20 import hidden_turn
from chronodice.render.tick20_health import name_of
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20 import health as hp
from chronodice.rules.tick20.mental import is_mental
from chronodice.rules.tick20.model import Combat, Combatant, Event, Phase
from chronodice.services.tick20.codec import COMBAT_CODEC

from ..views import group_of

SYSTEM = "tick20"
SYS_NAME = "D20刻度"
GM_WHO = "本场战斗的GM（开战者、.init gm 指定者）或群管理"
"""Who may run the combat, as refusals name them (the policy's GM plus the combat's own GMs)."""
MAX_BATCH = 12
HOLD_MAX = 40
"""Events one hidden stretch keeps back for the next visible turn card (it shows its last 8 lines)."""
ADVANCE_FROM = frozenset({"turn_end", "delay", "round_start", "coma_skip", "turn"})
"""The first event of a command's turn advance: what comes before it (an attack's wounds, the
AP it spent) is the command's own reply, not the turn card's."""
NOT_ON_CARD = frozenset({"removed"})


def holds_hidden(state: Any) -> bool:
    """Whether a stored combat (its plain form) has a hidden combatant (``.undo`` then names the
    undone command only privately: ``.hp 幽灵 +1`` would name the NPC)."""
    if not isinstance(state, dict):
        return False
    return any(isinstance(c, dict) and c.get("hidden") for c in state.get("combatants") or ())


UNDO_HIDDEN[SYSTEM] = holds_hidden

Fn = Callable[[Combat | None], E.Outcome]
T = TypeVar("T")


# --------------------------------------------------------------------------- store glue
def _running(state: Combat | None) -> Combat | None:
    return None if state is None or state.phase == Phase.ENDED else state


async def load(call: Call) -> Combat | None:
    """The running combat of the command's group: as this command last read or wrote it, else
    read now (and kept on the call for the rest of the command)."""
    if SYSTEM not in call.session:
        call.session[SYSTEM] = await call.app.store.sessions.load_state(call.ctx.scope, COMBAT_CODEC)
    return _running(call.session[SYSTEM])


async def apply(call: Call, fn: Fn) -> tuple[Combat, list[Event]]:
    """Run ``fn`` on the stored combat inside one transaction (retried on a lost race)."""

    def step(stored: Combat | None) -> tuple[Combat | None, E.Outcome]:
        state = _running(stored)
        if state is None:
            outcome = fn(state)
        else:
            outcome = fn(state.give_away())  # a fresh parse for this attempt: no copy per transition
        hold(outcome)
        return outcome.state, outcome

    outcome: E.Outcome = await call.app.store.sessions.apply_state(
        call.ctx.scope,
        COMBAT_CODEC,
        step,
        user_id=call.ctx.user_id,
        command=call.command_text,
        claim=call.claim,
    )
    call.session[SYSTEM] = outcome.state
    return outcome.state, outcome.events


def hold(outcome: E.Outcome) -> None:
    """Keep back (or let go) a turn card's events, inside the command's transaction (issue 39:
    a hidden combatant's turns are not shown in the group, :mod:`.hiding`).

    When the command moved the turn on to a hidden combatant, the events of the advance join
    :attr:`Combat.held`; when it moved the turn on to a visible one (or the combat paused or
    ended), the held events are released, and that turn card shows them before its own: the
    group reads the lines it would have read without the hidden combatant, only later."""
    st, events = outcome
    moved = any(e.kind == "turn" for e in events)
    if moved and hidden_turn(st):
        start = next((i for i, e in enumerate(events) if e.kind in ADVANCE_FROM), len(events))
        kept = [e for e in events[start:] if e.kind not in NOT_ON_CARD]
        st.held = [*st.held, *kept][-HOLD_MAX:]
    elif st.held and (moved or st.waiting or st.phase is not Phase.ACTIVE):
        st.release()


def fresh(owner: str, **options: Any) -> Combat:
    """A new combat (undo goes through the store's session log) with its own session id."""
    combat = E.new_combat(owner, **options)
    combat.session_id = session_id()
    return combat


def need(state: Combat | None) -> Combat:
    if state is None:
        raise IllegalAction("本群没有进行中的战斗（.init begin 开始）")
    return state


def each(state: Combat, items: Iterable[T], step: Callable[[Combat, T], E.Outcome]) -> E.Outcome:
    """Run ``step(state, item)`` for every item in turn: one outcome with all the events."""
    events: list[Event] = []
    for item in items:
        state, evs = step(state, item)
        events += evs
    return E.Outcome(state, events)


# --------------------------------------------------------------------------- permissions
async def gm_scope(call: Call, state: Combat | None) -> dict[str, Any]:
    """The GM lists the policy judges by: the group's appointed GMs (``gms``) and this combat's
    own GMs, its opener and ``.init gm`` appointees (``extra``)."""
    group = await group_of(call)
    return {"gms": tuple(group.gms), "extra": tuple(state.gms) if state is not None else ()}


async def gm(call: Call, state: Combat | None) -> bool:
    """Whether the sender is a GM of this combat under the one policy."""
    return is_gm(call.ctx, **await gm_scope(call, state))


async def must_be_gm(call: Call, state: Combat | None, what: str) -> None:
    """``permissions.require(ctx, Perm.GM, what, gms=group.gms, extra=state.gms, who=GM_WHO)``."""
    require(call.ctx, Perm.GM, what, **await gm_scope(call, state), who=GM_WHO)


def controls(ctx: Context, c: Combatant) -> bool:
    return c.controller == ctx.user_id


async def require_control(call: Call, state: Combat, c: Combatant, what: str) -> None:
    if controls(call.ctx, c) or await gm(call, state):
        return
    raise NotPermitted(f"只有 {name_of(state, c.id)} 的玩家或 GM 可以{what}")


def whisper_gms(state: Combat, text: str, sender: str) -> list[Reply]:
    """Private messages to the combat's GMs (the sender at least)."""
    targets = list(dict.fromkeys([sender, *state.gms]))[:3]
    return [
        Reply.whisper(text, to_user=uid, fallback="（给GM的私聊发送失败，请先加骰娘为好友）")
        for uid in targets
    ]


def gm_ids(state: Combat, c: Combatant | None = None) -> list[str]:
    """Who runs ``c`` (its controller), else the combat's GMs (its opener at least)."""
    if c is not None and c.controller:
        return [c.controller]
    return list(dict.fromkeys([*state.gms, *([state.owner] if state.owner else [])]))[:3]


def find_me(state: Combat, ctx: Context) -> Combatant:
    mine = [c for c in state.combatants if c.controller == ctx.user_id]
    if not mine:
        raise NotFound("你还没有参战者（.ri 加入）")
    current = [c for c in mine if c.id == state.current]
    return current[0] if current else mine[0]


def target_of(state: Combat, ctx: Context, word: str, *, hidden: bool = True) -> Combatant:
    """``word``'s combatant (我/me/自己: the sender's); ``hidden=False``: as a player sees the
    combat, without hidden combatants (see :func:`find`)."""
    if word in ("我", "me", "自己"):
        return find_me(state, ctx)
    return E.find(state, word, hidden=hidden)


async def find(call: Call, state: Combat, word: str) -> Combatant:
    """:func:`target_of` as the sender may see the combat: a hidden combatant exists only for a
    GM (for anyone else the answer is the one for a name nobody has)."""
    return target_of(state, call.ctx, word, hidden=await gm(call, state))


async def gm_op(call: Call, what: str, fn: Callable[[Combat], E.Outcome]) -> tuple[Combat, list[Event]]:
    """A GM-only transition on the running combat."""
    state = need(await load(call))
    await must_be_gm(call, state, what)
    return await apply(call, lambda st: fn(need(st)))


# --------------------------------------------------------------------------- the bot's own checks
def check_dice(call: Call, state: Combat | None, *, extra: int = 0) -> list[int]:
    """d20 faces for the checks the engine may make itself in this command (濒死检定 at a round
    start, the 力竭 check), rolled before the transaction so a retry never rolls again.  Two per
    possible check (disadvantage); none when no check can come, so other commands' rolls are
    untouched."""
    checks = extra
    if state is not None:
        checks += sum(len(hp.dying_checks(c.health, False)) for c in state.combatants)
    return [call.app.rng.randint(1, 20) for _ in range(2 * min(checks, 60))]


def mind_dice(call: Call, c: Combatant, tags: list[str] | tuple[str, ...]) -> list[int]:
    """The d20s of the 力竭 check a 精神伤害 to ``c`` may make (``.wound``, ``.atk``): none for a
    physical damage, or while her SP is above 0 (002: the check follows a loss while <力竭>)."""
    sp = c.health.sp
    return check_dice(call, None, extra=1) if is_mental(tags) and sp is not None and sp <= 0 else []
