"""Issue 11 §2 rules outside the timeline: rest, healing by 医学, distance/movement/range,
weapon 效率, overload, negotiation's ``≤`` (issue 25; was ``<``)."""

from __future__ import annotations

import pytest
from helpers import say

from chronodice.app import App
from chronodice.core.errors import IllegalAction
from chronodice.rules.timeline.character import Weapon, import_sheet
from chronodice.rules.timeline.checks import negotiation_success
from chronodice.rules.timeline.efficiency import efficiency
from chronodice.rules.timeline.movement import box_distance, move_windup, range_check
from chronodice.rules.timeline.recovery import healing, rest_gain
from chronodice.rules.timeline.sheet import Sheet

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:{load}"
)
GM = {"roles": ("admin",)}


async def setup(app: App, name: str = "甲", user: str = "10001", load: float = 0) -> None:
    assert "设置完成√" in await say(app, SHEET.format(name=name, load=load), user=user)


class FixedRoll:
    def __init__(self, value: int) -> None:
        self.value = value

    def randint(self, a: int, b: int) -> int:
        return self.value


# ---------------------------------------------------------------- engine, with the book's numbers
def test_rest_is_a_fifth_of_max_will_per_night() -> None:
    # book: 一夜的休息可以恢复总意志的五分之一; standard sheet 意志 150 → 30 a night
    assert rest_gain(60.0, 150.0) == 90.0
    assert rest_gain(60.0, 150.0, 2) == 120.0
    assert rest_gain(140.0, 150.0) == 150.0  # not above the maximum
    assert rest_gain(170.0, 150.0) == 170.0  # above it already: kept
    with pytest.raises(IllegalAction):
        rest_gain(0.0, 150.0, 0)


def test_healing_target_value_is_the_amount() -> None:
    # 医学 100 (standard sheet fields), target = amount: 20 → 100 %, 50 → 40 %; 250 vs 100 → 50 % (book)
    assert healing(100.0, 20, 0.0, 150.0).rate == 100.0
    assert healing(100.0, 50, 0.0, 150.0).rate == 40.0
    assert healing(250.0, 100, 0.0, 150.0).rate == 50.0
    h = healing(100.0, 80, 120.0, 150.0)  # only 30 missing
    assert (h.amount, h.rate, h.success(67), h.success(68)) == (30.0, 67.0, True, False)


def test_box_distance_and_movement() -> None:
    assert box_distance(3, 4, 12) == 13.0
    assert box_distance(1, 1, 1) == 1.7  # √3 r1
    assert move_windup(13.0, 175.0) == 1.49  # 20·13/175
    assert range_check(13.0, "15D").in_range and not range_check(13.0, "10D").in_range
    assert range_check(1.0, None).in_range and not range_check(2.0, None).in_range


def test_weapon_efficiency() -> None:
    assert efficiency(Weapon("手术刀", "amplifier", attribute="strength", damage=10), 10) == 1.1
    pistol = Weapon("明日", "artillery", damage=50, cast=3, load=7, reload_time=15)
    assert efficiency(pistol, 10) == 1.06  # 350/36 = 9.72 per t over 0.916·10
    assert efficiency(pistol, 20) == 0.53


def test_negotiation_roll_equal_to_the_rate_succeeds() -> None:
    # issue 25: the book's general rule 骰值小于等于成功率则成功 (MayuriBot ≤), not 交涉战's "小于"
    assert negotiation_success(50, 50.0) and not negotiation_success(51, 50.0)


def test_overload_multiplies_dexterity_by_001() -> None:
    from chronodice.rules.timeline.load import overload_note

    light = import_sheet(Sheet.standard())
    assert overload_note(light.derived()) is None
    heavy = import_sheet(Sheet.standard(weight=200))
    d = heavy.derived()
    assert d.checks["dexterity"] == 1.75  # 175 × 0.01
    assert overload_note(d) == "⚠超重：负重 200.0/175.0，敏捷×0.01（规则书：超过负重无法行动）"


# ---------------------------------------------------------------- commands
async def test_rest_command(app: App) -> None:
    await setup(app)
    await say(app, ".crd mp -100")
    assert await say(app, ".crd 休息") == "甲休息1夜：意志 50.0→80.0/150.0（每夜恢复总意志的1/5 = 30.0）"
    assert "意志 80.0→140.0/150.0" in await say(app, ".crd rest 2")
    assert "意志 140.0→150.0/150.0" in await say(app, ".crd 休息 3夜")
    assert "休息天数应在1到30之间" in await say(app, ".crd 休息 99")


async def test_heal_command(app: App) -> None:
    await setup(app, "甲", "10001")
    await setup(app, "乙", "10002")
    await say(app, ".crd hp -60", user="10002")
    app.rng = FixedRoll(40)  # type: ignore[assignment]
    text = await say(app, ".heal 体力 50", user="10001", at=("10002",), **GM)
    assert text.startswith(
        "甲为乙进行[医学及生命科学]治疗检定\n恢复体力 50.0（目标数值50.0）\n成功率：40%\n检定：40/40\n🎉成功！"
    )
    assert "90.0→140.0/150.0" in text
    app.rng = FixedRoll(41)  # type: ignore[assignment]
    text = await say(app, ".heal 体力 50", user="10001", at=("10002",), **GM)
    assert "恢复体力 10.0" in text and "成功率：200%" in text  # only 10 missing
    text = await say(app, ".heal 意志 10")
    assert "不需要恢复" in text
    app.rng = FixedRoll(99)  # type: ignore[assignment]
    await say(app, ".crd hp -100")
    assert "❗️失败！未能恢复" in await say(app, ".heal 体力 50")
    assert "体力: 50.0/150.0" in await say(app, ".crd")


async def test_dist_command(app: App) -> None:
    assert await say(app, ".dist 3 4 12") == "距离：√(3²+4²+12²) = 13.0D"
    await setup(app)
    text = await say(app, ".dist 3 4 12")
    assert "甲以敏捷175.0移动13.0D：前摇1.49t" in text and "[徒手]射程1.0D，够不着×（差12.0D）" in text
    assert "够得着√" in await say(app, ".dist 1")
    assert "边长" in await say(app, ".dist")


async def test_negotiation_roll_equal_to_rate_succeeds(app: App) -> None:
    # issue 25 (was: equal fails); the exact repro and numbers are in test_timeline_issue25.py
    await setup(app)
    await say(app, ".neg 10 35")
    app.rng = FixedRoll(50)  # type: ignore[assignment]
    text = await say(app, ".neg 100")
    assert "成功率：50%" in text and "检定：50/50" in text and text.endswith("🎉成功！")
    app.rng = FixedRoll(51)  # type: ignore[assignment]
    assert (await say(app, ".neg 100")).endswith("❗️失败！")


async def test_efficiency_overload_and_range_on_the_card(app: App) -> None:
    await setup(app)
    wp = ".setupWP 名称:手术刀,类型:增幅,增幅属性:力量,伤害:10,前摇:,射程:2D,载弹量:,装填时间:,负重:{w},备注:"
    text = await say(app, wp.format(w=10))
    assert "增加武器[手术刀]√" in text and "超重" not in text
    assert "效率——: 1.1" in await say(app, ".wp show")
    assert "[手术刀]射程2.0D，够得着√" in await say(app, ".dist 1 1")
    text = await say(app, wp.format(w=300).replace("手术刀", "铁砧"))
    assert text.endswith("⚠超重：负重 310.0/175.0，敏捷×0.01（规则书：超过负重无法行动）")
    assert "⚠超重：负重 310.0/175.0" in (await say(app, ".chr show"))
    # issue 25: the book says an overloaded character cannot act; a GM acting for it overrides
    assert await say(app, ".bat 力量 10") == (
        "[甲]超重（负重 310.0/175.0），规则书：携带物品超过负重则无法行动× GM可代为行动放行（.bat @玩家 … 或 .bat 角色名:…）"
    )
    text = await say(app, ".bat @10001 力量 10", user="99999", at=("10001",), **GM)
    assert text.startswith("⚠甲超重，规则书：超过负重无法行动；GM代为行动，已放行\n")
    assert "体力 150.0/150.0  意志 150.0/150.0  ⚠超重" in await say(app, ".bat 全")


def test_debuff_pool_reduces_the_next_impacts() -> None:
    from chronodice.rules.timeline import battle as b
    from chronodice.rules.timeline import debuffs as db

    # book: 施术者的影响数值相当于被影响者在未来几次攻击中少输出的伤害 — weakness 100, then 60 and 80
    assert db.consume(100.0, 60.0) == (0.0, 40.0)
    assert db.consume(40.0, 80.0) == (40.0, 0.0)
    ref = b.ParticipantRef(2, "乙", "2")
    s = db.put_on(b.new_battle(), ref.key, 100.0)
    s, act, _ = b.record_action(s, ref, windup=5, impact=60.0, attribute="strength")
    s, weak, used = db.weaken_action(s, act.id)
    assert (weak.impact, weak.windup, used, db.pool(s, ref.key)) == (0.0, 5, 60.0, 40.0)
    s, act, _ = b.record_action(s, ref, windup=5, impact=80.0, attribute="strength")
    s, weak, used = db.weaken_action(s, act.id)
    assert (weak.impact, used, db.pool(s, ref.key)) == (40.0, 40.0, 0.0)
    assert b.BattleState.from_dict(s.to_dict()) == s  # the pool survives the JSON round trip


async def test_debuff_command_and_bat(app: App) -> None:
    await setup(app, "甲", "10001")
    await setup(app, "乙", "10002")
    assert "没有战斗数据" in await say(app, ".debuff 100 虚弱", user="99999", at=("10002",), **GM)
    await say(app, ".bat 力量 175", user="10001")
    text = await say(app, ".debuff 100 虚弱", user="99999", at=("10002",), **GM)
    assert text == "乙受到[虚弱]减益100.0√ 剩余减益100.0（此后行动的影响数值依次扣减）"
    assert "只有" in await say(app, ".debuff 100 虚弱", user="10002", at=("10001",))
    text = await say(app, ".bat 力量 60", user="10002")
    assert text.startswith("（减益-60.0：影响数值 60.0→0.0，剩余减益40.0）")
    # the windup of the declared 60 (20·60/175)
    assert "行动#2 乙：0.0t → 6.86t（前摇6.86t）影响 0.0" in text
    assert "乙 : 0.0\n6.86t (6.86t) : 0.0" in await say(app, ".bat 全")
    # .undo of the action gives the pool back
    await say(app, ".undo", **GM)
    assert await say(app, ".debuff", user="10002") == "乙的减益：剩余100.0"
    await say(app, ".bat 力量 60", user="10002")
    text = await say(app, ".bat 力量 80", user="10002")
    assert text.startswith("（减益-40.0：影响数值 80.0→40.0，剩余减益0.0）") and "影响 40.0" in text
    assert "乙 : 40.0" in await say(app, ".bat 全")
    assert await say(app, ".debuff", user="10002") == "乙没有减益"
    assert "（减益" not in await say(app, ".bat 力量 80", user="10002")
    await say(app, ".debuff 5", user="99999", at=("10001",), **GM)
    assert "已清除甲的减益√" in await say(app, ".debuff 清除", user="99999", at=("10001",), **GM)
    assert await say(app, ".debuff", user="10001") == "甲没有减益"
    log = await say(app, ".bat 记录", user="10001")
    assert "乙 受到减益100.0" in log and "乙 行动#3因减益少输出40.0" in log and "甲 减益清除" in log


def test_armour_adds_hp_above_the_sheet_and_weight() -> None:
    from dataclasses import replace

    from chronodice.rules.timeline.armour import put_on

    char = import_sheet(Sheet.standard())
    extra, _ = put_on(char.extra, "皮甲", 30, 20)
    worn = replace(char, extra=extra).derived()
    assert (worn.hp_max, worn.carried, worn.max_load) == (180.0, 20.0, 175.0)
    assert round(worn.weight_rev, 2) == 0.99 and worn.checks["dexterity"] == 172.71  # 175·(1 − (20/175)²)


async def test_armor_command(app: App) -> None:
    await setup(app)
    text = await say(app, ".armor 皮甲 30 20")
    assert text == "甲穿上护甲[皮甲]√ 体力+30.0\n体力 180.0/180.0  负重 20.0/175.0  敏捷 172.71"
    await say(app, ".crd hp -50")
    assert "130.0→180.0/180.0" in await say(app, ".crd hp +100")  # healed up to the armoured maximum
    assert "[1] 皮甲 体力+30.0 负重20.0" in await say(app, ".armor")
    assert "体力: 180.0/180.0" in await say(app, ".crd reset")
    text = await say(app, ".armor del 1")
    assert text == "甲脱下护甲[皮甲]√\n体力 150.0/150.0  负重 0.0/175.0  敏捷 175.0"
    text = await say(app, ".armor 板甲 100 200")
    assert "体力 250.0/250.0" in text and text.endswith(
        "⚠超重：负重 200.0/175.0，敏捷×0.01（规则书：超过负重无法行动）"
    )
