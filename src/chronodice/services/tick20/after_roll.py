"""``.自我`` after the roll: 自我 spent on a check already rolled, before the GM announces it.

002 人格, 自我: "角色在进行技能检定时，如果消耗1点自我值不会导致她陷入<发狂>，则她可以消耗1点
自我值，使这次检定获得优势。她可以在掷骰后、GM宣布结果前使用这个效果。"  (The declared form,
``.rc 运动 15 自我``, stays: :func:`.persona.spend_ego`.)

What advantage gained after the roll does follows 002 优势与劣势 to the letter: "进行具有优势或
劣势的检定时，角色需要在投掷相应的D20后，再掷一枚额外的D20。如果检定具有优势，则将这2枚D20中，
骰值较高的一方作为这次检定真正的骰值" and "如果同一次检定具有复数的优势或劣势，角色都只能掷一枚
额外的D20。如果同一次检定同时具有优势与劣势，这两者会互相抵消，角色不会投掷额外的D20，并且这次
检定将不会再受任何优势与劣势的影响。"  So, on her last check:

* no 优势/劣势: the extra D20 is rolled now and the higher counts — her first die is kept, not
  rolled again (``[3]`` and a new 14: ``[3,14]优势→14``);
* 劣势: the two cancel, there is no extra D20 and the first D20 is the die (``[15,5]劣势→5``
  becomes 15);
* 优势 already, or 优势 and 劣势 already cancelled: nothing would change — refused, nothing spent.

The total, N1/N20 and the degrees are computed again from the new die with the check's own
modifiers (:func:`chronodice.rules.tick20.checks.d20_from_dice`).

"Before the GM announces the result", for a bot that shows 成功/失败 with the roll: the checker's
latest active 002 skill check made with ``.rc`` (a new ``.rc`` replaces it), spent at most once,
within :data:`WINDOW` seconds (the store's pending table; the same sender, the same card, the same
``名字:`` NPC).  A hidden check (``.rc 暗``, a hidden NPC's) answers privately again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from chronodice.core.args import Flag, Prefixed
from chronodice.core.commands import Call, define
from chronodice.core.errors import ChronoDiceError, IllegalAction, NotFound
from chronodice.core.reply import CheckNote, Reply
from chronodice.render import tick20 as R
from chronodice.rules.tick20 import checks as C
from chronodice.services.hidden import hidden_result

from ._glue import SYS_NAME, SYSTEM
from .persona import own_card, spend_ego

WINDOW = 300.0
"""Seconds after her ``.rc`` in which ``.自我`` may still be spent on it."""


@dataclass(frozen=True)
class LastCheck:
    """What a ``.rc`` left for a later ``.自我``: enough to judge the check again with new dice
    (``base``: its stacked modifiers; ``card``: the id of the card it was made from)."""

    who: str
    label: str
    reason: str
    dice: tuple[int, ...]
    base: int
    adv: bool
    dis: bool
    goal: int | None
    opposed: bool
    mods: str
    note: str
    hidden: bool
    card: int

    def plain(self) -> dict[str, Any]:
        return {**asdict(self), "dice": list(self.dice)}

    @classmethod
    def of(cls, data: dict[str, Any]) -> LastCheck:
        return cls(**{**data, "dice": tuple(int(x) for x in data["dice"])})


def key(call: Call, actor: str | None) -> str:
    """The pending key of the sender's last check (per chat, sender and ``名字:``)."""
    return f"t20ego:{call.ctx.scope}:{call.ctx.user_id}:{actor or ''}"


async def remember(call: Call, actor: str | None, check: LastCheck) -> None:
    await call.app.store.housekeeping.put_pending(key(call, actor), check.plain(), WINDOW, claim=call.claim)


def check_reply(check: LastCheck, roll: C.D20Roll) -> Reply:
    """A 002 d20 check's reply (``.rc`` and ``.自我`` alike): the roll, modifiers, the judgement
    against the target (or the opponent's result) and the lines of the checker's effects."""
    goal, label = check.goal, check.label
    judgement = C.judge(roll.total, goal) if goal is not None else None
    text = R.d20_text(
        check.who, label + (f"（{check.reason}）" if check.reason else ""), roll, judgement, check.mods
    )
    text += ("\n" + check.note) if check.note else ""
    dice = (R.d20_expr(roll), label, roll.total)
    if check.opposed and goal is not None:
        res = C.opposed(roll.total, goal)
        text += "\n对抗：" + ("发起者胜" if res.actor_wins else "对方胜") + f"（差{res.margin:+d}）"
        outcome, success = ("对抗胜" if res.actor_wins else "对抗负"), res.actor_wins
    elif judgement is None:
        outcome, success = f"判定值{roll.total}", None
    else:
        outcome, success = judgement.outcome, judgement.outcome in ("成功", "大成功")
    return Reply(text=text, check=CheckNote(label, outcome, success, rule=SYSTEM, items=(dice,)))


Edge = Literal["优势", "劣势"] | None


def refuse_unchanged(check: LastCheck) -> None:
    """Refuse (nothing spent) where 自我's advantage would change nothing: the check has 优势
    already, or 优势 and 劣势 that cancelled ("不会再受任何优势与劣势的影响")."""
    if check.adv:
        why = (
            "已与劣势抵消，不再受任何优势与劣势影响"
            if check.dis
            else "已有优势，复数的优势也只掷一枚额外的D20"
        )
        raise IllegalAction(f"这次检定{why}：自我不会改变结果，没有消耗")


def with_advantage(check: LastCheck, extra: Callable[[], int]) -> tuple[tuple[int, ...], Edge, str]:
    """The dice, edge and a line saying what changed once 自我's advantage joins the rolled
    ``check`` (one without 优势); ``extra`` rolls the new D20, called only where one is rolled.

    >>> base = LastCheck("艾琳", "运动", "", (3,), 0, False, False, 15, False, "", "", False, 1)
    >>> with_advantage(base, lambda: 14)
    ((3, 14), '优势', '追加D20=14，取高')
    >>> with_advantage(LastCheck(**{**asdict(base), "dice": (15, 5), "dis": True}), lambda: 9)
    ((15,), None, '与劣势抵消：不计额外的D20（5），取第一枚15')
    """
    if check.dis:
        return (
            (check.dice[0],),
            None,
            f"与劣势抵消：不计额外的D20（{check.dice[1]}），取第一枚{check.dice[0]}",
        )
    die = extra()
    return (check.dice[0], die), "优势", f"追加D20={die}，取高"


ego = define(
    "自我",
    aliases=("ego",),
    summary="基础规则：掷骰后、GM宣布结果前消耗1点自我，使刚才的 .rc 技能检定获得优势（追加一枚D20取高）",
    detail=(
        "例 .rc 运动 15 后发 .自我；GM 为NPC：.自我 哥布林:\n"
        "只对自己最近一次 .rc 主动技能检定有效（5分钟内、只能一次）；原有劣势则两者抵消，取第一枚D20；"
        "已有优势则不消耗；会因此陷入<发狂>时不能消耗"
    ),
    system=SYS_NAME,
)


@ego.sub(
    flags=[Flag("actor", Prefixed(label="名称:"))], help="为刚才的检定消耗1点自我获得优势", when_empty=True
)
async def cmd_ego(call: Call, actor: str | None) -> list[Reply]:
    held = await call.app.store.housekeeping.take_pending(key(call, actor), claim=call.claim)
    if held is None:
        raise NotFound(
            "没有可以追加自我的检定：先 .rc 技能 目标值，再在5分钟内发 .自我（或检定时就写 .rc 运动 15 自我）"
        )
    check = LastCheck.of(held)
    try:
        card = await own_card(call, actor)
        if card.id != check.card:
            raise IllegalAction("刚才的检定用的不是现在这张角色卡，不能追加自我")
        refuse_unchanged(check)
        spent = await spend_ego(call, actor)
    except ChronoDiceError:
        await remember(call, actor, check)  # refused: the check is still hers to spend on
        raise
    dice, edge, change = with_advantage(check, lambda: call.app.rng.randint(1, 20))
    roll = C.d20_from_dice(dice, check.base, edge=edge, skill=True)
    reply = check_reply(check, roll)
    head = f"{check.who} 掷骰后{spent.removesuffix('，获得优势')}，{check.label}检定获得优势：{change}"
    reply = Reply(text=head + "\n" + reply.text, check=reply.check)
    if check.hidden:
        return hidden_result(call, reply.text, what="暗中检定")
    return [reply]


__all__ = [
    "WINDOW",
    "LastCheck",
    "check_reply",
    "cmd_ego",
    "ego",
    "refuse_unchanged",
    "remember",
    "with_advantage",
]
