"""The battle clock, interactions and control effects through App.dispatch (issue 11 §1–§2)."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

from helpers import say

from chronodice.app import App
from chronodice.core.ratelimit import FloodSettings
from chronodice.store import Store

JIA, YI = "10001", "10002"
GM = {"roles": ("admin",)}
SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:{lv},物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)


async def setup(app: App, name: str, user: str, lv: int = 10) -> None:
    assert f"[{name}] 的TL属性设置完成√" in await say(app, SHEET.format(name=name, lv=lv), user=user)


async def test_interrupt_stun_cancel_older_hit_time_advance_undo(app: App) -> None:
    await setup(app, "甲", JIA)
    await setup(app, "乙", YI)
    # nobody of that name at this table (aiming at 乙 before 乙 declares is fine: issue 25)
    assert "目标「丁」不在战斗中" in await say(app, ".bat 力量 17.5 >丁", user=JIA)
    await say(app, ".bat 力量 175", user=YI)  # #1 乙 0 → 20
    text = await say(app, ".bat 力量 17.5 >乙 侵蚀", user=JIA)  # #2 20·17.5/175 = 2t
    assert "行动#2 甲：0.0t → 2.0t（前摇2.0t）影响 17.5 →乙" in text
    # issue 25: the GM ends the opening (a second declaration did); the clock runs: 2.0t
    text = await say(app, ".bat 开始", user="99999", **GM)
    assert "⏱ 战斗时间 2.0t" in text
    # #2 resolved at 2 while 乙's #1 was winding up: the bot offers the interaction (交互)
    # issue 25 defect 4: 乙's #1 is not declared as a defence, so 甲's 17.5 lands in full; the
    # feed (defect 6) names the settled action and gives the ready command
    assert (
        "✔#2 甲 侵蚀 17.5 @2.0t →乙：乙#1（175.0）前摇中，非防御动作，精神伤害17.5，记精神伤害：.crd 乙:mp -17.5 #2"
    ) in text
    text = await say(app, ".bat 力量 17.5", user=JIA)  # #3 甲 2 → 4
    assert "⏱ 战斗时间 4.0t" in text and "▶ 下一个行动：甲（4.0t）" in text
    # 乙's #1 still winds up: the book (时间轴) has him decide again once it settles; the GM may
    # declare for him by name (issue 39 defect 7)
    refused = await say(app, ".bat 力量 17.5", user=YI)
    assert refused.startswith("[乙]的行动#1还在前摇（20.0t结算）：规则书规定先完成的行动先结算")
    await say(app, ".bat 乙:力量 17.5", user="99999", **GM)  # #4 乙 20 → 22
    # the stun of #2: 乙 resists 17.5 with 意志 150 → 20·17.5/150 = 2.33t from 2t
    assert "只有" in await say(app, ".bat 控制 #2 意志", user=YI)
    text = await say(app, ".bat 控制 #2 意志", user=JIA)
    assert "乙被行动#2控制：17.5 vs 意志 150.0 → 持续2.33t（2.0→4.33t）" in text
    assert "行动#1在前摇中被打断进度，推迟到22.33t结算" in text and "#4→24.33t" in text
    # 乙 cancels the older #1 (not the latest): it stops at the clock, #4 moves up past the stun
    text = await say(app, ".bat 取消 #1", user=YI)
    assert "[乙]取消行动#1于4.0t√ 下一个行动从6.33t开始" in text
    assert "只有" in await say(app, ".bat 取消 #3", user=YI)  # 甲's: GM only
    # a hit is recorded when the hitting action resolved, not at the clock
    text = await say(app, ".crd 乙:hp -20 #2", user="99999", **GM)
    assert "已记入时间轴 @2.0t" in text
    assert "尚未发生" in await say(app, ".crd 乙:hp -20 #4", user="99999", **GM)
    assert "体力: 130.0/150.0" in await say(app, ".crd", user=YI)  # the refused one changed nothing
    # .clash answers only for overlapping actions
    assert "不构成交互：同一角色" in await say(app, ".clash #2 #3")
    text = await say(app, ".clash #2 #1")
    assert "最终造成 157.5" in text
    # 推进: whoever has nothing declared waits; now and next agree
    text = await say(app, ".bat 推进 10", user="99999", **GM)
    assert "战斗时间推进到10.0t" in text and "乙、甲等待到10.0t" in text
    assert "⏱ 战斗时间 10.0t" in text and "▶ 下一个行动：" in text and "（10.0t）" in text
    text = await say(app, ".bat 力量 17.5", user=JIA)
    assert "10.0t → 12.0t" in text
    # .undo takes back the last timeline command, then the 推进
    assert "撤销" in await say(app, ".undo", user="99999", **GM)
    assert "撤销" in await say(app, ".undo", user="99999", **GM)
    assert "⏱ 战斗时间 4.0t" in await say(app, ".bat 全")


async def test_gm_cancels_anybody_and_late_joiner_at_the_clock(app: App) -> None:
    await setup(app, "甲", JIA)
    await setup(app, "乙", YI)
    await setup(app, "Goblin", "99999", lv=5)
    await say(app, ".bat 力量 175", user=JIA)  # 0 → 20
    await say(app, ".bat 力量 87.5", user=YI)  # 0 → 10
    await say(app, ".bat 开始", user="99999", **GM)  # issue 25: the GM ends the opening
    await say(app, ".bat 力量 175", user=YI)  # #3 10 → 30 (乙's #2 settled at 10)
    assert "还在前摇" in await say(app, ".bat 力量 175", user=YI)  # #3 winds up: one at a time
    for _ in range(2):  # the GM rules otherwise and declares far ahead for 乙: 30 → 50 → 70
        await say(app, ".bat 乙:力量 175", user="99999", **GM)
    text = await say(app, ".bat Goblin:力量 43.75", user="99999", **GM)
    assert "[Goblin]（NPC）在20.0t加入战斗" in text  # the clock (甲 decides at 20), not 50
    assert "只有" in await say(app, ".bat 取消 #4", user=JIA)
    text = await say(app, ".bat 取消 #4", user="99999", **GM)  # 乙's 30 → 50, not started
    assert "[乙]取消行动#4（尚未开始）√" in text


async def test_undo_of_bat_end_takes_back_the_ammo_on_the_card(app: App) -> None:
    await setup(app, "甲", JIA)
    await say(
        app,
        ".setupWP 名称:左轮,类型:火力,增幅属性:,伤害:3,前摇:0.5,射程:50,载弹量:6,装填时间:4,负重:1,备注:",
        user=JIA,
    )
    await say(app, ".bat wp 3", user=JIA)
    assert "战斗结束" in await say(app, ".bat end", user="99999", **GM)
    assert "当前载弹: 3" in await say(app, ".wp show", user=JIA)
    text = await say(app, ".undo", user="99999", **GM)
    assert "已恢复角色卡：甲" in text
    rec = await app.store.characters.find_character(JIA, "甲")
    assert rec is not None and rec.data["timeline"]["weapons"][0]["current_load"] == 6  # the card
    assert "当前载弹: 3" in await say(app, ".wp show", user=JIA)  # the battle holds the 3 again
    assert "[3/6]" in await say(app, ".bat 全", user=JIA)
    await say(app, ".bat end", user="99999", **GM)
    assert "当前载弹: 3" in await say(app, ".wp show", user=JIA)
    # leaving writes the ammunition too, and .undo of the leave takes it back with it
    await say(app, ".bat wp 2", user=JIA)
    assert "退出战斗√" in await say(app, ".bat out", user=JIA)
    rec = await app.store.characters.find_character(JIA, "甲")
    assert rec is not None and rec.data["timeline"]["weapons"][0]["current_load"] == 1
    assert "已恢复角色卡：甲" in await say(app, ".undo", user="99999", **GM)
    rec = await app.store.characters.find_character(JIA, "甲")
    assert rec is not None and rec.data["timeline"]["weapons"][0]["current_load"] == 3
    assert "退出" not in await say(app, ".bat 全", user=JIA)


async def test_a_battle_stored_by_main_b61d402_loads_on_the_new_clock(tmp_path: Path) -> None:
    """Schema 1 (clock = the latest start declared) read from a real old database."""
    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).parents[1] / "store" / "fixtures" / "main_b61d402.db", db)
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.migrate()
    try:
        app = App(store, random.Random(1), flood=FloodSettings(enabled=False))
        text = await say(app, ".bat 全", user="10001", group="30003")
        now = re.search(r"⏱ 战斗时间 ([0-9.]+)t", text)
        nxt = re.search(r"▶ 下一个行动：.*（([0-9.]+)t）", text)
        assert now and nxt and float(now.group(1)) == float(nxt.group(1)), text
        assert "行动" in await say(app, ".bat 力量 50", user="10001", group="30003")
        assert "撤销" in await say(app, ".undo", user="10001", group="30003")
    finally:
        await store.close()


async def test_a_target_typed_after_the_note_aims_the_action(app: App) -> None:
    """``.bat 力量 17.5 侵蚀 >乙`` (target last, as typed in a hurry) aims at 乙 like
    ``>乙 侵蚀``; an arrow that names nobody in the battle stays in the note."""
    await setup(app, "甲", JIA)
    await setup(app, "乙", YI)
    await say(app, ".bat 力量 175", user=YI)  # #1 乙 0 → 20
    text = await say(app, ".bat 力量 17.5 侵蚀 >乙", user=JIA)
    assert "行动#2 甲：0.0t → 2.0t（前摇2.0t）影响 17.5 →乙" in text and "侵蚀 >乙" not in text
    text = await say(app, ".bat 开始", user="99999", **GM)  # issue 25: the GM ends the opening
    assert "✔#2 甲 侵蚀 17.5 @2.0t →乙：乙#1（175.0）前摇中" in text
    text = await say(app, ".bat 力量 17.5 往前 →撤退", user=JIA)
    assert "行动#3 甲：2.0t → 4.0t（前摇2.0t）影响 17.5 往前 →撤退〔移动〕\n" in text
