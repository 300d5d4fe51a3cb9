"""The argument parser itself (chronodice.core.args): kinds, glue, backtracking, errors."""

from __future__ import annotations

import pytest

from chronodice.core.args import (
    Choice,
    Flag,
    Int,
    Mention,
    Mod,
    Name,
    Num,
    OneOf,
    Pattern,
    Prefixed,
    TypedMod,
    arg,
    flag,
    many,
    opt,
    parse_args,
    rest,
)
from chronodice.core.errors import InputSyntaxError

MODS = Flag("mods", TypedMod(types=("通用", "环境", "内在", "状态")), many=True)
CHECK = (arg("skill", Name(label="技能")), opt("target", Int(label="目标值")))


def test_glued_number_splits_off_a_name() -> None:
    assert parse_args("运动15", CHECK) == {"skill": "运动", "target": 15}
    assert parse_args("运动 15", CHECK) == {"skill": "运动", "target": 15}


def test_name_ending_in_digits_is_kept_when_nothing_else_fits() -> None:
    params = (arg("who", Name()), arg("n", Int(signed=True, sign_required=True)))
    assert parse_args("狼2 -5", params) == {"who": "狼2", "n": -5}
    assert parse_args("狼2-5", params) == {"who": "狼2", "n": -5}
    fixed = Pattern(regex=r"=([0-9]+)", label="=先攻", convert=lambda m: int(m.group(1)))
    assert parse_args("=12 狼2", (opt("init", fixed), many("names", Name()))) == {
        "init": 12,
        "names": ["狼2"],
    }


def test_typed_modifiers_keep_their_types_anywhere() -> None:
    got = parse_args(
        "0 20 被动 +5状态 +3状态",
        (arg("mod", Int(signed=True)), opt("target", Int())),
        (MODS, flag("passive", "被动")),
    )
    assert got == {"mod": 0, "target": 20, "mods": [Mod(5, "状态"), Mod(3, "状态")], "passive": True}


def test_positional_before_flag() -> None:
    params = (arg("what", OneOf(Int(signed=True), Name())), opt("target", Int()))
    assert parse_args("+3 15", params, (MODS,)) == {"what": 3, "target": 15, "mods": []}


def test_glued_type_and_name() -> None:
    params = (many("names", Name(label="名称")),)
    assert parse_args("+2环境哥布林", params, (MODS,)) == {"names": ["哥布林"], "mods": [Mod(2, "环境")]}
    assert parse_args("+2环境 哥布林", params, (MODS,)) == {"names": ["哥布林"], "mods": [Mod(2, "环境")]}


def test_prefixed_latin_name() -> None:
    params = (opt("actor", Prefixed()), arg("attr", Name(label="属性")), arg("n", Num()))
    assert parse_args("Goblin:力量 100", params) == {"actor": "Goblin", "attr": "力量", "n": 100.0}
    assert parse_args("力量 100", params) == {"actor": None, "attr": "力量", "n": 100.0}


@pytest.mark.parametrize("text", ["²", "⑤", "¹", "٣"])
def test_only_ascii_digits_are_numbers(text: str) -> None:
    with pytest.raises(InputSyntaxError) as err:
        parse_args(text, (arg("n", Int(label="数量")),))
    assert err.value.message == f"「{text}」不是有效的数量"


def test_errors_name_the_token_and_the_expectation() -> None:
    params = (arg("n", Int(label="目标数值")),)
    with pytest.raises(InputSyntaxError) as err:
        parse_args("xd", params, usage=".tar <目标数值>")
    assert err.value.message == "「xd」不是有效的目标数值"
    assert err.value.user_message == "「xd」不是有效的目标数值\n格式：.tar <目标数值>"
    with pytest.raises(InputSyntaxError) as err:
        parse_args("", params)
    assert err.value.message == "缺少目标数值"
    with pytest.raises(InputSyntaxError) as err:
        parse_args("3 4", params)
    assert err.value.message == "多余的「4」"


def test_range_errors_say_the_range() -> None:
    with pytest.raises(InputSyntaxError) as err:
        parse_args("0", (arg("n", Int(label="面数", min=1, max=100)),))
    assert err.value.message == "面数「0」超出范围（应在1到100之间）"


def test_mentions_come_from_the_message() -> None:
    params = (arg("who", Mention()), rest("note"))
    assert parse_args("体力-5", params, mentions=("80001",)) == {"who": "80001", "note": "体力-5"}
    assert parse_args("@80002 x", params) == {"who": "80002", "note": "x"}


def test_choice_and_keywords_need_a_latin_boundary() -> None:
    onoff = (arg("on", Choice({"on": True, "off": False})),)
    assert parse_args("on", onoff) == {"on": True}
    with pytest.raises(InputSyntaxError):
        parse_args("onx", onoff)


def test_search_is_bounded() -> None:
    params = (many("names", Name()),)
    text = " ".join(["狼1a2b3c4d5"] * 60)
    try:
        parse_args(text, params)
    except InputSyntaxError:
        pass


def test_spaced_number_keeps_glued_digits_in_the_name() -> None:
    params = (arg("name", Name()), opt("mod", Int(signed=True, spaced=True), default=0))
    assert parse_args("卫兵 2", params) == {"name": "卫兵", "mod": 2}
    assert parse_args("卫兵2", params) == {"name": "卫兵2", "mod": 0}
    assert parse_args("卫兵+2", params) == {"name": "卫兵", "mod": 2}
