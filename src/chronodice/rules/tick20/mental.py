"""002 精神伤害: a damage that takes SP instead of making wounds.

002 伤害类型与损伤: "所有类型的伤害共可以分为「物理伤害」与「精神伤害」两类。只有物理伤害能够造成伤势，
精神伤害只会扣除受到伤害的角色的SP" — 困顿/疼痛/欣快/屈服.  The seed gives no arithmetic of its
own for it, so the one of 造成伤势 is read with SP in place of wounds: ``DP − DR`` SP (at least 0),
Hit above 3 adding to DP, a direct damage ignoring DR, 贯通 ignoring a DR that does not exceed
the DP.  What the SP loss then does (<疲惫>, <力竭>, the 力竭 check, death at −max) is
:func:`.damage.change_sp`'s.  Which words may make up such a damage: :func:`.damage.check_wound_tags`.
"""

from __future__ import annotations

from chronodice.core.errors import InputSyntaxError

from .damage import MENTAL_TYPES, Damage


def is_mental(tags: list[str] | tuple[str, ...]) -> bool:
    """Whether a damage is 精神伤害 (checked by :func:`.damage.check_wound_tags`: then all of it is).

    >>> is_mental(["屈服"]), is_mental(["疼痛/困顿", "贯通"]), is_mental(["切割"])
    (True, True, False)
    """
    return any(w in MENTAL_TYPES for tag in tags for w in tag.split("/"))


def mental_loss(d: Damage) -> tuple[int, list[str]]:
    """The SP a 精神伤害 takes, and notes: 002 造成伤势's arithmetic with SP in place of wounds —
    Hit above 3 adds to DP ("如果某一效果的Hit超过3，则将多出的部分变为对DP的加值"), ``DP − DR``
    (at least 0), DP whole for a direct damage, 贯通 ignoring a DR not above the DP.  抗性/易伤 are
    kept by physical type only (``.hp 名 抗性 灼烧1``), so none applies here.

    >>> mental_loss(Damage(1, 2, 0, tags=("屈服",))), mental_loss(Damage(5, 2, 3, tags=("疼痛", "贯通")))
    ((2, []), (4, ['Hit5：DP+2', '贯通：无视DR']))
    """
    if d.hit < 1:
        raise InputSyntaxError("Hit 至少为1")
    if not 0 <= d.dp <= 99 or not 0 <= d.dr <= 99:
        raise InputSyntaxError("DP、DR 应在0~99之间")
    extra = max(0, d.hit - 3)
    dp = d.dp + extra
    notes = [f"Hit{d.hit}：DP+{extra}"] if extra else []
    ignore = d.direct or ("贯通" in d.tags and d.dr <= dp)
    if d.direct:
        notes.append("直接：无视DR")
    elif "贯通" in d.tags:
        notes.append("贯通：无视DR" if ignore else f"贯通：DR{d.dr}超过DP{dp}，不生效")
    return (dp if ignore else max(0, dp - d.dr)), notes


__all__ = ["is_mental", "mental_loss"]
