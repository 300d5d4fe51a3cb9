"""002 damage tags, 临时生命, the bot's 濒死检定 / 力竭 check and SP (rules/tick20/damage.py), and the
engine transitions that use them."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from chronodice.core.errors import IllegalAction
from chronodice.rules.tick20 import damage as D
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20 import health as H
from chronodice.rules.tick20.checks import judge
from chronodice.rules.tick20.model import Health, Variant


def body() -> Health:
    return Health(parts=H.default_parts())


def levels(h: Health, part: str) -> list[int]:
    return [w.level for w in H.find_part(h, part).wounds]


def test_seed_examples_of_composite_resistance_and_vulnerability() -> None:
    # 「灼烧抗性 2」, 2 道擦伤`灼烧/腐蚀`: not lowered; with 「腐蚀抗性 1」 as well: still 1 wound
    h = Health(resist={"灼烧": 2})
    assert D.resolve(D.Damage(1, 2, 0, True, ("灼烧/腐蚀",)), h)[1] == 2
    h.resist["腐蚀"] = 1
    assert D.resolve(D.Damage(1, 2, 0, True, ("灼烧/腐蚀",)), h)[1] == 1
    # 「冷冻易伤 2」「毒素易伤 1」, 2 道擦伤`冷冻/毒素`: two more
    h = Health(vuln={"冷冻": 2, "毒素": 1})
    assert D.resolve(D.Damage(1, 2, 0, True, ("冷冻/毒素",)), h)[1] == 4


def test_hit_above_3_then_piercing() -> None:
    # Hit 5 → level 3, DP +2; 贯通 compares DR with that DP
    assert D.resolve(D.Damage(5, 1, 3, tags=("贯通",)), Health())[:2] == (3, 3)
    assert D.resolve(D.Damage(5, 1, 4, tags=("贯通",)), Health())[:2] == (3, 0)


def test_burst_skips_a_lost_neighbour_and_carries_no_tags() -> None:
    h = body()
    H.find_part(h, "腿部").severed = True
    rep = D.apply_damage(h, "躯干", D.Damage(2, 1, 0, tags=("爆发", "切断", "灼烧")))
    assert rep.blast is not None and rep.blast.part == "臂部"  # 腿部 is gone: the previous part
    assert H.find_part(h, "躯干").severed and not H.find_part(h, "臂部").severed
    assert H.find_part(h, "臂部").wounds[0].tags == ["灼烧"]
    assert h.dissolved  # 躯干 holds a 要害 organ


def test_burst_with_no_linked_part_has_no_effect() -> None:
    h = Health(parts=[H.default_parts()[0]])
    rep = D.apply_damage(h, "头部", D.Damage(1, 1, tags=("爆发",)))
    assert rep.blast is None and "爆发：没有衔接的部位，无效" in rep.notes


def test_execute_without_vital_parts_is_void() -> None:
    h = Health(parts=[p.model_copy(update={"vital": False}) for p in H.default_parts()])
    rep = D.apply_damage(h, "臂部", D.Damage(1, 1, tags=("处决",)))
    assert "处决：没有要害部位，无效" in rep.notes and not h.dissolved


def test_temporary_life_worsens_like_a_full_part_then_spills() -> None:
    h = body()
    D.set_temp(h, "臂部", 2)
    D.apply_damage(h, "臂部", D.Damage(1, 2))  # fills both
    D.apply_damage(h, "臂部", D.Damage(2, 1))  # replaces a 擦伤 by a 轻伤
    part = H.find_part(h, "臂部")
    assert [w.level for w in part.temp_wounds] == [2, 1] and part.wounds == []
    D.apply_damage(h, "臂部", D.Damage(1, 4))  # 擦伤→轻伤, 轻伤→重伤, 轻伤→重伤, then the part
    assert [w.level for w in part.temp_wounds] == [3, 3] and levels(h, "臂部") == [1]
    with pytest.raises(IllegalAction):
        H.find_part(h, "腿部").severed = True
        D.set_temp(h, "腿部", 1)


def test_dying_check_exact_odds_match_the_bot_over_many_rolls() -> None:
    """Exact outcome probabilities of a 濒死检定 (fort +2, target 15, with and without
    disadvantage) by enumerating the dice, against 40,000 checks made through the engine's own
    path with a seeded generator: every frequency within 0.01 of the exact value (a deviation of
    more than six standard deviations; the seed makes the run reproducible)."""
    fort, target = 2, 15
    for coma in (False, True):
        exact: Counter[str] = Counter()
        pairs = [(a, b) for a in range(1, 21) for b in range(1, 21)]
        for a, b in pairs:
            h = Health(fort=fort, coma=["濒死"] if coma else [])
            _, j = D.fort_check(h, (a, b), target)
            exact[j.outcome] += 1
        rng = random.Random(12)
        seen: Counter[str] = Counter()
        n = 40_000
        for _ in range(n):
            h = Health(fort=fort, coma=["濒死"] if coma else [])
            _, j = D.fort_check(h, (rng.randint(1, 20), rng.randint(1, 20)), target)
            seen[j.outcome] += 1
        for outcome, count in exact.items():
            assert abs(seen[outcome] / n - float(Fraction(count, 400))) < 0.01, (coma, outcome)
    # spot values: no disadvantage, die 13 + 2 = 15 succeeds, 12 + 2 fails, 20 → 32 大成功
    assert judge(13 + fort, target).outcome == "成功" and judge(12 + fort, target).outcome == "失败"


def test_engine_round_start_rolls_and_applies_the_dying_check() -> None:
    st = E.new_combat("gm", variant=Variant.BASE)
    st, _ = E.add_combatant(st, "哥布林", value=12)
    st, _ = E.start(st)
    st, _ = E.wound(st, "c1", "躯干", level=1, count=4)
    st, ev = E.end_turn(st, dice=[3, 17])  # round 2 starts: 3 + 0 = 3 vs 15 → 大失败 (failure 12)
    roll = next(e for e in ev if e.kind == "dying_roll")
    assert roll.data["outcome"] == "大失败" and roll.data["total"] == 3
    c = st.get("c1")
    assert c.health.coma == ["濒死"] and levels(c.health, "躯干") == [2, 1, 1, 1]
    st, ev = E.end_turn(st)  # no dice given: the reminder, as before
    assert any(e.kind == "dying_check" and e.data["disadvantage"] for e in ev)


def test_engine_dissolved_and_dead_take_no_turns() -> None:
    st = E.new_combat("gm", variant=Variant.BASE)
    for name, v in (("A", 17), ("B", 12), ("C", 8)):
        st, _ = E.add_combatant(st, name, value=v)
    st, _ = E.start(st)
    st, _ = E.set_sp(st, "c2", maximum=3)
    st, _ = E.set_sp(st, "c2", delta=-6)
    st, _ = E.wound(st, "c3", "头部", hit=1, dp=1, tags=["处决"])
    st, _ = E.end_turn(st)
    assert st.current == "c1" and st.round == 2  # B dead, C 解体: A alone
    assert E.forecast(st, 2) == [(3, 17, "c1"), (4, 17, "c1")]


def test_engine_actions_and_mov() -> None:
    st = E.new_combat("gm", variant=Variant.SPD)
    st, _ = E.add_combatant(st, "A", value=15)
    st, _ = E.set_actions(st, 2)
    st, _ = E.start(st)
    assert st.get("c1").actions_left == 2
    st, _ = E.use_action(st, "c1")
    st, _ = E.use_action(st, "c1")
    with pytest.raises(IllegalAction, match="动作已用完"):
        E.use_action(st, "c1")
    with pytest.raises(IllegalAction, match="Mov 只用于基础规则"):
        E.spend_mov(st, "c1", cost=1)
    base = E.new_combat("gm")
    base, _ = E.add_combatant(base, "B", value=10, speed=5)
    base, _ = E.start(base)
    base, _ = E.spend_mov(base, "c1", cost=3)
    assert base.get("c1").mov == 2
    with pytest.raises(IllegalAction, match="Mov不足"):
        E.spend_mov(base, "c1", cost=3)


def test_erosion_at_round_start_is_a_new_wound_and_can_dissolve() -> None:
    st = E.new_combat("gm", variant=Variant.BASE)
    st, _ = E.add_combatant(st, "A", value=12)
    st, _ = E.add_combatant(st, "B", value=8)
    st, _ = E.start(st)
    st, _ = E.wound(st, "c1", "躯干", level=3, count=3)
    st, _ = E.wound(st, "c1", "躯干", level=2, count=1, tags=["侵蚀"])
    st.get("c1").health.dying_exempt = True
    st, _ = E.end_turn(st)  # A's turn ends, B acts
    st, ev = E.end_turn(st)  # round 2: the 侵蚀 擦伤 worsens the 轻伤 to 重伤: 重伤×4 on a 要害 part
    kinds = [e.kind for e in ev]
    assert "erosion" in kinds and "dissolved" in kinds
    c = st.get("c1")
    assert c.health.dissolved and not c.health.dying_exempt
    assert st.current == "c2"  # A takes no more turns
