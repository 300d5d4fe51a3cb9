"""AP (002 BASE rule): spending with the action-kind rules, GM set, 全力动作 (total actions)."""

from __future__ import annotations

from chronodice.core.errors import IllegalAction, InputSyntaxError

from ..model import Combat, Combatant, Phase, TotalAction
from ._base import MAX_NAME
from .loop import Engine, require_phase, transition


def _require_ap(eng: Engine) -> None:
    if not eng.rules.has_ap:
        raise IllegalAction("速度规则（004）没有AP")


def _check_cost(c: Combatant, cost: int) -> None:
    if cost <= 0:
        return
    if c.ap <= 0:
        raise IllegalAction(f"{c.shown} 的AP为{c.ap}（≤0），不能使用消耗AP的动作")
    if c.ap - cost < -c.ap_max:
        raise IllegalAction(f"AP不足：{c.ap}−{cost} 会低于下限 −{c.ap_max}")


ACTION_KINDS = {"SA": "主要", "MA": "次要", "RA": "即时", "FA": "自由"}


@transition
def spend_ap(eng: Engine, cid: str, cost: int, kind: str = "SA", label: str = "") -> None:
    """Use an action that costs ``cost`` AP, with the 002 AP rules checked."""
    spend(eng, cid, cost, kind, label)


def spend(eng: Engine, cid: str, cost: int, kind: str = "SA", label: str = "") -> None:
    """:func:`spend_ap`'s body, for transitions that spend AP as one of their steps."""
    _require_ap(eng)
    st = eng.st
    require_phase(st, Phase.ACTIVE)
    c = st.get(cid)
    if kind not in ACTION_KINDS:
        raise InputSyntaxError("动作类型：SA/MA/RA/FA（主要/次要/即时/自由）")
    if not 0 <= cost <= 99:
        raise InputSyntaxError("AP消耗应在0~99之间")
    own_turn = st.current == c.id and not st.waiting
    if kind in ("SA", "MA") and not own_turn:
        raise IllegalAction(f"{ACTION_KINDS[kind]}动作只能在自己的回合内使用")
    if kind == "SA" and cost < 1:
        raise InputSyntaxError("主要动作至少消耗1点AP")
    if kind == "MA" and c.ma_used:
        raise IllegalAction("本回合已经用过次要动作")
    if kind == "RA" and c.ra_used:
        raise IllegalAction("用过即时动作后，要到下个回合开始才能再用")
    _check_cost(c, cost)
    if c.ta is not None and kind in ("SA", "MA"):
        eng.emit("ta_broken", cid=c.id, ta=c.ta.name, paid=c.ta.paid, total=c.ta.total)
        c.ta = None
    c.ap -= cost
    if kind == "MA":
        c.ma_used = True
    if kind == "RA":
        c.ra_used = True
    if own_turn:
        c.busy = True
    eng.emit("ap_spend", cid=c.id, cost=cost, kind=kind, label=label[:20], ap=c.ap)


ATTACK_AP = 2
"""AP an attack (``.atk``) costs unless written (``ap1``).  Seed 002 prices no attack: an attack is
an action with the `攻击` tag, and "使用大部分的主要动作都需要消耗AP…最低只能被降至1"; the AP of
each action is the ability's.  2 is what the bot's guides and players have written for a plain
attack (``.ap -2 攻击``): with the base AP上限 3, one attack and a 1-AP action a turn."""
ATTACK_WORD = "攻击"


def prepaid_attack(st: Combat, cid: str) -> int | None:
    """AP ``cid`` already paid for an attack in her turn in progress (``.ap -2 攻击``, a 主要动作
    whose reason says 攻击) that no ``.atk`` has used since: its cost, else None.

    Reading (the no-double-charge rule): a player who types ``.ap -2 攻击`` and then ``.atk`` made
    one attack, so ``.atk`` takes the AP already paid instead of charging again — the AP paid is
    the attack's, whatever the amount.  Only within the same turn (her ``turn`` event ends the
    search) and once: the ``attack_ap`` event of an ``.atk`` uses it up.  Read from the combat's
    log, which holds the events of the turn in progress."""
    if st.current != cid or st.waiting:
        return None
    for ev in reversed(st.log):
        d = ev.data
        if d.get("cid") != cid:
            continue
        if ev.kind in ("turn", "attack_ap"):
            return None
        if ev.kind == "ap_spend" and d.get("kind") == "SA" and ATTACK_WORD in str(d.get("label", "")):
            return int(d.get("cost") or 0)
    return None


@transition
def attack_ap(eng: Engine, cid: str, cost: int = ATTACK_AP) -> None:
    """The AP of one attack (``.atk``): a 主要动作 of ``cost`` AP in her own turn, with the 002 AP
    rules (:func:`spend`), or the AP she paid for it just before (:func:`prepaid_attack`)."""
    _require_ap(eng)
    c = eng.st.get(cid)
    paid = prepaid_attack(eng.st, cid)
    if paid is None:
        spend(eng, cid, cost, "SA", ATTACK_WORD)
    c.busy = True
    eng.emit("attack_ap", cid=cid, cost=cost if paid is None else paid, prepaid=paid is not None, ap=c.ap)


@transition
def set_ap(eng: Engine, cid: str, *, value: int | None = None, delta: int | None = None) -> None:
    """GM tool: set (``value``) or shift (``delta``) AP, kept within [−cap, cap]."""
    _require_ap(eng)
    c = eng.st.get(cid)
    new = value if value is not None else c.ap + (delta or 0)
    c.ap = max(-c.ap_max, min(c.ap_max, new))
    eng.emit("ap_set", cid=c.id, ap=c.ap)


def _pay(c: Combatant, amount: int) -> None:
    if amount < 1:
        raise InputSyntaxError("全力动作每回合至少支付1点AP")
    if c.ap <= 0:
        raise IllegalAction(f"{c.shown} 的AP为{c.ap}（≤0），无法支付")
    if c.ap - amount < 0:
        raise IllegalAction(f"自选的支付量不能使AP低于0（现有{c.ap}）")


def _done_if_paid(eng: Engine, c: Combatant) -> None:
    if c.ta is not None and c.ta.paid >= c.ta.total:
        eng.emit("ta_done", cid=c.id, ta=c.ta.name)
        c.ta = None


@transition
def start_ta(eng: Engine, cid: str, name: str, total: int, pay: int | None = None) -> None:
    """Begin a 全力动作 of ``total`` AP, paying ``pay`` now (default: all AP or the rest)."""
    _require_ap(eng)
    st = eng.st
    c = st.get(cid)
    if st.current != c.id:
        raise IllegalAction("全力动作只能在自己的回合内开始")
    if c.ta is not None:
        raise IllegalAction(f"{c.shown} 已有进行中的全力动作「{c.ta.name}」")
    if not 1 <= total <= 99:
        raise InputSyntaxError("全力动作的总消耗应在1~99之间")
    pay = pay if pay is not None else min(max(c.ap, 0), total)
    _pay(c, pay)
    pay = min(pay, total)
    c.ap -= pay
    c.busy = True
    c.ta = TotalAction(name=name[:MAX_NAME] or "全力动作", total=total, paid=pay, paid_this_turn=pay)
    eng.emit("ta_start", cid=c.id, ta=c.ta.name, paid=pay, total=total, ap=c.ap)
    _done_if_paid(eng, c)


@transition
def pay_ta(eng: Engine, cid: str, amount: int | None = None) -> None:
    """Pay towards the running 全力动作 during an own turn."""
    _require_ap(eng)
    st = eng.st
    c = st.get(cid)
    if c.ta is None:
        raise IllegalAction(f"{c.shown} 没有进行中的全力动作")
    if st.current != c.id:
        raise IllegalAction("全力动作只能在自己的回合内支付")
    rest = c.ta.total - c.ta.paid
    amount = amount if amount is not None else min(max(c.ap, 0), rest)
    _pay(c, amount)
    amount = min(amount, rest)
    c.ap -= amount
    c.busy = True
    c.ta.paid += amount
    c.ta.paid_this_turn += amount
    eng.emit("ta_pay", cid=c.id, ta=c.ta.name, paid=c.ta.paid, total=c.ta.total, ap=c.ap)
    _done_if_paid(eng, c)


# --------------------------------------------------------------------------- 004 actions
MAX_ACTIONS = 5


@transition
def set_actions(eng: Engine, per_turn: int) -> None:
    """004: how many actions a turn gives (``.init 动作数 N``; base 1).  The actor whose turn is
    in progress gets the difference at once (never below 0)."""
    st = eng.st
    if eng.rules.has_ap:
        raise IllegalAction("每回合动作数只用于速度规则（004）；基础规则用AP")
    if not 1 <= per_turn <= MAX_ACTIONS:
        raise InputSyntaxError(f"每回合动作数应在1~{MAX_ACTIONS}之间")
    old = st.options.actions_per_turn
    st.options = st.options.model_copy(update={"actions_per_turn": per_turn})
    cur = st.maybe(st.current)
    if cur is not None and st.phase is Phase.ACTIVE:
        cur.actions_left = max(0, cur.actions_left + per_turn - old)
    eng.emit("actions_per_turn", per_turn=per_turn)


@transition
def use_action(eng: Engine, cid: str, label: str = "", *, extra: int = 0) -> None:
    """004: use one action of the turn in progress (``.动作``), or give ``extra`` actions for this
    turn (a skill that grants more, GM).

    Reading: 004 says "进行回合的角色能够使用1个「动作」… 行动结束后，角色的回合便会结束".  The bot
    counts the actions and refuses one more than the turn gives (naming how to go on), but does not
    end the turn by itself: ending stays one ``.ed`` away, so reactions and end-of-turn notes
    still fit in, and the turn card says when the actions are used up."""
    st = eng.st
    if eng.rules.has_ap:
        raise IllegalAction("基础规则（002）用AP记录动作（.ap -n）")
    require_phase(st, Phase.ACTIVE)
    c = st.get(cid)
    if st.current != c.id or st.waiting:
        raise IllegalAction(f"动作只能在自己的回合内使用（现在不是 {c.shown} 的回合）")
    if extra:
        if not 1 <= extra <= MAX_ACTIONS:
            raise InputSyntaxError(f"追加动作应在1~{MAX_ACTIONS}之间")
        c.actions_left += extra
        eng.emit("action_grant", cid=c.id, extra=extra, left=c.actions_left)
        return
    if c.actions_left <= 0:
        raise IllegalAction(
            f"{c.shown} 本回合的动作已用完（每回合{st.options.actions_per_turn}个）；.ed 结束回合"
        )
    c.actions_left -= 1
    c.busy = True
    eng.emit("action", cid=c.id, label=label[:20], left=c.actions_left)


# --------------------------------------------------------------------------- 002 Mov
@transition
def spend_mov(eng: Engine, cid: str, *, cost: int | None = None, value: int | None = None) -> None:
    """002 Mov: set at each turn start to her 速度; a move costs Mov and may not take it below 0
    (``.mov -n``); GM ``=n``."""
    st = eng.st
    if not eng.rules.has_ap:
        raise IllegalAction("Mov 只用于基础规则（002）")
    require_phase(st, Phase.ACTIVE)
    c = st.get(cid)
    if value is not None:
        if not 0 <= value <= 99:
            raise InputSyntaxError("Mov应在0~99之间")
        c.mov = value
    else:
        n = cost or 0
        if not 0 <= n <= 99:
            raise InputSyntaxError("移动消耗应在0~99之间")
        if eng.bound(c):
            raise IllegalAction(f"{c.shown} 处于「无法移动」的效果中：移动动作无效（强制移动除外）")
        if c.mov - n < 0:
            raise IllegalAction(f"Mov不足：{c.shown} 剩{c.mov}，移动需要{n}")
        c.mov -= n
        if st.current == c.id:
            c.busy = True
    eng.emit("mov", cid=c.id, mov=c.mov, speed=c.speed)
