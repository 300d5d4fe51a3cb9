"""``.sn``: keep the sender's QQ group card (群名片) showing their character, as SealDice does.

``.sn`` turns it on for the sender in this group and sets the card at once; from then on every
command that changes that member's active character card (their own ``.st``, ``.sc``,
``.pc tag`` …, and a GM's ``.st @某人`` or ``.team st``) also sets the group card.  That
follow-up is central, not per command: around a handler the dispatcher reads the cards of the
group's ``.sn`` members (:func:`cards_before`, :func:`follow_cards`: id and version, from the
store's cache) and adds a :class:`~chronodice.core.reply.Reply` carrying ``group_card`` for each
that changed.  The front end
turns that into OneBot's ``set_group_card``.  Who has it on lives in the group settings under
:data:`SN_KEY` (``{user_id: template}``): no schema change, and the dispatcher reads it from the
view it already holds, so a group without ``.sn`` costs one dict lookup.

Templates (``.sn 模板名``; ``auto``, the default, picks by the card's system):

>>> from chronodice.store import CharacterRecord
>>> coc = CharacterRecord(1, "1", "coc7", "艾拉", {"体力": 10, "体质": 55, "体型": 65, "理智": 55, "敏捷": 60})
>>> card_text("auto", coc)
'艾拉 HP10/12 SAN55 DEX60'
>>> card_text("name", coc)
'艾拉'
>>> card_text("dnd5e", CharacterRecord(2, "1", "dnd5e", "托林", {"体力": 31, "护甲": 16}))
'托林 HP31 AC16'
>>> card_text("auto", CharacterRecord(4, "1", "timeline", "阿星", {"体力": 120.0, "体力上限": 150.0}))
'阿星 体力120/150'
>>> text = card_text("auto", CharacterRecord(3, "1", "coc7", "很长的名字" * 8, {"体力": 10}))  # 3 bytes a 字
>>> len(text.encode()), text.endswith(" HP10")
(59, True)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chronodice.core.args import Choice, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import NotFound
from chronodice.core.reply import Reply
from chronodice.rules.coc7.derived import derive, hit_points
from chronodice.store import CharacterRecord

from .views import update_settings

log = logging.getLogger("chronodice")

SN_KEY = "sn"
"""Group settings key: ``{user_id: template key}`` of the members with ``.sn`` on."""

SN_MODULE = "sn"
"""The ``.ext`` module of ``.sn``: while it is off in a group, the card is not followed there."""

CARD_MAX_BYTES = 60
"""QQ's limit on a group card, in UTF-8 bytes (SealDice: 59 Latin letters or 20 Chinese)."""


def _value(attrs: dict[str, Any], *names: str) -> Any:
    """The first of ``names`` the card holds, else ``None``."""
    return next((attrs[n] for n in names if n in attrs), None)


def _coc_parts(attrs: dict[str, Any]) -> list[str]:
    """CoC 7th: ``HP当前/上限 SAN理智 DEX敏捷``, derived values where the card has no number."""
    parts = []
    hp = _value(attrs, "体力")
    if hp is None and (d := derive(attrs, "体力")) is not None:
        hp = d.value
    if hp is not None:
        con, siz = attrs.get("体质"), attrs.get("体型")
        top = f"/{hit_points(con, siz)}" if isinstance(con, int) and isinstance(siz, int) else ""
        parts.append(f"HP{hp}{top}")
    san = _value(attrs, "理智")
    if san is None and (d := derive(attrs, "理智")) is not None:
        san = d.value
    if san is not None:
        parts.append(f"SAN{san}")
    dex = _value(attrs, "敏捷")
    if dex is not None:
        parts.append(f"DEX{dex}")
    return parts


def _dnd_parts(attrs: dict[str, Any]) -> list[str]:
    """D&D 5e: ``HP体力 AC护甲``."""
    hp, ac = _value(attrs, "体力", "HP", "hp"), _value(attrs, "护甲", "AC", "ac")
    return [p for p in (f"HP{hp}" if hp is not None else "", f"AC{ac}" if ac is not None else "") if p]


def _generic_parts(attrs: dict[str, Any]) -> list[str]:
    """Other systems: hit points if the card has them (``体力``/``生命``/``HP``)."""
    hp = _value(attrs, "体力", "生命", "HP", "hp")
    return [f"HP{hp}"] if hp is not None else []


def _number(value: Any) -> str:
    """``150.0`` → ``150``, ``12.5`` stays."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _timeline_parts(attrs: dict[str, Any]) -> list[str]:
    """TimeLine: ``体力当前/上限`` (the card keeps both for dice expressions)."""
    hp, top = attrs.get("体力"), attrs.get("体力上限")
    if hp is None:
        return []
    return [f"体力{_number(hp)}" + (f"/{_number(top)}" if top is not None else "")]


def _name_only(attrs: dict[str, Any]) -> list[str]:
    return []


@dataclass(frozen=True)
class Template:
    """A group-card template: ``label`` for players, ``parts`` the numbers after the name."""

    label: str
    parts: Callable[[dict[str, Any]], list[str]]


TEMPLATES: dict[str, Template] = {
    "coc7": Template("CoC（HP/SAN/DEX）", _coc_parts),
    "dnd5e": Template("DnD（HP/AC）", _dnd_parts),
    "timeline": Template("时间线（体力）", _timeline_parts),
    "basic": Template("通用（HP）", _generic_parts),
    "name": Template("只显示角色名", _name_only),
}
"""Templates by key; ``auto`` chooses by the card's system (:data:`AUTO`)."""

AUTO: dict[str, str] = {"coc7": "coc7", "dnd5e": "dnd5e", "timeline": "timeline"}
"""Card system → template for ``auto``; other systems use ``basic``."""

WORDS: dict[str, str] = {
    "auto": "auto",
    "自动": "auto",
    "coc": "coc7",
    "coc7": "coc7",
    "dnd": "dnd5e",
    "dnd5e": "dnd5e",
    "tl": "timeline",
    "时间线": "timeline",
    "basic": "basic",
    "通用": "basic",
    "name": "name",
    "名字": "name",
    "off": "off",
    "关": "off",
    "关闭": "off",
}


def fit(name: str, parts: list[str], limit: int = CARD_MAX_BYTES) -> str:
    """``name`` and ``parts`` joined by spaces, within ``limit`` UTF-8 bytes: the numbers are
    kept and the name is shortened by whole characters (numbers dropped last-first only when
    they alone do not fit).

    >>> fit("调查员", ["HP10/12"], 12)
    '调 HP10/12'
    """
    while parts and len(" ".join(parts).encode()) > limit:
        parts = parts[:-1]
    tail = "".join(" " + p for p in parts)
    room = limit - len(tail.encode())
    head = name
    while head and len(head.encode()) > room:
        head = head[:-1]
    return (head + tail).strip()


def card_text(template: str, char: CharacterRecord) -> str:
    """The group card for ``char`` by ``template`` (a :data:`TEMPLATES` key or ``auto``)."""
    key = AUTO.get(char.system, "basic") if template == "auto" else template
    chosen = TEMPLATES.get(key, TEMPLATES["basic"])
    return fit(char.name, chosen.parts(dict(char.attributes)))


MAX_FOLLOWED = 50
"""Members whose cards one command follows at most (a group's ``.sn`` users; each costs two
cached card reads per command in that group)."""

Seen = dict[str, tuple[int, int] | None]
"""Each followed member's active card before a command: (id, version), or None."""


def watched(settings: dict[str, Any] | None) -> dict[str, str]:
    """The members with ``.sn`` on in a group with these settings: ``{user_id: template}``."""
    sync = (settings or {}).get(SN_KEY)
    if not isinstance(sync, dict) or not sync:
        return {}
    return dict(list(sync.items())[:MAX_FOLLOWED])


async def cards_before(app: Any, ctx: Any, view: Any, watch: dict[str, str]) -> Seen:
    """The followed members' cards before the command (the sender's from the dispatcher's view)."""
    seen: Seen = {}
    for uid in watch:
        try:
            char = (
                view.character
                if uid == ctx.user_id
                else await app.store.characters.active_character(uid, ctx.scope)
            )
        except Exception:
            log.exception(".sn: reading the card of %s failed", uid)
            continue
        seen[uid] = (char.id, char.version) if char is not None else None
    return seen


async def follow_cards(
    app: Any, ctx: Any, replies: list[Reply], watch: dict[str, str], seen: Seen
) -> list[Reply]:
    """``replies`` plus a group-card update for each followed member whose active card the
    command changed (another card, or a new version): the sender's own ``.st``/``.sc``, and a
    GM's ``.st @某人``, ``.team st`` or ``.crd`` on others alike.  Never raises: a failed read
    only logs, the command's own replies go out unchanged."""
    extra: list[Reply] = []
    for uid, template in watch.items():
        if uid not in seen:
            continue
        try:
            char = await app.store.characters.active_character(uid, ctx.scope)
        except Exception:
            log.exception(".sn: reading the card of %s failed", uid)
            continue
        if char is None or seen[uid] == (char.id, char.version):
            continue
        extra.append(Reply(group_card=(uid, card_text(template, char))))
    return [*replies, *extra] if extra else replies


# ---------------------------------------------------------------------- .sn
sn = define(
    "sn",
    summary="自动群名片：按角色卡设置你的群名片，卡变化时自动更新（.sn off 关闭）",
    detail=(
        "模板：auto（默认，按角色卡规则）、coc（角色名 HP10/12 SAN55 DEX60）、dnd（HP/AC）、tl（体力）、"
        "basic（HP）、name（只显示角色名）；群名片最长60字节，过长时缩短角色名"
    ),
    group_only=True,
)
TEMPLATE_WORD = Choice(WORDS, label="auto/coc/dnd/tl/basic/name/off")


@sn.sub(params=[opt("which", TEMPLATE_WORD, default="auto")], help="开启并立即设置群名片；.sn off 关闭")
async def cmd_sn(call: Call, which: str) -> list[Reply]:
    ctx, store = call.ctx, call.app.store
    uid = ctx.user_id

    def write(settings: dict[str, Any]) -> dict[str, Any]:
        sync = dict(settings.get(SN_KEY) or {})
        if which == "off":
            sync.pop(uid, None)
        else:
            sync[uid] = which
        rest = {k: v for k, v in settings.items() if k != SN_KEY}
        return {**rest, SN_KEY: sync} if sync else rest

    if which == "off":
        await update_settings(call, write)
        return [Reply.say(f"已关闭 {call.name} 的自动群名片（群名片保持现状）")]
    char = await store.characters.active_character(uid, ctx.scope)
    if char is None:
        raise NotFound("你还没有角色卡，先用 .st 录入属性或 .pc new 名字 新建")
    await update_settings(call, write)
    card = card_text(which, char)
    return [
        Reply.say(f"已开启自动群名片：{card}\n角色卡变化时自动更新；.sn off 关闭"),
        Reply(group_card=(uid, card)),
    ]


__all__ = [
    "CARD_MAX_BYTES",
    "MAX_FOLLOWED",
    "SN_KEY",
    "SN_MODULE",
    "TEMPLATES",
    "Seen",
    "card_text",
    "cards_before",
    "fit",
    "follow_cards",
    "sn",
    "watched",
]
