"""Issue 26, D10 pool part: a typo'd ``@名`` target is refused with the likely name instead of
becoming a phantom NPC with no defence (seed 003 «附加成功的使用»: the declared defence is used by
the next attack against that character)."""

from __future__ import annotations

from helpers import say

from chronodice.app import App

A, GM = "10001", "10099"


async def gm(app: App, text: str) -> str:
    return await say(app, text, user=GM, name="主持人", roles=("owner",))


async def test_typo_target_is_refused_with_the_likely_name(app: App) -> None:
    await say(app, ".st 敏捷4潜行3力量11格斗2", user=A, name="艾琳")
    await say(app, ".ww 附加 防御3", user=A, name="艾琳")
    await say(app, ".ww 防御 2", user=A, name="艾琳")
    # was: 守卫 攻击 <艾拉>：… 命中 (no defence, 艾琳's declaration untouched)
    text = await gm(app, ".ww 攻击 守卫: 7 @艾拉")
    assert text == "没有找到「艾拉」（可能是：艾琳）；确是另一个没有宣言防御的目标，请在 @艾拉 前写 防0"
    assert "<艾琳>宣言防御附加成功2" in await gm(app, ".ww 攻击 守卫: 7 @艾琳")
    # a name like no tracked one is an NPC without a declaration, as before
    assert "守卫 攻击 <狼>" in await gm(app, ".ww 攻击 守卫: 7 @狼")
    # the GM insists: a distinct target with no defence
    assert "守卫 攻击 <艾拉>" in await gm(app, ".ww 攻击 守卫: 7 防0 @艾拉")
