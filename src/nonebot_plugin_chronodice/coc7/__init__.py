"""NoneBot plugin for CoC 7th (.ra .rah .rab .rap .sc .en .coc .ti .li .setcoc): its description; the
commands are registered with every other service by :func:`chronodice.services.load_all`."""

from ..config import plugin_meta

__plugin_meta__ = plugin_meta(
    "CoC7",
    "克苏鲁的呼唤第七版：技能检定（房规、奖励/惩罚骰、困难/极难、暗中检定）、理智检定、成长、人物作成、疯狂症状",
    ".ra 侦查 / .rab2 侦查 / .sc 1/1d6 / .en 侦查 / .coc 5 / .ti / .li / .setcoc 2",
)
