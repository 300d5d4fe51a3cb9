"""Issue 12, D10 pool: NPC defence, defence in multi-attacks, 传奇 defence loss, bonus gained
mid-action, ``N#`` for ``.ww``, attacks labelled with the attacking NPC.  Dice are scripted."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from helpers import say

from chronodice.app import App

A, B, GM = "10001", "10002", "10099"


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


async def _cards(app: App) -> None:
    await say(app, ".st 敏捷4潜行3力量11格斗2", user=A, name="艾拉")
    await say(app, ".st 感知6调查1敏捷2", user=B, name="哨兵")


async def gm(app: App, text: str, **kw: object) -> str:
    return await say(app, text, user=GM, name="主持人", roles=("owner",), **kw)  # type: ignore[arg-type]


async def test_npc_defence_is_tracked_and_used_when_the_npc_is_attacked(app: App) -> None:
    await _cards(app)  # 艾拉: 力量11 (2 bonus) 格斗2 → 13 dice
    assert await gm(app, ".ww 防御 2 守卫") == "<守卫> 宣言防御附加成功2，用于下一次受到的攻击"
    assert "<守卫>（NPC）宣言2，已用0" in await say(app, ".ww 防御")
    app.rng = Scripted([8, 9], [1] * 11)
    text = await say(app, ".ww 攻击 力量+格斗 @守卫", user=A)
    assert text.splitlines()[0] == "艾拉 攻击 <守卫>：力量11+格斗2=13（10加骰）"
    assert "自然成功2，<守卫>宣言防御附加成功2，抵消2" in text
    assert "未命中，攻击附加成功与命中效果均不生效" in text
    assert "<守卫> 的2个防御附加成功已用掉" in text
    # the next attack meets no declaration: undeclared defence counts as none
    app.rng = Scripted([8], [1] * 12)
    assert "命中！攻击成功数 1+附加2=3" in await say(app, ".ww 攻击 力量+格斗 @守卫", user=A)
    # only a GM declares for an NPC
    assert "只有" in await say(app, ".ww 防御 2 守卫", user=A)
    assert "请给出宣言的防御附加成功数" in await gm(app, ".ww 防御 守卫")


async def test_multi_attack_meets_each_declared_defence_in_order(app: App) -> None:
    await _cards(app)
    await gm(app, ".ww 防御 2/1 守卫")
    # 力量11+格斗2: 4 bonus with +2s, split 2/2; 1st attack 2 natural (all cancelled by 2),
    # 2nd attack 3 natural - 1 + 2 = 4
    app.rng = Scripted([8, 9], [1] * 11, [8, 9, 10], [1] * 10, [3])
    text = await say(app, ".ww 分配 力量+格斗 +2s 守卫×2=2/2", user=A)
    lines = text.splitlines()
    assert lines[0] == "艾拉 多次攻击：力量11+格斗2=13，攻击附加成功4"
    assert lines[1].startswith("守卫#1（分配2，防御2）：") and lines[1].endswith(
        "自然2被防御全部抵消，未命中"
    )
    assert lines[2].startswith("守卫#2（分配2，防御1）：") and lines[2].endswith("自然3-1+附加2=4，命中")
    assert "<守卫> 的2个防御附加成功已用掉" in text and "<守卫> 的1个防御附加成功已用掉" in text
    assert "<守卫>（NPC）宣言0，已用3" in await say(app, ".ww 防御")


async def test_multi_attack_uses_a_player_defence_by_card_name(app: App) -> None:
    await _cards(app)
    await say(app, ".ww 附加 防御3", user=B)
    await say(app, ".ww 防御 1", user=B)
    app.rng = Scripted([8, 9, 1], [1, 1, 1])
    text = await gm(app, ".ww 分配 守卫: 3 哨兵×2")
    assert text.splitlines()[0] == "守卫 多次攻击：3，攻击附加成功0"
    assert "哨兵#1（分配0，防御1）：[⑧,⑨,1] 自然2-1=1，命中" in text
    assert "哨兵#2（分配0）：[1,1,1] 没有自然成功，未命中" in text


async def test_legendary_defence_is_lost_when_base_defence_is_zero(app: App) -> None:
    await _cards(app)
    assert "传奇防御附加成功3不能超过防御附加成功2" in await say(app, ".ww 附加 防御2 传奇防御3", user=B)
    await say(app, ".ww 附加 防御4 传奇防御2", user=B)
    assert "防御附加4（其中传奇2）" in await say(app, ".ww 附加", user=B)
    # 3 declared while charging: ordinary points are 4-2=2, so 1 of the 3 is worth nothing
    reply = await say(app, ".ww 防御 3 破防", user=B)
    assert reply == "<哨兵> 宣言防御附加成功3，用于下一次受到的攻击；基础防御为0，传奇防御附加成功不生效"
    app.rng = Scripted([8, 9, 10], [1] * 10, [2])
    text = await say(app, ".ww 攻击 力量+格斗", user=A, at=(B,))
    assert "自然成功3，<哨兵>宣言防御附加成功2，抵消2" in text
    assert "命中！攻击成功数 3-2+附加2=3" in text
    assert "3个防御附加成功已用掉（基础防御为0，其中1个来自传奇属性，不生效，只抵消2）" in text
    # the attacker's multi-attack penalty: 破防 on the attack, base defence 0 for that attack
    await say(app, ".ww 行动", user=B)
    await say(app, ".ww 防御 3", user=B)
    app.rng = Scripted([8, 9, 10], [1] * 10, [2])
    text = await say(app, ".ww 攻击 力量+格斗 破防", user=A, at=(B,))
    assert "抵消2" in text and "只抵消2" in text
    # an NPC: 传奇 given with the declaration; 3 declared, 2 of them legendary → 1 counts
    await gm(app, ".ww 防御 3 守卫 传奇2")
    app.rng = Scripted([8, 8], [1] * 11)
    text = await say(app, ".ww 攻击 力量+格斗 @守卫 破防", user=A)
    assert "自然成功2，<守卫>宣言防御附加成功1，抵消1" in text and "命中！攻击成功数 2-1+附加2=3" in text
    assert "传奇N 只用于NPC" in await say(app, ".ww 防御 1 传奇1", user=B)


async def test_bonus_gained_mid_action_is_used_once_by_the_next_attack(app: App) -> None:
    await _cards(app)
    app.rng = Scripted([8, 1, 1], [9, 1, 1], [10, 1, 1], [1])
    text = await say(app, ".ww 分配 3 +2s 命中+2 甲×3=1/1/0", user=A)
    lines = text.splitlines()
    assert lines[0] == "艾拉 多次攻击：3，攻击附加成功2，命中时获得2"
    assert lines[1] == "甲#1（分配1）：[⑧,1,1] 自然1+附加1=2，命中"
    assert lines[2] == "甲#2（分配1+获得2）：[⑨,1,1] 自然1+附加3=4，命中"
    assert lines[3] == "甲#3（分配0）：[⑩,1,1]+[1] 自然1=1，命中"  # the gain triggers once
    # the first hit is the last attack on its target: the gain is not used
    app.rng = Scripted([1, 1, 1], [8, 1, 1])
    text = await say(app, ".ww 分配 3 命中+1 甲×2=0/0", user=A)
    assert text.splitlines()[-1] == "命中后没有再攻击「甲」：获得的1个攻击附加成功未能使用"
    app.rng = Scripted([1, 1, 1])
    assert "没有命中：获得的1个攻击附加成功没有触发" in await say(app, ".ww 分配 3 命中+1 甲", user=A)


async def test_repeat_n_times(app: App) -> None:
    await _cards(app)
    app.rng = Scripted([8, 1], [10, 9], [2], [1, 1])
    text = await say(app, ".ww 3#2 dc1", user=A)
    assert (
        text
        == "艾拉 掷骰池×3：2（10加骰）\n#1 [⑧,1] 1成功 ≥ DC1，成功\n#2 [⑩,⑨]+[2] 2成功 ≥ DC1，成功（超出1）\n#3 [1,1] 0成功 < DC1，失败"
    )
    app.rng = Scripted([8] * 13, [1] * 13)
    text = await say(app, ".w 2#力量+格斗", user=A)
    assert text.splitlines() == [
        "艾拉 掷骰池×2：力量11+格斗2=13（10加骰）",
        "附加成功：力量2",
        "#1 自然成功13+附加2=15成功",
        "#2 0成功（有效成功为0，附加成功2不生效），失败",
    ]
    assert "重复次数应为1到20" in await say(app, ".ww 21#2")
    assert "N# 不能与对抗" in await say(app, ".ww 2#3 vs 3")


async def test_npc_attack_is_labelled_and_is_the_npc_action(app: App) -> None:
    await _cards(app)
    await gm(app, ".ww 防御 2 守卫")
    app.rng = Scripted([1] * 13)
    await say(app, ".ww 攻击 力量+格斗 @守卫", user=A)  # the declaration is spent
    app.rng = Scripted([8, 9, 1])
    text = await gm(app, ".ww 攻击 守卫: 3", at=(B,))
    assert text.splitlines()[0] == "守卫 攻击 <哨兵>：3（10加骰）" and "主持人" not in text
    assert "<守卫> 行动：恢复2个防御附加成功" in text
    assert "只有" in await say(app, ".ww 攻击 守卫: 3", user=A)
    assert "守卫还没有角色卡" in await gm(app, ".ww 攻击 守卫: 力量+格斗")


async def test_help_fits_in_one_reply(app: App) -> None:
    for root in ("w", "ww", "wh"):  # on pages (.help w 2), nothing cut
        first = await say(app, f".help {root}")
        pages = [first]
        m = re.search(r"第1/(\d+)页", first)
        for n in range(2, int(m.group(1)) + 1 if m else 1):
            pages.append(await say(app, f".help {root} {n}"))
        text = "\n".join(pages)
        assert "截断" not in text and "NPC（GM）" in text, root
