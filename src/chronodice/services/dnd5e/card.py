"""``.st`` where DnD5e commands answer: the common ``.st`` plus the 5e parts of a card.

* Proficiency marks (SealDice's convention, a star after the name): ``.st 隐匿*`` 熟练,
  ``.st 隐匿**`` 专精 (expertise); ``.st 敏捷豁免*`` (or ``.st 敏捷*14``: a starred ability is its
  saving throw) a proficient save.  Kept in ``data["dnd5e"]["prof"]``; the check adds the
  proficiency bonus (2 + (等级−1)//4, or the card's 熟练加值).
* Hit points: ``.st hp-25`` takes temporary hit points (临时体力) first and never goes below 0;
  dropping to 0 knocks out (death saves, ``.ds``) or kills outright when the damage left over is at
  least 体力上限 (massive damage); damage at 0 is a failed death save; healing from 0 resets them.
  ``.st hp20`` on a card without 体力上限 records it too.
* ``.st clr`` leaves an empty DnD5e card; an empty card of another system is adopted.
* ``.r d20+dex``: a DnD5e card's ``str``/``dex``… are the ability modifiers in dice expressions
  (:data:`chronodice.services.characters.SYSTEM_VARIABLES`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from chronodice.core.args import Mention, Rest, opt
from chronodice.core.commands import Call, CommandSpec
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound
from chronodice.core.reply import Reply
from chronodice.rules.dnd5e.health import HP, MAX_HP, TEMP_HP, DamageNote, Health, damage, heal, set_hp
from chronodice.rules.dnd5e.sheet import PROF_WORDS, SAVE, ability_name, save_name, skill_name
from chronodice.store import CharacterRecord, ContextView

from ..card_access import as_member, member_card
from ..characters import (
    SYSTEM_VARIABLES,
    Pair,
    active_or_create,
    apply_pairs,
    attr_text,
    parse_attribute_pairs,
)
from ..common import MEMBER_ST, st
from ..modes import Mode, attribute_name, st_card_system, st_guard
from .common import CARD_SYSTEM, by_mode, dnd_answers, dnd_data, sheet_of, with_dnd_data, with_health

_NAME = r"[^\d\s:=+\-,;、|/*()＊&]"
_MARK = re.compile(rf"(?<!{_NAME})({_NAME}+)([*＊]{{1,2}})")
"""A starred name; it starts only where a run of name characters starts (linear, issue 23)."""
ATTR_WORDS: dict[str, str] = {
    "lv": "等级",
    "level": "等级",
    "pb": "熟练加值",
    "hpmax": MAX_HP,
    "maxhp": MAX_HP,
    "mhp": MAX_HP,
    "生命上限": MAX_HP,
    "生命值上限": MAX_HP,
    "thp": TEMP_HP,
    "temphp": TEMP_HP,
    "临时生命": TEMP_HP,
    "临时生命值": TEMP_HP,
    "临时hp": TEMP_HP,
}
"""Names ``.st`` stores under another name on a DnD5e card (beside :data:`~..modes.DND_ALIASES`)."""


def attr_key(name: str, mode: Mode | None) -> str:
    """The name a DnD5e card keeps ``name`` under: ``stealth`` → 隐匿, ``dex豁免`` → 敏捷豁免."""
    word = ATTR_WORDS.get(name.lower())
    if word is not None:
        return word
    skill = skill_name(name)
    if skill is not None:
        return skill
    saved = save_name(name)
    if saved is not None:
        return saved + SAVE
    return attribute_name(CARD_SYSTEM, mode, name)


def mark_key(name: str) -> str:
    """What a star marks: a skill, or a saving throw (an ability alone means its save)."""
    ability = ability_name(name) or save_name(name)
    if ability is not None:
        return ability + SAVE
    skill = skill_name(name)
    if skill is not None:
        return skill
    raise InputSyntaxError(
        f"「{name[:20]}」不是技能或豁免：熟练标记 * 只用于技能（隐匿*）和豁免（敏捷豁免* 或 敏捷*）"
    )


def take_marks(text: str) -> tuple[str, list[tuple[str, int]]]:
    """The text without its stars, and the marks: ``隐匿* dex14`` → ``(" dex14", [("隐匿", 1)])``;
    a starred name followed by a number keeps the name (``敏捷*14`` → ``敏捷14``)."""
    marks: list[tuple[str, int]] = []

    def cut(m: re.Match[str]) -> str:
        marks.append((mark_key(m.group(1)), len(m.group(2))))
        after = m.string[m.end() :].lstrip()[:1]
        return m.group(1) if after and (after.isdigit() or after in ":=：+-") else " "

    return _MARK.sub(cut, text), marks


def damage_words(note: DamageNote, h: Health) -> str:
    words = f"（临时体力抵消{note.absorbed}）" if note.absorbed else ""
    if note.massive:
        return words + "，伤害溢出达到体力上限：当场死亡"
    if note.failures_added:
        words += f"，昏迷中受伤：死亡豁免失败+1（成功{h.successes}/失败{h.failures}）"
        return words + ("，三次失败：死亡" if h.dead else "")
    if note.down:
        return words + "，倒地昏迷（用 .ds 做死亡豁免）"
    return words


WHO = opt("who", Mention(), label="@某人")
dnd_st = CommandSpec(
    name="st",
    summary="录入或查看当前角色的属性（DnD5e：熟练标记、体力下限0、临时体力）",
    detail=(
        "例：.st str10 dex14 wis12 lv3 hp24 ac15 隐匿* 察觉** 敏捷豁免*\n"
        "技能/豁免后加 * 为熟练、** 为专精（属性后加 * 即该属性的豁免熟练）；写数值则为总加值\n"
        ".st hp-7 扣血（先扣临时体力，最低0，溢出≥体力上限当场死亡）；.st hp+5 回血；.st clr 清空为空白DnD5e卡"
    ),
)


@dnd_st.sub(params=[WHO, opt("text", Rest(label="属性名数值"), default="")], help="录入或修改属性")
async def dnd_st_set(call: Call, who: str | None, text: str) -> list[Reply]:
    if not text.strip():
        if who is None:
            raise call.usage_error("请给出属性和数值")
        return await dnd_st_show(call, who, "")
    call = await as_member(call, who)
    cleaned, marks = take_marks(text)
    pairs = parse_attribute_pairs(cleaned) if cleaned.strip(" ,;、|") else []
    return await _write(call, pairs, marks)


async def member_st(call: Call, who: str, pairs: list[Pair]) -> list[Reply] | None:
    """``.st @who`` with ``pairs`` by the 5e rules above (HP floor, temporary HP, death saves)
    where DnD5e answers ``.st`` for ``who``'s card here — the group's mode, else the card's system,
    as :func:`.common.by_mode` decides for ``.st`` — else ``None`` (``.team st``, see
    :data:`~chronodice.services.common.MEMBER_ST`)."""
    card = await member_card(call, who, "查看或修改别人的角色卡", write=True)
    group = call.view.group if call.view is not None else None
    view = ContextView(group=group, nickname=None, character=card)
    if not await dnd_answers(call.app, call.ctx, view, keep_when_off=True):
        return None
    return await _write(await as_member(call, who), pairs, [])


async def _write(call: Call, pairs: list[Pair], marks: list[tuple[str, int]]) -> list[Reply]:
    """``.st`` on the card ``call``'s sender uses here: ``pairs`` by the 5e rules, ``marks``."""
    store, ctx = call.app.store, call.ctx
    mode, char = await st_guard(call)
    if char is None:
        char = await active_or_create(store, ctx, call.name, CARD_SYSTEM, claim=call.claim)
    if char.system not in ("generic", CARD_SYSTEM) and not char.attributes:
        char = await store.characters.update_character(
            char.id, lambda c: replace(c, system=CARD_SYSTEM), claim=call.claim
        )
    system = st_card_system(mode, [p[0] for p in pairs], char)
    if char.system != system:
        char = await store.characters.update_character(
            char.id, lambda c: replace(c, system=system), claim=call.claim
        )
    pairs = [(attr_key(a, mode), op, v) for a, op, v in pairs]
    notes: dict[int, str] = {}

    def write(c: CharacterRecord) -> CharacterRecord:
        notes.clear()
        attrs = apply_pairs(dict(c.attributes), [p for p in pairs if p[0] != HP])
        dnd = dnd_data(c)
        dnd["prof"] = {**(dnd.get("prof") or {}), **dict(marks)}
        hp_pairs = [(i, p) for i, p in enumerate(pairs) if p[0] == HP]
        if hp_pairs:
            h = Health.of(attrs, dnd.get("death"))
            for i, (_, op, value) in hp_pairs:
                if not isinstance(value, int):
                    raise IllegalAction("体力只能是数值")
                was_down = h.hp == 0
                if op is None:
                    h = set_hp(h, value)
                    if h.max_hp is None:
                        h = replace(h, max_hp=h.hp)
                        notes[i] = f"（上限{h.hp}）"
                elif op == "-":
                    h, note = damage(h, value)
                    notes[i] = damage_words(note, h)
                else:
                    h = heal(h, value)
                    notes[i] = "，恢复意识" if was_down and h.hp > 0 else ""
            return with_health(c, h, attrs, dnd)
        return with_dnd_data(c, attrs, dnd)

    updated = await store.characters.update_character(char.id, write, claim=call.claim)
    shown: list[str] = []
    for i, (attr, op, value) in enumerate(pairs):
        if op is None:
            shown.append(attr_text(attr, updated.attributes[attr]) + notes.get(i, ""))
        else:
            shown.append(f"{attr}{op}{value}→{updated.attributes[attr]}" + notes.get(i, ""))
    shown += [f"{key}:{PROF_WORDS[level]}" for key, level in marks]
    return [Reply.say(f"已录入 <{updated.name}>：" + " ".join(shown))]


def dnd_lines(char: CharacterRecord) -> str:
    """The 5e part of ``.st show``: level and proficiency bonus, marks, death saves."""
    sheet = sheet_of(char)
    lines = [f"等级{sheet.level} 熟练加值+{sheet.pb}"]
    prof = dnd_data(char).get("prof") or {}
    if prof:
        lines.append("熟练：" + " ".join(k + ("(专精)" if v == 2 else "") for k, v in prof.items()))
    death = dnd_data(char).get("death") or {}
    if death.get("dead"):
        lines.append("状态：死亡")
    elif death.get("s") or death.get("f"):
        lines.append(f"死亡豁免：成功{death.get('s', 0)}/失败{death.get('f', 0)}")
    return "\n".join(lines)


@dnd_st.sub("show", "list", params=[WHO, opt("names", Rest(label="属性"), default="")], help="查看属性")
async def dnd_st_show(call: Call, who: str | None, names: str) -> list[Reply]:
    call = await as_member(call, who)
    char = await call.app.store.characters.active_character(call.ctx.user_id, call.ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡，用 .st dex14 录入或 .pc new 名字 新建")
    attrs = char.attributes
    wanted = [attr_key(w, None) for w in names.split()]
    if wanted:
        found = " ".join(attr_text(w, attrs[w]) for w in wanted if w in attrs)
        missing = [w for w in wanted if w not in attrs]
        return [
            Reply.say(
                f"<{char.name}> {found or '（空）'}"
                + ("\n没有属性：" + "、".join(missing[:10]) if missing else "")
            )
        ]
    body = " ".join(attr_text(k, v) for k, v in attrs.items()) or "（空）"
    return [Reply.say(f"<{char.name}> 的属性：\n{body}\n{dnd_lines(char)}")]


@dnd_st.sub(
    "del", "rm", params=[WHO, opt("names", Rest(label="属性"), default="")], help="删除属性或熟练标记"
)
async def dnd_st_del(call: Call, who: str | None, names: str) -> list[Reply]:
    call = await as_member(call, who)
    store = call.app.store
    char = await store.characters.active_character(call.ctx.user_id, call.ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡")
    keys = [attr_key(w.rstrip("*＊"), None) for w in names.split()]
    if not keys:
        raise call.usage_error("请写出要删除的属性")
    prof = dnd_data(char).get("prof") or {}
    missing = [k for k in keys if k not in char.attributes and k not in prof]
    if missing:
        raise NotFound(f"<{char.name}> 没有属性：" + "、".join(missing[:10]))

    def drop(c: CharacterRecord) -> CharacterRecord:
        dnd = dnd_data(c)
        dnd["prof"] = {k: v for k, v in (dnd.get("prof") or {}).items() if k not in keys}
        return with_dnd_data(c, {k: v for k, v in c.attributes.items() if k not in keys}, dnd)

    await store.characters.update_character(char.id, drop, claim=call.claim)
    return [Reply.say(f"已删除 <{char.name}> 的 " + "、".join(keys))]


@dnd_st.sub("clr", "clear", params=[WHO], help="清空全部属性（留下空白的DnD5e卡）")
async def dnd_st_clr(call: Call, who: str | None) -> list[Reply]:
    call = await as_member(call, who)
    store = call.app.store
    char = await store.characters.active_character(call.ctx.user_id, call.ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡")

    def clear(c: CharacterRecord) -> CharacterRecord:
        data = {k: v for k, v in c.data.items() if k != "dnd5e"}
        return replace(c, system=CARD_SYSTEM, attributes={}, data=data)

    await store.characters.update_character(char.id, clear, claim=call.claim)
    return [Reply.say(f"已清空 <{char.name}> 的全部属性（现在是空白的DnD5e角色卡）")]


def card_variables(char: CharacterRecord) -> dict[str, Any]:
    return sheet_of(char).variables()


SYSTEM_VARIABLES[CARD_SYSTEM] = card_variables
by_mode(st, dnd_st, keep_when_off=True)
MEMBER_ST.append(member_st)

__all__ = ["attr_key", "dnd_st", "mark_key", "member_st", "take_marks"]
