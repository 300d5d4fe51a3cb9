"""Bonus successes stored on the card (``附加``) and the group's pool defaults (``set``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from chronodice.core.commands import Call
from chronodice.core.errors import NotFound
from chronodice.core.reply import Reply
from chronodice.render import pool10 as render
from chronodice.rules.pool10 import DEFAULT_AGAIN, Pool10Card, TieRule
from chronodice.rules.pool10.card import DATA_KEY, LEGEND_KEYS
from chronodice.store import CharacterRecord

from ..characters import active_or_create
from ..views import update_settings
from ._common import SETTINGS_KEY, Mode, require_gm, settings_of, tie_of


def _with_card(c: CharacterRecord, card: Pool10Card) -> CharacterRecord:
    return replace(c, data={**c.data, DATA_KEY: card.to_dict()})


def _card_text(char: CharacterRecord) -> str:
    card = Pool10Card.of(char.data)
    skills = " ".join(f"{k}{v}" for k, v in card.bonus.items()) or "无"
    legend = f"（其中传奇{card.legend}）" if card.legend else ""
    return f"<{char.name}> 的附加成功：{skills}；攻击附加{card.attack}；防御附加{card.defence}{legend}（属性按6→1、11→2自动计算）"


async def bonus_show(call: Call, *, mode: Mode) -> list[Reply]:
    char = await call.app.store.characters.active_character(call.ctx.user_id, call.ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡，用 .st 录入属性或 .pc new 名字 新建")
    return [Reply.say(_card_text(char))]


async def bonus_set(
    call: Call, *, mode: Mode, pairs: list[tuple[str, str | None, int]] | None
) -> list[Reply]:
    if pairs is None:
        return await bonus_show(call, mode=mode)
    store, ctx = call.app.store, call.ctx
    char = await active_or_create(store, ctx, await call.app.display_name(ctx), claim=call.claim)

    def fn(c: CharacterRecord) -> CharacterRecord:
        card = Pool10Card.of(c.data)
        entries = []
        for name, op, value in pairs:
            old = (
                card.attack
                if name in ("攻击", "攻击附加")
                else card.defence
                if name in ("防御", "防御附加")
                else card.legend
                if name in LEGEND_KEYS
                else card.bonus.get(name, 0)
            )
            new = value if op is None else old + value if op == "+" else old - value
            entries.append((name, new))
        return _with_card(c, card.with_entries(entries))

    updated = await store.characters.update_character(char.id, fn, claim=call.claim)
    return [Reply.say("已录入。" + _card_text(updated))]


async def bonus_del(call: Call, *, mode: Mode, names: list[str]) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    char = await store.characters.active_character(ctx.user_id, ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡")
    updated = await store.characters.update_character(
        char.id, lambda c: _with_card(c, Pool10Card.of(c.data).without(names)), claim=call.claim
    )
    return [Reply.say("已删除。" + _card_text(updated))]


async def set_defaults(
    call: Call, *, mode: Mode, again: int | None, tie: TieRule | None, clear: bool
) -> list[Reply]:
    if again is None and tie is None and not clear:
        current = await settings_of(call)
        shown = int(current.get("again", DEFAULT_AGAIN))
        return [
            Reply.say(
                f"本群骰池默认：{render.again_label(shown)}；对抗：{render.TIE_LABEL[tie_of(current)]}\n"
                "修改：.ww set a9 / .ww set 超过 / .ww set 大于等于 / .ww set clr"
            )
        ]
    changes: dict[str, Any] = {}
    if again is not None:
        changes["again"] = again
    if tie is not None:
        changes["tie"] = tie.value
    await require_gm(call, "修改本群的骰池默认设置")

    def fn(settings: dict[str, Any]) -> dict[str, Any]:
        mine = {} if clear else dict(settings.get(SETTINGS_KEY, {}))
        mine.update(changes)
        out = dict(settings)
        if mine:
            out[SETTINGS_KEY] = mine
        else:
            out.pop(SETTINGS_KEY, None)
        return out

    new = (await update_settings(call, fn)).get(SETTINGS_KEY, {})
    return [
        Reply.say(
            f"已设置本群骰池默认：{render.again_label(int(new.get('again', DEFAULT_AGAIN)))}；"
            f"对抗：{render.TIE_LABEL[tie_of(new)]}"
        )
    ]


async def show_help(call: Call, *, mode: Mode) -> list[Reply]:
    assert call.spec is not None
    return [Reply.say(call.spec.help_text())]
