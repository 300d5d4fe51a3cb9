"""Glue shared by the ``.moe`` modules: the command declaration, constants, where a game lives,
who may run it (the one permission policy), and the engine helpers every transaction uses."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from chronodice.core.commands import NO_UNDO_SYSTEMS, Call, define
from chronodice.core.context import Context
from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound
from chronodice.core.permissions import Perm, require
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.rules.moe.auto import takeover_answer
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.optout import skips
from chronodice.rules.moe.record import DesyncError, rebuild
from chronodice.rules.moe.recovery import CAUSES
from chronodice.store import json_codec

SYSTEM = "moe"
NO_UNDO_SYSTEMS.add(SYSTEM)  # .undo after seeing cards would be cheating
PACK = "demo"
ROWS = ("record.inputs",)
"""What of a game only grows: its inputs, kept one per row by the store (a 400-input game's
record is ~40 KB, ~27 KB of it inputs), so a command writes the inputs it added."""
MAX_PLAYERS = 8
DEFAULT_TIMEOUTS = {"play": 120, "respond": 45, "choice": 60}
AUTO_LIMIT = 20_000
HOST_OR_GM = "房主或GM"
WAY_ON = (
    "房主或GM可发送 .moe recover 从最近一致的存档（本回合开始时）继续，"
    "或 .moe recover 结束 按目前结果结束对局（也可 .moe abort 解散）"
)
log = logging.getLogger("chronodice.moe")


class GameBroken(IllegalAction):
    """The group's game does not rebuild; the message says why and how to go on."""

    def __init__(self, exc: DesyncError) -> None:
        super().__init__(f"本群的萌E对局出错，无法继续：{CAUSES.get(exc.cause, exc.cause)}。{WAY_ON}")
        self.cause = exc.cause


def load_game(scope: str, rec: dict[str, Any]) -> Game:
    """Rebuild the group's game; a changed pack or a desync is logged and becomes
    :class:`GameBroken` (told to the group, with the way on: ``.moe recover``)."""
    try:
        return rebuild(rec)
    except DesyncError as exc:
        log.error("萌E: the game of group %s does not rebuild (%s): %s", scope, exc.cause, exc)
        raise GameBroken(exc) from exc


FORMS = """萌E（萌战Evolution）卡牌对战，在群里进行，手牌与私密选择通过私聊发送；出牌、响应请私聊骰娘。
.moe new [卡包] [地图] [AI 人数]  开局（地图缺省随机；.moe packs 列出卡包；AI 2 用两个AI补空位）  .moe join / leave  加入/退出
.moe ai 人数  开始前用AI补空位（AI·1、AI·2…，0 移除；房主或GM）；玩家加入已满的对局时替换最后一个AI
.moe start  开始（房主或GM）：随机座次，所有人同时私聊从发到的角色中选一个（限时，超时取第一个）
.moe state  公开局面   .moe hand  我的手牌（私聊）
.moe play 序号或牌名 [当] [目标]  使用手牌（目标写 2、2号 或 @某人）  .moe skill 技能名 [目标] [弃 序号…]
.moe card 牌名或序号 / .moe skill 技能名  查看牌或技能的说明（手牌序号的说明私聊发送）
.moe resp 序号 / .moe pass  响应或不响应   .moe yes / no  是否发动   .moe skill 技能名 总是/从不/询问  可选技能自动发动或不发动
.moe 免问 [本回合|本局|关]  不再询问我反制/恢复（视为立即不响应；自己的回合、自己濒死、被攻击时照常询问）
私聊时直接回复数字即可回答当前请求（出牌：序号 [座位]，0 结束；响应：序号，0 不响应，0 1 / 0 2 不响应并本回合/本局免问；是否发动：1 是 0 否；选择：序号）；手牌序号整个回合不变
.moe choose 序号…  选择牌/角色/选项   .moe give 2号:1,2 3号:3  分配牌   .moe end  结束出牌
.moe auto [on|off]  托管（替你出牌：攻击敌人、防御、回复自己或队友，从不伤害队友）
.moe quit  投降（有队友在场时先询问）  .moe quit 确认  直接投降  .moe quit ai  把座位交给AI，由AI代为出牌至本局结束
GM/房主：.moe kick @某人  .moe abort  .moe timeout [出牌|响应|选择] 秒  .moe recover [继续|结束]（对局出错后）
"""
RULES = """规则取舍：攻击每回合限一次；防御为“使用”；起始手牌4张、摸牌阶段摸2张；濒死时同时询问所有存活角色【恢复】（从当前回合角色起依次优先）；
响应总会询问：攻击的目标、可反制的牌的使用者以外的所有角色、有暗置奥秘的角色（在任何奥秘可能触发的时机），有没有可用的牌都一样，群里看不出区别；
奖惩由地图机制牌决定；施法阶段无默认动作；距离为存活角色间较短的座次差；牌堆耗尽时洗混弃牌堆，两者皆空则平局；
同一时机多个效果：当前回合角色起按座次，各自决定顺序；40轮后平局。
选角色：每人从 min(3, 角色数÷人数) 个角色中选一个（至少1个，同一角色不会发给两人；余下的角色依座次多发一个）。"""
HELP = FORMS + RULES

moe = define(
    "moe",
    aliases=("萌e",),
    summary="萌E卡牌对战：开局、加入、出牌、响应、托管",
    detail=RULES,
    system="萌E",
)


def now(app: Any) -> float:
    """The wall clock deadlines are read on: the app's one clock (:mod:`chronodice.core.clock`)."""
    return app.clock.timestamp()


# ---------------------------------------------------------------------- players and seats
def names(state: dict[str, Any]) -> list[str]:
    return [p["name"] for p in state["players"]]


def fallback(state: dict[str, Any], seat: int) -> str:
    """Told to the group (without content) when a private message cannot be delivered."""
    return f"无法私聊{seat + 1}号{state['players'][seat]['name']}，请加好友后私聊发送 .moe hand 查看"


def running(state: dict[str, Any] | None) -> dict[str, Any]:
    """``state`` when it holds a game in play; otherwise the one reply every command gives."""
    if not state or state.get("status") != "running":
        raise IllegalAction("没有进行中的萌E游戏")
    return state


def seat_of(state: dict[str, Any], user: str) -> int:
    for i, p in enumerate(state["players"]):
        if p["user"] == user:
            return i
    raise IllegalAction("你不在这局萌E游戏中")


# ---------------------------------------------------------------------- refusals and hidden cards
class PublicRefusal(IllegalAction):
    """A refusal that tells nothing about anyone's hidden cards (no game, not your turn, a card
    name the pack does not have): said where the command came from, a group too."""


class HiddenRefusal(IllegalAction):
    """A refusal whose wording depends on the sender's hidden cards (a hand number, a card not
    held, a card that cannot be used now, an answer the private request does not allow).  Typed
    in a group it is told to the sender privately (:func:`refused_privately`)."""


PRIVATE_PLAY = "{name}，回复已私聊发送（出牌、响应请私聊骰娘）"
"""The one line a group hears for a refused answer, whatever the sender's hand holds."""
WHISPER_FAILED = "无法私聊{name}，请先加骰娘为好友，再私聊骰娘出牌"
"""Told to the group instead when the private refusal cannot be delivered (no content)."""


@contextmanager
def about_hidden_cards(ctx: Context) -> Iterator[None]:
    """Refusals raised inside (except :class:`PublicRefusal`) depend on the sender's hidden
    cards: typed in a group they become :class:`HiddenRefusal`; in private chat they stay."""
    try:
        yield
    except (PublicRefusal, HiddenRefusal):
        raise
    except ChronoDiceError as exc:
        if ctx.group_id is None:
            raise
        raise HiddenRefusal(exc.message, usage=exc.usage) from exc


def refused_privately(call: Call, exc: ChronoDiceError) -> list[Reply]:
    """The refusal to the sender by private message; the group hears one line without content,
    the same whatever the hand holds."""
    name = call.name
    return [
        Reply.say(PRIVATE_PLAY.format(name=name)),
        Reply.whisper(exc.user_message, to_user=call.ctx.user_id, fallback=WHISPER_FAILED.format(name=name)),
    ]


# ---------------------------------------------------------------------- where the game is
async def find_user_game(app: Any, user: str) -> tuple[str, dict[str, Any]] | None:
    for scope, state, _v in await app.store.sessions.list_sessions(SYSTEM):
        if (
            state
            and state.get("status") in ("lobby", "running")
            and any(p["user"] == user for p in state["players"])
        ):
            return scope, state
    return None


async def game_scope(call: Call) -> str:
    """The group whose game a command is about: this group, or (in private) the user's game."""
    if call.ctx.group_id is not None:
        return call.ctx.group_id
    found = await find_user_game(call.app, call.ctx.user_id)
    if found is None:
        raise NotFound("你没有正在进行的萌E游戏")
    return found[0]


async def pack_of(call: Call) -> str:
    """The pack of the game the sender is looking at (this group's, or their own game's in
    private chat), else the default pack."""
    scope = call.ctx.group_id
    if scope is None:
        found = await find_user_game(call.app, call.ctx.user_id)
        return str(found[1].get("pack") or PACK) if found else PACK
    state = await call.app.store.sessions.load_state(scope, json_codec(SYSTEM))
    return str((state or {}).get("pack") or PACK)


async def require_host_or_gm(call: Call, scope: str, state: dict[str, Any], what: str) -> None:
    """The game's creator or a GM **of the game's group** — also when sent from private chat
    (where the sender would otherwise rule their own scope)."""
    group = await call.app.store.groups.get_group(scope)
    require(
        call.ctx,
        Perm.GM,
        what,
        gms=group.gms,
        extra=tuple(u for u in (state.get("host"),) if u),
        who=HOST_OR_GM,
        group_scope=True,
    )


# ---------------------------------------------------------------------- engine helpers
def deadline(state: dict[str, Any], g: Game, at: float) -> float | None:
    if g.pending is None or g.finished:
        return None
    return at + float(state["timeouts"][R.ask_class(g.pending)])


def is_fresh(state: dict[str, Any], g: Game) -> bool:
    """Whether the open request is new since the session was saved (a response window that some
    seats answered is the same request: it is not announced again)."""
    return g.pending is not None and state.get("ask_serial") != g.pending.serial


def set_deadline(state: dict[str, Any], g: Game, at: float) -> None:
    """Start the clock of the open request: its ``deadline``, and when it was asked and its class
    (``asked_at``, ``ask_class``) so that ``.moe timeout`` can move the deadline of the request
    already waiting.  A window still open keeps the deadline it opened with, so it lasts as long
    whoever answered already and whatever they hold."""
    if not is_fresh(state, g) and g.pending is not None and state.get("deadline") is not None:
        return
    state["deadline"] = deadline(state, g, at)
    ask = g.pending
    if ask is not None and ask.reason == "character" and state.get("pick_deadline") is not None:
        state["deadline"] = float(state["pick_deadline"])  # everyone chooses at once: one deadline
    waiting = state["deadline"] is not None and g.pending is not None
    state["asked_at"] = at if waiting else None
    state["ask_class"] = R.ask_class(g.pending) if waiting and g.pending is not None else None
    state["ask_serial"] = g.pending.serial if waiting and g.pending is not None else None


SKILL_PREF = "skill_pref"
"""Session key: ``{seat: {skill key: True (总是发动) | False (从不)}}`` (``.moe skill X 总是``)."""


def preset(state: dict[str, Any] | None, ask: Any, seat: int) -> bool | None:
    """The seat's standing answer to a 是否发动 question about one of its optional skills."""
    if state is None or ask.kind != "invoke" or ask.reason != "invoke":
        return None
    got = (state.get(SKILL_PREF) or {}).get(str(seat), {}).get(str(ask.info.get("skill")))
    return got if isinstance(got, bool) else None


NO_ASK = "no_ask"
"""Session key: ``{seat: opt-out}`` (``.moe 免问``: :mod:`chronodice.rules.moe.optout`)."""


def opted_out(state: dict[str, Any] | None, g: Game, ask: Any, seat: int) -> bool:
    """Whether ``seat`` passes ``ask`` unasked: its 免问 covers this window (public facts only,
    never its hand)."""
    if state is None:
        return False
    return skips(g, ask, seat, (state.get(NO_ASK) or {}).get(str(seat)))


def run_auto(g: Game, rng: random.Random, state: dict[str, Any] | None = None) -> None:
    """Players on 托管 answer at once (logged as ``auto`` inputs), in a response window too —
    each for itself, whatever the others still have to answer; with the session ``state``, an
    optional skill set to 总是/从不 is answered so too (logged as ``pref``), and a seat that
    opted out of the window (``.moe 免问``) passes at once, holding a card or not (``optout``)."""
    for _ in range(AUTO_LIMIT):
        ask = g.pending
        if ask is None:
            return
        seat = next((s for s in ask.waiting if g.p(s).auto), None)
        if seat is not None:
            g.submit(seat, takeover_answer(g, ask.for_seat(seat), rng), source="auto")
            continue
        seat = next((s for s in ask.waiting if opted_out(state, g, ask, s)), None)
        if seat is not None:
            g.submit(seat, None, source="optout")
            continue
        seat = next((s for s in ask.waiting if preset(state, ask, s) is not None), None)
        if seat is None:
            return
        g.submit(seat, preset(state, ask, seat), source="pref")
