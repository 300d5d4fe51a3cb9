"""``.sc`` (sanity check) and ``.en`` (skill growth) — both update the active card.

``.sc 1/1d6``: a check against the card's 理智; the loss (success side / failure side / the
failure side's maximum on 大失败) is taken off the card, and the reply says whether an 智力 roll
for temporary insanity (loss ≥ 5) or indefinite insanity (the day's losses ≥ 1/5 of the day's
starting 理智; how the day is counted: :mod:`chronodice.rules.coc7.sanity`) is due.
``.sc 1/1d6 60`` uses the value given and changes no card.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from chronodice.core.args import Int, Name, Pattern, arg, opt, rest
from chronodice.core.commands import Call, define
from chronodice.core.errors import ChronoDiceError, NotFound
from chronodice.core.reply import CheckNote, Reply
from chronodice.dice import DiceError, distribution, evaluate, parse
from chronodice.dice.trace import detail
from chronodice.rules.coc7.checks import Level, improves, judge
from chronodice.rules.coc7.derived import derive
from chronodice.rules.coc7.sanity import SanityResult, loss_for, sanity_result
from chronodice.rules.coc7.skills import CHARACTERISTICS, DERIVED, canonical, card_value, skill_value

from ._common import SYS_NAME, call_settings, coc_gate, house_rule

NOT_SKILLS = frozenset({*CHARACTERISTICS, *DERIVED, "克苏鲁神话"})
"""Names ``.en`` refuses: characteristics, 理智/体力/魔法, and 克苏鲁神话 (never raised by experience)."""


LOSS = Pattern(
    regex=r"([0-9dD+\-*()kKqQ]{1,20})\s*/\s*([0-9dD+\-*()kKqQ]{1,20})(?![^\s])",
    label="成功损失/失败损失",
    convert=lambda m: (m.group(1), m.group(2)),
)

sc = define(
    "sc",
    summary="理智检定：.sc 1/1d6（扣角色卡的理智）、.sc 0/1d4 60（给出理智值）",
    detail=(
        "成功扣斜线前的值，失败扣斜线后的值，大失败扣斜线后的最大值；大成功/大失败按本群房规\n"
        "一次损失≥5：需进行智力检定判断临时疯狂；当天（UTC+8 自然日）累计损失≥当天首次损失前理智的1/5：不定性疯狂"
    ),
    system=SYS_NAME,
)


def _roll_loss(call: Call, expr: str) -> tuple[int, str]:
    if expr.isdigit():
        return int(expr), expr
    rolled = evaluate(parse(expr), call.app.rng)
    return max(0, rolled.value), detail(rolled, expr)


def _max_loss(expr: str) -> int:
    try:
        return max(0, max(distribution(expr)))
    except DiceError as err:
        raise ChronoDiceError(f"「{expr}」的最大值算不出来：{err.user_message}") from err


@sc.sub(
    params=[
        arg("loss", LOSS),
        opt("value", Int(label="理智值", min=0, max=1000)),
        rest("reason", "理由", max_len=40),
    ],
    help="理智检定（不写理智值则用角色卡并扣除）",
)
async def cmd_sc(call: Call, loss: tuple[str, str], value: int | None, reason: str) -> list[Reply]:
    ok_expr, fail_expr = loss
    for expr in (ok_expr, fail_expr):
        try:
            parse(expr)
        except DiceError as err:
            raise call.usage_error(f"「{expr}」不是有效的损失：{err.message}") from err
    char = call.view.character if call.view is not None else None
    use_card = value is None
    if value is None:
        san = card_sanity(char.attributes) if char is not None else None
        if char is None or san is None:
            raise NotFound("角色卡上没有理智：先 .st 理智60，或写成 .sc 1/1d6 60")
        value = san
    rule = house_rule(await call_settings(call))
    d = call.app.rng.randint(1, 100)
    outcome = judge(d, value, rule)
    ok_loss = fail_loss = fail_max = 0
    if outcome.level == Level.FUMBLE:
        fail_max = _max_loss(fail_expr)
        trace = f"{fail_expr}取最大值={fail_max}"
    elif outcome.level.success:
        ok_loss, trace = _roll_loss(call, ok_expr)
    else:
        fail_loss, trace = _roll_loss(call, fail_expr)
    amount = loss_for(outcome, ok_loss, fail_loss, fail_max)
    result: SanityResult
    if use_card and char is not None:
        result = await _apply_to_card(call, char.id, amount)
    else:
        result = sanity_result(value, amount, day_start=value, day_lost_before=0)
    head = f"{call.player_name} 的理智检定" + (f"（{reason}）" if reason else "")
    lines = [
        f"{head}：D100={d}/{value} {outcome.label}",
        f"理智损失 {trace}"
        + (f"（实扣{result.loss}）" if result.loss != amount else "")
        + f"，理智 {result.old_san}→{result.new_san}",
    ]
    if result.zero:
        lines.append("理智归零：调查员陷入永久疯狂")
    else:
        if result.temporary:
            lines.append("一次损失≥5：请进行智力检定（.ra 智力），成功则陷入临时疯狂（.ti / .li）")
        if result.indefinite:
            day = "当天累计" if use_card else "这次"
            lines.append(f"{day}损失≥理智的1/5（{result.day_lost}）：陷入不定性疯狂")
    note = CheckNote("理智", outcome.label, outcome.level.success)
    return [Reply(text="\n".join(lines), check=note)]


def card_sanity(attrs: dict[str, Any]) -> int | None:
    """The card's 理智, else the starting 理智 its 意志 gives (a card pasted without 理智)."""
    san = card_value(attrs, "理智")
    if san is not None:
        return san
    start = derive(attrs, "理智")
    return start.value if start is not None and isinstance(start.value, int) else None


async def _apply_to_card(call: Call, char_id: int, amount: int) -> SanityResult:
    """Take ``amount`` off the card's 理智 and add it to the day's total (one CAS update)."""
    day = call.app.clock.day()  # the calendar day (UTC+8) the losses are added up over
    box: dict[str, SanityResult] = {}

    def change(c: Any) -> Any:
        san = card_sanity(c.attributes) or 0
        coc = dict(c.data.get("coc7", {}))
        track = coc.get("san_day") if isinstance(coc.get("san_day"), dict) else None
        if track is None or track.get("date") != day:
            track = {"date": day, "start": san, "lost": 0}
        res = sanity_result(san, amount, day_start=int(track["start"]), day_lost_before=int(track["lost"]))
        box["r"] = res
        coc["san_day"] = {**track, "lost": res.day_lost}
        attrs = {k: v for k, v in c.attributes.items() if canonical(k) != "理智" or k == "理智"}
        attrs["理智"] = res.new_san
        return replace(c, attributes=attrs, data={**c.data, "coc7": coc})

    await call.app.store.characters.update_character(char_id, change, claim=call.claim)
    return box["r"]


en = define("en", summary="技能成长：.en 侦查（d100 大于技能值或大于95则 +1d10）", system=SYS_NAME)


@en.sub(
    params=[arg("skill", Name(label="技能")), opt("value", Int(label="技能值", min=0, max=1000))],
    help="成长检定；成功时角色卡上的技能 +1d10（写了技能值则只报告）",
)
async def cmd_en(call: Call, skill: str, value: int | None) -> list[Reply]:
    char = call.view.character if call.view is not None else None
    name = canonical(skill)
    if name in NOT_SKILLS:
        raise call.usage_error(f"「{name}」不能通过成长检定提高（只有技能可以；克苏鲁神话也不行）")
    use_card = value is None
    if value is None:
        found = skill_value(char.attributes, skill) if char is not None else None
        if char is None or found is None:
            raise NotFound(f"没有「{skill[:20]}」的数值：先 .st {skill[:20]}60，或写成 .en {skill[:20]} 60")
        value = found
    rng = call.app.rng
    d = rng.randint(1, 100)
    head = f"{call.player_name} 的{name}成长检定：D100={d}/{value}"
    if not improves(d, value):
        return [Reply.say(f"{head} 失败，技能没有成长")]
    gain = rng.randint(1, 10)
    new = value + gain
    text = f"{head} 成功，{name} +1d10={gain}，{value}→{new}"
    if use_card and char is not None:
        key = next((k for k in char.attributes if canonical(k) == name), name)
        await call.app.store.characters.update_character(
            char.id, lambda c: replace(c, attributes={**c.attributes, key: new}), claim=call.claim
        )
    else:
        text += "（未写入角色卡）"
    if value < 90 <= new:
        text += "\n技能达到90：可获得2d6理智（.st 理智+N）"
    return [Reply.say(text)]


for _spec in (sc, en):
    coc_gate(_spec, card=True)

__all__ = ["en", "sc"]
