"""NoneBot plugin for CoC 7th: registers its commands with the core router."""

from nonebot.plugin import PluginMetadata

import chronodice.services.coc7  # noqa: F401  (registers .ra .rah .rab .rap .sc .en .coc .ti .li .setcoc)

from ..config import HOMEPAGE, SUPPORTED_ADAPTERS

__plugin_meta__ = PluginMetadata(
    name="CoC7",
    description="克苏鲁的呼唤第七版：技能检定（房规、奖励/惩罚骰、困难/极难、暗中检定）、理智检定、成长、人物作成、疯狂症状",
    usage=".ra 侦查 / .rab2 侦查 / .sc 1/1d6 / .en 侦查 / .coc 5 / .ti / .li / .setcoc 2",
    type="application",
    homepage=HOMEPAGE,
    supported_adapters=set(SUPPORTED_ADAPTERS),
)
