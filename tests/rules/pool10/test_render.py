"""Reply text for pool results (render/pool10.py): the forms players read."""

from __future__ import annotations

import random

from chronodice.render.pool10 import (
    format_attack,
    format_check,
    format_dice,
    format_odds,
    format_opposed,
    format_result,
    pct,
)
from chronodice.rules.pool10 import PoolRoll, TieRule, opposed, pool_odds, resolve, resolve_attack, roll_pool


def roll(*rounds: tuple[int, ...], chance: bool = False, again: int = 10) -> PoolRoll:
    return PoolRoll(size=0 if chance else len(rounds[0]), again=again, rounds=tuple(rounds), chance=chance)


def test_dice_are_circled_when_they_succeed() -> None:
    assert format_dice(roll((10, 7, 8, 9, 1), (10,), (3,))) == "[⑩,7,⑧,⑨,1]+[⑩]+[3]"
    # on the chance die itself only a 10 is a success; the added die is ordinary
    assert format_dice(roll((10,), (8,), chance=True)) == "[⑩]+[⑧]"
    assert format_dice(roll((9,), chance=True)) == "[9]"


def test_large_pools_are_summarised() -> None:
    r = roll_pool(300, random.Random(1), again=11)
    text = format_dice(r)
    assert text.startswith("第1轮300颗（成功") and "[" not in text


def test_result_lines() -> None:
    assert format_result(resolve(roll((8, 1)))) == "1成功"
    assert format_result(resolve(roll((1, 1)))) == "0成功，失败"
    assert format_result(resolve(roll((1, 1)), bonus=2)) == "0成功（有效成功为0，附加成功2不生效），失败"
    assert format_result(resolve(roll((8, 9)), bonus=1, lost=1)) == "自然成功2-1+附加1=2成功"
    assert format_result(resolve(roll((8, 9)), dc=2)) == "2成功 ≥ DC2，成功"
    assert format_result(resolve(roll((1,), chance=True))) == "机运骰0成功，掷出1，大失败！"
    assert format_result(resolve(roll((1,), chance=True), dc=2)) == "机运骰0成功，掷出1，大失败！ < DC2，失败"


def test_chance_replies_state_successes_and_fumble_only_when_it_happened() -> None:
    # seed «机运骰»: the rule is in .help; each reply gives the count, 大失败 only on a fumble
    for faces, count in (((9,), 0), ((10, 8), 2), ((10, 1), 1)):
        r = resolve(roll(*[(f,) for f in faces], chance=True))
        text = format_check("艾拉", "0", r, detailed=True)
        assert text.splitlines()[0] == "艾拉 掷骰池：0，骰池不足1，改掷机运骰"
        assert f"机运骰{count}成功" in text and "大失败" not in text and "只有10成功" not in text
    text = format_check("艾拉", "0", resolve(roll((1,), chance=True)), detailed=False)
    assert text == "艾拉 掷骰池：0，骰池不足1，改掷机运骰\n机运骰0成功，掷出1，大失败！"


def test_check_head_names_the_again_rule_and_chance() -> None:
    text = format_check(
        "艾拉", "敏捷4+潜行3=7", resolve(roll((8,) * 7, again=9)), detailed=False, reason="开锁"
    )
    assert text.splitlines()[0] == "艾拉 掷骰池 开锁：敏捷4+潜行3=7（9加骰）"
    text = format_check("艾拉", "敏捷1-3=-2", resolve(roll((5,), chance=True)), detailed=True)
    assert "机运骰" in text.splitlines()[0] and text.splitlines()[1] == "[5]"


def test_pct() -> None:
    assert [pct(x) for x in (0, 0.5, 0.123456, 1)] == ["0%", "50.00%", "12.35%", "100%"]


def test_odds_text() -> None:
    text = format_odds("艾拉", "5", pool_odds(5), dc=None, bonus=0, lost=0)
    assert "至少1成功：成功率：83.19%" in text  # 1 − 0.7^5
    assert "期望自然成功 1.667" in text
    text = format_odds("艾拉", "0", pool_odds(0), dc=1, bonus=3, lost=0)
    assert "大失败：10.00%" in text and "成功数≥DC1：成功率：10.00%" in text


def test_opposed_and_attack_text() -> None:
    a = resolve(roll((8, 9, 1)))
    b = resolve(roll((8, 9, 2)))
    text = format_opposed("甲", "3", "乙", "3", opposed(a, b), detailed=False)
    assert text.endswith("乙 的成功数2 ≥ DC2：乙 胜出")
    text = format_opposed("甲", "3", "乙", "3", opposed(a, b, TieRule.STRICT), detailed=False)
    assert text.endswith("乙 成功数2未超过DC2：甲 胜出")
    att = resolve_attack(roll((8, 1, 1)), attack_bonus=2, defence=3)
    text = format_attack("甲", "3", att, target="<乙>", detailed=True)
    assert "抵消1（浪费2）" in text and "未命中，攻击附加成功与命中效果均不生效" in text
