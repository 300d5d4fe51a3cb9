"""Shared glue for the TimeLine commands: the store, group settings and argument helpers.

* ``SYSTEM`` / ``SYS_CN``: the session/character system key and the help-group name;
* settings: ``_settings``, ``_update_settings``, ``_display``, ``_require_gm_unless_open``,
  ``_target`` (the group's 目标数值);
* characters: ``_load``, ``_active`` (the sender's active one), ``_mutate`` (apply a pure engine
  transition with compare-and-set), ``_find_named`` and ``_actor`` (who acts: ``名字:``, @玩家 or
  the sender; used by ``.crd`` and ``.bat``);
* arguments: ``_num``, ``_index``, ``_attr``, ``_amount``, ``_split_attr_amount`` and
  ``_glued_alias`` (ignore another bot's command swallowed by a short alias).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from chronodice.core.commands import Call
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.attributes import lookup_attribute
from chronodice.rules.timeline.character import TLCharacter
from chronodice.store import CharacterRecord

SYSTEM = "timeline"
SYS_CN = "时间线"
T = TypeVar("T")
_NUM = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_GLUED = re.compile(r"^([^\d\s.+-]+)([\d.]+[tT]?)$")


# ====================================================================== helpers
def _num(text: str) -> float | None:
    text = text.strip()
    if not _NUM.match(text) or len(text) > 15:
        return None
    return float(text)


def _index(text: str) -> int:
    value = _num(text)
    if value is None or value != int(value):
        raise InputSyntaxError("序号错误× 应为整数")
    return int(value)


def _glued_alias(call: Call, keywords: tuple[str, ...] = ()) -> bool:
    """True when the root swallowed another bot's command (``.draw 3`` → ``.dr`` + ``aw 3``).

    The argument starts with ASCII letters that are none of the command's English keywords, and
    fewer than three words follow (a real use with an English name has more: ``.dr armor -hp 100d``).
    """
    if call.spec is None:
        return False
    first = call.raw_args[:1]
    if not (first.isascii() and first.isalpha()):
        return False
    low = call.raw_args.lower()
    if any(low.startswith(k) for k in keywords):
        return False
    return len(call.args.split()) < 3


async def _settings(call: Call) -> dict[str, Any]:
    group = await call.app.store.get_group(call.ctx.scope)
    return dict(group.settings.get(SYSTEM, {}))


async def _update_settings(call: Call, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    def outer(settings: dict[str, Any]) -> dict[str, Any]:
        return {**settings, SYSTEM: fn(dict(settings.get(SYSTEM, {})))}

    await call.app.store.update_group_settings(call.ctx.scope, outer)


async def _display(call: Call) -> view.Display:
    return view.Display(sheet=bool((await _settings(call)).get("sheet", False)))


async def _require_gm_unless_open(call: Call, what: str) -> None:
    if (await _settings(call)).get("open"):
        return
    await call.app.require_gm(call.ctx, what)


def _load(rec: CharacterRecord) -> TLCharacter:
    return TLCharacter.from_dict(rec.data[SYSTEM])


async def _active(call: Call) -> tuple[CharacterRecord, TLCharacter]:
    """The sender's active TimeLine character here (NotFound with a hint otherwise)."""
    store, ctx = call.app.store, call.ctx
    rec = await store.active_character(ctx.user_id, ctx.scope)
    if rec is not None and rec.system == SYSTEM and SYSTEM in rec.data:
        return rec, _load(rec)
    chars = await store.list_characters(ctx.user_id, system=SYSTEM)
    if len(chars) == 1:
        return chars[0], _load(chars[0])
    name = await call.app.display_name(ctx)
    if not chars:
        raise NotFound(f"{name}还没有角色× 请先用 .TLsetup 导入人物卡")
    raise NotFound(f"{name}有{len(chars)}个时间线角色，请先用 .chr 序号 选择")


async def _mutate(
    call: Call,
    rec: CharacterRecord,
    transition: Callable[[TLCharacter], tuple[TLCharacter, T]],
    undo: dict[str, Any] | None = None,
) -> tuple[TLCharacter, TLCharacter, T]:
    """Apply a pure engine transition to a stored character (compare-and-set, retried)."""
    box: dict[str, Any] = {}

    def fn(current: CharacterRecord) -> CharacterRecord:
        if current.system != SYSTEM or SYSTEM not in current.data:
            raise IllegalAction("这不是时间线角色")
        old = _load(current)
        new, result = transition(old)
        box["out"] = (old, new, result)
        box["record"] = current
        return replace(
            current,
            data={**current.data, SYSTEM: new.to_dict()},
            attributes={**current.attributes, **new.attributes_for_dice()},
        )

    after = await call.app.store.update_character(rec.id, fn)
    old, new, result = box["out"]
    if undo is not None:  # for .undo: the card as it was, and its version after this change
        undo["before"] = (box["record"], after.version)
    return old, new, result


async def _target(call: Call) -> int:
    target = (await _settings(call)).get("target")
    if not target:
        raise IllegalAction("没有目标数值× 请GM先用 .tar 设定（如 .tar 10 10）")
    return int(target)


def _attr(text: str) -> str:
    key = lookup_attribute(text)
    if key is None:
        raise NotFound(f"没有找到属性[{text[:12]}]×")
    return key


def _split_attr_amount(tokens: list[str], usage: str) -> tuple[str, float | None, float | None, str]:
    """``属性 I|Tt [备注]`` in either order → (attribute key, impact, time, note)."""
    if tokens:
        glued = _GLUED.match(tokens[0])
        if glued and lookup_attribute(glued.group(1)) is not None:
            tokens = [glued.group(1), glued.group(2), *tokens[1:]]  # .bat 力量150
    if len(tokens) < 2:
        raise InputSyntaxError("需要属性和影响数值（或前摇时间，如 10t）", usage=usage)
    a, b = tokens[0], tokens[1]
    if _amount(a) is not None and _amount(b) is None:
        a, b = b, a
    amount = _amount(b)
    if amount is None:
        raise InputSyntaxError(f"[{b[:12]}]不是数字（影响数值如 150，前摇如 10t）", usage=usage)
    value, is_time = amount
    note = " ".join(tokens[2:])[:60]
    return _attr(a), (None if is_time else value), (value if is_time else None), note


def _amount(text: str) -> tuple[float, bool] | None:
    is_time = text[-1:] in ("t", "T")
    value = _num(text[:-1] if is_time else text)
    if value is None:
        return None
    return value, is_time


async def _battle(call: Call) -> bt.BattleState:
    """This group's running battle (IllegalAction when there is none)."""
    raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
    if raw is None:
        raise IllegalAction("没有战斗数据×")
    return bt.BattleState.from_dict(raw)


# ====================================================================== characters by name / who acts
async def _find_named(call: Call, name: str) -> CharacterRecord:
    store, ctx = call.app.store, call.ctx
    own = await store.find_character(ctx.user_id, name)
    if own is not None and own.system == SYSTEM:
        return own
    raw, _ = await store.load_session(ctx.scope, SYSTEM)
    if raw is not None:
        for p in bt.BattleState.from_dict(raw).participants:
            if p.name == name:
                rec = await store.get_character(p.character_id)
                if rec is not None and rec.system == SYSTEM:
                    return rec
    raise NotFound(f"没有找到角色「{name[:20]}」（可用自己的角色名、战斗中的角色名或@玩家）")


async def _actor(
    call: Call, tokens: list[str]
) -> tuple[CharacterRecord, TLCharacter, bt.ParticipantRef, list[str]]:
    """Who acts: ``名字:`` prefix (own NPC or another participant), @玩家, else the sender.

    A character named with the prefix by its owner is an NPC when the owner is a GM here (the
    GM's own characters) or when it is not the owner's active character.
    """
    store, ctx = call.app.store, call.ctx
    if tokens and ":" in tokens[0]:
        name, _, rest = tokens[0].partition(":")
        tokens = ([rest] if rest else []) + tokens[1:]
        rec = await _find_named(call, name.strip())
    elif ctx.at_ids:
        uid = ctx.at_ids[0]
        rec = await store.active_character(uid, ctx.scope)
        if rec is None or rec.system != SYSTEM:
            raise NotFound(f"{uid}没有可用的时间线角色")
    else:
        rec, char = await _active(call)
        return rec, char, bt.ParticipantRef(rec.id, rec.name, rec.owner_id), tokens
    if rec.owner_id != ctx.user_id:
        await _require_gm_unless_open(call, "替其他玩家的角色行动")
    mine = await store.active_character(ctx.user_id, ctx.scope)
    npc = rec.owner_id == ctx.user_id and (mine is None or mine.id != rec.id or await call.app.is_gm(ctx))
    return rec, _load(rec), bt.ParticipantRef(rec.id, rec.name, rec.owner_id, npc=npc), tokens
