"""Turn resources that are not AP: the 004 actions of a turn (``.动作``, ``.init 动作数``), the 002 Mov
(``.mov``) and the 濒死检定 on demand (``.濒死``)."""

from __future__ import annotations

from chronodice.core.args import Int, Pattern, arg, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import NotFound
from chronodice.core.reply import Reply
from chronodice.render import tick20 as R
from chronodice.render.tick20_health import event_lines as health_lines
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.model import Combat, Combatant

from ._glue import (
    SYS_NAME,
    apply,
    check_dice,
    find,
    find_me,
    gm_op,
    load,
    must_be_gm,
    need,
    require_control,
)
from .kinds import COMBATANT, NotWords, combatant
from .tracker import init


async def _who(call: Call, state: Combat, who: str | None) -> Combatant:
    """The named combatant, else the sender's current one, else (for a GM) the current actor."""
    if who is not None:
        return await find(call, state, who)
    mine = [c for c in state.combatants if c.controller == call.ctx.user_id]
    if mine:
        return find_me(state, call.ctx)
    return state.get(state.current or "") if state.current else find_me(state, call.ctx)


# --------------------------------------------------------------------------- 004 actions
@init.sub(
    "动作数",
    "actions",
    params=[arg("n", Int(label="N", min=1, max=5))],
    help="每回合的动作数（速度规则，基础1；GM）",
)
async def init_actions(call: Call, n: int) -> list[Reply]:
    state, _ = await gm_op(call, "设定每回合动作数", lambda st: E.set_actions(st, n))
    cur = state.maybe(state.current)
    tail = f"；{R.name_of(state, cur.id)} 本回合剩余{cur.actions_left}个" if cur is not None else ""
    return [Reply.say(f"每回合动作数设为{n}{tail}")]


EXTRA = Pattern(regex=r"\+([0-9])(?![0-9])", label="+n", convert=lambda m: int(m.group(1)))
ACTION_WHO = combatant(extra=())

act = define(
    "动作",
    aliases=("act",),
    summary="速度规则：使用本回合的一个动作（每回合动作数见 .init 动作数），GM 可 +n 追加",
    detail="例 .动作 攻击、.动作 哥布林 攻击（GM）、.动作 艾琳 +1（GM：技能赋予的追加动作）",
    system=SYS_NAME,
    group_only=True,
)


@act.sub(
    params=[
        opt("who", NotWords(kind=COMBATANT, words=("+",)), label="名称"),
        opt("extra", EXTRA),
        opt("label", Pattern(regex=r"\S{1,20}", label="说明")),
    ],
    help="使用一个动作（当前行动者的玩家或 GM）；名称 +n 追加动作（GM）",
    when_empty=True,
)
async def cmd_act(
    call: Call, who: str | None = None, extra: int | None = None, label: str | None = None
) -> list[Reply]:
    state = need(await load(call))
    try:  # ``.动作 攻击``: a word that names nobody is the action's description
        c = await _who(call, state, who)
    except NotFound:
        if who is None or label is not None:
            raise
        c, label = await _who(call, state, None), who
    if extra:
        await must_be_gm(call, state, "追加动作")
    else:
        await require_control(call, state, c, "使用动作")
    state, events = await apply(call, lambda st: E.use_action(need(st), c.id, label or "", extra=extra or 0))
    return [Reply.say("\n".join(health_lines(state, events)).strip())]


# --------------------------------------------------------------------------- 002 Mov
MOV_OP = Pattern(
    regex=r"([=-])([0-9]{1,2})(?![0-9])", label="-n/=n", convert=lambda m: (m.group(1), int(m.group(2)))
)
mov = define(
    "mov",
    aliases=("移动",),
    summary="基础规则：Mov（回合开始时=速度），移动消耗Mov，不能低于0",
    detail=(
        "例 .mov -2、.mov 哥布林 -1（GM）、.mov 艾琳 =3（GM）；速度取自角色卡或 .init opt 名 -速度 N；"
        "速度0时 .mov 全力 移动1格（「无法移动」时不行）"
    ),
    system=SYS_NAME,
    group_only=True,
)


@mov.sub(
    params=[opt("who", COMBATANT, label="名称"), arg("op", MOV_OP)], help="消耗Mov（-n）或设定（=n，GM）"
)
async def cmd_mov(call: Call, who: str | None, op: tuple[str, int]) -> list[Reply]:
    state = need(await load(call))
    c = await _who(call, state, who)
    if op[0] == "=":
        await must_be_gm(call, state, "设定Mov")
        state, events = await apply(call, lambda st: E.spend_mov(need(st), c.id, value=op[1]))
    else:
        await require_control(call, state, c, "移动")
        state, events = await apply(call, lambda st: E.spend_mov(need(st), c.id, cost=op[1]))
    return [Reply.say("\n".join(health_lines(state, events)).strip())]


@mov.sub(
    "全力",
    "全力移动",
    params=[opt("who", COMBATANT, label="名称"), opt("op", MOV_OP)],
    help="速度为0时，【全力移动】移动1格（只能进入消耗Mov不超过1点的区域：-1，默认）",
)
async def cmd_full_move(call: Call, who: str | None, op: tuple[str, int] | None) -> list[Reply]:
    """002 速度: 「即便速度为0，只要没有遭受会导致「无法移动」的效果，角色依然可以通过【全力移动】
    动作移动1格，不过这一移动只能进入消耗的Mov不超过1点的区域」.  ``-n``: what the area costs."""
    state = need(await load(call))
    c = await _who(call, state, who)
    await require_control(call, state, c, "移动")
    if op is not None and op[0] == "=":
        raise call.usage_error("全力移动写这格消耗的Mov：.mov 全力 -1")
    cost = 1 if op is None else op[1]
    state, events = await apply(call, lambda st: E.full_move(need(st), c.id, cost))
    return [Reply.say("\n".join(health_lines(state, events)).strip())]


# --------------------------------------------------------------------------- 濒死检定
dying = define(
    "濒死",
    aliases=("dying",),
    summary="基础规则：立即进行濒死检定（强韧防御，目标15，<残障>+5，<昏迷>劣势）；每轮开始时骰娘会自动进行",
    detail="例 .濒死 哥布林；强韧防御修正取自角色卡，NPC 用 .hp 名 强韧 +n 设定",
    system=SYS_NAME,
    group_only=True,
)


@dying.sub(
    params=[opt("who", COMBATANT, label="名称")],
    help="为一名参战者进行濒死检定（她的玩家或 GM）",
    when_empty=True,
)
async def cmd_dying(call: Call, who: str | None) -> list[Reply]:
    state = need(await load(call))
    c = await _who(call, state, who)
    await require_control(call, state, c, "进行濒死检定")
    dice = check_dice(call, state)
    state, events = await apply(call, lambda st: E.dying_check(need(st), c.id, dice=dice))
    c2 = state.get(c.id)
    lines = [f"{R.name_of(state, c2.id)}：{R.health_text(state, c2, False) or '—'}"]
    lines += R.event_lines(state, events)
    return [Reply.say("\n".join(lines))]


@init.sub("濒死", "dying", params=[opt("who", COMBATANT, label="名称")], help="同 .濒死：立即进行濒死检定")
async def init_dying(call: Call, who: str | None) -> list[Reply]:
    return await cmd_dying(call, who)
