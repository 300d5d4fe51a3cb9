"""The lobby: ``.moe new [地图]``, ``join``, ``leave``, ``start`` — and ``state``/``hand``, the
views (the hand only ever goes by private message)."""

from __future__ import annotations

import random
from typing import Any

from chronodice.core.args import Int, arg, opt
from chronodice.core.commands import Call
from chronodice.core.errors import ChronoDiceError, IllegalAction
from chronodice.core.ids import session_id
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.render.moe_info import card_info, find_card
from chronodice.render.moe_picture import table_picture
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.pack import Pack, PackError, load_pack
from chronodice.rules.moe.record import new_record, start, to_record
from chronodice.store import json_codec

from . import ai_seats, choice
from ._common import (
    DEFAULT_TIMEOUTS,
    MAX_PLAYERS,
    PACK,
    ROWS,
    SYSTEM,
    fallback,
    find_user_game,
    game_scope,
    load_game,
    moe,
    names,
    now,
    pack_of,
    require_host_or_gm,
    seat_of,
    set_deadline,
)
from .ai_seats import AI_COUNT
from .kinds import CARD_REF, MAP, PACK_NAME
from .numbers import card_at, number_map
from .outbox import outcome, prompt_for


@moe.sub(
    "new",
    "开局",
    params=[opt("pack", PACK_NAME), opt("map", MAP), opt("ai", AI_COUNT)],
    help="开局（卡包缺省为演示包，地图缺省随机；.moe packs 查看卡包；末尾加 AI 2 补两个AI座位）",
)
async def moe_new(call: Call, pack: str | None, map: str | None, ai: int | None) -> list[Reply]:
    ctx = call.ctx
    if ctx.group_id is None:
        raise IllegalAction("请在群里开局")
    pack_name = pack or PACK
    chosen = load_pack(pack_name)
    map_key = resolve_map(chosen, map)
    other = await find_user_game(call.app, ctx.user_id)
    if other is not None and other[0] != ctx.group_id:
        raise IllegalAction("你已经在另一局萌E游戏中了")
    name = await call.app.display_name(ctx)

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
        if state and state.get("status") in ("lobby", "running"):
            raise IllegalAction("本群已有一局萌E游戏（.moe state 查看，房主或GM可 .moe abort）")
        old = state or {}
        timeouts = old.get("timeouts", DEFAULT_TIMEOUTS)
        new = {
            "status": "lobby",
            "host": ctx.user_id,
            "players": [{"user": ctx.user_id, "name": name}],
            "map": map_key,
            "pack": pack_name,
            "timeouts": timeouts,
            "deadline": None,
            "record": None,
            # texts of the last game not delivered yet still go out, and ids are never reused
            "outbox": list(old.get("outbox") or []),
            "outbox_seq": old.get("outbox_seq", 0),
            "session_id": session_id(),  # a web link is bound to this game, not the next
        }
        return new, ai_seats.set_ai_seats(new, ai) if ai else ""

    ai_line = await call.app.store.sessions.apply_session(
        ctx.group_id, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text, claim=call.claim
    )
    m = chosen.maps[map_key].name if map_key else "随机"
    which = f"卡包：{chosen.name}，" if pack_name != PACK else ""
    return [
        Reply.say(
            f"{name}创建了萌E对局（{which}地图：{m}）。发送 .moe join 加入，.moe start 开始（2~{MAX_PLAYERS}人）"
            + (f"\n{ai_line}" if ai_line else "")
        )
    ]


def resolve_map(pack: Pack, word: str | None) -> str | None:
    """The key of map ``word`` (key or name) in ``pack``; ``None`` stays random."""
    if word is None or word in pack.maps:
        return word
    for key, m in pack.maps.items():
        if m.name == word:
            return key
    choices = "、".join(m.name for m in pack.maps.values())
    raise IllegalAction(f"卡包「{pack.name}」没有地图「{word[:12]}」，可选：{choices}、随机")


@moe.sub("join", "加入", help="加入本群的对局")
async def moe_join(call: Call) -> list[Reply]:
    ctx = call.ctx
    if ctx.group_id is None:
        raise IllegalAction("请在群里加入")
    other = await find_user_game(call.app, ctx.user_id)
    if other is not None and other[0] != ctx.group_id:
        raise IllegalAction("你已经在另一局萌E游戏中了")
    name = await call.app.display_name(ctx)

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, int]:
        if not state or state.get("status") != "lobby":
            raise IllegalAction("本群没有等待加入的萌E对局（.moe new 开局）")
        if any(p["user"] == ctx.user_id for p in state["players"]):
            raise IllegalAction("你已经加入了")
        gone = ai_seats.make_room(state)  # a full lobby: the player takes an AI seat's place
        if len(state["players"]) >= MAX_PLAYERS:
            raise IllegalAction(f"人数已满（{MAX_PLAYERS}人）")
        state["players"].append({"user": ctx.user_id, "name": name})
        return state, (len(state["players"]), gone)

    n, gone = await call.app.store.sessions.apply_session(
        ctx.group_id, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text, claim=call.claim
    )
    instead = f"，替换了{gone}" if gone else ""
    return [Reply.say(f"{name}加入了萌E对局（{n}人{instead}）")]


@moe.sub("leave", "退出", help="开始前退出对局")
async def moe_leave(call: Call) -> list[Reply]:
    scope = await game_scope(call)
    user = call.ctx.user_id

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
        if not state or state.get("status") != "lobby":
            raise IllegalAction("游戏已开始，不能退出（可 .moe quit 投降）")
        seat = seat_of(state, user)
        state["players"].pop(seat)
        host = ai_seats.next_host(state)
        if host is None:  # nobody left but AI seats
            return None, "closed"
        if state["host"] == user:
            state["host"] = host
        return state, "left"

    res = await call.app.store.sessions.apply_session(
        scope, SYSTEM, fn, user_id=user, command=call.command_text, claim=call.claim
    )
    return [Reply.say("你退出了萌E对局" + ("，对局已关闭" if res == "closed" else ""))]


@moe.sub(
    "ai",
    "AI",
    params=[arg("n", Int(label="AI人数", min=0, max=MAX_PLAYERS - 1))],
    help="开始前用AI补空位：.moe ai 2（0 移除；房主或GM）",
)
async def moe_ai(call: Call, n: int) -> list[Reply]:
    scope = await game_scope(call)
    state0 = await call.app.store.sessions.load_state(scope, json_codec(SYSTEM))
    if not state0 or state0.get("status") != "lobby":
        raise IllegalAction("本群没有等待开始的萌E对局（.moe new 地图 AI 2 开局并补AI）")
    await require_host_or_gm(call, scope, state0, "设置AI座位")

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
        if not state or state.get("status") != "lobby":
            raise IllegalAction("本群没有等待开始的萌E对局")
        return state, ai_seats.set_ai_seats(state, n)

    line = await call.app.store.sessions.apply_session(
        scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )
    return [Reply.say(line)]


@moe.sub("start", "开始", help="开始游戏：随机座次，每人私聊选角色（房主或GM）")
async def moe_start(call: Call) -> list[Reply]:
    ctx = call.ctx
    if ctx.group_id is None:
        raise IllegalAction("请在群里开始")
    state0 = await call.app.store.sessions.load_state(ctx.group_id, json_codec(SYSTEM))
    if not state0 or state0.get("status") != "lobby":
        raise IllegalAction("本群没有等待开始的萌E对局")
    await require_host_or_gm(call, ctx.group_id, state0, "开始游戏")
    seed = call.app.rng.getrandbits(64)
    order_seed = call.app.rng.getrandbits(32)
    at = now(call.app)

    def fn(
        state: dict[str, Any] | None,
    ) -> tuple[dict[str, Any], tuple[Game, list[dict[str, Any]], dict[str, Any]]]:
        if not state or state.get("status") != "lobby":
            raise IllegalAction("本群没有等待开始的萌E对局")
        if len(state["players"]) < 2:
            raise IllegalAction("至少需要2名玩家")
        try:
            pack = load_pack(state["pack"])
        except (PackError, FileNotFoundError):
            # the pack file was removed or broken after .moe new: say so, keep the lobby
            raise IllegalAction(
                f"卡包「{state['pack']}」现在无法加载（.moe packs 查看原因），请 .moe abort 后换一个卡包开局"
            ) from None
        if state["map"]:
            need = pack.maps[state["map"]].players
            if need and len(state["players"]) not in need:
                hint = ai_seats.count_hint(state, tuple(need))
                raise IllegalAction(
                    f"【{pack.maps[state['map']].name}】需要{'/'.join(map(str, need))}人，{hint}"
                )
        players = list(state["players"])
        random.Random(order_seed).shuffle(players)  # random seats
        state["players"] = players
        rec = new_record(state["pack"], [p["user"] for p in players], seed=seed, map_key=state["map"])
        rec, g, events = start(rec)
        state["status"] = "running"
        if ai_seats.wake(g, random.Random(order_seed), answer=not choice.choosing(g)):
            events += g.drain_events()  # AI seats are on 托管 from the start (logged)
            rec = to_record(g, rec)
        if choice.choosing(g):  # everyone chooses at once (:mod:`.choice`)
            choice.begin(state, rec, at)
            choice.settle(state, g, random.Random(order_seed))
            events += g.drain_events()
            rec = to_record(g, rec)
        state["record"] = rec
        set_deadline(state, g, at)
        return state, (g, events, state)

    g, events, state = await call.app.store.sessions.apply_session(
        ctx.group_id, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text, rows=ROWS, claim=call.claim
    )
    replies = outcome(state, g, events)
    if choice.choosing(g):
        text = "\n".join([*(r.text for r in replies if not r.private), choice.announce(state)])
        private = [r for r in replies if r.private]
        return [Reply.say(text), *private, *choice.prompts(state, g, names(state))]
    return replies


# ---------------------------------------------------------------------- views
@moe.sub("state", "状态", help="公开局面")
async def moe_state(call: Call) -> list[Reply]:
    scope = await game_scope(call)
    state = await call.app.store.sessions.load_state(scope, json_codec(SYSTEM))
    if not state or state.get("aborted") or not (state["status"] == "lobby" or state.get("record")):
        raise IllegalAction("本群没有萌E游戏")  # never started, or aborted: nothing to show
    if state["status"] == "lobby":
        joined = "、".join(p["name"] for p in state["players"])
        return [Reply.say(f"萌E对局等待开始：{joined}（{len(state['players'])}人）")]
    g = load_game(scope, state["record"])
    text = R.render_public_state(g, names(state))
    if g.pending is not None and state["status"] == "running":
        text += "\n" + R.public_prompt(g, g.pending, names(state))
    return [Reply(text=text, image=table_picture(g, names(state)))]


@moe.sub("hand", "手牌", help="我的手牌与待回答的请求（私聊发送）")
async def moe_hand(call: Call) -> list[Reply]:
    scope = await game_scope(call)
    state = await call.app.store.sessions.load_state(scope, json_codec(SYSTEM))
    if not state or state["status"] == "lobby" or not state.get("record") or state.get("aborted"):
        raise IllegalAction("没有进行中的萌E游戏")
    seat = seat_of(state, call.ctx.user_id)
    g = load_game(scope, state["record"])
    text = R.render_hand(g, seat, names(state), number_map(state, g, seat))
    if choice.choosing(g) and seat in choice.waiting_seats(state, g):
        text += "".join(
            "\n" + r.text for r in choice.prompts(state, g, names(state)) if r.to_user == call.ctx.user_id
        )
    elif g.pending is not None and seat in g.pending.waiting and not choice.choosing(g):
        text += "\n" + prompt_for(dict(state), g, g.pending.for_seat(seat), names(state))
    replies = [Reply.whisper(text, to_user=call.ctx.user_id, fallback=fallback(state, seat))]
    if call.ctx.group_id is not None:
        replies.insert(0, Reply.say("手牌已私聊发送"))
    return replies


CARD_SENT = "{name}，牌的说明请看私聊"
"""The group's line for ``.moe card 序号``: the same whether the hand has that number or not."""


@moe.sub("card", "牌", params=[arg("ref", CARD_REF)], help="查看牌的说明：牌名，或自己第几张手牌（私聊）")
async def moe_card(call: Call, ref: int | str) -> list[Reply]:
    if isinstance(ref, str):
        pack = load_pack(await pack_of(call))
        key = find_card(pack, ref)
        if key is None:
            raise IllegalAction(f"没有名为「{ref[:12]}」的牌")
        return [Reply.say(card_info(pack, key))]
    # a hand card: its face is hidden, so the answer goes by private message
    scope = await game_scope(call)
    state = await call.app.store.sessions.load_state(scope, json_codec(SYSTEM))
    if not state or state.get("status") != "running" or not state.get("record"):
        raise IllegalAction("没有进行中的萌E游戏（查看牌的说明请写牌名）")
    seat = seat_of(state, call.ctx.user_id)
    g = load_game(scope, state["record"])
    try:  # the number's card, or that there is none: either is the sender's alone
        cid = card_at(state, g, seat, ref)
    except ChronoDiceError as exc:
        text = exc.user_message
    else:
        text = f"{ref}号手牌{R.card_text(g, cid)}\n" + card_info(g.pack, g.card(cid).key)
    replies = [Reply.whisper(text, to_user=call.ctx.user_id, fallback=fallback(state, seat))]
    if call.ctx.group_id is not None:
        replies.insert(0, Reply.say(CARD_SENT.format(name=call.name)))
    return replies
