"""NoneBot plugin for the D20 tick system (.rc .ri .init .ed .延后 .ap .wound .hp): its description; the
commands are registered with every other service by :func:`chronodice.services.load_all`."""

from ..config import plugin_meta

__plugin_meta__ = plugin_meta(
    "D20刻度",
    "D20刻度先攻系统：检定、20刻战斗追踪（基础/速度规则）、效果时长、AP、伤势与生命量谱",
    ".rc 运动 15 / .ri / .init begin / .init start / .init next / .延后 / .ap -2 / .init eff 目标 效果 2轮",
)
