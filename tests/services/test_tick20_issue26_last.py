"""Issue 26, the last clauses of seed 002 after the audit: 自我 after the roll, <力竭> from another
cause, one 长休 per 单元, 次要领域 proficiency — each with the seed's numbers.

Seed: ``/work/shared/seeds/002_af7fdeaa609c9fb6.txt`` (人格 自我 line 284, 优势与劣势 335–339,
精力 90–91, 时间 560–561, 休息 669–670, 次要领域 255–256).
"""

from __future__ import annotations

from helpers import Scripted, parse_of, run, say

from chronodice.app import App

GM = {"user": "10001", "roles": ("owner",)}
P1 = {"user": "10002", "name": "艾琳"}
P2 = {"user": "10003", "name": "托林"}


def Dice(faces: list[int]) -> Scripted:
    return Scripted(faces, then_seed=1)


async def card(app: App, text: str, who: dict[str, object] = P1) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, text, **who)


# 1. 自我: 「她可以在掷骰后、GM宣布结果前使用这个效果」; 优势: 「再掷一枚额外的D20…将这2枚D20中，骰值较高的
#    一方作为这次检定真正的骰值」 — the seed's own dice, 15 and 5
async def test_ego_after_the_roll_adds_one_die_and_keeps_the_higher(app: App) -> None:
    await card(app, ".st 力量10 感悟12 自我3 狂气0")
    app.rng = Dice([5, 15])
    assert await say(app, ".rc 运动 12", **P1) == "艾琳 的运动检定：D20=5+0=5\n检定：5/12 失败（失败度7）"
    assert await say(app, ".自我", **P1) == (
        "艾琳 掷骰后消耗1点自我（剩2），运动检定获得优势：追加D20=15，取高\n"
        "艾琳 的运动检定：D20=[5,15]优势→15+0=15\n"
        "检定：15/12 成功（成功度3）"
    )
    # once per check: the same roll cannot buy a second die
    assert (await say(app, ".自我", **P1)).startswith("没有可以追加自我的检定")
    assert (await say(app, ".人格", **P1)).startswith("艾琳：人性0 自我2/12 狂气0")


# 优势与劣势: 「具有劣势时掷出15和5，则将5作为检定实际上的骰值」; 「同时具有优势与劣势，这两者会互相抵消，
# 角色不会投掷额外的D20」 — 自我 after a 劣势 roll: no extra die, the first D20 (15) counts
async def test_ego_after_a_disadvantage_roll_cancels_it(app: App) -> None:
    await card(app, ".st 力量10 感悟12 自我3")
    app.rng = Dice([15, 5, 1])
    text = await say(app, ".rc 运动 12 劣势", **P1)
    assert text.splitlines()[0] == "艾琳 的运动检定：D20=[15,5]劣势→5+0=5"
    text = await say(app, ".自我", **P1)
    assert text.splitlines() == [
        "艾琳 掷骰后消耗1点自我（剩2），运动检定获得优势：与劣势抵消：不计额外的D20（5），取第一枚15",
        "艾琳 的运动检定：D20=15+0=15",
        "检定：15/12 成功（成功度3）",
    ]
    assert app.rng.randint(1, 20) == 1  # no die was rolled for it


# 「如果同一次检定具有复数的优势…都只能掷一枚额外的D20」: nothing to gain, nothing spent
async def test_ego_after_an_advantage_roll_is_refused_without_spending(app: App) -> None:
    await card(app, ".st 力量10 感悟12 自我3")
    app.rng = Dice([5, 15])
    await say(app, ".rc 运动 12 优势", **P1)
    assert await say(app, ".自我", **P1) == (
        "这次检定已有优势，复数的优势也只掷一枚额外的D20：自我不会改变结果，没有消耗"
    )
    assert "自我3/12" in await say(app, ".人格", **P1)


# 自我: 「如果消耗1点自我值不会导致她陷入<发狂>」 — after the roll too; the check stays hers after a refusal
async def test_ego_after_the_roll_refused_when_it_would_make_her_mad(app: App) -> None:
    await card(app, ".st 力量10 感悟12 自我2 狂气4 人性1")
    app.rng = Dice([5, 15])
    await say(app, ".rc 运动 12", **P1)
    assert await say(app, ".自我", **P1) == "消耗1点自我后狂气4比自我1高3点或更多，会陷入<发狂>：不能消耗"
    await say(app, ".人格 安抚1", **P1)  # 狂气3: 3 − 1 = 2 < 3
    assert "追加D20=15，取高" in await say(app, ".自我", **P1)


async def test_ego_after_the_roll_is_the_checkers_own_latest_skill_check(app: App) -> None:
    await card(app, ".st 力量10 感悟12 自我3")
    await say(app, ".st 力量10 感悟12 自我3", **P2)
    app.rng = Dice([5, 6, 7])
    await say(app, ".rc 运动 12", **P1)
    assert (await say(app, ".自我", **P2)).startswith("没有可以追加自我的检定")  # not 艾琳's check
    await say(app, ".rc 力量 12", **P1)  # an attribute check is no 技能检定 and replaces nothing…
    assert "运动检定获得优势" in await say(app, ".自我", **P1)  # …her 运动 check is still open
    await say(app, ".rc 被动 运动 12", **P1)  # a passive check has no die to add to
    assert (await say(app, ".自我", **P1)).startswith("没有可以追加自我的检定")


# a hidden check stays hidden: 自我 spent on the GM's secret NPC check answers privately
async def test_ego_after_a_hidden_npc_check_goes_to_the_gm(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".npc 暗影 洞悉2 智慧14 感悟10 自我2", **GM)
    app.rng = Dice([5, 15])
    await run(app, ".rc 暗 暗影:洞悉 12", **GM)
    replies = await run(app, ".自我 暗影:", **GM)
    public = [r.text for r in replies if not r.private]
    secret = [r.text for r in replies if r.private]
    assert public == ["PL01 进行了一次暗中检定"]
    assert "暗影 的洞悉检定：D20=[5,15]优势→15+6=21" in secret[0]


# 2. 精力: 「角色因其他原因而陷入<力竭>时，如果她的SP高于0，则也会变为0」
async def test_exhausted_by_an_effect_sets_sp_to_zero(app: App) -> None:
    await card(app, ".st 体质14 魄力12 耐力2")  # SP max 4 + 2 + 1 = 7
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15", **P1)
    assert await say(app, ".init eff 艾琳 力竭 1轮", **GM) == (
        "艾琳 获得「力竭」（1轮）\n艾琳 因其他原因陷入<力竭>：SP 7→0/7"
    )
    assert "SP0/7" in await say(app, ".init", **GM)
    await say(app, ".hp 艾琳 sp =-2", **GM)
    # already at 0 or less: nothing changes (「如果她的SP高于0」)
    assert "SP" not in await say(app, ".init eff 艾琳 力竭 3轮", **GM)
    assert "SP-2/7" in await say(app, ".init", **GM)


# 3. 休息: 「角色在同一单元内最多完成1次长休，多余的休息时间会被视为连续的小憩」
async def test_one_long_rest_per_unit(app: App) -> None:
    await card(app, ".st 体质14 魄力12 耐力2")
    await say(app, ".st 体质12 魄力10", **P2)  # SP max 1 + 0 → 2
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15", **P1)
    await say(app, ".ri =12", **P2)
    await say(app, ".hp 艾琳 sp -10", **GM)  # 7 − 10 = −3
    assert "艾琳 长休：SP -3→4/7" in await say(app, ".hp 艾琳 长休", **GM)
    assert await say(app, ".hp 艾琳 长休", **GM) == (
        "艾琳 在第1单元已完成过1次长休（002：同一单元内最多完成1次长休，多余的休息时间视为小憩）；"
        "新的单元（通常是新的一天）请GM发送 .init 单元"
    )
    assert await say(app, ".hp 全体 长休", **GM) == (
        "全体长休\n  艾琳 在第1单元已完成过长休：这次视为小憩（SP不变）\n  托林 长休：SP 2→2/2"
    )
    assert "只有" in await say(app, ".init 单元", **P1)  # the GM says when a day has passed
    assert await say(app, ".init 单元", **GM) == "进入第2单元：每名角色本单元可再完成1次长休（.hp 全体 长休）"
    assert "艾琳 长休：SP 4→7/7" in await say(app, ".hp 艾琳 长休", **GM)
    assert "短休：SP" in await say(app, ".hp 艾琳 短休", **GM)  # 短休 has no such limit


# 4. 次要领域: 「如果角色从次要领域中习得的能力需要进行技能检定，则使用她在该领域上的熟练度，而非技能原本的熟练度」
async def test_secondary_domain_proficiency_replaces_the_skills(app: App) -> None:
    await card(app, ".st 智慧12 洞悉1 工程熟练3 LV4")
    app.rng = Dice([9, 9])
    # 洞悉 alone: +1 智慧 +2 PB (洞悉1); for a 《工程》 ability: +6 PB (工程3 × 2), not +2
    assert (await say(app, ".rc 洞悉 15", **P1)).splitlines()[0] == "艾琳 的洞悉检定：D20=9+3=12"
    assert await say(app, ".rc 洞悉 15 工程", **P1) == (
        "艾琳 的洞悉《工程》检定：D20=9+7=16\n修正：+1智慧+6《工程》熟练\n检定：16/15 成功（成功度1）"
    )
    # 「角色最多可以从她具有至少1级熟练度的次要领域中习得…能力」: no proficiency, no ability to check
    assert await say(app, ".rc 洞悉 15 《神秘》", **P1) == (
        "艾琳 的卡上没有《神秘》的熟练度（.st 神秘熟练2 录入）：002 只能从具有至少1级熟练度的次要领域习得能力"
    )
    assert await say(app, ".rc 智慧 15 工程", **P1) == "《工程》的熟练度用于技能检定（如 .rc 洞悉 15 工程）"
    app.rng = Dice([9])
    assert "洞悉（神秘的符号）检定" in await say(app, ".rc 洞悉 15 神秘的符号", **P1)  # a reason stays one


def test_domain_words() -> None:
    for text in (".rc 洞悉 15 工程", ".rc 洞悉 15 《工程》", ".rc 洞悉 15 工程领域", ".rc 洞悉 工程 15"):
        got = parse_of(text)
        assert isinstance(got, tuple) and got[2]["domain"] == "工程", text
    got = parse_of(".rc 洞悉 15 工程师的图纸")
    assert isinstance(got, tuple) and got[2]["domain"] is None and got[2]["reason"] == ["工程师的图纸"]
