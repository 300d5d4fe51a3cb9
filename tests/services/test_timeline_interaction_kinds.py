"""Issue 25 defect 4: interactions are ruled by the kinds the actions were *declared* as.

Rule book (/work/shared/seeds/000_c731a0cf0506e62e.txt), 交互:

* line 531: 如果角色选择了例如打断、闪避、招架等会影响对方或被对方影响的对抗行为被认为是交互行为;
* line 533: 使用大者的影响数值减去小者的影响数值得到大者最终造成的影响;
* line 535: 气功波 200 vs 护盾 150 → 50; 护盾超过 200 → 不会造成任何伤害.

An action is declared as one by the first word of its note (``.bat 敏捷 50 闪避``,
``.bat 智力 10t >白鸦 打断``).  Only 闪避/招架/护盾 subtract from what hits their owner; 打断
compares; anything else is hit in full.  Every sheet below has 力量/敏捷 175 (35×5), and 巫妖's
智力 is 350, so ``Nt`` of 力量 is 8.75·N and of 智力 17.5·N.
"""

from __future__ import annotations

from helpers import say

from chronodice.app import App

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:{intel},医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GM = {"user": "99999", "roles": ("admin",)}
CROW, LICH = "10001", "10002"


async def table(app: App) -> None:
    """白鸦 (a player), the GM's 巫妖 (智力 70) and the GM's 哥布林, who waits 20t.  (巫妖 is the
    GM's: an unreadable note aimed at the other side is 伤害, issue 39; at one's own, 其他.)"""
    for name, user, intel in (("白鸦", CROW, 35), ("巫妖", GM["user"], 70), ("哥布林", GM["user"], 35)):
        text = await say(app, SHEET.format(name=name, intel=intel), user=user)
        assert f"[{name}] 的TL属性设置完成√" in text
    await say(app, ".bat 哥布林:力量 20t", **GM)  # #1 哥布林 0 → 20


async def start(app: App) -> str:
    """The GM starts the clock once everyone declared; the reply carries the interactions."""
    return await say(app, ".bat 开始", **GM)


async def test_repro_a_dagger_at_somebody_else_is_not_a_defence(app: App) -> None:
    """The issue's repro: 白鸦's 飞刀 is aimed at 哥布林, so 巫妖's hit lands in full (it used to
    say 白鸦胜出，最终造成40.0)."""
    await table(app)
    await say(app, ".bat 力量 120 >哥布林 飞刀", user=CROW)  # #2 白鸦 0 → 13.71
    await say(app, ".bat 巫妖:力量 80 >白鸦", **GM)  # #3 巫妖 0 → 9.14
    text = await start(app)
    assert "⏱ 战斗时间 9.14t" in text
    assert (
        "✔#3 巫妖 力量 80.0 @9.14t →白鸦：白鸦#2（120.0）前摇中，非防御动作，全额命中80.0，"
        "记伤害：.crd 白鸦:hp -80.0 #3"
    ) in text
    assert "胜出" not in text


async def test_a_dodge_bigger_than_the_hit_stops_it_all(app: App) -> None:
    """闪避 50 against 30: the larger side is the dodge, nothing lands (line 535's 护盾 > 200)."""
    await table(app)
    await say(app, ".bat 敏捷 50 闪避", user=CROW)  # #2 白鸦 0 → 5.71
    await say(app, ".bat 巫妖:力量 30 >白鸦", **GM)  # #3 巫妖 0 → 3.43
    text = await start(app)
    assert "✔#3 巫妖 力量 30.0 @3.43t →白鸦：白鸦#2闪避50.0，50.0−30.0 → 完全挡下" in text
    assert "✔#2 白鸦 闪避 50.0 @5.71t" not in text  # not settled yet: the clock is 3.43t


async def test_a_shield_resolving_at_the_same_moment_subtracts_like_the_book(app: App) -> None:
    """Line 535 with both ending at 20t (right-closed): 智力 350 vs 护盾 175 → 175 lands."""
    await table(app)
    await say(app, ".bat 力量 20t 护盾", user=CROW)  # #2 白鸦 0 → 20, 175
    await say(app, ".bat 巫妖:智力 20t >白鸦", **GM)  # #3 巫妖 0 → 20, 350
    text = await start(app)
    assert (
        "✔#3 巫妖 智力 350.0 @20.0t →白鸦：白鸦#2护盾175.0，350.0−175.0 → 命中175.0，"
        "记伤害：.crd 白鸦:hp -175.0 #3"
    ) in text
    assert "✔#2 白鸦 护盾 175.0 @20.0t（护盾）" in text  # settled at the same moment, listed first


async def test_a_parry_aimed_at_somebody_else_does_not_cover_its_owner(app: App) -> None:
    """招架 is against whom it names: aimed at 哥布林, 巫妖's 80 lands in full."""
    await table(app)
    await say(app, ".bat 敏捷 120 >哥布林 招架", user=CROW)  # #2 白鸦 0 → 13.71
    await say(app, ".bat 巫妖:力量 80 >白鸦", **GM)  # #3 巫妖 0 → 9.14
    text = await start(app)
    assert "→白鸦：白鸦#2招架防备的是哥布林，全额命中80.0，记伤害：.crd 白鸦:hp -80.0 #3" in text


async def test_a_parry_aimed_at_the_attacker_subtracts(app: App) -> None:
    await table(app)
    await say(app, ".bat 敏捷 120 >巫妖 招架", user=CROW)  # #2 白鸦 0 → 13.71
    await say(app, ".bat 巫妖:力量 80 >白鸦", **GM)  # #3 巫妖 0 → 9.14
    text = await start(app)
    assert "✔#3 巫妖 力量 80.0 @9.14t →白鸦：白鸦#2招架120.0，120.0−80.0 → 完全挡下" in text


async def test_an_interrupt_that_outweighs_the_windup_stops_it(app: App) -> None:
    """打断 175 against 100 in its windup: 175−100 → the interrupt wins, 75 left; the bot stops
    #2 itself (issue 39 defect 4) and the rest is offered as damage."""
    await table(app)
    await say(app, ".bat 力量 100", user=CROW)  # #2 白鸦 0 → 11.43
    await say(app, ".bat 巫妖:智力 10t >白鸦 打断", **GM)  # #3 巫妖 0 → 10, 175
    text = await start(app)
    assert (
        "✔#3 巫妖 打断 175.0 @10.0t →白鸦：打断白鸦#2（100.0），175.0−100.0 → 打断成功，#2已中止；"
        "余下伤害75.0，记伤害：.crd 白鸦:hp -75.0 #3"
    ) in text
    assert "已经取消" in await say(app, ".bat 取消 #2", **GM)


async def test_an_interrupt_weaker_than_the_windup_fails(app: App) -> None:
    await table(app)
    await say(app, ".bat 力量 300", user=CROW)  # #2 白鸦 0 → 34.29
    await say(app, ".bat 巫妖:智力 10t >白鸦 打断", **GM)  # #3 巫妖 0 → 10, 175
    text = await start(app)
    assert "→白鸦：打断白鸦#2（300.0），300.0−175.0 → 打断未成功，#2照常进行" in text


async def test_a_note_that_mentions_a_kind_later_declares_it_and_says_so(app: App) -> None:
    """Issue 39: the kind is read from anywhere in the note (转身后闪避 is a dodge), and the
    declaration says what it read (the GM changes it with ``.bat 类型`` when it read wrong)."""
    await table(app)
    assert "〔闪避〕" in await say(app, ".bat 敏捷 120 转身后闪避", user=CROW)  # #2 白鸦 0 → 13.71
    await say(app, ".bat 巫妖:力量 80 >白鸦", **GM)  # #3 巫妖 0 → 9.14
    text = await start(app)
    assert "→白鸦：白鸦#2闪避120.0，120.0−80.0 → 完全挡下" in text


async def test_a_defence_aimed_at_the_attacker_does_not_hit_him(app: App) -> None:
    """Found playing: 巫妖's ``.bat 敏捷 50 >白鸦 闪避`` was announced as a full hit of 50 on 白鸦."""
    for user, name in (("10001", "白鸦"), ("10002", "巫妖")):
        assert "设置完成" in await say(app, SHEET.format(name=name, intel=35), user=user)
    await say(app, ".bat 开始 白鸦 巫妖", **GM)
    await say(app, ".bat 力量 120 >巫妖 飞刀", user="10001")
    text = await say(app, ".bat 敏捷 50 >白鸦 闪避", user="10002")
    text += await say(app, ".bat 推进 20", **GM)
    assert "✔#2 巫妖 闪避 50.0 @5.71t（闪避，防备白鸦）" in text, text
    assert "hp -50.0" not in text
