"""NPC cards (issue 26): a group's GM keeps named cards for the NPCs he rolls for.

``.npc 哥布林 力量12 敏捷14 运动1 武器熟练1 DR1 hit2 dp3`` writes a card the way ``.st`` writes a
player's (``名字数值`` pairs, ``体力-2`` changes, formula attributes such as a DnD5e weapon
``&弯刀=1d6+dex``); ``.npc show/list/del`` read and remove them.
The ``名字:`` prefix D20 (``.rc 哥布林:运动 15``), D10 and CoC (``.ra 哥布林:侦查``) checks accept
reads the card of that name, and ``.ri 3# 哥布林`` adds 哥布林1–3 from it.

Where they live: the ordinary ``characters`` table, owned by a per-group pseudo-owner
``npc:<群号>`` (:func:`npc_owner`).  No QQ number has a colon, so no player owns, binds or lists
them, and no schema migration was needed.  Who may touch them: only a GM *of that group* (the
one policy, :func:`chronodice.core.permissions.is_gm` with the group's GMs, judged as acting on
the group), only in that group — a private chat has no group, so there the cards do not exist,
and another group's GM finds only his own group's cards.  A card's numbers go to the GM by
private message (a hidden boss's stats are his), the group hears only that a card was written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from chronodice.core.args import Pattern, arg, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, LimitExceeded, NotFound, NotPermitted
from chronodice.core.permissions import GM_WHO, is_gm
from chronodice.core.reply import Reply
from chronodice.core.text import safe_name
from chronodice.store import CharacterRecord

from .characters import AttributePairs, apply_pairs, attr_text, check_name
from .modes import attribute_name, card_system_for, group_mode
from .views import group_of

MAX_NPC_CARDS = 60
"""Cards one group may keep."""
NPC_PREFIX = "npc:"
NAME_RE = r"[^\s0-9:：,;、@.。+\-=#][^\s0-9:：,;、@=#]{0,19}(?![^\s])"
"""An NPC card's name: one word without digits (``.ri 3# 哥布林`` numbers the copies
哥布林1–3, and ``哥布林2`` must read as the second goblin of the 哥布林 card)."""
WHISPER_FAIL = "（NPC卡私聊发送失败，请先加骰娘为好友）"
PRIVATE_NO_NPC = "NPC卡属于群：请GM在群里使用（私聊里没有NPC卡）"


def npc_owner(group_id: str) -> str:
    """The pseudo-owner of a group's NPC cards (``npc:20002``); never a QQ number."""
    return f"{NPC_PREFIX}{group_id}"


async def may_use_npc_cards(call: Call, extra: Iterable[str] = ()) -> bool:
    """Whether the sender is a GM of this group (``extra``: a running combat's own GMs)."""
    if call.ctx.group_id is None:
        return False
    gms = (await group_of(call)).gms
    return is_gm(call.ctx, gms=gms, extra=extra, group_scope=True)


async def require_npc_gm(call: Call, what: str, extra: Iterable[str] = ()) -> str:
    """The group's NPC owner, when the sender may ``what`` (raises otherwise)."""
    if call.ctx.group_id is None:
        raise NotPermitted(PRIVATE_NO_NPC)
    if not await may_use_npc_cards(call, extra):
        raise NotPermitted(f"只有{GM_WHO}可以{what}")
    return npc_owner(call.ctx.group_id)


def base_name(name: str) -> str:
    """The card a combatant's name comes from: ``哥布林2`` → 哥布林, ``卫兵b`` → 卫兵 (``3#``'s
    copies), the name itself otherwise.

    >>> base_name("哥布林2"), base_name("哥布林12"), base_name("卫兵b"), base_name("暗影")
    ('哥布林', '哥布林', '卫兵', '暗影')
    """
    stem = name.rstrip("0123456789")
    if stem != name and stem:
        return stem
    if len(name) > 1 and name[-1] in "abcdefghijkl" and not name[-2].isascii():
        return name[:-1]
    return name


async def find_npc_card(
    call: Call, name: str, *, extra: Iterable[str] = (), exact: bool = False, as_target: bool = False
) -> CharacterRecord | None:
    """The group's NPC card ``name`` (or the card its numbered copy came from, unless ``exact``),
    ``None`` when the group has none.  A card found for a sender who is not the group's GM is
    refused (:class:`NotPermitted`): its numbers are the GM's — except ``as_target``, where the
    bot reads it for a rule on a player's behalf (the DEF and DR a player's ``.atk`` meets), and
    the reply shows only what the rule produced (nothing of a hidden NPC)."""
    if call.ctx.group_id is None:
        return None
    owner = npc_owner(call.ctx.group_id)
    store = call.app.store
    card = await store.characters.find_character(owner, name)
    if card is None and not exact and base_name(name) != name:
        card = await store.characters.find_character(owner, base_name(name))
    if card is not None and not as_target and not await may_use_npc_cards(call, extra):
        raise NotPermitted(f"「{safe_name(name)}」是GM的NPC卡，只有{GM_WHO}可以用它检定")
    return card


def card_line(card: CharacterRecord) -> str:
    attrs = " ".join(attr_text(k, v) for k, v in card.attributes.items()) or "（空）"
    attacks = card.data.get("attacks") if isinstance(card.data, dict) else None
    named = (
        "\n攻击：" + "；".join(f"{k} {attack_text(v)}" for k, v in attacks.items() if isinstance(v, dict))
        if isinstance(attacks, dict) and attacks
        else ""
    )
    return f"<{card.name}>（{card.system}）{attrs}{named}"


def attack_text(spec: Mapping[str, Any]) -> str:
    """A named attack of a D20 card (``.npc 攻击``) as the GM reads it back.

    >>> attack_text({"attack": "近战", "hit": 2, "dp": 3, "tags": ["切割"]})
    '近战 hit2 dp3 切割'
    """
    bits = [str(spec.get("attack", "近战"))]
    bits += [f"{k}{spec[k]}" for k in ("hit", "dp") if k in spec]
    bits += [str(t) for t in spec.get("tags", ())]
    bits += ["直接"] if spec.get("direct") else []
    return " ".join(bits)


def _whisper(text: str) -> Reply:
    return Reply.whisper(text, fallback=WHISPER_FAIL)


# ---------------------------------------------------------------------- .npc
NPC_NAME = Pattern(regex=NAME_RE, label="NPC名")
npc = define(
    "npc",
    summary="NPC卡（GM）：.npc 哥布林 力量12 敏捷14 运动1 DR1 hit2 dp3；show/list/del",
    detail=(
        "写法同 .st（体力-2 为修改），卡属于本群，只有本群GM可以录入、查看和使用；数值私聊GM\n"
        "使用：.rc 哥布林:运动 15、.ra 哥布林:侦查、.ri 3# 哥布林（加入哥布林1~3，各自的伤势与效果）、"
        ".atk 哥布林1:艾琳（hit/dp 取卡上的值）、.npc 攻击 哥布林 短剑 hit2 dp3 切割 记下攻击后 .atk 哥布林1:艾琳 短剑\n"
        "卡上可写 DR、抗性（灼烧抗性1）、易伤（冷冻易伤1）、默认攻击的 hit/dp；名字不含数字"
    ),
    system="通用",
    group_only=True,
)


@npc.sub("list", "ls", help="列出本群的NPC卡（私聊）", when_empty=True)
async def npc_list(call: Call) -> list[Reply]:
    owner = await require_npc_gm(call, "查看NPC卡")
    cards = await call.app.store.characters.list_characters(owner)
    if not cards:
        return [Reply.say("本群还没有NPC卡（.npc 名字 属性数值 录入）")]
    lines = [f"{i}. {c.name}（{len(c.attributes)}项）" for i, c in enumerate(cards, 1)]
    return [Reply.say(f"本群NPC卡共{len(cards)}张（已私聊GM）"), _whisper("本群NPC卡：\n" + "\n".join(lines))]


@npc.sub("show", "查看", params=[arg("name", NPC_NAME, label="NPC名")], help="查看一张NPC卡（私聊）")
async def npc_show(call: Call, name: str) -> list[Reply]:
    owner = await require_npc_gm(call, "查看NPC卡")
    card = await call.app.store.characters.find_character(owner, name)
    if card is None:
        raise NotFound(f"本群没有NPC卡「{name}」（.npc list 查看）")
    return [Reply.say(f"NPC卡 <{name}> 已私聊GM"), _whisper(card_line(card))]


@npc.sub("del", "rm", "删除", params=[arg("name", NPC_NAME, label="NPC名")], help="删除一张NPC卡")
async def npc_del(call: Call, name: str) -> list[Reply]:
    owner = await require_npc_gm(call, "删除NPC卡")
    card = await call.app.store.characters.find_character(owner, name)
    if card is None:
        raise NotFound(f"本群没有NPC卡「{name}」")
    await call.app.store.characters.delete_character(card.id, claim=call.claim)
    return [Reply.say(f"已删除NPC卡 <{name}>")]


@npc.sub(
    params=[arg("name", NPC_NAME, label="NPC名"), opt("pairs", AttributePairs(formulas=True))],
    help="录入或修改NPC卡（写法同 .st）",
)
async def npc_set(call: Call, name: str, pairs: list[tuple[str, str | None, int]] | None) -> list[Reply]:
    owner = await require_npc_gm(call, "录入NPC卡")
    if pairs is None:
        return await npc_show(call, name)
    name = check_name(name, "NPC名")
    store = call.app.store
    mode = group_mode((await group_of(call)).settings)
    card = await store.characters.find_character(owner, name)
    if card is None:
        if len(await store.characters.list_characters(owner)) >= MAX_NPC_CARDS:
            raise LimitExceeded(f"一个群最多{MAX_NPC_CARDS}张NPC卡（.npc del 名字 删除不用的）")
        system = card_system_for(mode, [p[0] for p in pairs])
        try:
            card = await store.characters.create_character(owner, name, system=system, claim=call.claim)
        except IllegalAction:  # created by a command beside this one
            card = await store.characters.find_character(owner, name)
            if card is None:
                raise
    system = card.system
    pairs = [(attribute_name(system, mode, a), op, v) for a, op, v in pairs]
    updated = await store.characters.update_character(
        card.id, lambda c: replace(c, attributes=apply_pairs(c.attributes, pairs)), claim=call.claim
    )
    changed = " ".join(
        attr_text(a, updated.attributes[a]) if op is None else f"{a}{op}{v}→{updated.attributes[a]}"
        for a, op, v in pairs
    )
    return [
        Reply.say(f"已录入NPC卡 <{name}>（{len(pairs)}项，数值已私聊GM）"),
        _whisper(f"NPC卡 <{name}>：{changed}"),
    ]


__all__ = [
    "MAX_NPC_CARDS",
    "NPC_NAME",
    "PRIVATE_NO_NPC",
    "attack_text",
    "base_name",
    "card_line",
    "find_npc_card",
    "may_use_npc_cards",
    "npc",
    "npc_owner",
    "require_npc_gm",
]
