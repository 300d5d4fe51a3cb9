"""Interactions (交互) and control effects (控制效果) on the battle timeline.

Rule book (战斗 → 时间轴, 交互, 控制效果; 构筑基本法 第二条):

* actions are (left-open, right-closed]: at the moment an action starts it is only being
  prepared and does not interact; in its windup or at the moment it resolves it does;
* 交互 (line 531: 打断、闪避、招架等会影响对方或被对方影响的对抗行为; line 533: 大者减小者 is what
  the larger side achieves; line 535: 气功波 200 vs 护盾 150 → 50, a shield above 200 → nothing):
  only an action *declared* as one of these interacts; anything else is simply hit in full;
* 控制效果: the duration is the windup the target needs to resist the caster's impact with the
  attribute named for it: ``T = 20·I/A`` (F13; 侵蚀: 意志, 精神控制: 意志, 看守: 体质).

Readings where the book is silent (a GM's reading, documented here):

* an action's interaction kind is declared by how its note begins (``.bat 敏捷 100 闪避``,
  ``.bat 力量 150 >乙 打断``; :func:`declared_kind`), so old inputs keep working and nothing new
  is stored;
* an action *aimed* at a target (``.bat 力量 150 >乙``) that resolves while the target's own
  action is in its windup (or resolves at the same moment) is judged (issue 25 defect 4):

  - the target's action is 闪避/招架/护盾 (aimed at nobody or at the attacker): it subtracts —
    ``max(0, I_a − I_x)`` lands;
  - the resolving action is 打断: the two impacts are compared; the larger wins, and an
    interrupt that wins stops the windup — the bot says so and the GM confirms it with
    ``.bat 取消 #N`` (the book does not say that anything of a failed interrupt lands);
  - otherwise the target is not defending: the full impact lands;

  the bot reports it and the GM records it (``.crd 乙:hp -50 #M``).  Not done: a 护盾 that lasts
  beyond its own resolution, a 闪避 that moves its owner, 招架 that hits back;
* a control effect (眩晕 and the like) holds the target from the moment the controlling action
  resolves for ``T``: an action in its windup then is paused and resolves ``T`` later, actions
  declared after it move back by as much, and nothing of the target starts inside the window
  (``[start, end)``).  An action resolving exactly at that moment has resolved (right-closed);
  one starting exactly then is only being prepared: the book (时间轴: 开始的一刻……不会进行交互
  判定, 例如打断, 眩晕) does not interrupt it, and we read that it still cannot start while
  its owner is controlled, so it waits for the end of the control — ``.bat 控制`` tells the GM
  this reading in its reply (issue 25);
* re-chaining keeps each action's 推进 wait (:attr:`Action.not_before`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal, NamedTuple

from chronodice.core.errors import IllegalAction

from .battle import Action, BattleState, Event, new_event, rechain, replace_actions, settle
from .battle_state import outside_stuns
from .checks import interaction, windup
from .effects import DEFENCES, ON_CARDS, Kind, read_kind
from .rounding import fmt, r1, r2

INTERRUPT = "打断"
LEGACY = (INTERRUPT, *DEFENCES)
"""The kinds an action stored before kinds existed declared by how its note began."""
HOSTILE = ("伤害", "精神伤害", "控制", "减益")
"""The kinds a defence (闪避/招架/护盾) in windup subtracts from."""

Rule = Literal["defence", "interrupt", "full"]


def declared_kind(note: str) -> str | None:
    """The interaction kind an action stored before kinds existed was declared as: its note
    starting with 打断/闪避/招架/护盾; None for anything else.

    >>> declared_kind("闪避"), declared_kind(" 打断施法"), declared_kind("重拳"), declared_kind("")
    ('闪避', '打断', None, None)
    """
    text = note.strip()
    return next((k for k in LEGACY if text.startswith(k)), None)


def effect_of(a: Action) -> Kind:
    """What ``a``'s impact is: its kind fixed at declaration (:attr:`Action.effect`); an action
    stored before kinds existed keeps the reading it was declared under (a note starting with
    打断/闪避/招架/护盾, else a hit in full: 伤害)."""
    if a.effect:
        return a.effect  # type: ignore[return-value]
    return declared_kind(a.note) or "伤害"  # type: ignore[return-value]


def residual_kind(a: Action) -> Kind:
    """What the rest of a winning 打断 does (book 交互: 大者减小者 is what the larger achieves): the
    kind its note names after 打断 (``打断 精神冲击`` → 精神伤害), else 伤害."""
    rest = a.note.replace(INTERRUPT, "", 1)
    kind = read_kind(rest)
    return kind if kind is not None and kind in ON_CARDS else "伤害"


class Interaction(NamedTuple):
    """``action`` resolved at ``action.end`` while ``other`` (the target's) was in its windup."""

    action: Action
    other: Action
    winner: str
    """"a" (the resolving action), "b" (the target's) or "tie": the book's comparison."""
    left: float
    """The larger impact minus the smaller (book 交互)."""
    rule: Rule = "full"
    """Which rule applied: ``other`` defends, ``action`` interrupts, or neither (full hit)."""
    kind: str | None = None
    """The declared kind that decided it (闪避/招架/护盾 of ``other``, 打断 of ``action``)."""
    landed: float = 0.0
    """What ``action`` achieves on the target: the full impact, or what gets past the defence."""


def judge(a: Action, x: Action) -> Interaction:
    """Rule ``a`` (resolving, aimed at ``x``'s owner) against ``x`` (in its windup then).

    >>> from .battle_state import Action as Act
    >>> hit = Act(1, "c1", 0, 3, 200, note="", target="c2")
    >>> [judge(hit, Act(2, "c2", 0, 3, 150, note=n))[3:] for n in ("护盾", "招架", "")]
    [(50.0, 'defence', '护盾', 50.0), (50.0, 'defence', '招架', 50.0), (50.0, 'full', None, 200.0)]
    >>> judge(hit, Act(2, "c2", 0, 5, 250, note="闪避"))[2:]
    ('b', 50.0, 'defence', '闪避', 0.0)
    >>> cut = Act(1, "c1", 0, 3, 80, note="打断", target="c2")
    >>> judge(cut, Act(2, "c2", 0, 5, 30))[2:], judge(cut, Act(2, "c2", 0, 5, 90))[2:]
    (('a', 50.0, 'interrupt', '打断', 50.0), ('b', 10.0, 'interrupt', '打断', 0.0))
    """
    winner, left = interaction(a.impact, x.impact)
    mine, theirs = effect_of(a), effect_of(x)
    if mine == INTERRUPT:
        return Interaction(a, x, winner, left, "interrupt", mine, left if winner == "a" else 0.0)
    if theirs in DEFENCES and x.target in (None, a.key) and mine in HOSTILE:
        return Interaction(a, x, winner, left, "defence", theirs, left if winner == "a" else 0.0)
    return Interaction(a, x, winner, left, "full", None, float(a.impact))


def interactions_of(state: BattleState, a: Action) -> list[Interaction]:
    """The target's actions that ``a`` meets when it resolves (none if it has no target), each
    judged by :func:`judge`.  A defence (闪避/招架/护盾) aimed at someone says whom it guards
    against: it does not hit them (found playing: ``.bat 敏捷 50 >白鸦 闪避`` was announced as
    巫妖 hitting 白鸦 in full)."""
    if a.target is None or a.cancelled or effect_of(a) not in (INTERRUPT, *HOSTILE):
        return []
    return [judge(a, x) for x in state.actions_of(a.target) if x.active_at(a.end)]


def lost_interrupts(state: BattleState, x: Action) -> list[Action]:
    """The interrupts (打断) aimed at ``x``'s owner that resolved during ``x``'s windup and lost to
    it: book 交互, the larger minus the smaller is what the larger achieves, so ``x`` does only
    its impact less theirs (打断萨满#5 60 against #5's 100: #5 lands 40)."""
    out = []
    for i in state.actions:
        if i.key == x.key or i.target != x.key or i.cancelled or effect_of(i) != INTERRUPT:
            continue
        if i.end < x.end and x.active_at(i.end) and state.settled(i) and i.impact < x.impact:
            out.append(i)
    return out


def effective_impact(state: BattleState, x: Action) -> float:
    """``x``'s impact less what interrupts it beat took off it (never below 0)."""
    lost = lost_interrupts(state, x)
    return max(0.0, r1(x.impact - sum(i.impact for i in lost))) if lost else float(x.impact)


def interrupt(state: BattleState, source: Action, x: Action) -> BattleState:
    """A won 打断: ``x`` (in its windup when ``source`` resolved) stops at that moment, as
    ``.bat 取消`` stops an action at the clock; its owner's later actions move up."""
    stopped = replace(x, cancelled_at=max(x.start, source.end))
    state = replace_actions(state, {x.id: stopped})
    state = rechain(state, x.key, x.id)
    state, _ev = new_event(state, x.key, "cancel", time=source.end, ref=x.id)
    return settle(state)


def why_not(a: Action, b: Action) -> str | None:
    """None when the two actions interact; else why not, in Chinese (for ``.clash``)."""
    for x in (a, b):
        if x.cancelled_at is not None and x.cancelled_at == x.start:
            return f"行动#{x.id}在开始前已取消"
    if (not a.cancelled and b.active_at(a.end)) or (not b.cancelled and a.active_at(b.end)):
        return None
    if a.key == b.key:
        return "同一角色的行动依次进行，不会相互交互"

    def span(x: Action) -> str:
        end = f"取消于{fmt(x.effective_end)}t" if x.cancelled else f"{fmt(x.end)}t结算"
        return f"#{x.id} {fmt(x.start)}t开始、{end}"

    first, second = sorted((a, b), key=lambda x: x.effective_end)
    return (
        f"两个行动在时间上不重叠（{span(first)}；{span(second)}）：一方结算时另一方不在前摇中"
        "（行动开始的一刻只是准备，不构成交互）"
    )


def control_duration(impact: float, resist: float) -> float:
    """控制效果的持续时间 = the target's windup for the caster's impact with the resisting
    attribute: ``T = 20·I/A`` r2 (侵蚀 150 vs 意志 150 → 20t; vs 115 → 26.09t)."""
    return windup(impact, resist)


def apply_control(
    state: BattleState, source_id: int, target: str, duration: float
) -> tuple[BattleState, Event, list[Action]]:
    """Control ``target`` from the moment action ``source_id`` resolved, for ``duration`` t.

    Returns the state, the ``stun`` event and the target's actions that moved (as they are now).
    The controlling action must have resolved; in the opening, which has no clock yet, the GM
    starts the battle first (``.bat 开始``)."""
    if not state.started:
        # the opening has no clock yet: a control there could push back an action whose own
        # effect is already entered (found by the random-play invariants), so the GM starts first
        raise IllegalAction("还在开场，战斗时间未开始：请GM先 .bat 开始，行动结算后再 .bat 控制")
    source = state.action(source_id)
    p = state.participant(target)
    if p is None or p.status != "active":
        raise IllegalAction("控制目标不在战斗中")
    if source.cancelled:
        raise IllegalAction(f"行动#{source_id}已取消，不能造成控制")
    if source.end > state.clock:
        raise IllegalAction(
            f"行动#{source_id}在{fmt(source.end)}t结算，尚未发生（当前战斗时间{fmt(state.clock)}t）"
        )
    at, until = source.end, r2(source.end + duration)
    before = {a.id: a for a in state.actions_of(target)}
    state, ev = new_event(state, target, "stun", time=at, after=until, ref=source_id)
    own = [a for a in state.actions_of(target) if not a.cancelled]
    paused = next((a for a in own if a.start < at < a.end), None)
    if paused is not None:
        state = replace_actions(state, {paused.id: replace(paused, delay=r2(paused.delay + duration))})
        state = rechain(state, target, paused.id)
    else:
        resolved = [a for a in state.actions_of(target) if a.effective_end <= at]
        if resolved:
            state = rechain(state, target, resolved[-1].id)
        else:
            first = state.actions_of(target)[0] if state.actions_of(target) else None
            if first is not None and first.start < until:
                # not into another stun either (a control entered later may reach back before
                # one already on the timeline: found by the random-play invariants)
                start = outside_stuns(state, target, until)
                # as in ``rechain``: void stays void, and one cancelled before its new start
                # (0.2t, pushed to 0.33t by the stun) never started at all
                void = first.cancelled_at is not None and (
                    first.cancelled_at == first.start or first.cancelled_at < start
                )
                moved = replace(first, start=start, cancelled_at=start if void else first.cancelled_at)
                state = replace_actions(state, {first.id: moved})
                state = rechain(state, target, first.id)
    state = settle(state)
    moved_actions = [a for a in state.actions_of(target) if before.get(a.id) != a]
    return state, ev, moved_actions


__all__ = [
    "DEFENCES",
    "HOSTILE",
    "INTERRUPT",
    "LEGACY",
    "Interaction",
    "Rule",
    "apply_control",
    "control_duration",
    "declared_kind",
    "effect_of",
    "effective_impact",
    "interactions_of",
    "interrupt",
    "judge",
    "lost_interrupts",
    "residual_kind",
    "why_not",
]
