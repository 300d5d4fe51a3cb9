"""Pack validation (issue 13): every problem, in Chinese, naming the file, the item and the field;
all problems at once; the engine's timings and functions are the validator's."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.pack import PACK_DIR, PackError, read_pack_file, validate_pack
from chronodice.rules.moe.packcheck import ARGS, FUNCTIONS, TIMINGS
from chronodice.rules.moe.testing import scenario

MINI: dict[str, Any] = {
    "pack": "mini",
    "name": "迷你包",
    "rules": {"nullify_card": "attack", "rescue_card": "attack", "defend_card": "attack"},
    "cards": {
        "attack": {
            "name": "攻击",
            "category": "basic",
            "per_turn": 1,
            "targets": "one",
            "target_filter": "t != me and in_range(me, t)",
            "effect": [{"damage": {"to": "target", "n": 1}}],
        },
    },
    "deck": [["attack", "spade", "A"], ["attack", "heart", 7]],
    "skills": {
        "sting": {
            "name": "蜂刺",
            "kind": "trigger",
            "timing": "damage.after_received",
            "condition": "source != None and alive(source)",
            "effect": [{"damage": {"to": "source", "n": 1}}],
        },
    },
    "characters": {
        "bee": {
            "name": "蜜蜂",
            "max_hp": 3,
            "max_faith": 2,
            "talents": {"智慧": 1, "力量": 1, "迅捷": 1, "虔诚": 1},
            "skills": ["sting"],
        },
    },
    "maps": {"melee": {"name": "乱斗", "win": "last_alive"}},
}


def problems(mutate: Any) -> list[str]:
    raw = copy.deepcopy(MINI)
    mutate(raw)
    with pytest.raises(PackError) as err:
        validate_pack(raw, "mini.yaml")
    return err.value.problems


def test_the_mini_pack_is_valid() -> None:
    pack = validate_pack(copy.deepcopy(MINI), "mini.yaml")
    assert pack.characters["bee"].skills == ["sting"]


def test_unknown_expression_function() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["cards"]["attack"]["target_filter"] = "t != me and in_rnage(me, t)"

    assert problems(m) == [
        "mini.yaml：卡牌 attack（攻击）的 target_filter：表达式「t != me and in_rnage(me, t)」用了未知函数「in_rnage」"
    ]


def test_wrong_number_of_arguments_and_unknown_name() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["skills"]["sting"]["condition"] = "alive(source, me) and sourse != None"

    assert problems(m) == [
        "mini.yaml：技能 sting（蜂刺）的 condition：函数「alive」需要 1 个参数，写了 2 个",
        "mini.yaml：技能 sting（蜂刺）的 condition：表达式「alive(source, me) and sourse != None」用了未知的名字「sourse」",
    ]


def test_unknown_timing() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["skills"]["sting"]["timing"] = "damage.after_recieved"

    (p,) = problems(m)
    assert p.startswith(
        "mini.yaml：技能 sting（蜂刺）的 timing：未知时机「damage.after_recieved」（同类时机："
    )
    assert "damage.after_received" in p


def test_misspelt_effect_argument() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["cards"]["attack"]["effect"] = [{"damage": {"to": "target", "nn": 1}}]

    assert problems(m) == [
        "mini.yaml：卡牌 attack（攻击）的 effect[0].damage：未知参数「nn」（可用：attribute、from、n、to）"
    ]


def test_misspelt_field_of_a_card() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["cards"]["attack"]["targts"] = "one"

    assert problems(m) == ["mini.yaml：卡牌 attack（攻击）的 targts：未知字段「targts」（拼写错误？）"]


def test_unknown_effect_and_missing_argument() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["skills"]["sting"]["effect"] = [{"drwa": {"n": 1}}, {"transfer_damage": {}}]

    assert problems(m) == [
        "mini.yaml：技能 sting（蜂刺）的 effect[0].drwa：未知的效果「drwa」",
        "mini.yaml：技能 sting（蜂刺）的 effect[1].transfer_damage：缺少参数「to」",
    ]


def test_dangling_character_skill_reference() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["characters"]["bee"]["skills"] = ["sting", "stinger"]

    assert problems(m) == ["mini.yaml：角色 bee（蜜蜂）的 skills：技能「stinger」不存在"]


def test_dangling_character_reference_in_an_effect() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["skills"]["sting"]["effect"] = [{"damage": {"to": "sorce", "n": 1}}]

    (p,) = problems(m)
    assert p.startswith("mini.yaml：技能 sting（蜂刺）的 effect[0].damage.to：未知的角色「sorce」")


def test_dangling_card_references() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["cards"]["attack"]["offset_by"] = ["defend"]
        raw["deck"].append(["fireball", "club", "K"])
        raw["skills"]["sting"]["effect"] = [{"gain_skill": {"who": "me", "skill": "wings"}}]

    assert problems(m) == [
        "mini.yaml：牌堆第3张的 卡牌：卡牌「fireball」不存在",
        "mini.yaml：卡牌 attack（攻击）的 offset_by：卡牌「defend」不存在",
        "mini.yaml：技能 sting（蜂刺）的 effect[0].gain_skill.skill：技能「wings」不存在",
    ]


def test_pack_without_characters() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["characters"] = {}

    assert problems(m) == ["mini.yaml：卡包没有角色（characters 为空）"]


def test_every_problem_is_reported_not_only_the_first() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["cards"]["attack"]["category"] = "spell"
        raw["cards"]["attack"]["effect"] = [{"draw": {"who": "me", "count": 2}}]
        raw["skills"]["sting"]["timing"] = "never"
        raw["characters"]["bee"]["max_hp"] = 0
        raw["deck"][1][1] = "star"
        raw["maps"]["melee"]["win"] = "most_gold"

    got = problems(m)
    assert len(got) == 6
    assert all(p.startswith("mini.yaml：") for p in got)
    text = "\n".join(got)
    for part in (
        "卡牌 attack（攻击）的 category：取值「spell」无效",
        "卡牌 attack（攻击）的 effect[0].draw：未知参数「count」",
        "技能 sting（蜂刺）的 timing：未知时机「never」",
        "角色 bee（蜜蜂）的 max_hp：应不小于 1",
        "牌堆第2张的 花色：未知花色「star」",
        "地图 melee（乱斗）的 win：取值「most_gold」无效",
    ):
        assert part in text, part


def test_yaml_errors_and_file_names(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text("pack: broken\ncards: [\n", encoding="utf-8")
    with pytest.raises(PackError) as err:
        read_pack_file(bad)
    assert err.value.problems[0].startswith("broken.yaml：YAML 格式错误第")
    other = tmp_path / "other.yaml"
    other.write_text(yaml.safe_dump({**MINI}, allow_unicode=True), encoding="utf-8")
    with pytest.raises(PackError) as err:
        read_pack_file(other)
    assert err.value.problems == ["other.yaml：pack 字段「mini」应与文件名「other」相同"]


# ---------------------------------------------------------------------- the validator = the engine
def test_timings_are_the_ones_the_engine_fires() -> None:
    src = "\n".join(p.read_text(encoding="utf-8") for p in PACK_DIR.parent.glob("*.py"))
    literal = set(re.findall(r'self\.fire\(\s*"([a-z_.]+)"', src))
    assert literal, "no fire() calls found"
    assert literal <= TIMINGS
    dynamic = {t for t in TIMINGS if t.startswith("phase.") and t != "phase.draw.count"}
    assert TIMINGS - literal == dynamic  # the phase timings are built from PHASES


def test_functions_are_the_engines() -> None:
    g: Game = scenario(["blank", "blank"])
    assert set(g._functions()) == set(FUNCTIONS)


def test_effect_primitives_are_the_engines() -> None:
    from chronodice.rules.moe.effects import PRIMITIVES

    assert set(PRIMITIVES) == set(ARGS) | {"set", "python"}


@pytest.mark.parametrize("name", ["demo", "test"])
def test_bundled_packs_are_valid(name: str) -> None:
    assert read_pack_file(PACK_DIR / f"{name}.yaml").pack == name


def test_shape_errors_read_in_chinese() -> None:
    def m(raw: dict[str, Any]) -> None:
        raw["characters"]["bee"]["talents"] = {"智力": 1}
        del raw["cards"]["attack"]["name"]
        raw["skills"]["sting"]["modifiers"] = {"hand_limt": 1}
        raw["cards"]["attack"]["range"] = "far"
        raw["rules"]["initial_hnd"] = 3
        raw["deck"].append("attack")

    assert problems(m) == [
        "mini.yaml：卡牌 attack的 name：缺少必填字段",
        "mini.yaml：卡牌 attack的 range：应为整数；或取值「far」无效，应为 inf",
        "mini.yaml：技能 sting（蜂刺）的 modifiers.hand_limt：未知字段「hand_limt」（拼写错误？）",
        "mini.yaml：角色 bee（蜜蜂）的 talents.智力：取值「智力」无效，应为 智慧、力量、迅捷、虔诚",
        "mini.yaml：规则的 rules.initial_hnd：未知字段「initial_hnd」（拼写错误？）",
        "mini.yaml：牌堆第3张的 deck：应为 [卡牌, 花色, 点数]，实为 'attack'",
    ]
