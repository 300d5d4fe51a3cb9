"""TimeLine commands through App.dispatch: MayuriBot's replies and numbers, and the new features."""

from __future__ import annotations

import re

import pytest
from helpers import run, say

from chronodice.app import App

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:{lv},物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GM = {"roles": ("admin",)}


def sheet(name: str = "甲", lv: int = 10) -> str:
    return SHEET.format(name=name, lv=lv)


async def setup(app: App, name: str = "甲", user: str = "10001", lv: int = 10) -> None:
    text = await say(app, sheet(name, lv), user=user)
    assert f"[{name}] 的TL属性设置完成√" in text


async def test_import_and_show(app: App) -> None:
    text = await say(app, sheet())
    assert "体力 150.0/150.0 意志 150.0/150.0 负重 0.0/175.0 现金 625.0" in text
    replies = await run(app, ".chr show")
    assert replies[0].image and replies[0].image.startswith(b"\x89PNG")
    assert replies[0].text.splitlines()[1] == "体力 150.0/150.0 [100%]  意志 150.0/150.0 [100%]"
    assert len(replies[0].text.splitlines()) == 2  # the sheet is the picture (issue 39 defect 9)
    text = await say(app, ".chr 文字")
    assert "力量: 175.0" in text and "交涉加成 75.0" in text


async def test_import_any_case_fullwidth_and_missing_keys(app: App) -> None:
    text = await say(
        app, sheet().replace(".TLsetup", "。tlsetup").replace(",", "，").replace(":", "：") + "，"
    )
    assert "设置完成√" in text
    text = await say(app, ".TLsetup 姓名:乙,等级:10")
    assert "缺少" in text and "力量" in text and "物理思维比值" in text
    assert "设置完成" not in text


async def test_chr_list_select_delete(app: App) -> None:
    await setup(app, "甲")
    await setup(app, "乙")
    text = await say(app, ".chr")
    assert "您共有2个角色" in text and "[1] 甲" in text and "[●] 乙" in text
    assert "已选择角色 [甲]√" in await say(app, ".chr 1")
    assert "[●] 甲" in await say(app, ".ch")
    assert "已删除角色 [乙]√" in await say(app, ".chr del 2")
    assert "序号错误" in await say(app, ".chr del 5")
    assert await say(app, ".chat hello") == ""  # another bot's command, not ours


async def test_worked_session_section_4_13(app: App) -> None:
    await setup(app)
    assert await say(app, ".pre 力量 150") == "甲: \n力量: 175.0\n影响数值: 150.0\n时间: 17.14"
    assert await say(app, ".pre 10t 力量") == "甲: \n力量: 175.0\n影响数值: 87.5\n时间: 10.0"
    assert await say(app, ".pre力量150") == await say(app, ".pre 力量 150")
    assert await say(app, ".tar 10 10", **GM) == "已设定目标数值为100√"
    text = await say(app, ".ex 力")
    assert text.startswith("甲进行[力量]检定\n目标100 比值175.0/500\n成功率：35%\n检定：")
    roll = int(re.search(r"检定：(\d+)/35", text).group(1))
    assert f"({round(roll / 35, 2):g})" in text
    assert ("🎉成功！" in text) == (roll <= 35)
    assert await say(app, ".neg 10 35") == "已设定交涉对象！"
    assert "成功率：50%" in await say(app, ".neg 100")
    assert "成功率：21%" in await say(app, ".neg 0")
    # issue 25: a declaration answers compactly; MayuriBot's block is one bare .bat away
    text = await say(app, ".bat 力量 150 重拳")
    assert "行动#1 甲：0.0t → 17.14t（前摇17.14t）影响 150.0 重拳" in text and len(text.splitlines()) <= 6
    text = await say(app, ".bat 全")
    assert (
        "甲 : 150.0\n17.14t (17.14t) : 150.0 ⌛\n力量 : 重拳\n体力 150.0/150.0  意志 150.0/150.0\n———————"
        in text
        or (
            "甲 : 150.0\n17.14t (17.14t) : 150.0\n力量 : 重拳\n体力 150.0/150.0  意志 150.0/150.0\n———————"
            in text
        )
    )
    assert "行动#2 甲：17.14t → 22.14t（前摇5.0t）影响 43.8" in await say(app, ".bat 敏捷 5t")
    text = await say(app, ".bat 全")
    assert "甲 : 193.8\n22.14t (5.0t) : 43.8" in text and "\n敏捷\n" in text
    text = await say(app, ".crd hp -30")
    assert text.startswith("甲: \n[体力]变更: [↓]-30.0\n150.0→120.0/150.0 (-30.0)\n100%→80%")


async def test_crd_change_line_difference_is_r1(app: App) -> None:
    """Issue 11 §3: the change line's (new − max) is r1, not the binary difference of two r1 values."""
    await setup(app)
    text = await say(app, ".crd hp -30.8")  # 119.2 − 150 = −30.799999999999997 in binary
    assert "150.0→119.2/150.0 (-30.8)\n" in text
    text = await say(app, ".crd mp -10.7")  # 139.3 − 150 = −10.699999999999989
    assert "150.0→139.3/150.0 (-10.7)\n" in text
    assert "体力: 119.2/150.0 [79%] (-30.799999999999997)" in await say(app, ".crd")  # view: unrounded


async def test_level_change(app: App) -> None:
    await setup(app)
    assert await say(app, ".lv +5") == "[甲]等级变更: [↑]\n10.0→15.0\n全属性变更: +50%"
    assert "力量: 262.5" in await say(app, ".chr 文字")
    assert "带正负号" in await say(app, ".lv 5")
    assert "带正负号" in await say(app, ".lv abc")


async def test_crd_with_defence_and_death(app: App) -> None:
    await setup(app)
    assert "增加资源变化修饰 [甲胄]√\n🛡 -体力 [100d] 物理" in await say(app, ".dr 甲胄 -hp 100d 物理")
    await say(app, ".dr 盾 -hp 20%")
    text = await say(app, ".crd hp -200 物理")
    assert "[体力]变更: [↓]-80.0\n-80.0=[-200]*0.5*0.8+0\n150.0→70.0/150.0" in text
    await say(app, ".d 结界 -all 50%")  # MayuriBot's short alias; ±all applies now
    assert "[意志]变更: [↓]-50.0" in await say(app, ".crd mp -100")
    assert "共有3个资源变化修饰" in await say(app, ".dr")
    assert "[-hp]共有2个" in await say(app, ".dr -hp") or "[-hp]共有3个" in await say(app, ".dr -hp")
    text = await say(app, ".crd hp -1000")
    assert "→0.0/150.0" in text and "角色死亡" in text
    assert "状态重置 体力: 150.0/150.0 意志: 150.0/150.0" in await say(app, ".crd reset")
    assert "150.0→150.0/150.0" in await say(app, ".crd hp +10")  # healing stops at the maximum
    assert "资源错误" in await say(app, ".crd sp -1")
    assert "数字错误" in await say(app, ".crd hp abc")
    assert "删除所有资源变化修饰√" in await say(app, ".dr del all")
    assert "资源变化" not in await say(app, ".draw 3")  # the deck command, not .dr


async def test_cash(app: App) -> None:
    await setup(app)
    assert "[现金]变更: [↓]-25.0\n625.0→600.0" in await say(app, ".crd 现金 -25")


async def test_cash_kept_across_level_reimport_and_weapons(app: App) -> None:
    """Issue 11 §3: 现金 survives .lv, a re-import and a weapon recompute (MayuriBot resets it;
    the rule book does not)."""
    await setup(app)
    assert "625.0→600.0" in await say(app, ".crd 现金 -25")
    await say(app, ".lv +5")
    assert "现金: 600.0" in await say(app, ".crd")
    await say(app, ".lv -3")
    assert "现金: 600.0" in await say(app, ".crd")
    await setup(app)  # re-import of the same sheet
    assert "现金: 600.0" in await say(app, ".crd")
    await say(
        app,
        ".setupWP 名称:左轮,类型:火力,增幅属性:,伤害:3,前摇:0.5,射程:50,载弹量:6,装填时间:4,负重:87.5,备注:",
    )
    assert "现金: 600.0" in await say(app, ".crd")


async def test_pre_impact_from_time_mayuribot_order(app: App) -> None:
    """Issue 11 §3: 力量 225.78, `.pre 力量 15t` → 169.34 ((A/10)·(T/2); A·T/20 gives 169.33)."""
    await setup(app)
    await say(app, ".buff a 力量 50.78")
    text = await say(app, ".pre 力量 15t")
    assert "力量: 225.78 [↑]\n影响数值: 169.34\n时间: 15" in text


async def test_buffs(app: App) -> None:
    await setup(app, lv=10)
    assert "甲还没有buff×" in await say(app, ".buff")
    assert "甲增加buff[a]√\n⚙力量 [20.0] 直接加算" in await say(app, ".buff a 力量 20 1")
    await say(app, ".buff b 力量 10% 2")
    await say(app, ".buff c 物理 5%")
    await say(app, ".buff d 力量 5 3")
    await say(app, ".buf e 所有 10% 4")
    text = await say(app, ".pre 力量 150")
    # ((175 + 20)·(1 + 0.10 + 0.05) + 5)·1.1 = 252.17499… in binary → r2 252.17
    assert "力量: 252.17 [↑]" in text
    assert "共有5个属性修饰" in await say(app, ".buff")
    assert "[敏捷]共有2个" in await say(app, ".buff 敏捷")
    assert "不存在属性[魔力]" in await say(app, ".buff 魔力")
    assert "类型错误" in await say(app, ".buff x 力量 5 9")
    assert "删除buff [1]√" in await say(app, ".buff del 1")
    assert "序号错误" in await say(app, ".buff del 9")
    assert "删除所有buff√" in await say(app, ".bu del all")
    assert "力量: 175.0\n" in await say(app, ".pre 力量 150")


async def test_weapons_weight_and_battle_ammo(app: App) -> None:
    await setup(app)
    text = await say(
        app,
        ".setupWP 名称:左轮,类型:火力,增幅属性:,伤害:3,前摇:0.5,射程:50,载弹量:6,装填时间:4,负重:87.5,备注:",
    )
    assert (
        "甲增加武器[左轮]√\n负重变更: 0.0→87.5/175.0\n负重修正变更: 1.0→0.75\n敏捷变更: 175.0→131.25" in text
    )
    await say(
        app,
        ".setupWP 名称:手术刀,类型:增幅,增幅属性:敏捷,伤害:10,前摇:,射程:,载弹量:,装填时间:,负重:0,备注:锋利",
    )
    assert "您共持有2个武器" in await say(app, ".wp")
    assert '已选择武器"左轮"√' in await say(app, ".wp 2") or '已选择武器"左轮"√' in await say(app, ".wp 1")
    text = await say(app, ".bat wp 3 连射")
    assert "9.0" in text and "[3/6]" in text and "1.5t" in text
    assert "没有足够的弹药× 当前弹药: 3/6" in await say(app, ".bat wp 4")
    assert "火力武器必须使用数字" in await say(app, ".bat wp 5t")
    assert "整备中..." in await say(app, ".bat wp re")
    assert "武器弹药已满" in await say(app, ".bat wp reload")
    assert "载弹——: 6" in await say(app, ".wp show") or "当前载弹: 6" in await say(app, ".wp show")
    assert "战斗结束，时间轴归位√" in await say(app, ".bat end", **GM)
    assert "当前载弹: 6" in await say(app, ".wp show")
    text = await say(app, ".wp del 1")
    assert "已删除武器" in text


async def test_amplifier_weapon_in_battle(app: App) -> None:
    await setup(app)
    await say(
        app, ".setupWP 名称:手术刀,类型:增幅,增幅属性:敏捷,伤害:10,前摇:,射程:,载弹量:,装填时间:,负重:0,备注:"
    )
    text = await say(app, ".bat wp 100")
    assert "行动#1 甲：0.0t → 11.43t（前摇11.43t）影响 110.0 手术刀" in text
    text = await say(app, ".bat 全")
    assert "甲 : 110.0\n11.43t (11.43t) : 110.0" in text and "手术刀 : 敏捷" in text


async def test_target_permissions_and_open_setting(app: App) -> None:
    await setup(app)
    assert "只有" in await say(app, ".tar 100")
    assert "只有" in await say(app, ".tlconf open 开")
    assert "open（设目标/结束战斗/代他人行动对所有人开放）：开" in await say(app, ".tlconf open 开", **GM)
    assert "已设定目标数值为100√" in await say(app, ".tar 100")
    text = await say(app, ".tar 15d")
    roll = int(re.search(r"随机难度：(\d+)", text).group(1))
    assert f"已设定目标数值为{15 * roll}√" in text and 1 <= roll <= 20
    assert "目标数值: " in await say(app, ".tar")
    assert "指令错误" in await say(app, ".tar 0")
    assert "指令错误" in await say(app, ".tar 0d")
    assert await say(app, ".tarot") == ""  # not ours


async def test_sheet_display_rounds_windup_and_caps_rates(app: App) -> None:
    await setup(app)
    await say(app, ".tlconf sheet on", **GM)
    assert "时间: 17\n" in await say(app, ".pre 力量 150") + "\n"
    await say(app, ".tar 10", **GM)
    text = await say(app, ".ex 力量")
    assert "成功率：100%" in text  # 175/(5·10) = 350 % → capped for display


async def test_ex_and_neg_errors(app: App) -> None:
    await setup(app)
    assert "没有目标数值×" in await say(app, ".ex 力量")
    await say(app, ".tar 100", **GM)
    assert "没有找到属性[魔力]×" in await say(app, ".ex 魔力")
    assert "没有交涉对象！" in await say(app, ".neg 100")
    assert "大于0" in await say(app, ".neg 0 35")
    await say(app, ".neg 10 35")
    assert "请正确输入.ne指令！" in await say(app, ".neg")
    assert "「1a」不是有效的RP" in await say(app, ".neg 1a")  # names the bad part (was: 参数应为数字)


async def test_no_character_replies(app: App) -> None:
    for cmd in (".ex 力量", ".crd", ".buff", ".dr", ".wp", ".pre 力量 10", ".lv +1"):
        text = await say(app, cmd)
        assert "还没有角色×" in text or "没有目标数值" in text, cmd


async def test_battle_late_join_cancel_npc_death_undo(app: App) -> None:
    await setup(app, "甲", "10001")
    await setup(app, "乙", "10002")
    await setup(app, "哥布林", "99999", lv=5)
    assert "没有战斗数据×" in await say(app, ".bat 全")
    await say(app, ".bat 力量 175", user="10001")  # 0 → 20
    await say(app, ".bat 力量 350", user="10002")  # 0 → 40
    await say(app, ".bat 开始", **GM)  # issue 25: the GM ends the opening (a 2nd action did)
    text = await say(app, ".bat 敏捷 87.5", user="10001")  # 20 → 30: nobody decides before 30
    assert "⏱ 战斗时间 30.0t" in text and "▶ 下一个行动：甲（30.0t）" in text
    # the GM's NPC joins mid-battle at the battle clock
    await say(app, ".chr 1", user="99999")
    text = await say(app, ".bat 哥布林:力量 43.75", user="99999", **GM)
    assert "[哥布林]（NPC）在30.0t加入战斗" in text
    # 乙 cancels the 40 t action during its windup
    text = await say(app, ".bat 取消", user="10002")
    assert "取消行动#2于30.0t√" in text
    assert "乙 : 0.0" in await say(app, ".bat 全")
    # acting for someone else is GM-only
    assert "只有" in await say(app, ".bat 甲:力量 10", user="10002")
    # damage shows on the timeline; 0 体力 is a death
    text = await say(app, ".crd hp -999", user="10002")
    assert "角色死亡" in text and "已记入时间轴 @30.0t" in text
    assert "乙 : 0.0 ☠死亡" in await say(app, ".bat 全")
    assert "已经死亡" in await say(app, ".bat 力量 10", user="10002")
    # the GM hurts the NPC by name and a player by @; players may not hurt each other
    assert "[体力]变更: [↓]-10.0" in await say(app, ".crd 哥布林: hp -10", user="99999", **GM)
    assert "只有" in await say(app, ".crd 甲: hp -10", user="10002")
    assert "甲: \n[体力]变更: [↓]-10.0" in await say(app, ".crd hp -10", user="99999", at=("10001",), **GM)
    assert "已恢复角色卡：甲" in await say(app, ".undo", **GM)
    assert "体力: 150.0/150.0" in await say(app, ".crd", user="10001")
    assert "已恢复角色卡：哥布林" in await say(app, ".undo", **GM)
    # .undo reverts the timeline entry of the HP line and puts the 体力 back: 乙 lives again
    assert "已恢复角色卡：乙" in await say(app, ".undo", **GM)
    assert "☠死亡" not in await say(app, ".bat 全")
    assert "体力: 150.0/150.0" in await say(app, ".crd", user="10002")
    log = await say(app, ".bat 记录 1")
    assert "#1 甲 0.0→20.0t" in log and "取消" in log
    assert "战斗结束" in await say(app, ".ba end", **GM)
    assert "没有战斗数据×" in await say(app, ".bat end", **GM)


async def test_initiative(app: App) -> None:
    await setup(app, "甲", "10001")
    await setup(app, "乙", "10002")
    await say(app, ".bat 力量 175", user="10001")  # 0 → 20
    await say(app, ".bat 力量 35", user="10002")  # 0 → 4
    assert "只有" in await say(app, ".bat 先攻", user="10001")
    assert "[甲]先攻√ 其他角色从10.0t开始行动" in await say(app, ".bat 先攻 甲:", **GM)
    assert "乙 : 35.0\n14.0t (4.0t)" in await say(app, ".bat 全")


async def test_out_and_picture(app: App) -> None:
    await setup(app)
    await say(app, ".bat 力量 150")
    assert "角色[甲]退出战斗√" in await say(app, ".bat out")
    assert "没有参与战斗×" in await say(app, ".bat out")
    replies = await run(app, ".bat 图")
    assert replies[0].image and replies[0].image.startswith(b"\x89PNG")
    assert await say(app, ".battle") == ""
    assert "只能在群聊" in await say(app, ".bat 全", group=None)


async def test_cooperative_opposed_and_clash(app: App) -> None:
    await setup(app, "甲", "10001")
    await setup(app, "乙", "10002")
    await say(app, ".tar 100", **GM)
    text = await say(app, ".coop 力量 80", user="10001")
    assert "甲 175.0 + 数值 80.0 = 255.0" in text and "成功率：51%" in text
    text = await say(app, ".coop 力量", user="10001", at=("10002",))
    assert "甲 175.0 + 乙 175.0 = 350.0" in text and "成功率：70%" in text
    text = await say(app, ".opp 意志", user="10001", at=("10002",))
    assert "甲[意志] 成功率30%" in text and "乙[意志] 成功率30%" in text and "比值小者胜 →" in text
    assert "后者胜出" in await say(app, ".opp 25/50 35/80")
    assert "平局" in await say(app, ".opp 10/50 10/50")
    assert "最终造成 50.0" in await say(app, ".clash 200 150")
    assert "相互抵消" in await say(app, ".交互 80 80")
    await say(app, ".bat 力量 26.25", user="10001")  # 3 t
    await say(app, ".bat 力量 26.25", user="10002")  # 3 t
    text = await say(app, ".clash #1 #2")
    assert "交互：甲#1 26.2 vs 乙#2 26.2" in text and "相互抵消" in text
    assert "不构成交互" not in text
    await say(app, ".bat 力量 26.25", user="10001")  # 3 → 6
    assert "不构成交互" in await say(app, ".clash #2 #3")


@pytest.mark.parametrize(
    "cmd",
    [
        ".TLsetup",
        ".TLsetup ,,,",
        ".TLsetup 姓名:甲,等级:0",
        ".bat 力量",
        ".bat 魔力 10",
        ".bat 力量 abc",
        ".bat wp 3",
        ".crd hp",
        ".wp del x",
        ".neg 1 2 3 4",
        ".pre 力量",
        ".tar 1 2 3",
        ".clash 1",
        ".opp 力量",
        ".coop",
        ".buff 甲 乙",
        ".dr 甲 -hp",
        ".setupWP 名称:x,类型:魔法",
        ".chr 某",
        ".tlconf foo bar",
    ],
)
async def test_bad_input_gets_a_reply_never_a_crash(app: App, cmd: str) -> None:
    await setup(app)
    text = await say(app, cmd, **GM)
    assert text and "出错了" not in text, text
