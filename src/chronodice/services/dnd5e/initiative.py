"""5e initiative where DnD5e commands answer: ``.ri`` = d20 + DEX modifier, ``.init`` the order,
``.init next`` / ``.ed`` the turns, ``.init 状态`` conditions that last some rounds.

``.ri``, ``.init`` and ``.ed`` belong to the D20 tick system (their roots are its commands);
:func:`.common.by_mode` hands them to the specs below only where DnD5e answers, so a tick20 group
keeps its ticks, AP and Mov.  The order is one session per group (system ``dnd5e_init``), so
``.undo`` takes a step back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chronodice.core.args import Int, Pattern, Text, Word, arg, opt
from chronodice.core.commands import Call, CommandSpec
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.reply import Reply
from chronodice.rules.dnd5e import D20Check, roll_d20
from chronodice.rules.dnd5e.initiative import MAX_ENTRIES, Entry, Tracker, TurnEvents

from ..tick20.joining import ri
from ..tick20.tracker import ed, init
from .checks import ADV, DIS, die_text
from .common import SYS_NAME, by_mode, sheet_of

SESSION = "dnd5e_init"
MOD = Pattern(
    regex=r"([+\-])\s*([0-9]{1,2})(?![0-9])", label="±调整值", convert=lambda m: int(m.group(1) + m.group(2))
)
FIXED = Pattern(regex=r"=\s*([0-9]{1,2})(?![0-9])", label="=先攻值", convert=lambda m: int(m.group(1)))


async def _apply(call: Call, fn: Callable[[Tracker], tuple[Tracker, Any]]) -> tuple[Tracker, Any]:
    def step(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, tuple[Tracker, Any]]:
        tracker, result = fn(Tracker.from_dict(state))
        return tracker.to_dict(), (tracker, result)

    return await call.app.store.sessions.apply_session(
        call.ctx.scope, SESSION, step, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )


async def _load(call: Call) -> Tracker:
    state, _ = await call.app.store.sessions.load_session(call.ctx.scope, SESSION)
    return Tracker.from_dict(state)


def order_text(t: Tracker) -> str:
    if not t.entries:
        return "先攻表是空的：.ri 掷先攻加入，.ri +3 哥布林 加入NPC"
    head = f"先攻表（第{t.round}轮）：" if t.turn is not None else "先攻表（未开始，.init next 开始第1轮）："
    lines = []
    for e in t.entries:
        conds = " ".join(f"[{c}{'' if n is None else n}]" for c, n in e.conditions)
        lines.append(
            f"{'▶' if e.name == t.turn else '  '}{e.name} {e.total}" + (f" {conds}" if conds else "")
        )
    return head + "\n" + "\n".join(lines)


def turn_text(t: Tracker, ev: TurnEvents) -> str:
    lines = [f"{name} 的「{cond}」结束了" for name, cond in ev.expired]
    cur = t.current
    if cur is not None:
        lines.append(
            f"{'第' + str(t.round) + '轮，' if ev.new_round else ''}轮到 {cur.name}（先攻{cur.total}）"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------- .ri
dnd_ri = CommandSpec(
    name="ri",
    summary="DnD5e先攻：d20+敏捷调整值，加入先攻表",
    detail="例 .ri、.ri +2（再加2）、.ri 优势、.ri +3 哥布林、.ri =15 巨龙；同名再掷则更新；平手时敏捷高者在前",
    system=SYS_NAME,
    group_only=True,
)


@dnd_ri.sub(
    params=[opt("mod", MOD), opt("fixed", FIXED), opt("name", Text(label="名称", max_len=20))],
    flags=[ADV, DIS],
    help="掷先攻加入先攻表；写名称则加入NPC",
    when_empty=True,
)
async def cmd_dnd_ri(
    call: Call, mod: int | None, fixed: int | None, name: str | None, adv: bool, dis: bool
) -> list[Reply]:
    extra = mod or 0
    if name is None:
        char = call.view.character if call.view is not None else None
        sheet = sheet_of(char)
        score = sheet.score("敏捷")
        dex = (score - 10) // 2 if score is not None else 0
        who, dex_score, owner = call.player_name, score or 10, call.ctx.user_id
        parts = f"{dex:+d}(敏捷)" + (f"{extra:+d}" if mod is not None else "")
    else:
        who, dex, dex_score, owner = name, 0, 10 + 2 * extra, None
        parts = f"{extra:+d}" if mod is not None else ""
    if fixed is not None:
        total, text = fixed, f"={fixed}"
    else:
        dice, kept = roll_d20(call.app.rng, advantage=adv, disadvantage=dis)
        total = kept + dex + extra
        text = die_text(D20Check(dice, kept, 0, None), adv) + parts + f"={total}"

    def join(t: Tracker) -> tuple[Tracker, bool]:
        if t.find(who) is None and len(t.entries) >= MAX_ENTRIES:
            raise IllegalAction(f"先攻表最多{MAX_ENTRIES}名")
        again = t.find(who) is not None
        return t.add(Entry(who, total, dex=dex_score, text=text, owner=owner)), again

    t, again = await _apply(call, join)
    line = f"{who} 的先攻：{text}" + ("（已更新）" if again else "")
    tail = "" if t.turn is not None else f"\n共{len(t.entries)}名；.init 查看先攻表，.init next 开始"
    return [Reply.say(line + tail)]


# ---------------------------------------------------------------------- .init / .ed
dnd_init = CommandSpec(
    name="init",
    summary="DnD5e先攻表：查看、下一个、移除、状态、清空",
    detail="先攻从高到低，平手敏捷高者在前；.init next（或 .ed）结束当前回合；状态持续的轮数在其回合结束时减一",
    system=SYS_NAME,
    group_only=True,
)


@dnd_init.sub("list", "查看", help="查看先攻表", when_empty=True)
async def dnd_init_list(call: Call) -> list[Reply]:
    return [Reply.say(order_text(await _load(call)))]


@dnd_init.sub("next", "ed", "n", "下一个", "结束回合", help="结束当前回合，轮到下一位")
async def dnd_init_next(call: Call) -> list[Reply]:
    def step(t: Tracker) -> tuple[Tracker, TurnEvents]:
        if not t.entries:
            raise NotFound("先攻表是空的：先用 .ri 掷先攻")
        return t.next()

    t, ev = await _apply(call, step)
    return [Reply.say(turn_text(t, ev))]


@dnd_init.sub("del", "rm", "移除", params=[arg("name", Text(label="名称", max_len=20))], help="移出先攻表")
async def dnd_init_del(call: Call, name: str) -> list[Reply]:
    def step(t: Tracker) -> tuple[Tracker, None]:
        if t.find(name) is None:
            raise NotFound(f"先攻表里没有「{name}」")
        return t.remove(name), None

    await _apply(call, step)
    return [Reply.say(f"已将 {name} 移出先攻表")]


@dnd_init.sub(
    "状态",
    "cond",
    params=[
        arg("name", Word(label="名称")),
        arg("cond", Word(label="状态")),
        opt("rounds", Int(label="轮数", min=1, max=100, suffix=("轮",))),
    ],
    help="给参战者加一个状态，可写持续轮数",
)
async def dnd_init_cond(call: Call, name: str, cond: str, rounds: int | None) -> list[Reply]:
    def step(t: Tracker) -> tuple[Tracker, None]:
        if t.find(name) is None:
            raise NotFound(f"先攻表里没有「{name}」")
        return t.condition(name, cond[:10], rounds), None

    await _apply(call, step)
    last = f"，持续{rounds}轮（在其回合结束时计数）" if rounds else "（直到解除：.init 解除 名称 状态）"
    return [Reply.say(f"{name} 进入「{cond[:10]}」状态{last}")]


@dnd_init.sub(
    "解除",
    "uncond",
    params=[arg("name", Word(label="名称")), arg("cond", Word(label="状态"))],
    help="解除状态",
)
async def dnd_init_uncond(call: Call, name: str, cond: str) -> list[Reply]:
    def step(t: Tracker) -> tuple[Tracker, None]:
        entry = t.find(name)
        if entry is None or all(c != cond for c, _ in entry.conditions):
            raise NotFound(f"「{name}」没有「{cond}」状态")
        return t.uncondition(name, cond), None

    await _apply(call, step)
    return [Reply.say(f"{name} 的「{cond}」已解除")]


@dnd_init.sub("clr", "clear", "end", "结束", "清空", help="清空先攻表（结束战斗）")
async def dnd_init_clear(call: Call) -> list[Reply]:
    await _apply(call, lambda t: (Tracker(), None))
    return [Reply.say("先攻表已清空，战斗结束")]


dnd_ed = CommandSpec(name="ed", summary="结束当前回合（同 .init next）", system=SYS_NAME, group_only=True)


@dnd_ed.sub(help="结束当前回合", when_empty=True)
async def dnd_ed_next(call: Call) -> list[Reply]:
    return await dnd_init_next(call)


by_mode(ri, dnd_ri)
by_mode(init, dnd_init)
by_mode(ed, dnd_ed)

__all__ = ["dnd_ed", "dnd_init", "dnd_ri", "order_text"]
