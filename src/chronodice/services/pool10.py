"""无限恐怖 D10 success pool: ``.w`` (result), ``.ww`` (every die), ``.wh`` (hidden).

Parses the command, loads the character and the group's session state through ``app.store``,
calls the pure engine in :mod:`chronodice.rules.pool10` and renders with
:mod:`chronodice.render.pool10`.  Subcommands (after any of the three roots)::

    .ww <骰池> [a9] [dcN] [+Ns] [-Ns] [?] [理由]     roll (``?``: exact odds instead)
    .ww <骰池> vs [@对手] <骰池>                      opposed roll
    .ww 攻击 <骰池> [@目标] [防N]                     attack against declared defence
    .ww 防御 N [@某人] | .ww 防御 | .ww 防御 clr       declare / list / clear defence
    .ww 行动 [@某人]                                  next action: spent defence comes back
    .ww 分配 <骰池> [+Ns] 甲 乙×3=2/1/1                multi-attack bonus allocation
    .ww 附加 潜行1 攻击2 防御3 | del 名字               bonus successes stored on the card
    .ww 倍率 30 ×2 ×4 +50                             the seed's multiplier calculator
    .ww set [a9] [超过|大于等于] [clr]                 group defaults (GM)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from chronodice.core.commands import Call, command
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound
from chronodice.core.reply import Reply
from chronodice.render import pool10 as render
from chronodice.rules.pool10 import (
    DEFAULT_AGAIN,
    DiceBudget,
    Pool10Card,
    Pool10Session,
    PoolArgs,
    ResolvedPool,
    TieRule,
    allocate,
    check_again,
    declare_defence,
    evaluate_calculation,
    evaluate_pool,
    new_action,
    opposed,
    parse_calculation,
    parse_pool_args,
    parse_targets,
    pool_odds,
    resolve,
    resolve_attack,
    roll_pool,
    take_defence,
)
from chronodice.rules.pool10.allocation import USAGE as ALLOC_USAGE
from chronodice.rules.pool10.card import DATA_KEY
from chronodice.rules.pool10.multiplier import USAGE as CALC_USAGE
from chronodice.rules.pool10.state import DefenceRestored
from chronodice.rules.pool10.state import clear as clear_defence
from chronodice.store import CharacterRecord

from .characters import active_or_create, numeric_attributes, parse_attribute_pairs

SYSTEM = "pool10"
SYSTEM_LABEL = "无限恐怖"
SETTINGS_KEY = "pool10"

USAGE = ".ww <骰池> [a8/a9] [dcN] [+Ns] [-Ns] [?] [理由]"
DETAIL = f"""骰池：数字、角色卡上的属性/技能名及加减，如 .ww 7、.ww 10a8、.ww 敏捷+潜行、.ww 力量+运动-2
8、9、10为成功；默认10加骰（a9、a8 改为9加骰、8加骰；a11 不加骰；低于8不允许：加骰的最低值为8）
骰池≤0 时掷机运骰：只有10成功且可加骰，掷出1为大失败，不受附加成功影响
附加成功：属性6→1、11→2、每+5再+1；技能等用 .ww 附加 潜行1 录入；+2s 临时附加；-1s 扣除成功。
  只有有效成功数>0时才加上附加成功
dcN 难度；? 精确概率（成功率、期望、分布）；.w 只给结果，.ww 逐轮列出每颗骰子，.wh 暗骰
对抗：.ww 敏捷+潜行 vs @对手 感知+调查（NPC一方写数字：.ww 5 vs 感知+调查）—— 先手方成功数即后手方DC，{render.TIE_LABEL[TieRule.AT_LEAST]}；
  .ww set 超过 改为必须超过
攻击：.ww 攻击 力量+格斗 @目标（加上卡上「攻击」附加成功；目标预先 .ww 防御 3 宣言防御附加成功，
  抵消全部自然成功则未命中，攻击附加成功不生效；已用的防御附加成功到目标下次行动（.ww 行动）时恢复）
其他：{ALLOC_USAGE}
  {CALC_USAGE}
  .ww 附加 [名字数值…|del 名字]  .ww set [a9] [超过|大于等于] [clr]"""

_SUB = re.compile(
    r"^(?P<sub>set|附加|bonus|防御|def|行动|act|攻击|atk|分配|multi|倍率|calc|help|帮助)(?:\s+|$|(?=\d))",
    re.IGNORECASE,
)
_VS = re.compile(r"(?<![A-Za-z])(?:vs|VS|Vs)(?![A-Za-z])|对抗")
_INLINE_DEFENCE = re.compile(r"(?:^|\s)(?:防御?|def)\s*(\d{1,4})(?=\s|$)", re.IGNORECASE)


# ---------------------------------------------------------------------- helpers
@dataclass(frozen=True)
class Side:
    """Who rolls and with which card (``char`` is ``None`` for a plain-number NPC pool)."""

    name: str
    char: CharacterRecord | None


def _key(char: CharacterRecord) -> str:
    return f"c{char.id}"


async def _settings(call: Call) -> dict[str, Any]:
    """The group's pool defaults (from the dispatcher's snapshot when there is one)."""
    group = call.view.group if call.view is not None else None
    if group is None:
        group = await call.app.store.get_group(call.ctx.scope)
    return dict(group.settings.get(SETTINGS_KEY, {}))


async def _side(call: Call, user_id: str | None) -> Side:
    """The active character of ``user_id`` (default: the sender) in this group."""
    ctx = call.ctx
    if (user_id is None or user_id == ctx.user_id) and call.view is not None:
        char = call.view.character
        return Side(name=char.name if char else call.name, char=char)
    uid = user_id or ctx.user_id
    char = await call.app.store.active_character(uid, ctx.scope)
    name = char.name if char else await call.app.display_name(ctx, uid)
    return Side(name=name, char=char)


def _resolve_pool(args: PoolArgs, side: Side, *, whose: str = "你") -> tuple[ResolvedPool, Pool10Card]:
    if args.names and side.char is None:
        raise NotFound(f"{whose}还没有角色卡，无法读取「{args.names[0][:20]}」：先用 .st 敏捷4潜行3 录入")
    card = Pool10Card.of(side.char.data if side.char else None)
    values = numeric_attributes(side.char)
    owner = f"<{side.char.name}>的角色卡" if side.char else "角色卡"
    return evaluate_pool(args, values, card.term_bonus, owner=owner), card


def _bonus_note(pool: ResolvedPool, extra: int, card_bonus: int = 0, card_label: str = "") -> str:
    bits = [f"{p.label}{p.bonus}" for p in pool.parts if p.sign > 0 and p.bonus]
    if card_bonus:
        bits.append(f"{card_label}{card_bonus}")
    if extra:
        bits.append(f"指令{extra}")
    if not bits:
        return ""
    total = pool.term_bonus + extra + card_bonus
    return "+".join(bits) + (f"={total}" if len(bits) > 1 else "")


def _again(args: PoolArgs, settings: dict[str, Any]) -> int:
    if args.again is not None:
        return args.again
    return check_again(int(settings.get("again", DEFAULT_AGAIN)))


def _tie(settings: dict[str, Any]) -> TieRule:
    return TieRule(settings.get("tie", TieRule.AT_LEAST.value))


# ---------------------------------------------------------------------- commands
@command(
    "w",
    usage=USAGE,
    summary="无限恐怖骰池，只给结果（.ww 逐轮列出每颗骰子）",
    system=SYSTEM_LABEL,
    detail=DETAIL,
)
async def cmd_w(call: Call) -> list[Reply]:
    return await _dispatch(call, detailed=False, hidden=False)


@command("ww", usage=USAGE, summary="无限恐怖骰池，逐轮列出每颗骰子", system=SYSTEM_LABEL, detail=DETAIL)
async def cmd_ww(call: Call) -> list[Reply]:
    return await _dispatch(call, detailed=True, hidden=False)


@command("wh", usage=USAGE, summary="无限恐怖暗骰池：结果私聊发给你", system=SYSTEM_LABEL, detail=DETAIL)
async def cmd_wh(call: Call) -> list[Reply]:
    return await _dispatch(call, detailed=True, hidden=True)


async def _dispatch(call: Call, *, detailed: bool, hidden: bool) -> list[Reply]:
    args = call.args.strip()
    if not args:
        raise call.usage_error("请给出骰池，如 .ww 7、.ww 敏捷+潜行")
    m = _SUB.match(args)
    if m:
        sub = m.group("sub").lower()
        rest = args[m.end() :].strip()
        if sub in ("help", "帮助"):
            return [Reply.say(call.spec.help_text() if call.spec else DETAIL)]
        if sub == "set":
            return await _set(call, rest)
        if sub in ("附加", "bonus"):
            return await _bonus(call, rest)
        if sub in ("防御", "def"):
            return await _defence(call, rest)
        if sub in ("行动", "act"):
            return await _action(call, rest)
        if sub in ("倍率", "calc"):
            calc = parse_calculation(rest)
            return [Reply.say(render.format_calc(evaluate_calculation(calc), calc.real))]
        if sub in ("攻击", "atk"):
            return await _hide(call, await _attack(call, rest, detailed), hidden)
        return await _hide(call, await _multi(call, rest), hidden)
    if _VS.search(args):
        return await _hide(call, await _opposed(call, args, detailed), hidden)
    return await _hide(call, await _roll(call, args, detailed), hidden)


async def _hide(call: Call, text: str, hidden: bool) -> list[Reply]:
    if not hidden or call.ctx.group_id is None:
        return [Reply.say(text)]
    name = call.name
    return [
        Reply.say(f"{name} 进行了一次暗骰池"),
        Reply.whisper(
            f"在群{call.ctx.group_id}中的暗骰池：\n{text}",
            fallback=f"{name} 的暗骰结果无法私聊送达，请先加骰娘为好友",
        ),
    ]


async def _roll(call: Call, text: str, detailed: bool) -> str:
    args = parse_pool_args(text)
    settings = await _settings(call)
    me = await _side(call, None)
    pool, _card = _resolve_pool(args, me)
    again = _again(args, settings)
    bonus = pool.term_bonus + args.bonus
    name = me.name
    if args.odds:
        odds = pool_odds(pool.size, again, k=None)
        need = (args.dc or 0) + args.lost
        if need > odds.k:  # P(≥ DC) and E[final] need the distribution up to DC + lost
            odds = pool_odds(pool.size, again, k=need)
        return render.format_odds(name, pool.text, odds, dc=args.dc, bonus=bonus, lost=args.lost)
    roll = roll_pool(pool.size, call.app.rng, again=again)
    result = resolve(roll, bonus=bonus, lost=args.lost, dc=args.dc)
    return render.format_check(
        name,
        pool.text,
        result,
        detailed=detailed,
        reason=args.reason,
        bonus_note=_bonus_note(pool, args.bonus),
    )


async def _opposed(call: Call, text: str, detailed: bool) -> str:
    left_text, right_text = (s.strip() for s in _VS.split(text, maxsplit=1))
    if not left_text or not right_text:
        raise InputSyntaxError(
            "对抗需要两边的骰池", usage=".ww 先手骰池 vs [@对手] 后手骰池（如 .ww 敏捷+潜行 vs @B 感知+调查）"
        )
    la, ra = parse_pool_args(left_text), parse_pool_args(right_text)
    for a in (la, ra):
        if a.dc is not None or a.odds:
            raise InputSyntaxError("对抗时DC由先手方的成功数决定，不能再写dc或?")
    ats = call.ctx.at_ids
    npc = Side("对手", None)
    if len(ats) >= 2:
        left, right = await _side(call, ats[0]), await _side(call, ats[1])
    elif ats:
        left, right = await _side(call, None), await _side(call, ats[0])
    elif ra.names and not la.names:
        # an NPC pool goes first (e.g. a sneaking NPC), the sender's card answers
        left, right = npc, await _side(call, None)
    elif ra.names:
        raise NotFound("两边都用了属性名：请@对手（对手的数值从其角色卡读取），或把NPC一方写成数字")
    else:
        left, right = await _side(call, None), npc
    for side, uid in ((left, ats[0] if len(ats) >= 2 else None), (right, ats[-1] if ats else None)):
        if uid is not None and side.char is None:
            raise NotFound(f"{side.name} 在本群没有使用中的角色卡")
    settings = await _settings(call)
    lp, _ = _resolve_pool(la, left, whose=left.name)
    rp, _ = _resolve_pool(ra, right, whose=right.name)
    budget = DiceBudget()
    rng = call.app.rng
    first = resolve(
        roll_pool(lp.size, rng, again=_again(la, settings), budget=budget),
        bonus=lp.term_bonus + la.bonus,
        lost=la.lost,
    )
    second_roll = roll_pool(rp.size, rng, again=_again(ra, settings), budget=budget)
    second = resolve(second_roll, bonus=rp.term_bonus + ra.bonus, lost=ra.lost, dc=first.total)
    res = opposed(first, second, _tie(settings))
    return render.format_opposed(left.name, lp.text, right.name, rp.text, res, detailed=detailed)


async def _attack(call: Call, text: str, detailed: bool) -> str:
    inline = _INLINE_DEFENCE.search(text)
    inline_defence = int(inline.group(1)) if inline else None
    if inline:
        text = (text[: inline.start()] + " " + text[inline.end() :]).strip()
    args = parse_pool_args(text)
    if args.dc is not None or args.odds:
        raise InputSyntaxError(
            "攻击检定不用dc或?，命中与否由防御方的宣言决定", usage=".ww 攻击 <骰池> [@目标] [防N]"
        )
    settings = await _settings(call)
    me = await _side(call, None)
    pool, card = _resolve_pool(args, me)
    target = await _side(call, call.ctx.at_ids[0]) if call.ctx.at_ids else None
    if target is not None and target.char is None:
        raise NotFound(f"{target.name} 在本群没有使用中的角色卡")
    roll = roll_pool(pool.size, call.app.rng, again=_again(args, settings))
    my_key = _key(me.char) if me.char else None
    target_key = _key(target.char) if target and target.char else None

    def apply(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, tuple[int, list[Any]]]:
        s = Pool10Session.from_dict(state)
        events: list[Any] = []
        if my_key is not None:
            s, ev = new_action(s, my_key)  # attacking is the attacker's action
            events += ev
        used = 0
        if target_key is not None and inline_defence is None:
            s, used, ev = take_defence(s, target_key)
            events += ev
        new = s.to_dict() if (state is not None or s.defence) else None
        return new, (used, events)

    used, events = await call.app.store.apply_session(
        call.ctx.scope, SYSTEM, apply, user_id=call.ctx.user_id, command=call.command_text
    )
    defence = inline_defence if inline_defence is not None else used
    bonus = pool.term_bonus + card.attack + args.bonus
    res = resolve_attack(roll, attack_bonus=bonus, defence=defence)
    text_out = render.format_attack(
        me.name,
        pool.text,
        res,
        target=f"<{target.name}>" if target else None,
        detailed=detailed,
        reason=args.reason,
        bonus_note=_bonus_note(pool, args.bonus, card.attack, "卡上攻击"),
    )
    shown = [e for e in events if not isinstance(e, DefenceRestored) or e.restored or e.dropped]
    notes = render.format_defence_events(shown)
    return text_out + (f"\n{notes}" if notes else "")


async def _multi(call: Call, text: str) -> str:
    args = parse_pool_args(text)
    if not args.reason:
        raise InputSyntaxError("请在骰池后列出目标", usage=ALLOC_USAGE)
    targets = parse_targets(args.reason)
    settings = await _settings(call)
    me = await _side(call, None)
    pool, card = _resolve_pool(args, me)
    total = pool.term_bonus + card.attack + args.bonus
    plan = allocate(total, targets)
    budget = DiceBudget()
    again = _again(args, settings)
    rows = []
    for attack in plan:
        roll = roll_pool(pool.size, call.app.rng, again=again, budget=budget)
        rows.append((attack, resolve_attack(roll, attack_bonus=attack.bonus)))
    return render.format_allocation(me.name, pool.text, total, rows)


async def _set(call: Call, rest: str) -> list[Reply]:
    words = [w for w in re.split(r"[\s,]+", rest) if w]
    current = await _settings(call)
    if not words:
        again = int(current.get("again", DEFAULT_AGAIN))
        tie = _tie(current)
        return [
            Reply.say(
                f"本群骰池默认：{render.again_label(again)}；对抗：{render.TIE_LABEL[tie]}\n"
                "修改：.ww set a9 / .ww set 超过 / .ww set 大于等于 / .ww set clr"
            )
        ]
    changes: dict[str, Any] = {}
    clear = False
    for w in words:
        low = w.lower()
        if low in ("clr", "clear", "重置"):
            clear = True
        elif re.fullmatch(r"a\d{1,3}", low):
            changes["again"] = check_again(int(low[1:]))
        elif re.fullmatch(r"(a\d{1,3})?([kqm]\d{1,4})+", low):
            raise InputSyntaxError(
                "无限恐怖规则的成功线固定为8、骰子固定为D10，不能设置 k/q/m",
                usage=".ww set [a8/a9/a10/a11] [超过|大于等于] [clr]",
            )
        elif low in ("超过", "gt", ">", "严格"):
            changes["tie"] = TieRule.STRICT.value
        elif low in ("大于等于", "ge", ">=", "≥"):
            changes["tie"] = TieRule.AT_LEAST.value
        else:
            raise InputSyntaxError(
                f"无法理解「{w[:10]}」", usage=".ww set [a8/a9/a10/a11] [超过|大于等于] [clr]"
            )
    if call.ctx.group_id is not None:
        await call.app.require_gm(call.ctx, "修改本群的骰池默认设置")

    def fn(settings: dict[str, Any]) -> dict[str, Any]:
        mine = {} if clear else dict(settings.get(SETTINGS_KEY, {}))
        mine.update(changes)
        out = dict(settings)
        if mine:
            out[SETTINGS_KEY] = mine
        else:
            out.pop(SETTINGS_KEY, None)
        return out

    new = (await call.app.store.update_group_settings(call.ctx.scope, fn)).get(SETTINGS_KEY, {})
    return [
        Reply.say(
            f"已设置本群骰池默认：{render.again_label(int(new.get('again', DEFAULT_AGAIN)))}；"
            f"对抗：{render.TIE_LABEL[_tie(new)]}"
        )
    ]


async def _bonus(call: Call, rest: str) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    if not rest or rest.lower() in ("show", "list"):
        char = await store.active_character(ctx.user_id, ctx.scope)
        if char is None:
            raise NotFound("你还没有角色卡，用 .st 录入属性或 .pc new 名字 新建")
        return [Reply.say(_card_text(char))]
    if rest.lower().startswith(("del ", "rm ")):
        names = [w for w in re.split(r"[\s,]+", rest.split(maxsplit=1)[1]) if w]
        char = await store.active_character(ctx.user_id, ctx.scope)
        if char is None:
            raise NotFound("你还没有角色卡")
        updated = await store.update_character(
            char.id, lambda c: _with_card(c, Pool10Card.of(c.data).without(names))
        )
        return [Reply.say("已删除。" + _card_text(updated))]
    pairs = parse_attribute_pairs(rest)
    char = await active_or_create(store, ctx, await call.app.display_name(ctx))

    def fn(c: CharacterRecord) -> CharacterRecord:
        card = Pool10Card.of(c.data)
        entries = []
        for name, op, value in pairs:
            old = (
                card.attack
                if name in ("攻击", "攻击附加")
                else card.defence
                if name in ("防御", "防御附加")
                else card.bonus.get(name, 0)
            )
            new = value if op is None else old + value if op == "+" else old - value
            entries.append((name, new))
        return _with_card(c, card.with_entries(entries))

    updated = await store.update_character(char.id, fn)
    return [Reply.say("已录入。" + _card_text(updated))]


def _with_card(c: CharacterRecord, card: Pool10Card) -> CharacterRecord:
    return replace(c, data={**c.data, DATA_KEY: card.to_dict()})


def _card_text(char: CharacterRecord) -> str:
    card = Pool10Card.of(char.data)
    skills = " ".join(f"{k}{v}" for k, v in card.bonus.items()) or "无"
    return f"<{char.name}> 的附加成功：{skills}；攻击附加{card.attack}；防御附加{card.defence}（属性按6→1、11→2自动计算）"


async def _target_char(call: Call, rest: str, what: str) -> tuple[CharacterRecord, str]:
    ctx = call.ctx
    if ctx.at_ids and ctx.at_ids[0] != ctx.user_id:
        await call.app.require_gm(ctx, what)
        uid = ctx.at_ids[0]
    else:
        uid = ctx.user_id
    char = await call.app.store.active_character(uid, ctx.scope)
    if char is None:
        who = "你" if uid == ctx.user_id else await call.app.display_name(ctx, uid)
        raise NotFound(f"{who}在本群没有使用中的角色卡")
    return char, uid


async def _defence(call: Call, rest: str) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    word = rest.strip().lower()
    if word in ("clr", "clear", "重置"):
        await call.app.require_gm(ctx, "清空本群的防御记录")

        def clear_fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, int]:
            s = Pool10Session.from_dict(state)
            return (None if state is None else clear_defence(s)[0].to_dict()), len(s.defence)

        n = await store.apply_session(
            ctx.scope, SYSTEM, clear_fn, user_id=ctx.user_id, command=call.command_text
        )
        return [Reply.say(f"已清空本群的防御记录（{n}个角色）")]
    if not word:
        state, _ = await store.load_session(ctx.scope, SYSTEM)
        s = Pool10Session.from_dict(state)
        rows = []
        for key, d in s.defence.items():
            char = (
                await store.get_character(int(key[1:])) if key.startswith("c") and key[1:].isdigit() else None
            )
            rows.append((d, Pool10Card.of(char.data).defence if char else d.spent + d.declared))
        return [Reply.say(render.format_defence_table(rows))]
    m = re.fullmatch(r"(\d{1,4})", word)
    if not m:
        raise InputSyntaxError(
            "请给出宣言的防御附加成功数", usage=".ww 防御 N [@某人] | .ww 防御 | .ww 防御 clr"
        )
    amount = int(m.group(1))
    char, _uid = await _target_char(call, rest, "替别人宣言防御")
    total = Pool10Card.of(char.data).defence
    if total <= 0:
        raise IllegalAction(f"<{char.name}> 没有防御附加成功，先用 .ww 附加 防御5 录入")
    key, name = _key(char), char.name

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[Any]]:
        s, events = declare_defence(Pool10Session.from_dict(state), key, name, amount=amount, total=total)
        return s.to_dict(), events

    events = await store.apply_session(ctx.scope, SYSTEM, fn, user_id=ctx.user_id, command=call.command_text)
    return [Reply.say(render.format_defence_events(events))]


async def _action(call: Call, rest: str) -> list[Reply]:
    if rest.strip():
        raise InputSyntaxError("行动不带参数（GM可@某人）", usage=".ww 行动 [@某人]")
    char, _uid = await _target_char(call, rest, "替别人开始行动")
    key, name = _key(char), char.name

    def fn(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[Any]]:
        s, events = new_action(Pool10Session.from_dict(state), key)
        return (s.to_dict() if state is not None else None), events

    events = await call.app.store.apply_session(
        call.ctx.scope, SYSTEM, fn, user_id=call.ctx.user_id, command=call.command_text
    )
    return [Reply.say(render.format_defence_events(events) or f"<{name}> 行动：没有需要恢复的防御附加成功")]
