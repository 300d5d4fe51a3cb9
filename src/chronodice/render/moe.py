"""Chinese text for 萌E: engine events, public state, private hands and request prompts.

Public text is built only from the public fields of an event; a seat's private text only from
``event["secret"][seat]`` and that seat's own zones — so hand contents, 奥秘 and private choices
can never reach the group through this module.
"""

from __future__ import annotations

from typing import Any

from chronodice.rules.moe.ai import is_ai_user
from chronodice.rules.moe.base import Ask
from chronodice.rules.moe.cards import SUIT_SYMBOL, rank_text
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.state import PHASE_NAMES

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
        line = _public_line(g, ev, names)
        if line:
            public.append(line)
        for seat_s, sec in (ev.get("secret") or {}).items():
            for text in _private_lines(g, ev, sec, names):
                private.setdefault(int(seat_s), []).append(text)
    return public, private


def _public_line(g: Game, ev: dict[str, Any], names: list[str]) -> str:
    t = ev["t"]
    L = lambda s: seat_label(g, s, names)  # noqa: E731
    if t == "map":
        m = g.pack.maps[ev["map"]]
        return f"地图机制牌：【{m.name}】{m.text}"
    if t == "start":
        return "游戏开始！座次：" + "，".join(L(s) for s, _c in ev["seats"])
    if t == "round":
        return f"—— 第{ev['round']}轮 ——"
    if t == "turn":
        return f"{L(ev['seat'])}的{'额外' if ev['extra'] else ''}回合"
    if t == "turn_skipped":
        return f"{L(ev['seat'])}跳过了此回合"
    if t == "phase":
        return f"{PHASE_NAMES[ev['phase']]}" if ev["phase"] == "play" else ""
    if t == "move":
        to, n = ev["to"], ev["n"]
        if to.startswith("hand:"):
            seat = int(to.split(":")[1])
            verb = {"draw": "摸了", "initial": "获得起始手牌", "fill": "补了"}.get(ev["reason"], "获得了")
            shown = ev.get("shown") or []  # face-up before (equipment, discard pile): public
            if shown and len(shown) == n:
                return f"{L(seat)}获得了{cards_text(g, shown)}"
            return f"{L(seat)}{verb}{n}张牌" + (f"，其中有{cards_text(g, shown)}" if shown else "")
        if to.startswith("equip:"):
            return f"{L(int(to.split(':')[1]))}装备了{cards_text(g, ev['cards'])}"
        if to.startswith("secret:"):
            return f"{L(int(to.split(':')[1]))}放置了一张奥秘"
        if to == "discard" and ev.get("cards"):
            who = L(ev["by"]) if ev.get("by") is not None else ""
            return f"{who}弃置了{cards_text(g, ev['cards'])}"
        if (
            to == "processing"
            and ev.get("cards")
            and ev["reason"] in ("discard", "cost", "discard_phase", "replace_equip")
        ):
            who = L(ev["by"]) if ev.get("by") is not None else ""
            when = "在弃牌阶段" if ev["reason"] == "discard_phase" else ""
            return f"{who}{when}弃置了{cards_text(g, ev['cards'])}"
        if to == "processing" and ev.get("cards") and ev["reason"] in ("judge", "reveal", "retrial"):
            return f"亮出了{cards_text(g, ev['cards'])}"
        if to == "processing" and ev.get("cards") and ev["reason"] in ("substitute", "replace"):
            how = "代替" if ev["reason"] == "substitute" else "替换"
            return f"{L(ev['by'])}打出{cards_text(g, ev['cards'])}{how}判定牌"
        if to.startswith("pile:") and ev.get("cards"):  # on the character card: face up (8.7)
            return f"{L(int(to.split(':')[1]))}将{cards_text(g, ev['cards'])}置于角色牌上（{to.split(':', 2)[2]}）"
        return ""
    if t == "use":
        card = vcard_text(g, ev["card"])
        if ev["targets"] == [ev["user"]] and g.cdef(ev["card"]["key"]).category == "equipment":
            return ""  # the move says it: X装备了Y (never "1号对1号使用了魔法杖")
        if ev["response"] or ev["targets"] == [ev["user"]]:  # a response, a card on oneself
            return f"{L(ev['user'])}使用了{card}"
        tg = "、".join(L(s) for s in ev["targets"])
        return f"{L(ev['user'])}{'对' + tg if tg else ''}使用了{card}"
    if t == "damage":
        p = g.p(ev["victim"])
        kind = f"{ev['n']}点{ATTR.get(ev['attribute'], '')}伤害（血量{hp_shown(ev['hp'])}/{p.max_hp}）"
        if ev["source"] is not None:
            return f"{L(ev['source'])}对{L(ev['victim'])}造成{kind}"
        return f"{L(ev['victim'])}受到{kind}"
    if t == "lose_hp":
        return f"{L(ev['who'])}流失了{ev['n']}点血量（血量{hp_shown(ev['hp'])}/{g.p(ev['who']).max_hp}）"
    if t == "recover":
        return f"{L(ev['who'])}回复了{ev['n']}点血量（血量{hp_shown(ev['hp'])}/{g.p(ev['who']).max_hp}）"
    if t == "max_hp":
        return f"{L(ev['who'])}的血量上限变为{ev['max_hp']}（血量{hp_shown(ev['hp'])}）"
    if t == "faith":
        return f"{L(ev['who'])}信仰值：{ev['faith']}/{g.p(ev['who']).max_faith}"
    if t == "dying":
        return f"{L(ev['who'])}进入濒死状态！可以对其使用【恢复】"
    if t == "death":
        k = f"，被{L(ev['killer'])}杀死" if ev["killer"] is not None else ""
        return f"{L(ev['who'])}阵亡{k}"
    if t == "reward":
        return f"{L(ev['killer'])}执行奖惩（{'误杀队友' if ev['ally'] else '击杀'}）"
    if t == "skill":
        tg = f"，目标{L(ev['target'])}" if ev.get("target") is not None else ""
        return f"{L(ev['who'])}发动了【{skill_name(g, ev['skill'])}】{tg}"
    if t == "secret_flip":
        return f"{L(ev['who'])}翻开了奥秘{card_text(g, ev['card'])}"
    if t == "judge":
        return f"{L(ev['who'])}的判定结果：{card_text(g, ev['card'])}"
    if t == "pindian":
        return f"拼点：{L(ev['a'])}{card_text(g, ev['ca'])} 对 {L(ev['b'])}{card_text(g, ev['cb'])}"
    if t == "pindian_result":
        if ev["winner"] is None:
            return f"拼点结果：{ev['ra']}点对{ev['rb']}点，平局（没有人赢）"
        return f"拼点结果：{ev['ra']}点对{ev['rb']}点，{L(ev['winner'])}赢"
    if t == "exchange":
        return f"{L(ev['a'])}与{L(ev['b'])}交换了{'手牌' if ev['zone'] == 'hand' else '装备'}"
    if t == "give":
        return f"{L(ev['by'])}交给{L(ev['to'])}{ev['n']}张牌"
    if t == "view":
        return f"{L(ev['by'])}观看了{ev['n']}张牌"
    if t == "play":
        return f"{L(ev['who'])}打出了{card_text(g, ev['card'])}"
    if t == "removed":
        return f"{L(ev['by'])}将{L(ev['of'])}的{cards_text(g, ev['cards'])}移出了游戏"
    if t == "transfer_target":
        return f"【{g.cdef(ev['card']).name}】的目标由{L(ev['old'])}改为{L(ev['new'])}"
    if t == "show":
        return f"{L(ev['by'])}展示了{cards_text(g, ev['cards'])}"
    if t == "prevented":
        return f"{L(ev['who'])}的防具防止了{ATTR.get(ev['attribute'], '')}伤害"
    if t == "transfer":
        return f"{L(ev['victim'])}将伤害转移给了{L(ev['to'])}"
    if t == "cancel_target":
        return f"{L(ev['who'])}不再是目标"
    if t == "change_user":
        return f"此牌的使用者改为{L(ev['who'])}"
    if t == "use_void":
        return "此牌没有目标，结算终止"
    if t == "skip_phases":
        return f"{L(ev['who'])}跳过了" + "、".join(PHASE_NAMES[p] for p in ev["phases"])
    if t == "extra_turn":
        return f"{L(ev['who'])}获得了一个额外的回合"
    if t == "as_if":
        return f"{L(ev['who'])}视为使用了【{g.cdef(ev['card']).name}】"
    if t == "reshuffle":
        return f"牌堆耗尽，弃牌堆洗混成为新牌堆（{ev['n']}张）"
    if t == "hand_shuffled":
        return f"{L(ev['who'])}的手牌已洗混"
    if t == "concede":
        why = "被房主或GM移出了对局（按投降处理）" if ev.get("kicked") else "投降了"
        return f"{L(ev['who'])}{why}"
    if t == "lose_all_skills":
        return f"{L(ev['who'])}失去了所有角色技能"
    if t == "game_over":
        who = "、".join(L(s) for s in ev["winners"])
        res = RESULTS.get(ev["result"], ev["result"])
        return f"游戏结束（{res}）！" + (f"胜利者：{who}" if who else "没有胜利者")
    return ""


def _private_lines(g: Game, ev: dict[str, Any], sec: dict[str, Any], names: list[str]) -> list[str]:
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
        auto = " [AI]" if is_ai_user(p.user) else " [托管]" if p.auto else ""
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
    the phone form (:func:`~.moe_phone.play_prompt`: the hand view only when ``full``)."""
    L = lambda s: seat_label(g, s, names)  # noqa: E731
    hand = g.hand(ask.seat)
    pos = numbers or {c: i + 1 for i, c in enumerate(hand)}
    k = ask.kind
    if k == "play" and numbers is not None:
        head = render_hand(g, ask.seat, names, numbers) if full else None
        return phone_play_prompt(g, ask, numbers, header=head)
    if k == "play":
        lines = [render_hand(g, ask.seat, names), "你的行动阶段，可以："]
        for o in ask.options:
            if o["a"] == "end":
                continue
            tg = ""
            if o["mode"] == "one":
                tg = " → 目标：" + "/".join(f"{s + 1}号" for s in o["targets"])
            if o["a"] == "card":
                as_ = f" 当【{g.cdef(o['as']).name}】" if o.get("as") else ""
                cmd = f".moe play {pos[o['card']]}{' 当' if o.get('as') else ''}"
                lines.append(f"  {cmd}  {card_text(g, o['card'])}{as_}{tg}")
            else:
                cost = f"（需弃置{o['cost_n']}张牌：加 弃 序号）" if o.get("cost_n") else ""
                lines.append(f"  .moe skill {skill_name(g, o['key'])}  发动技能{tg}{cost}")
        lines.append("  .moe end  结束出牌")
        lines.append("（序号也可写牌名，如 .moe play 攻击 2号；.moe card 序号 / .moe skill 技能名 查看说明）")
        return "\n".join(lines)
    if k == "respond" and ask.reason == "secret":
        return _secret_prompt(g, ask, names)
    if k == "respond" and ask.reason == "play_card":
        return play_card_prompt(g, ask, pos, L)
    if k == "respond":
        what = {"offset": "抵消", "rescue": "救援", "nullify": "反制"}.get(ask.reason, "响应")
        info = ask.info
        ctx = ""
        if "user" in info and "card" in info:
            ctx = f"{L(info['user'])}的【{g.cdef(info['card']).name}】"
            if info.get("target") is not None:
                ctx += f"（目标{L(info['target'])}）"
        if "dying" in info:
            ctx = f"{L(info['dying'])}濒死"
        if not ask.options:
            return f"{ctx}：你没有可用于{what}的牌。.moe pass 继续（{ASKED_ALWAYS}）"
        opts = "；".join(f".moe resp {pos[c]} {card_text(g, c)}" for c in ask.options)
        return f"{ctx}：你可以使用牌{what}：{opts}；或 .moe pass 不响应"
    if k == "invoke":
        if ask.reason == "talent":
            return (
                f"是否消耗{ask.info['pay']}点信仰补足天赋({ask.info['kind']})以获得加成？.moe yes / .moe no"
            )
        why = _why(g, ask, names)
        if ask.reason == "secret":
            return f"{why}是否翻开奥秘{card_text(g, ask.info['card'])}？.moe yes / .moe no"
        return f"{why}是否发动【{skill_name(g, ask.info['skill'])}】？.moe yes / .moe no"
    if k == "choose_cards":
        opts = "；".join(f"{pos.get(c, i + 1)}.{card_text(g, c)}" for i, c in enumerate(ask.options))
        n = f"{ask.lo}" if ask.lo == ask.hi else f"{ask.lo}~{ask.hi}"
        return f"{choose_cards_what(g, ask, L)}{n}张牌：{opts}\n{REPLY_NUMBERS}" + (
            f"（{REPLY_ZERO}）" if ask.optional else ""
        )
    if k == "choose_blind":
        owner = ask.info["owner"]
        parts = []
        for i, tok in enumerate(ask.options):
            if tok.startswith("h"):
                parts.append(f"{i + 1}.手牌（暗置）")
            elif tok.startswith("e"):
                parts.append(f"{i + 1}.{card_text(g, int(tok[1:]))}")
            else:
                parts.append(f"{i + 1}.奥秘（暗置）")
        return f"选择{L(owner)}的{ask.lo}张牌：" + "；".join(parts) + "\n直接回复序号回答"
    if k == "choose_players":
        return (
            "选择角色："
            + "、".join(seat_tag(g, ask.seat, s) for s in ask.options)
            + "\n直接回复座位号回答"
            + (f"（{REPLY_ZERO}）" if ask.optional else "")
        )
    if k == "choose_option":
        if ask.reason == "character":
            lines = ["请选择你的角色（直接回复序号）："]
            for i, key in enumerate(ask.options):
                cd = g.pack.characters[key]
                skills = " ".join(f"【{skill_name(g, s)}】{g.pack.skills[s].text}" for s in cd.skills)
                tal = " ".join(f"{k2}{v}" for k2, v in cd.talents.items())
                lines.append(f"{i + 1}. {cd.name} 血量{cd.max_hp} 信仰上限{cd.max_faith} {tal} {skills}")
            return "\n".join(lines)
        return (
            "选择一项：" + "；".join(f"{i + 1}.{o}" for i, o in enumerate(ask.options)) + "\n直接回复序号回答"
        )
    if k == "order":
        return (
            "选择先结算的效果："
            + "；".join(
                f"{i + 1}.【{skill_name(g, o) if o in g.pack.skills else g.cdef(o).name}】"
                for i, o in enumerate(ask.options)
            )
            + "\n直接回复序号回答"
        )
    if k == "arrange":
        return (
            "牌堆顶的牌（从上到下）："
            + "；".join(f"{i + 1}.{card_text(g, c)}" for i, c in enumerate(ask.options))
            + "\n直接回复新顺序回答（如 3 1 2）"
        )
    if k == "distribute":
        opts = "；".join(f"{pos[c]}.{card_text(g, c)}" for c in ask.options)
        return (
            f"可将至多{ask.hi}张手牌分配给其他角色：{opts}\n用 .moe give 2号:1,2 3号:3 回答，或回复 0 不分配"
        )
    return f"请求：{k}"
