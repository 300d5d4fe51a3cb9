"""Chinese text for 萌E: engine events, public state, private hands and request prompts.

The event lines live in :mod:`.moe_events`, the seat and card names in :mod:`.moe_text`.

Public text is built only from the public fields of an event; a seat's private text only from
``event["secret"][seat]`` and that seat's own zones — so hand contents, 奥秘 and private choices
can never reach the group through this module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chronodice.rules.moe.ai import is_ai_player
from chronodice.rules.moe.base import Ask
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.optout import covers
from chronodice.rules.moe.state import PHASE_NAMES

from .moe_events import private_lines, public_line
from .moe_info import describe_trigger
from .moe_phone import (
    ASKED_ALWAYS,
    REPLY_NUMBERS,
    REPLY_ZERO,
    character_piles,
    choose_cards_what,
    play_card_prompt,
    seat_tag,
)
from .moe_phone import play_prompt as phone_play_prompt
from .moe_text import card_text, cards_text, seat_label, skill_name

# ====================================================================== events
MAX_PUBLIC_CHARS = 1400


def fit_lines(lines: list[str], limit: int = MAX_PUBLIC_CHARS) -> str:
    """Join lines; when too long, keep the newest lines (the result is always at the end).

    >>> print(fit_lines(["a" * 10, "b" * 10, "c" * 10, "d" * 5], limit=35))
    ……（略去前3条）
    ddddd
    """
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > limit - 20:
            break
        kept.append(line)
        size += len(line) + 1
    kept.reverse()
    return f"……（略去前{len(lines) - len(kept)}条）\n" + "\n".join(kept)


def render_events(
    g: Game, events: list[dict[str, Any]], names: list[str]
) -> tuple[list[str], dict[int, list[str]]]:
    """(public lines, private lines per seat)."""
    public: list[str] = []
    private: dict[int, list[str]] = {}
    for ev in events:
        line = public_line(g, ev, names)
        if line:
            public.append(line)
        for seat_s, sec in (ev.get("secret") or {}).items():
            for text in private_lines(g, ev, sec, names):
                private.setdefault(int(seat_s), []).append(text)
    return public, private


# ====================================================================== state views
def render_public_state(g: Game, names: list[str]) -> str:
    st = g.state
    m = g.pack.maps.get(st.map)
    lines = [
        f"萌E · {m.name if m else '未揭示地图'} · 第{st.round}轮 · 牌堆{len(g.zone('deck'))}张 弃牌堆{len(g.zone('discard'))}张"
    ]
    for p in st.players:
        mark = "▶" if st.turn.seat == p.seat and p.alive else " "
        if not p.alive:
            lines.append(f"{mark}{seat_label(g, p.seat, names)} 已阵亡")
            continue
        if not p.character:  # still choosing: no numbers to show yet
            lines.append(f"{mark}{seat_label(g, p.seat, names)} 选择角色中")
            continue
        equip = "、".join(card_text(g, c) for c in g.equip(p.seat)) or "无装备"
        extra = f" 奥秘×{len(g.secrets(p.seat))}" if g.secrets(p.seat) else ""
        piles = character_piles(g, p.seat)
        extra += f" 角色牌上：{piles}" if piles else ""
        team = f" 队伍{p.team + 1}" if p.team >= 0 else ""
        auto = " [AI]" if is_ai_player(p) else " [托管]" if p.auto else ""
        lines.append(
            f"{mark}{seat_label(g, p.seat, names)} 血量{p.hp_value}/{p.max_hp} 信仰{p.faith}/{p.max_faith} "
            f"手牌{len(g.hand(p.seat))} {equip}{extra}{team}{auto}"
        )
    if st.turn.phase:
        lines.append(f"当前：{seat_label(g, st.turn.seat, names)}的{PHASE_NAMES[st.turn.phase]}")
    return "\n".join(lines)


def render_hand(g: Game, seat: int, names: list[str], numbers: dict[int, int] | None = None) -> str:
    """The seat's private view: hand (numbered: ``numbers`` card id → number, else in order),
    equipment, 奥秘, skills, talents and teammates.  Before the seat chose its character there
    are no numbers to show yet."""
    p = g.p(seat)
    if not p.character:
        return f"你是{seat + 1}号{names[seat] if seat < len(names) else ''}，还没有选择角色"
    lines = [
        f"你是{seat_label(g, seat, names)}：血量{p.hp_value}/{p.max_hp} 信仰{p.faith}/{p.max_faith} 手牌上限{g.hand_limit(seat)}"
    ]
    tal = " ".join(f"{k}{v}" for k, v in p.talents.items())
    if tal:
        lines.append(f"天赋：{tal}")
    if p.skills:
        lines.append("技能：" + "、".join(f"【{skill_name(g, s.key)}】" for s in p.skills))
    mates = [q.seat for q in g.state.players if q.seat != seat and p.team >= 0 and q.team == p.team]
    if mates:
        lines.append("队友：" + "、".join(seat_label(g, s, names) for s in mates))
    hand = g.hand(seat)
    num = numbers or {c: i + 1 for i, c in enumerate(hand)}
    hand = sorted(hand, key=lambda c: num.get(c, 999))
    lines.append(
        "手牌：" + ("；".join(f"{num.get(c, 0)}.{card_text(g, c)}" for c in hand) if hand else "（无）")
    )
    if g.equip(seat):
        lines.append("装备：" + cards_text(g, g.equip(seat)))
    if g.secrets(seat):
        lines.append("奥秘：" + cards_text(g, g.secrets(seat)))
    return "\n".join(lines)


# ====================================================================== prompts
def _why(g: Game, ask: Ask, names: list[str]) -> str:
    """What triggered an optional effect, as the start of its prompt (``…，``)."""
    info = ask.info.get("trigger")
    if not isinstance(info, dict):
        return ""
    text = describe_trigger(g.pack, info, ask.seat, lambda s: seat_label(g, s, names))
    return f"{text}，" if text else ""


def ask_class(ask: Ask) -> str:
    if ask.kind == "play":
        return "play"
    if ask.kind in ("respond", "invoke"):
        return "respond"
    return "choice"


def public_prompt(g: Game, ask: Ask, names: list[str]) -> str:
    """What the group sees while a request is open: never which card or option is asked for."""
    if ask.kind == "play":
        return f"轮到{seat_label(g, ask.seat, names)}出牌（请私聊骰娘出牌）"
    if ask.kind == "respond":
        return "等待响应……"  # neither who may answer nor with what (a 奥秘 stays a secret)
    if ask.reason == "character":
        return f"等待{seat_label(g, ask.seat, names)}私聊选择角色"
    return f"等待{seat_label(g, ask.seat, names)}做出选择"


def _secret_prompt(g: Game, ask: Ask, names: list[str]) -> str:
    """A 奥秘 pause: the 奥秘 that may be flipped now, or none (asked all the same)."""
    why = _why(g, ask, names)
    if not ask.options:
        return f"{why}你的奥秘此时都不能翻开。.moe pass 继续（{ASKED_ALWAYS}）"
    if len(ask.options) == 1:
        return f"{why}是否翻开奥秘{card_text(g, ask.options[0])}？.moe yes / .moe no"
    opts = "；".join(f".moe resp {i + 1} {card_text(g, c)}" for i, c in enumerate(ask.options))
    return f"{why}可以翻开一张奥秘：{opts}；或 .moe pass 不翻开"


def private_prompt(
    g: Game, ask: Ask, names: list[str], numbers: dict[int, int] | None = None, *, full: bool = True
) -> str:
    """The full request, sent only to the seat it is for.  ``numbers``: the seat's hand numbers
    (card id → number, :mod:`chronodice.services.moe.numbers`); with them the play prompt is
    the phone form (:func:`~.moe_phone.play_prompt`: the hand view only when ``full``).  Each
    kind of request has its own small function (:data:`PROMPTS`)."""
    if ask.kind == "play" and numbers is not None:
        head = render_hand(g, ask.seat, names, numbers) if full else None
        return phone_play_prompt(g, ask, numbers, header=head)
    fn = PROMPTS.get(ask.kind)
    if fn is None:
        return f"请求：{ask.kind}"
    pos = numbers or {c: i + 1 for i, c in enumerate(g.hand(ask.seat))}
    return fn(Prompting(g, ask, names, pos))


@dataclass(frozen=True)
class Prompting:
    """What a prompt is written from: the game, the request, the seats' names and the hand's numbers."""

    g: Game
    ask: Ask
    names: list[str]
    pos: dict[int, int]

    def label(self, seat: int | None) -> str:
        return seat_label(self.g, seat, self.names)


def _play_option(g: Game, o: dict[str, Any], pos: dict[int, int]) -> str:
    """One line of the plain play prompt: a card to play or a skill to use, with its targets."""
    tg = " → 目标：" + "/".join(f"{s + 1}号" for s in o["targets"]) if o["mode"] == "one" else ""
    if o["a"] == "card":
        as_ = f" 当【{g.cdef(o['as']).name}】" if o.get("as") else ""
        cmd = f".moe play {pos[o['card']]}{' 当' if o.get('as') else ''}"
        return f"  {cmd}  {card_text(g, o['card'])}{as_}{tg}"
    cost = f"（需弃置{o['cost_n']}张牌：加 弃 序号）" if o.get("cost_n") else ""
    return f"  .moe skill {skill_name(g, o['key'])}  发动技能{tg}{cost}"


def _play_prompt(p: Prompting) -> str:
    """The plain play prompt (without hand numbers): the hand, then every option."""
    g, ask = p.g, p.ask
    lines = [render_hand(g, ask.seat, p.names), "你的行动阶段，可以："]
    lines += [_play_option(g, o, p.pos) for o in ask.options if o["a"] != "end"]
    lines.append("  .moe end  结束出牌")
    lines.append("（序号也可写牌名，如 .moe play 攻击 2号；.moe card 序号 / .moe skill 技能名 查看说明）")
    return "\n".join(lines)


def _respond_context(p: Prompting) -> str:
    """What a response answers: a card used (and at whom), or a seat dying."""
    info, L = p.ask.info, p.label
    ctx = ""
    if "user" in info and "card" in info:
        ctx = f"{L(info['user'])}的【{p.g.cdef(info['card']).name}】"
        if info.get("target") is not None:
            ctx += f"（目标{L(info['target'])}）"
    if "dying" in info:
        ctx = f"{L(info['dying'])}濒死"
    return ctx


def _respond_prompt(p: Prompting) -> str:
    g, ask = p.g, p.ask
    if ask.reason == "secret":
        return _secret_prompt(g, ask, p.names)
    if ask.reason == "play_card":
        return play_card_prompt(g, ask, p.pos, p.label)
    what = {"offset": "抵消", "rescue": "救援", "nullify": "反制"}.get(ask.reason, "响应")
    ctx = _respond_context(p)
    tail = f"\n{NO_ASK_HINT}" if covers(g, ask, ask.seat) else ""
    if not ask.options:
        return f"{ctx}：你没有可用于{what}的牌。.moe pass 继续（{ASKED_ALWAYS}）{tail}"
    opts = "；".join(f".moe resp {p.pos[c]} {card_text(g, c)}" for c in ask.options)
    return f"{ctx}：你可以使用牌{what}：{opts}；或 .moe pass 不响应{tail}"


NO_ASK_HINT = "不想再被问反制/恢复：回复 0 1 本回合免问，0 2 本局免问（.moe 免问 关 恢复询问）"
"""Said in every 反制/救援 window an opt-out covers, holding a card or not (:mod:`~chronodice.rules.moe.optout`)."""


def _invoke_prompt(p: Prompting) -> str:
    g, ask = p.g, p.ask
    if ask.reason == "talent":
        return f"是否消耗{ask.info['pay']}点信仰补足天赋({ask.info['kind']})以获得加成？.moe yes / .moe no"
    why = _why(g, ask, p.names)
    if ask.reason == "secret":
        return f"{why}是否翻开奥秘{card_text(g, ask.info['card'])}？.moe yes / .moe no"
    return f"{why}是否发动【{skill_name(g, ask.info['skill'])}】？.moe yes / .moe no"


def _choose_cards_prompt(p: Prompting) -> str:
    g, ask = p.g, p.ask
    opts = "；".join(f"{p.pos.get(c, i + 1)}.{card_text(g, c)}" for i, c in enumerate(ask.options))
    n = f"{ask.lo}" if ask.lo == ask.hi else f"{ask.lo}~{ask.hi}"
    return f"{choose_cards_what(g, ask, p.label)}{n}张牌：{opts}\n{REPLY_NUMBERS}" + (
        f"（{REPLY_ZERO}）" if ask.optional else ""
    )


def _blind_token(g: Game, i: int, tok: str) -> str:
    """One card chosen blind: a hand card or a 奥秘 stays face down, equipment shows."""
    if tok.startswith("h"):
        return f"{i + 1}.手牌（暗置）"
    if tok.startswith("e"):
        return f"{i + 1}.{card_text(g, int(tok[1:]))}"
    return f"{i + 1}.奥秘（暗置）"


def _choose_blind_prompt(p: Prompting) -> str:
    ask = p.ask
    parts = [_blind_token(p.g, i, tok) for i, tok in enumerate(ask.options)]
    return f"选择{p.label(ask.info['owner'])}的{ask.lo}张牌：" + "；".join(parts) + "\n直接回复序号回答"


def _choose_players_prompt(p: Prompting) -> str:
    ask = p.ask
    return (
        "选择角色："
        + "、".join(seat_tag(p.g, ask.seat, s) for s in ask.options)
        + "\n直接回复座位号回答"
        + (f"（{REPLY_ZERO}）" if ask.optional else "")
    )


def _character_prompt(g: Game, ask: Ask) -> str:
    """The characters to choose from, each with its numbers, talents and skills."""
    lines = ["请选择你的角色（直接回复序号）："]
    for i, key in enumerate(ask.options):
        cd = g.pack.characters[key]
        skills = " ".join(f"【{skill_name(g, s)}】{g.pack.skills[s].text}" for s in cd.skills)
        tal = " ".join(f"{k2}{v}" for k2, v in cd.talents.items())
        lines.append(f"{i + 1}. {cd.name} 血量{cd.max_hp} 信仰上限{cd.max_faith} {tal} {skills}")
    return "\n".join(lines)


def _choose_option_prompt(p: Prompting) -> str:
    ask = p.ask
    if ask.reason == "character":
        return _character_prompt(p.g, ask)
    return "选择一项：" + "；".join(f"{i + 1}.{o}" for i, o in enumerate(ask.options)) + "\n直接回复序号回答"


def _order_prompt(p: Prompting) -> str:
    g = p.g
    return (
        "选择先结算的效果："
        + "；".join(
            f"{i + 1}.【{skill_name(g, o) if o in g.pack.skills else g.cdef(o).name}】"
            for i, o in enumerate(p.ask.options)
        )
        + "\n直接回复序号回答"
    )


def _arrange_prompt(p: Prompting) -> str:
    return (
        "牌堆顶的牌（从上到下）："
        + "；".join(f"{i + 1}.{card_text(p.g, c)}" for i, c in enumerate(p.ask.options))
        + "\n直接回复新顺序回答（如 3 1 2）"
    )


def _distribute_prompt(p: Prompting) -> str:
    opts = "；".join(f"{p.pos[c]}.{card_text(p.g, c)}" for c in p.ask.options)
    return f"可将至多{p.ask.hi}张手牌分配给其他角色：{opts}\n用 .moe give 2号:1,2 3号:3 回答，或回复 0 不分配"


PROMPTS: dict[str, Callable[[Prompting], str]] = {
    "play": _play_prompt,
    "respond": _respond_prompt,
    "invoke": _invoke_prompt,
    "choose_cards": _choose_cards_prompt,
    "choose_blind": _choose_blind_prompt,
    "choose_players": _choose_players_prompt,
    "choose_option": _choose_option_prompt,
    "order": _order_prompt,
    "arrange": _arrange_prompt,
    "distribute": _distribute_prompt,
}
"""Request kind → its private prompt (the phone play prompt is chosen before this table)."""
