"""Issue 39 defects 1–5: an action does what its kind says (rule book 影响数值, line 475: an impact
「可以是伤害,可以是移动,可以是闪避、护盾、治疗、招架、闪现、时间停止、精神控制」; 交互, line 533; 控制效果,
lines 539 and 565; 减益, line 541).

The table: three players 艾拉 (10001), 托林 (10002), 米娅 (10003) and the GM's 萨满 and 暗影刺客.
Every sheet has 敏捷/力量/智力 175 and 意志 150, so ``I`` of 智力 winds up ``20·I/175`` t.
"""

from __future__ import annotations

from helpers import run, say

from chronodice.app import App
from chronodice.rules.timeline.character import TLCharacter
from chronodice.services.timeline.codec import BATTLE_CODEC

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GM = {"user": "99999", "roles": ("admin",)}
ELLA, TORIN, MIA = {"user": "10001"}, {"user": "10002"}, {"user": "10003"}


async def table(app: App, *, auto: bool = True) -> None:
    for name, who in (("艾拉", ELLA), ("托林", TORIN), ("米娅", MIA), ("萨满", GM), ("暗影刺客", GM)):
        assert "设置完成√" in await say(app, SHEET.format(name=name), **who)
    if auto:
        assert "自动伤害：开√" in await say(app, ".bat 自动伤害 开", **GM)


async def vitals(app: App, owner: str, name: str) -> tuple[float, float]:
    rec = await app.store.characters.find_character(owner, name)
    assert rec is not None
    res = TLCharacter.from_dict(rec.data["timeline"]).resources
    return res.hp, res.mp


async def test_repro_a_heal_restores_and_a_negotiation_a_buff_and_a_stun_take_no_health(app: App) -> None:
    """The repro: with 自动伤害 on, 米娅's 治疗 took 50 off 托林, the negotiation and the buff took
    体力, and the stun spell (no resisting attribute) killed 艾拉."""
    await table(app)
    assert "90.0" in await say(app, ".crd hp -60", **TORIN)  # 托林 90/150 before the battle
    assert "〔治疗〕" in await say(app, ".bat 智力 50 >托林 治疗", **MIA)  # #1 0 → 5.71
    assert "〔控制〕" in await say(app, ".bat 萨满:智力 150 >艾拉 眩晕术", **GM)  # #2 0 → 17.14
    assert "〔交涉〕" in await say(app, ".bat 暗影刺客:敏捷 20 >米娅 交涉", **GM)  # #3 0 → 2.29
    assert "〔增益〕" in await say(app, ".bat 敏捷 4t >米娅 给队友加buff", **ELLA)  # #4 0 → 4, 35
    await say(app, ".bat 力量 100", **TORIN)  # #5 0 → 11.43
    text = await say(app, ".bat 开始", **GM)
    text += await say(app, ".bat 推进 8", **GM)
    text += await say(app, ".bat 推进 20", **GM)
    assert "✔#1 米娅 治疗 50.0 @5.71t →托林：治疗50.0，已恢复：体力90.0→140.0" in text
    assert "✔#3 暗影刺客 交涉 20.0 @2.29t →米娅：交涉，不改变体力/意志，效果由GM裁定" in text
    assert "✔#4 艾拉 给队友加buff 35.0 @4.0t →米娅：增益，不改变体力/意志，效果由GM裁定" in text
    assert "✔#2 萨满 眩晕术 150.0 @17.14t →艾拉：控制（影响150.0），宣言时未注明抵抗属性" in text
    assert "死亡" not in text and "已扣除" not in text
    assert await vitals(app, TORIN["user"], "托林") == (140.0, 150.0)
    for owner, name in ((ELLA["user"], "艾拉"), (MIA["user"], "米娅")):
        assert await vitals(app, owner, name) == (150.0, 150.0)


async def test_without_automatic_damage_a_heal_is_offered_as_a_heal(app: App) -> None:
    """With 自动伤害 off the feed offered ``.crd 托林:hp -50.0 #3`` for a heal."""
    await table(app, auto=False)
    await say(app, ".bat 智力 50 >托林 治疗", **MIA)  # #1 0 → 5.71
    await say(app, ".bat 力量 100", **TORIN)
    text = await say(app, ".bat 开始", **GM)
    assert "→托林：治疗50.0，记治疗：.crd 托林:hp +50.0 #1" in text and "hp -" not in text


async def test_an_unreadable_note_is_damage_at_the_other_side_and_the_gms_call_at_ones_own(app: App) -> None:
    await table(app, auto=False)
    assert "〔伤害〕" in await say(app, ".bat 萨满:智力 50 >艾拉", **GM)
    assert "〔其他〕" in await say(app, ".bat 力量 50 >托林", **ELLA)  # 托林 is on 艾拉's side
    assert "〔伤害〕" in await say(app, ".bat 力量 50 >萨满", **MIA)
    assert "〔精神伤害〕" in await say(app, ".bat 暗影刺客:智力 50 >米娅 侵蚀", **GM)


async def others_wait(app: App, *who: dict[str, str]) -> None:
    """The rest of the table declares something long (400 of 力量: 45.71t), out of the way."""
    for w in who:
        await say(app, ".bat 力量 400", **w)


async def test_repro_an_interrupt_with_nothing_to_interrupt_misses(app: App) -> None:
    """The repro: 米娅 ``.bat 智力 120 >萨满 打断``, the GM cancels 萨满's only action, ``推进``:
    the interrupt dealt 120 in full and killed 萨满, and the summary credited 米娅."""
    await table(app)
    await say(app, ".bat 萨满:智力 200", **GM)  # #1 萨满 0 → 22.86
    await say(app, ".bat 智力 120 >萨满 打断", **MIA)  # #2 米娅 0 → 13.71
    await say(app, ".bat 力量 5t", **ELLA)  # #3 艾拉 0 → 5: the clock opens at 5
    await others_wait(app, TORIN)
    await say(app, ".bat 暗影刺客:力量 400", **GM)
    assert "⏱ 战斗时间 5.0t" in await say(app, ".bat 开始", **GM)
    assert "取消" in await say(app, ".bat 取消 #1", **GM)  # 萨满's only action, stopped at 5
    text = await say(app, ".bat 推进 14", **GM)
    assert "✔#2 米娅 打断 120.0 @13.71t →萨满：打断落空（萨满此刻没有前摇中的行动），无影响" in text
    assert await vitals(app, GM["user"], "萨满") == (150.0, 150.0)
    assert "米娅：行动1 造成0.0" in await say(app, ".bat end", **GM)


async def test_repro_a_failed_interrupt_nets_larger_minus_smaller(app: App) -> None:
    """The repro: 打断 60 against #1's 100 → 打断未成功 and #1 then landed 100; the book (line 533):
    the larger minus the smaller is what the larger does, so #1 lands 40."""
    await table(app)
    await say(app, ".bat 萨满:智力 100 >米娅 火球", **GM)  # #1 萨满 0 → 11.43
    await say(app, ".bat 智力 60 >萨满 打断", **MIA)  # #2 米娅 0 → 6.86
    await others_wait(app, ELLA, TORIN)
    await say(app, ".bat 暗影刺客:力量 400", **GM)
    text = await say(app, ".bat 开始", **GM) + await say(app, ".bat 推进 12", **GM)
    assert (
        "✔#2 米娅 打断 60.0 @6.86t →萨满：打断萨满#1（100.0），100.0−60.0 → 打断未成功，#1照常进行，影响减为40.0"
        in text
    )
    assert (
        "✔#1 萨满 火球 100.0 @11.43t →米娅：（被打断削弱60.0，余40.0）全额命中40.0，已扣除：体力150.0→110.0"
    ) in text
    assert await vitals(app, MIA["user"], "米娅") == (110.0, 150.0)


async def test_repro_a_won_interrupt_stops_the_action_itself_and_its_rest_lands_as_named(app: App) -> None:
    """The repro: 打断成功，余下影响120.0（GM确认：.bat 取消 #4) needed the GM.  Now 米娅's 打断 150
    meets 萨满's #2 (100, in its windup at 17.14): the bot stops #2, and the rest 50 lands as the
    note names it (精神冲击 → 精神伤害: 意志); 萨满 decides again."""
    await table(app)
    await say(app, ".bat 萨满:智力 100 >米娅 火球", **GM)  # #1 萨满 0 → 11.43
    await say(app, ".bat 萨满:智力 100 >米娅 大火球", **GM)  # #2 萨满 11.43 → 22.86
    await say(app, ".bat 智力 150 >萨满 打断 精神冲击", **MIA)  # #3 米娅 0 → 17.14
    await others_wait(app, ELLA, TORIN)
    await say(app, ".bat 暗影刺客:力量 400", **GM)
    text = await say(app, ".bat 开始", **GM)  # the clock opens at 17.14: #1, then #3
    assert (
        "✔#1 萨满 火球 100.0 @11.43t →米娅：米娅#3（150.0）前摇中，非防御动作，全额命中100.0，已扣除：体力150.0→50.0"
    ) in text
    assert (
        "✔#3 米娅 打断 精神冲击 150.0 @17.14t →萨满：打断萨满#2（100.0），150.0−100.0 → 打断成功，"
        "#2已中止；余下精神伤害50.0，已扣除：意志150.0→100.0"
    ) in text
    assert await vitals(app, GM["user"], "萨满") == (150.0, 100.0)
    assert "已经取消" in await say(app, ".bat 取消 #2", **GM)
    assert "▶ 下一个行动：米娅、萨满（17.14t）" in text  # 萨满 decides again at once


async def test_repro_a_stun_declared_with_its_resisting_attribute_lands_by_itself(app: App) -> None:
    """The repro: ``.bat 控制 #4 意志`` before the stun resolved → 尚未发生, a second command after.
    The book (lines 539, 565) names the resisting attribute when the skill is made: declared with
    it, the stun lands when it resolves — 20·150/150 = 20t for 艾拉 (意志 150) — also with
    automatic damage off (a control is the battle's own fact, not a card change)."""
    await table(app, auto=False)
    assert "〔控制·抵抗意志〕" in await say(app, ".bat 萨满:智力 150 >艾拉 眩晕术 意志", **GM)  # #1 0 → 17.14
    await say(app, ".bat 力量 350", **ELLA)  # #2 艾拉 0 → 40
    await others_wait(app, TORIN, MIA)
    await say(app, ".bat 暗影刺客:力量 400", **GM)
    text = await say(app, ".bat 开始", **GM)  # the clock opens at 17.14 (萨满 free)
    assert (
        "✔#1 萨满 眩晕术 意志 150.0 @17.14t →艾拉：控制（影响150.0）：艾拉以意志抵抗，被控制 17.14→37.14t"
    ) in text
    state = await app.store.sessions.load_state("20002", BATTLE_CODEC)
    assert state is not None and state.action(2).end == 60.0  # 艾拉's #2 paused 20t: 40 → 60


async def test_the_gm_changes_a_kind_in_one_command_before_it_resolves(app: App) -> None:
    await table(app, auto=False)
    await say(app, ".bat 智力 50 >托林 绷带", **MIA)  # #1 0 → 5.71, 〔其他〕 (an ally, unreadable)
    assert await say(app, ".bat 类型 #1 治疗", **MIA) == "行动#1的种类改为〔治疗〕"
    assert "只有" in await say(app, ".bat 类型 #1 伤害", **TORIN)  # not 托林's action
    assert (await say(app, ".bat 类型 #1 飞翔", **GM)).startswith("「飞翔」不是有效的种类\n格式：.bat 类型")
    assert (await say(app, ".bat 类型 #1 伤害 意志", **GM)).startswith("只有控制需要抵抗属性（意志）")
    assert await say(app, ".bat 类型 #1 眩晕 意志", **GM) == "行动#1的种类改为〔控制·抵抗意志〕"
    assert await say(app, ".bat 类型 #1 治疗", **GM) == "行动#1的种类改为〔治疗〕"
    await say(app, ".bat 力量 100", **TORIN)
    text = await say(app, ".bat 开始", **GM)
    assert "→托林：治疗50.0，记治疗：.crd 托林:hp +50.0 #1" in text
    assert "已在5.71t结算" in await say(app, ".bat 类型 #1 伤害", **GM)


async def test_who_must_declare_is_mentioned_once_after_the_clock_moves(app: App) -> None:
    """Issue 39 defect 7: the feed said ``▶ 下一个行动：艾拉、萨满…`` as plain text (D20 @-mentions).
    Now the players the clock waits for are @-mentioned when it comes to them, once; the GM's
    NPCs are not (the ▶ line names them)."""
    await table(app, auto=False)
    await say(app, ".bat 力量 5t", **ELLA)  # #1 艾拉 0 → 5
    await say(app, ".bat 力量 10t", **TORIN)  # #2 托林 0 → 10
    await say(app, ".bat 力量 5t", **MIA)  # #3 米娅 0 → 5
    await say(app, ".bat 萨满:力量 5t", **GM)  # #4 萨满 0 → 5
    opening = await run(app, ".bat 暗影刺客:力量 20t", **GM)
    assert opening[0].mentions == ()  # the opening: everyone declares at once, nobody is pinged
    started = await run(app, ".bat 开始", **GM)
    assert started[0].mentions == (ELLA["user"], MIA["user"])  # due at 5t; 萨满 is the GM's
    again = await run(app, ".bat", **GM)
    assert again[0].mentions == ()
    mine = await run(app, ".bat 力量 5t", **ELLA)  # 艾拉 declares; 米娅 is still due: not again
    assert mine[0].mentions == ()
    await say(app, ".bat 萨满:力量 20t", **GM)
    moved = await run(app, ".bat 力量 10t", **MIA)  # the clock moves to 10t: 艾拉 and 托林 are due
    assert moved[0].mentions == (ELLA["user"], TORIN["user"])


async def test_a_guess_follows_the_target_once_the_gm_acts_for_it(app: App) -> None:
    """Aimed at the GM's 哥布林 before the GM acted for it, 托林's 重锤 (no kind word) read as
    〔其他〕 (哥布林 looked like somebody's character); once the GM acts for 哥布林 by name it is an
    NPC, and the guess is read again: 伤害.  A kind the note or the GM named stays."""
    await table(app, auto=False)
    assert "设置完成√" in await say(app, SHEET.format(name="哥布林"), **GM)
    assert "〔其他〕" in await say(app, ".bat 力量 175 >哥布林 重锤", **TORIN)  # #1 0 → 20
    assert "〔交涉〕" in await say(app, ".bat 智力 50 >哥布林 交涉", **MIA)  # #2 0 → 5.71
    await say(app, ".bat 哥布林:敏捷 100 >托林 匕首", **GM)  # #3: 哥布林 is the GM's NPC
    await others_wait(app, ELLA)
    await say(app, ".bat 萨满:力量 400", **GM)
    await say(app, ".bat 暗影刺客:力量 400", **GM)
    text = await say(app, ".bat 开始", **GM) + await say(app, ".bat 推进 21", **GM)
    assert "✔#1 托林 重锤 175.0 @20.0t →哥布林：全额命中175.0，记伤害：.crd 哥布林:hp -175.0 #1" in text
    assert "→哥布林：交涉，不改变体力/意志，效果由GM裁定" in text
