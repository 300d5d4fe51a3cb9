"""Issue 26, D20 tick part: each defect's exact repro, with the seed line the fix follows.

Seeds: 002 (``/work/shared/seeds/002_af7fdeaa609c9fb6.txt``), 004 additions
(``004_729bde0900ca0b84.txt``).
"""

from __future__ import annotations

from helpers import Scripted, say

from chronodice.app import App

GM = {"user": "10001", "roles": ("owner",)}
P1 = {"user": "10002", "name": "艾琳"}


def Dice(faces: list[int]) -> Scripted:
    """``randint`` answers from ``faces`` first, then like ``random.Random(1)``."""
    return Scripted(faces, then_seed=1)


async def start_with_card(app: App, card: str, variant: str = "") -> str:
    await say(app, ".set tick20", **GM)
    await say(app, card, **P1)
    await say(app, f".init begin {variant}".strip(), **GM)
    await say(app, ".ri =15", **P1)
    return await say(app, ".init start", **GM)


# 1. 002 速度: 「速度基础为`灵巧熟练度+(STR+DEX)/4 (最低2)`」, 「修正值则由其缩写指代」
async def test_speed_uses_modifiers_not_attributes(app: App) -> None:
    # was: Mov 6 (full attributes 10+10 /4 + 1)
    assert "Mov 2" in await start_with_card(app, ".st 力量10 敏捷10 灵巧熟练1")


async def test_speed_rounds_toward_zero_at_the_end(app: App) -> None:
    # was: Mov 8; now 2 + (0 + 3)/4 = 2.75 → 2 (第一章「小数的处理」)
    assert "Mov 2" in await start_with_card(app, ".st 力量10 敏捷16 灵巧2")


# 2. 002 攻击检定: 「进行攻击检定时，使用的熟练度基于攻击的模式，而非技能原本的熟练度」
async def test_attack_check_uses_the_mode_proficiency(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".st 力量12 运动0 近战熟练3 武器熟练3 LV4", **P1)
    text = await say(app, ".rc 近战 12", **P1)
    assert "修正：+1力量+6武器熟练" in text  # was: only +1力量
    await say(app, ".st 魔法源流2", **P1)
    assert "+4魔法熟练" in await say(app, ".rc 远程魔法 12", **P1)
    assert "熟练" not in await say(app, ".rc 运动 12", **P1)  # a plain 运动 check: 运动0


# 3. 002 伤害类型: 「只有物理伤害能够造成伤势，精神伤害只会扣除受到伤害的角色的SP」
async def test_mental_damage_and_unknown_words_make_no_wound(app: App) -> None:
    await start_with_card(app, ".st 力量10")
    text = await say(app, ".wound 艾琳 躯干 hit1 dp2 dr0 屈服", **GM)  # issue 39: it takes SP now
    assert text == "艾琳 还没有SP上限，精神伤害无处可扣：先 .hp 艾琳 sp上限 N"
    text = await say(app, ".wound 艾琳 躯干 hit1 dp2 dr0 乱写", **GM)
    assert text.startswith("不认识「乱写」：伤害类型写 冲击/切割/")
    assert "\n" not in text
    assert "躯干" not in await say(app, ".init", **GM)  # no wound was made (was: 擦伤×2, then ×4)
    assert "擦伤×2" in await say(app, ".wound 艾琳 躯干 hit1 dp2 dr0 灼烧/腐蚀 贯通", **GM)


# 4. 004: 「其次由LV较高的角色先开始回合」, 自愈「恢复 `LV` 点HP和MP」
async def test_004_card_lv_is_read(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".st DEX8 INS6 MIG10 WLP8 LV5", **P1)
    await say(app, ".init begin 速度", **GM)
    await say(app, ".ri =15", **P1)
    await say(app, ".ri =15 哥布林", **GM)
    text = await say(app, ".init start", **GM)
    assert "▶ 艾琳 的回合" in text  # LV5 > LV0 (was: the NPC first, as both read LV0)
    await say(app, ".hp 艾琳 hg 8/8", **GM)
    await say(app, ".hp 艾琳 -6", **GM)
    assert "艾琳 自愈（LV5）：HP+5" in await say(app, ".hp 全体 自愈", **GM)  # was: LV0 HP+0


# 5. 002 濒死检定: 「如果在<昏迷>中进行这一检定，将具有劣势」
async def test_dying_check_in_a_coma_effect_has_disadvantage(app: App) -> None:
    await start_with_card(app, ".st 体质10")
    await say(app, ".wound 艾琳 头部 擦伤x4", **GM)
    await say(app, ".init eff 艾琳 昏迷", **GM)
    app.rng = Dice([15, 4])
    text = await say(app, ".濒死", **P1)
    # was: D20=15→15/15 成功 (the <昏迷> effect was not seen)
    assert "D20=15/4（<昏迷>劣势，取低）→4/15 大失败" in text


# 6. .ri names and the 速度 variant's NPC dice
async def test_ri_number_after_a_name_is_part_of_it(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".init begin", **GM)
    app.rng = Dice([9, 9])
    assert "哥布林2 的先攻：D20=9+3=12" in await say(app, ".ri +3 哥布林2", **GM)  # was: 哥布林 =2
    assert "2号哥布林 的先攻：D20=9+3=12" in await say(app, ".ri +3 2号哥布林", **GM)  # was: 号哥布林 =2
    assert "巢穴 的先攻：=12" in await say(app, ".ri 12 巢穴", **GM)
    assert "巢穴b 的先攻：=20" in await say(app, ".ri20巢穴b", **GM)
    assert "卫兵3" in await say(app, ".ri 3#卫兵", **GM)  # issue 39: numbered, as 卫兵*3


async def test_ri_spd_npc_dice(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".init begin 速度", **GM)
    app.rng = Dice([7, 5, 3, 4])
    assert "巨魔 的先攻：d8+d6=[7,5]+6=18" in await say(app, ".ri 巨魔:d8+d6", **GM)  # was: 巨魔:d8+d =6
    assert "狼 的先攻：d6+d6=[3,4]+6=13" in await say(app, ".ri 狼", **GM)
    await say(app, ".init end 确认", **GM)
    await say(app, ".init begin", **GM)
    assert "是速度规则（004）的双骰先攻" in await say(app, ".ri 巨魔:d8+d6", **GM)


# 7. the list before start shows the order round 1 runs
async def test_setup_list_shows_round_one_tie_order(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =10", **P1)
    await say(app, ".ri =10 Y", **GM)
    await say(app, ".ri =10 Z", **GM)
    listing = await say(app, ".init", **GM)
    rows = [line.split()[1] for line in listing.splitlines()[1:4]]
    card = await say(app, ".init start", **GM)
    assert rows == ["Y", "Z", "艾琳"]  # was: 艾琳, Y, Z (join order)
    assert "▶ Y 的回合" in card and "接下来：第10刻 Z → 第10刻 艾琳" in card


# 8. a GM's .init next right after a player's .ed
async def test_duplicate_next_says_who_just_ended(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15", **P1)
    await say(app, ".ri =10 哥布林", **GM)
    await say(app, ".init start", **GM)
    await say(app, ".ed", **P1)
    text = await say(app, ".init next", **GM)
    # was: 回合已经推进到 哥布林 的回合（第10刻），没有重复推进
    assert text == "艾琳 刚刚已经结束回合，现在是 哥布林 的回合（第10刻）；无需再发 .init next，没有重复推进"


# 10. wording
async def test_wording_fixes(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15", **P1)
    await say(app, ".ri =10 哥布林", **GM)
    assert "血量=模糊" in await say(app, ".init meta -血量 模糊", **GM)  # was: 血量fuzzy
    assert "血量=显示" in await say(app, ".init meta -血量 显示", **GM)  # was: 血量show
    app.rng = Dice([4, 1])
    assert "狼 的先攻：D20=[4,1]优势→4+0=4" in await say(app, ".ri 优势 狼", **GM)  # was: D20=4/1+0=4
    await say(app, ".init start", **GM)
    text = await say(app, ".init eff 艾琳 束缚 直到被解除", **GM)
    assert "直到直到" not in text and "直到被解除" in text
    await say(app, ".延后", **P1)
    assert "14(主要先攻15)" in await say(app, ".init", **GM)  # was: 15(当前14)


# 11. 002 精力值: 「精力值的上限为`耐力PB+CON+WIL (最低2)`点」 (耐力PB = 耐力熟练度×2, CON/WIL modifiers)
async def test_sp_maximum_from_the_card(app: App) -> None:
    # 体质14 魄力12 耐力2: PB 4 + CON 2 + WIL 1 = 7, SP starts full (was: no SP until .hp sp上限)
    await start_with_card(app, ".st 体质14 魄力12 耐力2")
    assert "SP7/7" in await say(app, ".init", **GM)
    assert "SP7/9" in await say(app, ".hp 艾琳 sp上限 9", **GM)  # the GM's maximum still wins


async def test_sp_maximum_from_the_card_is_at_least_2(app: App) -> None:
    await start_with_card(app, ".st 体质6 魄力6")  # 0 − 2 − 2 = −4 → 2
    assert "SP2/2" in await say(app, ".init", **GM)


# 12. 002 精力值: 「完成短休可以恢复1点SP。完成长休则可以恢复最多等于精力值上限的SP」
async def test_short_and_long_rest_restore_sp(app: App) -> None:
    await start_with_card(app, ".st 体质14 魄力12 耐力2")
    await say(app, ".hp 艾琳 sp -10", **GM)  # 7 − 10 = −3
    assert "艾琳 短休：SP -3→-2/7" in await say(app, ".hp 全体 短休", **GM)
    assert "艾琳 长休：SP -2→5/7" in await say(app, ".hp 艾琳 长休", **GM)  # +7, not "full"
    await say(app, ".init 单元", **GM)  # 「同一单元内最多完成1次长休」: the next day
    assert "艾琳 长休：SP 5→7/7" in await say(app, ".hp 艾琳 长休", **GM)  # capped at the maximum


async def test_rest_is_refused_in_the_speed_variant(app: App) -> None:
    await start_with_card(app, ".st MIG6 WLP6 DEX6 INS6", "速度")
    text = await say(app, ".hp 全体 短休", **GM)
    assert text == "短休/长休恢复的是SP，只用于基础规则（002）；速度规则（004）没有SP"


# 13. 004 生命值和精神值: HG「数量等于角色的 `基础MIG骰尺寸`」, MG「数量等于角色的 `基础WLP骰尺寸`」
async def test_gauges_from_the_card_dice(app: App) -> None:
    # MIG10 WLP8 LV3: 10 HG and 8 MG of 5, +1 capacity per LV on the first three (was: no gauges)
    await start_with_card(app, ".st MIG10 WLP8 DEX6 INS6 LV3", "速度")
    text = await say(app, ".hp 艾琳 -1", **GM)
    assert "MP43/43[6,6,6,5,5,5,5,5]" in text
    assert "HG[5/6,6/6,6/6,5/5,5/5,5/5,5/5,5/5,5/5,5/5] HP52/53" in text
    assert "HG[6/6,6/6,6/6] HP18/18" in await say(app, ".hp 艾琳 hg 3", **GM)  # the GM's count wins
