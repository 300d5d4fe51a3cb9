"""``.bat`` and ``.bat 图`` show each participant's 体力/意志 from the card (issue 11 §4)."""

from __future__ import annotations

import io

from helpers import run, say
from PIL import Image

from chronodice.app import App

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)


async def setup(app: App, name: str, user: str) -> None:
    assert "设置完成√" in await say(app, SHEET.format(name=name), user=user)


async def test_bat_shows_vitals_and_picture_pages(app: App) -> None:
    await setup(app, "甲", "10001")
    await setup(app, "荀彧", "10002")
    await say(app, ".bat 力量 175", user="10001")
    await say(app, ".bat 力量 350", user="10002")
    text = await say(app, ".bat 全")
    assert "荀彧 : 350.0" in text and "体力 150.0/150.0  意志 150.0/150.0\n———————" in text
    await say(app, ".crd hp -30", user="10002")
    await say(app, ".crd mp -15", user="10001")
    text = await say(app, ".bat 全")
    assert "荀彧 : 350.0\n" in text and "体力 120.0/150.0  意志 150.0/150.0" in text
    assert "体力 150.0/150.0  意志 135.0/150.0" in text
    for cmd in (".bat 图", ".bat 图 1", ".bat 图 99"):
        replies = await run(app, cmd)
        img = Image.open(io.BytesIO(replies[0].image or b""))
        assert img.width == 1080, cmd


async def test_a_bare_bat_is_one_line_a_fighter(app: App) -> None:
    """Issue 39 defect 9: bare ``.bat`` was 23–33 lines for 4–6 fighters (MayuriBot's four-line
    blocks, still one ``.bat 全`` away): now the clock, who is next and one line each."""
    sheet = (
        ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
        "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
        "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
    )
    gm = {"user": "99999", "roles": ("admin",)}
    for name, user in (("艾拉", "10001"), ("托林", "10002"), ("米娅", "10003")):
        await say(app, sheet.format(name=name), user=user)
    for name in ("萨满", "哥布林"):
        await say(app, sheet.format(name=name), **gm)
    await say(app, ".bat 力量 100 >萨满 重拳", user="10001")
    await say(app, ".bat 智力 80 >哥布林 火球", user="10002")
    await say(app, ".bat 敏捷 50 闪避", user="10003")
    await say(app, ".bat 萨满:智力 150 >艾拉 眩晕术 意志", **gm)
    await say(app, ".bat 哥布林:力量 60 >米娅 爪击", **gm)
    await say(app, ".bat 开始", **gm)
    text = await say(app, ".bat", **gm)
    assert len(text.splitlines()) == 8  # clock, next, five fighters, the hint
    assert "哥布林[NPC]：#5 爪击 60.0 →米娅 @6.86t ⌛｜体力 150.0/150.0  意志 150.0/150.0" in text
    assert "米娅：#3 闪避 50.0 @5.71t｜" in text
    assert len((await say(app, ".bat 全", **gm)).splitlines()) == 28  # the long form, as it was
