"""Issue 25, the text side: the resolution feed (defect 6), compact replies (defect 10), the GM's
settings (``.bat 自动伤害``, ``.bat 详细``) and the summary at ``.bat end``.

Standard sheets: level 10, 力量 175, 体力/意志 150; ``.bat 力量 Nt`` has impact 175/10·N/2
(5t → 43.8, 10t → 87.5, 20t → 175.0).  哥布林 is the GM's, wounded to 18 体力 before the battle
(the issue: 短剑突刺 →哥布林 120 landed on an 18-体力 goblin with no prompt).
"""

from __future__ import annotations

import re

from helpers import say

from chronodice.app import App
from chronodice.render.timeline_feed import fit
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import battle_actions as ba
from chronodice.rules.timeline.resolution import Applied, Resolution, play

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GM = {"user": "99999", "roles": ("admin",)}
JIA, YI, BING = {"user": "10001"}, {"user": "10002"}, {"user": "10003"}


async def table(app: App, *, auto: bool = False) -> None:
    """甲 #1 0→5 (no target); 乙 #2 0→10 短剑突刺 >哥布林; 哥布林 #3 0→20 >乙; 甲 #4 5→15 >哥布林."""
    for name, who in (("甲", JIA), ("乙", YI), ("哥布林", GM)):
        assert "设置完成√" in await say(app, SHEET.format(name=name), **who)
    await say(app, ".crd 哥布林:hp -132", **GM)  # no battle yet: the card only, 150 → 18
    if auto:
        assert "自动伤害：开√" in await say(app, ".bat 自动伤害 开", **GM)
    await say(app, ".bat 力量 5t", **JIA)
    await say(app, ".bat 力量 10t >哥布林 短剑突刺", **YI)
    await say(app, ".bat 哥布林:力量 20t >乙", **GM)
    await say(app, ".bat 力量 10t >哥布林", **JIA)


# ---------------------------------------------------------------- the feed (defect 6)
async def test_every_command_that_moves_the_clock_lists_what_settled(app: App) -> None:
    await table(app)
    # the clock opens at 10t (乙 is free then): #1 at 5t and #2 at 10t settle, in that order
    assert await say(app, ".bat 开始", **GM) == (
        "战斗开始√ 以已宣言的角色为准，此后加入者从当前战斗时间开始\n"
        "✔#1 甲 力量 43.8 @5.0t（无目标）\n"
        "✔#2 乙 短剑突刺 87.5 @10.0t →哥布林：哥布林#3（175.0）前摇中，非防御动作，全额命中87.5，"
        "记伤害：.crd 哥布林:hp -87.5 #2（现体力18.0，足以致死）\n"
        "⏱ 战斗时间 10.0t｜行动4个｜▶ 下一个行动：乙（10.0t）"
    )
    # the issue's `.bat 推进 40` → 结算4个行动 without saying which: now each one, with its hit
    assert await say(app, ".bat 推进 40", **GM) == (
        "战斗时间推进到40.0t，结算2个行动；甲、哥布林、乙等待到40.0t\n"
        "✔#4 甲 力量 87.5 @15.0t →哥布林：哥布林#3（175.0）前摇中，非防御动作，全额命中87.5，"
        "记伤害：.crd 哥布林:hp -87.5 #4（现体力18.0，足以致死）\n"
        "✔#3 哥布林 力量 175.0 @20.0t →乙：全额命中175.0，记伤害：.crd 乙:hp -175.0 #3（现体力150.0，足以致死）\n"
        "⏱ 战斗时间 40.0t｜行动4个｜▶ 下一个行动：甲、哥布林、乙（40.0t）"
    )


async def test_a_gm_crd_that_settles_lists_the_feed_too(app: App) -> None:
    """In the opening the GM's first result with #k closes it: what settles is listed, the hit
    just entered as recorded (not offered again)."""
    await table(app)
    text = await say(app, ".crd 哥布林:hp -10 #1", **GM)  # #1 is aimed at nobody: the GM's call
    # the clock opens at 10t: #1 and 乙's #2 settle, #2's hit offered as the ready command
    assert text.endswith(
        "（已记入时间轴 @5.0t）\n✔#1 甲 力量 43.8 @5.0t（无目标）\n"
        "✔#2 乙 短剑突刺 87.5 @10.0t →哥布林：哥布林#3（175.0）前摇中，非防御动作，全额命中87.5，"
        "记伤害：.crd 哥布林:hp -87.5 #2"
    )
    text = await say(app, ".crd 哥布林:hp -5 #2", **GM)
    assert text.endswith("（已记入时间轴 @10.0t）") and "✔" not in text  # settled already: no feed


async def test_automatic_damage_applies_each_hit_and_reads_a_death_right(app: App) -> None:
    await table(app, auto=True)
    # #2 kills the 18-体力 goblin at 10t: its #3 (due 20t) is void; 甲's #4 (15t) finds it dead
    assert await say(app, ".bat 开始", **GM) == (
        "战斗开始√ 以已宣言的角色为准，此后加入者从当前战斗时间开始\n"
        "✔#1 甲 力量 43.8 @5.0t（无目标）\n"
        "✔#2 乙 短剑突刺 87.5 @10.0t →哥布林：哥布林#3（175.0）前摇中，非防御动作，全额命中87.5，"
        "已扣除：体力18.0→0.0 ☠哥布林死亡，#3作废\n"
        "⏱ 战斗时间 10.0t｜行动4个｜▶ 下一个行动：乙（10.0t）"
    )
    assert "体力: 0.0/150.0" in await say(app, ".crd 哥布林:", **GM)
    assert "@10.0t ☠ 哥布林 死亡" in await say(app, ".bat 记录", **GM)
    assert await say(app, ".bat 推进 40", **GM) == (
        "战斗时间推进到40.0t，结算1个行动；甲、乙等待到40.0t\n"
        "✔#4 甲 力量 87.5 @15.0t →哥布林：目标已于10.0t死亡，未造成影响\n"
        "⏱ 战斗时间 40.0t｜行动4个｜▶ 下一个行动：甲、乙（40.0t）"
    )
    # one .undo takes the advance back, the next the start with its hit: the card is 18 again
    assert "已撤销：.bat 推进 40" in await say(app, ".undo", **GM)
    assert "已撤销：.bat 开始" in await say(app, ".undo", **GM)
    assert "体力: 18.0/150.0" in await say(app, ".crd 哥布林:", **GM)
    assert "☠" not in await say(app, ".bat 全", **GM)


async def test_two_hits_at_one_moment_the_second_finds_the_target_dead(app: App) -> None:
    for name, who in (("甲", JIA), ("乙", YI), ("哥布林", GM)):
        await say(app, SHEET.format(name=name), **who)
    await say(app, ".crd 哥布林:hp -100", **GM)  # 50 left
    await say(app, ".bat 自动伤害 开", **GM)
    await say(app, ".bat 开始 甲 乙 哥布林", **GM)
    await say(app, ".bat 哥布林:力量 20t", **GM)  # #1 0→20
    await say(app, ".bat 力量 10t >哥布林", **JIA)  # #2 0→10, 87.5
    text = await say(app, ".bat 力量 10t >哥布林", **YI)  # #3 0→10, 87.5: both resolve at 10t
    assert "已扣除：体力50.0→0.0 ☠哥布林死亡，#1作废" in text
    assert "✔#3 乙 力量 87.5 @10.0t →哥布林：目标已于10.0t死亡，未造成影响" in text


async def test_auto_damage_is_a_setting_of_the_battle(app: App) -> None:
    await table(app)
    assert await say(app, ".bat 自动伤害", **JIA) == "自动伤害：关（.bat 自动伤害 开/关）"
    assert "只有" in await say(app, ".bat 自动伤害 开", **JIA)
    assert "自动伤害：开√" in await say(app, ".bat 自动伤害 开", **GM)
    assert await say(app, ".bat autodamage on", **GM) == "自动伤害已经是开"
    assert "已撤销" in await say(app, ".undo", **GM)  # the setting is part of the battle
    assert await say(app, ".bat 自动伤害", **GM) == "自动伤害：关（.bat 自动伤害 开/关）"
    await say(app, ".bat 自动伤害 开", **GM)
    await say(app, ".bat end", **GM)
    assert await say(app, ".bat 自动伤害", **GM) == "自动伤害：关（.bat 自动伤害 开/关）"


def test_play_applies_in_order_and_resolves_what_a_death_lets_settle() -> None:
    """The pure loop: 乙's hit kills 甲 at 4t, who held the clock at 5t; 甲's #1 (settling at 5t
    in the same command) is void and left out of the feed, named by the hit instead; the clock
    moves on to 乙's next free moment (8t) and 乙's #3 settles in the same call."""
    a, b = bt.ParticipantRef(1, "甲", "1"), bt.ParticipantRef(2, "乙", "2", npc=True)  # 乙 the GM's: 伤害
    s, _, _ = ba.attribute_action(bt.new_battle(), a, "strength", 175, time=5)  # #1 0→5
    s, _, _ = ba.attribute_action(s, b, "strength", 175, time=4, target="c1")  # #2 0→4, 35
    s, _, _ = ba.attribute_action(s, b, "strength", 175, time=4)  # #3 4→8
    before = s
    s, _ = bt.open_battle(s, [])
    assert s.clock == 5.0 and [x.id for x in bt.newly_settled(before, s)] == [2, 1]
    hits: list[tuple[int, str, float]] = []

    def damage(r: Resolution, key: str) -> Applied:
        hits.append((r.action.id, key, r.landed))
        return Applied(-30.0, 30.0, 0.0, 150.0)

    final, done = play(before, s, damage)
    assert hits == [(2, "c1", 35.0)]
    assert [(r.action.id, r.outcome, r.died, r.voided) for r in done] == [
        (2, "full", True, (1,)),
        (3, "untargeted", False, ()),
    ]
    assert final.clock == 8.0  # 甲 is dead: the clock is 乙's
    assert [(r.action.id, r.applied) for r in play(before, s)[1]] == [(2, None), (1, None)]  # no damage


# ---------------------------------------------------------------- compact replies (defect 10)
async def five(app: App) -> None:
    """3 players and 2 NPCs on the roster, as the issue's table."""
    for name, who in (("甲", JIA), ("乙", YI), ("丙", BING), ("哥布林", GM), ("狼人", GM)):
        await say(app, SHEET.format(name=name), **who)
    await say(app, ".bat 开始 甲 乙 丙 哥布林 狼人", **GM)


async def test_a_declaration_answers_in_at_most_six_lines(app: App) -> None:
    await five(app)
    await say(app, ".bat 哥布林:力量 10t", **GM)  # #1 0→10
    await say(app, ".bat 狼人:力量 8t >甲", **GM)  # #2 0→8, 70
    await say(app, ".bat 力量 4t >狼人", **YI)  # #3 0→4
    await say(app, ".bat 力量 6t", **BING)  # #4 0→6
    text = await say(app, ".bat 力量 2t >哥布林 重拳", **JIA)  # #5 0→2: the clock reaches 2t
    assert text == (
        "行动#5 甲：0.0t → 2.0t（前摇2.0t）影响 17.5 →哥布林 重拳〔伤害〕\n"
        "✔#5 甲 重拳 17.5 @2.0t →哥布林：哥布林#1（87.5）前摇中，非防御动作，全额命中17.5，"
        "记伤害：.crd 哥布林:hp -17.5 #5\n"
        "⏱ 战斗时间 2.0t｜行动5个｜▶ 下一个行动：甲（2.0t）"
    )
    # the whole timeline is one bare .bat away (the long form)
    whole = await say(app, ".bat 全", **GM)
    assert len(whole.splitlines()) == 28 and whole.count("———————") == 6


async def test_a_long_feed_is_folded_into_six_lines_without_losing_a_command(app: App) -> None:
    await five(app)
    # #1–#6: two 2t jabs each at 狼人 (17.5), resolving at 2t and 4t; the second one the GM
    # declares by name (a player's own waits for the first to settle, issue 39 defect 7)
    for who, name in ((JIA, "甲"), (YI, "乙"), (BING, "丙")):
        await say(app, ".bat 力量 2t >狼人", **who)
        await say(app, f".bat {name}:力量 2t >狼人", **GM)
    text = await say(app, ".bat 推进 10", **GM)  # the NPCs held the clock at 0: all six settle
    lines = text.split("\n")
    assert (
        len(lines) == 6
        and lines[0] == "战斗时间推进到10.0t，结算6个行动；甲、乙、丙、哥布林、狼人等待到10.0t"
    )
    assert lines[1] == (
        "✔#1 甲 力量 17.5 @2.0t →狼人：全额命中17.5，记伤害：.crd 狼人:hp -17.5 #1；"
        "✔#3 乙 力量 17.5 @2.0t →狼人：全额命中17.5，记伤害：.crd 狼人:hp -17.5 #3"
    )
    assert lines[-1] == "⏱ 战斗时间 10.0t｜行动6个｜▶ 下一个行动：甲、乙、丙、哥布林、狼人（10.0t）"
    for k in range(1, 7):
        assert f".crd 狼人:hp -17.5 #{k}" in text
    assert re.findall(r"✔#(\d+)", text) == ["1", "3", "5", "2", "4", "6"]  # in the order they resolve


async def test_verbose_setting_brings_the_long_form_back(app: App) -> None:
    await five(app)
    assert "只有" in await say(app, ".bat 详细 开", **JIA)
    assert await say(app, ".bat 详细", **JIA) == "详细回复：关（.bat 详细 开/关）"
    assert await say(app, ".bat 详细 开", **GM) == "详细回复：开√ 本群每条战斗指令都附完整时间轴"
    text = await say(app, ".bat 力量 2t", **JIA)
    assert text.startswith("行动#1 甲：0.0t → 2.0t（前摇2.0t）影响 17.5\n⏱ 战斗时间 0.0t｜行动1个\n")
    assert text.count("———————") == 6  # every participant's block, as before the compact form
    assert "关√" in await say(app, ".bat verbose off", **GM)
    text = await say(app, ".bat 甲:力量 2t", **GM)  # 甲's #1 still winds up: the GM's call
    assert len(text.splitlines()) == 2 and "———————" not in text


def test_fit_keeps_first_and_last_and_every_line_between() -> None:
    lines = ["头", *(f"✔#{k}" for k in range(1, 10)), "尾"]
    out = fit(lines)
    assert out == ["头", "✔#1；✔#2；✔#3", "✔#4；✔#5", "✔#6；✔#7", "✔#8；✔#9", "尾"]


# ---------------------------------------------------------------- the summary at .bat end
async def test_end_gives_the_summary(app: App) -> None:
    await table(app)
    await say(app, ".bat 开始", **GM)  # clock 10t
    await say(app, ".crd 哥布林:hp -18 #2", **GM)  # 乙 kills 哥布林 at 10t: #3 void
    await say(app, ".crd 乙:hp -7", **GM)  # a loss with no source
    assert await say(app, ".bat 推进 20", **GM) == (
        "战斗时间推进到20.0t，结算1个行动；甲、乙等待到20.0t\n"
        "✔#4 甲 力量 87.5 @15.0t →哥布林：目标已于10.0t死亡，未造成影响\n"
        "⏱ 战斗时间 20.0t｜行动4个｜▶ 下一个行动：甲、乙（20.0t）"
    )
    assert await say(app, ".bat 结束", **GM) == (
        "战斗结束，时间轴归位√ 历时20.0t，完成行动3个（另有未注明来源的伤害7.0）\n"
        "甲：行动2 造成0.0 承受0.0\n"
        "哥布林[NPC]☠10.0t：行动0 造成0.0 承受18.0\n"  # the GM acted for it by name: an NPC
        "乙：行动1 造成18.0 承受7.0"
    )
    assert "没有战斗数据" in await say(app, ".bat 全", **GM)


async def test_a_gm_crd_that_kills_answers_in_six_lines(app: App) -> None:
    """The issue's e2e bar: no reply over six lines but bare ``.bat``/``.bat 记录``.  A ``.crd``
    that kills used to take seven (MayuriBot's four lines, the death, the timeline stamp and the
    voided actions): the stamp now joins the death line."""
    await table(app)
    await say(app, ".bat 开始", **GM)
    text = await say(app, ".crd 哥布林:hp -87.5 #2", **GM)
    assert text == (
        "哥布林: \n"
        "[体力]变更: [↓]-87.5\n"
        "18.0→0.0/150.0 (-150.0)\n"
        "12%→0%\n"
        "☠ 哥布林的体力降至0，角色死亡（已记入时间轴 @10.0t）\n"
        "#3 因哥布林在10.0t死亡而作废"
    )


async def test_tlconf_lists_the_verbose_setting(app: App) -> None:
    assert "详细（战斗指令附完整时间轴，.bat 详细 开/关）：关" in await say(app, ".tlconf", **GM)
    await say(app, ".bat 详细 开", **GM)
    assert "详细（战斗指令附完整时间轴，.bat 详细 开/关）：开" in await say(app, ".tlconf", **GM)
