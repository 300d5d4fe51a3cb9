"""萌E's engine events as Chinese lines: one public line per event, private lines per seat.

Public text is built only from the public fields of an event; a seat's private text only from
``event["secret"][seat]`` — so hand contents, 奥秘 and private choices never reach the group
through this module. The public lines are a table from event kind (``ev["t"]``) to a small
function (issue 43, "tables, not chains"): a kind missing from the table says nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.state import PHASE_NAMES

from .moe_text import ATTR, RESULTS, card_text, cards_text, hp_shown, seat_label, skill_name, vcard_text

Event = dict[str, Any]
Label = Callable[[int | None], str]
LineFn = Callable[[Game, Event, Label], str]


def public_line(g: Game, ev: Event, names: list[str]) -> str:
    """The group's line for one event ("" when the group is told nothing of it)."""
    fn = PUBLIC_LINES.get(ev["t"])
    return fn(g, ev, lambda s: seat_label(g, s, names)) if fn else ""


# ---------------------------------------------------------------------- cards moving
def _move_to_hand(g: Game, ev: Event, L: Label) -> str:
    """Cards into a hand: how many, and those that were face up before (equipment, discard)."""
    seat, n = int(ev["to"].split(":")[1]), ev["n"]
    verb = {"draw": "摸了", "initial": "获得起始手牌", "fill": "补了"}.get(ev["reason"], "获得了")
    shown = ev.get("shown") or []
    if shown and len(shown) == n:
        return f"{L(seat)}获得了{cards_text(g, shown)}"
    return f"{L(seat)}{verb}{n}张牌" + (f"，其中有{cards_text(g, shown)}" if shown else "")


def _by(ev: Event, L: Label) -> str:
    return L(ev["by"]) if ev.get("by") is not None else ""


def _move_to_processing(g: Game, ev: Event, L: Label) -> str:
    """Cards into the processing zone: discarded, revealed, or played over a judgement."""
    reason, cards = ev["reason"], cards_text(g, ev["cards"])
    if reason in ("discard", "cost", "discard_phase", "replace_equip"):
        when = "在弃牌阶段" if reason == "discard_phase" else ""
        return f"{_by(ev, L)}{when}弃置了{cards}"
    if reason in ("judge", "reveal", "retrial"):
        return f"亮出了{cards}"
    if reason in ("substitute", "replace"):
        how = "代替" if reason == "substitute" else "替换"
        return f"{L(ev['by'])}打出{cards}{how}判定牌"
    return ""


def _move_line(g: Game, ev: Event, L: Label) -> str:
    """A move between zones, said only where the cards (or their number) are public."""
    to = ev["to"]
    if to.startswith("hand:"):
        return _move_to_hand(g, ev, L)
    if to.startswith("equip:"):
        return f"{L(int(to.split(':')[1]))}装备了{cards_text(g, ev['cards'])}"
    if to.startswith("secret:"):
        return f"{L(int(to.split(':')[1]))}放置了一张奥秘"
    if not ev.get("cards"):
        return ""
    if to == "discard":
        return f"{_by(ev, L)}弃置了{cards_text(g, ev['cards'])}"
    if to == "processing":
        return _move_to_processing(g, ev, L)
    if to.startswith("pile:"):  # on the character card: face up (8.7)
        return (
            f"{L(int(to.split(':')[1]))}将{cards_text(g, ev['cards'])}置于角色牌上（{to.split(':', 2)[2]}）"
        )
    return ""


def _use_line(g: Game, ev: Event, L: Label) -> str:
    card = vcard_text(g, ev["card"])
    if ev["targets"] == [ev["user"]] and g.cdef(ev["card"]["key"]).category == "equipment":
        return ""  # the move says it: X装备了Y (never "1号对1号使用了魔法杖")
    if ev["response"] or ev["targets"] == [ev["user"]]:  # a response, a card on oneself
        return f"{L(ev['user'])}使用了{card}"
    tg = "、".join(L(s) for s in ev["targets"])
    return f"{L(ev['user'])}{'对' + tg if tg else ''}使用了{card}"


# ---------------------------------------------------------------------- 血量 and fate
def _damage_line(g: Game, ev: Event, L: Label) -> str:
    p = g.p(ev["victim"])
    kind = f"{ev['n']}点{ATTR.get(ev['attribute'], '')}伤害（血量{hp_shown(ev['hp'])}/{p.max_hp}）"
    if ev["source"] is not None:
        return f"{L(ev['source'])}对{L(ev['victim'])}造成{kind}"
    return f"{L(ev['victim'])}受到{kind}"


def _hp_change(verb: str) -> LineFn:
    """A line for losing or recovering 血量: who, how much, and the 血量 after."""
    return lambda g, ev, L: (
        f"{L(ev['who'])}{verb}{ev['n']}点血量（血量{hp_shown(ev['hp'])}/{g.p(ev['who']).max_hp}）"
    )


def _death_line(g: Game, ev: Event, L: Label) -> str:
    k = f"，被{L(ev['killer'])}杀死" if ev["killer"] is not None else ""
    return f"{L(ev['who'])}阵亡{k}"


def _skill_line(g: Game, ev: Event, L: Label) -> str:
    tg = f"，目标{L(ev['target'])}" if ev.get("target") is not None else ""
    return f"{L(ev['who'])}发动了【{skill_name(g, ev['skill'])}】{tg}"


def _pindian_result(g: Game, ev: Event, L: Label) -> str:
    if ev["winner"] is None:
        return f"拼点结果：{ev['ra']}点对{ev['rb']}点，平局（没有人赢）"
    return f"拼点结果：{ev['ra']}点对{ev['rb']}点，{L(ev['winner'])}赢"


def _concede_line(g: Game, ev: Event, L: Label) -> str:
    why = "被房主或GM移出了对局（按投降处理）" if ev.get("kicked") else "投降了"
    return f"{L(ev['who'])}{why}"


def _game_over(g: Game, ev: Event, L: Label) -> str:
    who = "、".join(L(s) for s in ev["winners"])
    res = RESULTS.get(ev["result"], ev["result"])
    return f"游戏结束（{res}）！" + (f"胜利者：{who}" if who else "没有胜利者")


def _map_line(g: Game, ev: Event, L: Label) -> str:
    m = g.pack.maps[ev["map"]]
    return f"地图机制牌：【{m.name}】{m.text}"


PUBLIC_LINES: dict[str, LineFn] = {
    "map": _map_line,
    "start": lambda g, ev, L: "游戏开始！座次：" + "，".join(L(s) for s, _c in ev["seats"]),
    "round": lambda g, ev, L: f"—— 第{ev['round']}轮 ——",
    "turn": lambda g, ev, L: f"{L(ev['seat'])}的{'额外' if ev['extra'] else ''}回合",
    "turn_skipped": lambda g, ev, L: f"{L(ev['seat'])}跳过了此回合",
    "phase": lambda g, ev, L: f"{PHASE_NAMES[ev['phase']]}" if ev["phase"] == "play" else "",
    "move": _move_line,
    "use": _use_line,
    "damage": _damage_line,
    "lose_hp": _hp_change("流失了"),
    "recover": _hp_change("回复了"),
    "max_hp": lambda g, ev, L: f"{L(ev['who'])}的血量上限变为{ev['max_hp']}（血量{hp_shown(ev['hp'])}）",
    "faith": lambda g, ev, L: f"{L(ev['who'])}信仰值：{ev['faith']}/{g.p(ev['who']).max_faith}",
    "dying": lambda g, ev, L: f"{L(ev['who'])}进入濒死状态！可以对其使用【恢复】",
    "death": _death_line,
    "reward": lambda g, ev, L: f"{L(ev['killer'])}执行奖惩（{'误杀队友' if ev['ally'] else '击杀'}）",
    "skill": _skill_line,
    "secret_flip": lambda g, ev, L: f"{L(ev['who'])}翻开了奥秘{card_text(g, ev['card'])}",
    "judge": lambda g, ev, L: f"{L(ev['who'])}的判定结果：{card_text(g, ev['card'])}",
    "pindian": lambda g, ev, L: (
        f"拼点：{L(ev['a'])}{card_text(g, ev['ca'])} 对 {L(ev['b'])}{card_text(g, ev['cb'])}"
    ),
    "pindian_result": _pindian_result,
    "exchange": lambda g, ev, L: (
        f"{L(ev['a'])}与{L(ev['b'])}交换了{'手牌' if ev['zone'] == 'hand' else '装备'}"
    ),
    "give": lambda g, ev, L: f"{L(ev['by'])}交给{L(ev['to'])}{ev['n']}张牌",
    "view": lambda g, ev, L: f"{L(ev['by'])}观看了{ev['n']}张牌",
    "play": lambda g, ev, L: f"{L(ev['who'])}打出了{card_text(g, ev['card'])}",
    "removed": lambda g, ev, L: f"{L(ev['by'])}将{L(ev['of'])}的{cards_text(g, ev['cards'])}移出了游戏",
    "transfer_target": lambda g, ev, L: (
        f"【{g.cdef(ev['card']).name}】的目标由{L(ev['old'])}改为{L(ev['new'])}"
    ),
    "show": lambda g, ev, L: f"{L(ev['by'])}展示了{cards_text(g, ev['cards'])}",
    "prevented": lambda g, ev, L: f"{L(ev['who'])}的防具防止了{ATTR.get(ev['attribute'], '')}伤害",
    "transfer": lambda g, ev, L: f"{L(ev['victim'])}将伤害转移给了{L(ev['to'])}",
    "cancel_target": lambda g, ev, L: f"{L(ev['who'])}不再是目标",
    "change_user": lambda g, ev, L: f"此牌的使用者改为{L(ev['who'])}",
    "use_void": lambda g, ev, L: "此牌没有目标，结算终止",
    "skip_phases": lambda g, ev, L: f"{L(ev['who'])}跳过了" + "、".join(PHASE_NAMES[p] for p in ev["phases"]),
    "extra_turn": lambda g, ev, L: f"{L(ev['who'])}获得了一个额外的回合",
    "as_if": lambda g, ev, L: f"{L(ev['who'])}视为使用了【{g.cdef(ev['card']).name}】",
    "reshuffle": lambda g, ev, L: f"牌堆耗尽，弃牌堆洗混成为新牌堆（{ev['n']}张）",
    "hand_shuffled": lambda g, ev, L: f"{L(ev['who'])}的手牌已洗混",
    "concede": _concede_line,
    "to_ai": lambda g, ev, L: f"{L(ev['who'])}将座位交给了AI，由AI代为出牌至本局结束",
    "lose_all_skills": lambda g, ev, L: f"{L(ev['who'])}失去了所有角色技能",
    "game_over": _game_over,
}
"""Event kind → the group's line for it."""


# ---------------------------------------------------------------------- private lines
def private_lines(g: Game, ev: dict[str, Any], sec: dict[str, Any], names: list[str]) -> list[str]:
    """A seat's private lines for one event: what it got, placed, saw or lost."""
    out: list[str] = []
    cards = sec.get("cards") or []
    t = ev["t"]
    if t in ("move", "give", "exchange") and cards:
        if t == "move" and str(ev.get("to", "")).startswith("secret:"):
            out.append(f"你放置了奥秘：{cards_text(g, cards)}（其他人只知道你放置了一张奥秘）")
        else:
            out.append(f"你获得了：{cards_text(g, cards)}")
    elif t == "view" and cards:
        out.append(f"你观看了：{cards_text(g, cards)}")
    elif t == "hand_shuffled" and cards:
        by = seat_label(g, ev["by"], names)
        order = "；".join(f"{i + 1}.{card_text(g, c)}" for i, c in enumerate(cards))
        out.append(f"{by}要从你的手牌中盲选，你的手牌已洗混，新顺序：{order}")
    lost = sec.get("lost") or []
    if t == "move" and lost:
        by = seat_label(g, ev["by"], names)
        to = str(ev.get("to", ""))
        verb = (
            "获得了" if to.startswith("hand:") else "弃置了" if to in ("processing", "discard") else "移走了"
        )
        out.append(f"{by}{verb}你的{cards_text(g, lost)}")
    return out
