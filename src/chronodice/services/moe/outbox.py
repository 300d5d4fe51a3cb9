"""What goes where: public lines to the group, hidden ones (hands, 奥秘, the options of a
private request) only by private message; the ``outbox`` that carries the public part of a
command typed in private chat to the group (delivered at least once, in order: see
:mod:`.delivery`); and the timeout sweeper.

Timeouts: every open request has a deadline (``deadline`` in the session); :func:`sweep` applies
the default answer when it passes (the plugin calls it every few seconds, also after a restart);
two timed-out turns in a row (one AFK turn counts once, however many requests it left) put a
player on 托管 until they act again; ``.moe timeout`` also moves the request already waiting.

One broken game (a desync, a pack that no longer loads, a damaged session) never stops the
others: the sweeper handles each group on its own, logs what went wrong with the group through
the ``chronodice`` logger, tells that group once (its deadline is cleared and ``error`` set in
the session, until a command saves the game again) and goes on with the rest.
"""

from __future__ import annotations

import random
from typing import Any

from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.render.moe_picture import table_picture
from chronodice.rules.moe import default_answer
from chronodice.rules.moe.ai import is_ai
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.record import to_record
from chronodice.store import StoreBusy

from . import choice, feed
from ._common import (
    SYSTEM,
    WAY_ON,
    GameBroken,
    fallback,
    is_fresh,
    load_game,
    log,
    names,
    run_auto,
    set_deadline,
)
from ._common import now as _clock_now
from .delivery import Send, deliver, forget_except, queue
from .numbers import number_map, renumber

BROKEN = "本群的萌E对局出错，已停止计时。" + WAY_ON
"""Told once to a group whose game the sweeper cannot handle (a game that does not rebuild is
told why: :class:`GameBroken`)."""
_told: set[tuple[str, int]] = set()
"""(group, session version) already told about an error that could not be saved in the session."""


def outcome(
    state: dict[str, Any],
    g: Game,
    events: list[dict[str, Any]],
    *,
    prompt: bool = True,
    actor: int | None = None,
    force: bool = False,
) -> list[Reply]:
    """Replies for what happened: the group message when the feed lets one go out
    (:mod:`.feed`: one message per action, the table picture at a round start), private lines
    and the open request to the players concerned — every seat a response window waits for.
    ``prompt=False``: the request is not new (a window some seats answered already), so it is
    not announced again.  ``actor``: the seat whose command this was; when its step is held
    from the group, it gets the step's public lines privately (its only news: nothing else)."""
    who = names(state)
    _public, private = R.render_events(g, events, who)
    renumber(state, g)
    flush = feed.advance(state, g, events, who, force=force)
    replies: list[Reply] = []
    if flush.text is not None:
        image = table_picture(g, who) if flush.round_start else None
        replies.append(Reply(text=flush.text, image=image))
    ask = g.pending if prompt else None
    if ask is not None and ask.reason == "character":
        ask = None  # everyone was sent their offer at once (:mod:`.choice`)
    asked = ask.waiting if ask is not None else []
    told = {*private, *asked}
    if flush.text is None and actor is not None and actor not in told and flush.news:
        private.setdefault(actor, []).extend(flush.news)
        told.add(actor)
    for seat in sorted(told):
        if is_ai(g, seat):
            continue  # an AI seat (one handed to the AI too) reads the game itself: nothing is sent
        lines = [R.fit_lines(away_lines(g, seat, private[seat]))] if seat in private else []
        if ask is not None and seat in asked:
            lines.append(prompt_for(state, g, ask.for_seat(seat), who))
        replies.append(
            Reply.whisper(
                "\n".join(lines), to_user=state["players"][seat]["user"], fallback=fallback(state, seat)
            )
        )
    return replies


AWAY_LINES = 6
"""Private lines kept for a seat on 托管 in one step (its chain of turns may be long)."""


def away_lines(g: Game, seat: int, lines: list[str]) -> list[str]:
    """A seat on 托管 gets the newest :data:`AWAY_LINES` of its private lines, not a screenful
    per turn played for it (issue 44); ``.moe hand`` shows the whole hand when it is back."""
    if not g.p(seat).auto or len(lines) <= AWAY_LINES:
        return lines
    skipped = len(lines) - AWAY_LINES
    return [f"（托管中，略去前{skipped}条；回来后发送 .moe hand 查看手牌）", *lines[-AWAY_LINES:]]


def prompt_for(state: dict[str, Any], g: Game, ask: Any, who: list[str]) -> str:
    """The private prompt of ``ask`` (one seat's view) with the seat's turn-long hand numbers;
    a play prompt shows the whole hand view only the first time in a turn."""
    numbers = number_map(state, g, ask.seat)
    full = True
    if ask.kind == "play":
        seen = state.setdefault("play_prompted", {})
        full = seen.get(str(ask.seat)) != g.state.turn_no
        seen[str(ask.seat)] = g.state.turn_no
    return R.private_prompt(g, ask, who, numbers, full=full)


def commit(
    state: dict[str, Any],
    g: Game,
    rec: dict[str, Any],
    at: float,
    *,
    private: bool = False,
    actor: int | None = None,
    force: bool = False,
) -> tuple[dict[str, Any], list[Reply]]:
    """Save the game into the session and render what happened.  For a command typed in private
    chat the public part is queued in the session's ``outbox`` (same transaction); the sweeper
    delivers it to the group, so nothing public is answered into the private chat and nothing
    private reaches the group.  A group command's public part is queued too while earlier texts
    still wait there: every group-visible text of a game goes out in the order things happened,
    whichever chat caused it.  No bare acknowledgement goes back: the sender hears the step's
    news or the next prompt, or nothing."""
    events = g.drain_events()
    state.pop("error", None)  # the game works again: a later error is told again
    state["record"] = to_record(g, rec)
    fresh = is_fresh(state, g)
    set_deadline(state, g, at)
    if g.finished:
        state["status"] = "over"
    replies = outcome(state, g, events, prompt=fresh, actor=actor, force=force)
    if private or state.get("outbox"):
        replies = hold(state, replies)
    return state, replies


def hold(state: dict[str, Any], replies: list[Reply]) -> list[Reply]:
    """Queue the public texts (and pictures) of ``replies`` in the session's outbox, for the
    sweeper to deliver (:mod:`.delivery`); returns the private ones."""
    for r in replies:
        if not r.private:
            queue(state, r.text, r.image)
    return [r for r in replies if r.private]


async def sweep(
    app: Any, now: float | None = None, *, send: Send | None = None
) -> list[tuple[str, list[Reply]]]:
    """Deliver queued group texts of private commands, and apply the default answer to every
    request whose deadline has passed.  Returns (group id, replies) pairs for the plugin to send.
    Everything it needs is in the database, so it works the same after a restart.

    With ``send`` (the plugin's) the outbox goes out through it at least once and in order, and
    is removed only once sent (:mod:`.delivery`); without, its texts are among the returned
    replies and count as delivered when returned (tests, callers that send themselves)."""
    at = _clock_now(app) if now is None else now
    out: list[tuple[str, list[Reply]]] = []
    sessions = await app.store.sessions.list_sessions(SYSTEM)
    forget_except(app, {scope for scope, _s, _v in sessions})
    for scope, state, version in sessions:
        if isinstance(state, dict) and state.get("outbox"):  # a broken game's too: it was said
            await _deliver(app, scope, at, send, out)
        if not state or (isinstance(state, dict) and state.get("error")):
            continue  # nothing there, or broken and told already (a saved command clears it)
        try:
            await _sweep_one(app, scope, state, at, out)
        except StoreBusy as exc:  # transient: the next sweep tries again
            log.warning("萌E: group %s skipped this sweep: %s", scope, exc)
        except Exception as exc:  # one broken game must not stop the others
            if not isinstance(exc, GameBroken):  # GameBroken was logged with its cause already
                log.error("萌E: sweeping the game of group %s failed: %r", scope, exc, exc_info=exc)
            if await _mark_broken(app, scope, version, exc):
                text = f"{exc}（已停止计时）" if isinstance(exc, GameBroken) else BROKEN
                out.append((scope, [Reply.say(text)]))
    return out


async def _deliver(
    app: Any, scope: str, at: float, send: Send | None, out: list[tuple[str, list[Reply]]]
) -> None:
    """The group's outbox: through ``send``, or into ``out`` when there is none."""
    if send is not None:
        await deliver(app, scope, at, send)
        return
    texts: list[Reply] = []

    async def collect(_scope: str, text: str, image: bytes | None = None) -> bool:
        texts.append(Reply(text=text, image=image))
        return True

    await deliver(app, scope, at, collect, claim=False)
    if texts:
        out.append((scope, texts))


async def _mark_broken(app: Any, scope: str, version: int, exc: Exception) -> bool:
    """Stop sweeping the group's game and note the error in its session; ``True`` the first time
    (the group is told once)."""

    def fn(st: Any) -> tuple[Any, bool | None]:
        if not isinstance(st, dict):
            return st, None  # not even a session we can mark
        if st.get("error"):
            return st, False
        return {**st, "deadline": None, "error": repr(exc)[:200]}, True

    try:
        marked = await app.store.sessions.apply_session(scope, SYSTEM, fn, command=".moe (error)", claim=None)
    except Exception as err:  # the session cannot even be saved: remember it in memory
        log.error("萌E: marking the game of group %s as broken failed: %r", scope, err)
        marked = None
    if marked is not None:
        return bool(marked)
    if (scope, version) in _told:
        return False
    _told.add((scope, version))
    return True


def timeout_note(st: dict[str, Any], g: Game, late: list[int]) -> str:
    """The group's line for seats whose request timed out: once per AFK turn (issue 44: a play
    phase and then a discard left by the same player made two lines); ``""`` for nobody new."""
    if not late:
        return ""
    who = "、".join(f"{s + 1}号{st['players'][s]['name']}" for s in late)
    auto = [s for s in late if g.p(s).auto]
    tail = "" if auto == late else "、".join(f"{s + 1}号" for s in auto)
    return f"{who}超时，按默认处理" + (f"，{tail}已进入托管" if auto else "")


async def _sweep_one(
    app: Any, scope: str, state: dict[str, Any], at: float, out: list[tuple[str, list[Reply]]]
) -> None:
    """The timeout of one group's game (its outbox was delivered just before)."""
    if state.get("status") != "running" or state.get("deadline") is None or state["deadline"] > at:
        return
    seed = app.rng.getrandbits(32)

    def fn(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[Reply]]:
        if not st or st.get("status") != "running" or st.get("deadline") is None or st["deadline"] > at:
            return st, []
        rec = st["record"]
        g = load_game(scope, rec)
        g.drain_events()
        ask = g.pending
        if ask is None:
            return {**st, "deadline": None}, []
        if choice.choosing(g) and st.get(choice.PICKS) is not None:  # one deadline for everyone
            feed.hold(st, [choice.expire(st, g, random.Random(seed))])
            run_auto(g, random.Random(seed), st)
            return commit(st, g, rec, at, force=True)
        late = list(ask.waiting)  # a window: every seat still waiting passes, whatever it holds
        turn = g.state.turn_no
        told = {s for s in late if g.p(s).flags.get("timeout_turn") == turn}  # this AFK turn's
        for seat in late:
            if g.pending is ask and seat in ask.waiting:
                g.submit(seat, default_answer(ask.for_seat(seat)), source="timeout")
        note = timeout_note(st, g, [s for s in late if s not in told])
        run_auto(g, random.Random(seed), st)
        feed.hold(st, [note] if note else [])  # the group hears it now, with what was held before
        return commit(st, g, rec, at, force=True)

    replies = await app.store.sessions.apply_session(scope, SYSTEM, fn, command=".moe (timeout)", claim=None)
    if replies:
        out.append((scope, replies))
