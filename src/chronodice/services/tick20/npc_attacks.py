"""Named attacks on an NPC card (issue 26): ``.npc 攻击 哥布林 短剑 hit2 dp3 切割`` stores the attack
on the group's 哥布林 card, and ``.atk 哥布林1:艾琳 短剑`` makes it in one command.

An attack is what 002 「攻击检定」 and 「造成伤势」 need and a GM would otherwise type each time:
its type and mode (``近战``/``远程``/``近战魔法``/``远程魔法``: which skill, which proficiency), its Hit
and DP, its damage types and 损伤 (``切割``, ``灼烧/腐蚀``, ``贯通``) and whether it makes wounds
directly (``直接``, "直接造成伤势的效果则会无视DR").  It lives in the card's ``data`` (the per-system
JSON beside the ``名字→数值`` attributes) under ``attacks``, so ``.npc 哥布林 力量-2`` leaves it be.
Written words at ``.atk`` win over the stored ones (``.atk 哥布林1:艾琳 短剑 dp4``); tags add up.

Only the group's GM writes them (the card's own rule, :func:`~chronodice.services.npc_cards.require_npc_gm`);
the numbers go to the GM by private message like the rest of the card.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypedDict

from chronodice.core.args import Choice, OneOf, Pattern, arg, many
from chronodice.core.commands import Call
from chronodice.core.errors import LimitExceeded, NotFound
from chronodice.core.reply import Reply
from chronodice.rules.tick20 import damage as D
from chronodice.rules.tick20.card import ATTACK_WORDS
from chronodice.services.npc_cards import NPC_NAME, attack_text, npc, require_npc_gm

MAX_ATTACKS = 12
"""Named attacks one card keeps."""
DELETE_WORDS = ("删除", "del", "rm")


class NpcAttack(TypedDict, total=False):
    """One stored attack (JSON in the card's ``data['attacks']``)."""

    attack: str
    hit: int
    dp: int
    tags: list[str]
    direct: bool


ATTACK_NAME = Pattern(
    regex=r"(?i)(?!hit|dp|dr|def)[^\s0-9:：,;、@=#+\-][^\s:：,;、@=#]{0,5}(?![^\s])", label="攻击名"
)
SPEC_ITEM = OneOf(
    Pattern(
        regex=r"(?i)(hit|dp)([0-9]{1,2})(?![0-9])",
        label="hit/dp",
        convert=lambda m: (m.group(1).lower(), int(m.group(2))),
    ),
    Choice(table={w: ("attack", w) for w in ATTACK_WORDS}),
    Choice(table={"直接": ("direct", True), "direct": ("direct", True)}),
    Choice(table={w: ("delete", True) for w in DELETE_WORDS}),
    Pattern(regex=r"[^\s0-9+=-][^\s]{0,19}", label="伤害类型/损伤", convert=lambda m: ("tag", m.group()[:6])),
    label="攻击项",
)


def read_spec(items: list[tuple[Any, ...]]) -> tuple[NpcAttack, bool]:
    """The attack the items describe, and whether they ask to delete it.  A word that is neither a
    physical damage type nor a 损伤 is refused here, when the GM writes it, not at the attack.

    >>> read_spec([("hit", 2), ("dp", 3), ("tag", "切割")])
    ({'attack': '近战', 'hit': 2, 'dp': 3, 'tags': ['切割']}, False)
    """
    spec: NpcAttack = {"attack": "近战"}
    tags: list[str] = []
    delete = False
    for key, value in items:
        if key == "tag":
            tags.append(value)
        elif key == "delete":
            delete = True
        elif key == "direct":
            spec["direct"] = True
        else:
            spec[key] = value  # type: ignore[literal-required]  # attack, hit, dp
    D.check_wound_tags(tags)
    if tags:
        spec["tags"] = tags[:6]
    return spec, delete


def stored_attacks(data: dict[str, Any]) -> dict[str, NpcAttack]:
    """The attacks a card's ``data`` holds (an empty dict when none; anything malformed dropped)."""
    raw = data.get("attacks")
    if not isinstance(raw, dict):
        return {}
    return {str(k): v for k, v in raw.items() if isinstance(v, dict)}


@npc.sub(
    "攻击",
    "attack",
    params=[
        arg("name", NPC_NAME, label="NPC名"),
        arg("weapon", ATTACK_NAME, label="攻击名"),
        many("items", SPEC_ITEM, required=False, label="攻击项"),
    ],
    help="在NPC卡上记下一种攻击：.npc 攻击 哥布林 短剑 hit2 dp3 切割（近战/远程/…魔法，直接）；写 删除 去掉",
)
async def npc_attack(call: Call, name: str, weapon: str, items: list[tuple[Any, ...]]) -> list[Reply]:
    owner = await require_npc_gm(call, "录入NPC卡")
    store = call.app.store
    card = await store.characters.find_character(owner, name)
    if card is None:
        raise NotFound(f"本群没有NPC卡「{name}」（先用 .npc {name} 属性数值 录入）")
    have = stored_attacks(card.data)
    if not items:
        if weapon not in have:
            raise NotFound(f"<{name}> 没有攻击「{weapon}」（.npc 攻击 {name} {weapon} hit2 dp3 切割 录入）")
        return [
            Reply.say(f"<{name}> 的攻击「{weapon}」已私聊GM"),
            Reply.whisper(
                f"<{name}> {weapon}：{attack_text(have[weapon])}", fallback="（私聊失败，请先加骰娘为好友）"
            ),
        ]
    spec, delete = read_spec(items)
    if delete:
        if weapon not in have:
            raise NotFound(f"<{name}> 没有攻击「{weapon}」")
        have.pop(weapon)
    else:
        if weapon not in have and len(have) >= MAX_ATTACKS:
            raise LimitExceeded(f"一张NPC卡最多记{MAX_ATTACKS}种攻击")
        have[weapon] = spec
    await store.characters.update_character(
        card.id, lambda c: replace(c, data={**c.data, "attacks": dict(have)}), claim=call.claim
    )
    if delete:
        return [Reply.say(f"已删除 <{name}> 的攻击「{weapon}」")]
    return [
        Reply.say(f"已记下 <{name}> 的攻击「{weapon}」（用 .atk 攻击者:目标 {weapon}；数值已私聊GM）"),
        Reply.whisper(f"<{name}> {weapon}：{attack_text(spec)}", fallback="（私聊失败，请先加骰娘为好友）"),
    ]


__all__ = ["MAX_ATTACKS", "NpcAttack", "npc_attack", "read_spec", "stored_attacks"]
