"""NoneBot plugin for D&D 5e: checks, saves, HP, death saves, spell slots, rests, ``.dnd`` and 5e initiative in groups set to ``.set dnd5e``
(.rs .ds .ss .dnd .长休 .短休; .rc .st .ri .init .ed by group mode), registered with every other service by
:func:`chronodice.services.load_all`."""

from ..config import plugin_meta

__plugin_meta__ = plugin_meta(
    "DnD5e",
    "龙与地下城第五版：.set dnd5e 的群里 .rc 检定与豁免、.st 熟练与体力、.ds 死亡豁免、.ss 法术位、.长休/.短休、.dnd 车卡、5e 先攻",
    ".set dnd5e 后：.rc 察觉 / .rc 敏捷豁免 DC13 / .st 隐匿* / .ri / .ds / .ss 1 4 / .dnd",
)
