"""CoC 7th names and base values, sanity loss and insanity, generation, madness tables."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from chronodice.rules.coc7.checks import Level, judge
from chronodice.rules.coc7.generation import damage_bonus, generate, move_rate
from chronodice.rules.coc7.madness import REAL_TIME, SUMMARY, roll_bout
from chronodice.rules.coc7.sanity import loss_for, sanity_result
from chronodice.rules.coc7.skills import COC_MARKERS, SKILL_BASE, canonical, card_value, skill_value

from .conftest import Scripted


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("str", "力量"),
        ("STR", "力量"),
        ("Str", "力量"),
        ("dex", "敏捷"),
        ("con", "体质"),
        ("siz", "体型"),
        ("app", "外貌"),
        ("int", "智力"),
        ("灵感", "智力"),
        ("pow", "意志"),
        ("edu", "教育"),
        ("知识", "教育"),
        ("luck", "幸运"),
        ("san", "理智"),
        ("SAN", "理智"),
        ("san值", "理智"),
        ("理智值", "理智"),
        ("hp", "体力"),
        ("HP", "体力"),
        ("生命值", "体力"),
        ("耐久", "体力"),
        ("mp", "魔法"),
        ("魔法值", "魔法"),
        ("魔力", "魔法"),
        ("侦察", "侦查"),
        ("图书馆", "图书馆使用"),
        ("计算机", "计算机使用"),
        ("cm", "克苏鲁神话"),
        ("信用", "信用评级"),
        ("侦查", "侦查"),
        ("某个自创技能", "某个自创技能"),
    ],
)
def test_aliases(typed: str, name: str) -> None:
    assert canonical(typed) == name


def test_rule_book_base_values() -> None:
    assert {
        k: SKILL_BASE[k] for k in ("侦查", "聆听", "图书馆使用", "急救", "斗殴", "心理学", "信用评级")
    } == {
        "侦查": 25,
        "聆听": 20,
        "图书馆使用": 20,
        "急救": 30,
        "斗殴": 25,
        "心理学": 10,
        "信用评级": 0,
    }
    assert skill_value({}, "侦查") == 25
    assert skill_value({}, "侦察") == 25
    assert skill_value({"敏捷": 55}, "闪避") == 27
    assert skill_value({}, "闪避") is None
    assert skill_value({"教育": 70}, "母语") == 70
    assert skill_value({"edu": 65}, "母语") == 65
    assert skill_value({"侦查": 60}, "侦查") == 60
    assert skill_value({"侦察": 70}, "侦查") == 70
    assert skill_value({"闪避": 40, "敏捷": 90}, "闪避") == 40
    assert skill_value({}, "烹饪") is None
    assert card_value({"san": 55}, "理智") == 55
    assert card_value({"理智": "高"}, "理智") is None


def test_coc_markers_leave_names_of_other_systems_out() -> None:
    assert {"理智", "san", "侦查", "聆听", "克苏鲁神话"} <= COC_MARKERS
    shared = {"力量", "敏捷", "体质", "话术", "体力", "意志", "教育", "智力", "潜行", "格斗", "感知", "灵感"}
    assert not shared & COC_MARKERS


def test_loss_by_level() -> None:
    assert loss_for(judge(30, 60), 1, 4, 6) == 1
    assert loss_for(judge(1, 60), 1, 4, 6) == 1
    assert loss_for(judge(61, 60), 1, 4, 6) == 4
    assert loss_for(judge(100, 60), 1, 4, 6) == 6
    assert judge(100, 60).level == Level.FUMBLE


def test_sanity_thresholds() -> None:
    r = sanity_result(60, 4, day_start=60, day_lost_before=0)
    assert (r.new_san, r.loss, r.temporary, r.indefinite, r.day_lost) == (56, 4, False, False, 4)
    r = sanity_result(60, 5, day_start=60, day_lost_before=0)
    assert (r.temporary, r.indefinite) == (True, False)
    # a fifth of 60 is 12: 11 in the day is not yet, 12 is
    assert not sanity_result(55, 4, day_start=60, day_lost_before=7).indefinite
    r = sanity_result(55, 5, day_start=60, day_lost_before=7)
    assert r.indefinite and r.day_lost == 12 and r.new_san == 50
    # announced once: the next loss of the day does not repeat it
    assert not sanity_result(50, 3, day_start=60, day_lost_before=12).indefinite
    # never below zero; the loss counted is what was really lost
    r = sanity_result(3, 10, day_start=3, day_lost_before=0)
    assert (r.new_san, r.loss, r.zero, r.temporary) == (0, 3, True, False)
    assert sanity_result(40, 0, day_start=40, day_lost_before=0).loss == 0


def test_generation_ranges_and_derived() -> None:
    rng = Scripted([6, 6, 6] * 9)
    inv = generate(rng)
    assert inv.values["力量"] == 90 and inv.values["体型"] == 90 and inv.values["教育"] == 90
    rng = Scripted([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    inv = generate(rng)
    assert inv.values == {
        "力量": 15,
        "体质": 15,
        "体型": 40,
        "敏捷": 15,
        "外貌": 15,
        "智力": 40,
        "意志": 15,
        "教育": 40,
        "幸运": 15,
    }
    assert inv.total == 195
    d = inv.derived
    assert (d["理智"], d["体力"], d["魔法"], d["伤害加值"], d["体格"], d["移动"]) == (15, 5, 3, "-2", -2, 7)
    assert damage_bonus(84) == ("-1", -1) and damage_bonus(85) == ("0", 0)
    assert damage_bonus(164) == ("1d4", 1) and damage_bonus(165) == ("1d6", 2)
    assert (
        damage_bonus(284) == ("2d6", 3)
        and damage_bonus(285) == ("3d6", 4)
        and damage_bonus(365) == ("4d6", 5)
    )
    assert (move_rate(50, 50, 60), move_rate(70, 70, 60), move_rate(70, 50, 60), move_rate(60, 60, 60)) == (
        7,
        9,
        8,
        8,
    )


def test_madness_tables() -> None:
    assert len(REAL_TIME) == 10 and len(SUMMARY) == 10
    bout = roll_bout(Scripted([9, 4, 37]), "ti")
    assert (bout.entry, bout.duration, bout.extra) == (9, 4, 37)
    assert "恐惧症" in bout.text and "4轮" in bout.text and "37" in bout.text
    bout = roll_bout(Scripted([1, 10, 5]), "li")
    assert bout.text.startswith("失忆") and "10小时" in bout.text
    for i in range(1, 11):
        assert "轮" in roll_bout(Scripted([i, 3, 50]), "ti").text
        assert "小时" in roll_bout(Scripted([i, 3, 50]), "li").text
    rng = random.Random(5)
    counts = Counter(roll_bout(rng, "ti").entry for _ in range(2000))
    assert set(counts) == set(range(1, 11))
