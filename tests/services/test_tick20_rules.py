"""Issue 12, D20 tick part: every rule of seeds 002/004 in chat, with the seeds' numbers.

Dice the bot rolls itself (濒死检定, 力竭 check, 斩杀) are fixed with :class:`Dice`, so each
outcome is asserted exactly.
"""

from __future__ import annotations

import pytest
from helpers import Scripted, run, say

from chronodice.app import App
from chronodice.rules.tick20.model import Combat


def Dice(faces: list[int]) -> Scripted:
    """``randint`` answers from ``faces`` first, then like ``random.Random(1)``."""
    return Scripted(faces, then_seed=1)


GM = {"user": "10001", "roles": ("admin",)}
P1 = {"user": "10002", "name": "艾琳"}
P2 = {"user": "10003", "name": "布鲁诺"}


async def gm_view(app: App, text: str, **kw: object) -> str:
    """What the GM reads: the numbers come to him privately when the group sees less (an NPC's
    wounds and HP follow the combat's hp_display in the group)."""
    replies = await run(app, text, **kw)  # type: ignore[arg-type]
    private = [r.text for r in replies if r.private]
    return "\n".join(private or [r.text for r in replies])


async def state_of(app: App, group: str = "20002") -> Combat:
    from chronodice.rules.tick20.model import Combat

    raw, _ = await app.store.sessions.load_session(group, "tick20")
    assert raw is not None
    return Combat.from_dict(raw)


# --------------------------------------------------------------------------- modifiers and checks
async def test_typed_modifiers_stack_by_type(app: App) -> None:
    text = await say(app, ".rc 0 20 被动 +5状态 +3状态", **GM)
    assert "被动10+5=15" in text and "+3状态(不叠加)" in text
    assert "被动10+8=18" in await say(app, ".rc 0 被动 +5 +3", **GM)  # 通用 stack
    assert "被动10+4=14" in await say(app, ".rc 0 被动 +5状态 -1状态 -1状态", **GM)  # bonus + worst penalty


async def test_ri_typed_modifier_reaches_the_roll(app: App) -> None:
    await say(app, ".init begin", **GM)
    text = await say(app, ".ri 被动 +2环境 哥布林", **GM)
    assert "哥布林 的先攻：被动10+2=12" in text
    text = await say(app, ".ri 被动 +2环境 +3环境 -1环境 狼", **GM)
    assert "狼 的先攻：被动10+2=12" in text  # largest 环境 bonus + largest 环境 penalty
    st = await state_of(app)
    assert st.get("c1").init_mod == 2 and st.get("c1").main == 12


async def test_ri_typed_modifier_against_the_004_environment_bonus(app: App) -> None:
    """004's initiative check already has +6 环境: a +2 环境 does not stack with it, a +2 通用 does."""
    await say(app, ".init begin 速度", **GM)
    app.rng = Dice([3, 4, 3, 4])
    assert "d6+d6=[3,4]+6=13" in await say(app, ".ri +2环境 哥布林", **GM)
    assert "d6+d6=[3,4]+8=15" in await say(app, ".ri +2 狼", **GM)


async def test_defence_check_uses_the_defence_proficiency(app: App) -> None:
    await say(app, ".st 敏捷12 力量10 闪避2 LV4", **P1)
    text = await say(app, ".rc 闪避 20 被动", **P1)
    assert "被动10+5=15" in text and "+4熟练" in text
    await say(app, ".st 闪避0 灵巧2", **P1)  # the skill's own proficiency does not count
    assert "被动10+1=11" in await say(app, ".rc 闪避防御 被动", **P1)
    assert "被动10+5=15" in await say(app, ".rc 灵巧 被动", **P1)


async def test_004_written_dice_check_without_a_card(app: App) -> None:
    app.rng = Dice([5, 5])
    text = await say(app, ".rc d8+d6 13", **GM)
    assert "d8+d6=[5,5]+0=10（HR5）" in text and "双5" in text and "10/13 失败" in text


async def test_check_for_a_named_npc_uses_no_card(app: App) -> None:
    await say(app, ".st 敏捷18", **GM)  # the GM's own card must not leak into the NPC's check
    app.rng = Dice([4, 6, 11])
    text = await say(app, ".rc 哥布林:d8+d6 13 伤害3", **GM)
    assert text.startswith("哥布林 的［D8+D6］检定：d8+d6=[4,6]+0=10（HR6）") and "最低伤害：3−4=0" in text
    assert (await say(app, ".rc 哥布林:敏捷 10", **GM)).startswith("角色卡上没有敏捷")
    assert (await say(app, ".rc 哥布林:+2 12", **GM)).startswith("哥布林 的D20检定：D20=11+2=13")


async def test_004_attack_damage_and_minimum_damage(app: App) -> None:
    app.rng = Dice([7, 3, 2, 1])
    assert "伤害：HR7+5=12" in await say(app, ".rc d8+d6 8 伤害5", **GM)
    text = await say(app, ".rc d8+d6 8 伤害5", **GM)
    assert "3/8 失败" in text and "最低伤害：5−4=1（HR视为0）" in text


# --------------------------------------------------------------------------- damage tags
async def wolf(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =10 狼", **GM)


async def test_piercing_ignores_dr_not_above_dp(app: App) -> None:
    await wolf(app)
    text = await gm_view(app, ".wound 狼 臂部 hit2 dp2 dr2 贯通", **GM)
    assert "狼：臂部 2/4：轻伤×2" in text and "贯通：无视DR" in text
    text = await gm_view(app, ".wound 狼 腿部 hit2 dp2 dr3 贯通", **GM)
    assert "贯通：DR3超过DP2，不生效" in text
    assert [w.level for w in (await state_of(app)).get("c1").health.parts[3].wounds] == []
    await gm_view(app, ".hp 狼 杂兵", **GM)
    await gm_view(app, ".wound 狼 腿部 hit1 dp2 dr3 贯通", **GM)  # 杂兵: DR always ignored
    assert [w.level for w in (await state_of(app)).get("c1").health.parts[3].wounds] == [1, 1]


async def test_sever_execute_burst_fault(app: App) -> None:
    await wolf(app)
    text = await gm_view(app, ".wound 狼 臂部 hit1 dp1 切断", **GM)
    assert "臂部 1/4：擦伤 <欠损>" in text and "切断：臂部<欠损>" in text
    assert "视为不存在" in await gm_view(app, ".wound 狼 臂部 hit1 dp1", **GM)
    assert "处决只能选择安装要害器官的部位" in await gm_view(app, ".wound 狼 腿部 hit1 dp1 处决", **GM)
    text = await gm_view(app, ".wound 狼 躯干 hit2 dp1 爆发", **GM)
    assert text.count("爆发：波及腿部") == 1  # next part in the linkage order 头部-臂部-躯干-腿部
    h = (await state_of(app)).get("c1").health
    assert [w.level for w in h.parts[2].wounds] == [2] and [w.level for w in h.parts[3].wounds] == [2]
    text = await gm_view(app, ".wound 狼 腿部 hit1 dp1 故障", **GM)
    assert "<故障:腿部>" in text
    text = await gm_view(app, ".wound 狼 头部 hit1 dp1 处决", **GM)
    assert "处决：<解体>" in text and "狼 <解体>，不再进行回合" in text


async def test_minion_forms_of_sever_and_burst(app: App) -> None:
    await wolf(app)
    await gm_view(app, ".hp 狼 杂兵", **GM)
    text = await gm_view(app, ".wound 狼 臂部 hit1 dp1 切断", **GM)
    assert "杂兵：切断→DP+2" in text and "<欠损" not in text
    assert [w.level for w in (await state_of(app)).get("c1").health.parts[1].wounds] == [1, 1, 1]
    text = await gm_view(app, ".wound 狼 腿部 hit1 dp1 处决", **GM)  # 杂兵: any part
    assert "处决：<解体>" in text


async def test_resistance_vulnerability_composite(app: App) -> None:
    await wolf(app)
    await gm_view(app, ".hp 狼 抗性 灼烧2", **GM)
    await gm_view(app, ".wound 狼 臂部 hit1 dp2 灼烧/腐蚀", **GM)  # 腐蚀 not resisted: 2 wounds
    await gm_view(app, ".hp 狼 抗性 腐蚀1", **GM)
    await gm_view(app, ".wound 狼 腿部 hit1 dp2 灼烧/腐蚀", **GM)  # lowest of the two: 1
    await gm_view(app, ".hp 狼 易伤 冷冻2", **GM)
    await gm_view(app, ".hp 狼 易伤 毒素1", **GM)
    await gm_view(app, ".wound 狼 躯干 hit1 dp2 冷冻/毒素", **GM)  # highest: +2
    h = (await state_of(app)).get("c1").health
    assert [len(p.wounds) for p in h.parts] == [0, 2, 4, 1]
    await say(app, ".init begin", **GM)
    await say(app, ".ri =10 火灵", **GM)
    await gm_view(app, ".hp 火灵 抗性 灼烧2", **GM)
    text = await gm_view(app, ".wound 火灵 臂部 轻伤x3 灼烧", **GM)  # resistance lowers direct wounds too
    assert "火灵：臂部 1/4：轻伤" in text and "抗性2：DP−2" in text


async def test_temporary_life_takes_wounds_first(app: App) -> None:
    await wolf(app)
    assert "临时生命设为2" in await gm_view(app, ".wound 狼 躯干 临时2", **GM)
    text = await gm_view(app, ".wound 狼 躯干 hit3 dp3 切断", **GM)
    h = (await state_of(app)).get("c1").health
    torso = h.parts[2]
    assert [w.level for w in torso.temp_wounds] == [3, 3] and [w.level for w in torso.wounds] == [3]
    assert torso.severed and h.dissolved  # the third wound reached the part: 切断 acts
    assert "临时生命承受2道" in text
    await say(app, ".init begin", **GM)
    await say(app, ".ri =10 熊", **GM)
    await gm_view(app, ".wound 熊 臂部 临时2", **GM)
    await gm_view(app, ".wound 熊 臂部 hit1 dp1 切断", **GM)  # wholly taken by 临时生命: no 切断
    st = await state_of(app)
    assert not st.get("c1").health.parts[1].severed
    text = await gm_view(app, ".wound 熊 臂部 临时0", **GM)  # its wounds move onto the part
    assert "原临时生命的1道伤势转移到部位上" in text and "臂部 1/4：擦伤" in text


async def test_all_parts_lost_is_dissolution_and_no_more_turns(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15 史莱姆", **GM)
    await say(app, ".ri =10 狼", **GM)
    await say(app, ".init start", **GM)
    for part in ("臂部", "腿部"):
        await say(app, f".wound 史莱姆 {part} hit1 dp1 切断", **GM)
    text = await say(app, ".wound 史莱姆 躯干 重伤x4", **GM)
    assert "史莱姆 <解体>，不再进行回合" in text
    text = await say(app, ".init next", **GM)  # 史莱姆's turn ends; 狼, then round 2: 狼 only
    text = await say(app, ".init next", **GM)
    assert "第2轮" in text and "▶ 狼 的回合" in text


# --------------------------------------------------------------------------- 濒死检定
async def dying_goblin(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =12 哥布林", **GM)
    await say(app, ".hp 哥布林 强韧 +3", **GM)
    await say(app, ".init start", **GM)
    await say(app, ".wound 哥布林 躯干 擦伤x4", **GM)


@pytest.mark.parametrize(
    ("faces", "outcome", "coma"),
    [
        ([12, 1], "成功", False),
        ([11, 20], "失败", True),
        ([20, 1], "大成功", False),
        ([1, 20], "大失败", True),
    ],
)
async def test_dying_check_rolled_at_round_start(
    app: App, faces: list[int], outcome: str, coma: bool
) -> None:
    await dying_goblin(app)
    app.rng = Dice(faces)
    text = await say(app, ".init next", **GM)  # round 2 starts: the bot rolls it
    assert f"哥布林 濒死检定（躯干）：强韧防御 D20={faces[0]}→" in text and f"/15 {outcome}" in text
    h = (await state_of(app)).get("c1").health
    assert bool(h.coma) is coma
    assert h.dying_exempt is (outcome == "大成功")
    if outcome == "大失败":
        assert "躯干受到1道擦伤（失血）" in text
        assert any("失血" in w.tags for w in h.parts[2].wounds)


async def test_dying_check_target_disadvantage_exemption_and_waking(app: App) -> None:
    await dying_goblin(app)
    await say(app, ".wound 哥布林 躯干 hit1 dp1", **GM)  # full part: worsens to 轻伤 ... <负伤>
    await say(app, ".wound 哥布林 躯干 轻伤x4", **GM)  # all 轻伤: <残障> → target 20
    app.rng = Dice([14, 19])
    text = await say(app, ".濒死 哥布林", **GM)
    assert "D20=14→17/20 失败" in text and "<昏迷>" in text
    app.rng = Dice([19, 6])  # <昏迷>: disadvantage keeps the lower die
    text = await say(app, ".濒死 哥布林", **GM)
    assert "D20=19/6（<昏迷>劣势，取低）→9/20 大失败" in text
    text = await say(app, ".wound 哥布林 躯干 治疗", **GM)
    assert "<昏迷>" in text  # still at the cap
    await say(app, ".wound 哥布林 躯干 治疗 3", **GM)
    text = await say(app, ".wound 哥布林 躯干 治疗 3", **GM)
    assert "<昏迷>" not in text
    assert not (await state_of(app)).get("c1").health.coma
    assert "无需濒死检定" in await say(app, ".init 濒死 哥布林", **GM)


# --------------------------------------------------------------------------- SP
async def test_sp_death_at_minus_max_and_no_more_turns(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15 坦克", **GM)
    await say(app, ".ri =10 狼", **GM)
    await say(app, ".init start", **GM)
    await say(app, ".hp 坦克 sp上限 4", **GM)
    assert "坦克：<疲惫>" in await say(app, ".hp 坦克 sp -3", **GM)  # states yes, NPC numbers no
    text = await say(app, ".hp 坦克 sp -8", **GM)
    assert "坦克：死亡" in text and "坦克 的SP降至下限：死亡，不再进行回合" in text
    h = (await state_of(app)).get("c1").health
    assert (h.sp, h.dead) == (-4, True)
    await say(app, ".init next", **GM)
    assert "▶ 狼 的回合" in await say(app, ".init next", **GM)  # round 2: 坦克 has no turn


async def test_sp_cost_below_the_lower_bound_fails(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15 坦克", **GM)
    await say(app, ".hp 坦克 sp上限 4", **GM)
    await say(app, ".hp 坦克 sp -6", **GM)
    text = await say(app, ".hp 坦克 sp -3 消耗", **GM)  # −2 − 3 = −5 < −4: the action fails
    assert text == "消耗后SP为-5，会低于下限−4：动作使用失败"
    assert (await state_of(app)).get("c1").health.sp == -2
    assert "坦克：死亡" in await say(app, ".hp 坦克 sp -3", **GM)  # a damage stops at −4: dead


async def test_exhaustion_check_on_each_loss_while_exhausted(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15 坦克", **GM)
    await say(app, ".hp 坦克 sp上限 6", **GM)
    await say(app, ".hp 坦克 强韧 +2", **GM)
    text = await say(app, ".hp 坦克 sp -6", **GM)  # 6 → 0: was not 力竭 before the loss
    assert "<力竭>" in text and "力竭检定" not in text
    app.rng = Dice([11, 3])
    text = await say(app, ".hp 坦克 sp -2", **GM)  # 0 → −2: target 10 − (−2×2) = 14
    assert "力竭检定：强韧防御 D20=11→13/14 失败" in text and "<昏迷>" in text
    app.rng = Dice([20, 1])  # <昏迷>: disadvantage
    text = await say(app, ".hp 坦克 sp -1", **GM)
    assert "D20=20/1（<昏迷>劣势，取低）→-7/16 大失败" in text and "头部受到1道擦伤（毒素）" in text
    text = await say(app, ".hp 坦克 sp =1", **GM)
    assert "从<昏迷>中醒来" in text and "<昏迷>" not in text.splitlines()[0]


# --------------------------------------------------------------------------- 004 gauges
async def spd(app: App) -> None:
    await say(app, ".init begin 速度", **GM)
    await say(app, ".ri =15", **P1)
    await say(app, ".ri =10 哥布林", **GM)


async def test_mind_gauges_spent_from_the_left_and_restored(app: App) -> None:
    await spd(app)
    await say(app, ".hp 艾琳 mg 4", **P1)
    text = await say(app, ".hp 艾琳 mp -3", **P1)
    assert "MP17/20[2,5,5,5]" in text
    assert [g.hp for g in (await state_of(app)).get("c1").health.mg] == [2, 5, 5, 5]
    text = await say(app, ".hp 艾琳 mp +2", **P1)
    assert "MP19/20[4,5,5,5]" in text and "恢复2MP" in text


async def test_gauge_capacities_by_level_crisis_and_self_heal(app: App) -> None:
    await spd(app)
    await say(app, ".init opt 哥布林 -lv 3", **GM)
    await say(app, ".hp 哥布林 hg 4", **GM)
    st = await state_of(app)
    assert [g.cap for g in st.get("c2").health.hg] == [6, 6, 6, 5]
    assert "超过最低容量2的3倍" in await say(app, ".hp 哥布林 hg 7/2", **GM)
    await say(app, ".hp 哥布林 -2", **GM)
    await say(app, ".hp 哥布林 hg 7/6/6/5", **GM)  # a capacity change keeps each gauge's damage
    assert [g.hp for g in (await state_of(app)).get("c2").health.hg] == [5, 6, 6, 5]
    await say(app, ".hp 哥布林 hg 6/6/6/5", **GM)
    assert [g.hp for g in (await state_of(app)).get("c2").health.hg] == [4, 6, 6, 5]
    await say(app, ".hp 哥布林 +2", **GM)
    await say(app, ".hp 哥布林 危机 1", **GM)
    text = await say(app, ".hp 哥布林 -13", **GM)
    assert "危机" not in text  # 2 unbroken > 危机值 1
    assert "陷入危机" in await say(app, ".hp 哥布林 -6", **GM)
    assert [g.hp for g in (await state_of(app)).get("c2").health.hg] == [0, 0, 0, 4]
    text = await say(app, ".hp 全体 自愈", **GM)
    assert "哥布林 自愈（LV3）：HP+1 MP+0" in text  # LV 3, but never into a broken gauge
    assert [g.hp for g in (await state_of(app)).get("c2").health.hg] == [0, 0, 0, 5]


async def test_crit_breaks_at_most_two_gauges_and_execute(app: App) -> None:
    await spd(app)
    await say(app, ".hp 哥布林 hg 5", **GM)
    text = await say(app, ".hp 哥布林 -7 重击", **GM)
    assert "重击：伤害×2=14，造成10（非小兵最多击破2条HG）" in text
    assert [g.hp for g in (await state_of(app)).get("c2").health.hg] == [0, 0, 5, 5, 5]
    text = await say(app, ".hp 哥布林 -1 斩杀 12", **GM)
    assert "斩杀：目标［DEX+MIG］12/13 失败，击破1条HG" in text
    assert [g.hp for g in (await state_of(app)).get("c2").health.hg] == [0, 0, 0, 5, 5]
    app.rng = Dice([8, 6])
    assert "14/13 成功" in await say(app, ".hp 哥布林 -1 斩杀d8+d10", **GM)
    await say(app, ".hp 哥布林 杂兵", **GM)
    await say(app, ".hp 哥布林 +20", **GM)
    text = await say(app, ".hp 哥布林 -1 斩杀 3", **GM)
    assert "击破5条HG" in text  # a minion: all of them


# --------------------------------------------------------------------------- 004 actions, 002 Mov
async def test_004_actions_per_turn(app: App) -> None:
    await spd(app)
    text = await say(app, ".init start", **GM)
    assert "▶ 艾琳 的回合 @艾琳　动作 1/1" in text
    assert "艾琳 使用动作：攻击（剩余0）；动作已用完，.ed 结束回合" in await say(app, ".动作 攻击", **P1)
    assert "本回合的动作已用完（每回合1个）；.ed 结束回合" in await say(app, ".动作 攻击", **P1)
    assert "只有" in await say(app, ".动作 艾琳 +1", **P1)
    assert "追加1个动作（剩余1）" in await say(app, ".动作 艾琳 +1", **GM)
    assert "本回合剩余2个" in await say(app, ".init 动作数 2", **GM)
    text = await say(app, ".ed", **P1)
    assert "▶ 哥布林 的回合　动作 2/2" in text
    assert "（剩余1）" in await say(app, ".动作 哥布林 攻击", **GM)
    assert "动作只能在自己的回合内使用" in await say(app, ".动作 艾琳 攻击", **GM)
    await say(app, ".init end 确认", **GM)
    await say(app, ".init begin", **GM)
    assert "每回合动作数只用于速度规则" in await say(app, ".init 动作数 2", **GM)


async def test_002_mov_from_card_speed(app: App) -> None:
    await say(app, ".st 力量14 敏捷16 灵巧3", **P1)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15", **P1)
    text = await say(app, ".init start", **GM)
    assert "AP 3/3　Mov 4" in text  # issue 26: 灵巧熟练度3 + (STR+2 + DEX+3)/4 = 4.25 → 4
    assert "Mov 2（速度4）" in await say(app, ".mov -2", **P1)
    assert "Mov不足：艾琳 剩2，移动需要5" in await say(app, ".mov -5", **P1)


async def test_check_with_a_crippled_part_takes_minus_4(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15", **P1)
    await say(app, ".ri =10 哥布林", **GM)
    await say(app, ".wound 艾琳 臂部 轻伤x4", **GM)
    text = await say(app, ".rc 0 被动 -部位 臂部", **P1)
    assert "被动10-4=6" in text and "-4臂部残障状态" in text
    assert "被动10-4=6" in await say(app, ".rc 0 被动 -部位 臂部 -3状态", **P1)  # same type: the worst
    assert "被动10+0=10" in await say(app, ".rc 0 被动 -部位 腿部", **P1)
    await say(app, ".wound 哥布林 腿部 hit1 dp1 切断", **GM)
    assert "哥布林 的腿部已<欠损>，视为不存在" in await say(app, ".rc +2 -部位 哥布林/腿部", **GM)
