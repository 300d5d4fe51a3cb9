"""The battle commands that move the clock: one logged write, the resolution feed, automatic
damage and the compact reply (issue 25 defects 6 and 10).

Every ``.bat`` command that can settle actions (a declaration, ``推进``, ``取消``, ``out``,
``开始``, ``控制``) goes through :func:`move_clock`: the pure transition runs on the group's battle
in one logged store transaction (so ``.undo`` reverts it), and what it settled is resolved by
:func:`chronodice.rules.timeline.resolution.play` — the reply lists each action with what it
did.  Where the GM turned automatic damage on for the battle (``.bat 自动伤害 开``,
:mod:`.options`) each hit is applied to its target's card as ``.crd 目标:hp -N #k`` would be,
in the same logged command: ``.undo`` puts the battle and the cards back together.

Automatic damage needs the cards changed before the battle is written (the store's ``.undo``
keeps a card as it was with its version after).  So the transition runs once on the battle as
it is to learn which hits settle, the cards are changed, and then the battle is written with
those changes replayed.  Should another command change the battle in between, the replay gives
the recorded hits only to the actions that still settle; any other hit is offered as the ready
command.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic

from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction
from chronodice.core.ids import session_id
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.render.timeline_feed import clock_line, feed_lines, fit
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.character import TLCharacter, change_resource
from chronodice.rules.timeline.effects import ON_CARDS
from chronodice.rules.timeline.interactions import effect_of
from chronodice.rules.timeline.modifiers import resource_change
from chronodice.rules.timeline.resolution import Applied, Resist, Resolution, play
from chronodice.rules.timeline.rounding import r1
from chronodice.services.timeline.codec import BATTLE_CODEC
from chronodice.store import CharacterRecord

from ._common import SYSTEM, T, load_tl, mutate_tl
from .secrets import gm_prompts, group_view, holding
from .views import battle_vitals

CardBefore = tuple[CharacterRecord, int]
"""A card as it was before this command and its version after (for ``.undo``)."""


async def apply_battle(
    call: Call,
    fn: Callable[[bt.BattleState], tuple[bt.BattleState | None, T]],
    *,
    create: bool = False,
    characters_before: Sequence[CardBefore] = (),
) -> T:
    """Run the pure transition ``fn`` on this group's battle in one logged store transaction
    (``create``: start one when there is none)."""

    def outer(state: bt.BattleState | None) -> tuple[bt.BattleState | None, T]:
        if state is None:
            if not create:
                raise IllegalAction("没有战斗数据×")
            state = bt.new_battle(session_id())
        return fn(state)

    return await call.app.store.sessions.apply_state(
        call.ctx.scope,
        BATTLE_CODEC,
        outer,
        user_id=call.ctx.user_id,
        command=call.command_text,
        characters_before=characters_before,
        claim=call.claim,
    )


@dataclass(frozen=True)
class Moved(Generic[T]):
    """What a clock-moving command did: the battle before and after, the transition's own
    result, and each action it settled with what it did."""

    before: bt.BattleState
    after: bt.BattleState
    result: T
    resolutions: list[Resolution]


def hurt(char: TLCharacter, amount: float, kind: str = "伤害") -> tuple[TLCharacter, Applied]:
    """``char`` after a settled action of ``amount`` of ``kind`` (:data:`.effects.ON_CARDS`):
    伤害 and 精神伤害 as ``.crd 名:hp -amount`` / ``mp -amount`` apply them (the card's ``.dr``
    rows, no damage type), 治疗 as ``.crd 名:hp +amount`` (up to the maximum)."""
    resource, sign = ON_CARDS.get(kind, ("hp", -1))  # type: ignore[call-overload]
    delta = sign * amount
    if sign < 0 and char.reductions:
        delta = resource_change(delta, resource, char.level, list(char.reductions), None).result
    new, old, after = change_resource(char, resource, delta)
    full = char.resources.hp_full if resource == "hp" else char.resources.mp_full
    return new, Applied(r1(after - old), old, after, full, resource)


async def move_clock(
    call: Call,
    fn: Callable[[bt.BattleState], tuple[bt.BattleState, T]],
    *,
    create: bool = False,
    characters_before: Sequence[CardBefore] = (),
) -> Moved[T]:
    """Run ``fn`` like :func:`apply_battle` and resolve what it settled (automatic damage
    applied when the battle has it on)."""
    current = await call.app.store.sessions.load_state(call.ctx.scope, BATTLE_CODEC)
    applied: dict[int, Applied] = {}
    cards = list(characters_before)
    resist = await resistances(call, current) if current is not None else None
    if current is not None and current.auto_damage:
        plan = await _plan(call, current, fn, resist)
        applied, changed = await _apply(call, current, plan)
        cards.extend(changed)

    def outer(s: bt.BattleState) -> tuple[bt.BattleState, Moved[T]]:
        new, result = fn(s)
        damage = (lambda r, _key: applied.get(r.action.id)) if applied else None
        final, resolutions = play(s, new, damage, resist)
        return final, Moved(s, final, result, resolutions)

    return await apply_battle(call, outer, create=create, characters_before=cards)


async def resistances(call: Call, current: bt.BattleState) -> Resist | None:
    """The check values a control still to resolve needs (its target's resisting attribute,
    from the target's card), read before the pure transition runs; None when none waits."""
    wanted = {
        (a.target, a.resist)
        for a in current.actions
        if a.resist and a.target and not a.cancelled and not current.settled(a) and effect_of(a) == "控制"
    }
    if not wanted:
        return None
    values: dict[tuple[str, str], float] = {}
    for key, attr in wanted:
        p = current.participant(key)
        rec = await call.app.store.characters.get_character(p.character_id) if p is not None else None
        if rec is not None and rec.system == SYSTEM and SYSTEM in rec.data:
            values[(key, attr)] = load_tl(rec).check(attr)
    return lambda key, attr: values.get((key, attr))


async def _plan(
    call: Call,
    current: bt.BattleState,
    fn: Callable[[bt.BattleState], tuple[bt.BattleState, Any]],
    resist: Resist | None,
) -> list[tuple[int, str, float, str]]:
    """The card changes automatic damage applies if ``fn`` runs on ``current``: (action, target,
    amount, kind) in the order they resolve, found on copies of the cards (nothing is written)."""
    new, _ = fn(current)
    chars: dict[str, TLCharacter] = {}
    for p in new.living():
        rec = await call.app.store.characters.get_character(p.character_id)
        if rec is not None and rec.system == SYSTEM and SYSTEM in rec.data:
            chars[p.key] = load_tl(rec)
    plan: list[tuple[int, str, float, str]] = []

    def simulate(r: Resolution, key: str) -> Applied | None:
        char = chars.get(key)
        if char is None:
            return None
        chars[key], result = hurt(char, r.landed, r.kind)
        plan.append((r.action.id, key, r.landed, r.kind))
        return result

    play(current, new, simulate, resist)
    return plan


async def _apply(
    call: Call, current: bt.BattleState, plan: list[tuple[int, str, float, str]]
) -> tuple[dict[int, Applied], list[CardBefore]]:
    """Apply the planned changes to the cards; returns each one's change and each card as it was
    (first change) with its version after the last (one entry per card, for ``.undo``)."""
    applied: dict[int, Applied] = {}
    first: dict[int, CardBefore] = {}
    for action_id, key, amount, kind in plan:
        p = current.participant(key)
        rec = await call.app.store.characters.get_character(p.character_id) if p else None
        if rec is None or rec.system != SYSTEM:
            continue
        undo: dict[str, Any] = {}
        _, _, result = await mutate_tl(call, rec, functools.partial(hurt, amount=amount, kind=kind), undo)
        applied[action_id] = result
        before, version = undo["before"]
        first[rec.id] = (first[rec.id][0] if rec.id in first else before, version)
    return applied, list(first.values())


async def battle_reply(
    call: Call,
    head: list[str],
    moved: Moved[Any],
    display: view.Display,
    *,
    fitted: bool = True,
    quiet: bool = False,
) -> list[Reply]:
    """``head``, the feed of ``moved``, then who is next (compact, at most six lines when
    ``fitted``) — or the whole timeline where the group asked for it (``.bat 详细 开``).

    The group sees the battle as :func:`.secrets.group_view` draws it (no hidden NPC, no secret
    action before it resolves); a GM whose secret NPC must declare is told privately.
    ``quiet``: nothing for the group when the command changed nothing it can see (a secret
    declaration that settled nothing)."""
    state = moved.after
    shown, shown_display = group_view(state, display)
    prompts = gm_prompts(moved.before, state)
    vitals = None
    if display.verbose or any(r.hit and r.applied is None for r in moved.resolutions):
        vitals = await battle_vitals(call, state)  # the cards: only where a line needs them
    lines = [*head, *feed_lines(moved.resolutions, state, display, vitals)]
    if display.verbose:
        lines.append(view.timeline_text(shown, shown_display, vitals=vitals))
        return [Reply.say("\n".join(lines)), *prompts]
    clock = clock_line(shown, display)
    if quiet and not lines and clock == clock_line(group_view(moved.before, display)[0], display):
        return prompts
    lines.append(clock)
    return [
        Reply(text="\n".join(fit(lines) if fitted else lines), mentions=due(moved.before, state)),
        *prompts,
    ]


def _holding(state: bt.BattleState) -> set[str]:
    """The players (not NPCs) the clock waits for: free at the clock, once the battle runs."""
    return {p.owner_id for p in holding(state) if not p.npc}


def due(before: bt.BattleState, after: bt.BattleState) -> tuple[str, ...]:
    """Whom to @ after a command (issue 39 defect 7): the players who must declare now and did
    not have to before it — once, not again at every command while they think.  NPCs are the
    GM's, who reads the ▶ line."""
    was = _holding(before) if before.clock == after.clock else set()
    return tuple(sorted(_holding(after) - was))


def settled_lines(
    before: bt.BattleState, after: bt.BattleState, display: view.Display
) -> tuple[bt.BattleState, list[str]]:
    """The battle and the feed of a change made outside ``.bat`` (``.crd 名:hp -N #k``: the first
    result the GM enters closes the opening, a death can move the clock on): timeline effects
    (a won interrupt, a debuff) are applied; no automatic damage there, and no control (no card
    was read for it): those are offered as ready commands."""
    final, resolutions = play(before, after)
    return final, feed_lines(resolutions, final, display)


def fit_replies(replies: list[Reply], display: view.Display) -> list[Reply]:
    """The first reply within the compact limit (nothing to do in the verbose form)."""
    if display.verbose or not replies:
        return replies
    return [replace(replies[0], text="\n".join(fit(replies[0].text.split("\n")))), *replies[1:]]


__all__ = [
    "Moved",
    "apply_battle",
    "battle_reply",
    "due",
    "fit_replies",
    "hurt",
    "move_clock",
    "settled_lines",
]
