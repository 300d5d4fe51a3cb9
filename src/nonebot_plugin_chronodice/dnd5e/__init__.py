"""NoneBot plugin for D&D 5e checks: ``.rc`` in groups set to ``.set dnd5e``."""

import chronodice.services.dnd5e  # noqa: F401  (hooks the D&D 5e check into .rc for dnd5e groups)

from ..config import plugin_meta

__plugin_meta__ = plugin_meta(
    "DnD5e",
    "龙与地下城第五版：.set dnd5e 的群里 .rc 为属性/技能检定（优势/劣势、±N、DC）",
    ".set dnd5e 后：.rc 察觉 / .rc 力量 15 / .rc 隐匿 优势 DC12",
)
