"""无限恐怖 D10 success pool: ``.w`` (result), ``.ww`` (every die), ``.wh`` (hidden).

The three roots share every form (declared once per root by :func:`_declare`)::

    .ww [N#]<骰池> [a8/a9] [dcN] [+Ns] [-Ns] [?] [理由]  roll (``?``: exact odds; ``3#``: 3 times)
    .ww <骰池> vs <骰池>                              opposed roll (the @-mentioned answer)
    .ww 攻击 [NPC名:] <骰池> [@目标|@NPC名] [防N] [破防]  attack against declared defence
    .ww 防御 [N[/N…]] [@某人|NPC名] [传奇N] [破防]     declare / list defence (NPC: GM)
    .ww 防御 clr                                       clear defence
    .ww 行动 [@某人]                                   next action: spent defence comes back
    .ww 分配 [NPC名:] <骰池> [+Ns] [命中+N] [破防] 甲 乙×3=2/1/1
                                                       multi-attack: bonus allocation, each
                                                       target's declared defence
    .ww 附加 潜行1 攻击2 防御3 | 附加 del 名字          bonus successes stored on the card
    .ww 倍率 30 ×2 ×4 +50                              the seed's multiplier calculator
    .ww set [a9] [超过|大于等于] [clr]                  group defaults (GM)

Argument kinds are in :mod:`.kinds`; the engine is :mod:`chronodice.rules.pool10`.
"""

from __future__ import annotations

from functools import partial

from chronodice.core.args import Flag, Mention, Name, Prefixed, arg, flag, many, opt
from chronodice.core.commands import CommandSpec, define
from chronodice.core.permissions import Perm
from chronodice.render import pool10 as render
from chronodice.rules.pool10 import TieRule

from ..characters import AttributePairs
from . import card, combat, rolls
from ._common import SYSTEM, SYSTEM_LABEL, Mode
from .kinds import (
    ACTION_WORDS,
    ATTACK_WORDS,
    BASE_ZERO_WORDS,
    BONUS_WORDS,
    CALC_BASE,
    CALC_OP,
    CALC_WORDS,
    DEFENCE_AMOUNTS,
    DEFENCE_WORDS,
    GAINED,
    HELP_WORDS,
    INLINE_DEFENCE,
    LEGEND,
    MULTI_WORDS,
    NPC_NAME,
    NPC_TARGET,
    REPEAT,
    SET,
    SET_AGAIN,
    TARGET,
    TIE,
    PoolExpr,
    Versus,
    pool_flags,
    reason,
)

DETAIL = f"""骰池：数字、角色卡上的属性/技能名及加减，如 .ww 7、.ww 10a8、.ww 敏捷+潜行、.ww 力量+运动-2
8、9、10为成功；默认10加骰（a9、a8 改为9、8加骰；a11 不加骰；加骰的最低值为8）
骰池≤0 时掷机运骰：只有10成功且可加骰，掷出1为大失败，不受附加成功影响
附加成功：属性6→1、11→2、每+5再+1；技能等用 .ww 附加 潜行1 录入；+2s 临时附加；-1s 扣除成功。
  只有有效成功数>0时才加上附加成功
dcN 难度；? 精确概率；.w 只给结果，.ww 列出每颗骰子，.wh 暗骰
对抗：.ww 敏捷+潜行 vs @对手 感知+调查（NPC一方写数字）—— 先手方成功数即后手方DC，{render.TIE_LABEL[TieRule.AT_LEAST]}；
  .ww set 超过 改为必须超过
攻击：加上卡上「攻击」附加成功；目标预先 .ww 防御 3 宣言的防御附加成功抵消自然成功，全部抵消则未命中、
  攻击附加成功不生效；已用的防御附加成功到目标下次行动（.ww 行动）时恢复
传奇：.ww 附加 传奇防御2；基础防御为0时（冲锋等）宣言或攻击时加「破防」，这部分不生效
NPC（GM）：.ww 防御 2 守卫；.ww 攻击 守卫: 6 @艾拉；攻击NPC：.ww 攻击 6 @守卫"""

w = define("w", summary="无限恐怖骰池，只给结果（.ww 逐轮列出每颗骰子）", system=SYSTEM_LABEL, detail=DETAIL)
ww = define("ww", summary="无限恐怖骰池，逐轮列出每颗骰子", system=SYSTEM_LABEL, detail=DETAIL)
wh = define("wh", summary="无限恐怖暗骰池：结果私聊发给你", system=SYSTEM_LABEL, detail=DETAIL)

WHO = opt("who", Mention(), label="@某人")
ACTOR = opt("actor", Prefixed(label="NPC名:"))
"""``守卫:`` before the pool: the GM rolls as that NPC (labelled with it, its action)."""
BASE_ZERO = flag("base_zero", *BASE_ZERO_WORDS, label="破防")


def _declare(spec: CommandSpec, mode: Mode) -> None:
    """Every form of the pool, for one root (``mode``: how that root shows the result)."""
    spec.sub(
        params=[opt("repeat", REPEAT), arg("pool", PoolExpr()), opt("versus", Versus()), reason()],
        flags=pool_flags(),
        help="掷骰池（8、9、10为成功）；? 给出精确概率；vs 后写对手的骰池即对抗；3# 掷3次",
    )(partial(rolls.roll, mode=mode))
    spec.sub(
        *ATTACK_WORDS,
        params=[
            ACTOR,
            arg("pool", PoolExpr()),
            opt("target", Mention(), label="@目标"),
            opt("npc", NPC_TARGET),
            reason(attack=True),
        ],
        flags=[*pool_flags(dc=False, odds=False), Flag("defence", INLINE_DEFENCE), BASE_ZERO],
        help="攻击：目标宣言的防御附加成功抵消自然成功（守卫: 以NPC名义，GM）",
    )(partial(combat.attack, mode=mode))
    spec.sub(
        *DEFENCE_WORDS,
        params=[opt("amount", DEFENCE_AMOUNTS), WHO, opt("npc", NPC_NAME)],
        flags=[Flag("legend", LEGEND), BASE_ZERO],
        help="宣言防御附加成功（2/1 依次用于接下来的攻击）；不带数值则查看记录",
    )(partial(combat.defence, mode=mode))
    spec.sub(
        *(f"{d} {c}" for d in DEFENCE_WORDS for c in ("clr", "clear", "重置")),
        perm=Perm.GM,
        what="清空本群的防御记录",
        help="清空本群的防御记录",
    )(partial(combat.defence_clear, mode=mode))
    spec.sub(*ACTION_WORDS, params=[WHO], help="开始行动：恢复已用掉的防御附加成功")(
        partial(combat.action, mode=mode)
    )
    spec.sub(
        *MULTI_WORDS,
        params=[ACTOR, arg("pool", PoolExpr()), many("targets", TARGET, label="目标[×次数][=分配/…]")],
        flags=[*pool_flags(dc=False, odds=False), Flag("gained", GAINED), BASE_ZERO],
        help="一次行动多次攻击：分配攻击附加成功；命中+N 首次命中时获得",
    )(partial(rolls.multi, mode=mode))
    spec.sub(
        *CALC_WORDS,
        params=[arg("base", CALC_BASE), many("ops", CALC_OP, required=False, label="×N/再×N//N/±N/基础+N")],
        flags=[flag("real", "现实", "真实", "real")],
        help="倍率计算器（多个倍率合并、先算基础值、向下取整）",
    )(partial(rolls.calc, mode=mode))
    spec.sub(
        *BONUS_WORDS,
        params=[opt("pairs", AttributePairs(label="名字数值"))],
        help="在角色卡上录入附加成功（潜行1 攻击2 防御3）；不带参数则查看",
    )(partial(card.bonus_set, mode=mode))
    spec.sub(*(f"{b} {s}" for b in BONUS_WORDS for s in ("show", "list")), help="查看角色卡上的附加成功")(
        partial(card.bonus_show, mode=mode)
    )
    spec.sub(
        *(f"{b} {d}" for b in BONUS_WORDS for d in ("del", "rm")),
        params=[many("names", _bonus_name())],
        help="删除角色卡上的附加成功",
    )(partial(card.bonus_del, mode=mode))
    spec.sub(
        *SET,
        flags=[Flag("again", SET_AGAIN), Flag("tie", TIE), flag("clear", "clr", "clear", "重置")],
        help="本群的骰池默认设置（加骰阈值、对抗平局）；不带参数则查看",
    )(partial(card.set_defaults, mode=mode))
    spec.sub(*HELP_WORDS, help="本帮助")(partial(card.show_help, mode=mode))


def _bonus_name() -> Name:
    return Name(label="名字")


_declare(w, Mode(detailed=False, hidden=False))
_declare(ww, Mode(detailed=True, hidden=False))
_declare(wh, Mode(detailed=True, hidden=True))

__all__ = ["DETAIL", "SYSTEM", "SYSTEM_LABEL", "w", "wh", "ww"]
