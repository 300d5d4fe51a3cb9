"""``.ra`` ``.rah`` ``.rab`` ``.rap`` (and ``.rc`` where it means the CoC check): skill checks.

Forms, as SealDice / Dice! / OlivaDice players type them: ``.ra 侦查``, ``.ra侦查60``,
``.ra 侦查 60 理由``, ``.ra 60``, ``.ra 困难侦查``, ``.ra 极难侦查``, ``.ra 3#侦查``,
``.rab2 侦查``, ``.rap 聆听 60``, ``.rah 侦查`` (result by private message).  The value is the one
typed, else the active card's (aliases: ``侦察`` = ``侦查``), else the rule book's base value.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from chronodice.core.args import Candidates, Int, Name, ParseEnv, Pattern, Rest, is_ascii_digit, opt
from chronodice.core.commands import Call, CommandSpec, define
from chronodice.core.context import Context
from chronodice.core.errors import ChronoDiceError, NotFound, NotPermitted
from chronodice.core.reply import CheckNote, Reply
from chronodice.core.text import safe_name
from chronodice.rules.coc7.checks import CheckOutcome, Difficulty
from chronodice.rules.coc7.derived import derive
from chronodice.rules.coc7.skills import CHARACTERISTICS, SKILL_BASE, canonical, skill_value
from chronodice.rules.tick20 import checks as tick20_rules
from chronodice.services.hidden import hidden_result
from chronodice.services.modes import RC_BY_MODE, Glueless, group_mode, guard_card
from chronodice.services.npc_cards import PRIVATE_NO_NPC, find_npc_card
from chronodice.services.tick20.checks import rc

from ._common import (
    MAX_BONUS,
    MAX_TIMES,
    SYS_NAME,
    call_settings,
    coc_gate,
    house_rule,
    roll_check,
    settings_for,
)

DETAIL = (
    "值：写出的数值，否则取角色卡（侦察=侦查，san=理智…），否则取规则书的初始值（侦查25、聆听20、闪避=敏捷/2、母语=教育）\n"
    "成功等级：≤值/5 极难成功，≤值/2 困难成功，≤值 成功；大成功/大失败由房规决定（.setcoc 0-5，默认规则书）\n"
    "困难/极难：在技能前写 困难 或 极难；N#：连续检定N次（最多10次）；.rab2/.rap 奖励骰/惩罚骰（最多3个）"
)


TIMES = Pattern(regex=r"([0-9]{1,2})\s*#", label="N#", convert=lambda m: int(m.group(1)))
DIFFICULTY = Glueless(
    {"困难": Difficulty.HARD, "极难": Difficulty.EXTREME, "极限": Difficulty.EXTREME},
    label="困难/极难",
)
SKILL = Name(label="技能")
VALUE = Int(label="技能值", min=0, max=1000)
ADJUST = Int(label="±修正", signed=True, sign_required=True, min=-1000, max=1000)
"""``.ra 侦查+10`` / ``.ra 侦查60-20``: added to the value (as SealDice and Dice! read it)."""


@dataclass(frozen=True)
class Reason(Rest):
    """The reason after a check: only after a skill or value, and never starting with a digit, so
    ``.ra 侦查 1001`` is a bad value, not the reason "1001" (nor "侦查 1001")."""

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        if pos > 0 and not is_ascii_digit(text[pos : pos + 1]):  # pos 0: no skill or value read
            yield from super().candidates(text, pos, env)


CHECK = [
    opt("times", TIMES),
    opt("difficulty", DIFFICULTY),
    opt("skill", SKILL),
    opt("value", VALUE),
    opt("adjust", ADJUST),
    opt("reason", Reason(label="理由", max_len=40), default="", label="理由"),
]
COUNT = opt("count", Int(label="骰数", min=0, max=99))
"""Any count reads here (``.rab4 侦查`` must not become the value 4); more than
:data:`MAX_BONUS` is refused by the handler."""


def _count(call: Call, count: int | None) -> int:
    if count == 0:
        raise call.usage_error("奖励骰/惩罚骰个数至少为1")
    return 1 if count is None else count


def _check_line(outcome: CheckOutcome, trace: str) -> str:
    return f"{trace}/{outcome.target} {outcome.label}"


async def run_check(
    call: Call,
    *,
    times: int | None,
    difficulty: Difficulty | None,
    skill: str | None,
    value: int | None,
    reason: str,
    adjust: int | None = None,
    bonus: int = 0,
) -> tuple[str, list[CheckOutcome], CheckNote]:
    """Roll the check(s): the reply text, the outcomes, and the note ``.log stat`` counts (one
    check: its level and whether it passed; ``3#``: how many passed, counted neither way)."""
    if abs(bonus) > MAX_BONUS:
        raise call.usage_error(f"{'奖励骰' if bonus > 0 else '惩罚骰'}最多{MAX_BONUS}个")
    if skill is None and value is None:
        raise call.usage_error("请写出技能名或数值，如 .ra 侦查、.ra 侦查60、.ra 60")
    n = times if times is not None else 1
    if not 1 <= n <= MAX_TIMES:
        raise call.usage_error(f"检定次数应为1到{MAX_TIMES}")
    char, who, skill = await _check_sheet(call, skill)
    label = canonical(skill) if skill else ""
    if value is None:
        assert skill is not None
        value = _sheet_value(char, skill)
    if adjust:
        label += f"{adjust:+d}"
        value = max(0, value + adjust)
    rule = house_rule(await call_settings(call))
    diff = difficulty or Difficulty.REGULAR
    head = who + " 的" + (f"{diff.label}" if diff != Difficulty.REGULAR else "") + f"{label}检定"
    if bonus:
        head += f"（{'奖励骰' if bonus > 0 else '惩罚骰'}×{abs(bonus)}）"
    if reason:
        head += f"（{reason}）"
    outcomes: list[CheckOutcome] = []
    lines: list[str] = []
    for _ in range(n):
        outcome, d = roll_check(call.app.rng, value, rule=rule, bonus=bonus, difficulty=diff)
        outcomes.append(outcome)
        lines.append(_check_line(outcome, d.trace))
    what = label or f"数值{value}"
    if n == 1:
        return f"{head}：{lines[0]}", outcomes, CheckNote(what, outcomes[0].label, outcomes[0].passed)
    body = "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))
    passed = sum(o.passed for o in outcomes)
    note = CheckNote(what, f"通过{passed}/{n}次", None)
    return f"{head}×{n}：\n{body}\n通过{passed}次", outcomes, note


async def _check_sheet(call: Call, skill: str | None) -> tuple[Any, str, str | None]:
    """Whose card the check reads, the name it is made under, and the skill: the sender's own,
    or with ``.ra 哥布林:侦查`` the group's NPC card 哥布林 (GM only, services.npc_cards)."""
    char = call.view.character if call.view is not None else None
    actor, _, rest = (skill or "").rpartition(":")
    if not (actor and rest):
        return char, call.player_name, skill
    if call.ctx.group_id is None:
        raise NotPermitted(PRIVATE_NO_NPC)
    char = await find_npc_card(call, actor)
    if char is None:
        raise NotFound(f"本群没有NPC卡「{safe_name(actor)}」（GM用 .npc {safe_name(actor)} 技能数值 录入）")
    return char, safe_name(char.name), rest


def _sheet_value(char: Any, skill: str) -> int:
    """The skill's value on the card, else derived (理智 = 意志, 体力 = (体质+体型)/10…)."""
    attrs = char.attributes if char is not None else {}
    value = skill_value(attrs, skill)
    derived = derive(attrs, skill) if value is None else None
    if derived is not None and isinstance(derived.value, int):
        value = derived.value
    if value is None:
        raise NotFound(f"没有「{skill[:20]}」的数值：写成 .ra {skill[:20]}60，或先 .st {skill[:20]}60")
    return value


ra = define(
    "ra", summary="CoC检定：.ra 侦查、.ra 困难侦查、.ra 3#侦查、.ra 侦查60", detail=DETAIL, system=SYS_NAME
)


@ra.sub(params=CHECK, help="技能检定（值可省略：取角色卡或规则书初始值）；NPC名: 用本群NPC卡（GM）")
async def cmd_ra(
    call: Call,
    times: int | None,
    difficulty: Difficulty | None,
    skill: str | None,
    value: int | None,
    adjust: int | None,
    reason: str,
) -> list[Reply]:
    text, _, note = await run_check(
        call, times=times, difficulty=difficulty, skill=skill, value=value, adjust=adjust, reason=reason
    )
    return [Reply(text=text, check=note)]


rah = define("rah", aliases=("rch",), summary="CoC暗中检定：结果私聊，群里只说进行了检定", system=SYS_NAME)


@rah.sub(params=CHECK, help="暗中检定，结果私聊")
async def cmd_rah(
    call: Call,
    times: int | None,
    difficulty: Difficulty | None,
    skill: str | None,
    value: int | None,
    adjust: int | None,
    reason: str,
) -> list[Reply]:
    text, _, _note = await run_check(  # a hidden check: nothing for the group's log
        call, times=times, difficulty=difficulty, skill=skill, value=value, adjust=adjust, reason=reason
    )
    return hidden_result(call, text, what="暗中检定")


rab = define("rab", aliases=("rcb",), summary="CoC奖励骰检定：.rab2 侦查（多掷十位骰取好）", system=SYS_NAME)


def _dice_check(sign: int) -> Callable[..., Awaitable[list[Reply]]]:
    """The handler of ``.rab`` (``sign`` +1: bonus dice) or ``.rap`` (−1: penalty dice)."""

    async def handler(call: Call, count: int | None, **check: Any) -> list[Reply]:
        text, _, note = await run_check(call, **check, bonus=sign * _count(call, count))
        return [Reply(text=text, check=note)]

    return handler


rab.sub(params=[COUNT, *CHECK], help="带N个奖励骰的检定（N省略为1）")(_dice_check(+1))

rap = define(
    "rap", aliases=("rcp",), summary="CoC惩罚骰检定：.rap 聆听 60（多掷十位骰取坏）", system=SYS_NAME
)
rap.sub(params=[COUNT, *CHECK], help="带N个惩罚骰的检定（N省略为1）")(_dice_check(-1))


for _spec in (ra, rah, rab, rap):
    coc_gate(_spec, card=True)


# ------------------------------------------------------------------------ .rc: which system
_TICK20_WORDS = frozenset(
    [
        *tick20_rules.ATTRIBUTES,
        *(a for v in tick20_rules.ATTRIBUTES.values() for a in v),
        *tick20_rules.SKILLS,
        *tick20_rules.SKILL_ALIASES,
    ]
)
_FIRST_WORD = re.compile(r"[^\s\d+\-]+")
_GLUED_VALUE = re.compile(r"^\S*?[^\d\s+\-]\d+(\s|$)")


def reads_as_tick20(args: str, mentions: tuple[str, ...] = ()) -> bool:
    """Whether ``.rc`` arguments have the D20-tick form: a number or two-die check, a D20 flag
    (优势/劣势/被动/±N类型/对抗), or a D20 skill/attribute name (运动, 洞悉, DEX…).  A name both
    systems use (力量, 敏捷, 闪避…) with its value glued on (``力量60``) is the CoC paste form."""
    try:
        _, values = rc.select(args, mentions)
    except ChronoDiceError:  # a bad D20 form still gets the D20 error when it names a D20 word
        first = _FIRST_WORD.match(args.strip())
        return first is not None and (
            first.group() in _TICK20_WORDS or first.group().lower() in _TICK20_WORDS
        )
    what: Any = values.get("what")
    if not isinstance(what, str):
        return True
    if (
        values.get("adv")
        or values.get("dis")
        or values.get("passive")
        or values.get("mods")
        or values.get("hidden")
    ):
        return True
    if values.get("opposed") is not None:
        return True
    if what not in _TICK20_WORDS and what.lower() not in _TICK20_WORDS:
        return False
    return not (_is_coc_name(what) and _GLUED_VALUE.match(args.strip()))


def _is_coc_name(name: str) -> bool:
    want = canonical(name)
    return want in SKILL_BASE or want in CHARACTERISTICS or want in ("闪避", "母语")


async def resolve_rc(app: Any, ctx: Context, view: Any, args: str) -> CommandSpec | None:
    """``.rc`` by group mode, then the sender's card, then the arguments (services.modes); a
    card of another system than the chosen check's is refused, not read (``.set tick20`` with a
    CoC card active: no CoC 体质 as a D20 modifier)."""
    target = _rc_target(group_mode(await settings_for(app, ctx, view)), view, args, ctx.at_ids)
    if target is None:
        return None
    return guard_card(target, RC_SYSTEMS[target.system], view, args, ctx.at_ids)


def _rc_target(mode: Any, view: Any, args: str, mentions: tuple[str, ...]) -> CommandSpec | None:
    if mode is not None and mode.key == "coc7":
        return ra
    if mode is not None and mode.key in RC_BY_MODE:
        return RC_BY_MODE[mode.key]  # dnd5e: the D&D 5e check
    if mode is not None and mode.key == "tick20":
        return rc
    char = view.character if view is not None else None
    system = char.system if char is not None else ""
    if system == "tick20":
        return rc
    if system == "coc7" and mode is None:
        return ra
    if system in RC_BY_MODE and mode is None:
        return RC_BY_MODE[system]  # a dnd5e card in a fresh group: the D&D 5e check
    if reads_as_tick20(args, mentions):
        return rc
    return ra if mode is None else None


RC_SYSTEMS: dict[str, str] = {SYS_NAME: "coc7", rc.system: "tick20", "DnD5e": "dnd5e"}
"""The card system each ``.rc`` check reads, by the check's ``CommandSpec.system``."""


rc.resolve = resolve_rc
rc.detail += (
    "\n.rc 在不同的群：CoC7 模式的群里即 .ra（CoC检定）；DnD5e 模式是DnD5e检定（d20+调整值 对 DC）；"
    "未设模式时按你的角色卡（D20刻度卡/CoC卡）或参数形式判断（.help set）"
)

__all__ = ["ra", "rab", "rah", "rap", "reads_as_tick20", "resolve_rc", "run_check"]
