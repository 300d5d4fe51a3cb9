"""``.TLsetup`` / ``.setupWP`` line parsing: MayuriBot's format and the superset we accept."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chronodice.core.errors import InputSyntaxError
from chronodice.core.text import normalize
from chronodice.rules.timeline.importing import parse_setupwp, parse_tlsetup
from chronodice.rules.timeline.sheet import Sheet, derive

SHEET_LINE = (
    "姓名:甲,种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,等级:10,"
    "物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,工程与科技:20,"
    "军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)


def test_sheet_line_as_the_excel_sheet_emits_it() -> None:
    imported = parse_tlsetup(SHEET_LINE)
    assert imported.sheet == Sheet.standard(race="人类", gender="男", occupation="商人")
    assert derive(imported.sheet).hp_max == 150.0
    assert imported.warnings == [] and imported.ignored == []


def test_fullwidth_trailing_comma_and_lines() -> None:
    text = SHEET_LINE.replace(":", "：").replace(",", "，") + "，"
    assert parse_tlsetup(text).sheet.name == "甲"
    assert parse_tlsetup(normalize(text)).sheet.level == 10
    assert parse_tlsetup(SHEET_LINE.replace(",", "\n")).sheet.strength == 35


def test_rule_book_spellings_and_unknown_keys() -> None:
    text = (
        SHEET_LINE.replace("工程与科技", "工程及科技").replace("视觉及表演艺术", "视觉和表演艺术") + ",幸运:7"
    )
    imported = parse_tlsetup(text)
    assert imported.sheet.engineering == 20 and imported.sheet.arts == 20
    assert imported.ignored == ["幸运"]


def test_missing_keys_are_named() -> None:
    text = ",".join(p for p in SHEET_LINE.split(",") if not p.startswith(("力量", "文学", "等级")))
    with pytest.raises(InputSyntaxError) as err:
        parse_tlsetup(text)
    msg = err.value.message
    assert "等级" in msg and "力量" in msg and "文学" in msg
    assert err.value.usage and ".TLsetup" in err.value.usage


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ("等级:0", "等级"),
        ("物理思维比值:1000", "比值"),
        ("物理思维比值:0", "比值"),
        ("外貌:0", "外貌"),
        ("成年年龄:18", "年龄应大于0"),
        ("标准体型:60", "体型应大于0"),
        ("成年年龄:5e-324,年龄:20", "年龄和成年年龄应在0.01到1000000之间"),
        ("标准体型:60,体型:0.001", "体型和标准体型应在0.01到1000000之间"),
        ("力量:abc", "不是数字"),
        ("体质:-5", "不能为负"),
        ("资产:1e300", "太大"),
        ("负重:-1", "负重"),
    ],
)
def test_every_mayuribot_crash_is_a_reply(change: str, needle: str) -> None:
    key = change.split(":")[0]
    parts = [p for p in SHEET_LINE.split(",") if not p.startswith(key + ":")]
    with pytest.raises(InputSyntaxError) as err:
        parse_tlsetup(",".join([*parts, change]))
    assert needle in err.value.message


def test_all_problems_reported_at_once() -> None:
    with pytest.raises(InputSyntaxError) as err:
        parse_tlsetup("姓名:甲,等级:x,体质:y")
    msg = err.value.message
    assert "等级" in msg and "体质" in msg and "缺少" in msg


def test_sum_warnings() -> None:
    imported = parse_tlsetup(SHEET_LINE.replace("体质:30", "体质:40"))
    assert imported.warnings == ["物理属性合计110%（应为100%）"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_or_raises_input_error(text: str) -> None:
    try:
        imported = parse_tlsetup(text)
    except InputSyntaxError:
        return
    derive(imported.sheet)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            ["等级", "物理思维比值", "外貌", "年龄", "成年年龄", "体型", "标准体型", "力量", "负重", "资产"]
        ),
        st.floats(allow_nan=True, allow_infinity=True).map(str),
    )
)
@example({"负重": "1.0", "力量": "6.483698766580191e-255"})  # 负重/总负重 squared was past a float
@example({"体型": "5e-324", "标准体型": "2.0"})  # denormals under a logarithm (CI's draw, 2026-11-29)
@example({"体型": "1.0", "标准体型": "5e-324"})
@example({"年龄": "1.0", "成年年龄": "5e-324"})
@example({"年龄": "1e308", "成年年龄": "0.5"})
def test_valid_imports_always_derive_finite_values(changes: dict[str, str]) -> None:
    parts = {p.split(":")[0]: p.split(":")[1] for p in SHEET_LINE.split(",")}
    parts.update(changes)
    try:
        imported = parse_tlsetup(",".join(f"{k}:{v}" for k, v in parts.items()))
    except InputSyntaxError:
        return
    d = derive(imported.sheet)
    import math

    assert all(math.isfinite(v) for v in d.checks.values())
    assert math.isfinite(d.negotiation_bonus) and math.isfinite(d.cash)


# ------------------------------------------------------------------ weapons
WP = "名称:{n},类型:{t},增幅属性:{a},伤害:{d},前摇:{c},射程:{r},载弹量:{l},装填时间:{rt},负重:{w},备注:{note}"


def wp(**kw: object) -> str:
    base = {
        "n": "手术刀",
        "t": "增幅",
        "a": "敏捷",
        "d": 10,
        "c": "",
        "r": "近战",
        "l": "",
        "rt": "",
        "w": 1,
        "note": "",
    }
    base.update(kw)
    return WP.format(**base)


def test_amplifier_weapon() -> None:
    w = parse_setupwp(wp())
    assert (w["type"], w["attribute"], w["damage"], w["weight"], w["load"]) == (
        "amplifier",
        "dexterity",
        10.0,
        1.0,
        None,
    )


def test_artillery_weapon_full_ammo() -> None:
    w = parse_setupwp(wp(n="左轮", t="火力", a="", d=3, c=0.5, l=6, rt=4))
    assert (w["type"], w["load"], w["current_load"], w["cast"], w["reload_time"]) == (
        "artillery",
        6,
        6,
        0.5,
        4.0,
    )
    assert w["attribute"] is None


def test_other_and_blank_type() -> None:
    assert parse_setupwp(wp(t="其他", a="")).get("type") == "other"
    assert parse_setupwp(wp(t="", a="")).get("type") == "other"


@pytest.mark.parametrize(
    ("kw", "needle"),
    [
        ({"t": "魔法"}, "不存在武器类型"),
        ({"a": "魔力"}, "不可使用属性"),
        ({"t": "火力", "l": ""}, "载弹量"),
        ({"t": "火力", "l": "2.5", "c": 1}, "整数"),
        ({"d": ""}, "伤害"),
        ({"w": "重"}, "负重"),
        ({"n": ""}, "缺少名称"),
    ],
)
def test_weapon_errors(kw: dict[str, object], needle: str) -> None:
    with pytest.raises(InputSyntaxError) as err:
        parse_setupwp(wp(**kw))
    assert needle in err.value.message


def test_blank_weight_is_zero_and_unknown_key_named() -> None:
    assert parse_setupwp(wp(w=""))["weight"] == 0.0  # MayuriBot crashed (§8 bug 13)
    with pytest.raises(InputSyntaxError) as err:
        parse_setupwp(wp() + ",颜色:红")
    assert "颜色" in err.value.message
