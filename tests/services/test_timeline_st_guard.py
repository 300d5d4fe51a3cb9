"""Issue 39 defect 8: ``.st 敏捷35`` in a TimeLine group made a generic card named after the player,
and her ``.TLsetup 姓名:米娅…`` was then refused (``你已有名为「米娅」的其他系统角色``) without
saying how out; ``.st`` on a TimeLine card changed only the mirror the dice read."""

from __future__ import annotations

from helpers import say

from chronodice.app import App

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GM = {"user": "99999", "roles": ("admin",)}


async def test_st_in_a_timeline_group_says_to_import_and_makes_no_card(app: App) -> None:
    await say(app, ".set tl", **GM)
    text = await say(app, ".st 敏捷35", user="10003", name="米娅")
    assert text == "本群是时间线模式：人物卡用 .TLsetup 导入（.help TLsetup 看格式），.st 不建时间线角色卡"
    assert await app.store.characters.find_character("10003", "米娅") is None
    assert "设置完成√" in await say(app, SHEET.format(name="米娅"), user="10003", name="米娅")


async def test_st_never_writes_a_timeline_card(app: App) -> None:
    await say(app, SHEET.format(name="托林"), user="10002")
    text = await say(app, ".st 敏捷40", user="10002")
    assert text.startswith("时间线角色卡的属性来自 .TLsetup 导入的人物卡，.st 不改它们")
    assert "敏捷:175.0" in await say(app, ".st show", user="10002")


async def test_a_name_taken_by_another_systems_card_says_how_out(app: App) -> None:
    await say(app, ".st 敏捷35", user="10003", name="米娅")  # no mode: a generic card 米娅
    text = await say(app, SHEET.format(name="米娅"), user="10003")
    assert text == (
        "你已有名为「米娅」的通用角色卡，不会被覆盖：换一个姓名，"
        "或先 .pc del 米娅 删掉它（按提示确认；.pc mv 米娅 新名 改名也行）再导入"
    )
    assert "确认" in await say(app, ".pc del 米娅", user="10003")
    assert "已删除" in await say(app, ".pc del 米娅 确认", user="10003")
    assert "设置完成√" in await say(app, SHEET.format(name="米娅"), user="10003")
