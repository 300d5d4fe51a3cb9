"""002 d20 checks and 004 two-die checks: exact numbers from the seeds and tick20.md (B07, S08)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from chronodice.core.errors import InputSyntaxError, NotFound
from chronodice.rules.tick20 import checks as C
from chronodice.rules.tick20 import two_die as T
from chronodice.rules.tick20.modifiers import Modifier, parse_mod_type, stack


class Scripted(random.Random):
    """An RNG that returns the given faces in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


# B07: modifier +2.
@pytest.mark.parametrize(
    ("faces", "adv", "dis", "passive", "total", "die", "nat"),
    [
        ([6, 15], True, False, False, 17, 15, None),
        ([20, 3], False, True, False, 5, 3, None),
        ([20, 4], True, False, False, 32, 20, "N20"),
        ([7], True, True, False, 9, 7, None),
        ([], False, False, True, 12, 10, None),
        ([], True, False, True, 17, 10, None),
        ([], False, True, True, 7, 10, None),
        ([], True, True, True, 12, 10, None),
    ],
)
def test_b07_advantage_disadvantage_passive(
    faces: list[int], adv: bool, dis: bool, passive: bool, total: int, die: int, nat: str | None
) -> None:
    rng = Scripted(faces)
    roll = C.roll_d20(rng, 2, advantage=adv, disadvantage=dis, passive=passive)
    assert (roll.total, roll.die, roll.nat) == (total, die, nat)
    assert rng.faces == []  # adv+dis together roll no extra die
    assert roll.modifier == total - die


def test_natural_results_only_on_skill_checks() -> None:
    assert C.roll_d20(Scripted([20]), 0).total == 30
    assert C.roll_d20(Scripted([20]), 0, skill=False).total == 20
    assert C.roll_d20(Scripted([1]), 3).total == -6
    assert C.roll_d20(Scripted([]), 0, passive=True).nat is None


def test_b05_b06_initiative_modifier_includes_natural_bonus() -> None:
    n20 = C.d20_from_dice((20,), 4)
    assert (n20.total, n20.modifier) == (34, 14)
    n1 = C.d20_from_dice((1,), 3)
    assert (n1.total, n1.modifier) == (-6, -7)


def test_roll_is_uniform_and_unbiased() -> None:
    rng = random.Random(5)
    counts = Counter(C.roll_d20(rng, 0, skill=False).die for _ in range(20000))
    assert set(counts) == set(range(1, 21))
    assert max(counts.values()) - min(counts.values()) < 250


@pytest.mark.parametrize(
    ("total", "target", "outcome", "success", "failure"),
    [
        (15, 15, "成功", 0, None),
        (24, 15, "成功", 9, None),
        (25, 15, "大成功", 10, None),
        (14, 15, "失败", None, 1),
        (6, 15, "失败", None, 9),
        (5, 15, "大失败", None, 10),
    ],
)
def test_degrees(total: int, target: int, outcome: str, success: int | None, failure: int | None) -> None:
    j = C.judge(total, target)
    assert (j.outcome, j.success_degree, j.failure_degree) == (outcome, success, failure)


def test_modifier_stacking_rule() -> None:
    assert stack([Modifier(-4, "状态"), Modifier(-2, "状态")]) == -4
    assert stack([Modifier(-4, "状态"), Modifier(-2, "状态"), Modifier(3, "状态")]) == -1
    assert stack([Modifier(-2), Modifier(-3)]) == -5
    assert stack([Modifier(2, "环境"), Modifier(3, "内在"), Modifier(1, "环境")]) == 5
    assert parse_mod_type("内") == "内在"
    with pytest.raises(InputSyntaxError):
        Modifier(1, "魔法")


def test_passive_edge_follows_stacking() -> None:
    # Two advantages are still one advantage: +5 once.
    assert C.roll_d20(Scripted([]), [Modifier(1), Modifier(1)], advantage=True, passive=True).total == 17


@pytest.mark.parametrize(
    ("value", "mod", "tier"),
    [
        (0, -5, "劣等"),
        (2, -4, "劣等"),
        (3, -3, "次等"),
        (6, -2, "次等"),
        (7, -1, "标准"),
        (14, 2, "标准"),
        (15, 2, "高等"),
        (21, 5, "高等"),
    ],
)
def test_attribute_modifier_and_tier(value: int, mod: int, tier: str) -> None:
    assert C.attribute_modifier(value) == mod
    assert C.attribute_tier(value) == tier


def test_skill_modifiers_from_a_card() -> None:
    card = {"敏捷": 16, "智慧": 12, "LV": 2, "洞悉熟练度": 2}
    mods = C.skill_modifiers(card, "先攻")
    assert [(m.source, m.value) for m in mods] == [("敏捷", 3), ("熟练", 4), ("LV", -2)]
    assert stack(mods) == 5
    # a 次等 chosen attribute: modifier −2 and the tier penalty −2
    low = C.skill_modifiers({"智慧": 5}, "学识")
    assert stack(low) == -4
    # an unchosen negative related attribute still applies; 劣等 gives −4
    weak = C.skill_modifiers({"力量": 2, "体质": 12}, "运动")
    assert [(m.source, m.value) for m in weak] == [("体质", 1), ("力量", -4)]
    forced = C.skill_modifiers({"力量": 2, "体质": 12}, "运动", attribute="力量")
    assert stack(forced) == -4 - 4 + 0
    with pytest.raises(NotFound):
        C.canonical_skill("烹饪")
    assert C.canonical_skill("闪避防御") == "灵巧"


def test_opposed_actor_wins_ties() -> None:
    assert C.opposed(15, 15).actor_wins
    assert not C.opposed(14, 15).actor_wins
    assert C.opposed(20, 15).margin == 5


# S08: DEX d8, INS d6, +6 环境.
@pytest.mark.parametrize(
    ("dice", "total", "doubles", "story", "chance"),
    [
        ((5, 5), 16, 5, False, False),
        ((1, 1), 8, 1, True, False),
        ((6, 6), 18, 6, True is False, True),
        ((3, 4), 13, None, False, False),
    ],
)
def test_s08_two_die_initiative(
    dice: tuple[int, int], total: int, doubles: int | None, story: bool, chance: bool
) -> None:
    rng = Scripted(list(dice))
    roll = T.roll_two_die(rng, (8, 6), [Modifier(6, "环境")])
    assert (roll.total, roll.doubles, roll.story_point, roll.opportunity) == (total, doubles, story, chance)
    assert roll.modifier == 6
    assert roll.high_roll == max(dice)


def test_two_die_sizes_from_card_and_minimum_damage() -> None:
    card = {"DEX": 8, "ins": 6}
    assert T.attribute_die_004(card, "dex") == 8
    assert T.attribute_die_004(card, "INS") == 6
    with pytest.raises(NotFound):
        T.attribute_die_004(card, "MIG")
    assert T.minimum_damage(10) == 6
    assert T.minimum_damage(2) == 0
    assert T.attack_damage(7, 5) == 12
    with pytest.raises(InputSyntaxError):
        T.roll_two_die(random.Random(1), (0, 6))
