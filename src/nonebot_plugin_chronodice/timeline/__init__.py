"""NoneBot plugin for TimeLine (时间线: .TLsetup .chr .lv .crd .buff .dr .setupWP .wp .tar .ex .neg .pre
.bat .coop .opp .clash .tlconf): its description; the commands are registered with every other
service by :func:`chronodice.services.load_all`."""

from ..config import plugin_meta

__plugin_meta__ = plugin_meta(
    "时间线",
    "时间线（TimeLine）规则：MayuriBot 同款指令与数值，完整战斗时间轴、协同/对抗检定、交互、先攻",
    ".TLsetup … / .chr / .ex 力量 / .neg 100 / .pre 力量 150 / .bat 力量 150 重拳 / .bat 图 / .crd hp -30",
)
