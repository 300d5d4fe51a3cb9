"""萌E over chat: ``.moe`` (alias ``.萌e``) — lobby, seats, private hands, answers, timeouts.

One game per group, stored as the group's ``moe`` session (see :mod:`chronodice.rules.moe.record`:
the input log + the latest turn-start snapshot).  Every command is one transaction
(``store.apply_session``): rebuild the engine, apply the answer, let players on 托管 answer,
save; a lost race re-runs from the new state, and an answer to a request that is no longer open
is refused ("已过期"), so two people answering at once cannot corrupt a game.

Hidden information goes only by private message: hands, 奥秘, 拼点 cards and the options of a
private request.  The group sees public events and "等待…" lines.  When a private message cannot
be delivered the group is told without content, and ``.moe hand`` in private pulls the state.

Timeouts: every open request has a deadline (``deadline`` in the session); :func:`sweep` applies
the default answer when it passes (the plugin calls it every few seconds, also after a restart);
two timeouts in a row put a player on 托管 until they act again.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from typing import Any

from chronodice.core.commands import NO_UNDO_SYSTEMS, Call, command
from chronodice.core.context import Context
from chronodice.core.errors import ChronoDiceError, IllegalAction, InputSyntaxError, NotFound, NotPermitted
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.rules.moe import auto_answer, default_answer
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.pack import load_pack
from chronodice.rules.moe.record import admin, new_record, rebuild, start, to_record

SYSTEM = "moe"
NO_UNDO_SYSTEMS.add(SYSTEM)  # .undo after seeing cards would be cheating
PACK = "demo"
MAX_PLAYERS = 8
DEFAULT_TIMEOUTS = {"play": 120, "respond": 45, "choice": 60}
AUTO_LIMIT = 20_000

clock: Callable[[], float] = time.time
"""Wall clock for deadlines (tests replace it)."""

USAGE = ".moe <new|join|leave|start|state|hand|play|skill|resp|pass|yes|no|choose|give|end|auto|quit|kick|abort|timeout|help> …"
HELP = """萌E（萌战Evolution）卡牌对战，在群里进行，手牌与私密选择通过私聊发送。
.moe new [地图]  开局（乱斗森林/双王国/信仰圣殿，缺省随机）  .moe join / leave  加入/退出
.moe start  开始（房主或GM）：随机座次，每人私聊从发到的角色中选一个
.moe state  公开局面   .moe hand  我的手牌（私聊）
.moe play 序号 [当] [目标]  使用手牌（目标写 2号 或 @某人）  .moe skill 技能名 [目标] [弃 序号…]
.moe resp 序号 / .moe pass  响应或不响应   .moe yes / no  是否发动
.moe choose 序号…  选择牌/角色/选项   .moe give 2号:1,2 3号:3  分配牌   .moe end  结束出牌
.moe auto [on|off]  托管   .moe quit  投降
GM/房主：.moe kick @某人  .moe abort  .moe timeout [出牌|响应|选择] 秒
规则取舍：攻击每回合限一次；防御为“使用”；起始手牌4张、摸牌阶段摸2张；濒死时从当前回合角色起依次询问【恢复】；
奖惩由地图机制牌决定；施法阶段无默认动作；距离为存活角色间较短的座次差；牌堆耗尽时洗混弃牌堆，两者皆空则平局；
同一时机多个效果：当前回合角色起按座次，各自决定顺序；40轮后平局。"""

SUBCOMMANDS = {
    "new": "new",
    "开局": "new",
    "join": "join",
    "加入": "join",
    "leave": "leave",
    "退出": "leave",
    "start": "start",
    "开始": "start",
    "state": "state",
    "状态": "state",
    "hand": "hand",
    "手牌": "hand",
    "play": "play",
    "出": "play",
    "出牌": "play",
    "skill": "skill",
    "技": "skill",
    "技能": "skill",
    "resp": "resp",
    "响应": "resp",
    "pass": "pass",
    "不出": "pass",
    "不响应": "pass",
    "yes": "yes",
    "是": "yes",
    "发动": "yes",
    "no": "no",
    "否": "no",
    "choose": "choose",
    "选": "choose",
    "discard": "choose",
    "弃": "choose",
    "give": "give",
    "给": "give",
    "end": "end",
    "结束": "end",
    "结束出牌": "end",
    "auto": "auto",
    "托管": "auto",
    "quit": "quit",
    "surrender": "quit",
    "投降": "quit",
    "kick": "kick",
    "踢": "kick",
    "abort": "abort",
    "解散": "abort",
    "timeout": "timeout",
    "超时": "timeout",
    "help": "help",
    "帮助": "help",
}
MAP_NAMES = {
    "乱斗森林": "melee",
    "乱斗": "melee",
    "双王国": "kingdoms",
    "信仰圣殿": "temple",
    "圣殿": "temple",
}


# ====================================================================== helpers
def _names(state: dict[str, Any]) -> list[str]:
    return [p["name"] for p in state["players"]]


def _seat_of(state: dict[str, Any], user: str) -> int:
    for i, p in enumerate(state["players"]):
        if p["user"] == user:
            return i
    raise IllegalAction("你不在这局萌E游戏中")


def _deadline(state: dict[str, Any], g: Game, now: float) -> float | None:
    if g.pending is None or g.finished:
        return None
    return now + float(state["timeouts"][R.ask_class(g.pending)])


def _run_auto(g: Game, rng: random.Random) -> None:
    """Players on 托管 answer at once (logged as ``auto`` inputs)."""
    for _ in range(AUTO_LIMIT):
        ask = g.pending
        if ask is None or not g.p(ask.seat).auto:
            return
        g.submit(ask.seat, auto_answer(g, ask, rng), source="auto")


def _fallback(state: dict[str, Any], seat: int) -> str:
    return f"无法私聊{seat + 1}号{state['players'][seat]['name']}，请加好友后私聊发送 .moe hand 查看"


def _outcome(
    state: dict[str, Any], g: Game, events: list[dict[str, Any]], *, prompt: bool = True
) -> list[Reply]:
    """Replies for what happened: public lines to the group, private lines and the open request
    to the players concerned."""
    names = _names(state)
    public, private = R.render_events(g, events, names)
    replies: list[Reply] = []
    ask = g.pending if prompt else None
    if ask is not None:
        public.append(R.public_prompt(g, ask, names))
    if public:
        replies.append(Reply.say(R.fit_lines(public)))
    for seat, lines in sorted(private.items()):
        text = R.fit_lines(lines)
        if ask is not None and ask.seat == seat:
            text += "\n" + R.private_prompt(g, ask, names)
        replies.append(
            Reply.whisper(text, to_user=state["players"][seat]["user"], fallback=_fallback(state, seat))
        )
    if ask is not None and ask.seat not in private:
        replies.append(
            Reply.whisper(
                R.private_prompt(g, ask, names),
                to_user=state["players"][ask.seat]["user"],
                fallback=_fallback(state, ask.seat),
            )
        )
    return replies


async def _find_user_game(app: Any, user: str) -> tuple[str, dict[str, Any]] | None:
    for scope, state, _v in await app.store.list_sessions(SYSTEM):
        if (
            state
            and state.get("status") in ("lobby", "running")
            and any(p["user"] == user for p in state["players"])
        ):
            return scope, state
    return None


async def _game_scope(call: Call) -> str:
    """The group whose game a command is about: this group, or (in private) the user's game."""
    if call.ctx.group_id is not None:
        return call.ctx.group_id
    found = await _find_user_game(call.app, call.ctx.user_id)
    if found is None:
        raise NotFound("你没有正在进行的萌E游戏")
    return found[0]


async def _is_host_or_gm(call: Call, state: dict[str, Any]) -> bool:
    return state.get("host") == call.ctx.user_id or await call.app.is_gm(call.ctx)


# ====================================================================== the command
@command(
    "moe",
    aliases=("萌e",),
    usage=USAGE,
    summary="萌E卡牌对战：开局、加入、出牌、响应、托管",
    detail=HELP,
    system="萌E",
)
async def cmd_moe(call: Call) -> list[Reply]:
    parts = call.args.split(maxsplit=1)
    if not parts:
        return [Reply.say(HELP)]
    sub = SUBCOMMANDS.get(parts[0].lower())
    if sub is None:
        raise call.usage_error(f"未知的子命令「{parts[0]}」")
    rest = parts[1] if len(parts) > 1 else ""
    return await HANDLERS[sub](call, rest)


# ---------------------------------------------------------------------- lobby
async def _new(call: Call, rest: str) -> list[Reply]:
    ctx = call.ctx
    if ctx.group_id is None:
        raise IllegalAction("请在群里开局")
    map_key: str | None = None
    arg = rest.strip()
    if arg and arg not in ("随机", "random"):
        pack = load_pack(PACK)
        map_key = MAP_NAMES.get(arg, arg)
        if map_key not in pack.maps:
            raise InputSyntaxError(
                f"没有地图「{arg}」，可选：乱斗森林、双王国、信仰圣殿、随机", usage=".moe new [地图]"
            )
    other = await _find_user_game(call.app, ctx.user_id)
    if other is not None and other[0] != ctx.group_id:
        raise IllegalAction("你已经在另一局萌E游戏中了")
    name = await call.app.display_name(ctx)

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
        if state and state.get("status") in ("lobby", "running"):
            raise IllegalAction("本群已有一局萌E游戏（.moe state 查看，房主或GM可 .moe abort）")
        timeouts = (state or {}).get("timeouts", DEFAULT_TIMEOUTS)
        new = {
            "status": "lobby",
            "host": ctx.user_id,
            "players": [{"user": ctx.user_id, "name": name}],
            "map": map_key,
            "pack": PACK,
            "timeouts": timeouts,
            "deadline": None,
            "record": None,
            "outbox": [],
        }
        return new, "ok"

    await call.app.store.apply_session(
        ctx.group_id, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text
    )
    m = load_pack(PACK).maps[map_key].name if map_key else "随机"
    return [
        Reply.say(
            f"{name}创建了萌E对局（地图：{m}）。发送 .moe join 加入，.moe start 开始（2~{MAX_PLAYERS}人）"
        )
    ]


async def _join(call: Call, rest: str) -> list[Reply]:
    ctx = call.ctx
    if ctx.group_id is None:
        raise IllegalAction("请在群里加入")
    other = await _find_user_game(call.app, ctx.user_id)
    if other is not None and other[0] != ctx.group_id:
        raise IllegalAction("你已经在另一局萌E游戏中了")
    name = await call.app.display_name(ctx)

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, int]:
        if not state or state.get("status") != "lobby":
            raise IllegalAction("本群没有等待加入的萌E对局（.moe new 开局）")
        if any(p["user"] == ctx.user_id for p in state["players"]):
            raise IllegalAction("你已经加入了")
        if len(state["players"]) >= MAX_PLAYERS:
            raise IllegalAction(f"人数已满（{MAX_PLAYERS}人）")
        state["players"].append({"user": ctx.user_id, "name": name})
        return state, len(state["players"])

    n = await call.app.store.apply_session(
        ctx.group_id, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text
    )
    return [Reply.say(f"{name}加入了萌E对局（{n}人）")]


async def _leave(call: Call, rest: str) -> list[Reply]:
    scope = await _game_scope(call)
    user = call.ctx.user_id

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
        if not state or state.get("status") != "lobby":
            raise IllegalAction("游戏已开始，不能退出（可 .moe quit 投降）")
        seat = _seat_of(state, user)
        state["players"].pop(seat)
        if not state["players"]:
            return None, "closed"
        if state["host"] == user:
            state["host"] = state["players"][0]["user"]
        return state, "left"

    res = await call.app.store.apply_session(scope, SYSTEM, fn, user_id=user, command=call.command_text)
    return [Reply.say("你退出了萌E对局" + ("，对局已关闭" if res == "closed" else ""))]


async def _start(call: Call, rest: str) -> list[Reply]:
    ctx = call.ctx
    if ctx.group_id is None:
        raise IllegalAction("请在群里开始")
    state0, _v = await call.app.store.load_session(ctx.group_id, SYSTEM)
    if not state0 or state0.get("status") != "lobby":
        raise IllegalAction("本群没有等待开始的萌E对局")
    if not await _is_host_or_gm(call, state0):
        raise NotPermitted("只有房主或GM可以开始游戏")
    seed = call.app.rng.getrandbits(64)
    order_seed = call.app.rng.getrandbits(32)
    now = clock()

    def fn(
        state: dict[str, Any] | None,
    ) -> tuple[dict[str, Any], tuple[Game, list[dict[str, Any]], dict[str, Any]]]:
        if not state or state.get("status") != "lobby":
            raise IllegalAction("本群没有等待开始的萌E对局")
        if len(state["players"]) < 2:
            raise IllegalAction("至少需要2名玩家")
        pack = load_pack(state["pack"])
        if state["map"]:
            need = pack.maps[state["map"]].players
            if need and len(state["players"]) not in need:
                raise IllegalAction(f"【{pack.maps[state['map']].name}】需要{'/'.join(map(str, need))}人")
        players = list(state["players"])
        random.Random(order_seed).shuffle(players)  # random seats
        state["players"] = players
        rec = new_record(state["pack"], [p["user"] for p in players], seed=seed, map_key=state["map"])
        rec, g, events = start(rec)
        state["record"] = rec
        state["status"] = "running"
        state["deadline"] = _deadline(state, g, now)
        return state, (g, events, state)

    g, events, state = await call.app.store.apply_session(
        ctx.group_id, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text
    )
    replies = _outcome(state, g, events)
    return replies


# ---------------------------------------------------------------------- views
async def _state(call: Call, rest: str) -> list[Reply]:
    scope = await _game_scope(call)
    state, _v = await call.app.store.load_session(scope, SYSTEM)
    if not state:
        raise IllegalAction("本群没有萌E游戏")
    if state["status"] == "lobby":
        names = "、".join(p["name"] for p in state["players"])
        return [Reply.say(f"萌E对局等待开始：{names}（{len(state['players'])}人）")]
    g = rebuild(state["record"])
    text = R.render_public_state(g, _names(state))
    if g.pending is not None:
        text += "\n" + R.public_prompt(g, g.pending, _names(state))
    return [Reply.say(text)]


async def _hand(call: Call, rest: str) -> list[Reply]:
    scope = await _game_scope(call)
    state, _v = await call.app.store.load_session(scope, SYSTEM)
    if not state or state["status"] == "lobby" or not state.get("record"):
        raise IllegalAction("没有进行中的萌E游戏")
    seat = _seat_of(state, call.ctx.user_id)
    g = rebuild(state["record"])
    text = R.render_hand(g, seat, _names(state))
    if g.pending is not None and g.pending.seat == seat:
        text += "\n" + R.private_prompt(g, g.pending, _names(state))
    replies = [Reply.whisper(text, to_user=call.ctx.user_id, fallback=_fallback(state, seat))]
    if call.ctx.group_id is not None:
        replies.insert(0, Reply.say("手牌已私聊发送"))
    return replies


# ---------------------------------------------------------------------- answering
def _int_tokens(text: str) -> list[int]:
    toks = re.split(r"[\s,，]+", text.strip())
    out = []
    for t in toks:
        if not t:
            continue
        if not t.isdigit():
            raise InputSyntaxError(f"「{t}」不是序号", usage=".moe choose 序号…")
        out.append(int(t))
    return out


def _parse_seat(token: str, state: dict[str, Any]) -> int | None:
    m = re.fullmatch(r"(?:#|＃)?(\d+)号?", token)
    if m and (token.startswith(("#", "＃")) or token.endswith("号")):
        return int(m.group(1)) - 1
    for i, p in enumerate(state["players"]):
        if token in (p["name"], p["user"]):
            return i
    return None


def _targets(ctx: Context, tokens: list[str], state: dict[str, Any]) -> tuple[list[int], list[str]]:
    """Seats named by @mentions, ``2号``/``#2`` or names; returns (seats, remaining tokens)."""
    seats = []
    for uid in ctx.at_ids:
        for i, p in enumerate(state["players"]):
            if p["user"] == uid:
                seats.append(i)
    rest = []
    for t in tokens:
        s = _parse_seat(t, state)
        if s is None:
            rest.append(t)
        else:
            seats.append(s)
    return seats, rest


def _hand_card(g: Game, seat: int, n: int) -> int:
    hand = g.hand(seat)
    if not 1 <= n <= len(hand):
        raise IllegalAction(f"你没有第{n}张手牌（共{len(hand)}张）")
    return hand[n - 1]


def _answer(g: Game, seat: int, sub: str, rest: str, ctx: Context, state: dict[str, Any]) -> Any:
    """Translate a chat answer into the engine's answer for the open request."""
    ask = g.pending
    if ask is None:
        raise IllegalAction("现在没有需要回答的请求")
    if ask.seat != seat:
        raise IllegalAction("现在不是在等你的回应")
    k = ask.kind
    tokens = [t for t in re.split(r"[\s,，]+", rest.strip()) if t]
    if sub == "pass":
        if k == "play":
            return {"a": "end"}
        if k in ("respond", "distribute") or ask.optional:
            return None if k == "respond" else []
        if k == "invoke":
            return False
        raise IllegalAction("这个选择不能放弃（须）")
    if sub in ("yes", "no"):
        if k != "invoke":
            raise IllegalAction("现在不是是否发动的询问")
        return sub == "yes"
    if sub == "end":
        if k != "play":
            raise IllegalAction("现在不是你的出牌时机")
        return {"a": "end"}
    if sub == "resp":
        if k != "respond":
            raise IllegalAction("现在不需要响应")
        if not tokens:
            return None
        return _hand_card(g, seat, _int_tokens(tokens[0])[0])
    if sub == "play":
        if k != "play":
            raise IllegalAction("现在不是你的出牌时机")
        if not tokens:
            raise InputSyntaxError("请给出手牌序号", usage=".moe play 序号 [当] [目标]")
        cid = _hand_card(g, seat, _int_tokens(tokens[0])[0])
        convert = "当" in tokens[1:]
        seats, _rest = _targets(ctx, [t for t in tokens[1:] if t != "当"], state)
        for o in ask.options:
            if o["a"] == "card" and o["card"] == cid and bool(o.get("as")) == convert:
                return {"a": "card", "card": cid, "as": o.get("as"), "targets": seats}
        raise IllegalAction("这张牌现在不能使用" + ("（没有可当作的牌）" if convert else ""))
    if sub == "skill":
        if k != "play":
            raise IllegalAction("现在不是你的出牌时机")
        if not tokens:
            raise InputSyntaxError("请给出技能名", usage=".moe skill 技能名 [目标] [弃 序号…]")
        name = tokens[0]
        seats, rest_t = _targets(ctx, tokens[1:], state)
        cost: list[int] = []
        if "弃" in rest_t:
            cost = [_hand_card(g, seat, n) for n in _int_tokens(" ".join(rest_t[rest_t.index("弃") + 1 :]))]
        for o in ask.options:
            if o["a"] == "skill" and name in (o["key"], g.pack.skills[o["key"]].name):
                ans: dict[str, Any] = {"a": "skill", "uid": o["uid"], "targets": seats}
                if o.get("cost_n"):
                    ans["cost"] = cost
                return ans
        raise IllegalAction(f"现在不能发动「{name}」")
    if sub == "give":
        if k != "distribute":
            raise IllegalAction("现在不需要分配牌")
        dist = []
        for t in tokens:
            if ":" not in t and "：" not in t:
                raise InputSyntaxError(f"「{t}」格式应为 座位号:序号,序号", usage=".moe give 2号:1,2 3号:3")
            who, cards = re.split(r"[:：]", t, maxsplit=1)
            s = _parse_seat(who if who.endswith("号") or who.startswith("#") else who + "号", state)
            if s is None:
                raise InputSyntaxError(f"不认识的角色「{who}」", usage=".moe give 2号:1,2 3号:3")
            dist.append([s, [_hand_card(g, seat, n) for n in _int_tokens(cards.replace(",", " "))]])
        return dist
    if sub == "choose":
        nums = _int_tokens(rest)
        if k == "choose_cards":
            pos = {i + 1: c for i, c in enumerate(g.hand(seat))}
            if all(c in pos.values() for c in ask.options):
                return [pos[n] if n in pos else -1 for n in nums]
            return [ask.options[n - 1] if 1 <= n <= len(ask.options) else -1 for n in nums]
        if k == "choose_blind":
            return [ask.options[n - 1] if 1 <= n <= len(ask.options) else "?" for n in nums]
        if k == "choose_players":
            return [n - 1 for n in nums]
        if k in ("choose_option", "order"):
            if len(nums) != 1:
                raise InputSyntaxError("请给出一个序号", usage=".moe choose 序号")
            return nums[0] - 1
        if k == "arrange":
            return [ask.options[n - 1] if 1 <= n <= len(ask.options) else -1 for n in nums]
        if k == "respond":
            return _hand_card(g, seat, nums[0]) if nums else None
        if k == "invoke":
            return bool(nums and nums[0])
        raise IllegalAction("现在不需要选择")
    raise IllegalAction("无法理解的回答")  # pragma: no cover


async def _act(call: Call, sub: str, rest: str) -> list[Reply]:
    scope = await _game_scope(call)
    ctx = call.ctx
    seed = call.app.rng.getrandbits(32)
    now = clock()

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], list[Reply]]:
        if not state or state.get("status") != "running":
            raise IllegalAction("没有进行中的萌E游戏")
        seat = _seat_of(state, ctx.user_id)
        rec = state["record"]
        g = rebuild(rec)
        g.drain_events()
        answer = _answer(g, seat, sub, rest, ctx, state)
        g.submit(seat, answer, source="player")
        if g.p(seat).auto and not g.p(seat).flags.get("conceded"):
            admin(g, {"admin": "auto", "seat": seat, "on": False})  # acting again ends 托管
        _run_auto(g, random.Random(seed))
        return _commit(state, g, rec, now, private=ctx.group_id is None)

    return await call.app.store.apply_session(
        scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text
    )


def _commit(
    state: dict[str, Any], g: Game, rec: dict[str, Any], now: float, *, private: bool = False
) -> tuple[dict[str, Any], list[Reply]]:
    """Save the game into the session and render what happened.  For a command typed in private
    chat the public part is queued in the session's ``outbox`` (same transaction); the sweeper
    delivers it to the group."""
    events = g.drain_events()
    state["record"] = to_record(g, rec)
    state["deadline"] = _deadline(state, g, now)
    if g.finished:
        state["status"] = "over"
    replies = _outcome(state, g, events)
    if private:
        kept = []
        for r in replies:
            if r.private:
                kept.append(r)
            else:
                state.setdefault("outbox", []).append(r.text)
                kept.append(Reply.say("已提交，公开信息将发到群里"))
        replies = kept
    return state, replies


async def _admin_op(call: Call, op: dict[str, Any], who: int | None = None) -> list[Reply]:
    scope = await _game_scope(call)
    seed = call.app.rng.getrandbits(32)
    now = clock()
    ctx = call.ctx

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], list[Reply]]:
        if not state or state.get("status") != "running":
            raise IllegalAction("没有进行中的萌E游戏")
        seat = _seat_of(state, ctx.user_id) if who is None else who
        rec = state["record"]
        g = rebuild(rec)
        g.drain_events()
        admin(g, {**op, "seat": seat})
        _run_auto(g, random.Random(seed))
        return _commit(state, g, rec, now, private=ctx.group_id is None)

    return await call.app.store.apply_session(
        scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text
    )


async def _auto(call: Call, rest: str) -> list[Reply]:
    on = rest.strip().lower() not in ("off", "关", "取消", "0")
    replies = await _admin_op(call, {"admin": "auto", "on": on})
    return [Reply.say("已开启托管" if on else "已取消托管"), *replies]


async def _quit(call: Call, rest: str) -> list[Reply]:
    return await _admin_op(call, {"admin": "concede"})


async def _kick(call: Call, rest: str) -> list[Reply]:
    scope = await _game_scope(call)
    state, _v = await call.app.store.load_session(scope, SYSTEM)
    if not state or state.get("status") not in ("lobby", "running"):
        raise IllegalAction("没有萌E对局")
    if not await _is_host_or_gm(call, state):
        raise NotPermitted("只有房主或GM可以踢人")
    seats, _ = _targets(call.ctx, rest.split(), state)
    if len(seats) != 1:
        raise InputSyntaxError("请指定一名玩家", usage=".moe kick @某人 或 .moe kick 2号")
    seat = seats[0]
    if state["status"] == "lobby":

        def fn(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
            if not st or st.get("status") != "lobby":
                raise IllegalAction("游戏状态已变化，请重试")
            name = st["players"].pop(seat)["name"]
            return st, name

        name = await call.app.store.apply_session(
            scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text
        )
        return [Reply.say(f"已将{name}移出对局")]
    return await _admin_op(call, {"admin": "concede"}, who=seat)


async def _abort(call: Call, rest: str) -> list[Reply]:
    scope = await _game_scope(call)
    state, _v = await call.app.store.load_session(scope, SYSTEM)
    if not state or state.get("status") not in ("lobby", "running"):
        raise IllegalAction("没有萌E对局")
    if not await _is_host_or_gm(call, state):
        raise NotPermitted("只有房主或GM可以解散对局")

    def fn(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
        if not st:
            raise IllegalAction("没有萌E对局")
        return {**st, "status": "over", "deadline": None, "aborted": True}, "ok"

    await call.app.store.apply_session(scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text)
    return [Reply.say("萌E对局已解散")]


async def _timeout(call: Call, rest: str) -> list[Reply]:
    if call.ctx.group_id is None:
        raise IllegalAction("请在群里设置")
    state, _v = await call.app.store.load_session(call.ctx.group_id, SYSTEM)
    if not state:
        raise IllegalAction("本群还没有萌E对局")
    if not await _is_host_or_gm(call, state):
        raise NotPermitted("只有房主或GM可以设置超时")
    toks = rest.split()
    kinds = {
        "出牌": "play",
        "play": "play",
        "响应": "respond",
        "respond": "respond",
        "选择": "choice",
        "choice": "choice",
    }
    if not toks:
        t = state["timeouts"]
        return [Reply.say(f"超时：出牌{t['play']}秒 响应{t['respond']}秒 选择{t['choice']}秒")]
    which = list(DEFAULT_TIMEOUTS) if toks[0].isdigit() else [kinds.get(toks[0], "")]
    if "" in which:
        raise InputSyntaxError(f"不认识「{toks[0]}」", usage=".moe timeout [出牌|响应|选择] 秒")
    try:
        secs = int(toks[-1])
    except ValueError:
        raise InputSyntaxError("秒数应为整数", usage=".moe timeout [出牌|响应|选择] 秒") from None
    if not 10 <= secs <= 3600:
        raise IllegalAction("超时应在10到3600秒之间")

    def fn(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
        if not st:
            raise IllegalAction("本群还没有萌E对局")
        st["timeouts"] = {**st["timeouts"], **{w: secs for w in which}}
        return st, "ok"

    await call.app.store.apply_session(
        call.ctx.group_id, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text
    )
    return [Reply.say(f"已设置超时为{secs}秒")]


async def _help(call: Call, rest: str) -> list[Reply]:
    return [Reply.say(HELP)]


def _answering(sub: str) -> Callable[[Call, str], Any]:
    async def run(call: Call, rest: str) -> list[Reply]:
        return await _act(call, sub, rest)

    return run


HANDLERS: dict[str, Callable[[Call, str], Any]] = {
    "new": _new,
    "join": _join,
    "leave": _leave,
    "start": _start,
    "state": _state,
    "hand": _hand,
    "auto": _auto,
    "quit": _quit,
    "kick": _kick,
    "abort": _abort,
    "timeout": _timeout,
    "help": _help,
    **{s: _answering(s) for s in ("play", "skill", "resp", "pass", "yes", "no", "choose", "give", "end")},
}


# ====================================================================== timeouts
async def sweep(app: Any, now: float | None = None) -> list[tuple[str, list[Reply]]]:
    """Deliver queued group texts of private commands, and apply the default answer to every
    request whose deadline has passed.  Returns (group id, replies) pairs for the plugin to send.
    Everything it needs is in the database, so it works the same after a restart."""
    now = clock() if now is None else now
    out: list[tuple[str, list[Reply]]] = []
    for scope, state, _v in await app.store.list_sessions(SYSTEM):
        if not state:
            continue
        if state.get("outbox"):

            def take(st: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[str]]:
                if not st or not st.get("outbox"):
                    return st, []
                return {**st, "outbox": []}, list(st["outbox"])

            texts = await app.store.apply_session(scope, SYSTEM, take, command=".moe (outbox)")
            if texts:
                out.append((scope, [Reply.say(t) for t in texts]))
        if state.get("status") != "running" or state.get("deadline") is None or state["deadline"] > now:
            continue
        seed = app.rng.getrandbits(32)

        def fn(st: dict[str, Any] | None, seed: int = seed) -> tuple[dict[str, Any] | None, list[Reply]]:
            if not st or st.get("status") != "running" or st.get("deadline") is None or st["deadline"] > now:
                return st, []
            rec = st["record"]
            g = rebuild(rec)
            g.drain_events()
            ask = g.pending
            if ask is None:
                return {**st, "deadline": None}, []
            g.submit(ask.seat, default_answer(ask), source="timeout")
            note = f"{ask.seat + 1}号{st['players'][ask.seat]['name']}超时，按默认处理" + (
                "，已进入托管" if g.p(ask.seat).auto else ""
            )
            _run_auto(g, random.Random(seed))
            new, replies = _commit(st, g, rec, now)
            return new, [Reply.say(note), *replies]

        try:
            replies = await app.store.apply_session(scope, SYSTEM, fn, command=".moe (timeout)")
        except ChronoDiceError:
            continue
        if replies:
            out.append((scope, replies))
    return out
