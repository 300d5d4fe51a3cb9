"""Shared pieces of the DnD5e service: where its commands answer, the card's DnD data, names.

Where: a group set to ``.set dnd5e`` (or a private chat set so), and a fresh group (no mode)
when the sender's active card is a DnD5e card — as ``.rc`` decides (:mod:`..modes`).  Elsewhere
the DnD-only commands (``.rs .ds .ss .dnd .长休 .短休``) are silent, left to another bot, and
``.ri``/``.init``/``.ed`` keep the D20 tick system's meaning.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from chronodice.core.commands import Call, CommandSpec
from chronodice.core.context import Context
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.rules.dnd5e import Sheet
from chronodice.rules.dnd5e.health import HP, MAX_HP, TEMP_HP, Health
from chronodice.store import CharacterRecord

from ..ext import off_modules
from ..modes import fits, group_mode, wrong_card

SYS_NAME = "DnD5e"
CARD_SYSTEM = "dnd5e"
DATA_KEY = "dnd5e"
"""``CharacterRecord.data[DATA_KEY]``: ``prof`` (proficiency marks), ``death`` (death saves),
``slots`` (spell slots)."""

Resolver = Callable[[Any, Context, Any, str], Awaitable[CommandSpec | None]]


async def settings_for(app: Any, ctx: Context, view: Any) -> dict[str, Any]:
    """The settings of the group (or private scope) the message came from."""
    if view is not None and getattr(view, "group", None) is not None:
        return dict(view.group.settings)
    return dict((await app.store.groups.get_group(ctx.scope)).settings)


def dnd_data(char: CharacterRecord | None) -> dict[str, Any]:
    """A copy of the card's DnD data (empty without a card)."""
    if char is None:
        return {}
    return dict(char.data.get(DATA_KEY) or {})


def with_dnd_data(char: CharacterRecord, attrs: dict[str, Any], dnd: dict[str, Any]) -> CharacterRecord:
    return replace(char, attributes=attrs, data={**char.data, DATA_KEY: dnd})


def sheet_of(char: CharacterRecord | None) -> Sheet:
    data = dnd_data(char)
    prof = {str(k): int(v) for k, v in (data.get("prof") or {}).items()}
    return Sheet(char.attributes if char is not None else {}, prof)


def health_of(char: CharacterRecord) -> Health:
    return Health.of(dict(char.attributes), dnd_data(char).get("death"))


def with_health(
    c: CharacterRecord, h: Health, attrs: dict[str, Any] | None = None, dnd: dict[str, Any] | None = None
) -> CharacterRecord:
    """``c`` with ``h`` written back (on ``attrs``/``dnd`` when a change already made them):
    体力, 体力上限, 临时体力 (once the card has it) and the death saves."""
    attrs = dict(c.attributes if attrs is None else attrs)
    attrs[HP] = h.hp
    if h.max_hp is not None:
        attrs[MAX_HP] = h.max_hp
    if TEMP_HP in attrs or h.temp:
        attrs[TEMP_HP] = h.temp
    dnd = dnd_data(c) if dnd is None else dnd
    dnd["death"] = h.death_dict()
    return with_dnd_data(c, attrs, dnd)


def need_card(call: Call) -> CharacterRecord:
    """The sender's active card, which must be a DnD5e (or generic) one."""
    char = call.view.character if call.view is not None else None
    if char is None:
        raise NotFound("你还没有角色卡：.pc new 名字 新建，或 .st dex14 录入")
    if not fits(char.system, CARD_SYSTEM):
        raise IllegalAction(wrong_card(char.name, char.system, CARD_SYSTEM))
    return char


async def dnd_here(app: Any, ctx: Context, view: Any) -> bool:
    """Whether DnD5e commands answer this message (see the module doc)."""
    settings = await settings_for(app, ctx, view)
    mode = group_mode(settings)
    if mode is not None:
        return mode.key == "dnd5e"
    char = view.character if view is not None else None
    return char is not None and char.system == CARD_SYSTEM


async def dnd_off(app: Any, ctx: Context, view: Any) -> bool:
    """Whether ``.ext off dnd5e`` switched the DnD5e module off here."""
    return "dnd5e" in off_modules(await settings_for(app, ctx, view))


async def dnd_answers(app: Any, ctx: Context, view: Any, *, keep_when_off: bool = False) -> bool:
    """Whether a command :func:`by_mode` hooks is answered by its DnD5e form here (``view``: the
    group and the card that decide, see :func:`dnd_here`)."""
    return await dnd_here(app, ctx, view) and not (keep_when_off and await dnd_off(app, ctx, view))


def dnd_only(spec: CommandSpec) -> CommandSpec:
    """Make ``spec`` (a root only DnD5e has: ``.ds .ss .rs .dnd``…) answer in a DnD5e group and
    in a group (or private chat) with no mode, where nothing else claims it — a card of another
    system is then told so; silent in a group set to another system (its bot may answer)."""

    async def resolve(app: Any, ctx: Context, view: Any, args: str) -> CommandSpec | None:
        if await dnd_here(app, ctx, view) or group_mode(await settings_for(app, ctx, view)) is None:
            return spec
        return None

    spec.resolve = resolve
    return spec


def by_mode(spec: CommandSpec, dnd: CommandSpec, *, keep_when_off: bool = False) -> None:
    """Hand ``spec``'s messages to ``dnd`` where DnD5e commands answer; elsewhere ``spec`` keeps
    its meaning (its own resolver, if it had one, still decides).  ``keep_when_off``: with the
    DnD5e module switched off, ``spec`` answers instead of falling silent (``.st``)."""
    before: Resolver | None = spec.resolve

    async def resolve(app: Any, ctx: Context, view: Any, args: str) -> CommandSpec | None:
        if await dnd_answers(app, ctx, view, keep_when_off=keep_when_off):
            return dnd
        return spec if before is None else await before(app, ctx, view, args)

    spec.resolve = resolve


__all__ = [
    "CARD_SYSTEM",
    "DATA_KEY",
    "SYS_NAME",
    "by_mode",
    "dnd_answers",
    "dnd_data",
    "dnd_here",
    "dnd_off",
    "dnd_only",
    "health_of",
    "need_card",
    "settings_for",
    "sheet_of",
    "with_dnd_data",
    "with_health",
]
