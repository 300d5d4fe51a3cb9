"""NoneBot plugin: the 无限恐怖 D10 success pool (.w .ww .wh); the core plugin routes the commands."""

from nonebot.plugin import PluginMetadata

import chronodice.services.pool10  # noqa: F401  (registers .w .ww .wh)

from ..config import HOMEPAGE, SUPPORTED_ADAPTERS

__plugin_meta__ = PluginMetadata(
    name="无限恐怖骰池",
    description="无限恐怖 D10 成功骰池：加骰、机运骰、附加成功、DC、对抗、防御、多次攻击分配、倍率计算、精确概率",
    usage=".ww <骰池> [a9] [dcN] [+Ns] [?]；.help ww 查看全部",
    type="application",
    homepage=HOMEPAGE,
    supported_adapters=set(SUPPORTED_ADAPTERS),
)
