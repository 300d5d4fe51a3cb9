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
    text = await say(app, ".bat")
    assert "荀彧 : 350.0" in text and "体力 150.0/150.0  意志 150.0/150.0\n———————" in text
    await say(app, ".crd hp -30", user="10002")
    await say(app, ".crd mp -15", user="10001")
    text = await say(app, ".bat")
    assert "荀彧 : 350.0\n" in text and "体力 120.0/150.0  意志 150.0/150.0" in text
    assert "体力 150.0/150.0  意志 135.0/150.0" in text
    for cmd in (".bat 图", ".bat 图 1", ".bat 图 99"):
        replies = await run(app, cmd)
        img = Image.open(io.BytesIO(replies[0].image or b""))
        assert img.width == 1080, cmd
