"""Issue 26, NPC cards: the GM writes a card with ``.npc``, and ``名字:`` checks, ``.ri 3# 名`` and
CoC's ``.ra 名:技能`` read it.  Numbers pinned with scripted dice."""

from __future__ import annotations

from helpers import Scripted, run, say

from chronodice.app import App

GM = {"user": "10001", "roles": ("owner",)}
P1 = {"user": "10002", "name": "艾琳"}
GOBLIN = ".npc 哥布林 力量12 敏捷14 洞悉2 运动1 武器熟练1 LV4 DR1 灼烧抗性1 hit2 dp3"


async def test_gm_writes_a_card_and_reads_it_privately(app: App) -> None:
    replies = await run(app, GOBLIN, **GM)
    assert [r.private for r in replies] == [False, True]
    assert replies[0].text == "已录入NPC卡 <哥布林>（10项，数值已私聊GM）"
    assert "力量:12" not in replies[0].text
    assert replies[1].text.startswith("NPC卡 <哥布林>：力量:12 敏捷:14")
    changed = await run(app, ".npc 哥布林 力量-2", **GM)
    assert changed[1].text == "NPC卡 <哥布林>：力量-2→10"
    shown = await run(app, ".npc show 哥布林", **GM)
    assert shown[0].text == "NPC卡 <哥布林> 已私聊GM"
    assert "力量:10" in shown[1].text and shown[1].private
    listed = await run(app, ".npc list", **GM)
    assert listed[1].text == "本群NPC卡：\n1. 哥布林（10项）"
    assert await say(app, ".npc del 哥布林", **GM) == "已删除NPC卡 <哥布林>"
    assert await say(app, ".npc list", **GM) == "本群还没有NPC卡（.npc 名字 属性数值 录入）"


async def test_a_card_name_has_no_digits(app: App) -> None:
    text = await say(app, ".npc 哥布林2 力量12", **GM)
    assert "NPC名" in text
    assert await say(app, ".npc list", **GM) == "本群还没有NPC卡（.npc 名字 属性数值 录入）"


async def test_d20_check_with_the_card_prefix_reads_the_card(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, GOBLIN, **GM)
    app.rng = Scripted([11])
    text = await say(app, ".rc 哥布林:近战 15", **GM)
    # 力量12 → +1, 武器熟练1 → +2 PB, LV4 → +0: 11 + 3 = 14
    assert text.startswith("哥布林 的近战（运动）检定：D20=11+3=14")
    assert "修正：+1力量+2武器熟练" in text
    app.rng = Scripted([11])
    copy = await say(app, ".rc 哥布林2:近战 15", **GM)  # a numbered copy reads its card too
    assert copy.startswith("哥布林2 的近战（运动）检定：D20=11+3=14")
    app.rng = Scripted([11])
    assert (await say(app, ".rc 野狼:近战 15", **GM)).startswith("野狼 的近战（运动）检定：D20=11+0=11")


async def test_ri_adds_numbered_copies_each_with_its_own_health(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, GOBLIN, **GM)
    await say(app, ".init begin", **GM)
    app.rng = Scripted([9, 4, 13])
    text = await say(app, ".ri 3# 哥布林", **GM)
    # 洞悉2 → +4 PB, 敏捷14 → +2 (the best of its attributes on the card), LV4 → +0: 9 + 6 = 15;
    # each copy rolls its own (issue 39, seed 002: every participant makes one initiative check)
    assert text.splitlines()[:4] == [
        "哥布林1 的先攻：D20=9+6=15",
        "哥布林2 的先攻：D20=4+6=10",
        "哥布林3 的先攻：D20=13+6=19",
        "哥布林1~3 各自掷了先攻（要共用一次写 同骰）",
    ]
    await say(app, ".ri =10", **P1)
    await say(app, ".init start", **GM)
    await say(app, ".wound 哥布林2 躯干 轻伤x2", **GM)
    state = await app.store.sessions.load_state(
        "20002", __import__("chronodice.services.tick20.codec", fromlist=["x"]).COMBAT_CODEC
    )
    goblins = {c.name: c for c in state.combatants if c.card}
    assert sorted(goblins) == ["哥布林1", "哥布林2", "哥布林3"]
    assert {c.dr for c in goblins.values()} == {1}
    assert goblins["哥布林1"].health.resist == {"灼烧": 1}
    wounds = {n: sum(len(p.wounds) for p in c.health.parts) for n, c in goblins.items()}
    assert wounds == {"哥布林1": 0, "哥布林2": 2, "哥布林3": 0}


async def test_coc_check_from_an_npc_card(app: App) -> None:
    await say(app, ".set coc7", **GM)
    await say(app, ".npc 邪教徒 侦查65 聆听40", **GM)
    app.rng = Scripted([30])  # 30 ≤ 65/2 → 困难成功
    text = await say(app, ".ra 邪教徒:侦查", **GM)
    assert text.startswith("邪教徒 的侦查检定：D100=30/65 困难成功"), text
    text = await say(app, ".ra 路人:侦查", **GM)
    assert text == "本群没有NPC卡「路人」（GM用 .npc 路人 技能数值 录入）"


async def test_d10_pool_with_the_card_prefix_reads_the_card(app: App) -> None:
    """The D10 pool's ``守卫:`` reads the group's NPC card 守卫 (its 敏捷 and 格斗 make the pool)."""
    await say(app, ".npc 守卫 敏捷4 格斗3", **GM)
    app.rng = Scripted([10, 8, 8, 3, 2, 1, 7, 6], then_seed=1)
    text = await say(app, ".ww 攻击 守卫: 敏捷+格斗 @狼", **GM)
    assert text.startswith("守卫 攻击 <狼>：敏捷4+格斗3=7（10加骰）"), text
    text = await say(app, ".ww 攻击 哨兵: 敏捷+格斗 @狼", **GM)  # no card: a written pool only
    assert text == "哨兵还没有角色卡，无法读取「敏捷」：先用 .st 敏捷4潜行3 录入"
