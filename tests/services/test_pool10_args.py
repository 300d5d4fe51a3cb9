"""How the 无限恐怖 pool commands (.w .ww .wh) read their arguments: one table, plus the
player-visible replies of the bugs fixed by the migration to declared sub-commands."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from helpers import parse_of, run, say

from chronodice.app import App
from chronodice.rules.pool10 import TieRule
from chronodice.rules.pool10.allocation import Target
from chronodice.rules.pool10.expr import Term
from chronodice.rules.pool10.multiplier import Op


def N(name: str, sign: int = 1) -> Term:
    return Term(sign=sign, name=name)


def V(value: int, sign: int = 1, again: int | None = None) -> Term:
    return Term(sign=sign, value=value, again=again)


def side(*pool: Term, **over: Any) -> dict[str, Any]:
    """The options every pool reads (the second side of ``vs`` has these, and a reason)."""
    out: dict[str, Any] = {
        "pool": pool,
        "reason": "",
        "again": None,
        "dc": None,
        "bonus": [],
        "lost": [],
        "odds": False,
    }
    out.update(over)
    return out


def roll(
    *pool: Term, root: str = "ww", versus: dict[str, Any] | None = None, **over: Any
) -> tuple[str, str, Any]:
    repeat = over.pop("repeat", None)
    values = side(*pool, **over)
    return root, "", {"repeat": repeat, "pool": values.pop("pool"), "versus": versus, **values}


def attack(*pool: Term, **over: Any) -> tuple[str, str, Any]:
    values: dict[str, Any] = {
        "actor": None,
        "pool": pool,
        "target": None,
        "npc": None,
        "reason": "",
        "again": None,
        "bonus": [],
        "lost": [],
    }
    values["defence"] = None
    values["base_zero"] = False
    values.update(over)
    return "ww", "攻击", values


def defence(amount: tuple[int, ...] | None = None, **over: Any) -> tuple[str, str, Any]:
    values: dict[str, Any] = {"amount": amount, "who": None, "npc": None, "legend": None, "base_zero": False}
    values.update(over)
    return "ww", "防御", values


def multi(*pool: Term, targets: list[Target], **over: Any) -> tuple[str, str, Any]:
    values: dict[str, Any] = {
        "actor": None,
        "pool": pool,
        "targets": targets,
        "again": None,
        "bonus": [],
        "lost": [],
        "gained": None,
        "base_zero": False,
    }
    values.update(over)
    return "ww", "分配", values


SHORT_5 = "「⑤」不是有效的骰池（一个数或角色卡上的属性名）"

ROWS: list[tuple[str, object]] = [
    # glued threshold below 8: routed to us, answered with the rule (the router must not raise)
    (".wwa3", "加骰阈值不能低于8（规则：加骰的最低值为8），收到 a3"),
    (".wha5", "加骰阈值不能低于8（规则：加骰的最低值为8），收到 a5"),
    # ---- plain pools, glued and full-width forms
    (".ww 5", roll(V(5))),
    (".w 5", roll(V(5), root="w")),
    (".wh 3", roll(V(3), root="wh")),
    (".ww5", roll(V(5))),
    (".ww ５", roll(V(5))),  # full-width 5 is a 5
    ("。WW3a8", roll(V(3, again=8))),
    (".ww 10a8", roll(V(10, again=8))),
    (".ww ５ ｄｃ３", roll(V(5), dc=3)),
    (".w 力量+格斗-2", roll(N("力量"), N("格斗"), V(2, sign=-1), root="w")),
    (".ww (力量+格斗)-1 a9", roll(N("力量"), N("格斗"), V(1, sign=-1), again=9)),
    (".ww 敏捷+潜行a9", roll(N("敏捷"), N("潜行"), again=9)),
    (".ww Stealth+Agility", roll(N("Stealth"), N("Agility"))),
    (".ww 防御+敏捷", roll(N("防御"), N("敏捷"))),  # a card value that starts like a keyword
    # ---- options: threshold, DC, bonus/lost successes, odds, reason
    (".ww 潜行dc3", roll(N("潜行"), dc=3)),
    (".ww 5 难度3", roll(V(5), dc=3)),
    (".ww 5 +2s -1s", roll(V(5), bonus=[2], lost=[1])),
    (".ww 5 +2成功 附加1", roll(V(5), bonus=[2, 1])),
    (".ww 5 ？", roll(V(5), odds=True)),
    (".ww 5 概率", roll(V(5), odds=True)),
    (
        ".ww 敏捷+潜行 dc3 +2s -1s ? 偷偷",
        roll(N("敏捷"), N("潜行"), dc=3, bonus=[2], lost=[1], odds=True, reason="偷偷"),
    ),
    (".ww 5  偷偷 dc3", roll(V(5), reason="偷偷 dc3")),  # options stand before the reason
    # ---- opposed
    (".ww 5 vs 敏捷+潜行", roll(V(5), versus=side(N("敏捷"), N("潜行")))),
    (".ww 5 对抗 3", roll(V(5), versus=side(V(3)))),
    (".ww 敏捷+潜行vs感知+调查 a9", roll(N("敏捷"), N("潜行"), versus=side(N("感知"), N("调查"), again=9))),
    (".ww 3 vs", "对抗需要两边的骰池"),
    (".ww 5 vs ⑤", SHORT_5),
    # ---- Unicode digits and bad pools: the short error, never the internal one
    (".ww ⑤", SHORT_5),
    (".w ²", "「²」不是有效的骰池（一个数或角色卡上的属性名）"),
    (".ww ¹", "「¹」不是有效的骰池（一个数或角色卡上的属性名）"),
    (".ww 潜行²", "「潜行²」中间缺少+或-（理由请用空格隔开）"),
    (".ww", "缺少骰池"),
    (".ww 潜行2", "「潜行2」中间缺少+或-（理由请用空格隔开）"),
    (".ww 2d6", "骰池里不能写 d 骰（请用 .r 掷普通骰）"),
    (".ww 1000000000", "数值 1000000000 太大：一条指令最多掷1000颗骰子（含加骰）"),
    (".ww ((((((((1))))))))", "括号嵌套太深（最多5层）"),
    (".ww 5 a7", "加骰阈值不能低于8（规则：加骰的最低值为8），收到 a7"),
    (".ww 5a1", "加骰阈值不能低于8（规则：加骰的最低值为8），收到 a1"),
    (".ww 5 dc0", "DC应为1到1000"),
    (".ww 5 +12345s", "数值 12345 太大"),
    (".ww 5 dc3 dc4", "「dc4」不是有效的vs 骰池、a8/a9、+Ns或-Ns"),
    (".wwx", None),  # another bot's command
    # ---- attack
    (".ww 攻击 力量+格斗", attack(N("力量"), N("格斗"))),
    (".wh 攻击 力量", ("wh", "攻击", attack(N("力量"))[2])),
    (".ww 攻击2", attack(V(2))),
    (".ww 攻击 力量+格斗 防2", attack(N("力量"), N("格斗"), defence=2)),
    (".ww atk 力量 @10002 +1s", attack(N("力量"), target="10002", bonus=[1])),
    (".ww 攻击", "缺少骰池"),
    (".ww 攻击 力量 dc3", "「dc3」不是有效的@目标、a8/a9、+Ns或-Ns"),
    # ---- defence and action
    (".ww 防御", defence()),
    (".ww 防御3", defence((3,))),
    (".ww def 2", defence((2,))),
    (".ww 防御 3 @10002", defence((3,), who="10002")),
    (".ww 防御 abc", defence(npc="abc")),  # the handler asks for the amount (below)
    (".ww 防御 clr", ("ww", "防御 clr", {})),
    (".ww 防御 clear", ("ww", "防御 clr", {})),
    (".ww 行动", ("ww", "行动", {"who": None})),
    (".ww act @10002", ("ww", "行动", {"who": "10002"})),
    (".ww 行动 xyz", "「xyz」不是有效的@某人"),
    (".ww 行动 @12", "「@12」不是有效的@某人"),
    # ---- allocation and calculator
    (
        ".ww 分配 3 +4s 甲 乙*2=3/1",
        multi(V(3), targets=[Target("甲"), Target("乙", 2, (3, 1))], bonus=[4]),
    ),
    (
        ".ww multi 3 甲 ×2",
        multi(V(3), targets=[Target("甲"), Target("", 2)]),
    ),
    (
        ".ww 分配 3 甲，乙",
        multi(V(3), targets=[Target("甲"), Target("乙")]),
    ),
    (".ww 分配 3", "缺少目标[×次数][=分配/…]"),
    # ---- issue 12: NPC defence, 传奇, mid-action bonus, N#, the attacking NPC
    (".ww 防御 2 守卫", defence((2,), npc="守卫")),
    (".ww 防御 2/1 守卫 传奇1", defence((2, 1), npc="守卫", legend=1)),
    (".ww 防御 3 破防", defence((3,), base_zero=True)),
    (".ww 防御 2/1/1 @10002", defence((2, 1, 1), who="10002")),
    (".ww 防御 2/x", "「2/x」不是有效的防御附加成功数、传奇N、破防或@某人"),
    (".ww 攻击 守卫: 6 @10002", attack(V(6), actor="守卫", target="10002")),
    (".ww 攻击 守卫：力量+格斗", attack(N("力量"), N("格斗"), actor="守卫")),
    (".ww 攻击 6 @守卫 挥砍", attack(V(6), npc="守卫", reason="挥砍")),
    (".ww 攻击 6 @守卫 破防", attack(V(6), npc="守卫", base_zero=True)),
    (".ww 攻击 6 挥砍", attack(V(6), reason="挥砍")),
    (".ww 5 破防了", roll(V(5), reason="破防了")),  # only the attack forms read 破防
    (".ww 5 命中+2", roll(V(5), reason="命中+2")),
    (
        ".ww 分配 守卫: 6 +2s 命中+2 艾拉×2=1/1 破防",
        multi(V(6), actor="守卫", targets=[Target("艾拉", 2, (1, 1))], bonus=[2], gained=2, base_zero=True),
    ),
    (".ww 分配 6 途中+1s 甲×2", multi(V(6), targets=[Target("甲", 2)], gained=1)),
    (".ww 3#5", roll(V(5), repeat=3)),
    (".ww3#力量+格斗 dc2", roll(N("力量"), N("格斗"), repeat=3, dc=2)),
    (".w 2#3a8 砍", roll(V(3, again=8), repeat=2, root="w", reason="砍")),
    (
        ".ww 倍率 30 ×2 ×4 +50",
        (
            "ww",
            "倍率",
            {
                "base": Fraction(30),
                "ops": [Op("mul", Fraction(2)), Op("mul", Fraction(4)), Op("add", Fraction(50))],
                "real": False,
            },
        ),
    ),
    (
        ".ww calc 30 基础+10 *2 现实",
        (
            "ww",
            "倍率",
            {"base": Fraction(30), "ops": [Op("base", Fraction(10)), Op("mul", Fraction(2))], "real": True},
        ),
    ),
    (".ww 倍率 abc", "「abc」不是有效的基础值或现实/真实/real"),
    # ---- bonus successes on the card
    (".ww 附加", ("ww", "附加", {"pairs": None})),
    (
        ".ww 附加 潜行1 攻击2 防御3",
        ("ww", "附加", {"pairs": [("潜行", None, 1), ("攻击", None, 2), ("防御", None, 3)]}),
    ),
    (".ww bonus 潜行+1", ("ww", "附加", {"pairs": [("潜行", "+", 1)]})),
    (".ww 附加 防御3 守卫", "「守卫」缺少数值"),
    (".ww 附加 show", ("ww", "附加 show", {})),
    (".ww bonus list", ("ww", "附加 show", {})),
    (".ww 附加 del 潜行 Stealth", ("ww", "附加 del", {"names": ["潜行", "Stealth"]})),
    (".ww 附加 del", "缺少名字"),
    # ---- group defaults, help
    (".ww set", ("ww", "set", {"again": None, "tie": None, "clear": False})),
    (".ww set a9 超过", ("ww", "set", {"again": 9, "tie": TieRule.STRICT, "clear": False})),
    (".ww set 大于等于 a10", ("ww", "set", {"again": 10, "tie": TieRule.AT_LEAST, "clear": False})),
    (".ww set clr", ("ww", "set", {"again": None, "tie": None, "clear": True})),
    (".ww set a7", "加骰阈值不能低于8（规则：加骰的最低值为8），收到 a7"),
    (".ww set a8k6m9", "无限恐怖规则的成功线固定为8、骰子固定为D10，不能设置 k/q/m"),
    (".ww set 乱码", "「乱码」不是有效的a8/a9/a10/a11、超过/大于等于或clr/clear/重置"),
    (".ww help", ("ww", "help", {})),
    (".ww 帮助", ("ww", "help", {})),
]


@pytest.mark.parametrize(("text", "expected"), ROWS, ids=[r[0] for r in ROWS])
def test_pool10_args(text: str, expected: object) -> None:
    assert parse_of(text) == expected  # ``@10002`` typed in the text (a QQ @ comes as ``at=``)


# ---------------------------------------------------------------- fixed bugs, as players see them
async def test_bonus_table_error_shows_the_bonus_form(app: App) -> None:
    reply = await say(app, ".ww 附加 防御3 守卫")
    assert reply.splitlines()[0] == "「守卫」缺少数值"
    assert "格式：.ww 附加" in reply and ".st" not in reply


@pytest.mark.parametrize("text", [".ww ⑤", ".w ²", ".wh ¹"])
async def test_unicode_digits_get_the_short_error(app: App, text: str) -> None:
    reply = await say(app, text)
    assert "不是有效的骰池" in reply and "出错了" not in reply
    assert "格式：." in reply


async def test_full_width_five_is_five(app: App) -> None:
    reply = await say(app, ".ww ５", name="艾拉")
    assert reply.startswith("艾拉 掷骰池：5（10加骰）")


async def test_hidden_pool_stays_private(app: App) -> None:
    for text in (".wh 3", ".wh 3 ?", ".wh 攻击 3"):
        replies = await run(app, text, name="艾拉")
        public = [r.text for r in replies if not r.private]
        private = [r.text for r in replies if r.private]
        assert public == ["艾拉 进行了一次暗骰池"], text
        assert len(private) == 1 and private[0].startswith("在群20002中的暗骰池：\n艾拉"), text


async def test_opposed_refuses_dc_on_either_side(app: App) -> None:
    for text in (".ww 3 dc2 vs 3", ".ww 3 vs 3 dc2", ".ww 3 ? vs 3"):
        assert "对抗时DC由先手方的成功数决定" in await say(app, text), text
