"""Issue 39, D10 pool part (seed ``003``, 无限恐怖): each defect's exact repro, played in a group.

15. ``.undo`` after ``.ww 分配`` took back the ``.ww 攻击`` before it, silently: every command of the
    D10 combat is now a step of its own, so ``.undo`` takes back the last one and never reaches
    past it; ``.ww 敏捷+潜行 vs 感知5`` said only 「感知5」中间缺少+或-: it now names ``vs 5``.
"""

from __future__ import annotations

from helpers import Scripted, parse_of, say

from chronodice.app import App

A = {"user": "10001", "name": "艾拉", "roles": ("owner",)}
B = {"user": "10002", "name": "哨兵"}


def D10(faces: list[int]) -> Scripted:
    return Scripted(faces, faces=10, then_seed=1)


async def cards(app: App) -> None:
    await say(app, ".set pool10", **A)
    await say(app, ".st 敏捷4潜行3力量11格斗2", **A)
    await say(app, ".st 感知6调查1敏捷2", **B)
    await say(app, ".ww 附加 防御2", **B)


async def test_undo_after_multi_attack_takes_that_step_back_not_the_attack_before(app: App) -> None:
    await cards(app)
    await say(app, ".ww 防御 2", **B)
    app.rng = D10([8, 2, 1])
    assert "<哨兵> 的2个防御附加成功已用掉" in await say(app, ".ww 攻击 3", at=(B["user"],), **A)
    app.rng = D10([2, 10, 1, 2, 2, 6, 4])
    assert (await say(app, ".ww 分配 3 甲×2", **A)).startswith("艾拉 多次攻击：3")  # no defence touched
    assert await say(app, ".undo", **A) == "已撤销：.ww 分配 3 甲×2"  # was: 已撤销：.ww 攻击 3
    assert "<哨兵> 宣言0，已用2" in await say(app, ".ww 防御")  # the attack before still stands
    assert await say(app, ".undo", **A) == "已撤销：.ww 攻击 3"
    assert "<哨兵> 宣言2，已用0" in await say(app, ".ww 防御")


async def test_versus_a_name_glued_to_a_number_suggests_the_number(app: App) -> None:
    await cards(app)
    text = await say(app, ".ww 敏捷+潜行 vs 感知5", **A)
    assert text.splitlines()[0] == (
        "「感知5」中间缺少+或-：对手没有角色卡就只写数字（vs 5）；用对手卡上的感知请 @对手"
    )
    assert parse_of(".ww 敏捷+潜行 vs 感知5") == text.splitlines()[0]
    app.rng = D10([8, 8, 8, 1, 1, 1, 1, 9, 1, 1, 1, 1])
    assert "对 对手（5）" in await say(app, ".ww 敏捷+潜行 vs 5", **A)  # the form it names works
    # a pool glued to a number elsewhere keeps its own answer
    assert (await say(app, ".ww 感知5", **A)).splitlines()[0] == "「感知5」中间缺少+或-（理由请用空格隔开）"
