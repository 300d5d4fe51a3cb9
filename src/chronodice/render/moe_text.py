"""The small pieces of 萌E's Chinese text: a seat's label, a card's face, a skill's name.

Shared by the event lines (:mod:`.moe_events`), the state views and prompts (:mod:`.moe`) and
the digest (:mod:`.moe_digest`), so that each names a seat or a card the same way.
"""

from __future__ import annotations

from typing import Any

from chronodice.rules.moe.cards import SUIT_SYMBOL, rank_text
from chronodice.rules.moe.engine import Game

ATTR = {None: "", "元素": "元素", "光": "光", "暗": "暗"}
RESULTS = {
    "last_alive": "最后存活",
    "team": "阵营胜利",
    "faith": "信仰圣殿",
    "round_cap": "回合数达到上限，平局",
    "draw_empty_deck": "牌堆与弃牌堆均已耗尽，平局",
    "all_dead": "全员阵亡，平局",
    "aborted": "游戏被解散",
}


def seat_label(g: Game, seat: int | None, names: list[str]) -> str:
    if seat is None:
        return "（无来源）"
    p = g.p(seat)
    who = names[seat] if seat < len(names) else str(seat + 1)
    return f"{seat + 1}号{who}" + (f"({p.name})" if p.name else "")


def hp_shown(hp: int) -> int:
    """The 血量值 shown for 血量 ``hp`` (seed §4.4): a 血量 at 0 or below shows 0 (``-1/3`` read
    as nonsense to players; a dying character is said to be 濒死 anyway)."""
    return max(0, int(hp))


def card_text(g: Game, cid: int) -> str:
    c = g.card(cid)
    return f"{SUIT_SYMBOL[c.suit]}{rank_text(c.rank)}【{g.cdef(c.key).name}】"


def vcard_text(g: Game, vd: dict[str, Any]) -> str:
    name = g.cdef(vd["key"]).name
    if vd.get("suit"):
        return f"{SUIT_SYMBOL[vd['suit']]}{rank_text(vd.get('rank'))}【{name}】"
    return f"【{name}】"


def cards_text(g: Game, cids: list[int]) -> str:
    return "、".join(card_text(g, c) for c in cids) if cids else "（无）"


def skill_name(g: Game, key: str) -> str:
    return g.pack.skills[key].name if key in g.pack.skills else key
