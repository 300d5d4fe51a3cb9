"""Issue 25, "for MayuriBot users": what a player coming from MayuriBot expects to keep working.

1. a ``.TLsetup`` (or ``.chr k``) in private chat is the active card in the groups too — MayuriBot
   has one active card per QQ; here the group kept the card bound there before;
2. ``.wp k``, ``.buff del k`` and ``.dr del k`` number rows as MayuriBot's files do.  The
   expected orders below are what MayuriBot's own file operations give under pandas 1.5.3 (its
   lock file), run on the same commands;
3. a GM-only refusal says how to become GM (``.gm add``) or open it to all (``.tlconf open``).
"""

from __future__ import annotations

from helpers import say

from chronodice.app import App

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
WP = ".setupWP 名称:{name},类型:{kind},增幅属性:{attr},伤害:3,前摇:0.5,射程:50,载弹量:{load},装填时间:4,负重:1,备注:"
ME, OTHER, GROUP, GROUP2 = "10001", "10002", "20002", "30003"
GM = {"user": "99999", "roles": ("admin",)}


async def setup(app: App, name: str, user: str = ME, group: str | None = GROUP) -> str:
    text = await say(app, SHEET.format(name=name), user=user, group=group)
    assert f"[{name}] 的TL属性设置完成√" in text
    return text


# ---------------------------------------------------------------- 1: private .TLsetup / .chr
async def test_private_setup_is_the_active_card_in_every_group(app: App) -> None:
    # the repro: 乙 set up in the group, then 丙 in private; the group still played 乙
    await setup(app, "甲", group=None)
    await setup(app, "乙", group=GROUP)
    text = await setup(app, "丙", group=None)
    assert text.endswith("已设为你在所有群的当前时间线角色（1个群原先用的时间线角色已换成它）")
    for where in (GROUP, GROUP2, None):
        assert "[1] 甲\n[2] 乙\n[●] 丙" in await say(app, ".chr", user=ME, group=where)
    assert "行动#1 丙：" in await say(app, ".bat 力量 10", user=ME, group=GROUP)


async def test_private_chr_choice_follows_into_the_group_a_group_choice_stays_there(app: App) -> None:
    await setup(app, "甲", group=GROUP)
    await setup(app, "乙", group=GROUP)
    assert (await say(app, ".chr 1", user=ME, group=None)).startswith("已选择角色 [甲]√\n已设为你在所有群")
    assert "[●] 甲\n[2] 乙" in await say(app, ".chr", user=ME, group=GROUP)
    # chosen in a group: for that group only, as before
    assert await say(app, ".chr 2", user=ME, group=GROUP2) == "已选择角色 [乙]√"
    assert "[●] 甲\n[2] 乙" in await say(app, ".chr", user=ME, group=GROUP)
    assert "[1] 甲\n[●] 乙" in await say(app, ".chr", user=ME, group=GROUP2)


async def test_private_setup_touches_only_the_senders_own_bindings(app: App) -> None:
    await setup(app, "阿星", user=OTHER, group=GROUP)
    await setup(app, "甲", group=GROUP)
    await setup(app, "乙", group=None)
    assert "[●] 阿星" in await say(app, ".chr", user=OTHER, group=GROUP)
    # and private chat still reaches nobody else's card (issue 23)
    assert "私聊里只能查看或修改你自己的角色卡" in await say(
        app, ".crd hp -1", user=ME, group=None, at=(OTHER,)
    )


# ---------------------------------------------------------------- 2: MayuriBot's row numbers
async def test_wp_numbers_weapons_by_name_as_mayuribot(app: App) -> None:
    await setup(app, "甲")
    for name, kind, attr, load in (
        ("长剑", "其他", "", ""),
        ("弓", "火力", "", "6"),
        ("匕首", "增幅", "敏捷", ""),
    ):
        await say(app, WP.format(name=name, kind=kind, attr=attr, load=load))
    # before: by type first (增幅 匕首, 火力 弓, 其他 长剑) — the same here only by chance of names
    assert (
        await say(app, ".wp")
        == "您共持有3个武器\n[●] 匕首\n[2] 弓\n[3] 长剑\n请在指令后使用索引数字来更改武器选择"
    )
    await say(app, WP.format(name="铁锤", kind="增幅", attr="力量", load=""))
    # MayuriBot's file: 匕首 弓 铁锤 长剑 (code points 5315 5F13 94C1 957F); by type it was 匕首 铁锤 弓 长剑
    assert await say(app, ".wp 2") == '已选择武器"弓"√'
    assert await say(app, ".wp 3") == '已选择武器"铁锤"√'
    assert (await say(app, ".wp del 4")).startswith('已删除武器"长剑"√')


async def test_buff_rows_as_mayuribot_numbers_them(app: App) -> None:
    await setup(app, "某")
    await say(app, ".buff a 力量 30")
    await say(app, ".buff b 力量 20")
    # MayuriBot keeps the typed "20" as text for this one sort: after the numbers of its range/type
    assert await say(app, ".buff") == (
        "某共有2个属性修饰\n[1]📍a|30.0\n---🏷力量|直接加算\n[2]📍b|20.0\n---🏷力量|直接加算"
    )
    await say(app, ".buff c 物理 10%")
    await say(app, ".buff d 意志 5")
    # pandas 1.5.3 on MayuriBot's file: c d b a (r_physical > check_willpower > check_strength, then
    # 20 < 30 once re-read); before: d (will) > c (r_physical) > … by our own key names
    assert await say(app, ".buff") == (
        "某共有4个属性修饰\n[1]📍c|10%\n---🏷物理|直接乘算\n[2]📍d|5.0\n---🏷意志|直接加算\n"
        "[3]📍b|20.0\n---🏷力量|直接加算\n[4]📍a|30.0\n---🏷力量|直接加算"
    )
    assert await say(app, ".buff del 2") == "删除buff [2]√"
    assert (await say(app, ".buff")).startswith(
        "某共有3个属性修饰\n[1]📍c|10%\n---🏷物理|直接乘算\n[2]📍b|20.0"
    )


async def test_dr_rows_as_mayuribot_numbers_them(app: App) -> None:
    await setup(app, "某")
    for line in (".dr 甲 -hp 10", ".dr 盾 -hp 20%", ".dr 铠 -hp 5", ".dr 护 -hp 100d 物理"):
        await say(app, line)
    # pandas 1.5.3 on MayuriBot's file: 甲 | 甲 盾 | 铠 甲 盾 | 护 甲 盾 铠 — once a percentage is in
    # the file its values compare as text ("10.0" < "20%" < "5.0"); by number it was 护 盾 铠 甲
    assert await say(app, ".dr") == (
        "某共有4个资源变化修饰\n[1]🛡护|100d\n---🏷-体力|物理\n[2]📍甲|10.0\n---🏷-体力|所有\n"
        "[3]📍盾|20%\n---🏷-体力|所有\n[4]📍铠|5.0\n---🏷-体力|所有"
    )
    assert await say(app, ".dr del 3") == "删除资源变化修饰 [3]√"
    assert await say(app, ".dr") == (
        "某共有3个资源变化修饰\n[1]🛡护|100d\n---🏷-体力|物理\n[2]📍甲|10.0\n---🏷-体力|所有\n"
        "[3]📍铠|5.0\n---🏷-体力|所有"
    )


# ---------------------------------------------------------------- 3: how to become GM
async def test_gm_only_refusals_say_how_to_become_gm(app: App) -> None:
    await setup(app, "甲")
    await setup(app, "乙", user=OTHER)
    await say(app, ".bat 力量 10")
    await say(app, ".bat 力量 10", user=OTHER)
    how = "（群主或管理员可用 .gm add @你 设你为本群GM；或请GM用 .tlconf open 向所有人开放）"
    assert await say(app, ".bat 推进 5") == f"只有群主、管理员、骰主或本群GM可以推进战斗时间{how}"
    assert await say(app, ".bat end") == f"只有群主、管理员、骰主或本群GM可以结束战斗{how}"
    assert await say(app, ".bat 乙:力量 10") == f"只有群主、管理员、骰主或本群GM可以替其他玩家的角色行动{how}"
    assert await say(app, ".bat 力量 10", at=(OTHER,)) == (
        f"只有群主、管理员、骰主或本群GM可以替其他玩家的角色行动{how}"
    )
    # .tlconf itself is the GM's: only .gm add is offered
    assert await say(app, ".tlconf open 开") == (
        "只有群主、管理员、骰主或本群GM可以修改时间线设置（群主或管理员可用 .gm add @你 设你为本群GM）"
    )
    # once a GM opens it, the same member may
    await say(app, ".tlconf open 开", **GM)
    assert "推进" in await say(app, ".bat 推进 5")
