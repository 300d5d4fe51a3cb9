"""``.init`` and ``.ed`` where DnD5e commands answer: the order, turns and rounds, conditions by
rounds, monsters' hit points and AC, hidden monsters, and how the group sees monsters' hit points.

* ``.init`` — the order as the group may read it; a DM with secrets in it (a hidden monster,
  numbers the group does not see) also gets the whole order privately.
* ``.init next`` / ``.ed`` — the next visible turn; hidden turns pass at once and the DM who
  added them is told privately (:meth:`~chronodice.rules.dnd5e.initiative.Tracker.next`).
* ``.init 隐藏/现身 名`` (DM), ``.init 血量 精确/模糊/隐藏`` (DM), ``.init 设定 名 hp7 ac15`` (DM),
  ``.init hp 名 -5`` (DM: a monster's hit points by hand; a player character's are on the card).
* A player naming a hidden monster gets the reply for a name nobody has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from chronodice.core.args import Choice, Int, Pattern, Text, Word, arg, opt
from chronodice.core.commands import Call, CommandSpec
from chronodice.core.errors import IllegalAction, NotFound, NotPermitted
from chronodice.core.permissions import GM_WHO
from chronodice.core.reply import Reply
from chronodice.rules.dnd5e.initiative import HP_VIEWS, MAX_HP, Entry, Tracker, TurnEvents

from ..tick20.tracker import ed, init
from .combat import (
    apply_tracker,
    dm_whisper,
    hidden_turn_text,
    hp_change,
    hp_shown,
    is_dm,
    load_tracker,
    order_text,
    seen,
    skipped_dms,
    turn_text,
)
from .common import SYS_NAME, by_mode
from .initiative import npc_spec

NAME = Word(label="名称")
VIEW_WORDS = {"精确": "exact", "数值": "exact", "exact": "exact", "模糊": "fuzzy", "fuzzy": "fuzzy"}
VIEW_WORDS |= {"隐藏": "hidden", "hidden": "hidden", "不显示": "hidden"}
CHANGE = Pattern(
    regex=r"([+\-=])\s*([0-9]{1,4})(?![0-9])",
    label="-伤害/+治疗/=体力",
    convert=lambda m: (m.group(1), int(m.group(2))),
)


def _missing(name: str) -> NotFound:
    return NotFound(f"先攻表里没有「{name[:20]}」")


async def _dm_only(call: Call, what: str) -> None:
    if not await is_dm(call):
        raise NotPermitted(f"只有{GM_WHO}可以{what}")


def _public_or_secret(entry: Entry, text: str, sender: str) -> list[Reply]:
    """``text`` to the group, or only to the DM when it is about a hidden entry."""
    return dm_whisper(text, [sender]) if entry.hidden else [Reply.say(text)]


dnd_init = CommandSpec(
    name="init",
    summary="DnD5e先攻表：查看、下一个、移除、状态、怪物体力、隐藏怪物",
    detail=(
        "先攻从高到低，平手敏捷高者在前；.init next（或 .ed）结束当前回合；状态持续的轮数在其回合结束时减一\n"
        "怪物体力：群里默认只显示轻伤/重伤等字样（.init 血量 精确/模糊/隐藏 由GM选），GM私聊看到数值\n"
        "隐藏的怪物：群里看不到它、它的回合也自动跳过；.init 现身 名字 公开，.atk 攻击也会现身"
    ),
    system=SYS_NAME,
    group_only=True,
)


@dnd_init.sub("list", "查看", help="查看先攻表", when_empty=True)
async def dnd_init_list(call: Call) -> list[Reply]:
    t = await load_tracker(call)
    replies = [Reply.say(order_text(t))]
    secrets = t.has_hidden or any(e.hp is not None or e.ac is not None for e in t.entries)
    if secrets and await is_dm(call):
        replies += dm_whisper("（GM）" + order_text(t, dm=True), [call.ctx.user_id])
    return replies


@dnd_init.sub("next", "ed", "n", "下一个", "结束回合", help="结束当前回合，轮到下一位")
async def dnd_init_next(call: Call) -> list[Reply]:
    def step(t: Tracker) -> tuple[Tracker, TurnEvents]:
        if not t.visible:  # only hidden monsters: what the group would read of an empty order
            raise NotFound("先攻表是空的：先用 .ri 掷先攻")
        return t.next()

    t, ev = await apply_tracker(call, step)
    return [Reply.say(turn_text(t, ev)), *dm_whisper(hidden_turn_text(t, ev), skipped_dms(t, ev))]


async def _change_seen(
    call: Call,
    name: str,
    change: Callable[[Tracker], Tracker],
    *,
    missing: NotFound | None = None,
    has: Callable[[Entry], bool] = lambda e: True,
) -> Entry:
    """Apply ``change`` to the order when ``name`` is an entry the sender may know of (a hidden
    one only for the DM) and ``has`` holds for it; the entry as it was.  Otherwise ``missing``
    (default: the reply for a name nobody has)."""
    dm = await is_dm(call)

    def step(t: Tracker) -> tuple[Tracker, Entry]:
        entry = seen(t, name, dm)
        if entry is None or not has(entry):
            raise missing or _missing(name)
        return change(t), entry

    _, entry = await apply_tracker(call, step)
    return entry


@dnd_init.sub("del", "rm", "移除", params=[arg("name", Text(label="名称", max_len=20))], help="移出先攻表")
async def dnd_init_del(call: Call, name: str) -> list[Reply]:
    entry = await _change_seen(call, name, lambda t: t.remove(name))
    return _public_or_secret(entry, f"已将 {name} 移出先攻表", call.ctx.user_id)


@dnd_init.sub(
    "状态",
    "cond",
    params=[
        arg("name", NAME),
        arg("cond", Word(label="状态")),
        opt("rounds", Int(label="轮数", min=1, max=100, suffix=("轮",))),
    ],
    help="给参战者加一个状态，可写持续轮数",
)
async def dnd_init_cond(call: Call, name: str, cond: str, rounds: int | None) -> list[Reply]:
    entry = await _change_seen(call, name, lambda t: t.condition(name, cond[:10], rounds))
    last = f"，持续{rounds}轮（在其回合结束时计数）" if rounds else "（直到解除：.init 解除 名称 状态）"
    return _public_or_secret(entry, f"{name} 进入「{cond[:10]}」状态{last}", call.ctx.user_id)


@dnd_init.sub(
    "解除",
    "uncond",
    params=[arg("name", NAME), arg("cond", Word(label="状态"))],
    help="解除状态",
)
async def dnd_init_uncond(call: Call, name: str, cond: str) -> list[Reply]:
    entry = await _change_seen(
        call,
        name,
        lambda t: t.uncondition(name, cond),
        missing=NotFound(f"「{name[:20]}」没有「{cond[:10]}」状态"),
        has=lambda e: any(c == cond for c, _ in e.conditions),
    )
    return _public_or_secret(entry, f"{name} 的「{cond}」已解除", call.ctx.user_id)


# ---------------------------------------------------------------------- the DM's tools
async def _set_hidden(call: Call, name: str, on: bool) -> list[Reply]:
    await _dm_only(call, "隐藏或现身怪物")

    def step(t: Tracker) -> tuple[Tracker, Entry]:
        entry = t.find(name)
        if entry is None:
            raise _missing(name)
        if on and entry.owner is not None:
            raise IllegalAction(f"{name} 是玩家角色：只有怪物可以隐藏")
        if on and entry.name == t.turn:
            raise IllegalAction(f"{name} 正在回合中：结束它的回合后再隐藏")
        return t.set(replace(entry, hidden=on, by=entry.by or call.ctx.user_id)), entry

    t, before = await apply_tracker(call, step)
    if on:
        text = f"{name} 已隐藏：群里不再显示它和它的回合；.init 现身 {name} 公开"
        return dm_whisper(text if not before.hidden else f"{name} 已经隐藏", [call.ctx.user_id])
    if not before.hidden:
        return [Reply.say(f"{name} 本来就没有隐藏")]
    return [Reply.say(f"{name} 现身了！\n{order_text(t)}")]


@dnd_init.sub("隐藏", "hide", params=[arg("name", NAME)], help="隐藏一只怪物：群里看不到它和它的回合（GM）")
async def dnd_init_hide(call: Call, name: str) -> list[Reply]:
    return await _set_hidden(call, name, True)


@dnd_init.sub("现身", "reveal", params=[arg("name", NAME)], help="让隐藏的怪物现身（GM；它攻击时也会现身）")
async def dnd_init_reveal(call: Call, name: str) -> list[Reply]:
    return await _set_hidden(call, name, False)


@dnd_init.sub(
    "血量",
    "hpview",
    params=[arg("view", Choice(VIEW_WORDS, label="精确/模糊/隐藏"))],
    help="群里怎样显示怪物的体力：精确（数值）、模糊（轻伤/重伤等，默认）、隐藏（GM）",
)
async def dnd_init_view(call: Call, view: str) -> list[Reply]:
    await _dm_only(call, "设置怪物体力的显示")
    await apply_tracker(call, lambda t: (replace(t, hp_view=view), None))
    words = {"exact": "显示数值", "fuzzy": "只显示满血/轻伤/重伤/垂危/倒下", "hidden": "不显示"}
    return [Reply.say(f"怪物体力：{HP_VIEWS[view]}（群里{words[view]}；玩家角色的体力照常显示）")]


@dnd_init.sub(
    "设定",
    "set",
    params=[arg("text", Text(label="名字 hp ac", max_len=40))],
    help="设定怪物的体力和AC，如 .init 设定 哥布林1 hp7 ac15（GM，数值私聊）",
)
async def dnd_init_stats(call: Call, text: str) -> list[Reply]:
    await _dm_only(call, "设定怪物的数值")
    spec = npc_spec(text)
    if spec.hp is None and spec.ac is None:
        raise call.usage_error("请写出体力或AC，如 .init 设定 哥布林1 hp7 ac15")

    def step(t: Tracker) -> tuple[Tracker, Entry]:
        entry = t.find(spec.name)
        if entry is None:
            raise _missing(spec.name)
        if entry.owner is not None:
            raise IllegalAction(f"{spec.name} 是玩家角色：体力和AC在角色卡上（.st hp12 ac15）")
        hp = entry.hp if spec.hp is None else spec.hp
        new = replace(
            entry,
            hp=hp,
            max_hp=spec.hp if spec.hp is not None else entry.max_hp,
            ac=entry.ac if spec.ac is None else spec.ac,
        )
        return t.set(new), new

    t, entry = await apply_tracker(call, step)
    secret = dm_whisper(
        f"{entry.name}：{hp_shown(entry, t.hp_view, dm=True)} AC{entry.ac}", [call.ctx.user_id]
    )
    if entry.hidden:
        return secret
    return [Reply.say(f"已设定 {entry.name} 的数值（已私聊GM）"), *secret]


@dnd_init.sub(
    "hp",
    "体力",
    params=[arg("name", NAME), arg("change", CHANGE)],
    help="改怪物的体力：.init hp 哥布林1 -5（伤害）/+3（治疗）/=7（GM）",
)
async def dnd_init_hp(call: Call, name: str, change: tuple[str, int]) -> list[Reply]:
    await _dm_only(call, "修改怪物的体力")
    op, value = change

    def step(t: Tracker) -> tuple[Tracker, tuple[Entry, int]]:
        entry = t.find(name)
        if entry is None:
            raise _missing(name)
        if entry.owner is not None:
            raise IllegalAction(f"{name} 是玩家角色：体力在角色卡上（.st hp-5 @某人）")
        if entry.hp is None and op != "=":
            raise IllegalAction(f"{name} 还没有体力：先 .init 设定 {name} hp7")
        if op == "=":
            new = replace(entry, hp=min(value, MAX_HP), max_hp=entry.max_hp or min(value, MAX_HP))
            return t.set(new), (new, entry.hp or 0)
        t2, old, _ = t.hurt(name, value if op == "-" else -value)
        return t2, (t2.find(name) or entry, old)

    t, (entry, old) = await apply_tracker(call, step)
    word = {"-": f"受到{value}点伤害", "+": f"恢复{value}点体力", "=": "体力已设定"}[op]
    shown = hp_shown(entry, t.hp_view)
    line = f"{name} {word}" + (f"：{shown}" if shown else "")
    exact = (
        []
        if t.hp_view == "exact" and not entry.hidden
        else dm_whisper(hp_change(entry, old), [call.ctx.user_id])
    )
    return ([] if entry.hidden else [Reply.say(line)]) + exact


@dnd_init.sub("clr", "clear", "end", "结束", "清空", help="清空先攻表（结束战斗）")
async def dnd_init_clear(call: Call) -> list[Reply]:
    await apply_tracker(call, lambda t: (Tracker(), None))
    return [Reply.say("先攻表已清空，战斗结束")]


dnd_ed = CommandSpec(name="ed", summary="结束当前回合（同 .init next）", system=SYS_NAME, group_only=True)


@dnd_ed.sub(help="结束当前回合", when_empty=True)
async def dnd_ed_next(call: Call) -> list[Reply]:
    return await dnd_init_next(call)


by_mode(init, dnd_init)
by_mode(ed, dnd_ed)

__all__ = ["dnd_ed", "dnd_init"]
