"""Issue 42, what SealDice groups type on day one: .st export, &formula attributes (.st/.r),
.nnn/.name, .gugu, .bot about — each through ``App.dispatch`` with the exact command."""

from __future__ import annotations

import random
import time

import pytest
from helpers import run

from chronodice.app import App
from chronodice.dice import parse, roll_command
from chronodice.rules.names import CN_DOUBLE_SURNAMES, CN_SURNAMES, random_names
from chronodice.services.characters import parse_attribute_pairs, st_lines
from chronodice.services.seal_habits import GUGU, version


async def texts(app: App, command: str, **kw: object) -> list[str]:
    return [r.text for r in await run(app, command, **kw)]  # type: ignore[arg-type]


# ---------------------------------------------------------------------- .st export
async def test_st_export_is_one_st_line_that_reads_back(app: App) -> None:
    await run(app, ".st 力量50敏捷60 幸运:-3 str12 &手枪=1d10")
    assert await texts(app, ".st export") == [
        "<PL01> 的属性（复制 .st 这一行发送即可录回）：\n.st 力量50敏捷60幸运:-3 str12 &手枪=1d10"
    ]
    line = (await texts(app, ".st export"))[0].split("\n")[1]
    await run(app, ".st clr")
    assert await texts(app, line) == ["已录入 <PL01>：力量:50 敏捷:60 幸运:-3 str:12 &手枪=1d10"]
    assert await texts(app, ".st show") == ["<PL01> 的属性：\n力量:50 敏捷:60 幸运:-3 str:12 &手枪=1d10"]


async def test_st_export_without_a_card_and_bad_arguments(app: App) -> None:
    assert await texts(app, ".st export") == ["你还没有角色卡，用 .st 力量60 录入或 .pc new 名字 新建"]
    await run(app, ".st 力量50")
    assert await texts(app, ".st export 力量") == ["「力量」不是有效的@某人\n格式：.st export [@某人]"]


def test_st_lines_glue_split_and_read_back() -> None:
    attrs = {f"技能{chr(0x4E00 + i)}": i for i in range(150)} | {"str": 9, "d": 3, "枪": "2d6+1"}
    lines, skipped = st_lines(attrs | {"2号": 1, "半": 1.5}, limit=300)
    assert skipped == ["2号", "半"] and len(lines) > 1 and all(len(x) <= 300 for x in lines)
    back: dict[str, object] = {}
    for line in lines:
        back.update((n, v) for n, _, v in parse_attribute_pairs(line.removeprefix(".st ")))
    assert back == attrs


# ---------------------------------------------------------------------- &formula attributes
async def test_formula_attribute_is_stored_shown_and_rolled(app: App) -> None:
    assert await texts(app, ".st &手枪=1d10") == ["已录入 <PL01>：&手枪=1d10"]
    assert await texts(app, ".st show 手枪") == ["<PL01> &手枪=1d10"]
    assert await texts(app, ".r 手枪") == ["PL01 掷骰: 手枪=1d10[8]=8"]
    assert await texts(app, ".r 1d20+手枪 射击") == ["PL01 掷骰 射击: 1d20+手枪=[4]+1d10[1]=5"]
    assert (await texts(app, ".r 手枪 ?"))[0].startswith("PL01 手枪 的分布：均值 5.5，最小 1，最大 10")
    assert await texts(app, ".st 手枪+1") == ["「手枪」不是数值，不能加减"]
    assert await texts(app, ".st 手枪5") == ["已录入 <PL01>：手枪:5"]  # a number replaces it
    assert await texts(app, ".r 手枪") == ["PL01 掷骰: 手枪=5"]


@pytest.mark.parametrize(
    ("command", "reply"),
    [
        (".st &手枪", "「&手枪」缺少公式（公式属性写作 &名字=公式，如 &手枪=1d10）"),
        (".st &=1d6", "「&=1d6」缺少属性名（公式属性写作 &名字=公式，如 &手枪=1d10）"),
        (".st &b=(1d6", "「&b=(1d6」的公式不是有效的掷骰表达式：第1个字符的括号没有闭合"),
        (".st &长=" + "1+" * 40 + "1", "「长」的公式太长（最多60个字符）"),
        (".st 伤害1d6", "「伤害1d6」：属性值只能是整数（公式写作 &伤害=1d6）"),
    ],
)
async def test_bad_formulas_get_one_line(app: App, command: str, reply: str) -> None:
    assert await texts(app, command) == [reply + "\n格式：.st [@某人] [属性名数值]"]


async def test_formulas_on_npc_cards_leave_their_numbers_readable(app: App) -> None:
    """An NPC card keeps a DnD5e weapon (``&弯刀=1d6+dex``, issue 42); the D20 and CoC checks
    that read the card's numbers still read them."""
    got = await texts(app, ".npc 卫兵 &刀=1d6 力量12", roles=("owner",))
    assert got == ["已录入NPC卡 <卫兵>（2项，数值已私聊GM）", "NPC卡 <卫兵>：&刀=1d6 力量:12"]
    assert (await texts(app, ".ra 卫兵:力量", roles=("owner",)))[0].startswith("卫兵 的力量检定：D100=")
    assert (await texts(app, ".rc 卫兵:力量", roles=("owner",)))[0].startswith("卫兵 的力量检定：D20=")
    got = await texts(app, ".team st &刀=1d6", roles=("owner",))
    assert got[0].startswith("「&刀=1d6」：这里只能录数值，公式属性（&名字=公式）用 .st 录入")


async def test_formula_naming_itself_or_others(app: App) -> None:
    await run(app, ".st 力量60 &伤害=1d3+加值 &加值=力量/20 &圈=圈+1")
    assert await texts(app, ".r 伤害") == ["PL01 掷骰: 伤害=1d3[2]+(60/20)=5"]
    assert await texts(app, ".r 圈") == ['属性 "圈" 的公式套用超过5层（或引用了自己）']


def test_formula_parse_is_linear_in_hostile_text() -> None:
    for text in ("&" * 20000, "&a=" * 6000, "& " * 10000, "&a" + " " * 20000 + "x"):
        start = time.perf_counter()
        with pytest.raises(Exception):  # noqa: B017 (any one-line refusal)
            parse_attribute_pairs(text)
        assert time.perf_counter() - start < 0.5, text[:10]


def test_dice_formula_variables() -> None:
    out = roll_command("枪+1", random.Random(1), variables={"枪": parse("2d6")})
    assert out.results[0].detail.startswith("枪+1=2d6[")
    dagger = {"匕首": parse("1d4+2")}
    out = roll_command("3#匕首", random.Random(1), variables=dagger)
    assert [r.detail[:7] for r in out.results] == ["匕首=1d4["] * 3
    totals = {r.total for r in roll_command("20#匕首", random.Random(2), variables=dagger).results}
    assert totals == {3, 4, 5, 6}  # rolled again each repeat


# ---------------------------------------------------------------------- .nnn / .name
async def test_nnn_names(app: App) -> None:
    (cn,) = await texts(app, ".nnn")
    assert cn.startswith("PL01 的随机中文名：")
    name = cn.split("：", 1)[1]
    assert name[0] in CN_SURNAMES or name[:2] in CN_DOUBLE_SURNAMES
    (en,) = await texts(app, ".nnn en 3")
    assert en.startswith("PL01 的随机英文名：") and en.count("、") == 2 and en.count("·") == 3
    (jp,) = await texts(app, ".nnn 5 jp")
    assert jp.startswith("PL01 的随机日文名：") and jp.count("、") == 4
    (alias,) = await texts(app, ".name 英文")
    assert alias.startswith("PL01 的随机英文名：")


async def test_nnn_is_seeded_by_the_app_rng(app: App) -> None:
    app.rng.seed(7)
    got = await texts(app, ".nnn 2")
    assert got == ["PL01 的随机中文名：" + "、".join(random_names(random.Random(7), "cn", 2))]


@pytest.mark.parametrize(
    ("command", "reply"),
    [
        (".nnn 11", "数量「11」超出范围（应在1到10之间）"),
        (".nnn fr", "「fr」不是有效的数量或cn/en/jp"),
        (".nnn en jp", "「jp」不是有效的数量"),
    ],
)
async def test_nnn_bad_arguments(app: App, command: str, reply: str) -> None:
    assert await texts(app, command) == [reply + "\n格式：.nnn [数量] [cn/en/jp]"]


# ---------------------------------------------------------------------- .gugu
async def test_gugu(app: App) -> None:
    (line,) = await texts(app, ".gugu")
    assert line.startswith("今天KP咕了，理由是：") and line.split("：", 1)[1] in GUGU
    assert len(GUGU) >= 20
    assert await texts(app, ".gugu 为什么") == ["多余的「为什么」\n格式：.gugu"]


# ---------------------------------------------------------------------- .bot about
async def test_bot_about(app: App) -> None:
    assert await texts(app, ".bot about") == [
        f"ChronoDice 时序骰娘 v{version()}\n"
        "支持的规则：CoC7（克苏鲁的呼唤第七版）、DnD5e（龙与地下城第五版）、时间线（TimeLine）、D20刻度、"
        "无限恐怖（D10骰池）、萌E（卡牌游戏）\n"
        "指令列表：.help；某条指令的用法：.help 指令名（如 .help st）"
    ]
    assert await texts(app, ".bot about", group=None) == await texts(app, ".bot about")
    await run(app, ".bot off", roles=("owner",))
    assert await texts(app, ".bot about") == []  # switched off: only .bot on answers
