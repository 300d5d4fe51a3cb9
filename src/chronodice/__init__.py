"""ChronoDice: a TRPG dice bot library (dice, rule engines, store, services).

Nothing in this package imports NoneBot; the NoneBot glue lives in ``plugins/``.
"""

__version__ = "0.1.0"
