"""How the CoC 7th commands (.ra .rah .rab .rap .sc .en .coc .ti .li .setcoc) read their
arguments: one table of ``(text, parse or exact error or None for silence)``."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import parse_of

from chronodice.rules.coc7.checks import Difficulty


def check(
    skill: str | None = None,
    value: int | None = None,
    *,
    root: str = "ra",
    times: int | None = None,
    difficulty: Difficulty | None = None,
    adjust: int | None = None,
    reason: str = "",
    **extra: Any,
) -> tuple[str, str, dict[str, Any]]:
    values: dict[str, Any] = dict(extra)
    values.update(times=times, difficulty=difficulty, skill=skill, value=value, adjust=adjust, reason=reason)
    return root, "", values


def bonus(
    count: int | None, skill: str | None = None, value: int | None = None, root: str = "rab", **kw: Any
) -> Any:
    return check(skill, value, root=root, count=count, **kw)


ROWS: list[tuple[str, object]] = [
    # .ra: the forms SealDice / Dice! / OlivaDice players type
    (".ra 侦查", check("侦查")),
    (".ra侦查", check("侦查")),
    (".ra侦查60", check("侦查", 60)),
    (".ra 侦查60", check("侦查", 60)),
    (".ra 侦查 60", check("侦查", 60)),
    (".ra 侦查 60 找线索", check("侦查", 60, reason="找线索")),
    (".ra 60", check(None, 60)),
    (".ra 困难侦查", check("侦查", difficulty=Difficulty.HARD)),
    (".ra 极难侦查", check("侦查", difficulty=Difficulty.EXTREME)),
    (".ra 困难 侦查 60", check("侦查", 60, difficulty=Difficulty.HARD)),
    (".ra 3#侦查", check("侦查", times=3)),
    (".ra 侦查+10", check("侦查", adjust=10)),
    (".ra 侦查60-20", check("侦查", 60, adjust=-20)),
    (".ra 侦查 60 -20 埋伏", check("侦查", 60, adjust=-20, reason="埋伏")),
    (".ra 困难侦查+10", check("侦查", adjust=10, difficulty=Difficulty.HARD)),
    (".ra 3#困难侦查50", check("侦查", 50, times=3, difficulty=Difficulty.HARD)),
    (".ra 侦查 " + "长" * 41, "理由太长（最多40字）"),
    (".ra 侦查 1001", "技能值「1001」超出范围（应在0到1000之间）"),
    (".ra 侦查 60 2楼", "「2楼」不是有效的±修正或理由"),
    (".RA 侦查", check("侦查")),
    ("。ra 侦查", check("侦查")),
    (".ra", check()),
    (
        ".rav 斗殴",
        (
            "rav",
            "",
            {"skill1": "斗殴", "value1": None, "skill2": None, "value2": None, "who1": None, "who2": None},
        ),
    ),  # ours since issue 30
    (".raX", None),
    # hidden, bonus, penalty
    (".rah 侦查", check("侦查", root="rah")),
    (".rch 侦查", check("侦查", root="rah")),
    (".rab2 侦查", bonus(2, "侦查")),
    (".rab 侦查", bonus(None, "侦查")),
    (".rab2侦查", bonus(2, "侦查")),
    (".rcb2 侦查", bonus(2, "侦查")),
    (".rab4 侦查", bonus(4, "侦查")),  # refused by the handler: at most 3
    (".rab0 侦查", bonus(0, "侦查")),  # refused by the handler: at least 1
    (".rap 聆听 60", bonus(None, "聆听", 60, root="rap")),
    (".rap2 聆听", bonus(2, "聆听", root="rap")),
    (".rcp 聆听", bonus(None, "聆听", root="rap")),
    # .sc
    (".sc 1/1d6", ("sc", "", {"loss": ("1", "1d6"), "value": None, "reason": ""})),
    (".sc1/1d6", ("sc", "", {"loss": ("1", "1d6"), "value": None, "reason": ""})),
    (".sc 0/1d4+1 60", ("sc", "", {"loss": ("0", "1d4+1"), "value": 60, "reason": ""})),
    (".sc 1d10/1d100 看见了它", ("sc", "", {"loss": ("1d10", "1d100"), "value": None, "reason": "看见了它"})),
    (".sc 1d6", "「1d6」不是有效的成功损失/失败损失"),
    (".sc", "缺少成功损失/失败损失"),
    # .en
    (".en 侦查", ("en", "", {"skill": "侦查", "value": None})),
    (".en侦查60", ("en", "", {"skill": "侦查", "value": 60})),
    (".en", "缺少技能"),
    # .coc .ti .li .setcoc
    (".coc", ("coc", "", {"count": None})),
    (".coc 5", ("coc", "", {"count": 5})),
    (".coc5", ("coc", "", {"count": 5})),
    (".coc7", ("coc", "", {"count": None})),
    (".coc 11", "组数「11」超出范围（应在1到10之间）"),
    (".ti", ("ti", "", {})),
    (".li", ("li", "", {})),
    (".ti 2", "多余的「2」"),
    (".setcoc", ("setcoc", "", {"rule": None})),
    (".setcoc 2", ("setcoc", "", {"rule": 2})),
    (".setcoc2", ("setcoc", "", {"rule": 2})),
    (".setcoc 6", "房规「6」超出范围（应在0到5之间）"),
    (".setdnd", None),
]


@pytest.mark.parametrize(("text", "expected"), ROWS, ids=[r[0] for r in ROWS])
def test_rows(text: str, expected: object) -> None:
    assert parse_of(text) == expected


def test_table_is_big_enough() -> None:
    assert len(ROWS) >= 40
