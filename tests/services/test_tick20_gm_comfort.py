"""Issue 26, GM comfort: the next player pinged 「请准备」, jumping to a combatant's turn, defeated
NPCs marked and skipped (and removed on request); an attack on a part that is gone."""

from __future__ import annotations

from helpers import Scripted, run, say

from chronodice.app import App

GM = {"user": "10001", "roles": ("owner",)}
P1 = {"user": "10002", "name": "艾琳"}


async def lineup(app: App) -> str:
    await say(app, ".set tick20", **GM)
    await say(app, ".st 力量10", **P1)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =10", **P1)
    await say(app, ".ri =15 甲, =12 乙, =5 丙, 暗 =8 影", **GM)
    return await say(app, ".init start", **GM)


async def test_the_next_player_is_asked_to_get_ready(app: App) -> None:
    await lineup(app)
    replies = await run(app, ".init next", **GM)  # 甲 → 乙; 艾琳 comes after 乙
    assert replies[0].mentions == ("10002",)
    assert replies[0].text.endswith("请准备：艾琳（下一个回合）")


async def test_jump_skips_every_turn_before_and_keeps_hidden_names_hidden(app: App) -> None:
    await lineup(app)
    replies = await run(app, ".init 跳至 丙", **GM)
    text = replies[0].text
    assert text.splitlines()[0] == "跳过：甲，乙，艾琳"  # issue 39: the hidden 影 is not named, not counted
    assert "▶ 丙 的回合" in text and "影" not in text
    assert (
        await say(app, ".init 跳至 丙", **P1)
        == "只有本场战斗的GM（开战者、.init gm 指定者）或群管理可以跳转回合"
    )


async def test_a_defeated_npc_is_marked_skipped_and_cleared_on_request(app: App) -> None:
    await lineup(app)
    assert await say(app, ".init 击败 乙", **GM) == "已击败：乙（不再行动；.init 清场 移出列表）"
    assert "12  乙　AP 0/3　已击败" in await say(app, ".init", **GM)
    text = await say(app, ".init next", **GM)  # 甲 ends: 乙 is skipped, 艾琳's turn
    assert "▶ 艾琳 的回合" in text and "乙" not in text
    replies = await run(app, ".init 击败 艾琳", **GM)  # the current actor: her turn ends at once
    # 影 at 8 is hidden (issue 39): the group reads no turn card, the GM gets 影's turn privately
    assert [r.text for r in replies if not r.private] == ["已击败：艾琳（不再行动；.init 清场 移出列表）"]
    assert any(r.private and "▶ 影 的回合（暗中" in r.text for r in replies)
    assert await say(app, ".init 击败 -取消 艾琳", **GM) == "已恢复：艾琳（重新参与行动）"
    assert await say(app, ".init 清场", **GM) == "移出列表：乙"
    assert "乙" not in await say(app, ".init", **GM)
    assert await say(app, ".init 清场", **GM) == "没有被击败、<解体>或死亡的NPC"


async def test_an_attack_on_a_part_that_is_gone_keeps_the_check(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".npc 狼 力量14 武器熟练1 hit3 dp2", **GM)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =10", **P1)
    await say(app, ".ri =5 狼", **GM)
    await say(app, ".init start", **GM)
    await say(app, ".wound 艾琳 臂部 重伤x4", **GM)
    await say(app, ".wound 艾琳 臂部 重伤x1", **GM)  # a fifth 重伤: the arm is <欠损>
    app.rng = Scripted([18])
    text = await say(app, ".atk 狼:艾琳 臂部 ap0", **GM)  # 艾琳's turn: 狼 attacks outside its own
    assert text.splitlines()[1:] == [
        "ATK：D20=18+4=22（+2力量+2武器熟练）",
        "DEF：闪避 被动10+0=10",
        "→ 命中（大成功，成功度12）",
        "伤害未结算：臂部已<欠损>，视为不存在，不能承受伤害",
    ]


async def test_a_gm_with_a_d20_card_rolls_a_coc_check_for_an_npc(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".st 力量10", **GM)  # the GM's own card is a D20 card
    await say(app, ".set coc7", **GM)
    await say(app, ".npc 邪教徒 侦查65", **GM)
    app.rng = Scripted([70])
    assert await say(app, ".ra 邪教徒:侦查", **GM) == "邪教徒 的侦查检定：D100=70/65 失败"
    assert "D20刻度角色卡" in await say(app, ".ra 侦查", **GM)  # his own card is still refused
