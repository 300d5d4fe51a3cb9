"""D20 tick system commands: ``.rc`` checks, ``.ri`` joins, the ``.init`` tracker, ``.ap``,
``.延后``, ``.ed``, ``.wound`` and ``.hp`` (tick20.md §4).

Each state-changing command is one store transaction: load the group's combat, run the pure
engine (:mod:`chronodice.rules.tick20.engine`), save with compare-and-set.  Randomness is rolled
*before* the transaction, so a retried transaction never rolls twice.  ``.init next`` carries the
turn number the sender saw, so two people advancing at once move the turn only once (C02).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from chronodice.core.commands import Call, command
from chronodice.core.context import Context
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound, NotPermitted
from chronodice.core.reply import Reply
from chronodice.dice import roll_command
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.durations import DURATION_HELP, looks_like_duration, parse_duration
from chronodice.rules.tick20.model import Combat, Combatant, Event, InitMod, InitRoll, Phase, Variant
from chronodice.rules.tick20.modifiers import Modifier, parse_mod_type, stack
from chronodice.rules.tick20.variants import VARIANT_ALIASES

SYSTEM = "tick20"
SYS_NAME = "D20刻度"
GM_WHO = "本场战斗的GM（开战者、.init gm 指定者）或群管理"
MAX_BATCH = 12
ADVANCE_GRACE = 1.0
"""Seconds after someone else advanced the turn during which a ``.init next`` from a person who
does not control the new current actor counts as a duplicate of that advance (C02: two people
pressing at once, processed one after the other)."""

Fn = Callable[[Combat | None], E.Outcome]


# --------------------------------------------------------------------------- store glue
async def load(call: Call) -> Combat | None:
    raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
    if not raw or raw.get("phase") == Phase.ENDED.value:
        return None
    return Combat.from_dict(raw)


async def apply(call: Call, fn: Fn) -> tuple[Combat, list[Event]]:
    """Run ``fn`` on the stored combat inside one transaction (retried on a lost race)."""

    def step(raw: dict[str, Any] | None) -> tuple[dict[str, Any] | None, E.Outcome]:
        state = None if not raw or raw.get("phase") == Phase.ENDED.value else Combat.from_dict(raw)
        outcome = fn(state)
        return outcome.state.to_dict(), outcome

    outcome: E.Outcome = await call.app.store.apply_session(
        call.ctx.scope, SYSTEM, step, user_id=call.ctx.user_id, command=call.command_text
    )
    return outcome.state, outcome.events


def fresh(owner: str, **options: Any) -> Combat:
    """A new combat; undo goes through the store's session log, so no snapshots in the state."""
    return E.new_combat(owner, undo_depth=0, **options)


def need(state: Combat | None) -> Combat:
    if state is None:
        raise IllegalAction("本群没有进行中的战斗（.init begin 开始）")
    return state


async def is_gm(call: Call, state: Combat | None) -> bool:
    if state is not None and call.ctx.user_id in state.gms:
        return True
    return bool(await call.app.is_gm(call.ctx))


async def require_gm(call: Call, state: Combat | None, what: str) -> None:
    if not await is_gm(call, state):
        raise NotPermitted(f"只有{GM_WHO}可以{what}")


def controls(ctx: Context, c: Combatant) -> bool:
    return c.controller == ctx.user_id


async def require_control(call: Call, state: Combat, c: Combatant, what: str) -> None:
    if controls(call.ctx, c) or await is_gm(call, state):
        return
    raise NotPermitted(f"只有 {c.name} 的玩家或 GM 可以{what}")


def split_targets(text: str) -> list[str]:
    return [t for t in re.split(r"[;/,，；、]", text) if t.strip()]


def whisper_gms(state: Combat, text: str, sender: str) -> list[Reply]:
    """Private messages to the combat's GMs (the sender at least)."""
    targets = list(dict.fromkeys([sender, *state.gms]))[:3]
    return [
        Reply.whisper(text, to_user=uid, fallback="（给GM的私聊发送失败，请先加骰娘为好友）")
        for uid in targets
    ]


def find_me(state: Combat, ctx: Context) -> Combatant:
    mine = [c for c in state.combatants if c.controller == ctx.user_id]
    if not mine:
        raise NotFound("你还没有参战者（.ri 加入）")
    current = [c for c in mine if c.id == state.current]
    return current[0] if current else mine[0]


def target_of(state: Combat, ctx: Context, word: str) -> Combatant:
    if word in ("我", "me", "自己"):
        return find_me(state, ctx)
    return E.find(state, word)


# --------------------------------------------------------------------------- checks
CHECK_USAGE = ".rc <技能/属性/修正> [目标值] [优势/劣势/被动] [±N类型] [对抗N]"


def parse_edge_words(words: list[str]) -> tuple[bool, bool, bool, list[str]]:
    adv = dis = passive = False
    rest = []
    for w in words:
        if w in ("优势", "adv"):
            adv = True
        elif w in ("劣势", "dis"):
            dis = True
        elif w in ("被动", "passive", "DC", "dc"):
            passive = True
        else:
            rest.append(w)
    return adv, dis, passive, rest


MOD_RE = re.compile(r"^([+-]\d{1,3})(通用|环境|内在|状态|通|环|内|状)?$")


def parse_mods(words: list[str]) -> tuple[list[Modifier], list[str]]:
    mods, rest = [], []
    for w in words:
        m = MOD_RE.match(w)
        if m:
            mods.append(Modifier(int(m.group(1)), parse_mod_type(m.group(2) or ""), source="加值"))
        else:
            rest.append(w)
    return mods, rest


def tokens(args: str) -> list[str]:
    """Split arguments into words, also where players leave out spaces (``运动15``, ``+2环境``);
    a ``=表达式`` (fixed initiative or a dice expression) stays one word.

    >>> tokens("运动15 优势"), tokens("=1d6+10巨魔 暗")
    (['运动', '15', '优势'], ['=1d6+10', '巨魔', '暗'])
    """
    out: list[str] = []
    for word in args.split():
        expr = re.match(r"^(=[0-9dD+\-*/()]+)(.*)$", word)
        if expr:
            out.append(expr.group(1))
            word = expr.group(2)
            if not word:
                continue
        spaced = re.sub(r"(?<=[^\s+\-=\d])(?=[+\-]\d)|(?<=\d)(?=[^\d\s])|(?<=[^\s\d+\-=])(?=\d)", " ", word)
        out.extend(spaced.split())
    return out


@command(
    "rc",
    usage=CHECK_USAGE,
    summary="D20刻度检定：.rc 运动 15 优势、.rc 先攻、.rc 被动 洞悉、.rc DEX+INS 13（004双骰）",
    detail=(
        "技能取角色卡的属性（属性/2−5）、熟练度×2、LV−4；±N可带类型（通用/环境/内在/状态），同类加值、减值各只取最大\n"
        "优势/劣势只多掷一枚D20，同时具有则抵消；被动检定骰值为10，优势+5、劣势−5\n"
        "成功度=判定值−目标值，≥10 大成功；失败度≥10 大失败；N1/N20 只在主动技能检定中 ∓10\n"
        "对抗N：以对方判定值N为目标（平手时发起者胜）"
    ),
    system=SYS_NAME,
)
async def cmd_rc(call: Call) -> list[Reply]:
    words = tokens(call.args)
    if not words:
        raise call.usage_error("请写出技能、属性或修正值")
    char = call.view.character if call.view is not None else None
    attrs = dict(char.attributes) if char is not None else {}
    adv, dis, passive, words = parse_edge_words(words)
    mods, words = parse_mods(words)
    opposed: int | None = None
    target: int | None = None
    rest: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("对抗", "vs") and i + 1 < len(words) and re.fullmatch(r"-?\d{1,3}", words[i + 1]):
            opposed = int(words[i + 1])
            i += 2
            continue
        if re.fullmatch(r"-?\d{1,3}", w) and rest:
            target = int(w)
        else:
            rest.append(w)
        i += 1
    if not rest:
        raise call.usage_error("请写出技能、属性或修正值")
    what = rest[0]
    reason = " ".join(rest[1:])[:30]
    two = re.fullmatch(r"([A-Za-z]{3}|d\d{1,3})\+([A-Za-z]{3}|d\d{1,3})", what)
    if two:
        sizes = tuple(
            int(p[1:]) if p.lower().startswith("d") and p[1:].isdigit() else C.attribute_die_004(attrs, p)
            for p in (two.group(1), two.group(2))
        )
        roll2 = C.roll_two_die(call.app.rng, (sizes[0], sizes[1]), mods)
        label = what.upper()
        return [
            Reply.say(R.two_die_text(call.name, label, roll2, opposed if opposed is not None else target))
        ]
    skill_mods: list[Modifier] = []
    skill = True
    if re.fullmatch(r"[+-]?\d{1,3}", what):
        skill_mods = [Modifier(int(what), source="")]
        label = "D20"
    elif what in C.ATTRIBUTES or any(what in v for v in C.ATTRIBUTES.values()):
        name = what if what in C.ATTRIBUTES else next(k for k, v in C.ATTRIBUTES.items() if what in v)
        value = C.attribute_value(attrs, name)
        if value is None:
            raise NotFound(f"角色卡上没有{name}（.st {name} 12 设置）")
        skill_mods = [Modifier(C.attribute_modifier(value), source=name)]
        skill = False
        label = name
    else:
        skill_name = C.canonical_skill(what)
        skill_mods = C.skill_modifiers(attrs, skill_name)
        label = what if what == skill_name else f"{what}（{skill_name}）"
    all_mods = [*skill_mods, *mods]
    roll = C.roll_d20(call.app.rng, all_mods, advantage=adv, disadvantage=dis, passive=passive, skill=skill)
    goal = opposed if opposed is not None else target
    judgement = C.judge(roll.total, goal) if goal is not None else None
    text = R.d20_text(
        call.name, label + (f"（{reason}）" if reason else ""), roll, judgement, R.mods_text(all_mods)
    )
    if opposed is not None:
        res = C.opposed(roll.total, opposed)
        text += "\n对抗：" + ("发起者胜" if res.actor_wins else "对方胜") + f"（差{res.margin:+d}）"
    return [Reply.say(text)]


# --------------------------------------------------------------------------- joining
RI_USAGE = ".ri [修正/=值/优势/劣势/被动/暗] [名称][, …]  例 .ri +3 哥布林、.ri =25 巢穴、.ri 3#卫兵"


def _roll_entry(call: Call, state: Combat, words: list[str]) -> tuple[str, dict[str, Any], str]:
    """Parse one ``.ri`` entry; returns (name, add_combatant kwargs, roll text)."""
    adv, dis, passive, words = parse_edge_words(words)
    hidden = False
    rest: list[str] = []
    fixed: int | None = None
    mods: list[Modifier] = []
    for w in words:
        if w in ("暗", "隐藏"):
            hidden = True
        elif w.startswith("="):
            expr = w[1:]
            if re.fullmatch(r"-?\d{1,3}", expr):
                fixed = int(expr)
            else:
                out = roll_command(expr, call.app.rng)
                fixed = int(out.results[0].total)
        elif MOD_RE.match(w):
            m = MOD_RE.match(w)
            assert m is not None
            mods.append(Modifier(int(m.group(1)), parse_mod_type(m.group(2) or ""), source="加值"))
        else:
            rest.append(w)
    name = "".join(rest)
    kwargs: dict[str, Any] = {"hidden": hidden}
    char = call.view.character if call.view is not None else None
    own = not name
    if own:
        name = char.name if char is not None else call.name
        kwargs["controller"] = call.ctx.user_id
    attrs = dict(char.attributes) if (char is not None and own) else {}
    if fixed is not None:
        kwargs["value"] = fixed
        kwargs["init_mod"] = stack(mods)
        return name, kwargs, f"={fixed}"
    if state.variant is Variant.SPD:
        sizes = (
            (C.attribute_die_004(attrs, "DEX"), C.attribute_die_004(attrs, "INS"))
            if attrs and {"DEX", "dex", "敏捷"} & set(attrs)
            else (6, 6)
        )
        roll2 = C.roll_two_die(call.app.rng, sizes, [Modifier(6, "环境"), *mods])
        kwargs["roll"] = InitRoll(
            dice=list(roll2.dice), die=sum(roll2.dice), total=roll2.total, two_die=True, doubles=roll2.doubles
        )
        extra = f" 双{roll2.doubles}" if roll2.doubles is not None else ""
        return (
            name,
            kwargs,
            f"d{sizes[0]}+d{sizes[1]}=[{roll2.dice[0]},{roll2.dice[1]}]{roll2.modifier:+d}={roll2.total}{extra}",
        )
    base_mods = C.skill_modifiers(attrs, "洞悉") if attrs else []
    roll = C.roll_d20(call.app.rng, [*base_mods, *mods], advantage=adv, disadvantage=dis, passive=passive)
    kwargs["roll"] = InitRoll(
        dice=list(roll.dice),
        die=roll.die,
        total=roll.total,
        nat=roll.nat,
        passive=roll.passive,
        edge=roll.edge,
    )
    dice = "被动10" if roll.passive else f"D20={'/'.join(map(str, roll.dice))}"
    nat = f"（{roll.nat}）" if roll.nat else ""
    return name, kwargs, f"{dice}{roll.modifier:+d}={roll.total}{nat}"


def expand_names(name: str) -> list[str]:
    m = re.fullmatch(r"(\d{1,2})#(.+)", name)
    if not m:
        return [name]
    n = int(m.group(1))
    if not 1 <= n <= MAX_BATCH:
        raise InputSyntaxError(f"一次最多加入{MAX_BATCH}名")
    return [f"{m.group(2)}{chr(ord('a') + i)}" for i in range(n)]


@command(
    "ri",
    usage=RI_USAGE,
    summary="先攻检定并加入战斗（不写名称=自己的角色卡，基础：洞悉检定；速度：DEX+INS+6）",
    aliases=("先攻骰",),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_ri(call: Call) -> list[Reply]:
    state = await load(call)
    if state is None:
        state = fresh(call.ctx.user_id)
    entries = [e.split() for e in re.split(r"[,，;；]", call.args)] or [[]]
    if not entries:
        entries = [[]]
    gm = await is_gm(call, state)
    plan: list[tuple[str, dict[str, Any], str]] = []
    for words in entries:
        words = tokens(" ".join(words))
        name, kwargs, text = _roll_entry(call, state, words)
        if "controller" not in kwargs and not gm:
            raise NotPermitted(f"只有{GM_WHO}可以加入NPC（不写名称则以自己的角色加入）")
        names = expand_names(name)
        for i, n in enumerate(names):
            if i and "-各自" in call.args:
                _n2, kwargs2, text2 = _roll_entry(call, state, words)
                plan.append((n, kwargs2, text2))
            else:
                plan.append((n, dict(kwargs), text))
    if len(plan) > MAX_BATCH:
        raise InputSyntaxError(f"一次最多加入{MAX_BATCH}名")

    def fn(st: Combat | None) -> E.Outcome:
        st = st or fresh(call.ctx.user_id)
        events: list[Event] = []
        for name, kwargs, _ in plan:
            st, evs = E.add_combatant(st, name, **kwargs)
            events += evs
        return E.Outcome(st, events)

    state, events = await apply(call, fn)
    public, secret = [], []
    placed_words = {
        "next_round": "（下轮加入）",
        "this_tick": "（本刻加入）",
        "this_round": "",
        "setup": "",
        "no_turn": "",
    }
    for (name, kwargs, text), ev in zip(plan, [e for e in events if e.kind == "join"], strict=False):
        where = placed_words.get(ev.data.get("placed", ""), "")
        if kwargs.get("hidden"):
            public.append("??? 加入了先攻（暗）")
            secret.append(f"{name}：{text}")
        else:
            public.append(f"{name} 的先攻：{text}{where}")
    if state.phase is Phase.SETUP:
        visible = sum(1 for c in state.combatants if not c.hidden)
        public.append(f"共{visible}名参战者；GM 发送 .init start 开战")
    replies = [Reply.say("\n".join(public))]
    if secret:
        replies += whisper_gms(state, "暗先攻：\n" + "\n".join(secret), call.ctx.user_id)
    return replies


# --------------------------------------------------------------------------- .init
INIT_USAGE = ".init [begin/start/next/skip/delay/undo/set/mod/add/rm/eff/re/focus/swap/first/opt/meta/gm/surprise/log/end]"

SUB_ALIASES: dict[str, str] = {
    "": "list",
    "list": "list",
    "查看": "list",
    "begin": "begin",
    "开始战斗": "begin",
    "开启": "begin",
    "start": "start",
    "开战": "start",
    "next": "next",
    "ed": "next",
    "n": "next",
    "下一个": "next",
    "结束回合": "next",
    "skip": "skip",
    "跳过": "skip",
    "delay": "delay",
    "延后": "delay",
    "undo": "undo",
    "撤销": "undo",
    "set": "set",
    "设定": "set",
    "mod": "mod",
    "修正": "mod",
    "add": "add",
    "加入": "add",
    "rm": "rm",
    "del": "rm",
    "删除": "rm",
    "eff": "eff",
    "效果": "eff",
    "re": "re",
    "移除效果": "re",
    "focus": "focus",
    "聚焦": "focus",
    "swap": "swap",
    "交换": "swap",
    "first": "first",
    "提前": "first",
    "opt": "opt",
    "修改": "opt",
    "meta": "meta",
    "设置": "meta",
    "gm": "gm",
    "surprise": "surprise",
    "突袭": "surprise",
    "log": "log",
    "战报": "log",
    "end": "end",
    "clr": "end",
    "结束战斗": "end",
    "status": "status",
    "详情": "status",
}


@command(
    "init",
    usage=INIT_USAGE,
    summary="D20刻度战斗追踪：开战、推进刻度、延后、效果时长、AP、伤势，GM 可撤销",
    detail=(
        ".init begin [基础/速度] [-沉淀] [-名 X]　新战斗；.ri 加入；.init start 开战\n"
        ".init next（.ed）结束当前回合；.init skip 跳过；.延后；.init undo [n] 撤销\n"
        ".init set 名 值；.init mod 名 ±n [类型] [时长]；.init rm 名 [-force]\n"
        ".init eff 目标 效果 [时长] [-源 X] [-锚 X] [-先攻 ±n类型] [暗]；时长：3刻/2轮/1回合/1回合开始/本刻/本轮/焦点/永久/条件:…/1d4轮\n"
        ".init re 目标 [效果]；.init focus 目标 效果；.init swap A B；.init first A\n"
        ".init meta [-沉淀 开/关] [-延后 规则/原文] [-当前先攻 累加/重置]；.init gm @某人；.init end 确认"
    ),
    aliases=("先攻",),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_init(call: Call) -> list[Reply]:
    word, _, rest = call.args.partition(" ")
    sub = SUB_ALIASES.get(word.lower())
    if sub is None:
        # ".init 3" style or a name → status of that combatant
        sub, rest = "status", call.args
    handler = SUBCOMMANDS[sub]
    return await handler(call, rest.strip())


async def init_list(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    replies = [Reply.say(R.combat_list(state))]
    if rest in ("全", "all") and await is_gm(call, state):
        replies.append(Reply.whisper(R.combat_list(state, gm=True), fallback="（GM视图私聊失败）"))
    return replies


async def init_begin(call: Call, rest: str) -> list[Reply]:
    current = await load(call)
    if current is not None and current.phase is Phase.ACTIVE:
        raise IllegalAction(f"已有进行中的战斗（第{current.round}轮），.init end 确认 结束 / .init 查看")
    words = rest.split()
    variant = Variant.BASE
    options: dict[str, Any] = {}
    i = 0
    while i < len(words):
        w = words[i]
        if w.lower() in VARIANT_ALIASES:
            variant = VARIANT_ALIASES[w.lower()]
        elif w in ("-沉淀", "沉淀"):
            options["settle"] = True
        elif w in ("-名", "-name") and i + 1 < len(words):
            options["name"] = words[i + 1][:20]
            i += 1
        else:
            raise call.usage_error(f"不认识「{w}」；格式 .init begin [基础/速度] [-沉淀] [-名 X]")
        i += 1
    state = fresh(call.ctx.user_id, variant=variant, **options)

    def fn(st: Combat | None) -> E.Outcome:
        if st is not None and st.phase is Phase.ACTIVE:
            raise IllegalAction(f"已有进行中的战斗（第{st.round}轮）")
        return E.Outcome(state, [])

    await apply(call, fn)
    extra = "，沉淀先攻" if options.get("settle") else ""
    return [
        Reply.say(f"新战斗（{R.VARIANT_NAMES[variant]}规则{extra}）：用 .ri 加入，GM 发送 .init start 开战")
    ]


async def _gm_op(
    call: Call, rest: str, what: str, fn: Callable[[Combat], E.Outcome]
) -> tuple[Combat, list[Event]]:
    state = need(await load(call))
    await require_gm(call, state, what)
    return await apply(call, lambda st: fn(need(st)))


def _card(state: Combat, events: list[Event]) -> Reply:
    """The turn card, @-mentioning the player whose turn it is (QQ notifies them)."""
    current = state.maybe(state.current) if state.phase is Phase.ACTIVE else None
    ping = (current.controller,) if current is not None and current.controller and not current.hidden else ()
    return Reply(text=R.turn_card(state, events), mentions=ping)


async def init_start(call: Call, rest: str) -> list[Reply]:
    state, events = await _gm_op(call, rest, "开战", E.start)
    return [_card(state, events)]


async def init_next(call: Call, rest: str, *, skip: bool = False) -> list[Reply]:
    state = need(await load(call))
    if state.phase is not Phase.ACTIVE:
        raise IllegalAction("战斗还没有开始（GM 发送 .init start）")
    gm = await is_gm(call, state)
    if skip and not gm:
        raise NotPermitted(f"只有{GM_WHO}可以跳过回合")
    if state.waiting:
        if not gm:
            raise NotPermitted(f"战斗暂停中，只有{GM_WHO}可以继续")
    else:
        cur = state.get(state.current or "")
        if not gm and not controls(call.ctx, cur):
            raise NotPermitted(
                f"现在是 {R.name_of(state, cur.id)} 的回合（第{state.tick}刻），只有 {R.name_of(state, cur.id)} 的玩家或 GM 可以结束"
            )
    now = time.time()
    if (
        not state.waiting
        and state.advanced_by not in (None, call.ctx.user_id)
        and 0 <= now - state.advanced_at < ADVANCE_GRACE
        and not controls(call.ctx, state.get(state.current or ""))
    ):
        who = R.name_of(state, state.current)
        raise IllegalAction(f"回合已经推进到 {who} 的回合（第{state.tick}刻），没有重复推进")
    seen = state.turn_no

    def fn(st: Combat | None) -> E.Outcome:
        outcome = E.end_turn(need(st), expected_turn=seen, skip=skip)
        outcome.state.advanced_at = now
        outcome.state.advanced_by = call.ctx.user_id
        return outcome

    state, events = await apply(call, fn)
    return [_card(state, events)]


async def init_skip(call: Call, rest: str) -> list[Reply]:
    return await init_next(call, rest, skip=True)


async def init_delay(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    cur = state.maybe(state.current)
    if cur is None:
        raise IllegalAction("现在没有人在进行回合")
    await require_control(call, state, cur, "延后")
    seen = state.turn_no

    def fn(st: Combat | None) -> E.Outcome:
        st = need(st)
        if st.turn_no != seen:
            raise IllegalAction("回合已经推进，没有延后")
        return E.delay(st)

    state, events = await apply(call, fn)
    return [_card(state, events)]


async def init_undo(call: Call, rest: str) -> list[Reply]:
    """Undo the last n tracker changes through the store's session log (effects, AP, HP included)."""
    n = int(rest) if rest.isdigit() else 1
    if not 1 <= n <= E.UNDO_DEPTH:
        raise InputSyntaxError(f"一次最多撤销{E.UNDO_DEPTH}步")
    state = need(await load(call))
    await require_gm(call, state, "撤销")
    done = 0
    for _ in range(n):
        if await call.app.store.undo(call.ctx.scope, SYSTEM) is None:
            break
        done += 1
    if not done:
        raise IllegalAction("没有可以撤销的操作")
    after = await load(call)
    if after is None:
        return [Reply.say(f"已撤销{done}步：现在没有进行中的战斗")]
    body = R.turn_card(after, []) if after.phase is Phase.ACTIVE else R.combat_list(after)
    return [Reply.say(f"已撤销{done}步。\n{body}")]


def _value(word: str) -> int:
    if not re.fullmatch(r"[+-]?\d{1,3}", word):
        raise InputSyntaxError(f"「{word}」不是数值")
    return int(word)


async def init_set(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) != 2:
        raise InputSyntaxError("格式：.init set 名称 值")
    state = need(await load(call))
    c = E.find(state, words[0])
    value = _value(words[1])
    state, events = await _gm_op(call, rest, "设定先攻", lambda st: E.place(st, c.id, value))
    how = next((e.data["placed"] for e in events if e.kind == "placed"), "")
    note = {"next_round": "，从下一轮起生效", "this_tick": "，本刻行动", "no_turn": "，暂时无法行动"}.get(
        how, ""
    )
    return [Reply.say(f"{R.name_of(state, c.id)} 的先攻设为 {value}{note}")]


def _duration_and_flags(call: Call, words: list[str]) -> tuple[Any, dict[str, Any], list[str]]:
    """Pull the duration word and ``-源/-锚/-先攻/-专注/-父/-说明/暗/-replace`` flags out of words."""
    flags: dict[str, Any] = {}
    dur_word = ""
    rest: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        if w in ("-源", "-src") and nxt:
            flags["source"] = nxt
            i += 1
        elif w in ("-锚", "-anchor") and nxt:
            flags["anchor"] = nxt
            i += 1
        elif w in ("-先攻", "-init") and nxt:
            m = MOD_RE.match(nxt)
            if not m:
                raise InputSyntaxError("先攻修正格式：-先攻 -4状态")
            flags["init_mod"] = InitMod(value=int(m.group(1)), type=parse_mod_type(m.group(2) or ""))
            i += 1
        elif w in ("-父", "-parent") and nxt:
            flags["parent"] = nxt
            i += 1
        elif w in ("-说明", "-desc") and nxt:
            flags["description"] = " ".join(words[i + 1 :])
            break
        elif w in ("-专注", "专注"):
            flags["concentration"] = True
        elif w in ("-replace", "-替换"):
            flags["replace"] = True
        elif w in ("暗", "-暗"):
            flags["hidden"] = True
        elif w in ("-开始",):
            flags["boundary"] = "start"
        elif w in ("-结束",):
            flags["boundary"] = "end"
        elif not dur_word and looks_like_duration(w):
            dur_word = w
        else:
            rest.append(w)
        i += 1
    duration = parse_duration(dur_word, call.app.rng)
    if "boundary" in flags:
        duration = duration.model_copy(update={"boundary": flags.pop("boundary")})
    if flags.pop("hidden", False):
        duration = duration.model_copy(update={"hidden": True})
    return duration, flags, rest


async def init_eff(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) < 2:
        raise InputSyntaxError(".init eff <目标[;目标]> <效果名> [时长] [-源 X] [-锚 X] [-先攻 ±n类型] [暗]")
    state = need(await load(call))
    targets = [target_of(state, call.ctx, t) for t in split_targets(words[0])]
    name = words[1]
    duration, flags, extra = _duration_and_flags(call, words[2:])
    if extra:
        raise InputSyntaxError(f"不认识「{' '.join(extra)}」\n{DURATION_HELP}")
    gm = await is_gm(call, state)
    if not gm and any(not controls(call.ctx, t) for t in targets):
        raise NotPermitted(f"只能给自己的角色添加效果；给他人需要{GM_WHO}")
    source = E.find(state, flags.pop("source")).id if "source" in flags else None
    if source is None:
        mine = [c for c in state.combatants if c.controller == call.ctx.user_id]
        source = mine[0].id if mine and not gm else state.current if gm and state.current else None
    if "parent" in flags:
        owner, _, effect_name = str(flags.pop("parent")).partition("/")
        holder = E.find(state, owner)
        parents = [e for e in state.effects if e.bearer == holder.id and e.name == effect_name]
        if not parents:
            raise NotFound(f"{holder.name} 身上没有效果「{effect_name}」（-父 目标/效果名）")
        flags["parent"] = parents[0].id
    anchor = E.find(state, flags.pop("anchor")).id if "anchor" in flags else None
    if anchor is not None:
        duration = duration.model_copy(update={"anchor": anchor})

    def fn(st: Combat | None) -> E.Outcome:
        st = need(st)
        events: list[Event] = []
        for t in targets:
            st, evs = E.add_effect(st, t.id, name, duration, source=source, **flags)
            events += evs
        return E.Outcome(st, events)

    state, events = await apply(call, fn)
    lines = []
    for ev in events:
        if ev.kind == "effect_add":
            dur = "?（暗）" if ev.data["hidden"] else R.format_duration(duration)
            lines.append(f"{R.name_of(state, ev.data['bearer'])} 获得「{name}」（{dur}）")
        elif ev.kind == "not_stacked":
            kept = "保留原有效果（剩余时间更长）" if ev.data["kept"] == "old" else "以新效果替换"
            lines.append(f"{R.name_of(state, ev.data['bearer'])} 已有同名效果「{name}」：{kept}")
    for ev in events:
        if ev.kind == "init_mod":
            c = state.get(ev.data["cid"])
            lines.append(f"{R.name_of(state, c.id)} 先攻{ev.data['delta']:+d} → {R.value_text(state, c)}")
    lines += R.event_lines(state, [e for e in events if e.kind == "lost_turn"])
    replies = [Reply.say("\n".join(lines))]
    if duration.hidden:
        replies += whisper_gms(
            state,
            f"暗时长：「{name}」{R.format_duration(duration.model_copy(update={'hidden': False}))}",
            call.ctx.user_id,
        )
    return replies


async def init_mod(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) < 2:
        raise InputSyntaxError(".init mod <名称> ±n [通用/环境/内在/状态] [时长]")
    m = MOD_RE.match(
        words[1] + (words[2] if len(words) > 2 and words[2] in ("通用", "环境", "内在", "状态") else "")
    )
    if not m:
        raise InputSyntaxError(".init mod <名称> ±n [通用/环境/内在/状态] [时长]")
    kind = parse_mod_type(m.group(2) or "")
    tail = words[3:] if len(words) > 2 and words[2] in ("通用", "环境", "内在", "状态") else words[2:]
    label = f"先攻{int(m.group(1)):+d}{kind}"
    return await init_eff(call, f"{words[0]} {label} {' '.join(tail)} -先攻 {m.group(1)}{kind}")


async def init_re(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if not words:
        raise InputSyntaxError(".init re <目标> [效果名|全部 确认]")
    state = need(await load(call))
    c = target_of(state, call.ctx, words[0])
    if not controls(call.ctx, c):
        await require_gm(call, state, "移除他人的效果")
    name: str | None = words[1] if len(words) > 1 else None
    if name in (None, "全部", "all"):
        if "确认" not in words:
            raise IllegalAction(f"将移除 {c.name} 的全部效果；确认请发送 .init re {words[0]} 全部 确认")
        name = None
    state, events = await apply(call, lambda st: E.remove_effect(need(st), c.id, name))
    gone = [e.data["effect"] for e in events if e.kind == "effect_end"]
    return [Reply.say(f"{R.name_of(state, c.id)} 移除了：{'，'.join(gone)}")]


async def init_focus(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) != 2:
        raise InputSyntaxError(".init focus <目标> <效果名>")
    state = need(await load(call))
    c = target_of(state, call.ctx, words[0])
    await require_control(call, state, c, "聚焦")
    state, events = await apply(call, lambda st: E.focus(need(st), c.id, words[1]))
    end = next(e.data["end_round"] for e in events if e.kind == "focused")
    return [Reply.say(f"【聚焦】{R.name_of(state, c.id)} 的「{words[1]}」持续至第{end}轮结束")]


async def init_add(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if not words:
        raise InputSyntaxError(
            ".init add <名称> <修正> [-p 值] [-lv N] [-阵营 X] [-ap N] [-spd N] [-隐藏] [-n 3]"
        )
    state = need(await load(call))
    await require_gm(call, state, "添加NPC")
    name = words[0]
    mod = 0
    opts: dict[str, Any] = {}
    fixed: int | None = None
    count = 1
    i = 1
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if re.fullmatch(r"[+-]?\d{1,3}", w) and i == 1:
            mod = int(w)
        elif w == "-p":
            fixed = _value(nxt)
            i += 1
        elif w == "-lv":
            opts["lv"] = _value(nxt)
            i += 1
        elif w in ("-阵营", "-side"):
            opts["side"] = nxt[:10]
            i += 1
        elif w == "-ap":
            opts["ap_max"] = _value(nxt)
            i += 1
        elif w == "-spd":
            opts["spd_base"] = _value(nxt)
            i += 1
        elif w in ("-隐藏", "-h"):
            opts["hidden"] = True
        elif w == "-n":
            count = _value(nxt)
            i += 1
        else:
            raise InputSyntaxError(f"不认识「{w}」")
        i += 1
    if not 1 <= count <= MAX_BATCH:
        raise InputSyntaxError(f"-n 应在1~{MAX_BATCH}之间")
    names = [name] if count == 1 else [f"{name}{chr(ord('a') + k)}" for k in range(count)]
    plan = []
    for n in names:
        kw = dict(opts)
        if fixed is not None:
            kw.update(value=fixed, init_mod=mod)
            text = f"={fixed}"
        elif state.variant is Variant.SPD:
            r2 = C.roll_two_die(call.app.rng, (6, 6), [Modifier(6, "环境"), Modifier(mod)])
            kw["roll"] = InitRoll(
                dice=list(r2.dice), die=sum(r2.dice), total=r2.total, two_die=True, doubles=r2.doubles
            )
            text = f"[{r2.dice[0]},{r2.dice[1]}]{r2.modifier:+d}={r2.total}"
        else:
            r = C.roll_d20(call.app.rng, mod)
            kw["roll"] = InitRoll(dice=list(r.dice), die=r.die, total=r.total, nat=r.nat)
            text = f"D20={r.die}{r.modifier:+d}={r.total}"
        plan.append((n, kw, text))

    def fn(st: Combat | None) -> E.Outcome:
        st = need(st)
        events: list[Event] = []
        for n, kw, _ in plan:
            st, evs = E.add_combatant(st, n, **kw)
            events += evs
        return E.Outcome(st, events)

    state, _ = await apply(call, fn)
    public = [
        f"{n if not kw.get('hidden') else '???'} 加入（{'暗' if kw.get('hidden') else text}）"
        for n, kw, text in plan
    ]
    replies = [Reply.say("\n".join(public))]
    secret = [f"{n}：{text}" for n, kw, text in plan if kw.get("hidden")]
    if secret:
        replies += whisper_gms(state, "\n".join(secret), call.ctx.user_id)
    return replies


async def init_rm(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    force = any(w in ("-force", "-强制") for w in words)
    names = [n for w in words if w not in ("-force", "-强制") for n in split_targets(w)]
    if not names:
        raise InputSyntaxError(".init rm <名称…> [-force]")
    state = need(await load(call))
    await require_gm(call, state, "移除参战者")
    ids = [E.find(state, n).id for n in names]

    def fn(st: Combat | None) -> E.Outcome:
        st = need(st)
        events: list[Event] = []
        for cid in ids:
            st, evs = E.remove(st, cid, force=force)
            events += evs
        return E.Outcome(st, events)

    state, events = await apply(call, fn)
    gone = [e.data["name"] for e in events if e.kind == "removed"]
    card = (
        R.turn_card(state, [e for e in events if e.kind != "removed"])
        if any(e.kind == "turn" for e in events)
        else ""
    )
    return [Reply.say(f"移除：{'，'.join(gone)}" + (f"\n{card}" if card else ""))]


async def init_swap(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) != 2:
        raise InputSyntaxError(".init swap <A> <B>")
    state = need(await load(call))
    a, b = E.find(state, words[0]), E.find(state, words[1])
    if not (controls(call.ctx, a) or controls(call.ctx, b)):
        await require_gm(call, state, "调整同值顺序")
    await apply(call, lambda st: E.swap(need(st), a.id, b.id))
    return [Reply.say(f"{a.name} 与 {b.name} 交换了同值顺序")]


async def init_first(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    c = E.find(state, rest)
    await require_control(call, state, c, "调整同值顺序")
    await apply(call, lambda st: E.first(need(st), c.id))
    return [Reply.say(f"{c.name} 在同值者中优先行动")]


async def init_opt(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    if len(words) < 2:
        raise InputSyntaxError(
            ".init opt <名称> [-lv N] [-阵营 X] [-控制 @x] [-mod N] [-ap上限 N] [-spd N] [-速度 N] [-隐藏/-公开]"
        )
    state = need(await load(call))
    await require_gm(call, state, "修改参战者")
    c = E.find(state, words[0])
    fields: dict[str, Any] = {}
    i = 1
    keys = {"-lv": "lv", "-mod": "init_mod", "-ap上限": "ap_max", "-spd": "spd_base", "-速度": "speed"}
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w in keys:
            fields[keys[w]] = _value(nxt)
            i += 1
        elif w in ("-阵营", "-side"):
            fields["side"] = nxt[:10]
            i += 1
        elif w in ("-控制", "-controller"):
            fields["controller"] = call.ctx.at_ids[0] if call.ctx.at_ids else (nxt or None)
            i += 1 if nxt and not call.ctx.at_ids else 0
        elif w in ("-隐藏", "-公开"):
            fields["hidden"] = w == "-隐藏"
        else:
            raise InputSyntaxError(f"不认识「{w}」")
        i += 1
    await apply(call, lambda st: E.edit(need(st), c.id, **fields))
    return [Reply.say(f"已修改 {c.name}：{'、'.join(sorted(fields))}")]


async def init_meta(call: Call, rest: str) -> list[Reply]:
    words = rest.split()
    state = need(await load(call))
    await require_gm(call, state, "修改战斗设置")
    changes: dict[str, Any] = {}
    table = {
        "-沉淀": ("settle", {"开": True, "关": False}),
        "-延后": ("delay_rule", {"规则": "next_tick", "原文": "literal"}),
        "-当前先攻": ("carry_rule", {"累加": "carry", "重置": "reset"}),
        "-提醒": ("remind", {"开": True, "关": False}),
        "-血量": ("hp_display", {"显示": "show", "模糊": "fuzzy", "隐藏": "hide"}),
    }
    for i in range(0, len(words) - 1, 2):
        key, val = words[i], words[i + 1]
        if key not in table or val not in table[key][1]:
            raise InputSyntaxError(
                ".init meta [-沉淀 开/关] [-延后 规则/原文] [-当前先攻 累加/重置] [-提醒 开/关] [-血量 显示/模糊/隐藏]"
            )
        changes[table[key][0]] = table[key][1][val]
    if len(words) % 2 or not changes:
        raise InputSyntaxError(
            ".init meta [-沉淀 开/关] [-延后 规则/原文] [-当前先攻 累加/重置] [-提醒 开/关] [-血量 显示/模糊/隐藏]"
        )
    state, _ = await apply(call, lambda st: E.set_options(need(st), **changes))
    o = state.options
    return [
        Reply.say(
            f"战斗设置：沉淀{'开' if o.settle else '关'}，延后={'下一刻' if o.delay_rule == 'next_tick' else '原文+1'}，"
            f"当前先攻={'累加' if o.carry_rule == 'carry' else '每轮重置'}，血量{o.hp_display}"
        )
    ]


async def init_gm(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    await require_gm(call, state, "指定副GM")
    uid = call.ctx.at_ids[0] if call.ctx.at_ids else rest.strip().lstrip("@")
    if not uid.isdigit():
        raise InputSyntaxError(".init gm @某人")
    await apply(call, lambda st: E.add_gm(need(st), uid))
    return [Reply.say(f"已添加副GM：{uid}")]


async def init_surprise(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    await require_gm(call, state, "标记突袭")
    ids = [E.find(state, n).id for n in split_targets(rest.replace(" ", ","))]
    if not ids:
        raise InputSyntaxError(".init surprise <名称…>")
    await apply(call, lambda st: E.surprise(need(st), ids))
    return [Reply.say("被突袭（第1轮开始时先攻−20）：" + "，".join(state.get(i).name for i in ids))]


async def init_log(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    n = min(int(rest), 40) if rest.isdigit() else 12
    lines = R.event_lines(state, state.log[-n * 3 :])[-n:]
    return [Reply.say("战报：\n" + ("\n".join(lines) if lines else "（暂无）"))]


async def init_status(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    c = find_me(state, call.ctx) if not rest else E.find(state, rest)
    gm = await is_gm(call, state)
    if c.hidden and not gm:
        raise NotFound(f"没有找到参战者「{rest}」")
    lines = [
        f"{c.name}：先攻 {R.value_text(state, c)}（修正{c.init_mod:+d}，LV{c.lv}，{c.side}）",
        f"AP {c.ap}/{c.ap_max}" if state.variant is Variant.BASE else f"SPD基础 {c.spd_base}",
    ]
    eff = R.effects_text(state, c.id, gm or controls(call.ctx, c))
    if eff:
        lines.append(eff)
    health = R.health_text(state, c, gm or controls(call.ctx, c))
    if health:
        lines.append(health)
    text = "\n".join(lines)
    if c.hidden:
        return [Reply.whisper(text, fallback="（私聊发送失败）")]
    return [Reply.say(text)]


async def init_end(call: Call, rest: str) -> list[Reply]:
    state = need(await load(call))
    await require_gm(call, state, "结束战斗")
    if "确认" not in rest and "confirm" not in rest:
        return [Reply.say(f"确定结束战斗（第{state.round}轮）吗？发送 .init end 确认")]
    state, events = await apply(call, lambda st: E.end(need(st)))
    ev = next(e for e in events if e.kind == "end")
    return [Reply.say(R.summary(state, ev))]


SUBCOMMANDS: dict[str, Callable[[Call, str], Any]] = {
    "list": init_list,
    "begin": init_begin,
    "start": init_start,
    "next": init_next,
    "skip": init_skip,
    "delay": init_delay,
    "undo": init_undo,
    "set": init_set,
    "mod": init_mod,
    "add": init_add,
    "rm": init_rm,
    "eff": init_eff,
    "re": init_re,
    "focus": init_focus,
    "swap": init_swap,
    "first": init_first,
    "opt": init_opt,
    "meta": init_meta,
    "gm": init_gm,
    "surprise": init_surprise,
    "log": init_log,
    "end": init_end,
    "status": init_status,
}


@command(
    "ed",
    usage=".ed",
    summary="结束当前回合（同 .init next）",
    aliases=("结束回合", "下一个"),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_ed(call: Call) -> list[Reply]:
    return await init_next(call, "")


@command("延后", usage=".延后", summary="延后当前回合到下一刻（行动前）", system=SYS_NAME, group_only=True)
async def cmd_delay(call: Call) -> list[Reply]:
    return await init_delay(call, "")


# --------------------------------------------------------------------------- AP
AP_USAGE = ".ap [名称] -n [理由/主要/次要/即时/自由]、.ap [名称] +n/=n（GM）、.ap [名称] ta 总消耗 名称 [本次支付]、.ap [名称] pay [n]"
KIND_WORDS = {
    "主要": "SA",
    "次要": "MA",
    "即时": "RA",
    "自由": "FA",
    "SA": "SA",
    "MA": "MA",
    "RA": "RA",
    "FA": "FA",
}


@command(
    "ap",
    usage=AP_USAGE,
    summary="行动值：花费AP（规则检查）、全力动作分期支付；GM 可直接设定",
    aliases=("行动值",),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_ap(call: Call) -> list[Reply]:
    words = tokens(call.args)
    if not words:
        raise call.usage_error("请写出AP变化")
    state = need(await load(call))
    first = words[0]
    is_op = bool(re.fullmatch(r"[+=-]\d{1,2}", first)) or first.lower() in ("ta", "pay", "全力", "支付")
    if is_op:
        c = find_me(state, call.ctx)
    else:
        c = target_of(state, call.ctx, first)
        words = words[1:]
    if not words:
        raise call.usage_error("请写出AP变化")
    op = words[0]
    await require_control(call, state, c, "操作这名角色的AP")
    if op.lower() in ("ta", "全力"):
        if len(words) < 3:
            raise call.usage_error("格式：.ap ta 总消耗 名称 [本次支付]")
        total, name = _value(words[1]), words[2]
        pay = _value(words[3]) if len(words) > 3 else None
        state, events = await apply(call, lambda st: E.start_ta(need(st), c.id, name, total, pay))
    elif op.lower() in ("pay", "支付"):
        amount = _value(words[1]) if len(words) > 1 else None
        state, events = await apply(call, lambda st: E.pay_ta(need(st), c.id, amount))
    elif op.startswith("-"):
        cost = -_value(op)
        kind = next((KIND_WORDS[w] for w in words[1:] if w in KIND_WORDS), "SA")
        label = " ".join(w for w in words[1:] if w not in KIND_WORDS)
        state, events = await apply(call, lambda st: E.spend_ap(need(st), c.id, cost, kind, label))
    elif op.startswith(("+", "=")):
        await require_gm(call, state, "直接设定AP")
        value = _value(op[1:])
        kwargs = {"value": value} if op.startswith("=") else {"delta": value}
        state, events = await apply(call, lambda st: E.set_ap(need(st), c.id, **kwargs))
    else:
        raise call.usage_error(f"不认识「{op}」")
    c2 = state.get(c.id)
    lines = [f"{c2.name} AP {c2.ap}/{c2.ap_max}"]
    if c2.ta is not None:
        lines.append(f"全力动作「{c2.ta.name}」{c2.ta.paid}/{c2.ta.total}")
    lines += R.event_lines(state, events)
    return [Reply.say("\n".join(lines))]


# --------------------------------------------------------------------------- health
WOUND_USAGE = ".wound <名称> <部位> <等级>x<数量> [侵蚀/僵化/类型…]、.wound 名 部位 hit3 dp2 dr1、.wound 名 部位 治疗 [级数]"
LEVEL_WORDS = {"擦伤": 1, "轻伤": 2, "重伤": 3, "1": 1, "2": 2, "3": 3}


@command(
    "wound",
    usage=WOUND_USAGE,
    summary="伤势（基础规则）：每部位4道，恶化规则，<负伤>/<残障>/<欠损>",
    aliases=("伤势",),
    system=SYS_NAME,
    group_only=True,
)
async def cmd_wound(call: Call) -> list[Reply]:
    words = call.args.split()
    if len(words) < 3:
        raise call.usage_error("请写出名称、部位和伤势")
    state = need(await load(call))
    c = target_of(state, call.ctx, words[0])
    await require_control(call, state, c, "修改伤势")
    part = words[1]
    spec = words[2:]
    if spec[0] in ("治疗", "heal"):
        levels = _value(spec[1]) if len(spec) > 1 else 1
        state, events = await apply(call, lambda st: E.heal_wound(need(st), c.id, part, levels))
    else:
        kwargs: dict[str, Any] = {}
        tags: list[str] = []
        for w in spec:
            m = re.fullmatch(r"(擦伤|轻伤|重伤|[123])(?:[x*](\d{1,2}))?", w)
            k = re.fullmatch(r"(hit|dp|dr)(\d{1,2})", w.lower())
            if m:
                kwargs["level"] = LEVEL_WORDS[m.group(1)]
                kwargs["count"] = int(m.group(2) or 1)
            elif k:
                kwargs[k.group(1)] = int(k.group(2))
            elif w in ("直接", "direct"):
                kwargs["direct"] = True
            else:
                tags.append(w[:6])
        if "hit" not in kwargs and "level" not in kwargs:
            raise call.usage_error("伤势写作 轻伤x2 或 hit3 dp2 dr1")
        kwargs["tags"] = tags[:4]
        state, events = await apply(call, lambda st: E.wound(need(st), c.id, part, **kwargs))
    c2 = state.get(c.id)
    lines = [f"{R.name_of(state, c2.id)}：{R.health_text(state, c2, True) or '无伤'}"]
    lines += R.event_lines(state, events)
    return [Reply.say("\n".join(lines))]


HP_USAGE = ".hp <名称> ±n [-由 攻击者]（速度规则HG）、.hp 名 hg 10 / mg 8、.hp 名 mp -3、.hp 名 sp ±n / sp上限 N（基础规则）"


@command(
    "hp",
    usage=HP_USAGE,
    summary="生命量谱（速度规则：伤害从左、治疗从右、危机、优势点）与SP",
    system=SYS_NAME,
    group_only=True,
)
async def cmd_hp(call: Call) -> list[Reply]:
    words = tokens(call.args)
    if len(words) < 2:
        raise call.usage_error("请写出名称和数值")
    state = need(await load(call))
    c = target_of(state, call.ctx, words[0])
    await require_control(call, state, c, "修改HP")
    op = words[1].lower()
    fn: Callable[[Combat], E.Outcome]
    if op in ("hg", "mg") and len(words) > 2:
        n = _value(words[2])
        fn = (
            (lambda st: E.set_gauges(st, c.id, hg=n))
            if op == "hg"
            else (lambda st: E.set_gauges(st, c.id, mg=n))
        )
    elif op == "mp" and len(words) > 2:
        amount = -_value(words[2])
        fn = lambda st: E.spend_mp(st, c.id, amount)  # noqa: E731
    elif op == "sp" and len(words) > 2:
        val = words[2]
        fn = (
            (lambda st: E.set_sp(st, c.id, value=_value(val[1:])))
            if val.startswith("=")
            else (lambda st: E.set_sp(st, c.id, delta=_value(val)))
        )
    elif op in ("sp上限", "spmax") and len(words) > 2:
        mx = _value(words[2])
        fn = lambda st: E.set_sp(st, c.id, maximum=mx)  # noqa: E731
    elif re.fullmatch(r"[+-]\d{1,4}", op):
        amount = int(op)
        attacker = None
        if len(words) > 3 and words[2] in ("-由", "-by"):
            attacker = E.find(state, words[3]).id
        elif amount < 0 and state.current is not None:
            attacker = state.current
        fn = lambda st: E.hit_gauges(st, c.id, abs(amount), attacker=attacker, heal=amount > 0)  # noqa: E731
    else:
        raise call.usage_error(f"不认识「{words[1]}」")
    state, events = await apply(call, lambda st: fn(need(st)))
    c2 = state.get(c.id)
    lines = [f"{R.name_of(state, c2.id)}：{R.health_text(state, c2, controls(call.ctx, c2)) or '—'}"]
    for ev in events:
        if ev.kind == "advantage":
            lines.append(f"击破HG：{ev.data['side']}获得1点优势点（共{ev.data['total']}）")
        elif ev.kind == "crisis":
            lines.append(f"{R.name_of(state, ev.data['cid'])} 陷入危机")
    return [Reply.say("\n".join(lines))]
