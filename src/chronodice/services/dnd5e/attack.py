"""``.atk`` where DnD5e commands answer: the attack in one command — d20 + attack bonus against
the target's AC, the damage roll (a natural 20 doubles its dice), and the damage applied where
the rules say it lands (:mod:`chronodice.rules.dnd5e.attack`).

Forms: ``.atk 哥布林1 +5 1d8+3`` (bonus and damage written), ``.atk 哥布林1 长剑`` (the card's
formula attribute ``&长剑=1d8+str``: the bonus is that ability's modifier + the proficiency
bonus, a written ``±N`` adds to it), ``.atk 哥布林1:托林 弯刀`` (the DM, for a monster: its NPC
card's ``&弯刀``), ``.atk 巨魔 +5 1d8 ac13`` (a target not in the order: AC written, nothing
applied); ``优势``/``劣势`` anywhere.

What is applied, and what is left to the DM (automation applies only what it understands):

* a monster in the order with hit points: its hit points drop (floored at 0);
* a player character: the card's hit points by the 5e rules (temporary hit points first, 0 and
  death saves, massive damage) — only when the DM or that player attacks; another player's
  attack says the damage and leaves it to them;
* no AC known: the hit is the DM's call, and nothing is applied; no hit points known: the
  damage is said, not applied.

What the group reads: a monster's AC only when the DM shows monsters' numbers (``.init 血量
精确``), its hit points as the DM chose; the DM gets the numbers privately.  A hidden monster
that attacks is revealed (the group reads the attack, as its target would see it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from chronodice.core.args import Text, arg
from chronodice.core.commands import Call, CommandSpec
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound, NotPermitted
from chronodice.core.permissions import GM_WHO
from chronodice.core.reply import CheckNote, Reply
from chronodice.dice import DiceBudget, DiceError, evaluate, parse, to_text
from chronodice.dice import detail as dice_detail
from chronodice.rules.dnd5e import ABILITIES, Sheet, ability_modifier
from chronodice.rules.dnd5e.attack import AttackRoll, double_dice, roll_attack
from chronodice.rules.dnd5e.health import damage
from chronodice.rules.dnd5e.initiative import MAX_AC, Entry, Tracker
from chronodice.rules.dnd5e.sheet import number
from chronodice.store import CharacterRecord

from ..characters import dice_variables
from ..modes import fits, wrong_card
from ..npc_cards import find_npc_card
from ..tick20.attack import atk
from .card import damage_words
from .checks import ADV, DIS, die_text
from .combat import apply_tracker, dm_whisper, hp_change, hp_shown, is_dm, load_tracker, seen
from .common import CARD_SYSTEM, SYS_NAME, by_mode, health_of, sheet_of, with_health
from .initiative import AC_WORD

FORM = ".atk [攻击者:]目标 [武器|±命中 伤害] [优势/劣势]，如 .atk 哥布林1 +5 1d8+3、.atk 哥布林1 长剑"
MAX_WORDS = 6
_BONUS = re.compile(r"[+\-][0-9]{1,2}")
_AC = re.compile(r"(?:ac|护甲)[:=：]?([0-9]{1,2})", re.IGNORECASE)
_EDGE = {"优势": "adv", "adv": "adv", "劣势": "dis", "dis": "dis"}
_ABILITY_WORDS = {alias: ability for ability, aliases in ABILITIES.items() for alias in aliases[:1]}


@dataclass(frozen=True)
class Order:
    """What ``.atk`` read: who attacks whom, with what."""

    attacker: str | None
    target: str
    bonus: int | None = None
    weapon: str | None = None
    damage: str | None = None
    ac: int | None = None
    adv: bool = False
    dis: bool = False


def read_order(text: str) -> Order:
    """``哥布林1:托林 +4 1d6+2 ac13`` → the parts (one pass over at most :data:`MAX_WORDS` words).

    >>> read_order("哥布林1:托林 +4 1d6+2")
    Order(attacker='哥布林1', target='托林', bonus=4, weapon=None, damage='1d6+2', ac=None, adv=False, dis=False)
    >>> read_order("巨魔 长剑 -1 ac13")
    Order(attacker=None, target='巨魔', bonus=-1, weapon='长剑', damage=None, ac=13, adv=False, dis=False)
    """
    words = text.replace("：", ":").split()
    if not words or len(words) > MAX_WORDS:
        raise InputSyntaxError(f"写法：{FORM}")
    attacker, _, target = words[0].rpartition(":")
    if not target:
        raise InputSyntaxError(f"请写出目标：{FORM}")
    order = Order(attacker or None, target)
    for word in words[1:]:
        if word.lower() in _EDGE:
            edge = _EDGE[word.lower()]
            order = replace(order, adv=order.adv or edge == "adv", dis=order.dis or edge == "dis")
        elif _BONUS.fullmatch(word) and order.bonus is None:
            order = replace(order, bonus=int(word))
        elif (m := _AC.fullmatch(word)) and order.ac is None:
            order = replace(order, ac=min(int(m.group(1)), MAX_AC))
        elif any(c.isdigit() for c in word) and order.damage is None and order.weapon is None:
            order = replace(order, damage=word)
        elif order.weapon is None and order.damage is None:
            order = replace(order, weapon=word)
        else:
            raise InputSyntaxError(f"看不懂「{word[:12]}」：{FORM}")
    return order


@dataclass(frozen=True)
class Side:
    """The attacker: the name replies use, its sheet and dice names, and its order entry."""

    name: str
    card: CharacterRecord | None
    entry: Entry | None


async def _attacker(call: Call, t: Tracker, order: Order, dm: bool) -> Side:
    if order.attacker is None:
        char = call.view.character if call.view is not None else None
        if char is not None and not fits(char.system, CARD_SYSTEM):  # a CoC 力量60 is no 5e score
            raise IllegalAction(wrong_card(char.name, char.system, CARD_SYSTEM))
        own = next((e for e in t.entries if e.owner == call.ctx.user_id), None)
        return Side(call.player_name, char, own)
    entry = seen(t, order.attacker, dm)
    if entry is None:
        raise NotFound(f"先攻表里没有「{order.attacker[:20]}」")
    if entry.owner is not None and entry.owner != call.ctx.user_id and not dm:
        raise NotPermitted(f"{entry.name} 是别人的角色：只能替自己或（{GM_WHO}）替怪物攻击")
    if entry.owner is None and not dm:
        raise NotPermitted(f"只有{GM_WHO}可以替怪物攻击")
    if entry.owner is not None:
        card = await call.app.store.characters.active_character(entry.owner, call.ctx.scope)
    else:
        card = await find_npc_card(call, entry.card or entry.name, exact=entry.card is not None)
    return Side(entry.name, card, entry)


def _weapon(side: Side, order: Order) -> tuple[str, int, str]:
    """The damage text, the attack bonus and where the bonus came from."""
    attrs = side.card.attributes if side.card is not None else {}
    formula = attrs.get(order.weapon or "")
    if not isinstance(formula, str):
        raise NotFound(
            f"{side.name} 没有「{(order.weapon or '')[:12]}」这件武器：先 .st &{(order.weapon or '长剑')[:12]}=1d8+str"
            f" 录入，或直接写命中和伤害：{FORM}"
        )
    sheet = sheet_of(side.card) if side.card is not None else Sheet({})
    ability = next(
        (a for w, a in _ABILITY_WORDS.items() if re.search(rf"(?<![A-Za-z]){w}(?![A-Za-z])", formula)), None
    )
    if ability is None:
        if order.bonus is None:
            raise IllegalAction(
                f"「{order.weapon}={formula}」看不出用哪项属性：写出命中加值，如 .atk 目标 {order.weapon} +5"
            )
        return formula, order.bonus, ""
    score = sheet.score(ability)
    mod = ability_modifier(score) if score is not None else 0
    bonus = mod + sheet.pb + (order.bonus or 0)
    source = f"{ability}+熟练" + (f"{order.bonus:+d}" if order.bonus else "")
    return formula, bonus, source


def _damage(call: Call, side: Side, text: str, crit: bool) -> tuple[str, int]:
    """The damage roll's trace and total (dice doubled on a critical hit)."""
    variables = dice_variables(side.card)
    try:
        tree = parse(text, known=variables)
    except DiceError as err:
        raise InputSyntaxError(f"伤害「{text[:20]}」写错了：{err.message}") from err
    if crit:
        tree = double_dice(tree)
    shown = to_text(tree, 20)
    rolled = evaluate(tree, call.app.rng, default_faces=20, variables=variables, budget=DiceBudget())
    return dice_detail(rolled, shown), max(0, rolled.value)


dnd_atk = CommandSpec(
    name="atk",
    summary="DnD5e攻击：命中对AC、伤害、暴击加倍骰子，一条指令",
    detail=(
        f"{FORM}\n"
        "武器写在卡上：.st &长剑=1d8+str（命中=力量调整+熟练加值，再加写的±N）；天然20暴击（伤害骰子加倍）、天然1未命中\n"
        "目标在先攻表里：怪物有体力时扣血（群里按 .init 血量 显示），玩家角色按5e规则扣卡上的体力（DM或本人攻击时）；"
        "不知道AC时由DM判定，不结算；隐藏的怪物攻击时现身"
    ),
    aliases=("攻击",),
    system=SYS_NAME,
    group_only=True,
)


@dnd_atk.sub(
    params=[arg("text", Text(label="目标 武器/命中 伤害", max_len=80))], flags=[ADV, DIS], help="攻击"
)
async def cmd_dnd_atk(call: Call, text: str, adv: bool, dis: bool) -> list[Reply]:
    order = read_order(text)
    adv, dis = adv or order.adv, dis or order.dis
    if order.damage is None and order.weapon is None:
        raise call.usage_error(f"请写出武器或伤害：{FORM}")
    dm = await is_dm(call)
    t = await load_tracker(call)
    target = seen(t, order.target, dm)
    if target is None and order.ac is None:
        raise NotFound(
            f"先攻表里没有「{order.target[:20]}」（不在先攻表的目标写出AC：.atk {order.target[:20]} +5 1d8 ac13）"
        )
    side = await _attacker(call, t, order, dm)
    if order.weapon is not None:
        damage_text, bonus, source = _weapon(side, order)
    elif order.bonus is None:
        raise call.usage_error(f"请写出命中加值：{FORM}")
    else:
        damage_text, bonus, source = order.damage or "", order.bonus, ""
    if side.entry is not None and side.entry.hidden:  # a hidden monster's attack reveals it
        await apply_tracker(call, lambda t: (_revealed(t, side), None))
    pc_card = await _pc_card(call, target)
    ac = order.ac if order.ac is not None else _ac_of(target, pc_card)
    roll = roll_attack(call.app.rng, bonus, ac, advantage=adv, disadvantage=dis)
    trace, amount = _damage(call, side, damage_text, roll.crit) if roll.hit is not False else ("", 0)
    head = _head(side, order, target, roll, adv, source, t, pc_card is not None)
    if roll.hit is False:
        return [Reply(text=head, check=_note(side, order, roll, damage_text, None))]
    note = _note(side, order, roll, damage_text, amount)
    if roll.hit is None or target is None:
        return [Reply(text=f"{head}{_gap(head)}伤害 {trace}（未结算：由DM判定）", check=note)]
    landed, secret = await _land(call, side, target, pc_card, amount, dm)
    replies = [Reply(text=f"{head}{_gap(head)}伤害 {trace}{landed}", check=note)]
    return replies + dm_whisper(secret, [target.by] if target.by else [])  # to the DM, never the attacker


def _gap(head: str) -> str:
    return "" if head.endswith(("！", "）")) else " "


async def _pc_card(call: Call, target: Entry | None) -> CharacterRecord | None:
    if target is None or target.owner is None:
        return None
    return await call.app.store.characters.active_character(target.owner, call.ctx.scope)


def _ac_of(target: Entry | None, card: CharacterRecord | None) -> int | None:
    if target is None:
        return None
    return number(card.attributes, AC_WORD) if card is not None else target.ac


def _head(
    side: Side,
    order: Order,
    target: Entry | None,
    roll: AttackRoll,
    adv: bool,
    source: str,
    t: Tracker,
    pc: bool,
) -> str:
    weapon = f"（{order.weapon}）" if order.weapon else ""
    bonus = f"{roll.modifier:+d}" + (f"({source})" if source else "")
    shown_ac = roll.dc is not None and (pc or target is None or t.hp_view == "exact")
    against = f" 对 AC{roll.dc}" if shown_ac else ""
    outcome = (
        "暴击！"
        if roll.crit
        else "大失败，未命中"
        if roll.fumble
        else "（AC未知）"
        if roll.hit is None
        else "命中！"
        if roll.hit
        else "未命中"
    )
    d20 = die_text(roll, adv)
    gap = "" if outcome.startswith("（") else " "
    return f"{side.name} 攻击 {order.target}{weapon}：{d20}{bonus}={roll.total}{against}{gap}{outcome}"


def _note(side: Side, order: Order, roll: AttackRoll, damage_text: str, amount: int | None) -> CheckNote:
    outcome = (
        "暴击"
        if roll.crit
        else "大失败"
        if roll.fumble
        else "掷出"
        if roll.hit is None
        else "命中"
        if roll.hit
        else "未命中"
    )
    items = [("D20 + " + str(roll.modifier), f"攻击{order.target}", roll.total)]
    if amount is not None:
        items.append((damage_text, "伤害", amount))
    return CheckNote("攻击", outcome, roll.hit, rule="dnd5e", items=tuple(items))


async def _land(
    call: Call, side: Side, target: Entry, card: CharacterRecord | None, amount: int, dm: bool
) -> tuple[str, str]:
    """Apply ``amount`` to ``target`` where the rules and the sender allow: the group's words, the DM's."""
    if card is not None:
        if not (dm or target.owner == call.ctx.user_id):
            return f"（{target.name} 的体力由DM或本人结算：.st hp-{amount}）", ""
        return await _hurt_card(call, card, amount), ""
    if target.hp is None:
        return f"（{target.name} 没有记录体力，未结算：.init 设定 {target.name} hp7）", ""

    def step(t: Tracker) -> tuple[Tracker, tuple[Entry | None, int, int]]:
        if t.find(target.name) is None:
            return t, (None, 0, 0)
        t, old, new = t.hurt(target.name, amount)
        return t, (t.find(target.name), old, new)

    t, (now, old, new) = await apply_tracker(call, step)
    if now is None or now.hp is None:
        return f"（{target.name} 已不在先攻表里，未结算）", ""
    shown = hp_shown(now, t.hp_view)
    down = new == 0 and old > 0 and t.hp_view == "exact"
    words = f" → {now.name} {shown}" + ("，倒下了" if down else "") if shown else ""
    secret = "" if t.hp_view == "exact" else hp_change(now, old)
    return words, secret


def _revealed(t: Tracker, side: Side) -> Tracker:
    """``t`` with the attacker in the open."""
    entry = t.find(side.entry.name) if side.entry is not None else None
    return t if entry is None else t.set(replace(entry, hidden=False))


async def _hurt_card(call: Call, card: CharacterRecord, amount: int) -> str:
    """A player character's card after ``amount`` damage by the 5e rules (as ``.st hp-N``)."""
    words: list[str] = []

    def write(c: CharacterRecord) -> CharacterRecord:
        before = health_of(c)
        h, note = damage(before, amount)
        words[:] = [f" → {c.name} 体力{before.hp}→{h.hp}" + damage_words(note, h)]
        return with_health(c, h)

    await call.app.store.characters.update_character(card.id, write, claim=call.claim)
    return words[0]


by_mode(atk, dnd_atk)

__all__ = ["FORM", "Order", "dnd_atk", "read_order"]
