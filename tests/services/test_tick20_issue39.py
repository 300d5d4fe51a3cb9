"""Issue 39, D20 tick part: each defect's exact repro (failing before the fix), played as a group
plays it.

11. an attack in one command: ``.atk`` spends its AP, refuses without spending, ends the turn with
    ``结束``, and never charges twice after ``.ap -2 攻击``;
12. several NPCs in one ``.ri``: ``哥布林*3``, the repeated-name list, ``3#``, ``同骰``;
13. a <昏迷> turn skipped, <昏迷> shown once, ``.init log`` pages, ``.ap`` alone;
14. 精神伤害 takes SP (``.wound`` and ``.atk``).

Seed: ``/work/shared/seeds/002_af7fdeaa609c9fb6.txt`` (先攻检定 "所有参与冲突的角色都需要进行1次先攻
检定", 行动值, 主要动作, 精力, 伤害类型与损伤).
"""

from __future__ import annotations

import pytest
from helpers import Scripted, parse_of, run, say

from chronodice.app import App
from chronodice.rules.tick20.model import Combat
from chronodice.services.tick20 import tracker
from chronodice.services.tick20.codec import COMBAT_CODEC

GM = {"user": "10001", "roles": ("owner",)}
XIAOAI = {"user": "10002", "name": "小艾"}
LAOTUO = {"user": "10003", "name": "老托"}


@pytest.fixture(autouse=True)
def no_grace(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands come faster than people type them (the grace window has its own tests)."""
    if "grace" not in request.node.name:
        monkeypatch.setattr(tracker, "ADVANCE_GRACE", 0.0)


def Dice(faces: list[int]) -> Scripted:
    """``randint`` answers from ``faces`` first, then like ``random.Random(1)``."""
    return Scripted(faces, then_seed=1)


async def combat(app: App) -> Combat:
    state = await app.store.sessions.load_state("20002", COMBAT_CODEC)
    assert state is not None
    return state


async def ap_of(app: App, name: str) -> int:
    return next(c.ap for c in (await combat(app)).combatants if c.name == name)


async def scene(app: App) -> None:
    """小艾 (15) and 老托 (10) against two goblins from the group's card (12, 6); 小艾's turn."""
    await say(app, ".set tick20", **GM)
    await say(app, ".npc 哥布林 敏捷12 LV4 DR0 hit1 dp2", **GM)
    await say(app, ".st 力量12 敏捷12 体质12 魄力12 耐力熟练1 LV4 hit1 dp2", **XIAOAI)  # SP上限 2+1+1 = 4
    await say(app, ".st 力量10 敏捷10 LV4", **LAOTUO)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15", **XIAOAI)
    await say(app, ".ri =10", **LAOTUO)
    await say(app, ".ri =12 哥布林1, =6 哥布林2", **GM)  # the numbers read the 哥布林 card
    await say(app, ".init start", **GM)


# --------------------------------------------------------------------------- 11. .atk and AP
async def test_atk_spends_the_attacks_ap_itself(app: App) -> None:
    """Was: ``.atk`` spent nothing, so a player needed ``.ap -2 攻击``, ``.atk``, ``.ed``."""
    await scene(app)
    app.rng = Dice([15])
    text = await say(app, ".atk 哥布林1 躯干", **XIAOAI)
    assert text.startswith("小艾 攻击 哥布林1（近战，躯干）\nATK：D20=15+1=16")
    assert text.endswith("\n小艾 花2AP（AP 1/3）")
    assert await ap_of(app, "小艾") == 1
    assert await say(app, ".ap", **XIAOAI) == "小艾 AP 1/3"


async def test_a_refused_atk_rolls_nothing_spends_nothing_and_says_so(app: App) -> None:
    await scene(app)
    app.rng = Scripted([])  # any die rolled would fail the test
    assert await say(app, ".atk 哥布林9 躯干", **XIAOAI) == (
        "没有找到参战者「哥布林9」；攻击没有进行，没有花AP"
    )
    assert await say(app, ".atk 哥布林1 躯干", **LAOTUO) == (
        "现在是 小艾 的回合：老托 的攻击要等自己的回合（回合外的攻击写 ap0）；攻击没有进行，没有花AP"
    )
    await say(app, ".ap 小艾 =0", **GM)
    assert await say(app, ".atk 哥布林1 躯干", **XIAOAI) == (
        "小艾 的AP为0（≤0），不能使用消耗AP的动作；攻击没有进行，没有花AP"
    )
    assert await ap_of(app, "小艾") == 0 and await ap_of(app, "老托") == 0


async def test_atk_after_ap_attack_uses_the_ap_paid_and_a_refusal_keeps_it(app: App) -> None:
    """The issue's three commands: ``.ap -2 攻击``, a refused ``.atk`` (the AP stayed spent and
    nothing said so), then the attack.  Rule: AP paid with ``.ap -n 攻击`` in the same turn is the
    next ``.atk``'s, once — never charged twice."""
    await scene(app)
    assert (
        await say(app, ".ap -2 攻击", **XIAOAI) == "小艾 AP 1/3\n已为攻击付了2AP：下一次 .atk 直接用，不再扣"
    )
    assert await say(app, ".atk 哥布林9 躯干", **XIAOAI) == (
        "没有找到参战者「哥布林9」；攻击没有进行，没有花AP（先前为攻击付的2AP还在，下一次 .atk 直接用上）"
    )
    assert await say(app, ".ap", **XIAOAI) == "小艾 AP 1/3\n已为攻击付了2AP：下一次 .atk 直接用，不再扣"
    app.rng = Dice([15])
    text = await say(app, ".atk 哥布林1 躯干", **XIAOAI)
    assert text.endswith("\n小艾 用先前为攻击付的2AP，不再扣（AP 1/3）")
    assert await ap_of(app, "小艾") == 1
    app.rng = Dice([15])  # a second attack is a second 主要动作: charged (AP 1 → −1, above −3)
    assert (await say(app, ".atk 哥布林1 躯干", **XIAOAI)).endswith("\n小艾 花2AP（AP -1/3）")


async def test_ap_paid_in_an_earlier_turn_is_not_carried_over(app: App) -> None:
    await scene(app)
    await say(app, ".ap -2 攻击", **XIAOAI)
    for _ in range(4):  # round 2: 小艾's turn again, with fresh AP
        await say(app, ".init next", **GM)
    assert await say(app, ".ap", **XIAOAI) == "小艾 AP 3/3"
    app.rng = Dice([15])
    assert (await say(app, ".atk 哥布林1 躯干", **XIAOAI)).endswith("\n小艾 花2AP（AP 1/3）")


async def test_atk_with_the_word_end_ends_the_turn_in_the_same_command(app: App) -> None:
    await scene(app)
    app.rng = Dice([15])
    replies = await run(app, ".atk 哥布林1 躯干 结束", **XIAOAI)
    assert replies[0].text.startswith("小艾 攻击 哥布林1（近战，躯干）")
    assert replies[0].text.endswith("\n小艾 花2AP（AP 1/3）")
    card = replies[-1].text
    assert "▶ 哥布林1 的回合" in card and "第12刻" in card
    assert (await combat(app)).current == "c3"
    # 结束 ends the attacker's own turn only: an attack outside it cannot end another's turn
    assert await say(app, ".atk 哥布林1:小艾 ap0 结束", **XIAOAI) == ("只有 哥布林1 的玩家或 GM 可以替他攻击")
    assert await say(app, ".atk 哥布林2:小艾 ap0 结束", **GM) == (
        "「结束」结束的是攻击者自己的回合，现在不是 哥布林2 的回合；攻击没有进行，没有花AP"
    )


async def test_atk_end_is_an_advance_a_gm_pressing_next_at_once_does_not_repeat_grace(app: App) -> None:
    """C02: ``.atk … 结束`` and a GM's ``.init next`` sent at the same time advance the turn once."""
    await scene(app)
    app.rng = Dice([15])
    await run(app, ".atk 哥布林1 躯干 结束", **XIAOAI)
    assert (await say(app, ".init next", **GM)).startswith("小艾 刚刚已经结束回合，现在是 哥布林1 的回合")
    assert (await combat(app)).current == "c3"


async def test_ap0_is_an_attack_outside_the_attackers_turn(app: App) -> None:
    await scene(app)
    app.rng = Dice([15])
    text = await say(app, ".atk 哥布林2:小艾 ap0", **GM)  # a reaction in 小艾's turn
    assert text.startswith("哥布林2 攻击 小艾") and "AP" not in text
    assert await ap_of(app, "哥布林2") == 0


# --------------------------------------------------------------------------- 12. .ri batches
async def test_ri_repeated_names_are_numbered_each_with_its_value(app: App) -> None:
    """Was: 已经有叫「哥布林」的参战者, none added."""
    await say(app, ".init begin", **GM)
    text = await say(app, ".ri =12 哥布林, =12 哥布林, =6 哥布林", **GM)
    assert text.splitlines() == [
        "哥布林1 的先攻：=12",
        "哥布林2 的先攻：=12",
        "哥布林3 的先攻：=6",
        "共3名参战者；GM 发送 .init start 开战",
    ]


async def test_ri_name_times_n_adds_numbered_npcs_each_rolling(app: App) -> None:
    """Was: one combatant named 哥布林*3."""
    await say(app, ".init begin", **GM)
    app.rng = Scripted([15, 4, 9])
    assert (await say(app, ".ri +2 哥布林*3", **GM)).splitlines() == [
        "哥布林1 的先攻：D20=15+2=17",
        "哥布林2 的先攻：D20=4+2=6",
        "哥布林3 的先攻：D20=9+2=11",
        "哥布林1~3 各自掷了先攻（要共用一次写 同骰）",
        "共3名参战者；GM 发送 .init start 开战",
    ]
    app.rng = Scripted([7, 8])  # 哥布林1~3 are there: the numbering goes on
    assert (await say(app, ".ri 哥布林×2", **GM)).splitlines()[:3] == [
        "哥布林4 的先攻：D20=7+0=7",
        "哥布林5 的先攻：D20=8+0=8",
        "哥布林4~5 各自掷了先攻（要共用一次写 同骰）",
    ]


async def test_ri_count_hash_is_the_same_as_times_and_a_shared_roll_is_asked_for(app: App) -> None:
    """Was: ``.ri 3# 哥布林`` gave all three one roll without saying so."""
    await say(app, ".init begin", **GM)
    app.rng = Scripted([5, 16, 10])
    assert (await say(app, ".ri 3# 哥布林", **GM)).splitlines()[:4] == [
        "哥布林1 的先攻：D20=5+0=5",
        "哥布林2 的先攻：D20=16+0=16",
        "哥布林3 的先攻：D20=10+0=10",
        "哥布林1~3 各自掷了先攻（要共用一次写 同骰）",
    ]
    app.rng = Scripted([11])  # one die for the pack
    assert (await say(app, ".ri +1 狼*3 同骰", **GM)).splitlines()[:4] == [
        "狼1 的先攻：D20=11+1=12",
        "狼2 的先攻：D20=11+1=12",
        "狼3 的先攻：D20=11+1=12",
        "狼1~3 共用一次先攻（同骰）",
    ]


async def test_ri_batch_words_refused_where_they_mean_nothing(app: App) -> None:
    assert parse_of(".ri 哥布林 同骰") == "「同骰」用于一次加入多名同名NPC（如 .ri 哥布林*3 同骰）"
    assert parse_of(".ri 3#哥布林*2") == "「3#」和「*2」只写一个（如 哥布林*3）"
    await say(app, ".init begin", **GM)
    assert await say(app, ".ri 哥布林*0", **GM) == "「哥布林*0」：数量至少为1（如 哥布林*3）"
    await say(app, ".ri =9 哥布林", **GM)
    assert await say(app, ".ri =9 哥布林", **GM) == (
        "已经有叫「哥布林」的参战者：要再加同名的，写 .ri 哥布林*2（依次编号）"
    )


# --------------------------------------------------------------------------- 13. 昏迷, log, .ap
async def knocked_out(app: App, who: str) -> None:
    """``who`` (SP上限 4) falls to SP −1 while <力竭> and fails the 力竭 check: <昏迷>."""
    await say(app, f".hp {who} sp上限 4", **GM)
    await say(app, f".hp {who} sp =0", **GM)
    app.rng = Dice([2, 2])
    assert "<昏迷>（直到SP恢复至1）" in await say(app, f".hp {who} sp -1", **GM)


async def test_an_unconscious_pc_s_turn_is_skipped_with_one_line(app: App) -> None:
    """Was: ``▶ 小艾 的回合 … <昏迷>`` and no skip."""
    await scene(app)
    await say(app, ".ed", **XIAOAI)
    await knocked_out(app, "小艾")
    for _ in range(3):  # 哥布林1, 老托, 哥布林2
        card = await say(app, ".init next", **GM)
    assert card.splitlines() == [
        "—— 第2轮开始 ——",
        "  第15刻 小艾 处于<昏迷>：回合自动跳过",
        "⚔ 第2轮 · 第12刻（基础）",
        "▶ 哥布林1 的回合　AP 3/3",
        "  接下来：第10刻 老托 → 第6刻 哥布林2 → 第3轮 第12刻 哥布林1",
        "  请准备：老托（下一个回合）",
    ]
    log = await say(app, ".init log", **GM)
    assert "第15刻 小艾 处于<昏迷>：回合自动跳过" in log


async def test_a_coma_effect_skips_the_turn_too_and_everyone_out_waits_for_the_gm(app: App) -> None:
    await scene(app)
    assert await say(app, ".init eff 老托 昏迷", **GM) == "老托 获得「昏迷」（永久）"
    await say(app, ".ed", **XIAOAI)
    card = await say(app, ".init next", **GM)  # 哥布林1 ends: 老托 skipped, 哥布林2 acts
    assert "  第10刻 老托 处于<昏迷>：回合自动跳过" in card and "▶ 哥布林2 的回合" in card
    for name in ("小艾", "哥布林1", "哥布林2"):
        await say(app, f".init eff {name} 昏迷", **GM)
    card = await say(app, ".init next", **GM)  # nobody can act: one round, then the GM decides
    assert card.splitlines()[-1] == "这一轮能行动的都处于<昏迷>，暂停在第3轮开始前；GM 发送 .init next 继续"
    assert card.count("处于<昏迷>：回合自动跳过") == 4


async def test_coma_shows_once_when_an_effect_says_it_too(app: App) -> None:
    """Was: ``.init eff 老托 昏迷`` showed both ``[昏迷 永久]`` and ``<昏迷>``."""
    await scene(app)
    await knocked_out(app, "老托")
    await say(app, ".init eff 老托 昏迷", **GM)
    line = next(x for x in (await say(app, ".init", **GM)).splitlines() if "老托" in x)
    assert line.count("昏迷") == 1 and "[昏迷 永久]" in line
    status = await say(app, ".init status 老托", **LAOTUO)
    assert status.count("昏迷") == 1


async def test_init_log_shows_the_latest_page_and_how_to_see_earlier(app: App) -> None:
    """Was: 13 lines from the middle of round 1 and no page hint, after two rounds."""
    await scene(app)
    for _ in range(12):  # three full rounds of four turns: 17 lines
        await say(app, ".init next", **GM)
    page1 = (await say(app, ".init log", **GM)).splitlines()
    assert page1[0] == "战报（第1/2页）："
    assert page1[-1] == "（更早的：.init log 2）"
    assert page1[1] == "—— 第2轮开始 ——" and page1[-2] == "  第15刻 小艾 的回合"  # the latest 12
    assert "—— 第4轮开始 ——" in page1 and len(page1) == 14
    page2 = (await say(app, ".init log 2", **GM)).splitlines()
    assert page2[:3] == ["战报（第2/2页）：", "—— 第1轮开始 ——", "  第15刻 小艾 的回合"]
    assert await say(app, ".init log 3", **GM) == "战报只有2页（.init log 2 是最早的一页）"


async def test_ap_alone_shows_the_senders_ap(app: App) -> None:
    """Was: 缺少±n/=n/ta/pay."""
    await scene(app)
    assert await say(app, ".ap", **XIAOAI) == "小艾 AP 3/3"
    assert await say(app, ".ap", **LAOTUO) == "老托 AP 0/3"
    assert await say(app, ".ap 查看 哥布林1", **GM) == "哥布林1 AP 0/3"
    assert await say(app, ".ap", user="10009") == "你还没有参战者（.ri 加入）"


# --------------------------------------------------------------------------- 14. 精神伤害
async def test_wound_with_mental_damage_takes_dp_minus_dr_sp(app: App) -> None:
    """Was: refused, with 用 .hp 名 sp -N.  002: "精神伤害只会扣除受到伤害的角色的SP"."""
    await say(app, ".init begin", **GM)
    await say(app, ".ri =10 H", **GM)
    await say(app, ".hp H sp上限 4", **GM)
    await say(app, ".init start", **GM)
    replies = await run(app, ".wound H 躯干 hit1 dp2 dr0 屈服", **GM)
    gm_text = next(r.text for r in replies if r.private)
    assert gm_text.splitlines() == ["H：SP2/4 <疲惫>", "  H 受到精神伤害（屈服）：DP2−DR0，SP−2"]
    assert not any(p.wounds for p in (await combat(app)).get("c1").health.parts)  # no wound
    text = "\n".join(r.text for r in await run(app, ".wound H 躯干 hit1 dp5 dr1 疼痛", **GM) if r.private)
    assert "DP5−DR1，SP−4" in text and "SP-2/4" in text and "<力竭>" in text
    app.rng = Dice([10, 10])  # SP −2 while <力竭>: the 力竭 check, target 10 − (−3×2) = 16
    text = "\n".join(r.text for r in await run(app, ".wound H 躯干 hit1 dp1 欣快", **GM) if r.private)
    assert "力竭检定：强韧防御 D20=10→10/16 失败" in text and "<昏迷>（直到SP恢复至1）" in text
    text = "\n".join(r.text for r in await run(app, ".wound H 躯干 hit1 dp3 困顿", **GM) if r.private)
    assert "死亡" in text  # down to −4 = −max
    assert await say(app, ".wound H 躯干 轻伤x2 屈服", **GM) == (
        "精神伤害不造成伤势，写成 hitN dpN drN 加类型（扣 DP−DR 点SP）"
    )


async def test_atk_with_a_mental_damage_takes_sp(app: App) -> None:
    await scene(app)
    await say(app, ".ed", **XIAOAI)  # 哥布林1's turn
    app.rng = Dice([18])
    text = await say(app, ".atk 哥布林1:小艾 屈服 dp3", **GM)
    assert "伤害：Hit1 DP3 对 DR0 屈服" in text
    assert "小艾：SP1/4 <疲惫>" in text and "  小艾 受到精神伤害（屈服）：DP3−DR0，SP−3" in text
    assert "精神上的攻击也是精神创伤：狂气增加多少由GM定（.人格 创伤N）" in text
    assert text.endswith("哥布林1 花2AP（AP 1/3）")
    xiaoai = (await combat(app)).get("c1")
    assert xiaoai.health.sp == 1 and not any(p.wounds for p in xiaoai.health.parts)
