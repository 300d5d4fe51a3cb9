"""The 无限恐怖 pool commands (.w .ww .wh) through App.dispatch, on a real SQLite file.

Faces are scripted where the numbers matter (``app.rng`` replaced by a scripted d10).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from helpers import run, say

from chronodice.app import App


class Scripted(random.Random):
    """A d10 that returns scripted faces in order, and fails if more dice are rolled."""

    def __init__(self, *groups: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = [f for g in groups for f in g]
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 10)
        assert self.calls < len(self.faces), "more dice rolled than scripted"
        self.calls += 1
        return self.faces[self.calls - 1]


A, B = "10001", "10002"


async def _cards(app: App) -> None:
    await say(app, ".st 敏捷4潜行3力量11格斗2", user=A, name="艾拉")
    await say(app, ".st 感知6调查1敏捷2", user=B, name="哨兵")


# ---------------------------------------------------------------- plain rolls
async def test_ww_lists_rounds_and_w_gives_result(app: App) -> None:
    app.rng = Scripted([10, 3, 8, 1, 9, 10, 2])
    text = await say(app, ".ww 5", name="艾拉")
    assert text == "艾拉 掷骰池：5（10加骰）\n[⑩,3,⑧,1,⑨]+[⑩]+[2]\n4成功"
    app.rng = Scripted([10, 3, 8, 1, 9, 10, 2])
    text = await say(app, ".w 5", name="艾拉")
    assert text == "艾拉 掷骰池：5（10加骰）\n4成功"


async def test_xay_syntax_and_case(app: App) -> None:
    app.rng = Scripted([8, 8, 3, 8, 1, 2])
    text = await say(app, "。WW3a8")
    assert "3（8加骰）" in text and "[⑧,⑧,3]+[⑧,1]+[2]" in text
    assert text.endswith("\n3成功")
    app.rng = Scripted([9, 2, 9, 1])
    assert "（9加骰）" in await say(app, ".ww 2a9")
    app.rng = Scripted([10, 10])
    assert "（不加骰）" in await say(app, ".ww 2a11")


async def test_pool_from_card_values_shows_the_source(app: App) -> None:
    await _cards(app)
    app.rng = Scripted([8, 1, 2, 3, 4, 5, 6])
    text = await say(app, ".ww 敏捷+潜行 偷偷靠近", user=A)
    assert "艾拉 掷骰池 偷偷靠近：敏捷4+潜行3=7（10加骰）" in text
    assert text.endswith("1成功")
    app.rng = Scripted([8] * 11)
    text = await say(app, ".w 力量+运动-2", user=A)
    assert "没有「运动」" in text
    app.rng = Scripted([7] * 11)
    text = await say(app, ".w 力量+格斗-2", user=A)
    # 力量11 gives 2 bonus successes, but 0 natural successes stay a failure
    assert "力量11+格斗2-2=11" in text
    assert "0成功（有效成功为0，附加成功2不生效），失败" in text


async def test_bonus_successes_only_with_natural_successes(app: App) -> None:
    await _cards(app)
    await say(app, ".ww 附加 潜行1", user=A)
    app.rng = Scripted([9, 1, 1, 1, 1, 1, 1])
    text = await say(app, ".ww 敏捷+潜行 +2s dc4", user=A)
    assert "附加成功：潜行1+指令2=3" in text
    assert "自然成功1+附加3=4成功 ≥ DC4，成功" in text
    app.rng = Scripted([1, 1, 1, 1, 1, 1, 1])
    text = await say(app, ".ww 敏捷+潜行 +2s dc1", user=A)
    assert "附加成功3不生效" in text and "< DC1，失败" in text


async def test_lost_successes(app: App) -> None:
    app.rng = Scripted([8, 2])
    text = await say(app, ".ww 2 +3s -1s")
    assert "自然成功1-1=0成功（有效成功为0，附加成功3不生效）" in text


async def test_dc_margin(app: App) -> None:
    app.rng = Scripted([8, 9, 10, 1])
    assert "3成功 ≥ DC2，成功（超出1）" in await say(app, ".w 3 dc2")
    app.rng = Scripted([8, 1, 1])
    assert "1成功 < DC3，失败（差2）" in await say(app, ".w 3 难度3")


# ---------------------------------------------------------------- chance die
async def test_chance_die_from_negative_pool(app: App) -> None:
    await _cards(app)
    app.rng = Scripted([1])
    text = await say(app, ".ww 敏捷-6 +3s", user=A)
    assert "敏捷4-6=-2" in text and "机运骰" in text
    assert "大失败" in text
    app.rng = Scripted([10, 8])
    text = await say(app, ".ww 0 +3s")
    assert "[⑩]+[⑧]" in text and "机运骰2成功" in text and "不受3个附加成功影响" in text
    app.rng = Scripted([9])
    text = await say(app, ".ww 0")
    assert "[9]" in text and text.splitlines()[-1] == "机运骰0成功，失败"
    assert "大失败" not in text and "只有10成功" not in text  # the rule text is not repeated
    app.rng = Scripted([1])
    assert (await say(app, ".w 0")).splitlines()[-1] == "机运骰0成功，掷出1，大失败！"
    app.rng = Scripted([1])
    text = await say(app, ".ww 攻击 0")
    assert text.splitlines()[-1] == "机运骰0成功，掷出1，大失败！未命中"
    app.rng = Scripted([5])
    assert (await say(app, ".ww 攻击 0")).splitlines()[-1].startswith("机运骰0成功，没有自然成功：未命中")


# ---------------------------------------------------------------- odds
async def test_odds_are_exact(app: App) -> None:
    app.rng = Scripted([])
    text = await say(app, ".ww 5 ?")
    assert "期望自然成功 1.667" in text
    assert "0:16.81%" in text  # 0.7^5
    text = await say(app, ".ww 0 ？")
    assert "大失败：10.00%" in text and "成功率：10.00%" in text
    text = await say(app, ".ww 1 dc2 ?")
    # P(≥2 from one 10-again die) = 1/10 · 3/10 … = 0.1 × (0.2 + 0.1) = 3%
    assert "成功数≥DC2：成功率：3.00%" in text
    assert app.rng.calls == 0


async def test_odds_limit(app: App) -> None:
    assert "不计算概率" in await say(app, ".ww 999 ?")
    # many lost successes or a high DC widen the computed range, or say why not
    text = await say(app, ".ww 5 -60s ?")  # 61+ natural successes from 5 dice: possible, tiny
    assert "（扣除60）：成功率：<0.01%" in text and "期望最终成功 0.000" in text
    assert "成功数≥DC80：成功率：<0.01%" in await say(app, ".ww 5 dc80 ?")
    assert "最多计算到" in await say(app, ".ww 5 dc999 ?")


# ---------------------------------------------------------------- hidden
async def test_hidden_roll_goes_private(app: App) -> None:
    app.rng = Scripted([8, 8, 8])
    replies = await run(app, ".wh 3", name="艾拉")
    public = [r for r in replies if not r.private]
    private = [r for r in replies if r.private]
    assert len(public) == 1 and "暗骰" in public[0].text and "成功" not in public[0].text
    assert len(private) == 1 and "3成功" in private[0].text and private[0].fallback
    assert "成功" not in private[0].fallback


# ---------------------------------------------------------------- opposed
async def test_opposed_stealth_against_perception(app: App) -> None:
    await _cards(app)
    # A: 敏捷4+潜行3 = 7 dice → 2 successes; B: 感知6+调查1 = 7 dice (感知6 → 1 bonus) → 1+1 = 2
    app.rng = Scripted([8, 9, 1, 1, 1, 1, 1], [8, 2, 2, 2, 2, 2, 2])
    text = await say(app, ".ww 敏捷+潜行 vs 感知+调查", user=A, at=(B,))
    assert "对抗：艾拉（敏捷4+潜行3=7）对 哨兵（感知6+调查1=7）" in text
    assert "哨兵：[⑧,2,2,2,2,2,2] 自然成功1+附加1=2成功 ≥ DC2，成功" in text
    assert "哨兵 胜出" in text
    # the strict «超过» reading, chosen per group
    await say(app, ".ww set 超过", roles=("admin",))
    app.rng = Scripted([8, 9, 1, 1, 1, 1, 1], [8, 2, 2, 2, 2, 2, 2])
    text = await say(app, ".w 敏捷+潜行 vs 感知+调查", user=A, at=(B,))
    assert "未超过DC2：艾拉 胜出" in text


async def test_opposed_against_npc_number_and_errors(app: App) -> None:
    await _cards(app)
    app.rng = Scripted([1, 1, 1, 1, 1, 1, 1], [1, 1, 1])
    text = await say(app, ".ww 敏捷+潜行 vs 3", user=A)
    assert "对手" in text and "艾拉 胜出" in text  # the second side needs at least one success
    assert "@对手" in await say(app, ".ww 敏捷+潜行 vs 感知", user=A)
    # an NPC sneaks first (5 dice), the sender's card answers
    app.rng = Scripted([8, 1, 1, 1, 1], [9, 1, 1, 1, 1, 1, 1])
    text = await say(app, ".ww 5 vs 敏捷+潜行", user=A)
    assert text.splitlines()[0] == "对抗：对手（5）对 艾拉（敏捷4+潜行3=7）"
    assert "艾拉 胜出" in text
    assert "没有使用中的角色卡" in await say(app, ".ww 3 vs 3", user=A, at=("10009",))
    assert "两边" in await say(app, ".ww 3 vs", user=A)


# ---------------------------------------------------------------- defence and attack
async def test_defended_attack_exchange(app: App) -> None:
    await _cards(app)
    await say(app, ".ww 附加 攻击1", user=A)
    await say(app, ".ww 附加 防御4", user=B)
    assert "宣言防御附加成功3" in await say(app, ".ww 防御 3", user=B)
    # attack 力量11+格斗2 = 13 dice; 2 natural successes, all cancelled by 3 declared → miss
    app.rng = Scripted([8, 9], [1] * 11)
    text = await say(app, ".ww 攻击 力量+格斗", user=A, at=(B,))
    assert "攻击附加成功：力量2+卡上攻击1=3" in text
    assert "宣言防御附加成功3，抵消2（浪费1）" in text
    assert "未命中，攻击附加成功与命中效果均不生效" in text
    assert "3个防御附加成功已用掉" in text
    # only 1 left this round
    assert "只剩1" in await say(app, ".ww 防御 2", user=B)
    assert "宣言防御附加成功1" in await say(app, ".ww 防御 1", user=B)
    app.rng = Scripted([8, 9, 10, 3], [1] * 10)
    text = await say(app, ".w 攻击 力量+格斗", user=A, at=(B,))
    assert "命中！攻击成功数 3-1+附加3=5" in text
    assert "本轮剩余0/4" in await say(app, ".ww 防御")
    # the defender's next action restores everything
    assert "恢复4个防御附加成功" in await say(app, ".ww 行动", user=B)
    assert "本群没有防御宣言记录" in await say(app, ".ww 防御")


async def test_undeclared_defence_counts_as_none_and_inline_defence(app: App) -> None:
    await _cards(app)
    app.rng = Scripted([8], [1] * 12)
    text = await say(app, ".w 攻击 力量+格斗", user=A, at=(B,))
    assert "命中！攻击成功数 1+附加2=3" in text
    app.rng = Scripted([8, 8], [1] * 11)
    text = await say(app, ".w 攻击 力量+格斗 防2", user=A)
    assert "抵消2" in text and "未命中" in text


async def test_npc_attack_is_labelled_with_the_npc(app: App) -> None:
    await _cards(app)
    await say(app, ".ww 附加 防御2", user=B)
    await say(app, ".ww 防御 1", user=B)
    # the GM (no card in this group) rolls a plain pool for an NPC against 哨兵
    app.rng = Scripted([8, 9, 1])
    text = await say(app, ".ww 攻击 3", user="10099", name="主持人", at=(B,), roles=("owner",))
    assert text.splitlines()[0] == "NPC 攻击 <哨兵>：3（10加骰）"
    assert "主持人" not in text
    app.rng = Scripted([8, 1, 1], [1, 1, 1])
    text = await say(app, ".ww 分配 3 甲×2", user="10099", name="主持人", roles=("owner",))
    assert text.splitlines()[0] == "NPC 多次攻击：3，攻击附加成功0" and "主持人" not in text
    # a player without a card still attacks under their own name
    app.rng = Scripted([8, 1, 1])
    assert (await say(app, ".ww 攻击 3", user="10098", name="路人")).startswith("路人 攻击：3")


async def test_defence_needs_a_total_and_gm_for_others(app: App) -> None:
    await _cards(app)
    assert "没有防御附加成功" in await say(app, ".ww 防御 1", user=A)
    await say(app, ".ww 附加 防御2", user=B)
    assert "只有" in await say(app, ".ww 防御 1", user=A, at=(B,))
    assert "宣言防御附加成功1" in await say(app, ".ww 防御 1", user=A, at=(B,), roles=("admin",))
    assert "只有" in await say(app, ".ww 防御 clr", user=A)
    assert "已清空" in await say(app, ".ww 防御 clr", user=A, roles=("owner",))


async def test_undo_reverts_a_declaration(app: App) -> None:
    await _cards(app)
    await say(app, ".ww 附加 防御2", user=B)
    await say(app, ".ww 防御 2", user=B)
    assert "已撤销" in await say(app, ".undo", user=B)
    assert "本群没有防御宣言记录" in await say(app, ".ww 防御")


async def test_undo_takes_back_each_combat_step_even_one_that_changed_no_defence(app: App) -> None:
    """Every command of the D10 combat is a step of its own (issue 39): ``.undo`` takes back the
    last one, also when it changed no defence, and never reaches past it to an earlier one."""
    await _cards(app)
    await say(app, ".ww 附加 防御2", user=A)
    await say(app, ".ww 附加 防御2", user=B)
    await say(app, ".ww 防御 2", user=B)
    # steps that change no defence: 艾拉 declares 0 with nothing declared or spent, then attacks
    # with nothing to restore, then acts with nothing to restore
    assert "宣言防御附加成功0" in await say(app, ".ww 防御 0", user=A)
    app.rng = Scripted([1, 1, 1])
    assert "未命中" in await say(app, ".ww 攻击 3", user=A)
    assert "行动：没有需要恢复的防御附加成功" in await say(app, ".ww 行动", user=A)
    for step in (".ww 行动", ".ww 攻击 3", ".ww 防御 0"):
        assert await say(app, ".undo", user=A, roles=("owner",)) == f"已撤销：{step}"
        assert "<哨兵> 宣言2，已用0" in await say(app, ".ww 防御")  # 哨兵's declaration stays
    assert await say(app, ".undo", user=A, roles=("owner",)) == "已撤销：.ww 防御 2"
    assert "本群没有防御宣言记录" in await say(app, ".ww 防御")
    assert "没有可以撤销的操作" in await say(app, ".undo", user=A, roles=("owner",))


# ---------------------------------------------------------------- allocation, calculator, settings
async def test_multi_attack_allocation(app: App) -> None:
    await _cards(app)
    app.rng = Scripted([8, 1, 1], [1, 1, 1], [9, 10, 1, 2])
    text = await say(app, ".ww 分配 3 +4s 甲 乙×2=3/1", user=A)
    lines = text.splitlines()
    assert lines[0] == "艾拉 多次攻击：3，攻击附加成功4"
    assert lines[1] == "甲（分配4）：[⑧,1,1] 自然1+附加4=5，命中"
    assert lines[2] == "乙#1（分配3）：[1,1,1] 没有自然成功，未命中"
    assert lines[3] == "乙#2（分配1）：[⑨,⑩,1]+[2] 自然2+附加1=3，命中"
    assert "超过" in await say(app, ".ww 分配 3 +1s 乙×2=1/1", user=A)
    assert "目标" in await say(app, ".ww 分配 3", user=A)


async def test_multi_attack_must_allocate_all_the_bonus(app: App) -> None:
    await _cards(app)  # 艾拉: 力量11 (2 bonus successes) 格斗2
    app.rng = Scripted([])
    text = await say(app, ".ww 分配 力量+格斗 +2s 守卫×2=1/1", user=A)
    assert "「守卫」的分配合计2，少于攻击附加成功4" in text and "分配合计应为4" in text
    assert app.rng.calls == 0  # refused before any die is rolled


async def test_multiplier_calculator_seed_examples(app: App) -> None:
    assert "30×(2+4-1)+50=200" in await say(app, ".ww 倍率 30 ×2 ×4 +50")
    assert "(30+10)×2=80" in await say(app, ".w 倍率 30 基础+10 *2")
    assert "10/(2+2-1)-1=2" in await say(app, ".ww 倍率 10 /2 /2 -1")
    assert "格式" in await say(app, ".ww 倍率 abc")


async def test_group_defaults(app: App) -> None:
    assert "只有" in await say(app, ".ww set a9")
    assert "9加骰" in await say(app, ".ww set a9", roles=("admin",))
    app.rng = Scripted([9, 1, 1])
    assert "（9加骰）" in await say(app, ".ww 2")
    assert "加骰的最低值为8" in await say(app, ".ww set a7", roles=("admin",))
    assert "10加骰" in await say(app, ".ww set clr", roles=("admin",))
    # defaults are per group
    await say(app, ".ww set a8", roles=("admin",), group="30003")
    app.rng = Scripted([1, 1])
    assert "（10加骰）" in await say(app, ".ww 2")


async def test_bonus_table_on_card(app: App) -> None:
    text = await say(app, ".ww 附加 潜行1 攻击2 防御3", name="艾拉")
    assert "潜行1" in text and "攻击附加2" in text and "防御附加3" in text
    assert "潜行2" in await say(app, ".ww 附加 潜行+1")
    assert "无" in await say(app, ".ww 附加 del 潜行")
    assert "攻击附加2" in await say(app, ".ww 附加")


# ---------------------------------------------------------------- hostile input
HOSTILE = [
    (".ww 1000000000", "1000"),
    (".ww 5a1", "加骰的最低值为8"),
    (".ww 5 a7", "加骰的最低值为8"),
    (".ww ((((((((1))))))))", "嵌套"),
    (".ww 魔法+咒语", "角色卡"),
    (".ww", "骰池"),
    (".ww 2d6", ".r"),
    (".ww 潜行2", "+或-"),
    (".ww " + "1+" * 200 + "1", "300"),
    (".ww 倍率 1 " + "×2 " * 50, "最多"),
    (".ww 分配 3 甲×99", "最多"),
    (".ww 防御 abc", "防御"),
    (".ww set 乱码", "格式"),
    (".ww set a8k6m9", "成功线固定为8"),
]


async def test_hostile_input_gets_a_clear_reply(app: App) -> None:
    for text, fragment in HOSTILE:
        reply = await say(app, text)
        assert fragment in reply, (text, reply)
        assert "出错了" not in reply, text


async def test_dice_cap_holds_with_explosions(app: App) -> None:
    app.rng = Scripted([10] * 1000)
    reply = await say(app, ".ww 600")
    assert "1000" in reply and "成功" not in reply.replace("最多", "")
    assert app.rng.calls == 600


async def test_statistics_through_the_command(app: App) -> None:
    app.rng = random.Random(77)
    total = 0
    for _ in range(200):
        m = re.search(r"(\d+)成功", await say(app, ".w 5"))
        assert m
        total += int(m.group(1))
    assert 1.2 < total / 200 < 2.2


async def test_random_garbage_never_crashes(app: App) -> None:
    """Fuzz: random argument strings always give a reply, never the internal-error message."""
    await _cards(app)
    app.rng = random.Random(3)
    gen = random.Random(2026)
    alphabet = [
        *"0123456789+-()aAdcsvx?？ ×*/=，,@",
        "敏捷",
        "潜行",
        "攻击",
        "防御",
        "vs",
        "附加",
        "分配",
        "倍率",
        "set",
    ]
    for _ in range(150):
        args = "".join(gen.choice(alphabet) for _ in range(gen.randint(0, 14)))
        root = gen.choice([".w", ".ww", ".wh"])
        replies = await run(app, f"{root} {args}", user=A, at=(B,) if gen.random() < 0.3 else ())
        assert replies, args
        assert all("出错了" not in r.text for r in replies), (args, replies)


async def test_r_zero_pool_is_the_chance_die(app: App) -> None:
    # .r 0a10 rolls the chance die like .ww 0 (it used to be refused)
    app.rng = Scripted([10, 8])
    text = await say(app, ".r 0a10", name="艾拉")
    assert "0a10=[10,{8}]=2" in text
    app.rng = Scripted([9])
    assert "0a10=[9]=0" in await say(app, ".r 0a10", name="艾拉")
