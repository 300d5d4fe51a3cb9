"""Argument kinds of the issue-12 D20 tick rules (:mod:`chronodice.core.args`): the body part a check
uses, 004 attack damage, 重击/斩杀 on a Hit Gauge damage, an SP cost."""

from __future__ import annotations

from chronodice.core.args import Flag, Pattern, flag

from .kinds import Option

PART_USED = Flag(
    "part",
    Option(
        keys=("-部位", "-part"),
        kind=Pattern(
            regex=r"(?:([^\s/]{1,20})/)?([^\s/]{1,8})",
            label="[名称/]部位",
            convert=lambda m: (m.group(1), m.group(2)),
        ),
        label="-部位 [名称/]部位",
    ),
    label="-部位 [名称/]部位",
)
"""The body part a check uses (002: a <残障> part gives −4 状态)."""
DAMAGE = Flag(
    "damage",
    Pattern(regex=r"伤害 ?([0-9]{1,3})(?![0-9])", label="伤害N", convert=lambda m: int(m.group(1))),
    label="伤害N",
)
"""004 attack damage: a hit deals HR + N, a miss its 最低伤害 N − 4."""
CRIT = flag("crit", "重击", label="重击")
SP_COST = flag("cost", "消耗", label="消耗")
"""``.hp 名 sp -2 消耗``: an action's SP cost (refused below −max) rather than a damage."""
EXECUTE = Flag(
    "execute",
    Pattern(
        regex=r"(?i)斩杀(?: ?(?:(-?[0-9]{1,3})(?![0-9])|d([0-9]{1,2})\+d([0-9]{1,2})(?![0-9])))?",
        label="斩杀[结果/d8+d10]",
        convert=lambda m: (
            ("n", int(m.group(1)))
            if m.group(1)
            else ("dice", int(m.group(2)), int(m.group(3)))
            if m.group(2)
            else ("none",)
        ),
    ),
    label="斩杀[结果/d8+d10]",
)

__all__ = ["CRIT", "DAMAGE", "EXECUTE", "PART_USED", "SP_COST"]
