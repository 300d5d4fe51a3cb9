"""Issue 25, "the bot runs the table": the opening of a TimeLine battle is the GM's.

Rule book (/work/shared/seeds/000_c731a0cf0506e62e.txt, 时间轴): 战斗开始时，所有角色同时决定 —
so typing order makes nobody late, and whoever is at the table can be aimed at before typing.

1. a second declaration (or a GM ``.crd``) closed the opening: the next to type joined late;
2. ``>阿星`` was refused until 阿星 had declared;
3. GM damage during the opening: with ``#N`` at ``#N``'s end (settling it), without at 0.
"""

from __future__ import annotations

from helpers import say

from chronodice.app import App
from chronodice.rules.timeline import battle as bt

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:{intel},医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GM = {"user": "99999", "roles": ("admin",)}
WARRIOR, MAGE, STAR = "10001", "10002", "10003"


async def setup(app: App, name: str, user: str, *, intel: int = 35, group: str | None = "20002") -> None:
    text = await say(app, SHEET.format(name=name, intel=intel), user=user, group=group)
    assert f"[{name}] 的TL属性设置完成√" in text


async def table(app: App) -> None:
    """战士 (力量 175: 100 takes 20·100/175 = 11.43t), 术士, 阿星 (players), 哥布林 (the GM's NPC)."""
    await setup(app, "战士", WARRIOR)
    await setup(app, "术士", MAGE, intel=50)
    await setup(app, "阿星", STAR)
    await setup(app, "哥布林", GM["user"])


# ---------------------------------------------------------------- 1: the opening
async def test_a_second_declaration_does_not_make_the_next_typist_late(app: App) -> None:
    # the repro: before, 战士 joined at 10.0t
    await table(app)
    await say(app, ".bat 智力 5t", user=MAGE)
    text = await say(app, ".bat 智力 5t", user=MAGE)
    assert "开场中" in text
    text = await say(app, ".bat 力量 100", user=WARRIOR)
    assert "[战士]在0.0t加入战斗" in text and "在10.0t加入战斗" not in text
    assert "行动#3 战士：0.0t → 11.43t" in text


async def test_gm_roster_holds_the_clock_for_who_has_not_declared(app: App) -> None:
    await table(app)
    assert "只有" in await say(app, ".bat 开始 战士 术士", user=MAGE)  # the GM's
    text = await say(app, ".bat 开始 战士 术士 哥布林", **GM)
    assert "战斗开始√ 参战：战士（0.0t加入）、术士（0.0t加入）、哥布林（0.0t加入）" in text
    assert "尚未宣言：战士、术士、哥布林（战斗时间停在0.0t，等其宣言）" in text
    await say(app, ".bat 智力 5t", user=MAGE)
    assert "还在前摇" in await say(app, ".bat 智力 5t", user=MAGE)  # one action at a time
    text = await say(app, ".bat 术士:智力 5t", **GM)  # the GM's ruling: a second one queued
    # 战士 and 哥布林 hold it at 0
    assert "⏱ 战斗时间 0.0t｜行动2个｜▶ 下一个行动：战士、哥布林（0.0t）" in text
    text = await say(app, ".bat 力量 100", user=WARRIOR)
    assert "行动#3 战士：0.0t → 11.43t" in text and "加入战斗" not in text  # listed: already in
    text = await say(app, ".bat 哥布林:力量 2t", **GM)
    assert "⏱ 战斗时间 2.0t" in text
    # not on the roster: the battle has started, so a newcomer joins at the clock
    assert "[阿星]在2.0t加入战斗" in await say(app, ".bat 力量 10", user=STAR)


async def test_roster_by_mention_and_a_start_without_names(app: App) -> None:
    await table(app)
    assert "还没有人宣言行动×" in await say(app, ".bat 开始", **GM)
    text = await say(app, ".bat 开始 @10003", **GM)
    assert "参战：阿星（0.0t加入）" in text
    assert "战斗已在进行" in await say(app, ".bat 开始", **GM)
    assert "没有找到角色「无名氏」" in await say(app, ".bat 开始 无名氏", **GM)


async def test_start_without_names_ends_the_opening_with_who_declared(app: App) -> None:
    await table(app)
    await say(app, ".bat 智力 5t", user=MAGE)
    await say(app, ".bat 力量 100", user=WARRIOR)
    text = await say(app, ".bat 开始", **GM)
    assert "战斗开始√ 以已宣言的角色为准" in text and "⏱ 战斗时间 5.0t" in text
    assert "[阿星]在5.0t加入战斗" in await say(app, ".bat 力量 10", user=STAR)


async def test_a_group_that_never_starts_still_plays(app: App) -> None:
    """MayuriBot's flow: no ``.bat 开始``; everyone keeps joining at 0 until the first action
    settles — here the GM enters its hit with ``#1``."""
    await table(app)
    await say(app, ".bat 哥布林:力量 3.2t >术士", **GM)
    await say(app, ".bat 智力 5t", user=MAGE)
    await say(app, ".bat 哥布林:力量 5t", **GM)
    assert "[战士]在0.0t加入战斗" in await say(app, ".bat 力量 100", user=WARRIOR)
    text = await say(app, ".crd 术士:hp -10 #1", **GM)
    assert "（已记入时间轴 @3.2t）" in text
    assert "开场中" not in await say(app, ".bat", **GM)
    assert "[阿星]在5.0t加入战斗" in await say(app, ".bat 力量 10", user=STAR)


# ---------------------------------------------------------------- 2: aiming before they declare
async def test_aim_at_a_card_of_the_table_before_it_declares(app: App) -> None:
    # the repro: before, 目标「阿星」不在战斗中（等其宣言行动后再指定）
    await table(app)
    text = await say(app, ".bat 哥布林:力量 100 >阿星", **GM)
    assert "不在战斗中" not in text
    assert (
        "[哥布林]（NPC）在0.0t加入战斗\n[阿星]作为目标在0.0t加入战斗（尚未宣言行动，战斗时间等其宣言）"
        in text
    )
    assert "影响 100.0 →阿星" in text
    # 阿星 joined with nothing declared: their first action starts at 0
    assert "行动#2 阿星：0.0t → " in await say(app, ".bat 力量 10", user=STAR)


async def test_a_player_aims_at_the_gms_npc_before_it_declares(app: App) -> None:
    await table(app)
    text = await say(app, ".bat 力量 100 >哥布林", user=WARRIOR)
    assert "[哥布林]作为目标在0.0t加入战斗" in text and "→哥布林" in text
    assert "目标「无名氏」不在战斗中" in await say(app, ".bat 力量 100 >无名氏", user=WARRIOR)


async def test_a_card_set_up_elsewhere_is_aimable_once_chosen_here(app: App) -> None:
    await setup(app, "战士", WARRIOR)
    await setup(app, "路人", STAR, group=None)  # private chat: this group does not know it
    assert "目标「路人」不在战斗中" in await say(app, ".bat 力量 100 >路人", user=WARRIOR)
    await say(app, ".chr 1", user=STAR)  # chosen in this group
    assert "[路人]作为目标在0.0t加入战斗" in await say(app, ".bat 力量 100 >路人", user=WARRIOR)


# ---------------------------------------------------------------- 3: GM damage in the opening
async def test_gm_damage_with_an_action_is_at_its_end_and_settles_it(app: App) -> None:
    # before: 行动#1在3.2t结算，尚未发生（当前战斗时间0t） — 阿星, aimed at, held the clock at 0
    await table(app)
    await say(app, ".bat 哥布林:力量 3.2t >阿星", **GM)
    text = await say(app, ".crd 阿星:hp -50 #1", **GM)
    assert "（已记入时间轴 @3.2t）" in text
    assert "已记入时间轴" in await say(app, ".bat 取消 #1", **GM)  # its result is recorded
    assert "⏱ 战斗时间 0.0t｜行动1个\n" in await say(app, ".bat", **GM)  # 阿星 still holds it


async def test_a_death_in_the_opening_can_push_the_clock_forward(app: App) -> None:
    await table(app)
    await say(app, ".bat 哥布林:力量 3.2t >阿星", **GM)
    text = await say(app, ".crd 阿星:hp -200 #1", **GM)
    assert "（已记入时间轴 @3.2t）" in text
    assert "⏱ 战斗时间 3.2t" in await say(app, ".bat", **GM)  # the dead no longer hold it


async def test_gm_damage_without_an_action_is_at_0_and_settles_nothing(app: App) -> None:
    # before: the change closed the opening, and the next to type joined late
    await table(app)
    await say(app, ".bat 智力 5t", user=MAGE)
    await say(app, ".bat 智力 5t", user=MAGE)
    text = await say(app, ".crd 术士:hp -10", **GM)
    assert "（已记入时间轴 @0.0t）" in text
    assert "开场中" in await say(app, ".bat", **GM)
    assert "[战士]在0.0t加入战斗" in await say(app, ".bat 力量 100", user=WARRIOR)


# ---------------------------------------------------------------- the engine
def test_engine_opening_rules() -> None:
    a, b = bt.ParticipantRef(1, "甲", "1"), bt.ParticipantRef(2, "乙", "2")
    s, _, _ = bt.record_action(bt.new_battle(), a, windup=5, impact=1)
    s, _, _ = bt.record_action(s, a, windup=5, impact=1)
    assert not s.started and s.clock == 0.0  # a second declaration keeps the opening
    s, events = bt.open_battle(s, [b])
    assert s.started and s.clock == 0.0 and [e.time for e in events] == [0.0]  # 乙 holds it
    assert bt.hit_time(s, None) == 0.0


async def test_a_control_effect_in_the_opening_asks_to_start_first(app: App) -> None:
    # 阿星, aimed at, holds the clock at 0: a control needs the clock, so the GM starts first
    await table(app)
    await say(app, ".bat 哥布林:力量 3.2t >阿星", **GM)
    text = await say(app, ".bat 控制 #1 意志", **GM)
    assert text.startswith("还在开场，战斗时间未开始：请GM先 .bat 开始"), text  # no clock: start first
    assert "开场中" in await say(app, ".bat", **GM)
