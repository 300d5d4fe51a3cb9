"""``.rav`` (alias ``.rcv``): CoC 7th opposed checks between two players, SealDice's forms.

* ``.rav 斗殴 @某人`` — the sender against the @-mentioned player, the same skill;
* ``.rav 斗殴 闪避 @某人`` — the sender's 斗殴 against the other's 闪避;
* ``.rav 斗殴50 闪避40 @A @B`` — two other players, values written (else from their cards);
* ``.rav 侦查 @A @B`` — two other players, the same skill.

A value is the one written, else the side's card (another member's card read only through
:func:`~chronodice.services.card_access.member_card`, so only a card used in this group), else
the rule book's base value.  Both sides roll a regular check under the group's ``.setcoc`` house
rule; the winner comes from :func:`chronodice.rules.coc7.opposed.opposed`.  Answered only where
CoC commands are (the same gate as ``.ra``).
"""

from __future__ import annotations

from dataclasses import dataclass

from chronodice.core.args import Int, Mention, Name, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.reply import CheckNote, Reply
from chronodice.rules.coc7.checks import CheckOutcome
from chronodice.rules.coc7.derived import derive
from chronodice.rules.coc7.opposed import opposed
from chronodice.rules.coc7.skills import canonical, skill_value
from chronodice.services.card_access import member_card
from chronodice.services.modes import fits, wrong_card

from ._common import SYS_NAME, call_settings, coc_gate, house_rule, roll_check

DETAIL = (
    "例：.rav 斗殴 @某人（你和他比斗殴）；.rav 斗殴 闪避 @某人（你的斗殴对他的闪避）；"
    ".rav 侦查 @A @B（两位玩家对抗）；.rav 斗殴50 闪避40 @A @B（写出数值）\n"
    "数值：写出的数值，否则取对方在本群使用的角色卡，否则取规则书初始值\n"
    "胜负（规则书的对抗检定）：双方都失败为平局；否则成功等级高者胜；等级相同技能值高者胜；仍相同为平局"
)
SKILL = Name(label="技能")
VALUE = Int(label="技能值", min=0, max=1000)
WHO = Mention(label="@玩家")

rav = define(
    "rav",
    aliases=("rcv",),
    summary="CoC对抗检定：.rav 斗殴 @某人、.rav 斗殴 闪避 @某人、.rav 侦查 @A @B",
    detail=DETAIL,
    system=SYS_NAME,
    group_only=True,
)


@dataclass(frozen=True)
class Side:
    """One side of the check: who, the name the reply uses, the skill and its value."""

    user_id: str
    name: str
    skill: str
    value: int


async def _side(call: Call, uid: str, skill: str, value: int | None) -> Side:
    """The side of ``uid``: its name and the value of ``skill`` (written, card, or base)."""
    name = call.name if uid == call.ctx.user_id else await call.app.display_name(call.ctx, uid)
    label = canonical(skill)
    if value is None:
        char = await member_card(call, uid, "对抗检定", write=False)
        if char is not None and not fits(char.system, "coc7"):
            raise IllegalAction(wrong_card(char.name, char.system, "coc7"))
        if char is not None and name == uid:
            name = char.name  # no nickname known here: the card's name rather than a QQ number
        attrs = char.attributes if char is not None else {}
        value = skill_value(attrs, skill)
        derived = derive(attrs, skill) if value is None else None
        if derived is not None and isinstance(derived.value, int):
            value = derived.value
        if value is None:
            raise NotFound(f"{name} 没有「{skill[:20]}」的数值：写成 .rav {skill[:20]}60 …，或先 .st")
    return Side(uid, name, label, value)


def _line(side: Side, outcome: CheckOutcome, trace: str) -> str:
    return f"{side.name} 的{side.skill}：{trace}/{outcome.target} {outcome.label}"


@rav.sub(
    params=[
        opt("skill1", SKILL),
        opt("value1", VALUE),
        opt("skill2", SKILL),
        opt("value2", VALUE),
        opt("who1", WHO),
        opt("who2", WHO),
    ],
    help="对抗检定：@一人为你与他对抗，@两人为他们两人对抗",
)
async def cmd_rav(
    call: Call,
    skill1: str | None,
    value1: int | None,
    skill2: str | None,
    value2: int | None,
    who1: str | None,
    who2: str | None,
) -> list[Reply]:
    if skill1 is None:
        raise call.usage_error("请写出技能名，如 .rav 斗殴 @某人")
    if who1 is None:
        raise call.usage_error("请 @ 对抗的玩家，如 .rav 斗殴 @某人")
    first, second = (who1, who2) if who2 is not None else (call.ctx.user_id, who1)
    if first == second:
        raise call.usage_error("对抗检定需要两位不同的玩家")
    a = await _side(call, first, skill1, value1)
    b = await _side(call, second, skill2 or skill1, value2)
    rule = house_rule(await call_settings(call))
    outcome_a, roll_a = roll_check(call.app.rng, a.value, rule=rule)
    outcome_b, roll_b = roll_check(call.app.rng, b.value, rule=rule)
    result = opposed(outcome_a, outcome_b)
    verdict = "平局" if result.winner is None else f"{(a, b)[result.winner].name} 胜出"
    text = "\n".join(
        [
            f"{a.name} 与 {b.name} 的对抗检定：",
            _line(a, outcome_a, roll_a.trace),
            _line(b, outcome_b, roll_b.trace),
            f"结果：{verdict}（{result.why}）",
        ]
    )
    mine = {first: (a, outcome_a), second: (b, outcome_b)}.get(call.ctx.user_id)
    note = None if mine is None else CheckNote(mine[0].skill, mine[1].label, mine[1].passed)
    return [Reply(text=text, check=note)]


coc_gate(rav, card=True)

__all__ = ["Side", "cmd_rav", "rav"]
