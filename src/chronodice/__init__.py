"""ChronoDice: a TRPG dice bot library (dice, rule engines, store, services).

Nothing in this package imports NoneBot; the NoneBot glue is the plugin package ``nonebot_plugin_chronodice`` beside it.
"""

__version__ = "0.1.0"
