"""The table's referee: ``kick``, ``abort``, ``timeout`` and ``recover`` — for the game's creator
(房主) or a GM of the game's group, judged against that group also when sent from private chat.

``recover`` is the way on for a game that no longer rebuilds (a changed pack, a replay desync:
see :mod:`chronodice.rules.moe.recovery`): ``继续`` goes on from the last consistent point (the
whole log if it still replays, else the current turn's start), ``结束`` ends the game with the
standings of that point; both are logged."""

from __future__ import annotations

import random
from typing import Any

from chronodice.core.args import Choice, arg, opt
from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.rules.moe.record import DesyncError, rebuild
from chronodice.rules.moe.recovery import CAUSES, HOW, resume, standings
from chronodice.store import json_codec

from ._common import (
    DEFAULT_TIMEOUTS,
    SYSTEM,
    game_scope,
    log,
    moe,
    names,
    now,
    require_host_or_gm,
    run_auto,
    set_deadline,
)
from .kinds import SECONDS, TARGET, TIMEOUT_CLASS
from .outbox import commit
from .play import admin_op, resolve

OPEN = ("lobby", "running")


async def _open_game(call: Call) -> tuple[str, dict[str, Any]]:
    scope = await game_scope(call)
    state = await call.app.store.sessions.load_state(scope, json_codec(SYSTEM))
    if not state or state.get("status") not in OPEN:
        raise IllegalAction("没有萌E对局")
    return scope, state


@moe.sub(
    "kick",
    "踢",
    params=[arg("who", TARGET, label="@某人或2号")],
    help="移出一名玩家（开始后按投降处理；房主或GM）",
)
async def moe_kick(call: Call, who: Any) -> list[Reply]:
    scope, state = await _open_game(call)
    await require_host_or_gm(call, scope, state, "踢人")
    seat = resolve(call, [who], state)[0]
    if not 0 <= seat < len(state["players"]):
        raise call.usage_error(f"没有{seat + 1}号玩家")
    if state["status"] == "lobby":

        def fn(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
            if not st or st.get("status") != "lobby":
                raise IllegalAction("游戏状态已变化，请重试")
            name = st["players"].pop(seat)["name"]
            return st, name

        name = await call.app.store.sessions.apply_session(
            scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
        )
        return [Reply.say(f"已将{name}移出对局")]
    return await admin_op(call, {"admin": "concede", "kicked": True}, who=seat)


@moe.sub("abort", "解散", help="解散对局（房主或GM）")
async def moe_abort(call: Call) -> list[Reply]:
    scope, state = await _open_game(call)
    await require_host_or_gm(call, scope, state, "解散对局")

    def fn(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
        if not st:
            raise IllegalAction("没有萌E对局")
        return {**st, "status": "over", "deadline": None, "aborted": True}, "ok"

    await call.app.store.sessions.apply_session(
        scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )
    return [Reply.say("萌E对局已解散")]


@moe.sub(
    "timeout",
    "超时",
    params=[opt("which", TIMEOUT_CLASS), opt("secs", SECONDS)],
    help="查看或设置回答时限（10~3600秒；不写种类即全部；房主或GM）",
)
async def moe_timeout(call: Call, which: str | None, secs: int | None) -> list[Reply]:
    if call.ctx.group_id is None:
        raise IllegalAction("请在群里设置")
    state = await call.app.store.sessions.load_state(call.ctx.group_id, json_codec(SYSTEM))
    if not state:
        raise IllegalAction("本群还没有萌E对局")
    await require_host_or_gm(call, call.ctx.group_id, state, "设置超时")
    if which is None and secs is None:
        t = state["timeouts"]
        return [Reply.say(f"超时：出牌{t['play']}秒 响应{t['respond']}秒 选择{t['choice']}秒")]
    if secs is None:
        raise call.usage_error("秒数应为整数")
    if not 10 <= secs <= 3600:
        raise IllegalAction("超时应在10到3600秒之间")
    classes = list(DEFAULT_TIMEOUTS) if which is None else [which]

    def fn(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
        if not st:
            raise IllegalAction("本群还没有萌E对局")
        old = st["timeouts"]
        st["timeouts"] = {**old, **{w: secs for w in classes}}
        return st, _move_waiting(st, old, classes)

    moved = await call.app.store.sessions.apply_session(
        call.ctx.group_id, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )
    return [Reply.say(f"已设置超时为{secs}秒" + ("，当前等待的请求也按此计时" if moved else ""))]


def _move_waiting(st: dict[str, Any], old: dict[str, int], classes: list[str]) -> bool:
    """Apply new time limits to the request already waiting (its deadline counts from when it
    was asked); ``True`` when it moved."""
    if st.get("status") != "running" or st.get("deadline") is None:
        return False
    cls, asked = st.get("ask_class"), st.get("asked_at")
    if cls is None or asked is None:  # a session saved before these were kept
        try:
            g = rebuild(st["record"])
        except Exception:
            return False
        if g.pending is None:
            return False
        cls = R.ask_class(g.pending)
        asked = float(st["deadline"]) - float(old[cls])
    if cls not in classes:
        return False
    st["deadline"] = float(asked) + float(st["timeouts"][cls])
    return True


RECOVER = Choice(
    {"继续": "resume", "resume": "resume", "恢复": "resume", "结束": "end", "end": "end"}, label="继续/结束"
)


@moe.sub(
    "recover",
    "恢复",
    params=[opt("how", RECOVER, default="resume")],
    help="对局无法继续时：继续（从最近一致的存档）或 结束（按目前结果）（房主或GM）",
)
async def moe_recover(call: Call, how: str) -> list[Reply]:
    scope, state = await _open_game(call)
    await require_host_or_gm(call, scope, state, "恢复对局")
    seed = call.app.rng.getrandbits(32)
    at = now(call.app)

    def fn(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[Reply]]:
        if not st or st.get("status") != "running" or not st.get("record"):
            raise IllegalAction("没有进行中的萌E对局")
        rec = st["record"]
        try:
            g0 = rebuild(rec)
        except DesyncError as exc:
            cause = exc
        else:
            if not st.get("error"):
                raise IllegalAction("本群的萌E对局没有出错，无需恢复")
            # the sweeper stopped the clock after a passing error: start it again
            st.pop("error", None)
            set_deadline(st, g0, at)
            return st, [Reply.say("本群的萌E对局可以正常读取，已恢复计时")]
        why = CAUSES.get(cause.cause, cause.cause)
        if how == "end":
            log.warning("萌E: group %s ended its broken game (%s)", scope, cause)
            text = f"萌E对局因{why}而结束。" + _standings_text(rec, names(st))
            return {**st, "status": "over", "deadline": None, "aborted": True, "error": None}, [
                Reply.say(text)
            ]
        try:
            new, g, done, events = resume(rec)
        except DesyncError as exc:
            log.error("萌E: group %s cannot resume its game: %s", scope, exc)
            raise IllegalAction(
                f"无法从存档继续（{CAUSES.get(exc.cause, exc.cause)}），可 .moe recover 结束"
            ) from exc
        log.warning("萌E: group %s resumed its broken game (%s) by %s", scope, cause, done)
        g.events = events + g.drain_events()
        run_auto(g, random.Random(seed), st)
        saved, replies = commit(st, g, new, at, private=call.ctx.group_id is None)
        return saved, [Reply.say(f"萌E对局出错（{why}）：{HOW[done]}"), *replies]

    return await call.app.store.sessions.apply_session(
        scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )


def _standings_text(rec: dict[str, Any], who: list[str]) -> str:
    st = standings(rec)
    if st is None:
        return "对局尚未开始，没有结果。"
    alive = [p for p in st.players if p.alive]
    lines = ["目前结果（本回合开始时）："]
    for p in st.players:
        label = f"{p.seat + 1}号{who[p.seat] if p.seat < len(who) else ''}" + (
            f"({p.name})" if p.name else ""
        )
        lines.append(
            f"{label} " + (f"存活 血量{p.hp_value}/{p.max_hp} 信仰{p.faith}" if p.alive else "已阵亡")
        )
    lines.append("存活者：" + ("、".join(f"{p.seat + 1}号" for p in alive) or "无") + "（没有胜利者）")
    return "\n".join(lines)
