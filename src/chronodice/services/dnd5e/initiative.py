"""5e initiative where DnD5e commands answer: ``.ri`` = d20 + DEX modifier, ``.init`` the order,
``.init next`` / ``.ed`` the turns, ``.init 状态`` conditions that last some rounds; monsters with
hit points and AC (``.ri 哥布林 hp7 ac15``, or from the group's NPC card ``.npc 哥布林``), hidden
monsters (``.ri 暗 +3 伏兵``) and how the group sees monsters' hit points (``.init 血量``).

``.ri``, ``.init`` and ``.ed`` belong to the D20 tick system (their roots are its commands);
:func:`.common.by_mode` hands them to the specs below only where DnD5e answers, so a tick20 group
keeps its ticks, AP and Mov.  The order is one session per group (:mod:`.combat`), so ``.undo``
takes a step back.  The DM runs a hidden monster from private chat (``.gm 私聊`` binds it): its
roll, numbers and turns go to the DM only, and the group reads the same lines as without it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chronodice.core.args import Pattern, Text, flag, opt
from chronodice.core.commands import Call, CommandSpec
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotPermitted
from chronodice.core.permissions import GM_WHO
from chronodice.core.reply import Reply
from chronodice.rules.dnd5e import D20Check, ability_modifier, roll_d20
from chronodice.rules.dnd5e.health import HP, MAX_HP
from chronodice.rules.dnd5e.initiative import MAX_AC, MAX_ENTRIES, Entry, Tracker
from chronodice.rules.dnd5e.initiative import MAX_HP as HP_LIMIT
from chronodice.rules.dnd5e.sheet import number
from chronodice.store import CharacterRecord

from ..npc_cards import find_npc_card
from ..tick20.joining import ri
from .checks import ADV, DIS, die_text
from .combat import apply_tracker, dm_whisper, is_dm
from .common import SYS_NAME, by_mode, sheet_of

MOD = Pattern(
    regex=r"([+\-])\s*([0-9]{1,2})(?![0-9])", label="±调整值", convert=lambda m: int(m.group(1) + m.group(2))
)
FIXED = Pattern(regex=r"=\s*([0-9]{1,2})(?![0-9])", label="=先攻值", convert=lambda m: int(m.group(1)))
HIDDEN = flag("hidden", "暗", "隐藏", label="暗")
BUSY = "这个名字现在不能用（GM处理中），换个名字"
"""A player's refusal where the plain one would name a hidden monster."""
MAX_COPIES = 9
AC_WORD = "护甲"
_STAT = re.compile(r"(hp|体力|ac|护甲)\s*[:=：]?\s*([0-9]{1,4})(?![0-9])", re.IGNORECASE)
_COPIES = re.compile(r"([1-9])\s*#\s*")
NPC_FORM = ".ri [暗] [±调整值] [N#]名字 [hp7] [ac15]"


@dataclass(frozen=True)
class NpcSpec:
    """What ``.ri`` read after the modifier: the name, how many copies, hit points and AC."""

    name: str
    copies: int = 1
    hp: int | None = None
    ac: int | None = None


def npc_spec(text: str) -> NpcSpec:
    """``3# 哥布林 hp7 ac15`` → 哥布林 ×3 with 7 HP and AC 15 (one pass over the words).

    >>> npc_spec("2#哥布林 hp7 ac15")
    NpcSpec(name='哥布林', copies=2, hp=7, ac=15)
    >>> npc_spec("巨魔 护甲:13")
    NpcSpec(name='巨魔', copies=1, hp=None, ac=13)
    """
    m = _COPIES.match(text)
    copies = int(m.group(1)) if m else 1
    words = text[m.end() if m else 0 :].split()
    if not words:
        raise InputSyntaxError(f"请写出名字：{NPC_FORM}")
    stats: dict[str, int] = {}
    for word in words[1:]:
        found = _STAT.fullmatch(word)
        if found is None:
            raise InputSyntaxError(f"看不懂「{word[:10]}」：{NPC_FORM}")
        key = "hp" if found.group(1).lower() in ("hp", "体力") else "ac"
        stats[key] = int(found.group(2))
    if stats.get("hp", 1) < 1 or stats.get("hp", 0) > HP_LIMIT or stats.get("ac", 0) > MAX_AC:
        raise InputSyntaxError(f"体力写1–{HP_LIMIT}，AC写0–{MAX_AC}")
    return NpcSpec(words[0], copies, stats.get("hp"), stats.get("ac"))


# ---------------------------------------------------------------------- .ri
dnd_ri = CommandSpec(
    name="ri",
    summary="DnD5e先攻：d20+敏捷调整值，加入先攻表",
    detail=(
        "例 .ri、.ri +2（再加2）、.ri 优势、.ri +3 哥布林、.ri =15 巨龙；同名再掷则更新；平手时敏捷高者在前\n"
        "怪物：.ri 哥布林 hp7 ac15（写上体力和AC，.atk 才能判定命中、扣血）；本群有NPC卡（.npc 哥布林 敏捷14 hp7 ac15）"
        "时GM写 .ri 哥布林 即按卡；.ri 3# 哥布林 加入哥布林1–3\n"
        "隐藏的怪物（GM）：私聊 .ri 暗 +3 伏兵（先在群里 .gm 私聊 绑定），群里看不到它和它的回合，.init 现身 伏兵 公开"
    ),
    system=SYS_NAME,
    group_only=True,
)


@dnd_ri.sub(
    params=[opt("mod", MOD), opt("fixed", FIXED), opt("name", Text(label="名称", max_len=40))],
    flags=[ADV, DIS, HIDDEN],
    help="掷先攻加入先攻表；写名称则加入NPC（可带 hp、ac）",
    when_empty=True,
)
async def cmd_dnd_ri(
    call: Call, mod: int | None, fixed: int | None, name: str | None, adv: bool, dis: bool, hidden: bool
) -> list[Reply]:
    if name is None:
        if hidden:
            raise call.usage_error(f"「暗」只用于怪物：{NPC_FORM}")
        return await _ri_pc(call, mod, fixed, adv, dis)
    return await _ri_npc(call, npc_spec(name), mod, fixed, adv, dis, hidden)


async def _ri_pc(call: Call, mod: int | None, fixed: int | None, adv: bool, dis: bool) -> list[Reply]:
    char = call.view.character if call.view is not None else None
    score = sheet_of(char).score("敏捷")
    dex = ability_modifier(score) if score is not None else 0
    who = call.player_name
    total, text = _roll_with(call, dex, mod, fixed, adv, dis, "敏捷")
    entry = Entry(who, total, dex=score or 10, text=text, owner=call.ctx.user_id)

    def join(t: Tracker) -> tuple[Tracker, bool]:
        old = t.find(who)
        if old is not None and old.hidden:
            raise IllegalAction(BUSY)
        _room(t, [who])
        return t.add(entry), old is not None

    t, again = await apply_tracker(call, join)
    line = f"{who} 的先攻：{text}" + ("（已更新）" if again else "")
    return [Reply.say(line + _tail(t))]


def _roll_with(
    call: Call, dex: int, mod: int | None, fixed: int | None, adv: bool, dis: bool, source: str
) -> tuple[int, str]:
    extra = mod or 0
    if fixed is not None:
        return fixed, f"={fixed}"
    dice, kept = roll_d20(call.app.rng, advantage=adv, disadvantage=dis)
    total = kept + dex + extra
    parts = (f"{dex:+d}({source})" if source else "") + (f"{extra:+d}" if mod is not None else "")
    shown = die_text(D20Check(dice, kept, 0, None), adv)
    return total, shown + parts + f"={total}" if parts or len(dice) == 2 else shown


def _room(t: Tracker, names: list[str]) -> None:
    new = sum(1 for n in names if t.find(n) is None)
    if len(t.entries) + new > MAX_ENTRIES:
        raise IllegalAction(f"先攻表最多{MAX_ENTRIES}名")


def _tail(t: Tracker) -> str:
    return "" if t.turn is not None else f"\n共{len(t.visible)}名；.init 查看先攻表，.init next 开始"


async def _ri_npc(
    call: Call, spec: NpcSpec, mod: int | None, fixed: int | None, adv: bool, dis: bool, hidden: bool
) -> list[Reply]:
    dm = await is_dm(call)
    if hidden and not dm:
        raise NotPermitted(f"只有{GM_WHO}可以加入隐藏的怪物")
    card = await find_npc_card(call, spec.name, exact=True) if dm else None
    attrs = dict(card.attributes) if card is not None else {}
    score = number(attrs, "敏捷")
    dex = ability_modifier(score) if score is not None else 0
    hp = spec.hp if spec.hp is not None else number(attrs, HP)
    max_hp = spec.hp if spec.hp is not None else number(attrs, MAX_HP) or hp
    ac = spec.ac if spec.ac is not None else number(attrs, AC_WORD)
    names = [spec.name] if spec.copies == 1 else [f"{spec.name}{i}" for i in range(1, spec.copies + 1)]
    rolled = [_roll_with(call, dex, mod, fixed, adv, dis, "敏捷" if score is not None else "") for _ in names]
    by = call.ctx.user_id if dm else None
    entries = [
        Entry(
            n,
            total,
            dex=score or 10 + 2 * (mod or 0),
            text=text,
            hidden=hidden,
            hp=hp,
            max_hp=max_hp,
            ac=ac,
            card=card.name if card is not None else None,
            by=by,
        )
        for n, (total, text) in zip(names, rolled, strict=True)
    ]

    def join(t: Tracker) -> tuple[Tracker, list[bool]]:
        if not dm and any((e := t.find(n)) is not None and e.hidden for n in names):
            raise IllegalAction(BUSY)
        _room(t, names)
        again = [t.find(n) is not None for n in names]
        for entry in entries:
            t = t.add(entry)
        return t, again

    t, again = await apply_tracker(call, join)
    lines = [
        f"{e.name} 的先攻：{e.text}" + ("（已更新）" if a else "")
        for e, a in zip(entries, again, strict=True)
    ]
    stats = _stats_text(card, hp, ac)
    if hidden:
        secret = "（暗中，群里看不到）" + "\n".join(lines) + stats
        return dm_whisper(
            secret + "\n.init 现身 名字 公开；它随时可以 .atk 名字:目标 攻击（攻击即现身）",
            [call.ctx.user_id],
        )
    replies = [Reply.say("\n".join(lines) + _tail(t))]
    if stats and card is not None:
        replies += dm_whisper(f"按NPC卡 <{card.name}>：" + stats.strip("，"), [call.ctx.user_id])
    return replies


def _stats_text(card: CharacterRecord | None, hp: int | None, ac: int | None) -> str:
    parts = [p for p in (f"体力{hp}" if hp is not None else "", f"AC{ac}" if ac is not None else "") if p]
    return ("，" + " ".join(parts)) if parts else ""


by_mode(ri, dnd_ri)

__all__ = ["BUSY", "NpcSpec", "dnd_ri", "npc_spec"]
