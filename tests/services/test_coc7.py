"""CoC 7th commands through the dispatcher: checks, house rules, hidden checks, cards, .sc,
.en, .coc, madness, group modes and .rc's choice of system, and .r's odds."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from helpers import Scripted, run, say

from chronodice.app import App
from chronodice.core.clock import CHINA, ManualClock

GM = {"roles": ("owner",)}


def script(app: App, *values: int) -> Scripted:
    rng = Scripted(values)
    app.rng = rng
    return rng


async def card(app: App, user: str = "10001", group: str | None = "20002") -> dict[str, object]:
    char = await app.store.characters.active_character(user, group or f"private:{user}")
    assert char is not None
    return dict(char.attributes)


# ------------------------------------------------------------------------------- checks
async def test_check_levels_and_values(app: App) -> None:
    script(app, 47, 1, 100, 12, 25, 26, 51)
    assert await say(app, ".ra 侦查60") == "PL01 的侦查检定：D100=47/60 成功"
    assert await say(app, ".ra 侦查 50") == "PL01 的侦查检定：D100=1/50 大成功"
    assert await say(app, ".ra 50") == "PL01 的检定：D100=100/50 大失败"
    assert await say(app, ".ra 侦查") == "PL01 的侦查检定：D100=12/25 困难成功"  # rule book base 25
    assert await say(app, ".ra 侦察") == "PL01 的侦查检定：D100=25/25 成功"
    assert await say(app, ".ra 聆听") == "PL01 的聆听检定：D100=26/20 失败"
    assert await say(app, ".ra 侦查 50 找线索") == "PL01 的侦查检定（找线索）：D100=51/50 失败"
    script(app, 35, 36)
    assert await say(app, ".ra 侦查+10") == "PL01 的侦查+10检定：D100=35/35 成功"
    assert await say(app, ".ra 侦查60-20") == "PL01 的侦查-20检定：D100=36/40 成功"


async def test_unknown_skill_without_value(app: App) -> None:
    assert await say(app, ".ra 烹饪") == "没有「烹饪」的数值：写成 .ra 烹饪60，或先 .st 烹饪60"
    assert "请写出技能名或数值" in await say(app, ".ra")


async def test_difficulty_and_repeats(app: App) -> None:
    script(app, 31, 30, 12, 96)
    assert await say(app, ".ra 困难侦查 60") == "PL01 的困难侦查检定：D100=31/60 失败（成功，未达困难）"
    assert await say(app, ".ra 困难侦查 60") == "PL01 的困难侦查检定：D100=30/60 困难成功"
    assert await say(app, ".ra 极难侦查 60") == "PL01 的极难侦查检定：D100=12/60 极难成功"
    assert await say(app, ".ra 困难侦查 60") == "PL01 的困难侦查检定：D100=96/60 大失败"  # needs ≤ 30
    script(app, 1, 12, 75)
    assert await say(app, ".ra 3#侦查 50") == (
        "PL01 的侦查检定×3：\n1. D100=1/50 大成功\n2. D100=12/50 困难成功\n3. D100=75/50 失败\n通过2次"
    )
    assert "检定次数应为1到10" in await say(app, ".ra 11#侦查")


async def test_bonus_and_penalty_dice(app: App) -> None:
    # units 7 (face 8), tens 9 and 2 (faces 10, 3): bonus keeps 27, penalty keeps 97
    script(app, 8, 10, 3)
    text = await say(app, ".rab 侦查 50")
    assert text == "PL01 的侦查检定（奖励骰×1）：b1=[个位7;十位(9),2]=27/50 成功", text
    script(app, 8, 10, 3)
    text = await say(app, ".rap 聆听 50")
    assert text == "PL01 的聆听检定（惩罚骰×1）：p1=[个位7;十位9,(2)]=97/50 失败", (
        text
    )  # 50+: only 100 fumbles
    script(app, 1, 1, 10, 10)  # units 0; tens 0 → 100, 9 → 90, 9 → 90: b2 keeps 90
    text = await say(app, ".rab2 侦查 95")
    assert text.endswith("=90/95 成功"), text
    assert "奖励骰最多3个" in await say(app, ".rab4 侦查")
    assert "个数至少为1" in await say(app, ".rab0 侦查")


async def test_house_rules(app: App) -> None:
    assert "只有" in await say(app, ".setcoc 3")
    assert (
        await say(app, ".setcoc 3", **GM)
        == "已将本群CoC房规设为 3：出1-5大成功；出96-100大失败（无视技能值）"
    )
    assert (await say(app, ".setcoc")).startswith("本群CoC房规：3（")
    script(app, 5, 96)
    assert await say(app, ".ra 侦查 3") == "PL01 的侦查检定：D100=5/3 大成功"
    assert await say(app, ".ra 侦查 99") == "PL01 的侦查检定：D100=96/99 大失败"
    await say(app, ".setcoc 0", **GM)
    script(app, 5, 96)
    assert await say(app, ".ra 侦查 3") == "PL01 的侦查检定：D100=5/3 失败"
    assert await say(app, ".ra 侦查 99") == "PL01 的侦查检定：D100=96/99 成功"
    # another group keeps the rule book
    script(app, 5)
    assert await say(app, ".ra 侦查 3", group="30003") == "PL01 的侦查检定：D100=5/3 失败"


async def test_hidden_check(app: App) -> None:
    script(app, 42)
    replies = await run(app, ".rah 侦查 60")
    public = [r.text for r in replies if not r.private]
    private = [r.text for r in replies if r.private]
    assert public == ["PL01 进行了一次暗中检定"]
    assert private == ["在群20002中的暗中检定：\nPL01 的侦查检定：D100=42/60 成功"]
    assert not any("42" in t for t in public)


# ------------------------------------------------------------------------------- cards
async def test_st_pastes_a_coc_card_with_aliases(app: App) -> None:
    text = await say(app, ".st 力量60敏捷50 san60 hp12 mp10 侦察70 STR65")
    assert text == "已录入 <PL01>：力量:65 敏捷:50 理智:60 体力:12 魔法:10 侦查:70"
    assert await card(app) == {"力量": 65, "敏捷": 50, "理智": 60, "体力": 12, "魔法": 10, "侦查": 70}
    assert "（CoC7）" in await say(app, ".pc show")
    assert await say(app, ".st hp-3") == "已录入 <PL01>：体力-3→9"
    assert await say(app, ".st san+2") == "已录入 <PL01>：理智+2→62"
    assert await say(app, ".st show hp san") == "<PL01> 体力:9 理智:62"
    assert await say(app, ".st del mp") == "已删除 <PL01> 的 魔法"
    script(app, 26)
    assert await say(app, ".ra 闪避") == "PL01 的闪避检定：D100=26/25 失败"  # 敏捷50 / 2


async def test_st_keeps_a_generic_card_generic(app: App) -> None:
    await say(app, ".st 力量14 体质12")
    assert "（通用）" in await say(app, ".pc show")
    assert await card(app) == {"力量": 14, "体质": 12}
    # names the pool10 / TimeLine / tick20 cards share with CoC do not switch the card
    await say(app, ".st 敏捷4潜行3格斗2 意志3 灵感6 int5")
    assert "（通用）" in await say(app, ".pc show")
    assert await card(app) == {
        "力量": 14,
        "体质": 12,
        "敏捷": 4,
        "潜行": 3,
        "格斗": 2,
        "意志": 3,
        "灵感": 6,
        "int": 5,
    }


# ------------------------------------------------------------------------------- .sc
async def test_sc_on_the_card(app: App, clock: ManualClock) -> None:
    clock.set(datetime(2026, 11, 22, 23, 0, tzinfo=CHINA))
    await say(app, ".st 理智60")
    script(app, 80, 4)
    assert await say(app, ".sc 1/1d6") == "PL01 的理智检定：D100=80/60 失败\n理智损失 1d6=4，理智 60→56"
    script(app, 30)
    assert await say(app, ".sc 1/1d6") == "PL01 的理智检定：D100=30/56 成功\n理智损失 1，理智 56→55"
    script(app, 100)  # 大失败: the failure side's maximum
    text = await say(app, ".sc 1/1d6")
    assert text.splitlines()[:2] == [
        "PL01 的理智检定：D100=100/55 大失败",
        "理智损失 1d6取最大值=6，理智 55→49",
    ]
    assert "请进行智力检定" in text and "不定性疯狂" not in text  # 11 of 60 today
    script(app, 70, 1)
    text = await say(app, ".sc 0/1d3")
    assert text == (
        "PL01 的理智检定：D100=70/49 失败\n理智损失 1d3=1，理智 49→48\n当天累计损失≥理智的1/5（12）：陷入不定性疯狂"
    )
    assert (await card(app))["理智"] == 48
    # a new day starts a new count (against the sanity before its first loss)
    clock.advance(3600)  # midnight in UTC+8
    script(app, 70, 3)
    assert "不定性" not in await say(app, ".sc 0/1d3")


async def test_sc_with_a_value_and_without_a_card(app: App) -> None:
    script(app, 90, 6)
    text = await say(app, ".sc 1/1d6 60", user="10009")
    assert text.splitlines()[:2] == ["PL09 的理智检定：D100=90/60 失败", "理智损失 1d6=6，理智 60→54"]
    assert "请进行智力检定" in text
    assert await app.store.characters.active_character("10009", "20002") is None
    assert await say(app, ".sc 1/1d6", user="10009") == "角色卡上没有理智：先 .st 理智60，或写成 .sc 1/1d6 60"
    assert "「1d6+」不是有效的损失" in await say(app, ".sc 1/1d6+")
    script(app, 95, 100)
    text = await say(app, ".sc 1d10/1d100 30", user="10009")
    assert "理智 30→0" in text and "永久疯狂" in text


# ------------------------------------------------------------------------------- .en .coc .ti .li
async def test_growth(app: App) -> None:
    await say(app, ".st 侦查70")
    script(app, 80, 7)
    assert await say(app, ".en 侦查") == "PL01 的侦查成长检定：D100=80/70 成功，侦查 +1d10=7，70→77"
    assert (await card(app))["侦查"] == 77
    script(app, 20)
    assert await say(app, ".en 侦察") == "PL01 的侦查成长检定：D100=20/77 失败，技能没有成长"
    script(app, 96, 10)
    text = await say(app, ".en 侦查 85")
    assert (
        text
        == "PL01 的侦查成长检定：D100=96/85 成功，侦查 +1d10=10，85→95（未写入角色卡）\n技能达到90：可获得2d6理智（.st 理智+N）"
    )
    assert (await card(app))["侦查"] == 77
    assert "「理智」不能通过成长检定提高" in await say(app, ".en san")
    assert "「克苏鲁神话」不能" in await say(app, ".en cm")


async def test_generation_and_madness(app: App) -> None:
    text = await say(app, ".coc 3")
    assert text.startswith("PL01 的CoC7人物作成：\n1. 力量:")
    assert (
        len(
            re.findall(
                r"^\d\. 力量:\d+ 体质:\d+ 体型:\d+ 敏捷:\d+ 外貌:\d+ 智力:\d+ 意志:\d+ 教育:\d+ 幸运:\d+$",
                text,
                re.M,
            )
        )
        == 3
    )
    assert "组数「11」超出范围" in await say(app, ".coc 11")
    script(app, 6, 3, 50)
    assert await say(app, ".ti") == "PL01 的疯狂发作（即时症状）：1d10=6\n昏厥：调查员当场晕倒，3轮后醒来。"
    script(app, 7, 5, 50)
    text = await say(app, ".li")
    assert text.startswith("PL01 的疯狂发作（总结症状）：1d10=7\n被收容") and "5小时" in text


# ------------------------------------------------------------------------------- modes and .rc
async def test_set_modes(app: App) -> None:
    assert await say(app, ".set") == "本群模式：未设置（CoC指令可用，.rc 按角色卡判断），默认骰 d100"
    assert "只有" in await say(app, ".set coc")
    assert await say(app, ".set coc", **GM) == "已将本群设为 CoC7（克苏鲁的呼唤第七版） 模式，默认骰 d100"
    assert await say(app, ".set dnd", **GM) == "已将本群设为 DnD5e（龙与地下城第五版） 模式，默认骰 d20"
    assert "1d20=" in await say(app, ".r")
    assert await say(app, ".set") == "本群模式：DnD5e（龙与地下城第五版），默认骰 d20"
    assert await say(app, ".set 12", **GM) == "已将默认骰设为 d12"
    assert await say(app, ".set") == "本群模式：DnD5e（龙与地下城第五版），默认骰 d12"
    assert "本群模式：DnD5e" in await say(app, ".help")
    assert await say(app, ".st str16 dex14 wis12") == "已录入 <PL01>：力量:16 敏捷:14 感知:12"
    assert "（本群模式下不回应" in await say(app, ".help")
    assert await say(app, ".set 无限恐怖", **GM) == "已将本群设为 无限恐怖（D10骰池） 模式，默认骰 d10"
    assert await say(app, ".set clr", **GM) == "已清除本群的模式和默认骰（默认骰 d100）"
    assert await say(app, ".set") == "本群模式：未设置（CoC指令可用，.rc 按角色卡判断），默认骰 d100"
    assert "本群模式：未设置" in await say(app, ".help")
    assert "（本群模式下不回应" not in await say(app, ".help")


@pytest.mark.parametrize(
    ("text", "system"),
    [
        (".rc 侦查", "coc"),
        (".rc 侦查60", "coc"),
        (".rc 侦查 60", "coc"),
        (".rc 力量60", "coc"),
        (".rc 0 20 被动", "d20"),
        (".rc 运动 15", "d20"),
        (".rc 洞悉 优势", "d20"),
        (".rc +3 15", "d20"),
        (".rc DEX+INS 13", "d20"),
        (".rc 运动 15 ²", "d20"),  # a bad D20 form gets the D20 error
    ],
)
async def test_rc_in_a_fresh_group_without_a_card(app: App, text: str, system: str) -> None:
    reply = await say(app, text)
    if system == "coc":
        assert "检定：D100=" in reply, reply
    else:
        assert "D100=" not in reply, reply
        assert (
            "D20" in reply or "d8" in reply or "角色卡上没有" in reply or "不是有效的理由、优势" in reply
        ), reply


async def test_rc_by_mode_and_by_card(app: App) -> None:
    await say(app, ".set coc7", **GM)
    assert "的运动检定：D100=" in await say(app, ".rc 运动 15")
    await say(app, ".set tick20", **GM)
    assert "没有「侦查」这项技能" in await say(app, ".rc 侦查")
    await say(app, ".st 力量14 体质12")  # a card made in a tick20 group is a D20-tick card
    assert "（D20刻度）" in await say(app, ".pc show")
    # the same player in a fresh group: the tick20 card makes .rc the D20 check
    assert "没有「侦查」这项技能" in await say(app, ".rc 侦查", group="30003")
    # a coc7 card makes .rc 运动 15 a CoC check in a fresh group
    await say(app, ".st 理智50 侦查60", user="10005", group="30003")
    assert "的运动检定：D100=" in await say(app, ".rc 运动 15", user="10005", group="30003")
    # in a TimeLine group .rc answers only the D20 form; the CoC form is left to other bots
    await say(app, ".set tl", group="40004", **GM)
    assert await run(app, ".rc 侦查", user="10006", group="40004") == []
    assert "运动检定：D20=" in await say(app, ".rc 运动 15", user="10006", group="40004")
    assert await run(app, ".ra 侦查", user="10006", group="40004") == []
    # a CoC card does not make .rc answer the CoC form in a TimeLine group, and the D20 form
    # refuses to read it (issue 30: no CoC 体质 as a D20 modifier)
    assert await run(app, ".rc 侦查", user="10005", group="40004") == []
    assert await say(app, ".rc 运动 15", user="10005", group="40004") == (
        "<PL05> 是CoC7角色卡，不能用于D20刻度检定：用 .pc tag 换一张D20刻度卡（或 .pc new 名字 新建），"
        "或 .set coc7 切回CoC7模式"
    )
    # ... while the player with the tick20 card gets the D20 check there
    assert "没有「侦查」这项技能" in await say(app, ".rc 侦查", group="40004")


# ------------------------------------------------------------------------------- .r odds
async def test_roll_odds(app: App) -> None:
    assert await say(app, ".r 4d6k3 ?") == (
        "PL01 4d6k3 的分布：均值 12.24，最小 3，最大 18\n≥5:99.6% ≥8:94.3% ≥10:82.5% ≥13:48.8% ≥15:23.1% ≥18:1.6%"
    )
    text = await say(app, ".r 2d6？")
    assert text.splitlines()[0] == "PL01 2d6 的分布：均值 7，最小 2，最大 12"
    assert "=7:16.7% ≥7:58.3%" in text.splitlines() and len(text.splitlines()) == 12
    assert await say(app, ".r 1d6! ?") == "「1d6!」的概率算不出来：第2个字符：爆炸骰（!）无法精确计算概率"
    assert await say(app, ".r b1 ?") == (
        "PL01 b1 的分布：均值 34，最小 1，最大 100\n≥17:70.8% ≥34:45.1% ≥50:26.1% ≥67:11.8% ≥83:3.4% ≥100:0.1%"
    )


async def test_no_flood_warning_for_commands_left_to_other_bots(app: App) -> None:
    from chronodice.core.ratelimit import FloodControl, FloodSettings

    await say(app, ".set tl", **GM)
    app.flood = FloodControl(FloodSettings(user_burst=2, user_rate=0.01))
    texts = [await say(app, ".ra 侦查") for _ in range(5)]
    assert texts == [""] * 5
    # in a fresh group the same burst gets its one warning
    app.flood = FloodControl(FloodSettings(user_burst=2, user_rate=0.01))
    texts = [await say(app, ".ra 侦查 50", group="30003") for _ in range(4)]
    assert "检定" in texts[0] and "检定" in texts[1] and "太快" in texts[2] and texts[3] == ""


async def test_checks_carry_what_log_stat_counts(app: App) -> None:
    """Each public CoC check reply carries its note for ``.log stat``; a hidden one carries none."""
    [one] = await run(app, ".ra 侦查60")
    assert one.check is not None and one.check.label == "侦查"
    level = re.search(r"/60 (\S+)", one.text)
    assert level and one.check.outcome == level.group(1)
    assert one.check.success == (level.group(1) in ("大成功", "极难成功", "困难成功", "成功"))
    [three] = await run(app, ".ra 3#侦查60")
    passed = re.search(r"通过(\d)次", three.text)
    assert passed and three.check is not None and three.check.outcome == f"通过{passed.group(1)}/3次"
    assert three.check.success is None
    assert all(r.check is None for r in await run(app, ".rah 侦查60"))
    [sc] = await run(app, ".sc 1/1d6 60")
    assert sc.check is not None and sc.check.label == "理智"


async def test_checks_name_the_card_in_use_here(app: App) -> None:
    """As SealDice does (and ``.r``): ``.ra``, ``.sc`` and ``.en`` name the player by the card
    in use in the group, not by the ``.nn`` nickname or the platform name."""
    await run(app, ".nn 小艾", name="艾拉")
    await run(app, ".pc new 托林", name="艾拉")
    await run(app, ".st 侦查60 理智50", name="艾拉")
    script(app, 47, 30, 1, 90, 4)
    assert await say(app, ".ra 侦查", name="艾拉") == "托林 的侦查检定：D100=47/60 成功"
    assert (
        await say(app, ".sc 1/1d6", name="艾拉") == "托林 的理智检定：D100=30/50 成功\n理智损失 1，理智 50→49"
    )
    assert (await say(app, ".en 侦查", name="艾拉")).startswith("托林 的侦查成长检定：D100=1/60")
