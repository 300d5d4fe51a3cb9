"""Answering the open request: ``play skill resp pass yes no choose give end``; the admin inputs
of ``auto`` (托管) and ``quit`` (投降) go through :func:`admin_op` (the commands: :mod:`.away`).

Every command is one transaction (``store.apply_session``): rebuild the engine, apply the
answer, let players on 托管 answer, save; a lost race re-runs from the new state, and an answer
to a request that is no longer open is refused, so two people answering at once cannot corrupt a
game.  Typed in private chat, the public part of what happened waits in the outbox.  Typed in
a group, a refusal that depends on the sender's hand (a card not held, one that cannot be used
now, a hand number) goes to the sender privately; the group hears one line without content.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from chronodice.core.args import Choice, Name, arg, flag, many, opt
from chronodice.core.commands import Call
from chronodice.core.errors import ChronoDiceError, IllegalAction
from chronodice.core.reply import Reply
from chronodice.render.moe_info import find_card, find_skill, skill_info
from chronodice.rules.moe.ai import is_ai, is_ai_user
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.pack import load_pack
from chronodice.rules.moe.record import admin
from chronodice.store import json_codec

from . import choice
from ._common import (
    SKILL_PREF,
    SYSTEM,
    HiddenRefusal,
    PublicRefusal,
    about_hidden_cards,
    game_scope,
    load_game,
    moe,
    now,
    pack_of,
    refused_privately,
    run_auto,
    running,
    seat_of,
)
from .expect import expected
from .kinds import CARD_REF, DISCARD, GIVE, USE_TARGET, Gift, Player, Seat, index
from .numbers import card_at, number_map
from .outbox import commit

Answer = Callable[[Game, int, Any, dict[str, Any]], Any]
"""Builds the engine's answer from (game, the sender's seat, the open request, the session)."""

TARGETS = many("targets", USE_TARGET, required=False, label="目标")


# ---------------------------------------------------------------------- helpers
def hand_cards_named(state: dict[str, Any], g: Game, seat: int, ref: int | str) -> list[int]:
    """The sender's hand cards meant by ``ref``: the card numbered n (numbers hold for the whole
    turn: :mod:`.numbers`), or every card of that name."""
    if isinstance(ref, int):
        return [card_at(state, g, seat, ref)]
    key = find_card(g.pack, ref)
    if key is None:
        raise PublicRefusal(f"没有名为「{ref[:12]}」的牌")  # the pack's, not the hand's
    found = [c for c in g.hand(seat) if g.card(c).key == key]
    if not found:
        raise IllegalAction(f"你的手牌中没有【{g.cdef(key).name}】")
    return found


def resolve(call: Call, targets: Sequence[Any], state: dict[str, Any]) -> list[int]:
    """Seats of the players named by @ (a QQ number), ``2号``/``#2`` or a name."""
    seats = []
    for t in targets:
        if isinstance(t, Seat):
            seats.append(t.no - 1)
            continue
        key = t.name if isinstance(t, Player) else str(t)
        found = [i for i, p in enumerate(state["players"]) if key in (p["name"], p["user"])]
        if not found:
            raise call.usage_error(f"不认识的角色「{key[:20]}」")
        seats.append(found[0])
    return seats


def _game(scope: str, state: dict[str, Any]) -> tuple[dict[str, Any], Game]:
    """The running game's record and the game rebuilt from it, its pending events drained: what
    every play command starts from."""
    rec = state["record"]
    g = load_game(scope, rec)
    g.drain_events()
    return rec, g


Step = Callable[[dict[str, Any] | None], tuple[dict[str, Any], list[Reply]]]
"""One command's transaction: the session in, the session to save and the replies out."""


async def answered(call: Call, scope: str, fn: Step) -> list[Reply]:
    """Run ``fn`` as the command's transaction; a refusal about the sender's hidden cards typed
    in a group goes to the sender privately (:func:`._common.refused_privately`)."""
    try:
        replies: list[Reply] = await call.app.store.sessions.apply_session(
            scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
        )
    except HiddenRefusal as exc:
        return refused_privately(call, exc)
    return replies


async def act(call: Call, build: Answer) -> list[Reply]:
    """Answer the open request as the sender (one transaction).  What ``build`` and the engine
    refuse depends on the sender's hand, except a :class:`PublicRefusal`: typed in a group, the
    refusal goes privately and the group hears one line that is the same whatever the hand."""
    scope = await game_scope(call)
    ctx = call.ctx
    seed = call.app.rng.getrandbits(32)
    at = now(call.app)

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], list[Reply]]:
        state = running(state)
        seat = seat_of(state, ctx.user_id)
        rec, g = _game(scope, state)
        if handed_over(g, seat):
            raise PublicRefusal(AI_SEAT)
        ask = g.pending
        if ask is None:
            raise IllegalAction("现在没有需要回答的请求")
        if seat not in ask.waiting:
            raise IllegalAction("现在不是在等你的回应")
        with about_hidden_cards(ctx):
            g.submit(seat, build(g, seat, ask.for_seat(seat), state), source="player")
        if g.p(seat).auto and not g.p(seat).flags.get("conceded"):
            admin(g, {"admin": "auto", "seat": seat, "on": False})  # acting again ends 托管
        run_auto(g, random.Random(seed), state)
        return commit(state, g, rec, at, private=ctx.group_id is None, actor=seat)

    return await answered(call, scope, fn)


AI_SEAT = "你的座位已交给AI，本局由AI代为出牌"
"""The refusal to a player whose seat they handed to the AI (``.moe quit ai``): for good."""


def handed_over(g: Game, seat: int) -> bool:
    """Whether a player's seat was handed to the AI (not a seat the host filled with AI·N)."""
    return is_ai(g, seat) and not is_ai_user(g.p(seat).user)


async def admin_op(call: Call, op: dict[str, Any], who: int | None = None) -> list[Reply]:
    """An out-of-turn change (托管, 投降, handing the seat to the AI, kick) for the sender's seat
    (refused once they handed it to the AI) or ``who``."""
    scope = await game_scope(call)
    seed = call.app.rng.getrandbits(32)
    at = now(call.app)
    ctx = call.ctx

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], list[Reply]]:
        state = running(state)
        seat = seat_of(state, ctx.user_id) if who is None else who
        rec, g = _game(scope, state)
        if who is None and handed_over(g, seat):
            raise PublicRefusal(AI_SEAT)
        admin(g, {**op, "seat": seat})
        run_auto(g, random.Random(seed), state)
        return commit(state, g, rec, at, private=ctx.group_id is None, force=True)

    return await call.app.store.sessions.apply_session(
        scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text, claim=call.claim
    )


PREF = Choice(
    {"总是": "always", "always": "always", "从不": "never", "never": "never", "询问": "ask", "ask": "ask"},
    label="总是/从不/询问",
)
PREF_TEXT = {"always": "总是发动（不再询问）", "never": "从不发动（不再询问）", "ask": "每次询问"}


async def set_pref(call: Call, name: str, pref: str) -> list[Reply]:
    """``.moe skill 奇境 总是``: answer that optional skill's 是否发动 question without asking."""
    scope = await game_scope(call)
    ctx = call.ctx

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
        state = running(state)
        seat = seat_of(state, ctx.user_id)
        g = load_game(scope, state["record"])
        key = find_skill(g.pack, name)
        own = {i.key for i in g.p(seat).skills} | {k for _c, k in g.equipment_skills(seat)}
        if key is None or key not in own:
            raise IllegalAction(f"你没有技能「{name[:12]}」")
        if g.sdef(key).kind not in ("trigger", "limited", "faith"):
            raise IllegalAction(f"【{g.sdef(key).name}】不是可选择是否发动的技能")
        mine = state.setdefault(SKILL_PREF, {}).setdefault(str(seat), {})
        if pref == "ask":
            mine.pop(key, None)
        else:
            mine[key] = pref == "always"
        return state, f"【{g.sdef(key).name}】：{PREF_TEXT[pref]}"

    text = await call.app.store.sessions.apply_session(
        scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text, claim=call.claim
    )
    return [Reply.say(text)]


def lone_target(ask: Any, cids: list[int], convert: bool) -> list[int]:
    """The one legal target of a one-target card played without naming one (``1`` on a phone
    plays an 攻击 at the only seat in range); none when there is a choice."""
    for o in ask.options:
        if o["a"] == "card" and o["card"] in cids and bool(o.get("as")) == convert and o["mode"] == "one":
            return list(o["targets"]) if len(o["targets"]) == 1 else []
    return []


async def in_character_choice(call: Call) -> bool:
    """Whether the sender's game is still choosing characters (read without a transaction: the
    pick itself checks again)."""
    scope = await game_scope(call)
    state = await call.app.store.sessions.load_state(scope, json_codec(SYSTEM))
    return bool(state and state.get("status") == "running" and state.get(choice.PICKS) is not None) and (
        choice.choosing(load_game(scope, state["record"]))
    )


async def pick_character(call: Call, n: int) -> list[Reply]:
    """A character choice, at any time while everyone chooses (:mod:`.choice`)."""
    scope = await game_scope(call)
    seed = call.app.rng.getrandbits(32)
    at = now(call.app)
    ctx = call.ctx

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any], list[Reply]]:
        state = running(state)
        seat = seat_of(state, ctx.user_id)
        rec, g = _game(scope, state)
        if not choice.choosing(g):
            raise IllegalAction("角色已经选定，游戏已开始")
        with about_hidden_cards(ctx):  # another's offer, or one's own choice so far
            line = choice.pick(state, g, seat, n, random.Random(seed))
        saved, replies = commit(state, g, rec, at, private=ctx.group_id is None)
        mine = [r for r in replies if r.private and r.to_user == ctx.user_id]
        if mine:  # the choice completed the table: the hand follows the choice
            idx = replies.index(mine[0])
            replies[idx] = Reply.whisper(
                f"{line}\n{mine[0].text}", to_user=ctx.user_id, fallback=mine[0].fallback
            )
        else:
            replies.append(Reply.whisper(line, to_user=ctx.user_id))
        return saved, replies

    return await answered(call, scope, fn)


def _need(ask: Any, *kinds: str, refusal: str) -> None:
    """The kind of answer awaited from the sender (whose turn it is, whether a window waits for
    them) is public: this refusal may be said in a group."""
    if ask.kind not in kinds:
        raise PublicRefusal(refusal)


NOT_PLAY_TIME = "现在不是你的出牌时机"


def secret_choice(g: Game, ask: Any, ref: int | str) -> int:
    """The 奥秘 meant by ``ref`` in a 奥秘 pause: the n-th one offered, or the one of that name."""
    if isinstance(ref, int):
        if not 1 <= ref <= len(ask.options):
            raise IllegalAction(f"没有第{ref}个可翻开的奥秘（共{len(ask.options)}个）")
        return int(ask.options[ref - 1])
    key = find_card(g.pack, ref)
    found = [c for c in ask.options if g.card(c).key == key]
    if not found:
        raise IllegalAction(f"现在不能翻开「{ref[:12]}」")
    return int(found[0])


# ---------------------------------------------------------------------- the answers
@moe.sub(
    "play",
    "出牌",
    "出",
    params=[arg("n", CARD_REF), TARGETS],
    flags=[flag("convert", "当")],
    help="使用手牌：序号或牌名（目标写 2号 或 @某人；当：当作另一张牌使用）",
)
async def moe_play(call: Call, n: int | str, targets: list[Any], convert: bool) -> list[Reply]:
    def build(g: Game, seat: int, ask: Any, state: dict[str, Any]) -> Any:
        _need(ask, "play", refusal=NOT_PLAY_TIME)
        cids = hand_cards_named(state, g, seat, n)
        seats = resolve(call, targets, state)
        seats = seats or lone_target(ask, cids, convert)
        for cid in cids:  # by name: the first card of that name that can be used this way
            for o in ask.options:
                if o["a"] == "card" and o["card"] == cid and bool(o.get("as")) == convert:
                    return {"a": "card", "card": cid, "as": o.get("as"), "targets": seats}
        raise IllegalAction(
            ("这张牌" if len(cids) == 1 else "这些牌")
            + "现在不能使用"
            + ("（没有可当作的牌）" if convert else "")
        )

    return await act(call, build)


@moe.sub(
    "skill",
    "技能",
    "技",
    params=[
        arg("name", Name(label="技能名")),
        opt("pref", PREF, default=None),
        TARGETS,
        opt("cost", DISCARD, default=None),
    ],
    help="发动技能（弃 序号…：作为代价弃置的手牌；总是/从不/询问：可选技能是否自动发动）",
)
async def moe_skill(
    call: Call, name: str, pref: str | None, targets: list[Any], cost: list[int] | None
) -> list[Reply]:
    """Use a skill in one's 行动阶段; when it cannot be used now (not one's turn, a passive
    skill, no game at all) and nothing but its name was given, show its text instead.
    ``总是``/``从不``/``询问``: the standing answer to its 是否发动 question."""
    if pref is not None:
        return await set_pref(call, name, pref)

    def build(g: Game, seat: int, ask: Any, state: dict[str, Any]) -> Any:
        _need(ask, "play", refusal=NOT_PLAY_TIME)
        seats = resolve(call, targets, state)
        paid = [card_at(state, g, seat, i) for i in cost or []]
        for o in ask.options:
            if o["a"] == "skill" and name in (o["key"], g.pack.skills[o["key"]].name):
                ans: dict[str, Any] = {"a": "skill", "uid": o["uid"], "targets": seats}
                if o.get("cost_n"):
                    ans["cost"] = paid
                return ans
        raise IllegalAction(f"现在不能发动「{name}」")

    try:
        return await act(call, build)
    except ChronoDiceError as exc:
        if targets or cost:
            raise
        pack = load_pack(await pack_of(call))
        key = find_skill(pack, name)
        if key is None:
            raise
        return [Reply.say(skill_info(pack, key) + f"\n（{exc}）")]


@moe.sub(
    "resp",
    "响应",
    params=[opt("n", CARD_REF)],
    help="用手牌响应：序号或牌名（不写即不响应）",
)
async def moe_resp(call: Call, n: int | str | None) -> list[Reply]:
    def build(g: Game, seat: int, ask: Any, state: dict[str, Any]) -> Any:
        _need(ask, "respond", refusal="现在不需要响应")
        if n is None:
            return None
        if ask.reason == "secret":
            return secret_choice(g, ask, n)
        cids = hand_cards_named(state, g, seat, n)
        return next((c for c in cids if c in ask.options), cids[0])

    return await act(call, build)


@moe.sub("pass", "不出", "不响应", help="不响应／放弃（出牌时即结束出牌）")
async def moe_pass(call: Call) -> list[Reply]:
    def build(g: Game, seat: int, ask: Any, state: dict[str, Any]) -> Any:
        k = ask.kind
        if k == "play":
            return {"a": "end"}
        if k in ("respond", "distribute") or ask.optional:
            return None if k == "respond" else []
        if k == "invoke":
            return False
        raise IllegalAction("这个选择不能放弃（须）")

    return await act(call, build)


def _yes_no(value: bool) -> Answer:
    """是/否 to a 是否发动 question, or to a 奥秘 pause (是: its one 奥秘 that can be flipped)."""

    def build(g: Game, seat: int, ask: Any, state: dict[str, Any]) -> Any:
        if ask.kind == "respond" and ask.reason == "secret":
            if not value:
                return None
            if len(ask.options) != 1:
                raise IllegalAction(
                    "你的奥秘此时都不能翻开，请 .moe pass"
                    if not ask.options
                    else "请用 .moe resp 序号 选择要翻开的奥秘"
                )
            return ask.options[0]
        _need(ask, "invoke", refusal="现在不是是否发动的询问")
        return value

    return build


@moe.sub("yes", "是", "发动", help="发动（回答是否发动的询问）")
async def moe_yes(call: Call) -> list[Reply]:
    return await act(call, _yes_no(True))


@moe.sub("no", "否", help="不发动")
async def moe_no(call: Call) -> list[Reply]:
    return await act(call, _yes_no(False))


@moe.sub(
    "choose",
    "选",
    "discard",
    "弃",
    params=[many("nums", index(), required=False, label="序号")],
    help="选择牌、角色或选项（序号可用空格或逗号分开）",
)
async def moe_choose(call: Call, nums: list[int]) -> list[Reply]:
    if await in_character_choice(call):
        if len(nums) != 1:
            raise call.usage_error("请给出一个序号")
        return await pick_character(call, nums[0])

    def build(g: Game, seat: int, ask: Any, state: dict[str, Any]) -> Any:
        k = ask.kind
        if not nums or k in ("play", "distribute"):  # nothing chosen: say what is expected
            raise IllegalAction(expected(ask))
        if k == "choose_cards":
            pos = {v: c for c, v in number_map(state, g, seat).items()}
            if all(c in pos.values() for c in ask.options):
                return [pos[n] if n in pos else -1 for n in nums]
            return [ask.options[n - 1] if 1 <= n <= len(ask.options) else -1 for n in nums]
        if k == "choose_blind":
            return [ask.options[n - 1] if 1 <= n <= len(ask.options) else "?" for n in nums]
        if k == "choose_players":
            return [n - 1 for n in nums]
        if k in ("choose_option", "order"):
            if len(nums) != 1:
                raise call.usage_error("请给出一个序号")
            return nums[0] - 1
        if k == "arrange":
            return [ask.options[n - 1] if 1 <= n <= len(ask.options) else -1 for n in nums]
        if k == "respond":
            if ask.reason == "secret":
                return secret_choice(g, ask, nums[0])
            return card_at(state, g, seat, nums[0])
        return bool(nums[0])  # invoke: 1 是, 0 否

    return await act(call, build)


@moe.sub(
    "give",
    "给",
    params=[many("gifts", GIVE, required=False, label="座位号:序号,序号")],
    help="分配牌：2号:1,2 3号:3",
)
async def moe_give(call: Call, gifts: list[Gift]) -> list[Reply]:
    def build(g: Game, seat: int, ask: Any, state: dict[str, Any]) -> Any:
        _need(ask, "distribute", refusal="现在不需要分配牌")
        return [[gift.seat - 1, [card_at(state, g, seat, n) for n in gift.cards]] for gift in gifts]

    return await act(call, build)


@moe.sub("end", "结束出牌", "结束", help="结束出牌阶段")
async def moe_end(call: Call) -> list[Reply]:
    def build(g: Game, seat: int, ask: Any, state: dict[str, Any]) -> Any:
        _need(ask, "play", refusal=NOT_PLAY_TIME)
        return {"a": "end"}

    return await act(call, build)
