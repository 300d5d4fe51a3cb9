"""The play-phase prompt as a phone shows it (issue 27): every hand card under the number it keeps
for the whole turn, what each playable one can target (teammates marked in 双王国), and why each
other card cannot be played now — in a few short lines, not the whole hand view again after
every card.  Also the cards on a character (``pile`` zones, glossary 3.1) as ``.moe state``
and the table picture show them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chronodice.rules.moe.base import Ask, Ctx
from chronodice.rules.moe.cards import SUIT_SYMBOL, VirtualCard, rank_text
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.state import ALL


def seat_tag(g: Game, me: int, seat: int) -> str:
    """``2号``, ``2号(队友)`` for a teammate, ``1号(自己)`` for oneself."""
    if seat == me:
        return f"{seat + 1}号(自己)"
    mine, theirs = g.p(me).team, g.p(seat).team
    return f"{seat + 1}号(队友)" if mine >= 0 and mine == theirs else f"{seat + 1}号"


ASKED_ALWAYS = "有没有可用的牌都会询问，群里看不出区别"
"""Said to a seat asked with nothing to answer: every seat that could be is asked."""


def play_card_prompt(g: Game, ask: Ask, numbers: dict[int, int], label: Callable[[int], str]) -> str:
    """An 打出 request (glossary 8.3, the ``play`` primitive): which cards it takes and whose
    card asks — 打出, never 使用 (a card played out is not used: no effect, no response)."""
    wanted = "/".join(f"【{g.cdef(k).name}】" for k in ask.info.get("names", []))
    who, card = ask.info.get("user"), ask.info.get("card")
    head = f"{label(who)}的【{g.cdef(card).name}】：" if who is not None and card else ""
    if not ask.options:
        return f"{head}你可以打出一张{wanted}，但你没有。.moe pass 继续（{ASKED_ALWAYS}）"
    opts = "；".join(f".moe resp {numbers.get(c, i + 1)} {_card(g, c)}" for i, c in enumerate(ask.options))
    return f"{head}你可以打出一张{wanted}。{opts}；或 .moe pass 不打出"


REPLY_NUMBERS = "直接回复序号回答（多张用空格分开）"
"""How a choice prompt is answered: a bare number in private chat (``.moe choose`` works too)."""
REPLY_ZERO = "回复 0 不选"
"""How an optional choice is declined by a bare number."""
CHOOSE_WHAT = {
    "discard_phase": "弃牌阶段，请弃置",
    "discard": "请弃置",
    "show": "请选择要展示的",
    "retrial": "改判，请选择用来代替判定牌的",
    "put_pile": "请选择要置于角色牌上的",
    "take_pile": "请选择要获得的",
    "remove": "请选择要移出游戏的",
    "put_equipment": "请选择要置入装备区的",
}
"""What a choice of one's own cards is for, by the request's reason (issue 44: 炫耀 said only
请选择1张牌)."""


def running_source(g: Game) -> str:
    """``【炫耀】`` — the innermost skill or card being settled, or ``""``."""
    for frame in reversed(g.stack):
        skill = frame.data.get("skill") if frame.kind == "skill" else None
        if isinstance(skill, str) and skill in g.pack.skills:
            return f"【{g.pack.skills[skill].name}】"
        card = frame.data.get("card") if frame.kind == "use" else None
        if isinstance(card, VirtualCard):
            return f"【{g.cdef(card.key).name}】"
    return ""


def choose_cards_what(g: Game, ask: Ask, label: Callable[[int], str]) -> str:
    """The head of a prompt to choose one's own cards: what they are for, and (when a skill or
    card asks) which one: ``【炫耀】：请选择要展示的``."""
    if ask.reason == "pindian":
        return f"与{label(ask.info['with'])}拼点，请选择" if "with" in ask.info else "拼点，请选择"
    what = CHOOSE_WHAT.get(ask.reason, "请选择")
    source = running_source(g) if ask.reason not in ("discard_phase",) else ""
    return f"{source}：{what}" if source else what


def character_piles(g: Game, seat: int) -> str:
    """The cards on ``seat``'s character card, public: ``花×2（♠3【攻击】、♥5【防御】）`` per pile,
    the faces only of cards everyone has seen (a face-down pile shows its count); ``""`` when
    there are none."""
    prefix = f"pile:{seat}:"
    parts = []
    for zone in sorted(z for z, cs in g.state.zones.items() if z.startswith(prefix) and cs):
        cids = g.state.zones[zone]
        faces = [_card(g, c) for c in cids if ALL in g.state.known.get(c, ())]
        shown = f"（{'、'.join(faces)}）" if len(faces) == len(cids) else ""
        parts.append(f"{zone[len(prefix) :]}×{len(cids)}{shown}")
    return " ".join(parts)


def range_note(g: Game, seat: int) -> str:
    r = g.attack_range(seat)
    return "无限" if r is None else str(r)


def unplayable_reason(g: Game, seat: int, key: str) -> str:
    """Why ``seat`` cannot use a ``key`` card in its play phase now (the same checks as the
    engine's ``can_use_card``, in its order)."""
    cd = g.cdef(key)
    if not cd.use_in_play:
        return "只能在响应时使用"
    if not g.eval(Ctx(me=seat, card=VirtualCard(key=key)), cd.can_use):
        return "现在不满足使用条件" + (
            "（你未受伤）" if not g.p(seat).injured and "injured" in str(cd.can_use) else ""
        )
    if cd.per_turn is not None and g.state.turn.attacks >= cd.per_turn:
        return "本回合已使用过攻击类牌"
    if cd.action_kind == "secret" and any(g.card(c).key == key for c in g.secrets(seat)):
        return "奥秘区已有同名奥秘"
    mode, targets = g.card_targets(seat, key)
    if mode in ("one", "self", "all") and not targets:
        _m, far = g.card_targets(seat, key, ignore_distance=True)
        if far:
            near = min(g.distance(seat, t) for t in far if t != seat) if any(t != seat for t in far) else 0
            return f"没有目标在攻击范围内（你的攻击范围{range_note(g, seat)}，最近的目标距离{near}）"
        if "injured" in str(cd.target_filter):  # 恢复 on oneself at full 血量: say so
            return "你未受伤" if mode == "self" else "没有已受伤的目标"
        return "没有合法目标"
    return "现在不能使用"


def play_prompt(g: Game, ask: Ask, numbers: dict[int, int], *, header: str | None) -> str:
    """The play prompt: ``header`` (the hand view, first prompt of the turn) then one line per
    card, numbered as in ``numbers`` (card id → number), then the skills and how to end."""
    seat = ask.seat
    by_card: dict[int, list[dict[str, Any]]] = {}
    skills: list[dict[str, Any]] = []
    for o in ask.options:
        if o["a"] == "card":
            by_card.setdefault(o["card"], []).append(o)
        elif o["a"] == "skill":
            skills.append(o)
    lines = [header] if header else []
    lines.append("你的行动阶段（回复 序号 目标，如 1 2；序号本回合不变）：")
    hand = sorted(g.hand(seat), key=lambda c: numbers.get(c, 999))
    blocked: list[str] = []
    for cid in hand:
        n = numbers.get(cid, 0)
        name = _card(g, cid)
        opts = by_card.get(cid)
        if not opts:
            blocked.append(f"  {n}.{name}：{unplayable_reason(g, seat, g.card(cid).key)}")
            continue
        for o in opts:
            as_ = f" 当【{g.cdef(o['as']).name}】（.moe play {n} 当）" if o.get("as") else ""
            tg = ""
            if o["mode"] == "one":
                tg = " → " + "/".join(seat_tag(g, seat, t) for t in o["targets"])
            lines.append(f"  {n}.{name}{as_}{tg}")
    for o in skills:
        sd = g.pack.skills[o["key"]]
        one = o["mode"] == "one"
        tg = " 座位号 → " + "/".join(seat_tag(g, seat, t) for t in o["targets"]) if one else ""
        cost = f"（弃{o['cost_n']}张：加 弃 序号）" if o.get("cost_n") else ""
        lines.append(f"  .moe skill {sd.name}{tg}{cost}")
    if blocked:
        lines.append("不能使用：")
        lines += blocked
    lines.append("  0 或 .moe end  结束出牌")
    return "\n".join(lines)


def _card(g: Game, cid: int) -> str:
    """A card's face, as :func:`chronodice.render.moe.card_text` writes it."""
    c = g.card(cid)
    return f"{SUIT_SYMBOL[c.suit]}{rank_text(c.rank)}【{g.cdef(c.key).name}】"


__all__ = [
    "ASKED_ALWAYS",
    "CHOOSE_WHAT",
    "REPLY_NUMBERS",
    "REPLY_ZERO",
    "character_piles",
    "choose_cards_what",
    "play_card_prompt",
    "play_prompt",
    "range_note",
    "running_source",
    "seat_tag",
    "unplayable_reason",
]
