"""Turn advance: start the combat, end (or skip) the current turn, delay it, end the combat;
the read-only forecast of the next turns.  The flow itself is :class:`.loop.Engine`."""

from __future__ import annotations

from chronodice.core.errors import IllegalAction

from ..model import Combat, Phase, PreTurn
from .loop import Engine, copy_state, require_current, require_phase, transition


@transition
def start(eng: Engine) -> None:
    """START: round 1, run to the first turn (``.init start``)."""
    st = eng.st
    require_phase(st, Phase.SETUP)
    if not st.combatants:
        raise IllegalAction("还没有参战者（.ri 或 .init add 加入）")
    st.phase = Phase.ACTIVE
    st.round = 1
    eng.emit("start", variant=st.variant.value)
    eng.run("round_start")


@transition
def end_turn(eng: Engine, *, expected_turn: int | None = None, skip: bool = False) -> None:
    """END_TURN of the current actor (``.init next``; ``skip=True`` for ``.init skip``).

    ``expected_turn`` is the ``turn_no`` the sender saw: when the turn has moved on meanwhile
    (two people advancing at once, C02), nothing happens and IllegalAction says so.
    """
    st = eng.st
    require_phase(st, Phase.ACTIVE)
    if expected_turn is not None and expected_turn != st.turn_no:
        who = st.maybe(st.current)
        now = f"{who.shown} 的回合（第{st.tick}刻）" if who else "下一阶段"
        raise IllegalAction(f"回合已经推进到 {now}，没有重复推进")
    if st.waiting:
        st.waiting = False
        st.empty_rounds = 0
        eng.emit("resume")
        eng.run("round_start")
        return
    require_current(st)
    eng.end_turn("skip" if skip else "next")


@transition
def delay(eng: Engine) -> None:
    """DELAY the current actor (``.延后``), undoing her turn-start processing."""
    st = eng.st
    c = require_current(st)
    if c.busy:
        raise IllegalAction(f"{c.shown} 本回合已经行动过，不能延后")
    pre = c.pre_turn or PreTurn(ap=c.ap, mov=c.mov, actions_left=c.actions_left)
    c.ap, c.mov, c.ma_used, c.ra_used, c.actions_left = (
        pre.ap,
        pre.mov,
        pre.ma_used,
        pre.ra_used,
        pre.actions_left,
    )
    for saved in pre.effects:
        existing = st.effect(saved.id)
        if existing is not None:
            existing.remaining = saved.remaining
        elif st.maybe(saved.bearer) is not None:
            st.effects.append(saved)
            st.effects.sort(key=lambda e: e.id)
            eng.emit("effect_restored", effect=saved.name, bearer=saved.bearer)
            if saved.init_mod is not None:
                eng.refresh_init(saved.bearer)
    tick = st.tick
    eng.rules.delay(c, tick, st.options)
    st.queue = [q for q in st.queue if q != c.id]
    c.turn_started = False
    c.pre_turn = None
    st.current = None
    position = eng.rules.tick_position(c)
    eng.emit("delay", cid=c.id, cur=c.cur, lost=position is None or position >= tick)
    eng.after_turn()


# --------------------------------------------------------------------------- end
@transition
def end(eng: Engine) -> None:
    """END: the summary (rounds, turns per combatant, remaining effects); effects are discarded."""
    st = eng.st
    require_phase(st, Phase.SETUP, Phase.ACTIVE)
    eng.emit(
        "end",
        rounds=st.round,
        turns={c.id: c.turns_total for c in st.combatants},
        names={c.id: c.name for c in st.combatants},
        effects=[(e.bearer, e.name) for e in st.effects],
    )
    st.phase = Phase.ENDED
    st.current = None
    st.queue = []
    st.effects = []


# --------------------------------------------------------------------------- read-only
def forecast(state: Combat, n: int = 4, *, consume: bool = False) -> list[tuple[int, int, str]]:
    """The next ``n`` turns after the current one, as (round, tick, combatant id), assuming
    every turn simply ends (tick20.md §4.3 "接下来").  ``consume``: simulate on ``state`` itself
    instead of a copy (for a caller that reads nothing of it afterwards)."""
    if state.phase is not Phase.ACTIVE or state.current is None or state.waiting:
        return []
    work = state if consume else copy_state(state)
    work.log = []
    eng = Engine(work)
    out: list[tuple[int, int, str]] = []
    for _ in range(n):
        eng.end_turn("next")
        if work.current is None or work.waiting:
            break
        out.append((work.round, work.tick, work.current))
    return out


@transition
def jump_to(eng: Engine, cid: str) -> None:
    """The GM jumps to ``cid``'s turn (issue 26): every turn before hers is skipped (``.init
    skip``) — at most up to her turn in the next round; refused when she has none coming."""
    st = eng.st
    require_phase(st, Phase.ACTIVE)
    target = st.get(cid)
    if eng.out(target):
        raise IllegalAction(f"{target.shown} 已经不再行动")
    for _ in range(2 * len(st.combatants) + 2):
        if st.current == cid:
            return
        if st.waiting:
            st.waiting = False
            st.empty_rounds = 0
            eng.emit("resume")
            eng.run("round_start")
            continue
        require_current(st)
        eng.end_turn("skip")
    if st.current != cid:
        raise IllegalAction(f"到下一轮结束前都没有 {target.shown} 的回合")


def first_round_order(state: Combat) -> list[str]:
    """The order round 1 will run in, seen from setup (issue 26: the list before ``.init start``
    showed ties in join order while the round ran them by the tie rule — GM-played first among
    hostile sides, ``.init first/swap``).  Simulates the round start on a copy, so the list and
    the round agree by construction."""
    work = copy_state(state)
    work.log = []
    eng = Engine(work)
    for c in work.combatants:
        eng.rules.round_start(c, 1, work.options)
        if c.surprised:
            eng.rules.surprise(c)
    return eng.compute_round_order()


def g_of(round_no: int, tick: int) -> int:
    """The global tick serial: round 1 tick 20 is G = 1.

    >>> g_of(2, 17)
    24
    """
    return 20 * (round_no - 1) + (21 - tick)
