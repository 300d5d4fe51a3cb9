"""``.rc`` in a dnd5e group: the D&D 5e check (and nowhere else)."""

from __future__ import annotations

import random

from helpers import Scripted, say

from chronodice.app import App

GM = {"roles": ("owner",)}


async def test_rc_in_a_dnd5e_group(app: App) -> None:
    await say(app, ".set dnd5e", **GM)
    assert await say(app, ".st str16 dex14 wis12 察觉5") == "已录入 <PL01>：力量:16 敏捷:14 感知:12 察觉:5"
    app.rng = Scripted([15, 4, 1, 3, 19, 2])
    assert await say(app, ".rc 察觉") == "PL01 的察觉检定：D20=15+5(察觉)=20"
    assert await say(app, ".rc 感知 15") == "PL01 的感知检定：D20=4+1(感知)=5 对 DC15 失败"
    assert await say(app, ".rc 隐匿 优势 DC12") == "PL01 的隐匿检定：2D20优势=[1,3]→3+2(敏捷)=5 对 DC12 失败"
    assert await say(app, ".rc 运动 +2 劣势 7 爬墙") == (
        "PL01 的运动（爬墙）检定：2D20劣势=[19,2]→2+3(力量)+2=7 对 DC7 成功"
    )
    assert "没有「烹饪」这项属性或技能" in await say(app, ".rc 烹饪")
    assert "角色卡上没有魅力" in await say(app, ".rc cha")
    assert "请写出属性或技能" in await say(app, ".rc")
    # the CoC commands are left to other bots in a dnd5e group
    assert await say(app, ".ra 侦查") == ""
    # another group keeps its own meaning of .rc
    app.rng = random.Random(1)
    assert "检定：D100=" in await say(app, ".rc 侦查", user="10002", group="30003")
    # ... while a DnD5e card makes .rc the D&D 5e check in a fresh group (issue 30)
    assert "没有「侦查」这项属性或技能" in await say(app, ".rc 侦查", group="30003")
