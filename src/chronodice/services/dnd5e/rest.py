"""``.ds`` death saves, ``.ss`` spell slots, ``.长休``/``.longrest`` and ``.短休``/``.shortrest``.

All of it lives on the sender's active card (``data["dnd5e"]``: ``death``, ``slots``; hit points
in the attributes 体力/体力上限/临时体力), so ``.st show`` shows it and ``.undo`` is not needed:
``.st`` puts numbers back.  A short rest spends hit dice only when the player writes them
(``.短休 2d8``: each die + CON modifier); their count is not tracked.
"""

from __future__ import annotations

from dataclasses import replace

from chronodice.core.args import Int, OneOf, Pattern, arg, opt
from chronodice.core.commands import Call, define
from chronodice.core.reply import CheckNote, Reply
from chronodice.rules.dnd5e.health import DeathSave, Health, death_save, heal
from chronodice.rules.dnd5e.sheet import ability_modifier
from chronodice.rules.dnd5e.slots import (
    Slots,
    from_json,
    regain,
    restore_all,
    set_slots,
    slots_text,
    spend,
    to_json,
)
from chronodice.store import CharacterRecord

from .common import SYS_NAME, dnd_data, dnd_only, health_of, need_card, sheet_of, with_dnd_data, with_health

OUTCOME = {
    "success": "成功",
    "failure": "失败",
    "double_failure": "天然1，算两次失败",
    "revive": "天然20！恢复1点体力，苏醒过来",
}


def hp_text(h: Health) -> str:
    top = f"/{h.max_hp}" if h.max_hp is not None else ""
    return f"体力{h.hp}{top}" + (f"（临时{h.temp}）" if h.temp else "")


# ---------------------------------------------------------------------- .ds
ds = dnd_only(
    define(
        "ds",
        aliases=("死亡豁免",),
        summary="DnD5e死亡豁免：体力为0时掷d20，10以上成功",
        detail=(
            "d20≥10 成功，<10 失败；天然1算两次失败，天然20恢复1点体力并苏醒；三次成功稳定，三次失败死亡\n"
            "记录在角色卡上；回复体力（.st hp+5、.长休）时清零；昏迷中受到伤害算一次失败"
        ),
        system=SYS_NAME,
    )
)


@ds.sub(help="掷一次死亡豁免", when_empty=True)
async def cmd_ds(call: Call) -> list[Reply]:
    char = need_card(call)
    h = health_of(char)
    if h.dead:
        return [Reply.say(f"<{char.name}> 已经死亡")]
    if h.hp > 0:
        return [Reply.say(f"<{char.name}> {hp_text(h)}，不需要死亡豁免")]
    if h.stable:
        return [Reply.say(f"<{char.name}> 伤势已稳定，不再需要死亡豁免（回复体力即苏醒）")]
    roll = call.app.rng.randint(1, 20)
    result: list[tuple[Health, DeathSave]] = []

    def save(c: CharacterRecord) -> CharacterRecord:
        result[:] = [death_save(health_of(c), roll)]
        return with_health(c, result[0][0])

    await call.app.store.characters.update_character(char.id, save, claim=call.claim)
    h, saved = result[0]
    text = f"<{char.name}> 的死亡豁免：D20={roll} {OUTCOME[saved.outcome]}"
    if h.dead:
        text += "——三次失败：死亡"
    elif h.stable:
        text += "——三次成功：伤势稳定"
    elif saved.outcome != "revive":
        text += f"（成功{h.successes}/失败{h.failures}）"
    success = saved.outcome in ("success", "revive")
    note = CheckNote(
        "死亡豁免", OUTCOME[saved.outcome], success, rule="dnd5e", items=(("D20", "死亡豁免", roll),)
    )
    return [Reply(text=text, check=note)]


@ds.sub("查看", "show", help="查看死亡豁免的进度")
async def cmd_ds_show(call: Call) -> list[Reply]:
    char = need_card(call)
    h = health_of(char)
    state = "死亡" if h.dead else "稳定" if h.stable else f"成功{h.successes}/失败{h.failures}"
    return [Reply.say(f"<{char.name}> {hp_text(h)}，死亡豁免：{state}")]


# ---------------------------------------------------------------------- .ss
SLOT_STEP = Pattern(
    regex=r"([+\-])\s*([1-9])(?![0-9])", label="±环阶", convert=lambda m: (m.group(1), int(m.group(2)))
)
ss = dnd_only(
    define(
        "ss",
        aliases=("法术位",),
        summary="DnD5e法术位：.ss 查看、.ss 1 4 设置、.ss -1 用掉一个1环",
        detail=".ss 1 4：1环法术位4个（全满）；.ss -1 或 .ss use 1：用一个1环；.ss +1：恢复一个1环；长休全部恢复",
        system=SYS_NAME,
    )
)


async def _slots(call: Call, change: object) -> list[Reply]:
    char = need_card(call)
    result: list[Slots] = []

    def write(c: CharacterRecord) -> CharacterRecord:
        dnd = dnd_data(c)
        new = change(from_json(dnd.get("slots")))  # type: ignore[operator]
        result[:] = [new]
        dnd["slots"] = to_json(new)
        return with_dnd_data(c, dict(c.attributes), dnd)

    await call.app.store.characters.update_character(char.id, write, claim=call.claim)
    return [Reply.say(f"<{char.name}> 的法术位：{slots_text(result[0])}")]


@ss.sub("show", "查看", help="查看法术位", when_empty=True)
async def cmd_ss_show(call: Call) -> list[Reply]:
    char = need_card(call)
    return [Reply.say(f"<{char.name}> 的法术位：{slots_text(from_json(dnd_data(char).get('slots')))}")]


@ss.sub(
    "use", "用", "消耗", params=[arg("level", Int(label="环阶", min=1, max=9))], help="用掉一个该环法术位"
)
async def cmd_ss_use(call: Call, level: int) -> list[Reply]:
    return await _slots(call, lambda s: spend(s, level))


@ss.sub(
    params=[
        arg("level", OneOf(SLOT_STEP, Int(label="环阶", min=1, max=9), label="环阶")),
        opt("count", Int(label="数量", min=0, max=20)),
    ],
    help="1 4：1环法术位4个（全满）；-1 用掉一个1环；+1 恢复一个1环",
)
async def cmd_ss_set(call: Call, level: int | tuple[str, int], count: int | None) -> list[Reply]:
    if isinstance(level, tuple):
        sign, lv = level
        if count is not None:
            raise call.usage_error("±环阶 后面不写数量：.ss -1 用掉一个1环")
        return await _slots(call, lambda s: spend(s, lv) if sign == "-" else regain(s, lv))
    if count is None:
        raise call.usage_error(f"写出{level}环法术位的数量，如 .ss {level} 4")
    return await _slots(call, lambda s: set_slots(s, level, count))


# ---------------------------------------------------------------------- rests
longrest = dnd_only(
    define(
        "longrest",
        aliases=("长休",),
        summary="DnD5e长休：体力回满、法术位全部恢复、死亡豁免清零",
        system=SYS_NAME,
    )
)


@longrest.sub(help="长休", when_empty=True)
async def cmd_longrest(call: Call) -> list[Reply]:
    char = need_card(call)
    result: list[Health] = []

    def rest(c: CharacterRecord) -> CharacterRecord:
        h = health_of(c)
        top = h.max_hp if h.max_hp is not None else h.hp
        h = replace(h, hp=top, temp=0, successes=0, failures=0, stable=False)
        result[:] = [h]
        c = with_health(c, h)
        dnd = dnd_data(c)
        dnd["slots"] = to_json(restore_all(from_json(dnd.get("slots"))))
        return with_dnd_data(c, dict(c.attributes), dnd)

    if health_of(char).dead:
        return [Reply.say(f"<{char.name}> 已经死亡，长休不能复活（GM 可用 .st hp+1 处理复活）")]
    updated = await call.app.store.characters.update_character(char.id, rest, claim=call.claim)
    slots = from_json(dnd_data(updated).get("slots"))
    text = f"<{char.name}> 完成长休：{hp_text(result[0])}"
    if result[0].max_hp is None:
        text += "（卡上没有体力上限，体力未变）"
    text += f"；法术位：{slots_text(slots)}" if slots else ""
    return [Reply.say(text + "；死亡豁免清零")]


HIT_DICE = Pattern(
    regex=r"([1-9][0-9]?)\s*[dD]\s*(6|8|10|12)(?![0-9])",
    label="生命骰（如 2d8）",
    convert=lambda m: (int(m.group(1)), int(m.group(2))),
)
shortrest = dnd_only(
    define(
        "shortrest",
        aliases=("短休",),
        summary="DnD5e短休：可花生命骰回血（.短休 2d8：每颗+体质调整值）",
        detail="不写生命骰则只记一次短休；生命骰的剩余数量不记录，请自己扣除",
        system=SYS_NAME,
    )
)


@shortrest.sub(params=[opt("dice", HIT_DICE)], help="短休，可写要花的生命骰", when_empty=True)
async def cmd_shortrest(call: Call, dice: tuple[int, int] | None) -> list[Reply]:
    char = need_card(call)
    if dice is None:
        return [
            Reply.say(
                f"<{char.name}> 完成短休（没有花生命骰；要回复体力写 .短休 2d8：每颗生命骰+体质调整值）"
            )
        ]
    count, faces = dice
    rolls = [call.app.rng.randint(1, faces) for _ in range(count)]
    score = sheet_of(char).score("体质")
    con = ability_modifier(score) if score is not None else 0
    gained = max(0, sum(rolls) + con * count)
    result: list[Health] = []

    def rest(c: CharacterRecord) -> CharacterRecord:
        result[:] = [heal(health_of(c), gained)]
        return with_health(c, result[0])

    before = health_of(char).hp
    await call.app.store.characters.update_character(char.id, rest, claim=call.claim)
    shown = "+".join(map(str, rolls))
    return [
        Reply.say(
            f"<{char.name}> 短休，花{count}颗生命骰：{count}D{faces}=[{shown}]{con * count:+d}(体质)={gained}，"
            f"体力{before}→{hp_text(result[0])[2:]}（生命骰的剩余数量请自己扣除）"
        )
    ]


__all__ = ["ds", "longrest", "shortrest", "ss"]
