"""NoneBot plugin: the 无限恐怖 D10 success pool (.w .ww .wh); the core plugin routes the commands
(registered with every other service by :func:`chronodice.services.load_all`)."""

from ..config import plugin_meta

__plugin_meta__ = plugin_meta(
    "无限恐怖骰池",
    "无限恐怖 D10 成功骰池：加骰、机运骰、附加成功、DC、对抗、防御、多次攻击分配、倍率计算、精确概率",
    ".ww <骰池> [a9] [dcN] [+Ns] [?]；.help ww 查看全部",
)
