"""Issue 42: DnD5e groups — saves, proficiency, modifiers in expressions, HP, death saves, spell
slots, rests, ability generation and 5e initiative (without touching the D20 tick system)."""

from __future__ import annotations

from helpers import Scripted, say

from chronodice.app import App

GM = {"roles": ("owner",)}
TICK = "30003"


async def _torin(app: App) -> None:
    await say(app, ".set dnd5e", **GM)
    await say(app, ".pc new 托林")
    assert await say(app, ".st dex14 str10 wis12 隐匿5") == "已录入 <托林>：敏捷:14 力量:10 感知:12 隐匿:5"


async def test_saving_throws_name_the_card(app: App) -> None:
    await _torin(app)
    app.rng = Scripted([12, 9, 14, 3, 11], faces=20)
    assert await say(app, ".rc 敏捷豁免", name="艾拉") == "托林 的敏捷豁免检定：D20=12+2(敏捷)=14"
    assert await say(app, ".rc dex save", name="艾拉") == "托林 的敏捷豁免检定：D20=9+2(敏捷)=11"
    assert await say(app, ".rs 敏捷 DC13") == "托林 的敏捷豁免检定：D20=14+2(敏捷)=16 对 DC13 成功"
    assert await say(app, ".rc 豁免 感知 DC12") == "托林 的感知豁免检定：D20=3+1(感知)=4 对 DC12 失败"
    assert await say(app, ".rs wis 12") == "托林 的感知豁免检定：D20=11+1(感知)=12 对 DC12 成功"
    assert "隐匿是技能，没有豁免" in await say(app, ".rs 隐匿")


async def test_proficiency_expertise_and_advantage(app: App) -> None:
    await _torin(app)
    assert await say(app, ".st 察觉* 巧手** 敏捷豁免* lv5") == (
        "已录入 <托林>：等级:5 察觉:熟练 巧手:专精 敏捷豁免:熟练"
    )
    app.rng = Scripted([10, 10, 4, 17, 8, 15, 6], faces=20)
    assert await say(app, ".rc 察觉") == "托林 的察觉检定：D20=10+4(感知+熟练)=14"  # PB +3 at level 5
    assert await say(app, ".rc 巧手") == "托林 的巧手检定：D20=10+8(敏捷+专精)=18"
    assert await say(app, ".rc 优势 察觉") == "托林 的察觉检定：2D20优势=[4,17]→17+4(感知+熟练)=21"
    assert (
        await say(app, ".rc 隐匿 劣势 DC12") == "托林 的隐匿检定：2D20劣势=[8,15]→8+5(隐匿)=13 对 DC12 成功"
    )
    assert await say(app, ".rc 敏捷豁免") == "托林 的敏捷豁免检定：D20=6+5(敏捷+熟练)=11"
    show = await say(app, ".st show")
    assert "等级5 熟练加值+3" in show and "熟练：察觉 巧手(专精) 敏捷豁免" in show
    assert "不是技能或豁免" in await say(app, ".st 长剑*")


async def test_abilities_in_expressions_are_modifiers(app: App) -> None:
    await _torin(app)
    app.rng = Scripted([12, 5])
    assert await say(app, ".r d20+dex", name="艾拉") == "托林 掷骰: 1d20+dex=[12]+2=14"
    assert await say(app, ".r 1d8+str") == "托林 掷骰: 1d8+str=[5]+0=5"


async def test_hp_floor_temp_hp_massive_damage_and_death_saves(app: App) -> None:
    await _torin(app)
    assert await say(app, ".st hp20 thp3") == "已录入 <托林>：体力:20（上限20） 临时体力:3"
    assert await say(app, ".st hp-25") == (
        "已录入 <托林>：体力-25→0（临时体力抵消3），倒地昏迷（用 .ds 做死亡豁免）"
    )
    app.rng = Scripted([13, 1, 15, 12], faces=20)
    assert await say(app, ".ds") == "<托林> 的死亡豁免：D20=13 成功（成功1/失败0）"
    assert await say(app, ".ds") == "<托林> 的死亡豁免：D20=1 天然1，算两次失败（成功1/失败2）"
    assert await say(app, ".ds") == "<托林> 的死亡豁免：D20=15 成功（成功2/失败2）"
    assert await say(app, ".ds") == "<托林> 的死亡豁免：D20=12 成功——三次成功：伤势稳定"
    assert await say(app, ".st hp+5") == "已录入 <托林>：体力+5→5，恢复意识"
    assert await say(app, ".ds") == "<托林> 体力5/20，不需要死亡豁免"
    assert await say(app, ".st hp-26") == "已录入 <托林>：体力-26→0，伤害溢出达到体力上限：当场死亡"
    assert await say(app, ".ds") == "<托林> 已经死亡"


async def test_natural_twenty_and_three_failures(app: App) -> None:
    await _torin(app)
    await say(app, ".st hp10")
    await say(app, ".st hp-10")
    app.rng = Scripted([20, 2, 3, 4], faces=20)
    assert await say(app, ".ds") == "<托林> 的死亡豁免：D20=20 天然20！恢复1点体力，苏醒过来"
    await say(app, ".st hp-1")
    assert await say(app, ".st hp-3") == "已录入 <托林>：体力-3→0，昏迷中受伤：死亡豁免失败+1（成功0/失败1）"
    assert await say(app, ".ds") == "<托林> 的死亡豁免：D20=2 失败（成功0/失败2）"
    assert await say(app, ".ds") == "<托林> 的死亡豁免：D20=3 失败——三次失败：死亡"


async def test_spell_slots_and_rests(app: App) -> None:
    await _torin(app)
    await say(app, ".st hp12 con14")
    assert await say(app, ".ss") == "<托林> 的法术位：没有法术位"
    assert await say(app, ".ss 1 4") == "<托林> 的法术位：1环4/4"
    assert await say(app, ".ss 2 2") == "<托林> 的法术位：1环4/4 2环2/2"
    assert await say(app, ".ss -1") == "<托林> 的法术位：1环3/4 2环2/2"
    assert await say(app, ".ss use 2") == "<托林> 的法术位：1环3/4 2环1/2"
    assert await say(app, ".ss +1") == "<托林> 的法术位：1环4/4 2环1/2"
    assert "没有3环法术位" in await say(app, ".ss use 3")
    await say(app, ".st hp-9")
    assert await say(app, ".longrest") == "<托林> 完成长休：体力12/12；法术位：1环4/4 2环2/2；死亡豁免清零"
    await say(app, ".st hp-9")
    app.rng = Scripted([5, 3], faces=8)
    assert await say(app, ".短休 2d8") == (
        "<托林> 短休，花2颗生命骰：2D8=[5+3]+4(体质)=12，体力3→12/12（生命骰的剩余数量请自己扣除）"
    )
    assert "没有花生命骰" in await say(app, ".shortrest")
    assert "完成长休" in await say(app, ".长休")


async def test_ability_generation(app: App) -> None:
    await say(app, ".set dnd5e", **GM)
    app.rng = Scripted([6, 2, 4, 3] * 6, faces=6)
    assert await say(app, ".dnd") == (
        "PL01 的DnD5e属性（4d6去掉最低）：\n" + " ".join(["13[6,2,4,3]"] * 6) + "\n合计78"
    )
    app.rng = Scripted([1, 1, 1, 1] * 6 + [6, 6, 6, 1] * 6, faces=6)
    assert await say(app, ".dnd 2") == (
        "PL01 的DnD5e属性（4d6去掉最低）：\n第1组：3 3 3 3 3 3（合计18）\n第2组：18 18 18 18 18 18（合计108）"
    )
    assert "最多10" in await say(app, ".dnd 11") or "10" in await say(app, ".dnd 11")
    assert await say(app, ".dnd 标准") == "标准数组：15 14 13 12 10 8（自行分配给六项属性）"
    assert (
        await say(app, ".dnd 购点 15 14 13 12 10 8")
        == "购点 15 14 13 12 10 8：共27点，正好27点，符合购点规则"
    )
    assert (
        await say(app, ".dnd 购点 15 15 15 15 8 8") == "购点 15 15 15 15 8 8：共36点，超出9点，不符合购点规则"
    )
    assert await say(app, ".dnd 购点 16 8 8 8 8 8") == "购点的属性值须在8到15之间（16不行）"


async def test_5e_initiative_and_the_tick_system_untouched(app: App) -> None:
    await _torin(app)
    app.rng = Scripted([7, 11, 17, 12], faces=20)
    assert await say(app, ".ri") == "托林 的先攻：D20=7+2(敏捷)=9\n共1名；.init 查看先攻表，.init next 开始"
    assert await say(app, ".ri +2") == (
        "托林 的先攻：D20=11+2(敏捷)+2=15（已更新）\n共1名；.init 查看先攻表，.init next 开始"
    )
    assert (await say(app, ".ri +3 哥布林")).startswith("哥布林 的先攻：D20=17+3=20")
    assert (await say(app, ".ri =15 巨龙")).startswith("巨龙 的先攻：=15")
    assert (
        await say(app, ".init")
        == "先攻表（未开始，.init next 开始第1轮）：\n  哥布林 20\n  托林 15\n  巨龙 15"
    )
    assert await say(app, ".init next") == "第1轮，轮到 哥布林（先攻20）"
    assert await say(app, ".init 状态 托林 中毒 1") == "托林 进入「中毒」状态，持续1轮（在其回合结束时计数）"
    assert await say(app, ".ed") == "轮到 托林（先攻15）"
    assert await say(app, ".ed") == "托林 的「中毒」结束了\n轮到 巨龙（先攻15）"
    assert await say(app, ".ed") == "第2轮，轮到 哥布林（先攻20）"
    assert await say(app, ".init rm 巨龙") == "已将 巨龙 移出先攻表"
    assert await say(app, ".init clr") == "先攻表已清空，战斗结束"
    # a D20 tick group keeps its ticks
    await say(app, ".set tick20", group=TICK, **GM)
    app.rng = Scripted([20], then_seed=1)
    assert "(N20)" in await say(app, ".ri", group=TICK)


async def test_st_clr_leaves_a_dnd_card_and_dnd_commands_stay_silent_elsewhere(app: App) -> None:
    await _torin(app)
    assert await say(app, ".st clr") == "已清空 <托林> 的全部属性（现在是空白的DnD5e角色卡）"
    assert await say(app, ".st dex14") == "已录入 <托林>：敏捷:14"
    # a CoC card emptied in a DnD group is adopted
    await say(app, ".set coc7", group="40004", **GM)
    await say(app, ".pc new 艾拉", group="40004")
    await say(app, ".st 侦查60", group="40004")
    await say(app, ".pc tag 艾拉")
    assert "CoC7角色卡" in await say(app, ".st dex12")
    assert "空白的DnD5e角色卡" in await say(app, ".st clr")
    assert await say(app, ".st dex12") == "已录入 <艾拉>：敏捷:12"
    # silent in a group set to another system (its own bot may answer); a group with no mode
    # has nothing else to answer them: a card of another system is told so
    await say(app, ".set coc7", group="50005", **GM)
    for text in (".ds", ".dnd", ".rs 敏捷", ".ss", ".longrest", ".短休"):
        assert await say(app, text, user="10009", group="50005") == "", text
    for text in (".dnd", ".ds"):
        assert await say(app, text, user="10009", group="60006") != "", text


async def test_help_has_a_dnd5e_section(app: App) -> None:
    await say(app, ".set dnd5e", **GM)
    listing = await say(app, ".help")
    assert "【DnD5e】" in listing and ".ds" in listing and ".dnd" in listing
    assert "d20+dex" in await say(app, ".help dnd")
