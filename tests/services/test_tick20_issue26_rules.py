"""Issue 26, the last four rules of seed 002, each with the seed's numbers.

Seed: ``/work/shared/seeds/002_af7fdeaa609c9fb6.txt`` (属性阶层 高等 lines 75–82, 人格 280–303,
属性 45, 速度 138–139).
"""

from __future__ import annotations

from helpers import Scripted, say

from chronodice.app import App

GM = {"user": "10001", "roles": ("owner",)}
P1 = {"user": "10002", "name": "艾琳"}


def Dice(faces: list[int]) -> Scripted:
    return Scripted(faces, then_seed=1)


async def card(app: App, text: str) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, text, **P1)


async def in_combat(app: App) -> None:
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15", **P1)
    await say(app, ".ri =10 哥布林", **GM)
    await say(app, ".init start", **GM)


# 1. 高等: 「量谱的上限为`属性值/5-2`，下限为0」; 「RA｜1点对应属性量值 … 这次检定获得优势」;
#    「所有被消耗的量值，会在角色完成1次「长休」后恢复」
async def test_high_attribute_gauge_buys_advantage_until_a_long_rest(app: App) -> None:
    await card(app, ".st 力量20 体质12 运动1 LV4")
    assert await say(app, ".量谱", **P1) == "艾琳 的属性量谱：力量2/2"  # 20/5 − 2 = 2
    app.rng = Dice([5, 19])
    text = await say(app, ".rc 运动 15 量谱", **P1)
    # 力量20 → +5, 运动1 → +2 PB, LV4 → +0: the higher die, 19 + 7 = 26
    assert text.splitlines()[0] == "艾琳 的运动检定：D20=[5,19]优势→19+7=26"
    assert text.splitlines()[-1] == "高等属性：消耗1点力量量谱（1/2），获得优势"
    await say(app, ".rc 运动 15 量谱", **P1)
    assert await say(app, ".rc 运动 15 量谱", **P1) == "力量量谱已用完（0/2），长休后恢复（.量谱 长休）"
    assert await say(app, ".量谱 长休", **P1) == "艾琳 长休：属性量谱全部恢复：力量2/2"


async def test_gauge_only_for_a_high_attribute_and_a_skill_check(app: App) -> None:
    await card(app, ".st 力量14 敏捷15")
    assert await say(app, ".量谱", **P1) == "艾琳 的属性量谱：敏捷1/1"  # 14 is 标准: no gauge; 15/5 − 2 = 1
    assert "不是高等属性" in await say(app, ".rc 运动 15 量谱", **P1)  # 运动 uses 力量14 (体质 absent)
    assert "用于技能检定" in await say(app, ".rc 敏捷 15 量谱", **P1)


async def test_gauge_in_a_combat_is_her_rapid_action(app: App) -> None:
    await card(app, ".st 力量20 体质12")
    await in_combat(app)
    await say(app, ".rc 运动 15 量谱", **P1)
    await say(app, ".量谱 长休", **P1)
    # 即时动作: "在使用即时动作后，角色无法再使用任何即时动作，直到她的下个回合开始"
    assert await say(app, ".rc 运动 15 量谱", **P1) == "用过即时动作后，要到下个回合开始才能再用"


# 2. 自我: 「如果消耗1点自我值不会导致她陷入<发狂>，则她可以消耗1点自我值，使这次检定获得优势」
async def test_ego_spent_for_advantage_unless_it_makes_her_mad(app: App) -> None:
    await card(app, ".st 力量10 感悟12 自我3 狂气4")
    app.rng = Dice([3, 9])
    text = await say(app, ".rc 运动 15 自我", **P1)
    assert text.splitlines()[0] == "艾琳 的运动检定：D20=[3,9]优势→9+0=9"
    assert text.splitlines()[-1] == "消耗1点自我（剩2），获得优势"  # 狂气4 − 自我2 = 2 < 3
    # one more would leave 狂气4 three above 自我1: <发狂>
    assert (
        await say(app, ".rc 运动 15 自我", **P1)
        == "消耗1点自我后狂气4比自我1高3点或更多，会陷入<发狂>：不能消耗"
    )
    assert (await say(app, ".人格", **P1)).startswith("艾琳：人性0 自我2/12 狂气4")


# 3. 狂气/发狂/人性 and 精神创伤 (「在每个片段中，同一名角色最多只能以此增加2点自我值」)
async def test_trauma_madness_and_humanity(app: App) -> None:
    await card(app, ".st 感悟12 自我2 狂气0 人性1")
    assert (
        await say(app, ".人格 创伤3", **P1) == "艾琳：人性1 自我4/12 狂气3（本片段创伤已增加自我2/2）"
    )  # +2, not +3
    text = await say(app, ".人格 创伤3", **P1)  # 2 already this 片段: 自我 stays 4, 狂气 6 − 4 = 2
    assert text.startswith("艾琳：人性1 自我4/12 狂气6（")
    text = await say(app, ".人格 狂气+1", **P1)  # 7 − 4 = 3: <发狂>
    assert "狂气7　<发狂>" in text and "直到狂气降至自我（4）或更低" in text
    text = await say(app, ".人格 安抚1", **P1)  # 6 > 4: still <发狂> (「直到…降至与自我值相同的数值或更低」)
    assert text.startswith("艾琳：人性0 自我4/12 狂气6　<发狂>")
    assert await say(app, ".人格 安抚1", **P1) == "人性只有0点，不能消耗1点"
    await say(app, ".人格 人性+2", **P1)
    assert "<发狂>解除" in await say(app, ".人格 安抚2", **P1)  # 狂气4 ≤ 自我4
    assert "自我5/12" in await say(app, ".人格 片段 创伤1", **P1)  # a new 片段: +1 again


# 4. 属性: 「体质和感悟之外的属性值被降至0时，角色会陷入<昏迷>。体质值被降至0时，角色会立即<解体>。
#    智慧值被降至0后，角色的[认知层阶]会变为「无认知」」
async def test_attribute_loss_to_zero(app: App) -> None:
    await card(app, ".st 力量12 体质12 智慧10 感悟10")
    await in_combat(app)
    text = await say(app, ".属性 艾琳 力量-20", **GM)  # 最低只能被降至0
    assert text == "艾琳 的力量损失12，现为0\n艾琳 的力量降至0：陷入<昏迷>（属性回到1以上时醒来）"
    assert "<昏迷>" in await say(app, ".init", **GM)
    app.rng = Dice([10])
    assert "修正：+1体质-5力量" in await say(app, ".rc 运动", **P1)  # the check reads 0, not 12
    assert (
        await say(app, ".属性 艾琳 力量+1", **GM)
        == "艾琳 的力量损失11，现为1\n艾琳 的伤势低于上限，从<昏迷>中醒来"
    )
    text = await say(app, ".属性 艾琳 智慧-10", **GM)
    assert "陷入<昏迷>" in text and "认知层阶变为「无认知」" in text
    assert "「无认知」" in await say(app, ".init", **GM)
    assert "<昏迷>" not in await say(app, ".属性 艾琳 感悟-10", **GM)  # 感悟 0: no coma
    text = await say(app, ".属性 艾琳 体质-12", **GM)
    assert text.splitlines()[:2] == ["  艾琳 的体质损失12，现为0", "  艾琳 <解体>，不再进行回合"]
    assert "▶ 哥布林 的回合" in text  # her turn ended: the next one's card


# 5. 速度: 「即便速度为0，只要没有遭受会导致「无法移动」的效果，角色依然可以通过【全力移动】动作移动1格，
#    不过这一移动只能进入消耗的Mov不超过1点的区域」
async def test_full_move_at_speed_zero(app: App) -> None:
    await card(app, ".st 力量10 敏捷10")
    await in_combat(app)
    assert "速度为2：用 .mov -n 移动" in await say(app, ".mov 全力", **P1)  # 速度 2 (at least 2)
    await say(app, ".init opt 艾琳 -速度 0", **GM)
    assert await say(app, ".mov 全力", **P1) == "艾琳 全力移动1格（速度0；进入消耗1点Mov的区域）"
    assert (
        await say(app, ".mov 全力 -2", **P1)
        == "速度为0时的全力移动只能进入消耗Mov不超过1点的区域（这格要2点）"
    )
    await say(app, ".init eff 艾琳 无法移动 1轮", **GM)
    assert await say(app, ".mov 全力", **P1) == "处于「无法移动」的效果中：任何移动动作都无效（强制移动除外）"


# found by the clause audit: 速度「最低只能被降至0」; 「无法移动」: 「她的「速度」将变为0，并且使用的任何
# `移动`动作都会被无效」
async def test_speed_floor_and_unable_to_move(app: App) -> None:
    await card(app, ".st 力量10 敏捷10")
    await in_combat(app)
    assert await say(app, ".init opt 艾琳 -速度 -1", **GM) == "速度应在0~99之间（002：速度最低只能被降至0）"
    await say(app, ".init eff 艾琳 无法移动 2轮", **GM)
    assert await say(app, ".mov -1", **P1) == "艾琳 处于「无法移动」的效果中：移动动作无效（强制移动除外）"
    await say(app, ".ed", **P1)
    card_text = await say(app, ".init 跳至 艾琳", **GM)  # her next turn: Mov 0, not 速度 2
    assert "▶ 艾琳 的回合 @艾琳　AP 3/3　Mov 0　（可 .延后）" in card_text, card_text


# found by the clause audit: 「未说明持续时间的临时生命，默认在角色完成1次长休后消失」 (its wounds move to the part)
async def test_long_rest_ends_temporary_life(app: App) -> None:
    await card(app, ".st 体质14 魄力12 耐力2")
    await in_combat(app)
    await say(app, ".wound 艾琳 躯干 临时2", **GM)
    await say(app, ".wound 艾琳 躯干 擦伤x1", **GM)
    text = await say(app, ".hp 艾琳 长休", **GM)
    assert "艾琳 的躯干临时生命设为0，原临时生命的1道伤势转移到部位上" in text
