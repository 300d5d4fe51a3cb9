"""The battle views over the real WebSocket (issue 11 §4): names outside GB2312, 体力/意志 in the
text, the 1080 px picture with a death and 体力 changes; §2's commands in the same battle."""

from __future__ import annotations

import base64
import io
import os
from pathlib import Path

from onebot_client import BotProcess, OneBotClient
from PIL import Image

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:,职业:,"
    "等级:{lv},物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
XUN, LONG, JIA, GM = 10001, 10002, 10003, 99999


def picture(call: object) -> Image.Image:
    for seg in call.params["message"]:  # type: ignore[attr-defined]
        if seg.get("type") == "image":
            data = seg["data"]["file"].split("base64://", 1)[1]
            return Image.open(io.BytesIO(base64.b64decode(data)))
    raise AssertionError("no image")


async def test_battle_views_and_rules_over_the_websocket(bot_process: BotProcess) -> None:
    async with OneBotClient(bot_process.url) as c:
        for user, name, lv in ((XUN, "荀彧", 10), (LONG, "龍騎士", 10), (JIA, "甲", 10), (GM, "Goblin", 5)):
            assert "设置完成√" in await c.group(SHEET.format(name=name, lv=lv), user=user, expect=1)
        assert "穿上护甲[皮甲]√" in await c.group(".armor 皮甲 30 20", user=LONG, expect=1)
        await c.group(".bat 力量 175 拔剑", user=XUN, expect=1)
        assert "体力 150.0/150.0  意志 150.0/150.0" in await c.group(".bat", user=XUN, expect=1)
        await c.group(".bat 力量 87.5", user=LONG, expect=1)
        await c.group(".bat Goblin:力量 43.75", user=GM, role="admin", expect=1)
        await c.group(".bat 开始", user=GM, role="admin", expect=1)  # all declared: the GM starts
        assert "受到[虚弱]减益50.0√" in await c.group(
            ".debuff Goblin: 50 虚弱", user=GM, role="admin", expect=1
        )
        text = await c.group(".bat Goblin:力量 40", user=GM, role="admin", expect=1)
        assert text.startswith("（减益-40.0：影响数值 40.0→0.0，剩余减益10.0）")
        await c.group(".bat 敏捷 50", user=JIA, expect=1)
        await c.group(".bat 力量 60", user=LONG, expect=1)
        text = await c.group(".crd hp -60", user=LONG, expect=1)
        assert "180.0→120.0/180.0" in text
        text = await c.group(".crd Goblin: hp -100", user=GM, role="admin", expect=1)
        assert "角色死亡" in text
        text = await c.group(".bat 全", user=XUN, expect=1)
        assert "龍騎士 : 147.5" in text and "体力 120.0/180.0  意志 150.0/150.0" in text
        assert "Goblin[NPC] : 43.8 ☠死亡" in text
        assert "13.0D" in await c.group(".dist 3 4 12", user=JIA, expect=1)
        calls = await c.send(".bat 图", user=XUN, expect=1)
        img = picture(calls[0])
        assert img.width == 1080
        out = os.environ.get("CHRONODICE_E2E_PICTURE")
        if out:
            img.save(Path(out))
        assert "意志 80.0→110.0/150.0" in (
            await c.group(".crd mp -70", user=JIA, expect=1) + await c.group(".crd 休息", user=JIA, expect=1)
        )
